// ConvInteger-10 and QLinearConv-10 on 2-D NCHW images, exactly, on fast kernels.
//
// With the zero points subtracted, every operand is an integer in [-255, 255] (uint8 or int8
// minus a zero point of its type), so every product is an integer of magnitude <= 255^2 = 65025.
// - On AVX-512 VNNI (igemm/igemm.h), a convolution that is not depthwise runs as an int8 x
//   uint8 -> int32 GEMM when its W minus w_zero_point fits int8 (symmetric int8 weights, the
//   usual export; uint8 weights with zero point 128): X minus x_zero_point is stored as uint8
//   by adding z, z the x zero point (uint8 X) or it plus 128 (int8 X), and each sum loses z
//   times its row of W: sum W'(X - xz) = sum W'(X - xz + z) - z sum W'. int32 holds every such
//   sum up to K = 65792 products. The patches are never made as floats: the input rows a block
//   of output rows reads are staged once as those bytes, padded and split into the phases of
//   the strides (im2col.h, pad_input_nchw_u8), and each tap's rows are packed from there
//   (igemm_pack_b_runs); a 1x1 stride-1 convolution packs X itself.
// - Otherwise, on the float32 kernels: a float32 sum of at most 256 such products never leaves
//   the integers float32 holds exactly (256 * 65025 = 16,646,400 < 2^24), whatever order it is
//   added in and with or without fused multiply-adds. So a depthwise convolution (group = C = M)
//   with at most 256 taps runs on the float depthwise kernel (depthwise.cc) as it is; any other
//   runs as im2col + the float32 GEMM with K cut into slices of 256, each slice's product exact,
//   the slices added in double (exact up to 2^53).
// The sums are therefore the same integers the direct loops of conv3d_each compute, and they are
// requantized with the same expression (qlinear.cc), so the outputs are the same bits.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "../igemm/igemm.h"
#include "../sgemm/sgemm.h"
#include "../simd/simd.h"
#include "conv.h"
#include "im2col.h"
#include "scratch.h"

