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

#include "nnbridge/axis.h"
#include "nnbridge/error.h"
#include "nnbridge/exec/node_context.h"
#include "nnbridge/exec/shape.h"
#include "nnbridge/graph.h"
#include "nnbridge/op_schema.h"

namespace nnbridge::cpu_ref {

using exec::Shape;
/// What a factory sees of one node: the exec floor's node context (nnbridge/exec/node_context.h),
/// the same one the opencl backend's factories see.
using KernelContext = exec::NodeContext;
using exec::implied_bias_scale;
using exec::numel;
using exec::strides_of;

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
void add_index_kernels(KernelTable&);
void add_value_shaped_kernels(KernelTable&);
void add_matrix_kernels(KernelTable&);
void add_axis_kernels(KernelTable&);
void add_loss_kernels(KernelTable&);
void add_bitwise_kernels(KernelTable&);
void add_qlinear_kernels(KernelTable&);
void add_rnn_kernels(KernelTable&);

/// The table of every built-in kernel.
const KernelTable& kernels();

/// Calls fn(i) for i in [0, n) on up to `threads` threads (the caller's and the workers of one
/// process-wide pool, a worker per core but one); items must be independent. Each thread first
/// runs its own contiguous share of [0, n) (the caller the first), so that successive calls with
/// the same split keep each part of a tensor on one core, then takes what is left of the
/// others'. The first exception thrown by an item is rethrown after every item has finished.
void parallel_for(int threads, int64_t n, const std::function<void(int64_t)>& fn);
/// Splits [0, n) into at most `threads` ranges of at least `grain` items (a multiple of `align`
/// except the last: 16 keeps element ranges on whole vector registers) and calls fn(begin, end)
/// for each, as parallel_for does.
void parallel_ranges(int threads, int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn, int64_t align = 1);

// Shape helpers (numel, strides_of, broadcast_strides) are nnbridge/exec/shape.h's; the axis
// rule is nnbridge/axis.h's normalize_axis.

}  // namespace nnbridge::cpu_ref
