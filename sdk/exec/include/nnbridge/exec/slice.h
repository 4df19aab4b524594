// ONNX Slice-13 as both backends compute it: the node's operands read and checked once.
#pragma once

#include "nnbridge/exec/node_context.h"
#include "nnbridge/exec/shape.h"
#include "nnbridge/strided_slice.h"

namespace nnbridge::exec {

/// Per dim of the input: the first element taken, the step and the count of elements taken
/// (count 0: none, begin 0). Dims no axis names are taken whole (begin 0, step 1).
struct SliceWindow {
  Shape begin, step, count;
};

/// ONNX Slice-13 of node `ctx`: starts (input 1), ends (2), axes (3, absent: 0, 1, ...), steps (4,
/// absent: 1), read through ctx.value() (NeedsValue when not constants); negative indices count
/// from the end, then starts clamp to [0, dim] (step > 0) or [0, dim - 1] and ends to [0, dim] or
/// [-1, dim - 1]. Error(Invalid) for operands of different lengths, a repeated axis, a step of 0
/// or a count that disagrees with the resolved output shape.
SliceWindow slice_window(const NodeContext& ctx);

/// TensorFlow / Arm NN StridedSlice of node `ctx` (attributes begin, end, strides (absent: 1
/// each), begin_mask, end_mask, shrink_axis_mask) resolved against input 0's shape by
/// nnbridge/strided_slice.h, one entry per input dim. Error(Unsupported) for ellipsis_mask or
/// new_axis_mask; Error(Invalid) for what resolve_strided_slice refuses, or an element count that
/// disagrees with the resolved output shape.
std::vector<StridedDim> strided_slice_dims(const NodeContext& ctx);

}  // namespace nnbridge::exec