namespace nnbridge::cpu_ref {

namespace {

constexpr int64_t kExactSlice = 256;  // products per float32 partial sum (see above)


// Output channel m's sums [count] as ConvInteger's Int32 or QLinearConv's requantized values.
struct Requantize {
  IntegerConvArgs a;
  // The constants of output channel m (QLinearConv).
  simd::Requantize params(std::span<const float* const> in, int64_t m) const {
    simd::Requantize r;
    r.bias = a.bias ? static_cast<double>((*a.bias)[static_cast<std::size_t>(m)])
             : a.b_count ? static_cast<double>(static_cast<int64_t>(in[8][m])) : 0.0;
    r.multiplier = qlinear_multiplier(in[1][0], at_or(in[4], a.ws_count, m), in[6][0]), r.y_zero = in[7][0];
    r.lo = a.range->lo, r.hi = a.range->hi;
    return r;
  }
  void operator()(std::span<const float* const> in, int64_t m, const double* sums, float* y, int64_t count) const {
    if (!a.qlinear) {
      for (int64_t p = 0; p < count; ++p) y[p] = static_cast<float>(sums[p]);
      return;
    }
    // The direct path's expression (qlinear.cc) on the same integer sums, in the vector kernel.
    simd::kernels().requantize(params(in, m), sums, y, static_cast<std::size_t>(count));
    finish(y, count);
  }
  // The chain the plan folded into this QLinearConv (OutputRange::finish), on outputs just written.
  void finish(float* y, int64_t count) const {
    if (a.qlinear && a.range && a.range->finish) a.range->finish(y, count);
  }
};

// X minus x_zero_point, into the calling thread's node-wide scratch (slot 1).
const float* shifted_x(std::span<const float* const> in, const IntegerConvArgs& a, int64_t nx) {
  const float xz = at_or(input_or_null(in, a.xzp), a.xz_count, 0);
  float* xs = thread_scratch(static_cast<std::size_t>(nx), 1);
  for (int64_t i = 0; i < nx; ++i) xs[i] = in[0][i] - xz;
  return xs;
}

Kernel igemm_kernel(const KernelContext& ctx, const Conv3dGeom& g, const ConvGeom& cv, const IntegerConvArgs& a,
                    const Requantize& requantize, int64_t K, int64_t rows, int64_t blocks, int threads,
                    std::shared_ptr<const std::vector<IgemmA>> wq);

// The igemm path (igemm/igemm.h) of a 2-D NCHW convolution that is not depthwise, or null: W
// constant, every W - w_zero_point within int8, X int8 or uint8, K <= kIgemmMaxK. Symmetric int8
// W with K a multiple of 4 is read in place (its rows are igemm's A as they are), any other W's
// integers are packed as int8 per group at prepare; W is marked read at prepare only, so its
// float32 form is never made.
Kernel igemm_conv(const KernelContext& ctx, const Conv3dGeom& g, const ConvGeom& cv, const IntegerConvArgs& a,
                  const Requantize& requantize, int64_t K, int64_t rows, int64_t blocks, int threads) {
  const DataType xt = ctx.in[0].dtype;
  const exec::FloatConstant *wc = ctx.constants[a.w], *wzc = ctx.has_input(a.wzp) ? ctx.constants[a.wzp] : nullptr;
  if (!igemm_available() || !wc || (ctx.has_input(a.wzp) && !wzc) || K > kIgemmMaxK ||
      (xt != DataType::UInt8 && xt != DataType::Int8))
    return nullptr;
  // W's integers: its stored bytes when they are int8 / uint8 (the float32 form is not made).
  const Buffer* raw = wc->stored();
  const TensorType* rt = wc->stored_type();
  const bool s8 = raw && rt && !rt->quantization && rt->dtype == DataType::Int8;
  const bool u8 = raw && rt && !rt->quantization && rt->dtype == DataType::UInt8;
  const float* wz = wzc ? wzc->data() : nullptr;
  bool zero_wz = true;
  for (int64_t o = 0; o < g.M; ++o) zero_wz = zero_wz && at_or(wz, a.wz_count, o) == 0.0f;
  if (s8 && g.wl == 0 && zero_wz) {  // symmetric int8 OIHW: W's own bytes are [M, K]
    const int8_t* w = reinterpret_cast<const int8_t*>(raw->data());
    if (K % 4 == 0) {
      // Read where they lie (igemm_view_a). The plan's constants hold W's bytes too; the kernel's
      // own copy of the Buffer (a copy shares the owner) keeps it valid without relying on that.
      struct Held {
        Buffer bytes;
        std::vector<IgemmA> a;
      };
      auto held = std::make_shared<Held>(Held{*raw, {}});
      const int8_t* wb = reinterpret_cast<const int8_t*>(held->bytes.data());
      for (int64_t gi = 0; gi < g.group; ++gi) held->a.push_back(igemm_view_a(wb + gi * g.mg * K, g.mg, K, K));
      ctx.prepared_only(a.w);
      return igemm_kernel(ctx, g, cv, a, requantize, K, rows, blocks, threads,
                          std::shared_ptr<const std::vector<IgemmA>>(held, &held->a));
    }
    auto packed = std::make_shared<std::vector<IgemmA>>();
    for (int64_t gi = 0; gi < g.group; ++gi) packed->push_back(igemm_pack_a(w + gi * g.mg * K, g.mg, K, K));
    ctx.prepared_only(a.w);
    return igemm_kernel(ctx, g, cv, a, requantize, K, rows, blocks, threads, std::move(packed));
  }
  std::vector<int8_t> w8(static_cast<std::size_t>(g.M * K));  // [M, K], K = (ci, ky, kx)
  bool fits = true;
  auto put = [&](int64_t o, int64_t k, int v) {
    fits = fits && v >= -128 && v <= 127;
    w8[static_cast<std::size_t>(o * K + k)] = static_cast<int8_t>(v);
  };
  if ((s8 || u8) && g.wl == 0) {  // OIHW: row o of [M, K] is W's bytes o * K .. o * K + K
    const std::byte* b = raw->data();
    for (int64_t o = 0; o < g.M && fits; ++o) {
      const int z = static_cast<int>(at_or(wz, a.wz_count, o));
      for (int64_t k = 0; k < K; ++k)
        put(o, k, (s8 ? static_cast<int>(static_cast<int8_t>(b[o * K + k])) : static_cast<int>(static_cast<uint8_t>(b[o * K + k]))) - z);
    }
  } else {  // another layout or stored type: through the float32 form
    const float* w = wc->data();
    for (int64_t o = 0; o < g.M && fits; ++o)
      for (int64_t i = 0; i < g.cg; ++i)
        for (int64_t y = 0; y < cv.kh; ++y)
          for (int64_t x = 0; x < cv.kw; ++x) {
            const float v = w[g.w_at(o, i, 0, y, x)] - at_or(wz, a.wz_count, o);
            put(o, (i * cv.kh + y) * cv.kw + x, v >= -128.0f && v <= 127.0f ? static_cast<int>(v) : 1000);
          }
  }
  if (!fits) return nullptr;
  auto packed = std::make_shared<std::vector<IgemmA>>();
  for (int64_t gi = 0; gi < g.group; ++gi) packed->push_back(igemm_pack_a(w8.data() + gi * g.mg * K, g.mg, K, K));
  ctx.prepared_only(a.w);
  return igemm_kernel(ctx, g, cv, a, requantize, K, rows, blocks, threads, std::move(packed));
}

// The igemm convolution's kernel on W per group (packed, or read in place).
Kernel igemm_kernel(const KernelContext& ctx, const Conv3dGeom& g, const ConvGeom& cv, const IntegerConvArgs& a,
                    const Requantize& requantize, int64_t K, int64_t rows, int64_t blocks, int threads,
                    std::shared_ptr<const std::vector<IgemmA>> wq) {
  const DataType xt = ctx.in[0].dtype;
  const int64_t P = cv.oh * cv.ow;
  // 1x1, stride 1, no pad: the patches are X itself, read in place.
  const bool direct = cv.kh == 1 && cv.kw == 1 && cv.sh == 1 && cv.sw == 1 && g.p[1] == 0 && g.p[2] == 0 &&
                      g.p[4] == 0 && g.p[5] == 0 && cv.oh == cv.h && cv.ow == cv.w;
  const float unsigned_shift = xt == DataType::Int8 ? 128.0f : 0.0f;
  const int64_t wp = shifted_width(cv);
  // Where each tap's run starts in the staged bytes (im2col.h, shifted_offsets): the same for
  // every block of `rows` output rows, and for the last block's rows.
  auto tap_offsets = [&](int64_t out_rows) {
    auto v = std::make_shared<std::vector<int64_t>>(direct ? 0 : static_cast<std::size_t>(K));
    if (!direct) shifted_offsets(cv, out_rows, v->data());
    return std::shared_ptr<const std::vector<int64_t>>(std::move(v));
  };
  const int64_t last_rows = cv.oh - (blocks - 1) * rows;
  const auto offsets_full = tap_offsets(rows), offsets_last = last_rows == rows ? offsets_full : tap_offsets(last_rows);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const float xz = at_or(input_or_null(in, a.xzp), a.xz_count, 0);
    const float z = xz + unsigned_shift;  // X - xz + z is X's value in the uint8 range
    // X itself is packed with unsigned_shift added (X + shift = X - xz + z), read in place or
    // staged as bytes whose padding holds z (a tap in the padding is X = xz: stored z).
    const float* xs = in[0];
    const float add = unsigned_shift;
    const uint8_t pad = static_cast<uint8_t>(std::clamp(z, 0.0f, 255.0f));
    float* Y = out[0];
    parallel_for(threads, g.N * g.group * blocks, [&](int64_t item) {
      const int64_t rb = item % blocks, gi = (item / blocks) % g.group, n = item / (blocks * g.group);
      const int64_t oy0 = rb * rows, oy1 = std::min(cv.oh, oy0 + rows), Pb = (oy1 - oy0) * cv.ow, mg = g.mg;
      if (Pb <= 0 || mg <= 0) return;
      const int64_t cols = igemm_columns(Pb);
      // One scratch block, each part at a multiple of 64 bytes into it: B's uint8 quads, the int32
      // sums [mg, cols], a row of sums in double, and unless X is read in place X's rows staged as
      // bytes (im2col.h, pad_input_nchw_u8), with the slack igemm_pack_b_runs reads past a run.
      auto up = [](std::size_t bytes) { return (bytes + 63) / 64 * 64; };
      const std::size_t b_at = 0, acc_at = b_at + up(igemm_b_bytes(K, Pb)), sum_at = acc_at + up(static_cast<std::size_t>(mg * cols) * 4);
      const std::size_t staged_at = sum_at + up(static_cast<std::size_t>(Pb) * 8);
      const std::size_t end = staged_at + (direct ? 0 : up(static_cast<std::size_t>(shifted_staged(cv, oy1 - oy0) + kIgemmRunSlack)));
      std::byte* scratch = reinterpret_cast<std::byte*>(thread_scratch(end / 4));
      uint8_t* bq = reinterpret_cast<uint8_t*>(scratch + b_at);
      int32_t* acc = reinterpret_cast<int32_t*>(scratch + acc_at);
      double* sum = reinterpret_cast<double*>(scratch + sum_at);
      if (direct) {
        igemm_pack_b(xs + ((n * g.C + gi * g.cg) * cv.h + oy0) * cv.w, K, Pb, cv.h * cv.w, add, bq);
      } else {
        uint8_t* staged = reinterpret_cast<uint8_t*>(scratch + staged_at);
        pad_input_nchw_u8(cv, xs, n, gi, oy0, oy1, add, pad, staged);
        const auto& offsets = oy1 - oy0 == rows ? *offsets_full : *offsets_last;
        igemm_pack_b_runs(staged, offsets.data(), K, oy1 - oy0, cv.ow, wp, bq);
      }
      const IgemmA& wg = (*wq)[static_cast<std::size_t>(gi)];
      igemm(wg, bq, Pb, acc, cols);
      const int64_t zi = static_cast<int64_t>(z);
      for (int64_t mo = 0; mo < mg; ++mo) {
        const int64_t m = gi * mg + mo, correction = zi * wg.row_sum[static_cast<std::size_t>(mo)];
        float* y = Y + (n * g.M + m) * P + oy0 * cv.ow;
        if (a.qlinear) {  // the same operations as simd::Kernels::requantize, on the int32 sums
          const simd::Requantize r = requantize.params(in, m);
          igemm_requantize(acc + mo * cols, Pb, correction, {r.bias, r.multiplier, r.y_zero, r.lo, r.hi}, y);
          requantize.finish(y, Pb);
        } else {
          igemm_to_double(acc + mo * cols, Pb, correction, sum);
          requantize(in, m, sum, y, Pb);
        }
      }
    });
  };
}

// Depthwise with constant W and x_zero_point, strides 1 and 2: the plane kernel reads X itself,
// its padding filled with x_zp, so each sum is sum_taps W'(X - xz) + xz sum_taps W' (padding taps
// contribute xz W' and should contribute 0). The second term, one integer per channel, leaves
// through the requantization's bias, which runs on each plane while it is in cache. Exact as the
// other float paths: |X|, |xz| <= 255 and at most 256 taps keep every partial sum an integer
// below 2^24.
Kernel depthwise_padded(const KernelContext& ctx, const ConvGeom& cv, const IntegerConvArgs& a,
                        const Requantize& requantize, const std::vector<float>& w_shifted, int64_t K) {
  const float xz = ctx.has_input(a.xzp) ? at_or(ctx.constants[a.xzp]->data(), a.xz_count, 0) : 0.0f;
  auto correction = std::make_shared<std::vector<double>>(static_cast<std::size_t>(cv.m));
  for (int64_t c = 0; c < cv.m; ++c) {
    double s = 0;
    for (int64_t k = 0; k < K; ++k) s += static_cast<double>(w_shifted[static_cast<std::size_t>(c * K + k)]);
    (*correction)[static_cast<std::size_t>(c)] = static_cast<double>(xz) * s;
  }
  KernelContext dctx = ctx;
  const exec::FloatConstant wconst(w_shifted);
  dctx.constants = {nullptr, &wconst};
  dctx.read_at_prepare_only = nullptr;  // its slots are not this node's (ctx.prepared_only(a.w) says what is read)
  const bool f32_sums = requantize.a.qlinear && igemm_available();
  return make_depthwise_padded(dctx, cv, xz, [requantize, correction, f32_sums](std::span<const float* const> in, int64_t c, float* y, int64_t count) {
    const double corr = (*correction)[static_cast<std::size_t>(c)];
    simd::Requantize r;
    if (requantize.a.qlinear) {
      r = requantize.params(in, c);
      r.bias -= corr;
    }
    if (f32_sums) {  // the same operations on the float sums where they lie (igemm.h)
      igemm_requantize_f32(y, count, {r.bias, r.multiplier, r.y_zero, r.lo, r.hi}, y);
      requantize.finish(y, count);
      return;
    }
    constexpr int64_t kChunk = 512;  // sums in double, a cache-resident chunk at a time
    double sums[kChunk];
    for (int64_t p0 = 0; p0 < count; p0 += kChunk) {
      const int64_t n = std::min(kChunk, count - p0);
      std::copy(y + p0, y + p0 + n, sums);
      if (requantize.a.qlinear) {
        simd::kernels().requantize(r, sums, y + p0, static_cast<std::size_t>(n));
        requantize.finish(y + p0, n);
      } else {
        for (int64_t p = 0; p < n; ++p) y[p0 + p] = static_cast<float>(sums[p] - corr);
      }
    }
  });
}

}  // namespace

