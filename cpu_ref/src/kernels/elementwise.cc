// Elementwise binary ops with broadcasting, comparisons, logical ops and unary math.
//
// Broadcasting is NumPy's (shapes aligned at the right, size-1 dims stretched; ONNX
// "multidirectional broadcasting"); Arm NN CpuRef's rule (equal ranks, size-1 dims
// stretched: armnn/src/backends/reference/workloads/Broadcast.hpp) is a subset of it.
#include <xsimd/xsimd.hpp>

#include <cmath>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

// Input strides in output index space: 0 where the input dim is 1 (or absent).
Shape broadcast_strides(const Shape& in, const Shape& out) {
  Shape st(out.size(), 0);
  Shape s = strides_of(in);
  std::size_t off = out.size() - in.size();
  for (std::size_t i = 0; i < in.size(); ++i)
    if (in[i] != 1) st[off + i] = s[i];
  return st;
}

template <class F, class FV>
Kernel binary(const KernelContext& ctx, F f, FV fv) {
  if (ctx.in.size() != 2) ctx.invalid("needs 2 inputs");
  const Shape a = ctx.in[0].shape, b = ctx.in[1].shape, o = ctx.out[0].shape;
  if (a.size() > o.size() || b.size() > o.size()) ctx.invalid("input rank exceeds the output rank");
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != 1 && a[i] != o[o.size() - a.size() + i]) ctx.invalid("input 0 does not broadcast to the output");
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b[i] != 1 && b[i] != o[o.size() - b.size() + i]) ctx.invalid("input 1 does not broadcast to the output");
  const int64_t n = numel(o);
  if (numel(a) == n && numel(b) == n) {
    return [n, f, fv](std::span<const float* const> in, std::span<float* const> out) {
      using B = xsimd::batch<float>;
      const float *x = in[0], *y = in[1];
      float* z = out[0];
      int64_t i = 0;
      for (; i + static_cast<int64_t>(B::size) <= n; i += B::size)
        fv(B::load_unaligned(x + i), B::load_unaligned(y + i)).store_unaligned(z + i);
      for (; i < n; ++i) z[i] = f(x[i], y[i]);
    };
  }
  Shape sa = broadcast_strides(a, o), sb = broadcast_strides(b, o);
  return [o, sa, sb, n, f](std::span<const float* const> in, std::span<float* const> out) {
    const std::size_t r = o.size();
    std::vector<int64_t> idx(r, 0);
    const float *x = in[0], *y = in[1];
    float* z = out[0];
    const int64_t inner = r ? o[r - 1] : 1, ia = r ? sa[r - 1] : 0, ib = r ? sb[r - 1] : 0;
    int64_t pa = 0, pb = 0;
    for (int64_t i = 0; i < n; i += inner) {
      for (int64_t k = 0; k < inner; ++k) z[i + k] = f(x[pa + k * ia], y[pb + k * ib]);
      // Advance the outer index (all dims but the last).
      for (std::size_t d = r > 0 ? r - 1 : 0; d-- > 0;) {
        if (++idx[d] < o[d]) {
          pa += sa[d], pb += sb[d];
          break;
        }
        pa -= sa[d] * (o[d] - 1), pb -= sb[d] * (o[d] - 1);
        idx[d] = 0;
      }
    }
  };
}

template <class F>
Kernel binary_scalar(const KernelContext& ctx, F f) {
  return binary(ctx, f, [f](xsimd::batch<float> a, xsimd::batch<float> b) {
    alignas(64) float x[xsimd::batch<float>::size], y[xsimd::batch<float>::size];
    a.store_aligned(x), b.store_aligned(y);
    for (std::size_t i = 0; i < xsimd::batch<float>::size; ++i) x[i] = f(x[i], y[i]);
    return xsimd::batch<float>::load_aligned(x);
  });
}

template <class F>
KernelFactory unary(F f) {
  return [f](const KernelContext& ctx) -> Kernel {
    const int64_t n = numel(ctx.out[0].shape);
    if (numel(ctx.in[0].shape) != n) ctx.invalid("output size differs from the input's");
    return [n, f](std::span<const float* const> in, std::span<float* const> out) {
      const float* x = in[0];
      float* y = out[0];
      for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
    };
  };
}

}  // namespace

