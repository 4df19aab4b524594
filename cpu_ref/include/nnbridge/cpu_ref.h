// The CPU reference backend, registered as "cpu" (docs/architecture.md "Backends").
//
// Every tensor is computed in float32: inputs, constants and intermediate results of other
// dtypes are converted to float32, each kernel computes in float32, and each node's result is
// then rounded to the node's declared output dtype and back (quantized types: requantized with
// round half away from zero and clamping, float16 rounded to nearest with ties away from zero,
// bfloat16 to nearest even), as Arm NN
// CpuRef's Decoder/Encoder pairs do (armnn/src/backends/reference/workloads/BaseIterator.hpp).
// Arm NN layers without a canonical op that CpuRef 20.08 runs (armnn.Lstm, armnn.QLstm,
// armnn.DetectionPostProcess) have kernels that follow CpuRef's workloads step by step;
// armnn.QLstm also rounds its internal buffers where CpuRef does (cpu_ref/src/kernels/qlstm.cc).
//
// Speed: Eigen products for Conv, Gemm and MatMul; xsimd kernels, compiled once per x86
// instruction set and chosen at run time (simd_arch()), for elementwise ops, activations,
// softmax, reductions, BatchNormalization and depthwise convolution; BackendOptions::threads
// (0: all cores) workers of one process-wide thread pool, which spin for up to 1 ms after each
// parallel region (as ONNX Runtime's intra-op threads do) before they sleep; a plan keeps its intermediate tensors
// in one reused arena and reads float32 inputs in place (bench/README.md has the measurements).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/cpu_kernel_api.h"
#include "nnbridge/exec.h"

namespace nnbridge::cpu_ref {

/// The backend object ("cpu").
std::shared_ptr<const Backend> backend();
/// Registers backend() with nnbridge::register_backend(); call once before find_backend("cpu").
void register_backend();
/// The canonical ops this backend has a kernel for, sorted.
std::vector<std::string> supported_ops();
/// The instruction set its vector kernels use on this CPU, as xsimd names it ("avx512f",
/// "avx2", "sse4.2", "sse2"): the best one compiled in that the CPU supports (xsimd::dispatch).
std::string simd_arch();

/// Custom kernels for the cpu backend, registered by the application and by extension libraries
/// (nnbridge/cpu_kernel_api.h), handed to prepare() through BackendOptions::custom_kernels:
///
///     auto reg = std::make_shared<nnbridge::cpu_ref::KernelRegistry>();
///     reg->add({.op = "vk.my_op", .dtype = DataType::Float32, .infer = ..., .compute = ...});
///     reg->load_extension("build/lib/libnnbridge_scaled_tanh.so");  // examples/extension
///     BackendOptions options;
///     options.custom_kernels.push_back(reg);
///     auto plan = find_backend("cpu")->prepare(graph, options);
///
/// A registry is an ordinary object, not a process-wide table: each prepare() sees the kernels
/// of the registries in its options plus the libraries in BackendOptions::extensions. Kernel
/// choice per node, at prepare time: a custom kernel for (op, dtype), else the built-in kernel
/// of op; the dtype is the node's first input's (an exact registration before one for
/// DataType::Undefined). A custom kernel replaces the built-in one: the one precedence rule of
/// both backends (opencl's OpenVINO custom layers too), OpenVINO's own (its GPU plugin looks an
/// op's type up in the custom-layer configuration before its built-in primitives,
/// ProgramBuilder::CreateSingleLayerPrimitive); docs/api.md "Custom kernels and custom layers".
/// A plan keeps the kernels it uses, and their libraries, loaded for as long as it lives.
/// Not safe to modify from several threads at once; const use (prepare) is.
class KernelRegistry final : public CustomKernelSet {
 public:
  /// "cpu": the backend these kernels are for.
  std::string_view backend() const override { return "cpu"; }

  /// Registers `kernel` for the application. Throws Error(Invalid) when it has no op or no
  /// compute function, or when (op, dtype) is already registered (the message names by whom).
  void add(CustomKernel kernel);
  /// Registers every kernel of `other` (same checks as add(); nothing is added on error).
  void add_all(const KernelRegistry& other);
  /// Loads the extension library at `path` (dlopen) and registers its kernels; nothing is added
  /// on error. Throws nnbridge::Error with file = `path`: Io when the file does not exist;
  /// Unsupported when it is not a loadable shared library (the dynamic loader's message, e.g.
  /// an undefined symbol), exports no `nnbridge_cpu_extension`, or was built for another
  /// kCpuKernelAbiVersion; Invalid when a registration is refused (a conflict names both
  /// registrants) or the extension reports a failure.
  void load_extension(const std::filesystem::path& path);

  /// The kernel for (op, dtype): an exact registration, else one for DataType::Undefined, else
  /// nullptr. `source` receives who registered it ("the application" or the library's path).
  const CustomKernel* find(std::string_view op, DataType dtype, std::string* source = nullptr) const;
  /// The dtypes registered for `op` (for error messages), in registration order.
  std::vector<DataType> dtypes_of(std::string_view op) const;
  /// Number of registered kernels.
  std::size_t size() const;

  struct Entry;  ///< internal: a kernel with its registrant and the library that holds its code

 private:
  friend struct RegistryAccess;
  std::vector<std::shared_ptr<const Entry>> entries_;
};

}  // namespace nnbridge::cpu_ref