Kernel make_integer_conv_fast(const KernelContext& ctx, const Conv3dGeom& g, const IntegerConvArgs& a) {
  // 2-D only: a unit depth read at depth 0 (a rank-5 X of depth 1 with a depth pad reads the
  // padding there, which the direct loops handle).
  if (g.nhwc || g.in[0] != 1 || g.k[0] != 1 || g.on[0] != 1 || g.p[0] != 0) return nullptr;
  ConvGeom cv{};  // the 2-D geometry of im2col_nchw and the depthwise kernel
  cv.n = g.N, cv.c = g.C, cv.h = g.in[1], cv.w = g.in[2], cv.m = g.M, cv.oh = g.on[1], cv.ow = g.on[2];
  cv.kh = g.k[1], cv.kw = g.k[2], cv.sh = g.s[1], cv.sw = g.s[2], cv.dh = g.d[1], cv.dw = g.d[2];
  cv.pt = g.p[1], cv.pl = g.p[2], cv.group = g.group, cv.nhwc = false;
  cv.layout = "OIHW", cv.wl = WLayout::OIHW, cv.wshape = {g.M, g.cg, cv.kh, cv.kw};
  const int64_t K = g.cg * cv.kh * cv.kw, P = cv.oh * cv.ow, nx = numel(ctx.in[0].shape);
  // W minus its zero point as OIHW ([M, K], K = (ci, ky, kx)): made once when both are constants.
  auto shifted_w = [g, cv, K, a](const float* w, const float* wz) {
    std::vector<float> out(static_cast<std::size_t>(g.M * K));
    for (int64_t o = 0; o < g.M; ++o)
      for (int64_t i = 0; i < g.cg; ++i)
        for (int64_t y = 0; y < cv.kh; ++y)
          for (int64_t x = 0; x < cv.kw; ++x)
            out[static_cast<std::size_t>(o * K + (i * cv.kh + y) * cv.kw + x)] = w[g.w_at(o, i, 0, y, x)] - at_or(wz, a.wz_count, o);
    return out;
  };
  const exec::FloatConstant *wc = ctx.constants[a.w], *wzc = ctx.has_input(a.wzp) ? ctx.constants[a.wzp] : nullptr;
  const bool depthwise = g.group == g.C && g.M == g.C && g.group > 1 && K <= kExactSlice;
  const Requantize requantize{a};
  // Work items: (image, group, block of output rows); a block's patches near 2^18 floats.
  // With threads and fewer items than threads (one image, one group), the rows are split so that
  // each thread gets a block.
  const int threads = g.N * g.M * K * P < (int64_t{1} << 20) ? 1 : ctx.threads;
  int64_t rows = std::clamp<int64_t>((int64_t{1} << 18) / std::max<int64_t>(K * cv.ow, 1), 1, std::max<int64_t>(cv.oh, 1));
  if (threads > 1 && g.N * g.group < threads) rows = std::min(rows, std::max<int64_t>(1, (cv.oh + threads - 1) / threads));
  const int64_t blocks = (cv.oh + rows - 1) / rows;

  if (!depthwise)
    if (Kernel k = igemm_conv(ctx, g, cv, a, requantize, K, rows, blocks, threads)) return k;
  // The GEMM reads a constant OIHW W whose zero points are all 0 (symmetric int8 weights, the
  // usual export) as it is: a view of the plan's constant, no copy.
  bool wz_zero = !ctx.has_input(a.wzp);
  if (wzc) wz_zero = std::all_of(wzc->data(), wzc->data() + wzc->size(), [](float z) { return z == 0.0f; });
  const float* wview = !depthwise && wc && g.wl == 0 && wz_zero ? wc->data() : nullptr;
  std::shared_ptr<const std::vector<float>> wprep;
  if (!wview && wc && (!ctx.has_input(a.wzp) || wzc)) wprep = std::make_shared<const std::vector<float>>(shifted_w(wc->data(), wzc ? wzc->data() : nullptr));

  if (depthwise && wprep && (!ctx.has_input(a.xzp) || ctx.constants[a.xzp]))
    if (Kernel k = depthwise_padded(ctx, cv, a, requantize, *wprep, K)) return k;
  if (depthwise) {
    // Depthwise: the float kernel on X - x_zp and W - w_zp (as its input 1, no bias) writes the
    // sums into Y, which are then requantized in place, plane by plane.
    KernelContext dctx = ctx;
    const exec::FloatConstant wconst(wprep ? *wprep : std::vector<float>{});
    dctx.constants = {nullptr, wprep ? &wconst : nullptr};
    dctx.read_at_prepare_only = nullptr;  // its slots are not this node's
    const Kernel sums = make_depthwise(dctx, cv, false, {})(Epilogue{});
    const int threads = ctx.threads;
    return [=](std::span<const float* const> in, std::span<float* const> out) {
      std::vector<float> wlocal;
      if (!wprep) wlocal = shifted_w(in[a.w], input_or_null(in, a.wzp));
      const float* dw_in[2] = {shifted_x(in, a, nx), wprep ? nullptr : wlocal.data()};
      sums(dw_in, out);
      float* Y = out[0];
      parallel_ranges(threads, g.N * g.M, std::max<int64_t>(1, (int64_t{1} << 15) / std::max<int64_t>(P, 1)), [&](int64_t q0, int64_t q1) {
        constexpr int64_t kChunk = 512;  // sums in double, a cache-resident chunk at a time
        double sums[kChunk];
        for (int64_t q = q0; q < q1; ++q)
          for (int64_t p0 = 0; p0 < P; p0 += kChunk) {
            float* y = Y + q * P + p0;
            const int64_t count = std::min(kChunk, P - p0);
            std::copy(y, y + count, sums);
            requantize(in, q % g.M, sums, y, count);
          }
      });
    };
  }

  return [=](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<float> wlocal;
    const float* w = wview ? wview : wprep ? wprep->data() : nullptr;
    if (!w) {
      wlocal = shifted_w(in[a.w], input_or_null(in, a.wzp));
      w = wlocal.data();
    }
    const float* xs = shifted_x(in, a, nx);  // read by every item
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
        requantize(in, m, sum + mo * Pb, Y + (n * g.M + m) * P + oy0 * cv.ow, Pb);
      }
    });
  };
}

}  // namespace nnbridge::cpu_ref
