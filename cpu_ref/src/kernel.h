// Internal kernel interface of the CPU reference backend.
//
// A kernel factory runs once at prepare time with the node's resolved types and attributes
// and returns a Kernel closure, which computes in float32 from input buffers into output
// buffers, as many times as the plan runs. Factories throw Error(Unsupported) for attribute
// values they do not implement, Error(Invalid) for inconsistent shapes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/error.h"
#include "nnbridge/graph.h"
#include "nnbridge/op_schema.h"

namespace nnbridge::cpu_ref {

using Shape = std::vector<int64_t>;

/// What a factory sees of one node.
struct KernelContext {
  const Node& node;
  const OpSchema* schema = nullptr;
  std::vector<TensorType> in;   ///< resolved input types (Undefined for an absent optional input)
  std::vector<TensorType> out;  ///< resolved output types (shapes fully known)
  std::vector<const std::vector<float>*> constants;  ///< float32 contents of constant inputs, else nullptr
  bool from_armnn = false;      ///< the graph was read from an Arm NN file: Arm NN CpuRef's rules apply
  int threads = 1;              ///< worker threads a kernel may use (BackendOptions::threads, resolved)
  /// Format-specific attributes of each input value (Value::attrs), nullptr for an absent input:
  /// what the IR's types do not carry, e.g. the scale of an Arm NN Int32 tensor.
  std::vector<const AttrMap*> in_attrs;

  bool has_input(std::size_t i) const { return i < in.size() && in[i].dtype != DataType::Undefined; }
  const Attr* attr(std::string_view name) const;  ///< the node's, else the schema default, else nullptr
  bool has_attr(std::string_view name) const { return node.attrs.find(name) != node.attrs.end(); }
  int64_t attr_int(std::string_view name, int64_t fallback = 0) const;
  double attr_float(std::string_view name, double fallback = 0) const;
  std::string attr_string(std::string_view name, std::string fallback = {}) const;
  std::vector<int64_t> attr_ints(std::string_view name, std::vector<int64_t> fallback = {}) const;
  [[noreturn]] void unsupported(const std::string& what) const;
  [[noreturn]] void invalid(const std::string& what) const;
};

/// Computes outputs from inputs (float32, C order, sizes of the resolved types).
using Kernel = std::function<void(std::span<const float* const> in, std::span<float* const> out)>;
using KernelFactory = std::function<Kernel(const KernelContext&)>;
using KernelTable = std::map<std::string, KernelFactory, std::less<>>;

// One registration function per op-family file under kernels/.
void add_elementwise_kernels(KernelTable&);
void add_activation_kernels(KernelTable&);
void add_softmax_kernels(KernelTable&);
void add_conv_kernels(KernelTable&);
void add_gemm_kernels(KernelTable&);
void add_pool_kernels(KernelTable&);
void add_shape_kernels(KernelTable&);
void add_reduce_kernels(KernelTable&);
void add_normalization_kernels(KernelTable&);
void add_quantize_kernels(KernelTable&);
void add_resize_kernels(KernelTable&);
void add_space_kernels(KernelTable&);
void add_conv_transpose_kernels(KernelTable&);
void add_lstm_kernels(KernelTable&);
void add_qlstm_kernels(KernelTable&);
void add_detection_post_process_kernels(KernelTable&);
void add_layer_norm_kernels(KernelTable&);
void add_where_kernels(KernelTable&);
void add_rearrange_kernels(KernelTable&);
void add_gather_scatter_kernels(KernelTable&);
void add_executorch_kernels(KernelTable&);

/// The table of every built-in kernel.
const KernelTable& kernels();

/// Scale per output channel for an Int32 bias (input 2) that carries no quantization while X
/// (input 0) and W (input 1) are quantized: X's scale times W's (per-channel) scale, the
/// relation Arm NN requires of quantized Convolution2d / FullyConnected biases. Empty when
/// the bias needs no scaling.
std::vector<float> implied_bias_scale(const KernelContext& ctx, int64_t channels);

/// Calls fn(i) for i in [0, n) on up to `threads` threads (the caller's and workers of one
/// process-wide Eigen thread pool, one per core); items must be independent. The first
/// exception thrown by an item is rethrown after every item has finished.
void parallel_for(int threads, int64_t n, const std::function<void(int64_t)>& fn);
/// Splits [0, n) into at most `threads` ranges of at least `grain` items (a multiple of 16
/// except the last) and calls fn(begin, end) for each, as parallel_for does.
void parallel_ranges(int threads, int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn);

// ---- shape helpers ----
int64_t numel(const Shape& s);
/// C-order strides.
Shape strides_of(const Shape& s);
/// `axis` in [-rank, rank) made non-negative; throws Error(Invalid).
int64_t norm_axis(int64_t axis, int64_t rank);

}  // namespace nnbridge::cpu_ref
