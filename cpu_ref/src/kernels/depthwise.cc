// Depthwise convolution with channel multiplier 1, direct (no im2col): NHWC rows go through the
// vector kernel simd::Kernels::depthwise_row (channels in lanes); NCHW planes with stride 1 or 2
// through depthwise_plane (output columns in lanes) from a zero-padded copy of the plane, small
// ones with constant W through depthwise_lanes (16 channels in lanes, depthwise_lanes.h), other
// strides through a scalar loop. All sum B[c] first, then
// the taps in (ky, kx) order, a multiply then an add each; the NCHW plane and lanes kernels add
// the taps in the padding too, as 0 * w (the same sum unless a weight is infinite or NaN, or the
// sum is -0).
#include <algorithm>
#include <functional>
#include <vector>

#include "../simd/simd.h"
#include "conv.h"
#include "depthwise_lanes.h"
#include "padded_plane.h"
#include "scratch.h"

namespace nnbridge::cpu_ref {

namespace {

// W as [kh][kw][c] (NHWC) or [c][kh][kw] (NCHW), from W in its own layout.
std::vector<float> depthwise_weights(const ConvGeom& g, const float* w) {
  if (!g.nhwc) return to_oihw(g, w);
  std::vector<float> out;
  out.reserve(static_cast<std::size_t>(g.c * g.kh * g.kw));
  for (int64_t y = 0; y < g.kh; ++y)
    for (int64_t x = 0; x < g.kw; ++x)
      for (int64_t c = 0; c < g.c; ++c) out.push_back(w[g.w_index(c, 0, y, x)]);
  return out;
}

void nchw_plane(const ConvGeom& g, const simd::Kernels& k, const float* x, const float* w, float bias, float* y) {
  for (int64_t oy = 0; oy < g.oh; ++oy) {
    float* yr = y + oy * g.ow;
    std::fill(yr, yr + g.ow, bias);
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      const int64_t iy = oy * g.sh - g.pt + ky * g.dh;
      if (iy < 0 || iy >= g.h) continue;
      const float* xr = x + iy * g.w;
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const float wt = w[ky * g.kw + kx];
        const int64_t off = kx * g.dw - g.pl;  // ix = ox * sw + off
        // Output columns whose input column lies in [0, w).
        const int64_t lo = off >= 0 ? 0 : (-off + g.sw - 1) / g.sw;
        const int64_t hi = g.w - 1 - off < 0 ? -1 : std::min(g.ow - 1, (g.w - 1 - off) / g.sw);
        if (hi < lo) continue;
        if (g.sw == 1) {
          k.axpy(wt, xr + lo + off, yr + lo, static_cast<std::size_t>(hi - lo + 1));
        } else {
          for (int64_t ox = lo; ox <= hi; ++ox) yr[ox] = yr[ox] + wt * xr[ox * g.sw + off];
        }
      }
    }
  }
}

// Strides 1 and 2, NCHW: each plane copied once into a buffer padded with `pad_value`, then
// computed in whole registers (depthwise_plane); `finish(c, y, count)` runs on each plane's
// output (or a band's rows of it) while it is in cache. A buffer per thread (thread_scratch slot
// 0, padded once per range: `finish` must not use that slot).
//
// Across threads, by planes, or by `bands` of output rows where given (tall_plane_bands): each thread
// then computes its rows of every plane. The GEMM convolutions before and after a depthwise one
// split NCHW by output rows, so with bands each core reads the rows it wrote; split by planes, a
// core reads half its input from the other core's cache and writes lines the other core has read,
// which on the 2-core test machine cost more than the second core gained on mnasnet0_5.
template <class Finish>
void nchw_padded_planes(const ConvGeom& g, const simd::Kernels& k, const PaddedPlane& pad, const int64_t* taps,
                        const std::vector<PlaneBand>& bands, int threads, const float* x, const float* w,
                        const float* bias, float pad_value, float* y, const Finish& finish, const EpilogueRun* ep = nullptr) {
  simd::DepthwisePlane proto;
  proto.ow = g.ow, proto.kh = g.kh, proto.kw = g.kw, proto.sh = g.sh, proto.sw = g.sw, proto.dh = g.dh, proto.dw = g.dw;
  proto.taps = taps;
  proto.clamp = ep && ep->clamp_bounds(proto.lo, proto.hi);
  // Planes [p0, p1), output rows [r0, r0 + layout.oh()) of each, through `layout`.
  const auto run = [&](const PaddedPlane& layout, int64_t r0, int64_t x_offset, int64_t p0, int64_t p1) {
    float* buf = thread_scratch(static_cast<std::size_t>(layout.size()));
    layout.fill_padding(buf, pad_value);  // once: each plane overwrites only its own places
    simd::DepthwisePlane dp = proto;
    dp.src = buf, dp.row_stride = layout.row_stride(), dp.phase_stride = layout.phase_stride(), dp.oh = layout.oh();
    for (int64_t plane = p0; plane < p1; ++plane) {
      const int64_t c = plane % g.c;
      layout.copy_plane(x + plane * g.h * g.w + x_offset, buf);
      dp.w = w + c * g.kh * g.kw, dp.bias = bias ? bias[c] : 0.0f, dp.y = y + plane * g.oh * g.ow + r0 * g.ow;
      k.depthwise_plane(dp);
      finish(c, dp.y, dp.oh * g.ow);
    }
  };
  const int64_t plane_macs = std::max<int64_t>(1, g.oh * g.ow * g.kh * g.kw);
  for_plane_parts(bands, pad, threads, g.n * g.c, std::max<int64_t>(1, (int64_t{1} << 16) / plane_macs), run);
}

}  // namespace

