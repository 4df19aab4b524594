// ONNX Resize as both backends compute it: the node's attributes and operands read and checked
// once, and the per-dim taps (input indices and weights) that each backend's kernel applies.
//
// ONNX Resize-13 (and Resize-11's tf_half_pixel_for_nn) on any rank. The modes are separable: the
// output is computed one dim at a time, last dim first (ONNX's reference order). Per output index x
// of a dim with input length `in`:
// - scale = the `scales` input's value when given, else out / in; ONNX's reference takes
//   length_resized = scale * in (a float) in the formulas below;
// - x_original by coordinate_transformation_mode: half_pixel (x + 0.5) / scale - 0.5;
//   pytorch_half_pixel the same, or -0.5 when length_resized is 1; align_corners
//   x * (in - 1) / (length_resized - 1), or 0; asymmetric x / scale; tf_half_pixel_for_nn
//   (x + 0.5) / scale; tf_crop_and_resize start * (in - 1) + x * (end - start) * (in - 1) /
//   (length_resized - 1), or (end - start) * (in - 1) / 2 + start * (in - 1), with start/end
//   from `roi`, and extrapolation_value wherever x_original leaves [0, in - 1];
// - the taps: L = floor(x_original), or x_original - 1 when it is whole (ratio r = x_original -
//   L in (0, 1]); nearest takes L or L + 1 (nearest_mode: round_prefer_floor L when r <= 0.5,
//   round_prefer_ceil when r < 0.5, floor L, ceil L + 1; always L + 1 when r = 1), linear
//   weighs L and L + 1 by 1 - r and r, cubic L - 1 .. L + 2 by Keys' kernel with a =
//   cubic_coeff_a; indices beyond the edge read the edge (ONNX pads with edge values), and
//   with exclude_outside they get weight 0, the others renormalised.
// Arm NN CpuRef's Resize (armnn/src/backends/reference/workloads/Resize.cpp) is among these:
// nearest asymmetric floor, nearest halfPixelCenters = tf_half_pixel_for_nn floor, nearest
// alignCorners = align_corners round_prefer_ceil (roundf), bilinear asymmetric / half_pixel /
// align_corners (its clamp of a negative source to 0 gives what the edge taps give).
// data_layout does not matter: sizes and scales are per dim of X in its own order.
#pragma once

#include <cstdint>
#include <vector>

#include "nnbridge/exec/node_context.h"

namespace nnbridge::exec {

/// The taps of one resized dim.
struct ResizeAxis {
  int64_t dim = 0;            ///< the dim of X it resizes
  int64_t in = 0, out = 0;    ///< its input and output lengths
  int n = 1;                  ///< taps per output index: 1 nearest, 2 linear, 4 cubic
  std::vector<int64_t> idx;   ///< [out * n] input indices, clamped to [0, in - 1]
  std::vector<double> w;      ///< [out * n] weights
  std::vector<bool> outside;  ///< [out] the index samples outside the input (tf_crop_and_resize)
};

/// What a Resize node computes: the dims to resize, in the order to apply them (last dim first;
/// dims whose taps copy the input are left out), and the value of outside samples.
struct ResizePlan {
  std::vector<ResizeAxis> passes;
  float extrapolation_value = 0;
  bool any_outside = false;  ///< some pass has an outside sample
};

/// Reads node `ctx` (Resize: X, roi, scales, sizes; its constant operands through ctx.value()).
/// Throws Error(Unsupported) for a mode, coordinate_transformation_mode or nearest_mode ONNX
/// Resize-13 does not define, Error(Invalid) for scales and sizes both or neither, a scale that is
/// not positive and finite, sizes or an output dim that disagree with the output shape, a roi of the
/// wrong length, or an empty dim resized to a non-empty one; NeedsValue for a non-constant operand.
ResizePlan resize_plan(const NodeContext& ctx);

}  // namespace nnbridge::exec
