// ConvInteger-10 and QLinearConv-10 on 2-D NCHW images as im2col + the float32 GEMM, exactly.
//
// With the zero points subtracted, every operand is an integer in [-255, 255] (uint8 or int8
// minus a zero point of its type), so every product is an integer of magnitude <= 255^2 = 65025.
// A float32 sum of at most 256 such products never leaves the integers float32 holds exactly
// (256 * 65025 = 16,646,400 < 2^24), whatever order the GEMM adds them in and with or without
// fused multiply-adds. So K is cut into slices of 256; each slice's product is exact, and the
// slices are added in double (exact up to 2^53). The sum is therefore the same integer as the
// direct loops of conv3d_each compute, and it is requantized with the same expression
// (qlinear.cc), so the outputs are the same bits.
#include <algorithm>
#include <cmath>

#include "../sgemm/sgemm.h"
#include "conv.h"
#include "im2col.h"
#include "scratch.h"

namespace nnbridge::cpu_ref {

namespace {

constexpr int64_t kExactSlice = 256;  // products per float32 partial sum (see above)

float at_or(const float* p, int64_t count, int64_t k) { return count == 0 ? 0.0f : p[count == 1 ? 0 : k]; }
const float* input_or_null(std::span<const float* const> in, std::size_t i) { return i < in.size() ? in[i] : nullptr; }

}  // namespace

Kernel make_integer_conv_gemm(const KernelContext& ctx, const Conv3dGeom& g, const IntegerConvArgs& a) {
  if (g.nhwc || g.in[0] != 1 || g.k[0] != 1 || g.on[0] != 1) return nullptr;
  ConvGeom cv{};  // the 2-D geometry im2col_nchw reads
  cv.n = g.N, cv.c = g.C, cv.h = g.in[1], cv.w = g.in[2], cv.m = g.M, cv.oh = g.on[1], cv.ow = g.on[2];
  cv.kh = g.k[1], cv.kw = g.k[2], cv.sh = g.s[1], cv.sw = g.s[2], cv.dh = g.d[1], cv.dw = g.d[2];
  cv.pt = g.p[1], cv.pl = g.p[2], cv.group = g.group, cv.nhwc = false;
  const int64_t K = g.cg * cv.kh * cv.kw, P = cv.oh * cv.ow, nx = numel(ctx.in[0].shape);
  // W minus its zero point as [M, K], K = (ci, ky, kx): made once when both are constants.
  auto shifted_w = [g, cv, K, a](const float* w, const float* wz) {
    std::vector<float> out(static_cast<std::size_t>(g.M * K));
    for (int64_t o = 0; o < g.M; ++o)
      for (int64_t i = 0; i < g.cg; ++i)
        for (int64_t y = 0; y < cv.kh; ++y)
          for (int64_t x = 0; x < cv.kw; ++x)
            out[static_cast<std::size_t>(o * K + (i * cv.kh + y) * cv.kw + x)] = w[g.w_at(o, i, 0, y, x)] - at_or(wz, a.wz_count, o);
    return out;
  };
  std::shared_ptr<const std::vector<float>> wprep;
  if (ctx.constants[a.w] && (!ctx.has_input(a.wzp) || ctx.constants[a.wzp]))
    wprep = std::make_shared<const std::vector<float>>(
        shifted_w(ctx.constants[a.w]->data(), ctx.has_input(a.wzp) ? ctx.constants[a.wzp]->data() : nullptr));
  // Work items: (image, group, block of output rows); a block's patches near 2^18 floats.
  const int64_t rows = std::clamp<int64_t>((int64_t{1} << 18) / std::max<int64_t>(K * cv.ow, 1), 1, std::max<int64_t>(cv.oh, 1));
  const int64_t blocks = (cv.oh + rows - 1) / rows;
  const int threads = g.N * g.M * K * P < (int64_t{1} << 20) ? 1 : ctx.threads;
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<float> wlocal;
    const float* w = wprep ? wprep->data() : nullptr;
    if (!w) {
      wlocal = shifted_w(in[a.w], input_or_null(in, a.wzp));
      w = wlocal.data();
    }
    const float xz = at_or(input_or_null(in, a.xzp), a.xz_count, 0);
    float* xs = thread_scratch(static_cast<std::size_t>(nx), 1);  // X minus its zero point, read by every item
    for (int64_t i = 0; i < nx; ++i) xs[i] = in[0][i] - xz;
    float* Y = out[0];
    parallel_for(threads, g.N * g.group * blocks, [&](int64_t item) {
      const int64_t rb = item % blocks, gi = (item / blocks) % g.group, n = item / (blocks * g.group);
      const int64_t oy0 = rb * rows, oy1 = std::min(cv.oh, oy0 + rows), Pb = (oy1 - oy0) * cv.ow, mg = g.mg;
      if (Pb <= 0 || mg <= 0) return;
      // One scratch block: the patches [K, Pb], a slice's product [mg, Pb], the sums [mg, Pb] in double.
      float* col = thread_scratch(static_cast<std::size_t>(K * Pb + mg * Pb + 2 * mg * Pb + 2));
      float* part = col + K * Pb;
      double* sum = reinterpret_cast<double*>(part + mg * Pb + ((K * Pb + mg * Pb) % 2));  // 8-byte aligned
      im2col_nchw(cv, xs, n, gi, oy0, oy1, col);
      for (int64_t k0 = 0; k0 < K; k0 += kExactSlice) {
        SgemmArgs s;
        s.m = mg, s.n = Pb, s.k = std::min(kExactSlice, K - k0);
        s.a = w + gi * mg * K + k0, s.lda = K;
        s.b = col + k0 * Pb, s.ldb = Pb;
        s.c = part, s.ldc = Pb;
        sgemm(s);
        for (int64_t i = 0; i < mg * Pb; ++i) sum[i] = (k0 == 0 ? 0.0 : sum[i]) + static_cast<double>(part[i]);
      }
      for (int64_t mo = 0; mo < mg; ++mo) {
        const int64_t m = gi * mg + mo;
        float* yr = Y + (n * g.M + m) * P + oy0 * cv.ow;
        const double* sr = sum + mo * Pb;
        if (!a.qlinear) {
          for (int64_t p = 0; p < Pb; ++p) yr[p] = static_cast<float>(sr[p]);
          continue;
        }
        // The direct path's expression (qlinear.cc), on the same integer sum.
        const double bias = a.b_count ? static_cast<double>(static_cast<int64_t>(in[8][m])) : 0.0;
        const double xsc = in[1][0], ysc = in[6][0], yz = in[7][0], wsc = at_or(in[4], a.ws_count, m);
        for (int64_t p = 0; p < Pb; ++p) {
          const double v = std::nearbyint((sr[p] + bias) * xsc * wsc / ysc) + yz;
          yr[p] = static_cast<float>(std::clamp<double>(v, a.lo, a.hi));
        }
      }
    });
  };
}

}  // namespace nnbridge::cpu_ref
