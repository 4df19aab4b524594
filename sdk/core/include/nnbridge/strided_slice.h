// TensorFlow StridedSlice's begin / end / strides and masks resolved against an input shape: the
// rule the cpu kernel runs and the ONNX writer's Slice form states (one implementation for both).
#pragma once

#include <cstdint>
#include <vector>

namespace nnbridge {

/// One input dim of a resolved StridedSlice: elements begin, begin + step, ... (count of them).
struct StridedDim {
  int64_t begin = 0;  ///< the first element taken (0 when count is 0)
  int64_t end = 0;    ///< one step past the last, in [-1, dim]: -1 only for a negative step
  int64_t step = 1;   ///< never 0; 1 for a shrunk dim
  int64_t count = 0;  ///< elements taken
  bool shrink = false;  ///< shrink_axis_mask: one index taken and the dim dropped
};

/// TensorFlow StridedSlice (tensorflow/core/util/strided_slice_op.cc; Arm NN StridedSlice) of an
/// input of shape `dims` (all known) without ellipsis_mask or new_axis_mask: entry i (bit i of
/// each mask) applies to dim i, dims past the entries are taken whole. A begin or end counts
/// from the end once when negative, then is clamped to [0, dim] for a positive stride, [-1,
/// dim - 1] for a negative one; begin_mask / end_mask take the whole dim in the stride's
/// direction; shrink_axis_mask takes begin alone (after counting from the end). Throws
/// Error(AttributeValue) naming the entry for a stride of 0 or a shrink index outside the dim,
/// Error(Shape) for end / strides of another length than begin or more entries than dims.
std::vector<StridedDim> resolve_strided_slice(const std::vector<int64_t>& dims, const std::vector<int64_t>& begin,
                                              const std::vector<int64_t>& end, const std::vector<int64_t>& strides,
                                              int64_t begin_mask, int64_t end_mask, int64_t shrink_axis_mask);

}  // namespace nnbridge
