// MaxPool, AveragePool, LpPool (2-D, NCHW or NHWC; 1-D as 2-D with height 1; rank 5 in
// pool3d.cc) and GlobalAveragePool / GlobalMaxPool.
//
// Window rules follow Arm NN CpuRef (armnn/src/backends/reference/workloads/Pooling2d.cpp),
// which agree with ONNX where both define them:
// - a window starts at out*stride - pad_begin and is cut at in + pad_end (the padded input);
// - AveragePool divides by the window's taps inside the padded input when count_include_pad
//   (Arm NN PaddingMethod IgnoreValue), by the taps inside the input otherwise (Exclude);
// - padding never takes part in a maximum; a window that covers only padding yields 0.
// - LpPool: ONNX LpPool-18 (sum |x|^p)^(1/p); for graphs read from Arm NN, Arm NN's L2
//   pooling sqrt(sum x^2 / divisor) with the divisor of AveragePool.
// - auto_pad SAME_UPPER / SAME_LOWER pads as spatial.h says (ONNX MaxPool-12, AveragePool-11).
// - MaxPool's Indices (ONNX MaxPool-12, storage_order 0): the flat row-major index in X of the
//   first maximum of the window (of its first tap when no value beats -inf; -1 over padding
//   only), NCHW only. Stored through float32, so exact up to 2^24 elements.
#include <algorithm>
#include <cmath>

#include "../simd/simd.h"
#include "padded_plane.h"
#include "pool.h"
#include "scratch.h"
#include "spatial.h"

