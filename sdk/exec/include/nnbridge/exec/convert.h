// Conversions between stored dtypes and the float32 both backends compute in, and the
// requantisation rule: every backend converts inputs and constants with to_float() and rounds each
// node's result to its dtype with round_trip() (cpu in place, opencl after reading it back), so
// the backends cannot disagree on these rules.
#pragma once

#include <cstddef>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge::exec {

/// Elements of `bytes` (dtype and quantization of `t`) as float32: quantized values
/// dequantized `scale * (q - zero_point)` (per-axis when the quantization has an axis; an
/// Int32 tensor with a quantization, e.g. an Arm NN bias, too), float16/bfloat16 widened.
std::vector<float> to_float(const TensorType& t, const std::byte* bytes, std::size_t count);
/// Stores float32 `v` as `t`'s dtype: quantized types as clamp(round(x / scale) + zero_point)
/// with std::round (half away from zero, Arm NN armnn::Quantize), float16 to nearest with ties
/// away from zero (the half library Arm NN uses), bfloat16 to
/// nearest even, integers truncated toward zero and clamped, bool as x != 0.
/// Both throw Error(Unsupported) for a dtype without a float32 form (String, Complex).
std::vector<std::byte> from_float(const TensorType& t, const float* v, std::size_t count);
/// Rounds `v` in place to what `t` can hold (from_float then to_float); a no-op for float32.
void round_trip(const TensorType& t, float* v, std::size_t count);

}  // namespace nnbridge::exec
