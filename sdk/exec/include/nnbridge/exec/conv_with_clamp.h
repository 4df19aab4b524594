// ExecuTorch's et_vk.conv_with_clamp (vk.et_vk.conv_with_clamp.default) read once for both
// backends: the ONNX Conv node it computes, and the clamp bounds after it.
#pragma once

#include "nnbridge/exec/node_context.h"
#include "nnbridge/graph.h"

namespace nnbridge::exec {

/// The node as a Conv followed by clamp(lo, hi).
struct ConvWithClamp {
  Node conv;  ///< op "Conv", the node's inputs (input, weight, bias) and outputs, ONNX attributes
  float lo = 0, hi = 0;  ///< output_min / output_max; an absent bound is -inf / +inf
};

/// ExecuTorch backends/vulkan/custom_ops_lib.py: conv_with_clamp is aten.convolution (not
/// transposed) followed by clamp(output_min, output_max), a missing bound meaning none. Read as
/// an ONNX Conv: strides = stride, pads = padding on both sides of each dim, dilations =
/// dilation (each one or two elements, aten_pair), group = groups (default 1).
/// Error(Unsupported) for transposed = true or an input that is not rank 4 (2-D convolution);
/// Error(Invalid) for output_min above output_max. Clamping keeps NaN (std::min / std::max order:
/// min(max(x, lo), hi)).
ConvWithClamp conv_with_clamp(const NodeContext& ctx);

}  // namespace nnbridge::exec
