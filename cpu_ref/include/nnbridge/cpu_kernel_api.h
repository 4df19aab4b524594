// Custom kernels for the "cpu" backend: what a kernel is, and the interface an extension
// library registers its kernels through (docs/architecture.md "Backends": custom CPU kernels come in
// through a registration API and extension shared libraries loaded by path; the model is
// OpenVINO's CPU extensions, seed document 003).
//
// This header is the whole contract of an extension library: everything in it is inline, so
// an extension compiles against it and nnbridge's core headers (graph.h, attr.h, dtype.h) and
// links against nothing of nnbridge's. Of those core headers an extension may use the data
// members and inline members only (Node, TensorType, Quantization, Attr::is/get, DataType);
// TensorType::element_count(), to_string(DataType) and the like live in the nnbridge library
// and would be undefined symbols in the extension (build it with -Wl,--no-undefined to be told
// at link time, as examples/extension does).
//
// ABI: an extension exports one `extern "C"` function, nnbridge_cpu_extension (see
// NNBRIDGE_CPU_EXTENSION below), which receives kCpuKernelAbiVersion of the loading nnbridge and
// a KernelRegistrar. The types crossing that boundary are C++ types (std::string,
// std::function, std::vector, the IR structs), so the extension must be built with the same
// compiler family and C++ standard library as nnbridge (Debian 12: g++ and libstdc++, as
// OpenVINO requires of its CPU extensions); kCpuKernelAbiVersion changes whenever any of those
// types changes layout.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge::cpu_ref {

/// Version of the extension ABI: this header's types, the KernelRegistrar interface, and the
/// layouts of Node, TensorType, Quantization, Attr and DataType. A library built for another
/// version is refused at load time.
inline constexpr uint32_t kCpuKernelAbiVersion = 1;

/// The exported name of an extension's entry point.
inline constexpr const char* kCpuExtensionEntryPoint = "nnbridge_cpu_extension";

/// What a shape function sees of one node.
///
/// Attribute getters return the node's attribute, or `fallback` when the node has none, and
/// throw std::invalid_argument when the attribute has another type (the backend reports it as
/// Error(Invalid) naming the node).
struct CustomNode {
  const Node& node;  ///< op, name (an Arm NN StandIn layer's name says what it stands for), attrs
  std::span<const TensorType> inputs;            ///< resolved; dtype Undefined for an absent optional input
  std::span<const TensorType> declared_outputs;  ///< as the graph declares them (dims may be -1, dtype Undefined)

  /// The node's attribute `name`, or nullptr (no schema defaults: the op may have no schema).
  const Attr* attr(std::string_view name) const {
    auto it = node.attrs.find(name);
    return it == node.attrs.end() ? nullptr : &it->second;
  }
  /// An int (a bool reads as 0/1).
  int64_t attr_int(std::string_view name, int64_t fallback = 0) const {
    const Attr* a = attr(name);
    if (!a) return fallback;
    if (a->is<int64_t>()) return a->get<int64_t>();
    if (a->is<bool>()) return a->get<bool>() ? 1 : 0;
    throw std::invalid_argument("attribute " + std::string(name) + " is not an int");
  }
  /// A float (an int is converted).
  double attr_float(std::string_view name, double fallback = 0) const {
    const Attr* a = attr(name);
    if (!a) return fallback;
    if (a->is<double>()) return a->get<double>();
    if (a->is<int64_t>()) return static_cast<double>(a->get<int64_t>());
    throw std::invalid_argument("attribute " + std::string(name) + " is not a float");
  }
  /// A string.
  std::string attr_string(std::string_view name, std::string fallback = {}) const {
    const Attr* a = attr(name);
    if (!a) return fallback;
    if (a->is<std::string>()) return a->get<std::string>();
    throw std::invalid_argument("attribute " + std::string(name) + " is not a string");
  }
  /// A list of ints.
  std::vector<int64_t> attr_ints(std::string_view name, std::vector<int64_t> fallback = {}) const {
    const Attr* a = attr(name);
    if (!a) return fallback;
    if (a->is<std::vector<int64_t>>()) return a->get<std::vector<int64_t>>();
    throw std::invalid_argument("attribute " + std::string(name) + " is not a list of ints");
  }
  /// A list of floats.
  std::vector<double> attr_floats(std::string_view name, std::vector<double> fallback = {}) const {
    const Attr* a = attr(name);
    if (!a) return fallback;
    if (a->is<std::vector<double>>()) return a->get<std::vector<double>>();
    throw std::invalid_argument("attribute " + std::string(name) + " is not a list of floats");
  }
};

/// One tensor handed to a compute function: its resolved type and its elements in the
/// type's storage form, little-endian, C order (float32: float; float16/bfloat16: uint16 bit
/// patterns; quantized: the storage integers, real = scale * (q - zero_point) per
/// `type->quantization`; bool: one byte 0/1). The cpu backend keeps every tensor in float32
/// between nodes (nnbridge/cpu_ref.h), so a non-float32 tensor is converted from that form for
/// the call and the outputs back after it: int32/int64 values beyond 2^24 in magnitude arrive
/// rounded. Float32 tensors are passed in place.
template <class Byte>
struct TensorRef {
  const TensorType* type = nullptr;  ///< resolved dtype, shape and quantization
  Byte* data = nullptr;    ///< nullptr for an absent optional input
  std::size_t count = 0;   ///< elements (1 for a 0-d tensor)
  std::size_t bytes = 0;   ///< count times the element size