namespace nnbridge::cpu_ref {

namespace {

enum class Kind { Max, Avg, Lp };

struct PoolParams {
  Kind kind;
  bool nhwc = false, include_pad = false, lp_mean = false;
  bool indices = false;  // MaxPool's second output
  Shape k, s, d, p;  // kernel, strides, dilations, pads [top, left, bottom, right]
  int64_t lp = 2;
};

Kernel pool_kernel(const KernelContext& ctx, const PoolParams& pp);

Kernel make_pool(const KernelContext& ctx, Kind kind, bool global) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  if (xs.size() != 4 || ys.size() != 4) ctx.unsupported("only 1-D, 2-D and 3-D pooling (X of rank 3, 4 or 5) is implemented");
  PoolParams pp;
  pp.kind = kind;
  pp.nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  const int64_t H = pp.nhwc ? xs[1] : xs[2], W = pp.nhwc ? xs[2] : xs[3];
  if (global) {
    pp.k = {H, W}, pp.s = {1, 1}, pp.d = {1, 1}, pp.p = {0, 0, 0, 0};
  } else {
    const WindowAttrs wa = window_attrs(ctx, ctx.attr_ints("kernel_shape"), {H, W},
                                        {pp.nhwc ? ys[1] : ys[2], pp.nhwc ? ys[2] : ys[3]});
    pp.k = wa.kernel, pp.s = wa.strides, pp.d = wa.dilations, pp.p = wa.pads;
  }
  pp.include_pad = kind != Kind::Max && ctx.attr_int("count_include_pad", 0) != 0;
  pp.lp = ctx.attr_int("p", 2);
  pp.lp_mean = kind == Kind::Lp && ctx.attr_int("mean", 0) != 0;
  pp.indices = kind == Kind::Max && ctx.out.size() > 1;
  if (pp.indices && pp.nhwc) ctx.unsupported("MaxPool's Indices output with data_layout NHWC");
  return pool_kernel(ctx, pp);
}

Kernel pool_kernel(const KernelContext& ctx, const PoolParams& pp) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  const bool nhwc = pp.nhwc, include_pad = pp.include_pad, lp_mean = pp.lp_mean, indices = pp.indices;
  const Kind kind = pp.kind;
  const Shape k = pp.k, s = pp.s, d = pp.d, p = pp.p;
  const int64_t lp = pp.lp;
  const int64_t N = xs[0], C = nhwc ? xs[3] : xs[1], H = nhwc ? xs[1] : xs[2], W = nhwc ? xs[2] : xs[3];
  const int64_t OH = nhwc ? ys[1] : ys[2], OW = nhwc ? ys[2] : ys[3];
  if (ys.size() != 4 || ys[0] != N || (nhwc ? ys[3] : ys[1]) != C) ctx.invalid(ErrorId::Shape, "output shape does not match the input's N and C");
  if (indices && ctx.out[1].shape != ys) ctx.invalid(ErrorId::Shape, "Indices must have the shape of Y");
  const int threads = ctx.threads;
  if (kind == Kind::Max && !nhwc && !indices) {
    // MaxPool in NCHW without Indices: plane by plane, each window's taps inside the image only,
    // in float. The maximum is exact, so these are the generic loop's values (below): a NaN never
    // replaces the running maximum, and a window with no tap inside the image gives 0.
    auto taps = [](int64_t start, int64_t k, int64_t d, int64_t size, int64_t& t0, int64_t& t1) {
      t0 = start >= 0 ? 0 : (-start + d - 1) / d;
      t1 = start + (k - 1) * d < size ? k : (size - 1 - start < 0 ? 0 : (size - 1 - start) / d + 1);
    };
    const int64_t plane_work = std::max<int64_t>(1, OH * OW * k[0] * k[1]);
    const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 16) / plane_work);
    const auto* kern = &simd::kernels();
    // Windows with no tap inside the image give 0 (the loop below): set after a vector kernel.
    std::vector<int64_t> empty_rows, empty_cols;
    for (int64_t oy = 0; oy < OH; ++oy) {
      int64_t t0, t1;
      taps(oy * s[0] - p[0], k[0], d[0], H, t0, t1);
      if (t0 >= t1) empty_rows.push_back(oy);
    }
    for (int64_t ox = 0; ox < OW; ++ox) {
      int64_t t0, t1;
      taps(ox * s[1] - p[1], k[1], d[1], W, t0, t1);
      if (t0 >= t1) empty_cols.push_back(ox);
    }
    const PlaneGeom pg{H, W, OH, OW, k[0], k[1], s[0], s[1], d[0], d[1], p[0], p[1]};
    const auto zero_empty = [=](float* yp, int64_t r0, int64_t r1) {
      for (int64_t oy : empty_rows)
        if (oy >= r0 && oy < r1) std::fill(yp + oy * OW, yp + (oy + 1) * OW, 0.0f);
      for (int64_t ox : empty_cols)
        for (int64_t oy = r0; oy < r1; ++oy) yp[oy * OW + ox] = 0.0f;
    };
    if (kern->max_pool_3x3s2 && k[0] == 3 && k[1] == 3 && s[0] == 2 && s[1] == 2 && d[0] == 1 && d[1] == 1) {
      // 3 x 3 / 2 (ResNet's, SqueezeNet's, GoogLeNet's): read in place, 16 outputs a step
      // (simd.h max_pool_3x3s2: the bits of the padded-plane kernel below, without its copy
      // of each plane: squeezenet1_1's 64 x 111 x 111 took 0.133 ms through the copy). Across
      // threads as that kernel splits (the same bands of output rows on tall planes).
      const PaddedPlane pad(pg, kern->lanes);
      const std::vector<PlaneBand> bands = tall_plane_bands(pg, std::clamp<int64_t>(N * C / grain, 1, std::max(threads, 1)), kern->lanes);
      return [=](std::span<const float* const> in, std::span<float* const> out) {
        const float* x = in[0];
        float* y = out[0];
        const auto run = [&](const PaddedPlane& layout, int64_t r0, int64_t, int64_t q0, int64_t q1) {
          const int64_t r1 = r0 + layout.oh();
          for (int64_t q = q0; q < q1; ++q) {
            kern->max_pool_3x3s2(x + q * H * W, H, W, y + q * OH * OW, OW, r0, r1, p[0], p[1]);
            zero_empty(y + q * OH * OW, r0, r1);
          }
        };
        for_plane_parts(bands, pad, threads, N * C, grain, run);
      };
    }
    if (s[1] <= 2) {
      // Column strides 1 and 2: each plane copied once into a -inf-padded buffer, then computed
      // in whole registers (simd max_plane: the same taps in the same order as the loop below, the
      // padding's -inf never wins). Windows with no tap inside the image are set to 0 after.
      const PaddedPlane pad(pg, kern->lanes);
      const std::vector<int64_t> tap_at = pad.taps();
      // Across threads by planes, or by bands of output rows where the planes are tall enough
      // (as depthwise.cc: the convolution before a MaxPool splits its output by rows).
      const std::vector<PlaneBand> bands = tall_plane_bands(pg, std::clamp<int64_t>(N * C / grain, 1, std::max(threads, 1)), kern->lanes);
      return [=](std::span<const float* const> in, std::span<float* const> out) {
        const float* x = in[0];
        float* y = out[0];
        // Planes [q0, q1), output rows [r0, r0 + layout.oh()) of each.
        const auto run = [&](const PaddedPlane& layout, int64_t r0, int64_t x_offset, int64_t q0, int64_t q1) {
          float* buf = thread_scratch(static_cast<std::size_t>(layout.size()));
          layout.fill_padding(buf, -INFINITY);  // once: each plane overwrites only its own places
          simd::DepthwisePlane dp;
          dp.src = buf, dp.row_stride = layout.row_stride(), dp.phase_stride = layout.phase_stride();
          dp.oh = layout.oh(), dp.ow = OW, dp.kh = k[0], dp.kw = k[1], dp.sh = s[0], dp.sw = s[1], dp.dh = d[0], dp.dw = d[1];
          dp.taps = tap_at.data();
          const int64_t r1 = r0 + dp.oh;
          for (int64_t q = q0; q < q1; ++q) {
            layout.copy_plane(x + q * H * W + x_offset, buf);
            float* yp = y + q * OH * OW;
            dp.y = yp + r0 * OW;
            kern->max_plane(dp);
            zero_empty(yp, r0, r1);
          }
        };
        for_plane_parts(bands, pad, threads, N * C, grain, run);
      };
    }
    return [=](std::span<const float* const> in, std::span<float* const> out) {
      const float* x = in[0];
      float* y = out[0];
      parallel_ranges(threads, N * C, grain, [&](int64_t q0, int64_t q1) {
        for (int64_t q = q0; q < q1; ++q) {
          const float* xp = x + q * H * W;
          float* yp = y + q * OH * OW;
          for (int64_t oy = 0; oy < OH; ++oy) {
            const int64_t hs = oy * s[0] - p[0];
            int64_t ky0, ky1;
            taps(hs, k[0], d[0], H, ky0, ky1);
            for (int64_t ox = 0; ox < OW; ++ox) {
              const int64_t ws = ox * s[1] - p[1];
              int64_t kx0, kx1;
              taps(ws, k[1], d[1], W, kx0, kx1);
              float acc = -INFINITY;
              for (int64_t ky = ky0; ky < ky1; ++ky) {
                const float* row = xp + (hs + ky * d[0]) * W + ws;
                for (int64_t kx = kx0; kx < kx1; ++kx) {
                  const float v = row[kx * d[1]];
                  if (v > acc) acc = v;
                }
              }
              yp[oy * OW + ox] = ky0 < ky1 && kx0 < kx1 ? acc : 0.0f;
            }
          }
        }
      });
    };
  }
  if (kind == Kind::Avg && !nhwc && !indices && OH == 1 && OW == 1 && k[0] == H && k[1] == W && d[0] == 1 && d[1] == 1 &&
      p[0] == 0 && p[1] == 0 && p[2] == 0 && p[3] == 0) {
    // One window over each whole NCHW plane (GlobalAveragePool): the loop below's sum (in
    // double, row by row, then divided by H * W), without its per-tap tests: the same values.
    // Eight planes at a time, each its own chain in its own order: eight independent additions
    // per step where one plane's chain waits on each addition's latency (squeezenet1_1's 1000
    // planes of 13 x 13 took 0.10 ms).
    const int64_t plane = H * W;
    return [=](std::span<const float* const> in, std::span<float* const> out) {
      const float* x = in[0];
      float* y = out[0];
      parallel_ranges(threads, N * C, std::max<int64_t>(1, (int64_t{1} << 16) / plane), [&](int64_t q0, int64_t q1) {
        constexpr int kPlanes = 8;
        int64_t q = q0;
        for (; q + kPlanes <= q1; q += kPlanes) {
          const float* xp = x + q * plane;
          double acc[kPlanes] = {};
          for (int64_t i = 0; i < plane; ++i)
#pragma GCC unroll 8
            for (int j = 0; j < kPlanes; ++j) acc[j] += xp[j * plane + i];  // unrolled: acc stays in registers
          for (int j = 0; j < kPlanes; ++j) y[q + j] = static_cast<float>(acc[j] / static_cast<double>(plane));
        }
        for (; q < q1; ++q) {
          const float* xp = x + q * plane;
          double acc = 0.0;
          for (int64_t i = 0; i < plane; ++i) acc += xp[i];
          y[q] = static_cast<float>(acc / static_cast<double>(plane));
        }
      });
    };
  }
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
            int64_t padded_taps = 0, real_taps = 0, best = -1;
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
                const int64_t xi = at(n, c, iy, ix);
                const double v = x[xi];
                if (kind == Kind::Max) {
                  if (v > acc) acc = v, best = xi;
                  else if (best < 0) best = xi;
                } else if (kind == Kind::Avg) acc += v;
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
            if (indices) out[1][oat(n, c, oy, ox)] = static_cast<float>(best);
          }
      }
    });
  };
}

}  // namespace

