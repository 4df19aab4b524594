// Activations. Formulas as Arm NN CpuRef computes them (armnn/src/backends/reference/
// workloads/Activation.cpp), which agree with the ONNX definitions named in the core schemas.
#include <xsimd/xsimd.hpp>

#include <cmath>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

template <class Make>
KernelFactory activation(Make make) {
  return [make](const KernelContext& ctx) -> Kernel {
    const int64_t n = numel(ctx.out[0].shape);
    if (numel(ctx.in[0].shape) != n) ctx.invalid("output size differs from the input's");
    auto f = make(ctx);
    return [n, f](std::span<const float* const> in, std::span<float* const> out) {
      const float* x = in[0];
      float* y = out[0];
      for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
    };
  };
}

}  // namespace

void add_activation_kernels(KernelTable& t) {
  t["Relu"] = [](const KernelContext& ctx) -> Kernel {
    const int64_t n = numel(ctx.out[0].shape);
    return [n](std::span<const float* const> in, std::span<float* const> out) {
      using B = xsimd::batch<float>;
      const float* x = in[0];
      float* y = out[0];
      int64_t i = 0;
      const B zero(0.0f);
      for (; i + static_cast<int64_t>(B::size) <= n; i += B::size) xsimd::max(B::load_unaligned(x + i), zero).store_unaligned(y + i);
      for (; i < n; ++i) y[i] = std::max(x[i], 0.0f);
    };
  };
  t["Sigmoid"] = activation([](const KernelContext&) { return [](float x) { return 1.0f / (1.0f + std::exp(-x)); }; });
  t["Tanh"] = activation([](const KernelContext&) { return [](float x) { return std::tanh(x); }; });
  t["ScaledTanh"] = activation([](const KernelContext& c) {
    float a = static_cast<float>(c.attr_float("alpha", 1.0)), b = static_cast<float>(c.attr_float("beta", 1.0));
    return [a, b](float x) { return a * std::tanh(b * x); };
  });
  t["Affine"] = activation([](const KernelContext& c) {
    float a = static_cast<float>(c.attr_float("alpha", 1.0)), b = static_cast<float>(c.attr_float("beta", 0.0));
    return [a, b](float x) { return a * x + b; };
  });
  t["Clip"] = activation([](const KernelContext& c) {
    if (c.in.size() > 1) c.unsupported("Clip with min/max inputs (Clip-11) is not implemented; use the attributes");
    float lo = static_cast<float>(c.attr_float("min", -INFINITY)), hi = static_cast<float>(c.attr_float("max", INFINITY));
    return [lo, hi](float x) { return std::min(hi, std::max(lo, x)); };
  });
  t["LeakyRelu"] = activation([](const KernelContext& c) {
    float a = static_cast<float>(c.attr_float("alpha", 0.01));
    return [a](float x) { return x > 0 ? x : a * x; };
  });
  t["Elu"] = activation([](const KernelContext& c) {
    float a = static_cast<float>(c.attr_float("alpha", 1.0));
    return [a](float x) { return x >= 0 ? x : a * (std::exp(x) - 1.0f); };
  });
  t["Softplus"] = activation([](const KernelContext&) { return [](float x) { return std::log(1.0f + std::exp(x)); }; });
  // Arm NN HardSwish: x * min(max(x + 3, 0), 6) / 6 (= ONNX x * max(0, min(1, x/6 + 1/2))).
  t["HardSwish"] = activation([](const KernelContext&) {
    return [](float x) { return x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f; };
  });
  t["Gelu"] = activation([](const KernelContext& c) -> std::function<float(float)> {
    if (c.attr_string("approximate", "none") == "tanh")
      return [](float x) {
        return 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
      };
    return [](float x) { return 0.5f * x * (1.0f + std::erf(x * 0.70710678f)); };
  });
}

}  // namespace nnbridge::cpu_ref
