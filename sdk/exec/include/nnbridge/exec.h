// Executing graphs: host tensors, the backend interface, the backend registry and validate()
// (docs/architecture.md "Backends").
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/buffer.h"
#include "nnbridge/graph.h"

namespace nnbridge {

/// A tensor in host memory: its type (dtype, shape, quantization) and its bytes,
/// little-endian, C order, `type.byte_size()` of them.
///
/// The bytes are a core Buffer, so a HostTensor either owns them or views memory kept alive
/// by another owner (a mapped .npy file, the caller's array): feeding inputs never copies.
/// Quantized tensors hold their storage integers (QAsymmU8: uint8, ...); the real value is
/// `scale * (q - zero_point)` per `type.quantization`.
class HostTensor {
 public:
  HostTensor() = default;
  /// Takes `bytes`; throws Error(Invalid) when the type's shape is not fully known or the
  /// size is not `type.byte_size()`.
  static HostTensor owned(TensorType type, std::vector<std::byte> bytes);
  /// Views `bytes` (no copy); `owner` keeps them alive. Same checks as owned().
  static HostTensor view(TensorType type, std::span<const std::byte> bytes, std::shared_ptr<const void> owner);
  /// Wraps an existing Buffer (no copy). Same checks as owned().
  static HostTensor from_buffer(TensorType type, Buffer data);
  /// Copies typed values: `T` must match the storage type of `type.dtype`.
  template <class T>
  static HostTensor from_values(TensorType type, std::span<const T> values) {
    auto b = std::as_bytes(values);
    return owned(std::move(type), std::vector<std::byte>(b.begin(), b.end()));
  }

  const TensorType& type() const noexcept { return type_; }
  DataType dtype() const noexcept { return type_.dtype; }
  const std::vector<int64_t>& shape() const noexcept { return type_.shape; }
  const Buffer& buffer() const noexcept { return data_; }
  std::span<const std::byte> bytes() const noexcept { return data_.bytes(); }
  /// Number of elements (1 for a 0-d tensor).
  std::size_t element_count() const noexcept;
  /// The elements as `T`; throws Error(Invalid) when sizeof(T) is not the element size.
  template <class T>
  std::span<const T> values() const {
    check_element_size(sizeof(T));
    return {reinterpret_cast<const T*>(data_.data()), data_.size() / sizeof(T)};
  }
  /// Every element converted to double: quantized types dequantized (per-tensor or per-axis),
  /// float16/bfloat16 widened, bool as 0/1. Used by validate() and tests.
  std::vector<double> to_double() const;

