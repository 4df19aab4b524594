// Type conversions, shape queries and inference-time copies of the opencl backend: Cast,
// CastLike, QuantizeLinear / DequantizeLinear / DynamicQuantizeLinear, Shape, Size, Rank,
// ConstantOfShape, Dropout. Each
// mirrors its cpu kernel (cpu_ref/src/kernels/quantize.cc, elementwise.cc, rearrange.cc,
// shape_ops.cc): the same results and the same refusals. Results are float32 on the device; the
// plan rounds each non-float32 output to its dtype after the node (backend.cc), as cpu does.
#include <algorithm>
#include <string>
#include <vector>

#include "ops.h"

namespace nnbridge::gpu {

namespace {

// A device copy of input 0 into output 0 (the sizes must agree).
Launch copy(const OpContext& c) {
  const int64_t n = numel(c.k.out[0].shape);
  if (numel(c.k.in[0].shape) != n) c.k.invalid(ErrorId::Shape, "output size differs from the input's");
  return [n](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) {
    if (n > 0) dev.queue.enqueueCopyBuffer(in[0], out[0], 0, 0, static_cast<std::size_t>(n) * sizeof(float));
  };
}

// Output 0 set to values known at prepare (a shape query reads the input's type only).
Launch constant(const OpContext& c, const std::vector<float>& values) {
  if (numel(c.k.out[0].shape) != static_cast<int64_t>(values.size())) c.k.invalid(ErrorId::Shape, "output size differs from the values'");
  cl::Buffer src = c.floats(values);
  const std::size_t bytes = values.size() * sizeof(float);
  return [src, bytes](const Device& dev, std::span<const cl::Buffer>, std::span<const cl::Buffer> out) {
    if (bytes) dev.queue.enqueueCopyBuffer(src, out[0], 0, 0, bytes);
  };
}

// QuantizeLinear / DequantizeLinear as cpu_ref/src/kernels/quantize.cc computes them. With one
// input (Arm NN Quantize / Dequantize) a copy: the input is already real values and the plan
// requantizes to the output's type. With scale (and zero point) inputs (ONNX QuantizeLinear-13 /
// DequantizeLinear-13), read on the device at run time: y = clamp(rint(x / scale) + zero_point)
// to the output's integer range, x = (q - zero_point) * scale; a one-element scale is per tensor,
// a 1-D one of X.shape[axis] elements per axis. The integer side must be a plain integer type.
Launch quantize_linear(const OpContext& c, bool dequantize) {
  const KernelContext& k = c.k;
  if (!k.has_input(1)) return copy(c);
  if (dequantize ? is_quantized(k.in[0].dtype) : is_quantized(k.out[0].dtype))
    k.unsupported(ErrorId::TypeMismatch, dequantize ? "scale inputs with a quantized input type (a plain integer type is expected)"
                             : "scale inputs with a quantized output type (a plain integer type is expected)");
  const int64_t n = numel(k.out[0].shape);
  if (numel(k.in[0].shape) != n) k.invalid(ErrorId::Shape, "output size differs from the input's");
  const Shape& xs = k.in[0].shape;
  const int64_t count = numel(k.in[1].shape);
  int64_t inner = 1;
  if (k.in[1].shape.size() > 1) k.invalid(ErrorId::Shape, "the scale must be a scalar or 1-D");
  if (count != 1) {
    const int64_t axis = k.attr_axis("axis", 1, static_cast<int64_t>(xs.size()));
    if (xs[static_cast<std::size_t>(axis)] != count)
      k.invalid(ErrorId::Shape, "a 1-D scale needs X.shape[axis] = " + std::to_string(count) + " elements");
    for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < xs.size(); ++d) inner *= xs[d];
  }
  const bool zp = k.has_input(2);
  if (zp && numel(k.in[2].shape) != count) k.invalid(ErrorId::Shape, "the zero point must have the scale's shape");
  if (zp && is_quantized(k.in[2].dtype)) k.unsupported(ErrorId::DataType, "a quantized zero point type");
  float lo = 0, hi = 0;
  if (!dequantize) {
    switch (k.out[0].dtype) {
      case DataType::UInt8: lo = 0, hi = 255; break;
      case DataType::Int8: lo = -128, hi = 127; break;
      case DataType::Int16: lo = -32768, hi = 32767; break;
      case DataType::UInt16: lo = 0, hi = 65535; break;
      default:
        k.unsupported(ErrorId::DataType, "quantizing to " + std::string(to_string(k.out[0].dtype)) +
                      " (uint8, int8, int16 or uint16 are implemented)");
    }
  }
  c.to_int(n);
  const int in_ = c.to_int(std::max<int64_t>(inner, 1)), cnt = c.to_int(std::max<int64_t>(count, 1));
  cl::Kernel kq = c.kernel("elementwise.cl", "quantize_linear");
  return [kq, n, in_, cnt, zp, dequantize, lo, hi](const Device& dev, std::span<const cl::Buffer> in,
                                                   std::span<const cl::Buffer> out) mutable {
    kq.setArg(0, in[0]);
    kq.setArg(1, in[1]);
    kq.setArg(2, zp ? in[2] : in[1]);
    kq.setArg(3, out[0]);
    kq.setArg(4, in_);
    kq.setArg(5, cnt);
    kq.setArg(6, zp ? 1 : 0);
    kq.setArg(7, dequantize ? 1 : 0);
    kq.setArg(8, lo);
    kq.setArg(9, hi);
    enqueue(dev, kq, n);
  };
}

// ONNX DynamicQuantizeLinear-11 to uint8 (cpu's formulas, in float32): scale = (max(0, max x) -
// min(0, min x)) / 255, zero point = clamp(rint(-min / scale)), y as QuantizeLinear; an all-zero
// x gives scale 0, zero point 0 and y 0. The range is one work item's fold over x, in cpu's order.
Launch dynamic_quantize(const OpContext& c) {
  const KernelContext& k = c.k;
  if (k.out.size() != 3) k.invalid(ErrorId::Arity, "needs the outputs y, y_scale and y_zero_point");
  if (k.out[0].dtype != DataType::UInt8) k.unsupported(ErrorId::DataType, "DynamicQuantizeLinear to " + std::string(to_string(k.out[0].dtype)));
  const int64_t n = numel(k.in[0].shape);
  if (numel(k.out[0].shape) != n || numel(k.out[1].shape) != 1 || numel(k.out[2].shape) != 1)
    k.invalid(ErrorId::Shape, "y must have X's size, y_scale and y_zero_point one element");
  const int count = c.to_int(n);
  cl::Kernel kp = c.kernel("elementwise.cl", "dynamic_quantize_params");
  cl::Kernel ka = c.kernel("elementwise.cl", "dynamic_quantize_apply");
  return [kp, ka, count](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    kp.setArg(0, in[0]);
    kp.setArg(1, count);
    kp.setArg(2, out[1]);
    kp.setArg(3, out[2]);
    enqueue(dev, kp, 1);
    ka.setArg(0, in[0]);
    ka.setArg(1, out[1]);
    ka.setArg(2, out[2]);
    ka.setArg(3, out[0]);
    enqueue(dev, ka, count);
  };
}

// Cast converts stored values (cpu's make_cast): a quantized input contributes its storage
// integers, a quantized output stores the converted value itself; one scale and zero point only.
Launch cast(const OpContext& c) {
  const int64_t n = numel(c.k.out[0].shape);
  if (numel(c.k.in[0].shape) != n) c.k.invalid(ErrorId::Shape, "output size differs from the input's");
  auto single = [&c](const TensorType& t, float& scale, float& zero) {
    scale = 1, zero = 0;
    if (!is_quantized(t.dtype) || !t.quantization || t.quantization->scales.empty()) return false;
    if (t.quantization->scales.size() > 1) c.k.unsupported(ErrorId::DataType, "Cast of a per-axis quantized tensor");
    scale = static_cast<float>(t.quantization->scales[0]);
    zero = t.quantization->zero_points.empty() ? 0.0f : static_cast<float>(t.quantization->zero_points[0]);
    return true;
  };
  float si, zi, so, zo;
  const bool qin = single(c.k.in[0], si, zi), qout = single(c.k.out[0], so, zo);
  if (!qin && !qout) return copy(c);
  c.to_int(n);
  cl::Kernel k = c.kernel("elementwise.cl", "cast_stored");
  return [k, n, qin, si, zi, qout, so, zo](const Device& dev, std::span<const cl::Buffer> in,
                                           std::span<const cl::Buffer> out) mutable {
    k.setArg(0, in[0]);
    k.setArg(1, out[0]);
    k.setArg(2, qin ? 1 : 0);
    k.setArg(3, si);
    k.setArg(4, zi);
    k.setArg(5, qout ? 1 : 0);
    k.setArg(6, so);
    k.setArg(7, zo);
    enqueue(dev, k, n);
  };
}

// ONNX CastLike-15: Cast to input 1's dtype, a copy in the float32 domain; quantized types refused.
Launch cast_like(const OpContext& c) {
  if (is_quantized(c.k.in[0].dtype) || is_quantized(c.k.out[0].dtype)) c.k.unsupported(ErrorId::DataType, "quantized CastLike");
  return copy(c);
}

// ONNX Shape-15: the dims [start, end) of the input, both clamped to [0, rank] after adding the
// rank to a negative one.
Launch shape(const OpContext& c) {
  const Shape& full = c.k.in[0].shape;
  const int64_t r = static_cast<int64_t>(full.size());
  auto clamp = [r](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + r : v, 0, r); };
  const int64_t s = clamp(c.k.attr_int("start", 0)), e = clamp(c.k.attr_int("end", r));
  std::vector<float> dims;
  for (int64_t d = s; d < e; ++d) dims.push_back(static_cast<float>(full[d]));
  if (numel(c.k.out[0].shape) != static_cast<int64_t>(dims.size())) c.k.invalid(ErrorId::Shape, "output size differs from dims [start, end)");
  return constant(c, dims);
}

