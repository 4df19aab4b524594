// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear and Cast.
//
// With one input (Arm NN Quantize / Dequantize), QuantizeLinear and DequantizeLinear are copies
// in the backend's float32 domain (and so is Cast between unquantized types): the input is
// already dequantized, and the plan rounds every node's result to the output's declared dtype
// (convert.h: requantize with round half away from zero and clamp, Arm NN armnn::Quantize; Cast
// to an integer type truncates toward zero).
//
// With scale (and zero point) inputs (ONNX QuantizeLinear-13 / DequantizeLinear-13), read at
// run time: y = saturate(round_half_even(x / scale) + zero_point) to the output's integer range,
// and x = (q - zero_point) * scale, in float32 as ONNX's reference computes them. A scale of
// one element is per tensor; a 1-D scale of X.shape[axis] elements is per axis (attribute
// `axis`, default 1); the zero point has the scale's shape, or is absent (0). The integer side
// is a plain integer type (uint8, int8, int32 for DequantizeLinear), so the float32 buffers hold
// its values; a quantized type there (whose buffers hold real values) is Error(Unsupported).
//
// DynamicQuantizeLinear-11: scale = (max(0, max x) - min(0, min x)) / 255, zero point =
// saturate(round_half_even(-min(0, min x) / scale)), y as QuantizeLinear to uint8; all in
// float32. An all-zero x (scale 0, which ONNX leaves undefined) gives scale 0, zero point 0, y 0.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "../kernel.h"
#include "../simd/simd.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_copy(const KernelContext& ctx) {
  const int64_t n = numel(ctx.out[0].shape);
  if (numel(ctx.in[0].shape) != n) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
  return [n](std::span<const float* const> in, std::span<float* const> out) {
    if (n) std::memcpy(out[0], in[0], static_cast<std::size_t>(n) * sizeof(float));
  };
}

// The range of the plain integer type a quantizing kernel writes.
void int_range(const KernelContext& ctx, DataType t, float& lo, float& hi) {
  switch (t) {
    case DataType::UInt8: lo = 0, hi = 255; return;
    case DataType::Int8: lo = -128, hi = 127; return;
    case DataType::Int16: lo = -32768, hi = 32767; return;
    case DataType::UInt16: lo = 0, hi = 65535; return;
    default: ctx.unsupported(ErrorId::DataType, "quantizing to " + std::string(to_string(t)) + " (uint8, int8, int16 or uint16 are implemented)");
  }
}

// Per-tensor or per-axis layout of a scale input (and its zero point): element i of X uses
// scale[(i / inner) % count].
struct ScaleLayout {
  int64_t n = 0, count = 1, inner = 1;
  bool zero_point = false;
  // Calls fn(begin, end, k) for each run of elements of [from, to) that share scale k, in order.
  template <class Fn>
  void runs(int64_t from, int64_t to, Fn&& fn) const {
    const int64_t step = count == 1 ? std::max<int64_t>(n, 1) : std::max<int64_t>(inner, 1);
    for (int64_t b = from; b < to;) {
      const int64_t e = std::min(to, (b / step + 1) * step);
      fn(b, e, count == 1 ? 0 : (b / step) % count);
      b = e;
    }
  }
  // runs() over every element, the elements split across `threads` (elementwise: any split
  // gives the same values).
  template <class Fn>
  void parallel_runs(int threads, Fn&& fn) const {
    parallel_ranges(threads, n, int64_t{1} << 15, [&](int64_t b, int64_t e) { runs(b, e, fn); }, 16);
  }
};

ScaleLayout scale_layout(const KernelContext& ctx) {
  const Shape& xs = ctx.in[0].shape;
  ScaleLayout l;
  l.n = numel(xs);
  l.count = numel(ctx.in[1].shape);
  if (ctx.in[1].shape.size() > 1) ctx.invalid(ErrorId::Shape, "the scale must be a scalar or 1-D");
  if (l.count != 1) {
    const int64_t axis = ctx.attr_axis("axis", 1, static_cast<int64_t>(xs.size()));
    if (xs[static_cast<std::size_t>(axis)] != l.count)
      ctx.invalid(ErrorId::Shape, "a 1-D scale needs X.shape[axis] = " + std::to_string(l.count) + " elements");
    for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < xs.size(); ++d) l.inner *= xs[d];
  }
  l.zero_point = ctx.has_input(2);
  if (l.zero_point && numel(ctx.in[2].shape) != l.count) ctx.invalid(ErrorId::Shape, "the zero point must have the scale's shape");
  if (l.zero_point && is_quantized(ctx.in[2].dtype)) ctx.unsupported(ErrorId::DataType, "a quantized zero point type");
  return l;
}

