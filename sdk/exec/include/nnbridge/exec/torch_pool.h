// PyTorch's max_pool2d geometry (ExecuTorch's vk.aten.max_pool2d and max_pool2d_with_indices) as
// both backends compute it: the node's arguments read and checked once.
#pragma once

#include <string_view>

#include "nnbridge/exec/node_context.h"
#include "nnbridge/exec/shape.h"

namespace nnbridge::exec {

/// One max_pool2d over `planes` planes of H x W giving OH x OW each. k / s / p / d: kernel_size,
/// stride, padding and dilation as {height, width}.
struct TorchMaxPool {
  Shape k, s, p, d;
  int64_t planes = 0, H = 0, W = 0, OH = 0, OW = 0;
  bool ceil_mode = false;
};

/// An ATen int list argument of one or two elements as two (one: both; empty or absent:
/// `empty`), Error(Invalid) naming `name` for another length. (ATen's IntArrayRef[2] arguments:
/// kernel_size, stride, padding, dilation.)
Shape aten_pair(const NodeContext& ctx, std::string_view name, const Shape& empty);

/// PyTorch 1.13's max_pool2d (aten/src/ATen/native/Pooling.cpp, Pool.h pooling_output_shape) of
/// node `ctx`: X [N, C, H, W] or [C, H, W]; kernel_size, stride, padding, dilation lists of one
/// or two elements (one: both dims; an empty stride: the kernel); ceil_mode a bool (absent:
/// false); output size floor-or-ceil((H + 2p - d(k - 1) - 1) / s) + 1, less one when ceil_mode
/// lets the last window start in the right padding. Every output must have that shape.
/// Error(Unsupported) for another rank; Error(Invalid) for a missing kernel_size, a kernel,
/// stride or dilation below 1, padding outside [0, kernel_size / 2] (PyTorch's rule), an empty
/// output or an output declared with another shape.
TorchMaxPool torch_max_pool(const NodeContext& ctx);

}  // namespace nnbridge::exec
