// Internal op interface of the opencl backend: one factory per canonical op, run at prepare
// time with the node's resolved types and attributes (the exec floor's NodeContext,
// nnbridge/exec/node_context.h, the one cpu's kernels see, so both backends read attributes and
// defaults the same way), returning a Launch that enqueues the
// node's kernels on the device. Factories throw Error(Unsupported) for attribute values they
// do not implement, Error(Invalid) for inconsistent shapes, Error(Backend) for a failed build.
#pragma once

#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "device.h"
#include "nnbridge/axis.h"
#include "nnbridge/error.h"
#include "nnbridge/exec/node_context.h"
#include "nnbridge/exec/shape.h"

namespace nnbridge::gpu {

using KernelContext = exec::NodeContext;
using exec::numel;
using exec::Shape;
using exec::strides_of;

struct OpContext {
  const KernelContext& k;
  const Device& dev;
  std::string label;  ///< `node 3 "name" (Op)`, for build errors
  /// A kernel `name` of the embedded file `file`, built (or taken from the cache) now.
  cl::Kernel kernel(const char* file, const char* name) const;
  /// A read-only device buffer holding `v` (at least one element).
  cl::Buffer ints(const std::vector<int>& v) const;
  cl::Buffer floats(const std::vector<float>& v) const;
  /// `v` as an int, or Error(Unsupported) when the device kernels' int indexing cannot hold it.
  int to_int(int64_t v) const;
};

/// Enqueues one node: `in` (absent optional inputs: a 1-element dummy) and `out` are the
/// node's device buffers, float32, C order, of the resolved shapes.
using Launch = std::function<void(const Device&, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out)>;
using OpFactory = std::function<Launch(const OpContext&)>;
using OpTable = std::map<std::string, OpFactory, std::less<>>;

void add_elementwise_ops(OpTable&);  // ops.cc: unary, binary, variadic, Where, Mod, Identity-like copies, Transpose, Concat
void add_nn_ops(OpTable&);           // ops_nn.cc: Softmax, Gemm, MatMul, Reduce*, BatchNormalization
void add_convert_ops(OpTable&);  // ops_convert.cc: Cast*, *QuantizeLinear, Shape, Size, Rank, ConstantOfShape, Dropout
void add_data_ops(OpTable&);  // ops_data.cc: Slice, Pad, Split, Tile, Expand, CumSum, ArgMax, ... (and the four below)
void add_rearrange_ops(OpTable&);  // ops_rearrange.cc: ReverseV2, ChannelShuffle, StridedSlice, Stack, Space/BatchND
void add_index_ops(OpTable&);  // ops_index.cc: Gather*, Scatter*, OneHot, TopK, NonZero, Compress, Unique
void add_resize_ops(OpTable&);  // ops_resize.cc: Resize
void add_matrix_ops(OpTable&);  // ops_matrix.cc: Trilu, EyeLike, Det, Einsum
void add_norm_ops(OpTable&);   // ops_norm.cc: LayerNormalization, InstanceNormalization, LRN, LpNormalization, armnn.Normalization
void add_loss_ops(OpTable&);   // ops_loss.cc: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss
void add_window_ops(OpTable&); // ops_window.cc: Conv, ConvTranspose, MaxPool, AveragePool, LpPool, global pools
void add_rnn_ops(OpTable&);     // ops_rnn.cc: RNN, GRU, LSTM (ONNX)
void add_qlinear_ops(OpTable&); // ops_qlinear.cc: ConvInteger, QLinearConv, MatMulInteger, QLinearMatMul
void add_executorch_ops(OpTable&);  // ops_executorch.cc: vk.aten.max_pool2d(_with_indices).default, vk.et_vk.conv_with_clamp.default
void add_lstm_ops(OpTable&);       // ops_lstm.cc: armnn.Lstm
void add_qlstm_ops(OpTable&);      // ops_qlstm.cc: armnn.QLstm
void add_detection_ops(OpTable&);  // ops_detection.cc: armnn.DetectionPostProcess
const OpTable& ops();

/// Runs `k` over `n` work items (nothing when n is 0).
void enqueue(const Device& dev, const cl::Kernel& k, int64_t n);

}  // namespace nnbridge::gpu