Kernel make_depthwise_padded(const KernelContext& ctx, const ConvGeom& g, float pad_value, PlaneFinish finish) {
  if (g.nhwc || g.sw > 2 || !ctx.constants[1]) return nullptr;
  auto wprep = std::make_shared<const std::vector<float>>(depthwise_weights(g, ctx.constants[1]->data()));
  ctx.prepared_only(1);  // the run reads wprep, not W
  const int64_t macs = g.n * g.c * g.kh * g.kw * g.oh * g.ow;
  const int threads = macs < (int64_t{1} << 18) ? 1 : ctx.threads;
  const auto* k = &simd::kernels();
  const PaddedPlane pad(PlaneGeom::of(g), k->lanes);
  auto taps = std::make_shared<const std::vector<int64_t>>(pad.taps());
  auto bands = std::make_shared<const std::vector<PlaneBand>>(tall_plane_bands(PlaneGeom::of(g), threads, k->lanes));
  return [g, wprep, threads, k, pad, taps, bands, pad_value, finish](std::span<const float* const> in, std::span<float* const> out) {
    nchw_padded_planes(g, *k, pad, taps->data(), *bands, threads, in[0], wprep->data(), nullptr, pad_value, out[0],
                       [&](int64_t c, float* y, int64_t count) { finish(in, c, y, count); });
  };
}

