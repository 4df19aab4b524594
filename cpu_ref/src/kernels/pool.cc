// MaxPool, AveragePool, LpPool (2-D, NCHW or NHWC; rank 5 in pool3d.cc) and GlobalAveragePool / GlobalMaxPool.
//
// Window rules follow Arm NN CpuRef (armnn/src/backends/reference/workloads/Pooling2d.cpp),
// which agree with ONNX where both define them:
// - a window starts at out*stride - pad_begin and is cut at in + pad_end (the padded input);
// - AveragePool divides by the window's taps inside the padded input when count_include_pad
//   (Arm NN PaddingMethod IgnoreValue), by the taps inside the input otherwise (Exclude);
// - padding never takes part in a maximum; a window that covers only padding yields 0.
// - LpPool: ONNX LpPool-18 (sum |x|^p)^(1/p); for graphs read from Arm NN, Arm NN's L2
//   pooling sqrt(sum x^2 / divisor) with the divisor of AveragePool.
#include <algorithm>
#include <cmath>

#include "pool.h"

namespace nnbridge::cpu_ref {

namespace {

enum class Kind { Max, Avg, Lp };

struct PoolParams {
  Kind kind;
  bool nhwc = false, include_pad = false, lp_mean = false;
  Shape k, s, d, p;  // kernel, strides, dilations, pads [top, left, bottom, right]
  int64_t lp = 2;
};

Kernel pool_kernel(const KernelContext& ctx, const PoolParams& pp);

Kernel make_pool(const KernelContext& ctx, Kind kind, bool global) {
  const Shape& xs = ctx.in[0].shape;
  if (xs.size() != 4) ctx.unsupported("only 2-D pooling (rank-4 X) is implemented");
  PoolParams pp;
  pp.kind = kind;
  pp.nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  const int64_t H = pp.nhwc ? xs[1] : xs[2], W = pp.nhwc ? xs[2] : xs[3];
  pp.k = global ? Shape{H, W} : ctx.attr_ints("kernel_shape");
  pp.s = global ? Shape{1, 1} : ctx.attr_ints("strides", {1, 1});
  pp.d = global ? Shape{1, 1} : ctx.attr_ints("dilations", {1, 1});
  pp.p = global ? Shape{0, 0, 0, 0} : ctx.attr_ints("pads", {0, 0, 0, 0});
  if (pp.k.size() != 2 || pp.s.size() != 2 || pp.d.size() != 2 || pp.p.size() != 4)
    ctx.invalid("kernel_shape/strides/dilations/pads sizes");
  const std::string auto_pad = global ? "NOTSET" : ctx.attr_string("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID") ctx.unsupported("auto_pad " + auto_pad + " for pooling");
  if (auto_pad == "VALID") pp.p = {0, 0, 0, 0};
  pp.include_pad = kind != Kind::Max && ctx.attr_int("count_include_pad", 0) != 0;
  pp.lp = ctx.attr_int("p", 2);
  pp.lp_mean = kind == Kind::Lp && ctx.attr_int("mean", 0) != 0;
  return pool_kernel(ctx, pp);
}

Kernel pool_kernel(const KernelContext& ctx, const PoolParams& pp) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  const bool nhwc = pp.nhwc, include_pad = pp.include_pad, lp_mean = pp.lp_mean;
  const Kind kind = pp.kind;
  const Shape k = pp.k, s = pp.s, d = pp.d, p = pp.p;
  const int64_t lp = pp.lp;
  const int64_t N = xs[0], C = nhwc ? xs[3] : xs[1], H = nhwc ? xs[1] : xs[2], W = nhwc ? xs[2] : xs[3];
  const int64_t OH = nhwc ? ys[1] : ys[2], OW = nhwc ? ys[2] : ys[3];
  if (ys.size() != 4 || ys[0] != N || (nhwc ? ys[3] : ys[1]) != C) ctx.invalid("output shape does not match the input's N and C");
  for (int64_t v : s)
    if (v < 1) ctx.invalid("strides must be >= 1");
  const int threads = ctx.threads;
  // Threads take blocks of output rows (n, oy); each row is all channels and columns.
  const int64_t row_work = std::max<int64_t>(1, C * OW * k[0] * k[1]);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const float* x = in[0];
    float* y = out[0];
    auto at = [&](int64_t n, int64_t c, int64_t i, int64_t j) {
      return nhwc ? ((n * H + i) * W + j) * C + c : ((n * C + c) * H + i) * W + j;
    };
    auto oat = [&](int64_t n, int64_t c, int64_t i, int64_t j) {
      return nhwc ? ((n * OH + i) * OW + j) * C + c : ((n * C + c) * OH + i) * OW + j;
    };
    parallel_ranges(threads, N * OH, std::max<int64_t>(1, (int64_t{1} << 16) / row_work), [&](int64_t r0, int64_t r1) {
      for (int64_t row = r0; row < r1; ++row) {
        const int64_t n = row / OH, oy = row % OH;
        for (int64_t c = 0; c < C; ++c)
          for (int64_t ox = 0; ox < OW; ++ox) {
            const int64_t hs = oy * s[0] - p[0], ws = ox * s[1] - p[1];
            int64_t padded_taps = 0, real_taps = 0;
            double acc = kind == Kind::Max ? -INFINITY : 0.0;
            for (int64_t ky = 0; ky < k[0]; ++ky) {
              const int64_t iy = hs + ky * d[0];
              if (iy >= H + p[2]) break;
              for (int64_t kx = 0; kx < k[1]; ++kx) {
                const int64_t ix = ws + kx * d[1];
                if (ix >= W + p[3]) break;
                ++padded_taps;
                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                ++real_taps;
                const double v = x[at(n, c, iy, ix)];
                if (kind == Kind::Max) acc = std::max(acc, v);
                else if (kind == Kind::Avg) acc += v;
                else acc += lp == 2 ? v * v : std::pow(std::fabs(v), static_cast<double>(lp));
              }
            }
            double r;
            const double div = static_cast<double>(include_pad ? padded_taps : real_taps);
            if (real_taps == 0) r = 0.0;
            else if (kind == Kind::Max) r = acc;
            else if (kind == Kind::Avg) r = acc / div;
            else r = std::pow(lp_mean ? acc / div : acc, 1.0 / static_cast<double>(lp));
            y[oat(n, c, oy, ox)] = static_cast<float>(r);
          }
      }
    });
  };
}

}  // namespace

void add_pool_kernels(KernelTable& t) {
  // Rank-5 X: the 3-D kernels (pool3d.cc).
  auto rank5 = [](const KernelContext& c) { return c.in[0].shape.size() == 5; };
  t["MaxPool"] = [rank5](const KernelContext& c) {
    if (c.out.size() > 1) c.unsupported("MaxPool's Indices output is not implemented");
    return rank5(c) ? make_pool3d(c, Pool3dKind::Max) : make_pool(c, Kind::Max, false);
  };
  t["AveragePool"] = [rank5](const KernelContext& c) {
    return rank5(c) ? make_pool3d(c, Pool3dKind::Avg) : make_pool(c, Kind::Avg, false);
  };
  t["LpPool"] = [rank5](const KernelContext& c) {
    return rank5(c) ? make_pool3d(c, Pool3dKind::Lp) : make_pool(c, Kind::Lp, false);
  };
  t["GlobalAveragePool"] = [](const KernelContext& c) { return make_pool(c, Kind::Avg, true); };
  t["GlobalMaxPool"] = [](const KernelContext& c) { return make_pool(c, Kind::Max, true); };
}

}  // namespace nnbridge::cpu_ref
