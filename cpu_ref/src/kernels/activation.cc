// Activations. Formulas as Arm NN CpuRef computes them (armnn/src/backends/reference/
// workloads/Activation.cpp), which agree with the ONNX definitions named in the core schemas;
// most are one vector kernel of simd/simd.h (see there for the exact arithmetic); the ONNX-only
// ones (Selu, Celu, HardSigmoid, ThresholdedRelu, Shrink, Softsign) are scalar formulas.
#include <algorithm>
#include <cmath>

#include "vector_ops.h"

namespace nnbridge::cpu_ref {

namespace {

using simd::Unary;

KernelFactory vec(Unary op) {
  return [op](const KernelContext& c) { return simd_unary(c, op, {}); };
}

float attr_f(const KernelContext& c, const char* name, double fallback) {
  return static_cast<float>(c.attr_float(name, fallback));
}

// An activation with a scalar formula only (no vector kernel in simd.h), element by element.
template <class F>
Kernel scalar(const KernelContext& c, F f) {
  const int64_t n = numel(c.out[0].shape);
  if (numel(c.in[0].shape) != n) c.invalid(ErrorId::Shape, "output size differs from the input's");
  return [n, f](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t i = 0; i < n; ++i) out[0][i] = f(in[0][i]);
  };
}

}  // namespace

simd::UnaryParams clip_bounds(const KernelContext& c) {
  auto bound = [&c](std::size_t i, const char* what, float none) {
    if (!c.has_input(i)) return none;
    const exec::FloatConstant& v = c.value(i, what);
    if (v.size() != 1) c.invalid(ErrorId::Shape, std::string(what) + " must hold one value");
    return v[0];
  };
  return {bound(1, "min", -INFINITY), bound(2, "max", INFINITY)};
}

void add_activation_kernels(KernelTable& t) {
  t["Relu"] = vec(Unary::Relu);  // std::max(0, x)
  t["Sigmoid"] = vec(Unary::Sigmoid);
  t["Tanh"] = vec(Unary::Tanh);
  t["ScaledTanh"] = [](const KernelContext& c) {
    return simd_unary(c, Unary::ScaledTanh, {attr_f(c, "alpha", 1.0), attr_f(c, "beta", 1.0)});
  };
  t["Affine"] = [](const KernelContext& c) {
    return simd_unary(c, Unary::Affine, {attr_f(c, "alpha", 1.0), attr_f(c, "beta", 0.0)});
  };
  // std::min(max, std::max(min, x)) (Arm NN BoundedReLu with a = max, b = min); ONNX Clip-13's
  // min (input 1) and max (input 2) are one-element constants, an absent one no bound.
  t["Clip"] = [](const KernelContext& c) { return simd_unary(c, Unary::Clip, clip_bounds(c)); };
  t["LeakyRelu"] = [](const KernelContext& c) { return simd_unary(c, Unary::LeakyRelu, {attr_f(c, "alpha", 0.01), 0}); };
  t["Elu"] = [](const KernelContext& c) { return simd_unary(c, Unary::Elu, {attr_f(c, "alpha", 1.0), 0}); };
  t["Softplus"] = vec(Unary::Softplus);
  // Arm NN HardSwish: x * min(max(x + 3, 0), 6) / 6 (= ONNX x * max(0, min(1, x/6 + 1/2))).
  t["HardSwish"] = vec(Unary::HardSwish);
  // The formulas of the ONNX schemas (core schema docs), in float.
  t["Selu"] = [](const KernelContext& c) {
    const float a = attr_f(c, "alpha", 1.67326319217681884765625), g = attr_f(c, "gamma", 1.05070102214813232421875);
    return scalar(c, [a, g](float x) { return x > 0 ? g * x : g * (a * std::exp(x) - a); });
  };
  t["Celu"] = [](const KernelContext& c) {
    const float a = attr_f(c, "alpha", 1.0);
    if (a == 0) c.invalid(ErrorId::AttributeValue, "alpha 0 (Celu divides by alpha)");
    return scalar(c, [a](float x) { return std::max(0.0f, x) + std::min(0.0f, a * (std::exp(x / a) - 1)); });
  };
  t["HardSigmoid"] = [](const KernelContext& c) {
    const float a = attr_f(c, "alpha", 0.2), b = attr_f(c, "beta", 0.5);
    return scalar(c, [a, b](float x) { return std::max(0.0f, std::min(1.0f, a * x + b)); });
  };
  t["ThresholdedRelu"] = [](const KernelContext& c) {
    const float a = attr_f(c, "alpha", 1.0);
    return scalar(c, [a](float x) { return x > a ? x : 0.0f; });
  };
  t["Shrink"] = [](const KernelContext& c) {
    const float b = attr_f(c, "bias", 0.0), l = attr_f(c, "lambd", 0.5);
    return scalar(c, [b, l](float x) { return x < -l ? x + b : x > l ? x - b : 0.0f; });
  };
  t["Softsign"] = [](const KernelContext& c) { return scalar(c, [](float x) { return x / (1 + std::fabs(x)); }); };
  t["Gelu"] = [](const KernelContext& c) {
    return simd_unary(c, c.attr_string("approximate", "none") == "tanh" ? Unary::GeluTanh : Unary::GeluErf, {});
  };
}

}  // namespace nnbridge::cpu_ref