void add_elementwise_kernels(KernelTable& t) {
  using B = xsimd::batch<float>;
  t["Add"] = [](const KernelContext& c) { return binary(c, [](float a, float b) { return a + b; }, [](B a, B b) { return a + b; }); };
  t["Sub"] = [](const KernelContext& c) { return binary(c, [](float a, float b) { return a - b; }, [](B a, B b) { return a - b; }); };
  t["Mul"] = [](const KernelContext& c) { return binary(c, [](float a, float b) { return a * b; }, [](B a, B b) { return a * b; }); };
  t["Div"] = [](const KernelContext& c) { return binary(c, [](float a, float b) { return a / b; }, [](B a, B b) { return a / b; }); };
  t["Max"] = [](const KernelContext& c) {
    return binary(c, [](float a, float b) { return std::max(a, b); }, [](B a, B b) { return xsimd::max(a, b); });
  };
  t["Min"] = [](const KernelContext& c) {
    return binary(c, [](float a, float b) { return std::min(a, b); }, [](B a, B b) { return xsimd::min(a, b); });
  };
  t["Pow"] = [](const KernelContext& c) { return binary_scalar(c, [](float a, float b) { return std::pow(a, b); }); };
  t["SquaredDifference"] = [](const KernelContext& c) {
    return binary(c, [](float a, float b) { return (a - b) * (a - b); }, [](B a, B b) { return (a - b) * (a - b); });
  };
  t["Equal"] = [](const KernelContext& c) { return binary_scalar(c, [](float a, float b) { return a == b ? 1.0f : 0.0f; }); };
  t["NotEqual"] = [](const KernelContext& c) { return binary_scalar(c, [](float a, float b) { return a != b ? 1.0f : 0.0f; }); };
  t["Greater"] = [](const KernelContext& c) { return binary_scalar(c, [](float a, float b) { return a > b ? 1.0f : 0.0f; }); };
  t["GreaterOrEqual"] = [](const KernelContext& c) { return binary_scalar(c, [](float a, float b) { return a >= b ? 1.0f : 0.0f; }); };
  t["Less"] = [](const KernelContext& c) { return binary_scalar(c, [](float a, float b) { return a < b ? 1.0f : 0.0f; }); };
  t["LessOrEqual"] = [](const KernelContext& c) { return binary_scalar(c, [](float a, float b) { return a <= b ? 1.0f : 0.0f; }); };
  t["And"] = [](const KernelContext& c) { return binary_scalar(c, [](float a, float b) { return (a != 0 && b != 0) ? 1.0f : 0.0f; }); };
  t["Or"] = [](const KernelContext& c) { return binary_scalar(c, [](float a, float b) { return (a != 0 || b != 0) ? 1.0f : 0.0f; }); };

  // PRelu (ONNX PRelu-16; Arm NN Prelu): x if x >= 0 else slope * x, slope broadcast.
  t["PRelu"] = [](const KernelContext& c) { return binary_scalar(c, [](float x, float s) { return x >= 0 ? x : s * x; }); };

  t["Not"] = unary([](float x) { return x == 0 ? 1.0f : 0.0f; });
  t["Abs"] = unary([](float x) { return std::fabs(x); });
  t["Neg"] = unary([](float x) { return -x; });
  t["Sqrt"] = unary([](float x) { return std::sqrt(x); });
  t["Rsqrt"] = unary([](float x) { return 1.0f / std::sqrt(x); });
  t["Exp"] = unary([](float x) { return std::exp(x); });
  t["Log"] = unary([](float x) { return std::log(x); });
  t["Sin"] = unary([](float x) { return std::sin(x); });
  t["Ceil"] = unary([](float x) { return std::ceil(x); });
  t["Floor"] = unary([](float x) { return std::floor(x); });
  t["Reciprocal"] = unary([](float x) { return 1.0f / x; });
  t["Square"] = unary([](float x) { return x * x; });
  t["Sign"] = unary([](float x) { return static_cast<float>((x > 0) - (x < 0)); });
  // ONNX Round: half to even.
  t["Round"] = unary([](float x) { return std::nearbyint(x); });
  t["Identity"] = unary([](float x) { return x; });
}

}  // namespace nnbridge::cpu_ref
