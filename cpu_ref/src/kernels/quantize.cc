// QuantizeLinear, DequantizeLinear and Cast. In the backend's float32 domain the first two are
// copies (and so is Cast between unquantized types): the input is already dequantized, and the
// plan rounds every node's result to the output's declared dtype (convert.h: requantize with round half away from zero and clamp,
// Arm NN armnn::Quantize; Cast to an integer type truncates toward zero).
#include <cmath>
#include <cstring>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_copy(const KernelContext& ctx) {
  if (ctx.in.size() > 1) ctx.unsupported("scale / zero point as inputs is not implemented (the tensor types' quantization is used)");
  const int64_t n = numel(ctx.out[0].shape);
  if (numel(ctx.in[0].shape) != n) ctx.invalid("output size differs from the input's");
  return [n](std::span<const float* const> in, std::span<float* const> out) {
    if (n) std::memcpy(out[0], in[0], static_cast<std::size_t>(n) * sizeof(float));
  };
}

// Cast converts stored values: a quantized input contributes its storage integers, not the real
// values they stand for, and a quantized output stores the converted value itself (ONNX Cast on
// int8 / uint8 data; Arm NN RefCastWorkload resets both quantizations to scale 1, offset 0).
// The kernel sees dequantized inputs and its result is requantized with the output's
// quantization, so it undoes the first and pre-applies the inverse of the second. A single
// scale and zero point only (per-axis quantization is Error(Unsupported)).
Kernel make_cast(const KernelContext& ctx) {
  const int64_t n = numel(ctx.out[0].shape);
  if (numel(ctx.in[0].shape) != n) ctx.invalid("output size differs from the input's");
  auto single = [&](const TensorType& t, float& scale, float& zero) {
    scale = 1, zero = 0;
    if (!is_quantized(t.dtype) || !t.quantization || t.quantization->scales.empty()) return false;
    if (t.quantization->scales.size() > 1) ctx.unsupported("Cast of a per-axis quantized tensor");
    scale = static_cast<float>(t.quantization->scales[0]);
    zero = t.quantization->zero_points.empty() ? 0.0f : static_cast<float>(t.quantization->zero_points[0]);
    return true;
  };
  float si, zi, so, zo;
  const bool qin = single(ctx.in[0], si, zi), qout = single(ctx.out[0], so, zo);
  if (!qin && !qout) return make_copy(ctx);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t i = 0; i < n; ++i) {
      const float stored = qin ? std::nearbyint(in[0][i] / si + zi) : in[0][i];
      out[0][i] = qout ? (stored - zo) * so : stored;
    }
  };
}

}  // namespace

void add_quantize_kernels(KernelTable& t) {
  t["QuantizeLinear"] = make_copy;
  t["DequantizeLinear"] = make_copy;
  t["Cast"] = make_cast;
}

}  // namespace nnbridge::cpu_ref