EpilogueKernel make_depthwise(const KernelContext& ctx, const ConvGeom& g, bool has_bias, std::vector<float> bscale) {
  std::shared_ptr<const std::vector<float>> wprep;
  if (ctx.constants[1]) {
    wprep = std::make_shared<const std::vector<float>>(depthwise_weights(g, ctx.constants[1]->data()));
    ctx.prepared_only(1);  // the run reads wprep, not W
  }
  const int64_t macs = g.n * g.c * g.kh * g.kw * g.oh * g.ow;
  const int threads = macs < (int64_t{1} << 18) ? 1 : ctx.threads;
  const auto* k = &simd::kernels();
  // The padded-plane layout and its tap offsets (NCHW, strides 1 and 2), made once here.
  const PaddedPlane pad(PlaneGeom::of(g), k->lanes);
  auto taps = std::make_shared<const std::vector<int64_t>>(g.nhwc || g.sw > 2 ? std::vector<int64_t>{} : pad.taps());
  auto bands = std::make_shared<const std::vector<PlaneBand>>(g.nhwc || g.sw > 2 ? std::vector<PlaneBand>{} : tall_plane_bands(PlaneGeom::of(g), threads, k->lanes));
  // Small NCHW planes with constant W: 16 channels across the lanes (depthwise_lanes.h), the
  // plane kernel's bits.
  std::shared_ptr<const std::vector<float>> lanes_w;
  const int64_t padded = ((g.oh - 1) * g.sh + (g.kh - 1) * g.dh + 1) * ((g.ow - 1) * g.sw + (g.kw - 1) * g.dw + 1);
  if (wprep && !g.nhwc && g.sw <= 2 && depthwise_lanes_pays(g.ow, g.sw, g.kh * g.kw, padded) && depthwise_lanes_available())
    lanes_w = std::make_shared<const std::vector<float>>(pack_depthwise_lanes(wprep->data(), g.c, g.kh * g.kw));
  const int lanes_threads = ctx.threads;
  return [g, wprep, has_bias, bscale, threads, k, pad, taps, bands, lanes_w, lanes_threads](const Epilogue& ep) -> Kernel {
    return [g, wprep, has_bias, bscale, threads, k, pad, taps, bands, lanes_w, lanes_threads, ep](std::span<const float* const> in, std::span<float* const> out) {
      std::vector<float> wlocal;
      const float* w;
      if (wprep) {
        w = wprep->data();
      } else {
        wlocal = depthwise_weights(g, in[1]);
        w = wlocal.data();
      }
      const std::vector<float> bias = conv_bias(has_bias ? in[2] : nullptr, bscale, g.c);
      const float* x = in[0];
      float* y = out[0];
      const EpilogueRun fin(ep, in, y);
      if (g.nhwc) {
        const int64_t row_macs = std::max<int64_t>(1, g.ow * g.c * g.kh * g.kw);
        parallel_ranges(threads, g.n * g.oh, std::max<int64_t>(1, (int64_t{1} << 16) / row_macs), [&](int64_t r0, int64_t r1) {
          for (int64_t r = r0; r < r1; ++r) {
            const int64_t n = r / g.oh, oy = r % g.oh;
            simd::DepthwiseRow row;
            row.x = x + n * g.h * g.w * g.c;
            row.w = w;
            row.bias = bias.data();
            row.y = y + (n * g.oh + oy) * g.ow * g.c;
            row.h = g.h, row.w_in = g.w, row.c = g.c, row.kh = g.kh, row.kw = g.kw;
            row.iy0 = oy * g.sh - g.pt, row.dh = g.dh;
            row.ow = g.ow, row.sw = g.sw, row.pl = g.pl, row.dw = g.dw;
            k->depthwise_row(row);
            fin.finish(row.y, g.ow * g.c);
          }
        });
        return;
      }
      if (lanes_w) {
        // Groups of 16 channels of an image across all the threads, however few the
        // multiply-adds: the 1 x 1 convolution before one on a small plane splits by channels
        // too, so each core reads the planes it wrote (mnasnet0_5's 576 x 7 x 7 3 x 3, below
        // 2^18 multiply-adds, took 0.049 ms on one thread of two, 0.029 split). The folded
        // Relu / Clip in the kernel where no Add comes first, the rest of the epilogue after,
        // plane by plane.
        float lo = 0, hi = 0;
        const bool clamped = fin.clamp_bounds(lo, hi);
        const int64_t groups = (g.c + 15) / 16, taps_n = g.kh * g.kw;
        parallel_for(g.n * groups > 1 ? lanes_threads : 1, g.n * groups, [&](int64_t item) {
          const int64_t n = item / groups, c0 = item % groups * 16;
          DepthwiseLanesArgs a;
          a.x = x + (n * g.c + c0) * g.h * g.w, a.y = y + (n * g.c + c0) * g.oh * g.ow;
          a.channels = std::min<int64_t>(16, g.c - c0);
          a.h = g.h, a.w = g.w, a.oh = g.oh, a.ow = g.ow, a.kh = g.kh, a.kw = g.kw;
          a.sh = g.sh, a.sw = g.sw, a.dh = g.dh, a.dw = g.dw, a.pt = g.pt, a.pl = g.pl;
          a.weights = lanes_w->data() + c0 * taps_n;
          a.bias = bias.data() + c0;
          a.clamp = clamped, a.lo = lo, a.hi = hi;
          depthwise_lanes(a);
          for (int64_t c = 0; c < a.channels; ++c) fin.finish(a.y + c * g.oh * g.ow, g.oh * g.ow, clamped);
        });
        return;
      }
      if (g.sw <= 2) {
        // A folded Relu / Clip runs inside the plane kernel as it stores (where no Add comes
        // first); the rest of the epilogue after.
        float lo, hi;
        const bool clamped = fin.clamp_bounds(lo, hi);
        nchw_padded_planes(g, *k, pad, taps->data(), *bands, threads, x, w, bias.data(), 0.0f, y,
                           [&](int64_t, float* yp, int64_t count) { fin.finish(yp, count, clamped); }, &fin);
        return;
      }
      parallel_for(threads, g.n * g.c, [&](int64_t plane) {
        const int64_t c = plane % g.c;
        nchw_plane(g, *k, x + plane * g.h * g.w, w + c * g.kh * g.kw, bias[static_cast<std::size_t>(c)], y + plane * g.oh * g.ow);
        fin.finish(y + plane * g.oh * g.ow, g.oh * g.ow);
      });
    };
  };
}

}  // namespace nnbridge::cpu_ref