  /// The elements as T; throws std::invalid_argument when sizeof(T) is not the element size.
  template <class T>
  std::span<std::conditional_t<std::is_const_v<Byte>, const T, T>> as() const {
    if (count * sizeof(T) != bytes) throw std::invalid_argument("tensor element size is not sizeof(T)");
    using P = std::conditional_t<std::is_const_v<Byte>, const T, T>;
    return {reinterpret_cast<P*>(data), count};
  }
};
using InputTensor = TensorRef<const std::byte>;  ///< read-only input elements
using OutputTensor = TensorRef<std::byte>;       ///< output elements the kernel writes

/// What a compute function gets for one execution of one node.
struct KernelCall {
  const CustomNode& node;                ///< the node (attributes); declared_outputs are the resolved output types
  std::span<const InputTensor> inputs;   ///< one per node input
  std::span<const OutputTensor> outputs; ///< one per node output, zero-filled, of the types the shape function gave
  int threads = 1;                       ///< worker threads the kernel may use (BackendOptions::threads, resolved)
};

/// Output types of a node from its input types and attributes. Must return one fully known
/// type (dtype and every dim) per node output; where the graph declares a dtype or a dim, it
/// must agree (the declared dtype and quantization win). Throw std::invalid_argument for a
/// node that is inconsistent (Error(Invalid)), any other exception for a node this kernel
/// cannot handle (Error(Unsupported)); nnbridge::Error keeps its code.
using ShapeFunction = std::function<std::vector<TensorType>(const CustomNode&)>;
/// Computes the outputs from the inputs. Called from Plan::run, possibly from several threads
/// at once for the same node: it must not modify shared state. An exception becomes
/// Error(Backend) naming the node and carrying the exception's message.
using ComputeFunction = std::function<void(const KernelCall&)>;

/// A kernel for one (op, dtype).
struct CustomKernel {
  /// The node op it runs: a canonical op ("Gelu"), a format-native op ("armnn.StandIn",
  /// "vk.<name>"), or any name a graph node carries.
  std::string op;
  /// The dtype it handles, matched against the node's first input (its first declared output
  /// when it has no inputs). Undefined matches every dtype; an exact match is preferred.
  DataType dtype = DataType::Float32;
  /// May be empty: the graph's declared output types are then used and must be fully known.
  ShapeFunction infer;
  /// Required.
  ComputeFunction compute;
  /// Not consulted: a custom kernel replaces the built-in kernel of `op` whatever this says
  /// (the one precedence rule of both backends, cpu_ref.h KernelRegistry). Kept so that the
  /// layout, and so kCpuKernelAbiVersion, stay those of the libraries already built.
  bool override_builtin = false;
};

/// The interface an extension library registers kernels through. Its methods are virtual so
/// that an extension needs no symbol of nnbridge's.
class KernelRegistrar {
 public:
  /// Registers `kernel`. Returns false when it is refused: no op, no compute function, or
  /// (op, dtype) already registered (by this library, another one or the application); the
  /// loader then fails with an error naming the library and the reason.
  virtual bool add(CustomKernel kernel) = 0;
  /// Reports that the extension cannot register its kernels (the loader's error carries `why`).
  virtual void fail(std::string_view why) = 0;

 protected:
  ~KernelRegistrar() = default;
};

/// What the entry point returns: 0 when it registered its kernels, -1 when it failed (after
/// calling fail()), or, when the loader's ABI version is not the one it was built for, that
/// version (> 0) without touching the registrar.
inline constexpr int32_t kCpuExtensionOk = 0;       ///< kernels registered
inline constexpr int32_t kCpuExtensionFailed = -1;  ///< registration failed; fail() said why

/// The entry point's type: `int32_t nnbridge_cpu_extension(uint32_t abi_version, KernelRegistrar*)`.
using CpuExtensionEntry = int32_t (*)(uint32_t abi_version, KernelRegistrar* registrar);

}  // namespace nnbridge::cpu_ref

/// Defines an extension's entry point, calling `register_fn(nnbridge::cpu_ref::KernelRegistrar&)`
/// after checking the ABI version; an exception from `register_fn` is reported through fail().
/// Use once per library, at namespace scope.
#define NNBRIDGE_CPU_EXTENSION(register_fn)                                                                     \
  extern "C" __attribute__((visibility("default"))) int32_t nnbridge_cpu_extension(                            \
      uint32_t abi_version, ::nnbridge::cpu_ref::KernelRegistrar* registrar) {                                  \
    if (abi_version != ::nnbridge::cpu_ref::kCpuKernelAbiVersion)                                               \
      return static_cast<int32_t>(::nnbridge::cpu_ref::kCpuKernelAbiVersion);                                   \
    try {                                                                                                       \
      register_fn(*registrar);                                                                                  \
      return ::nnbridge::cpu_ref::kCpuExtensionOk;                                                              \
    } catch (const std::exception& e) {                                                                         \
      registrar->fail(e.what());                                                                                \
    } catch (...) {                                                                                             \
      registrar->fail("an exception of unknown type");                                                          \
    }                                                                                                           \
    return ::nnbridge::cpu_ref::kCpuExtensionFailed;                                                            \
  }