void add_pool_kernels(KernelTable& t) {
  // Rank 3 (1-D) runs as 2-D with height 1 (spatial.h), rank 5 on the 3-D kernel (pool3d.cc).
  auto pick = [](const KernelContext& c, Kind kind, Pool3dKind kind3) {
    const std::size_t rank = c.in[0].shape.size();
    if (rank == 3) {
      const Lifted lifted(c, 2);
      return make_pool(lifted.ctx(), kind, false);
    }
    return rank == 5 ? make_pool3d(c, kind3) : make_pool(c, kind, false);
  };
  t["MaxPool"] = [pick](const KernelContext& c) { return pick(c, Kind::Max, Pool3dKind::Max); };
  t["AveragePool"] = [pick](const KernelContext& c) { return pick(c, Kind::Avg, Pool3dKind::Avg); };
  t["LpPool"] = [pick](const KernelContext& c) { return pick(c, Kind::Lp, Pool3dKind::Lp); };
  auto global = [](const KernelContext& c, Kind kind) {
    if (c.in[0].shape.size() != 3) return make_pool(c, kind, true);
    const Lifted lifted(c, 2);
    return make_pool(lifted.ctx(), kind, true);
  };
  t["GlobalAveragePool"] = [global](const KernelContext& c) { return global(c, Kind::Avg); };
  t["GlobalMaxPool"] = [global](const KernelContext& c) { return global(c, Kind::Max); };
}

}  // namespace nnbridge::cpu_ref