 private:
  void check_element_size(std::size_t size) const;
  TensorType type_;
  Buffer data_;
};

/// Tensors by graph input or output name (Value::name).
using TensorMap = std::map<std::string, HostTensor, std::less<>>;

/// The integer type that stores a dtype's elements: quantized types map to their storage
/// (QAsymmU8 -> UInt8, QAsymmS8/QSymmS8 -> Int8, QSymmS16 -> Int16); others map to themselves.
DataType storage_type(DataType t);

/// Kernels a caller adds to one backend (docs/architecture.md "Backends": custom kernels come in through a
/// registration API). Each backend defines its own subclass (cpu: nnbridge::cpu_ref::KernelRegistry
/// in nnbridge/cpu_ref.h); a backend uses the sets whose backend() is its name and ignores the rest,
/// so one BackendOptions can carry sets for several backends (validate()).
class CustomKernelSet {
 public:
  virtual ~CustomKernelSet() = default;
  /// The name of the backend the kernels are for ("cpu").
  virtual std::string_view backend() const = 0;
};

/// How a backend is asked to prepare a graph.
struct BackendOptions {
  /// Worker threads; 0 means all cores.
  int threads = 0;
  /// Extension shared libraries (by path) that register kernels, loaded by prepare() on top of
  /// `custom_kernels` (cpu: see nnbridge/cpu_kernel_api.h; each failure is an Error naming the path).
  std::vector<std::string> extensions;
  /// Kernels registered by the application, shared (a plan keeps what it uses alive).
  std::vector<std::shared_ptr<const CustomKernelSet>> custom_kernels;
  /// Backend-specific options, namespaced by backend ("cpu.xxx").
  std::map<std::string, std::string, std::less<>> options;
  /// Backends (registered names, find_backend), in order, that run a node the prepared backend
  /// has no kernel for, or whose kernel refuses the node's form or fails to build: the first of
  /// them that prepares the node alone runs it (nnbridge/exec/prepare.h), with these same options
  /// (custom kernels, extensions, threads) and the rest of the list. Empty: such a node is
  /// Error(Unsupported). The prepared backend's own name is skipped. (The opencl backend's
  /// `opencl.fallback=cpu` option is the list {"cpu"}.)
  std::vector<std::string> fallback;
  /// prepare() runs every node whose inputs are all constants once and keeps its outputs as
  /// constants, whatever their dtype and size (the input-bound plan of nnbridge/exec/input_bound.h
  /// sets it: its graph then runs at prepare). false: only the shape arithmetic of
  /// nnbridge/exec/prepare.h is folded.
  bool fold_all_constants = false;
};

/// Which backend runs one node of a prepared graph (Plan::placement).
struct NodePlacement {
  std::size_t node = 0;  ///< index in Graph::nodes
  std::string name;      ///< Node::name
  std::string op;        ///< Node::op
  std::string backend;   ///< the backend that runs it: the prepared one, or one of its fallback list
  /// The name of the node whose kernel computes this one as well, or empty: the cpu backend folds
  /// a Relu or Clip into the Conv before it when nothing else reads the Conv's output, and the
  /// Relu / Clip / QuantizeLinear nodes after a DequantizeLinear of 8-bit integers into that
  /// DequantizeLinear (docs/api.md, "Numerics of the cpu backend": the values are the same bits).
  /// Empty as well when that node has no name: fused_into_node says which it is.
  std::string fused_into;
  /// The index in Graph::nodes of the node named by fused_into; nullopt when none.
  std::optional<std::size_t> fused_into_node;
};

/// The wall-clock time of one step of a profiled run (Plan::run_profiled): one node, with the
/// nodes fused into it (NodePlacement::fused_into names them; they get no entry of their own).
struct NodeTime {
  std::size_t node = 0;  ///< index in Graph::nodes
  std::string name;      ///< Node::name
  std::string op;        ///< Node::op
  std::string backend;   ///< the backend that ran it (as NodePlacement::backend)
  /// Milliseconds from the step's start to its end on std::chrono::steady_clock, all of the
  /// step's threads together (wall time, not CPU time): the kernel, and the zeroing and dtype
  /// rounding of its outputs that the plan does around it.
  double ms = 0;
};

/// A prepared graph. Immutable after Backend::prepare(); run() may be called many times,
/// also from several threads at once.
class Plan {
 public:
  virtual ~Plan() = default;
  /// Runs the graph. `inputs` holds one tensor per graph input, by name, of the input's dtype
  /// (or its storage type) and exact shape. Returns one tensor per graph output, by name,
  /// of the output's declared dtype. Throws Error(Invalid) naming the input for a missing,
  /// extra, mis-shaped or mis-typed tensor, Error(Backend) when a kernel fails.
  virtual TensorMap run(const TensorMap& inputs) const = 0;
  /// run(), timing each step: `times` is cleared, then gets one NodeTime per step in the order
  /// the steps ran. The outputs are the same as run()'s. A node computed at prepare (a constant
  /// folded) or fused into another has no step. The steps' times do not add up to the whole run,
  /// which also checks and converts the inputs and outputs. Throws what run() throws, and
  /// Error(ErrorId::Feature) (nnbridge.unsupported.306) from a plan that does not time its steps
  /// (this default): the cpu backend's plans time theirs; the opencl backend's do not, nor do
  /// input-bound plans (nnbridge/exec/input_bound.h: shapes that depend on input values, which
  /// compute every node while preparing at each run).
  virtual TensorMap run_profiled(const TensorMap& inputs, std::vector<NodeTime>& times) const;
  /// The graph inputs' and outputs' resolved types, in graph order.
  virtual const std::vector<std::pair<std::string, TensorType>>& input_types() const = 0;
  virtual const std::vector<std::pair<std::string, TensorType>>& output_types() const = 0;
  /// Every node in the order run() executes them, with the backend that runs each (a node that
  /// fell back names the backend it fell back to). Empty for a plan that does not say.
  virtual const std::vector<NodePlacement>& placement() const;
};

/// The backends a plan's nodes run on, each once, in order of first appearance, with their
/// node counts: what `run --json` reports.
std::vector<std::pair<std::string, std::size_t>> backend_counts(const Plan& plan);

/// An execution backend ("cpu", "opencl").
class Backend {
 public:
  virtual ~Backend() = default;
  /// The name it is registered under.
  virtual std::string name() const = 0;
  /// Shape inference, memory plan and kernel choice for `g`. Throws Error(Unsupported)
  /// naming the node and op for an op without a kernel, Error(Invalid) for an inconsistent graph.
  virtual std::unique_ptr<Plan> prepare(const Graph& g, const BackendOptions& options) const = 0;
};

/// Registers `backend` under backend->name(), replacing one of the same name. Built-in
/// backends are registered explicitly by their libraries (e.g. nnbridge::cpu_ref::register_backend()),
/// never by static initializers, so that linking a static library cannot silently drop them.
void register_backend(std::shared_ptr<const Backend> backend);
/// The backend named `name`, or nullptr.
std::shared_ptr<const Backend> find_backend(std::string_view name);
/// Every registered backend, sorted by name.
std::vector<std::shared_ptr<const Backend>> all_backends();

/// When two outputs agree: float types |a - e| <= atol + rtol * |e| (elementwise, as
/// numpy.allclose); quantized types |q_a - q_e| <= quantized_steps, in storage integers;
/// integer and bool types exactly.
///
/// `atol` unset (the default) scales with the expected output: default_atol() of its dtype and
/// of S = max |e| over its finite elements, so that an output whose values are all tiny is not
/// passed by an absolute bound larger than the values themselves (with numpy.allclose's fixed
/// atol, any actual values below 1e-5 would pass an expected output of 1e-16s). A set `atol` is
/// applied exactly as given, in the output's real values.
struct Tolerance {
  std::optional<double> atol;
  double rtol = 1e-4;
  int64_t quantized_steps = 1;
};

/// The factor of the scaled default atol: 1e-5 for outputs of unit scale and above (numpy's
/// and nnbridge's former fixed default).
inline constexpr double kDefaultAtolFactor = 1e-5;

/// The absolute tolerance used when Tolerance::atol is unset, for an expected output of float
/// dtype `t` whose largest finite magnitude is `scale`:
/// max(kDefaultAtolFactor * min(1, scale), smallest normal number of `t`).
/// Below unit scale the bound shrinks with the data; at and above it, it is the former fixed
/// 1e-5 (the rtol term already grows with large values). The floor is the dtype's smallest
/// normal (float32 and bfloat16 1.18e-38, float16 6.1e-5, float64 2.2e-308): OpenCL devices may
/// flush subnormal results to zero (OpenCL C "Edge Case Behavior"), so differences below it
/// are not errors. Other dtypes: kDefaultAtolFactor * min(1, scale).
double default_atol(DataType t, double scale);

/// The max_ulp value of a NaN compared with a number (or with a NaN of another sign: never,
/// NaNs compare equal to each other whatever their sign and payload).
inline constexpr uint64_t kUlpNaNMismatch = UINT64_MAX;

/// Distance between two floating-point numbers in units in the last place: how many
/// representable values of the type lie between them, i.e. the difference of their positions
/// when every value is put on one integer line (the "ordered integer" mapping of the IEEE 754
/// bit pattern: non-negative values keep their bits, a negative value maps to minus the bits
/// of its magnitude). So ulp_distance(1.0f, std::nextafter(1.0f, 2.0f)) == 1, +0 and -0 are 0
/// apart, the smallest positive and negative subnormals are 2 apart (across both zeros, which
/// count as one value), FLT_MAX and +inf are 1 apart. NaN: two NaNs are 0 apart (any sign or
/// payload), a NaN and a non-NaN are kUlpNaNMismatch apart. Never throws.
uint64_t ulp_distance(float a, float b);
uint64_t ulp_distance(double a, double b);
/// The same on IEEE 754 binary16 values given by their bit patterns.
uint64_t ulp_distance_float16(uint16_t a_bits, uint16_t b_bits);
/// The same on bfloat16 values (the top 16 bits of a float32) given by their bit patterns.
uint64_t ulp_distance_bfloat16(uint16_t a_bits, uint16_t b_bits);

/// The comparison of one output of one backend.
struct OutputReport {
  std::string output;
  std::string backend;
  double max_abs_error = 0;  ///< in real values (quantized: dequantized)
  double max_rel_error = 0;  ///< max |a - e| / |e| over elements with e != 0
  int64_t max_steps = 0;     ///< quantized types: the largest difference in storage integers
  /// The largest distance between an actual and its expected element in units in the last
  /// place (ulp_distance): float32, float64, float16 and bfloat16 each in the units of their own
  /// type; kUlpNaNMismatch when a NaN meets a number. Integer, bool and quantized types have
  /// a step of one storage integer: their max_ulp is the largest |a - e| in storage integers
  /// (for quantized types equal to max_steps). 0 when the tensors could not be compared
  /// (shape or dtype differ; see message).
  uint64_t max_ulp = 0;
  /// The absolute tolerance applied to this output (Tolerance::atol, or default_atol() of its
  /// expected values when that is unset); 0 for integer, bool and quantized outputs.
  double atol = 0;
  bool passed = false;
  std::string message;       ///< why it failed (shape or dtype mismatch, a backend error); empty if it passed
};

struct ValidationReport {
  std::vector<OutputReport> outputs;  ///< backend-major, then graph output order
  bool passed() const;
};

/// Compares `actual` against `expected` under `tol`: one OutputReport per expected tensor
/// (a name missing from `actual` fails). `backend` only labels the reports.
std::vector<OutputReport> compare_outputs(const TensorMap& actual, const TensorMap& expected, const Tolerance& tol,
                                          std::string_view backend = {});

/// Runs `g` on each backend in `backends` and compares every output with `expected`, or,
/// when `expected` is null, with the first backend's outputs. With `expected` null and one
/// backend, there is nothing to compare it with: a lone "cpu" throws Error(Invalid) ("nothing
/// to compare with", as the CLI's `validate` exits 2), and any other lone backend is compared
/// with "cpu", which is run first (as the CLI does). Without `expected` the first backend is
/// the reference and gets no reports of its own (reports are for backends 2..n); when it fails,
/// it gets failed reports and so does every other backend ("no reference outputs"). An unknown
/// backend or a backend that throws gives failed reports carrying the message; validate() itself throws Error(Invalid) for an
/// empty backend list, a backend named twice, and the lone cpu above.
ValidationReport validate(const Graph& g, const TensorMap& inputs, std::span<const std::string> backends,
                          const Tolerance& tol, const TensorMap* expected = nullptr,
                          const BackendOptions& options = {});

}  // namespace nnbridge
