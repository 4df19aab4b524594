// Activations. Formulas as Arm NN CpuRef computes them (armnn/src/backends/reference/
// workloads/Activation.cpp), which agree with the ONNX definitions named in the core schemas;
// each is one vector kernel of simd/simd.h (see there for the exact arithmetic).
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

}  // namespace

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
  // std::min(max, std::max(min, x)) (Arm NN BoundedReLu with a = max, b = min).
  t["Clip"] = [](const KernelContext& c) {
    if (c.in.size() > 1) c.unsupported("Clip with min/max inputs (Clip-11) is not implemented; use the attributes");
    return simd_unary(c, Unary::Clip, {attr_f(c, "min", -INFINITY), attr_f(c, "max", INFINITY)});
  };
  t["LeakyRelu"] = [](const KernelContext& c) { return simd_unary(c, Unary::LeakyRelu, {attr_f(c, "alpha", 0.01), 0}); };
  t["Elu"] = [](const KernelContext& c) { return simd_unary(c, Unary::Elu, {attr_f(c, "alpha", 1.0), 0}); };
  t["Softplus"] = vec(Unary::Softplus);
  // Arm NN HardSwish: x * min(max(x + 3, 0), 6) / 6 (= ONNX x * max(0, min(1, x/6 + 1/2))).
  t["HardSwish"] = vec(Unary::HardSwish);
  t["Gelu"] = [](const KernelContext& c) {
    return simd_unary(c, c.attr_string("approximate", "none") == "tanh" ? Unary::GeluTanh : Unary::GeluErf, {});
  };
}

}  // namespace nnbridge::cpu_ref