Kernel make_quantize(const KernelContext& ctx) {
  if (!ctx.has_input(1)) return make_copy(ctx);
  if (is_quantized(ctx.out[0].dtype)) ctx.unsupported(ErrorId::TypeMismatch, "scale inputs with a quantized output type (a plain integer type is expected)");
  if (numel(ctx.out[0].shape) != numel(ctx.in[0].shape)) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
  const ScaleLayout l = scale_layout(ctx);
  float lo, hi;
  int_range(ctx, ctx.out[0].dtype, lo, hi);
  const int threads = ctx.threads;
  return [l, lo, hi, threads](std::span<const float* const> in, std::span<float* const> out) {
    const simd::Kernels& k = simd::kernels();  // the scalar expression's bits, a vector at a time
    l.parallel_runs(threads, [&](int64_t b, int64_t e, int64_t c) {
      const float zp = l.zero_point ? in[2][c] : 0.0f, scale = in[1][c];
      k.quantize(in[0] + b, out[0] + b, static_cast<std::size_t>(e - b), scale, zp, lo, hi);
    });
  };
}

Kernel make_dequantize(const KernelContext& ctx) {
  if (!ctx.has_input(1)) return make_copy(ctx);
  if (is_quantized(ctx.in[0].dtype)) ctx.unsupported(ErrorId::TypeMismatch, "scale inputs with a quantized input type (a plain integer type is expected)");
  if (numel(ctx.out[0].shape) != numel(ctx.in[0].shape)) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
  const ScaleLayout l = scale_layout(ctx);
  const int threads = ctx.threads;
  return [l, threads](std::span<const float* const> in, std::span<float* const> out) {
    const simd::Kernels& k = simd::kernels();
    l.parallel_runs(threads, [&](int64_t b, int64_t e, int64_t c) {
      const float zp = l.zero_point ? in[2][c] : 0.0f, scale = in[1][c];
      k.dequantize(in[0] + b, out[0] + b, static_cast<std::size_t>(e - b), scale, zp);
    });
  };
}

Kernel make_dynamic_quantize(const KernelContext& ctx) {
  if (ctx.out.size() != 3) ctx.invalid(ErrorId::Arity, "needs the outputs y, y_scale and y_zero_point");
  if (ctx.out[0].dtype != DataType::UInt8) ctx.unsupported(ErrorId::DataType, "DynamicQuantizeLinear to " + std::string(to_string(ctx.out[0].dtype)));
  const int64_t n = numel(ctx.in[0].shape);
  if (numel(ctx.out[0].shape) != n || numel(ctx.out[1].shape) != 1 || numel(ctx.out[2].shape) != 1)
    ctx.invalid(ErrorId::Shape, "y must have X's size, y_scale and y_zero_point one element");
  return [n](std::span<const float* const> in, std::span<float* const> out) {
    float lo = 0, hi = 0;
    for (int64_t i = 0; i < n; ++i) lo = std::min(lo, in[0][i]), hi = std::max(hi, in[0][i]);
    const float scale = (hi - lo) / 255.0f;
    const float zp = scale == 0 ? 0.0f : std::clamp(std::nearbyint((0.0f - lo) / scale), 0.0f, 255.0f);
    for (int64_t i = 0; i < n; ++i) out[0][i] = scale == 0 ? 0.0f : std::clamp(std::nearbyint(in[0][i] / scale) + zp, 0.0f, 255.0f);
    out[1][0] = scale;
    out[2][0] = zp;
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
  if (numel(ctx.in[0].shape) != n) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
  auto single = [&](const TensorType& t, float& scale, float& zero) {
    scale = 1, zero = 0;
    if (!is_quantized(t.dtype) || !t.quantization || t.quantization->scales.empty()) return false;
    if (t.quantization->scales.size() > 1) ctx.unsupported(ErrorId::DataType, "Cast of a per-axis quantized tensor");
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
  t["QuantizeLinear"] = make_quantize;
  t["DequantizeLinear"] = make_dequantize;
  t["DynamicQuantizeLinear"] = make_dynamic_quantize;
  t["Cast"] = make_cast;
}

}  // namespace nnbridge::cpu_ref