Launch size(const OpContext& c) {
  if (numel(c.k.out[0].shape) != 1) c.k.invalid(ErrorId::Shape, "output must hold one element");
  return constant(c, {static_cast<float>(numel(c.k.in[0].shape))});
}

// ONNX ConstantOfShape-9: the output (shape resolved at prepare) filled with `value`.
Launch constant_of_shape(const OpContext& c) {
  const float v = static_cast<float>(c.k.attr_float("value", 0.0));
  const std::size_t n = static_cast<std::size_t>(numel(c.k.out[0].shape));
  return [v, n](const Device& dev, std::span<const cl::Buffer>, std::span<const cl::Buffer> out) {
    if (n) dev.queue.enqueueFillBuffer(out[0], v, 0, n * sizeof(float));
  };
}

// ONNX Dropout-13 in inference: output = data, mask (output 1, when asked for) all true.
// training_mode (input 2) true with a ratio (input 1, default 0.5) above 0 draws random numbers:
// no reference result, refused as cpu refuses it.
Launch dropout(const OpContext& c) {
  const bool training = c.k.has_input(2) && c.k.value(2, "training_mode").at(0) != 0;
  const float ratio = c.k.has_input(1) ? c.k.value(1, "ratio").at(0) : 0.5f;
  if (training && ratio != 0) c.k.unsupported("training_mode true with ratio " + std::to_string(ratio) + " (random)");
  Launch data = copy(c);
  const bool mask = c.k.out.size() > 1 && c.k.out[1].dtype != DataType::Undefined;
  if (mask && numel(c.k.out[1].shape) != numel(c.k.out[0].shape)) c.k.invalid(ErrorId::Shape, "mask size differs from the output's");
  const std::size_t n = static_cast<std::size_t>(numel(c.k.out[0].shape));
  return [data, mask, n](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) {
    data(dev, in, out);
    if (mask && n) dev.queue.enqueueFillBuffer(out[1], 1.0f, 0, n * sizeof(float));
  };
}

}  // namespace

void add_convert_ops(OpTable& t) {
  t["Cast"] = cast;
  t["CastLike"] = cast_like;
  t["QuantizeLinear"] = [](const OpContext& c) { return quantize_linear(c, false); };
  t["DequantizeLinear"] = [](const OpContext& c) { return quantize_linear(c, true); };
  t["DynamicQuantizeLinear"] = dynamic_quantize;
  t["Shape"] = shape;
  t["Size"] = size;
  t["Rank"] = [](const OpContext& c) { return constant(c, {static_cast<float>(c.k.in[0].shape.size())}); };
  t["ConstantOfShape"] = constant_of_shape;
  t["Dropout"] = dropout;
}

}  // namespace nnbridge::gpu
