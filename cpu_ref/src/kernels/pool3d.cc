// MaxPool, AveragePool and LpPool on rank-5 X (3-D pooling): Arm NN Pooling3d (Pooling3d.cpp)
// and ONNX MaxPool-12 / AveragePool-19 / LpPool-18 with three spatial dims, by the rules of the
// 2-D kernels (pool.cc): a window starts at out*stride - pad_begin and is cut at in + pad_end;
// the average divides by the window's taps inside the padded input with count_include_pad
// (Arm NN PaddingMethod IgnoreValue), by the taps inside the input otherwise (Exclude);
// padding never takes part in a maximum; a window over padding only yields 0; LpPool with
// mean = 1 is Arm NN's L2 pooling sqrt(sum x^2 / divisor). X is [N,C,D,H,W] or, with
// data_layout NHWC, [N,D,H,W,C] (Arm NN NDHWC). auto_pad and MaxPool's Indices as in pool.cc.
#include <algorithm>
#include <array>
#include <cmath>

#include "pool.h"
#include "spatial.h"

namespace nnbridge::cpu_ref {

Kernel make_pool3d(const KernelContext& ctx, Pool3dKind kind) {
  const Shape xs = ctx.in[0].shape, ys = ctx.out[0].shape;
  if (xs.size() != 5 || ys.size() != 5) ctx.invalid(ErrorId::Shape, "3-D pooling needs rank-5 X and Y");
  const bool nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  const int64_t N = xs[0], C = nhwc ? xs[4] : xs[1];
  if (ys[0] != N || (nhwc ? ys[4] : ys[1]) != C) ctx.invalid(ErrorId::Shape, "output shape does not match the input's N and C");
  const std::array<int64_t, 3> in{nhwc ? xs[1] : xs[2], nhwc ? xs[2] : xs[3], nhwc ? xs[3] : xs[4]};
  const std::array<int64_t, 3> on{nhwc ? ys[1] : ys[2], nhwc ? ys[2] : ys[3], nhwc ? ys[3] : ys[4]};
  const WindowAttrs wa = window_attrs(ctx, ctx.attr_ints("kernel_shape"), {in[0], in[1], in[2]}, {on[0], on[1], on[2]});
  const Shape k = wa.kernel, s = wa.strides, d = wa.dilations, p = wa.pads;
  const bool indices = kind == Pool3dKind::Max && ctx.out.size() > 1;
  if (indices && (nhwc || ctx.out[1].shape != ys)) ctx.unsupported("MaxPool's Indices output needs NCHW and Y's shape");
  const bool include_pad = kind != Pool3dKind::Max && ctx.attr_int("count_include_pad", 0) != 0;
  const int64_t lp = ctx.attr_int("p", 2);
  const bool lp_mean = kind == Pool3dKind::Lp && ctx.attr_int("mean", 0) != 0;
  return [=](std::span<const float* const> inp, std::span<float* const> out) {
    const float* x = inp[0];
    float* y = out[0];
    auto at = [&](const std::array<int64_t, 3>& sz, int64_t n, int64_t c, int64_t i0, int64_t i1, int64_t i2) {
      return nhwc ? (((n * sz[0] + i0) * sz[1] + i1) * sz[2] + i2) * C + c : (((n * C + c) * sz[0] + i0) * sz[1] + i1) * sz[2] + i2;
    };
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t o0 = 0; o0 < on[0]; ++o0)
          for (int64_t o1 = 0; o1 < on[1]; ++o1)
            for (int64_t o2 = 0; o2 < on[2]; ++o2) {
              const std::array<int64_t, 3> start{o0 * s[0] - p[0], o1 * s[1] - p[1], o2 * s[2] - p[2]};
              int64_t padded = 0, real = 0, best = -1;
              double acc = kind == Pool3dKind::Max ? -INFINITY : 0.0;
              for (int64_t k0 = 0; k0 < k[0]; ++k0) {
                const int64_t i0 = start[0] + k0 * d[0];
                if (i0 >= in[0] + p[3]) break;
                for (int64_t k1 = 0; k1 < k[1]; ++k1) {
                  const int64_t i1 = start[1] + k1 * d[1];
                  if (i1 >= in[1] + p[4]) break;
                  for (int64_t k2 = 0; k2 < k[2]; ++k2) {
                    const int64_t i2 = start[2] + k2 * d[2];
                    if (i2 >= in[2] + p[5]) break;
                    ++padded;
                    if (i0 < 0 || i0 >= in[0] || i1 < 0 || i1 >= in[1] || i2 < 0 || i2 >= in[2]) continue;
                    ++real;
                    const int64_t xi = at(in, n, c, i0, i1, i2);
                    const double v = x[xi];
                    if (kind == Pool3dKind::Max) {
                      if (v > acc) acc = v, best = xi;
                      else if (best < 0) best = xi;
                    } else if (kind == Pool3dKind::Avg) acc += v;
                    else acc += lp == 2 ? v * v : std::pow(std::fabs(v), static_cast<double>(lp));
                  }
                }
              }
              const double div = static_cast<double>(include_pad ? padded : real);
              double r;
              if (real == 0) r = 0.0;
              else if (kind == Pool3dKind::Max) r = acc;
              else if (kind == Pool3dKind::Avg) r = acc / div;
              else r = std::pow(lp_mean ? acc / div : acc, 1.0 / static_cast<double>(lp));
              y[at(on, n, c, o0, o1, o2)] = static_cast<float>(r);
              if (indices) out[1][at(on, n, c, o0, o1, o2)] = static_cast<float>(best);
            }
  };
}

}  // namespace nnbridge::cpu_ref
