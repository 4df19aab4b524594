// Shape arithmetic the backends' kernels share: element counts, C-order strides and the strides
// of an input read as broadcast to an output.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace nnbridge::exec {

using Shape = std::vector<int64_t>;

/// Number of elements of `s` (1 for rank 0, 0 when any dim is 0).
int64_t numel(const Shape& s);
/// C-order (row-major) strides of `s`, in elements: the last dim's is 1.
Shape strides_of(const Shape& s);

/// The strides, in elements of `in`, with which an input of shape `in` is read at each index of
/// an output of shape `out` under ONNX multidirectional broadcasting (onnx/docs/Broadcasting.md,
/// NumPy's rule): shapes aligned at the right, missing leading dims and dims of size 1 stretched
/// (stride 0), every other dim equal to the output's. The result has out's rank.
/// Throws Error(Invalid) when `in` has a higher rank than `out` or a dim of `in` is neither 1 nor
/// the output's. (Arm NN CpuRef's rule, equal ranks with size-1 dims stretched, is a subset.)
Shape broadcast_strides(const Shape& in, const Shape& out);

/// The float32 contents of an integer operand (NodeContext::value of Slice's starts, Pad's pads,
/// ...) as int64, rounded to the nearest and saturated at the int64 range: an int64 beyond 2^24
/// lost precision in float32, and INT64_MAX ("to the end", as exporters write Slice's ends)
/// reads as 2^63, which no int64 holds. NaN reads as 0.
Shape to_ints(std::span<const float> v);

}  // namespace nnbridge::exec
