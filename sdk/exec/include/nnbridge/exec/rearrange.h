// Rearrangements' rules as both backends compute them: ReverseV2's axes and the geometry of
// SpaceToBatchND / BatchToSpaceND, read and checked once (cpu applies them with loops, opencl
// with strided gathers).
#pragma once

#include <vector>

#include "nnbridge/exec/node_context.h"
#include "nnbridge/exec/shape.h"

namespace nnbridge::exec {

/// TensorFlow ReverseV2 (Arm NN ReverseV2Impl.cpp): which dims of a rank-`rank` tensor `axes`
/// reverses; negative axes count from the end and an axis named twice is reversed once (the
/// reference sets a flag per axis). Error(Execution) "ReverseV2 axis A is out of range for rank
/// R" for an axis outside [-rank, rank): axes arrive at run time, so both backends refuse there.
std::vector<bool> reversed_dims(int64_t rank, const std::vector<int64_t>& axes);

/// A rank-4 tensor's [n, c, h, w] sizes and strides (elements) in its data_layout (NCHW or NHWC).
struct SpatialDims {
  int64_t n = 0, c = 0, h = 0, w = 0;
  int64_t sn = 0, sc = 0, sh = 0, sw = 0;
  bool nhwc = false;
};

/// SpaceToBatchND / BatchToSpaceND of node `ctx` (TensorFlow / Arm NN, rank 4, attribute
/// data_layout): x and y as SpatialDims, block_shape {bh, bw} and `edges` {top, bottom, left,
/// right}: the pads of SpaceToBatchND, the crops of BatchToSpaceND. SpaceToBatchND's output batch
/// (by * bw + bx) * N + n reads the zero-padded input at (y * bh + by - top, x * bw + bx - left);
/// BatchToSpaceND's output (n, y, x) reads batch ((py % bh) * bw + px % bw) * N + n at (py / bh,
/// px / bw), py = y + top, px = x + left (cpu_ref/src/kernels/space.cc). Error(Unsupported) for
/// another rank or other than 2 block dims; Error(Invalid) for shapes block_shape and the edges
/// do not give.
struct SpaceBatch {
  SpatialDims x, y;
  Shape block, edges;
};
SpaceBatch space_to_batch(const NodeContext& ctx);
SpaceBatch batch_to_space(const NodeContext& ctx);

}  // namespace nnbridge::exec
