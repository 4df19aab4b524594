// The integer products of ONNX: ConvInteger-10, QLinearConv-10, MatMulInteger-10 and
// QLinearMatMul-10.
//
// Operands are plain integer tensors (uint8 / int8), so the float32 buffers hold their values
// exactly. Zero points are subtracted in int32 and the products accumulated in int64, so the
// sum is exact; ConvInteger / MatMulInteger store it (Int32; the float32 buffer holds it
// exactly up to 2^24 in magnitude, the backend's known limit for integers). QLinearConv
// requantizes it as ONNX's reference implementation does: y = saturate(round_half_even((acc +
// B[m]) * multiplier) + zp_y), the multiplier x_scale * w_scale / y_scale computed in float32
// (qlinear_multiplier, conv.h) and the product in double. QLinearMatMul: y =
// saturate(round_half_even(acc * s_a * s_b / s_y) + zp_y) in double. Both saturate to the range
// of y_zero_point's type.
// Scales and zero points are read at run time (they may be graph inputs).
// Per-channel forms: a weight zero point / scale with one value per output channel (Conv), an
// A zero point / scale per row of A and a B one per column of B (MatMul; one value per row
// or column of every matrix of a batch also reads). A quantized operand type (whose buffers hold
// real values, not integers) is Error(Unsupported).
// 1-D and 2-D NCHW convolutions run on the float32 kernels in sums small enough to be exact
// (integer_conv.cc); others (3-D, NHWC) on the direct loops of conv3d.cc (1-D and
// 2-D with unit dims in front, spatial.h). Matrix batches broadcast as numpy.matmul, operands
// of rank >= 2.
#include <algorithm>
#include <cmath>

#include "nnbridge/exec/integer_ops.h"

#include "conv.h"
#include "spatial.h"

namespace nnbridge::cpu_ref {

namespace {

using exec::per_channel_count;
using exec::require_plain_integers;
using exec::requantized_range;


// ConvInteger (qlinear false) and QLinearConv (true) on rank-5 X; `range_out`, when given, receives
// QLinearConv's output range where x_scale, w_scale and y_scale are constants whose multipliers
// are all finite (a narrowed range then changes no NaN into a number), else stays null.
Kernel make_integer_conv3(const KernelContext& ctx, bool qlinear, std::shared_ptr<OutputRange>* range_out = nullptr) {
  const std::size_t w = qlinear ? 3 : 1, xzp = 2, wzp = qlinear ? 5 : 3;
  require_plain_integers(ctx, {0, w, xzp, wzp});
  const Conv3dGeom g = conv3d_geom(ctx, w);
  const int64_t nx = numel(ctx.in[0].shape), nw = numel(ctx.in[w].shape), per_m = g.M ? nw / g.M : 0;
  if (per_channel_count(ctx, xzp, 1, "x_zero_point") > 1) ctx.invalid(ErrorId::Shape, "x_zero_point must be a scalar");
  const int64_t wz_count = per_channel_count(ctx, wzp, g.M, "w_zero_point");
  int64_t ws_count = 0, b_count = 0;
  float lo = 0, hi = 0;
  if (qlinear) {
    if (per_channel_count(ctx, 1, 1, "x_scale") != 1 || per_channel_count(ctx, 6, 1, "y_scale") != 1 ||
        per_channel_count(ctx, 7, 1, "y_zero_point") != 1)
      ctx.invalid(ErrorId::Shape, "x_scale, y_scale and y_zero_point must be scalars");
    ws_count = per_channel_count(ctx, 4, g.M, "w_scale");
    if (ws_count == 0) ctx.invalid(ErrorId::Arity, "w_scale is required");
    b_count = ctx.has_input(8) ? numel(ctx.in[8].shape) : 0;
    if (b_count && b_count != g.M) ctx.invalid(ErrorId::Shape, "B must have one value per output channel");
    require_plain_integers(ctx, {7, 8});
    requantized_range(ctx, lo, hi);
  }
  const int64_t xz_count = ctx.has_input(xzp) ? 1 : 0;
  IntegerConvArgs args;
  args.qlinear = qlinear, args.w = w, args.xzp = xzp, args.wzp = wzp;
  args.xz_count = xz_count, args.wz_count = wz_count, args.ws_count = ws_count, args.b_count = b_count;
  if (b_count) args.bias = exact_int32_constant(ctx, 8);
  auto range = std::make_shared<OutputRange>(OutputRange{lo, hi, {}});
  args.range = range;
  if (qlinear && range_out && ctx.constants[1] && ctx.constants[4] && ctx.constants[6]) {
    bool finite = true;
    for (int64_t m = 0; m < g.M; ++m)
      finite = finite && std::isfinite(qlinear_multiplier((*ctx.constants[1])[0], at_or(ctx.constants[4]->data(), ws_count, m), (*ctx.constants[6])[0]));
    if (finite) *range_out = range;
  }
  const std::shared_ptr<const std::vector<int64_t>> bias = args.bias;
  const int64_t ny = numel(ctx.out[0].shape);
  if (Kernel k = make_integer_conv_fast(ctx, g, args)) return k;
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<int32_t> xi(static_cast<std::size_t>(nx)), wi(static_cast<std::size_t>(nw));
    const float xz = at_or(input_or_null(in, xzp), xz_count, 0);
    const float* wz = input_or_null(in, wzp);
    for (int64_t i = 0; i < nx; ++i) xi[i] = static_cast<int32_t>(in[0][i] - xz);
    for (int64_t i = 0; i < nw; ++i) wi[i] = static_cast<int32_t>(in[w][i] - at_or(wz, wz_count, i / per_m));
    float* Y = out[0];
    if (!qlinear) {
      conv3d_each<int64_t>(g, xi.data(), wi.data(), [&](int64_t yi, int64_t, int64_t acc) { Y[yi] = static_cast<float>(acc); });
      return;
    }
    const double yz = in[7][0];
    conv3d_each<int64_t>(g, xi.data(), wi.data(), [&](int64_t yi, int64_t m, int64_t acc) {
      if (b_count) acc += bias ? (*bias)[static_cast<std::size_t>(m)] : static_cast<int64_t>(in[8][m]);
      const double v = std::nearbyint(static_cast<double>(acc) * qlinear_multiplier(in[1][0], at_or(in[4], ws_count, m), in[6][0])) + yz;
      Y[yi] = static_cast<float>(std::clamp<double>(v, range->lo, range->hi));
    });
    if (range->finish) range->finish(Y, ny);  // the folded chain (OutputRange::finish)
  };
}

Kernel make_integer_conv(const KernelContext& ctx, bool qlinear, std::shared_ptr<OutputRange>* range_out = nullptr) {
  const std::size_t rank = ctx.in[0].shape.size();
  if (rank == 5) return make_integer_conv3(ctx, qlinear, range_out);
  if (rank != 3 && rank != 4) ctx.unsupported("only 1-D, 2-D and 3-D convolutions (X of rank 3, 4 or 5) are implemented");
  const Lifted lifted(ctx, 3, {qlinear ? std::size_t{3} : std::size_t{1}});
  return make_integer_conv3(lifted.ctx(), qlinear, range_out);
}

// MatMulInteger (qlinear false) and QLinearMatMul (true).
Kernel make_integer_matmul(const KernelContext& ctx, bool qlinear) {
  const std::size_t b_in = qlinear ? 3 : 1, azp = 2, bzp = qlinear ? 5 : 3;
  require_plain_integers(ctx, {0, b_in, azp, bzp});
  const Shape a = ctx.in[0].shape, b = ctx.in[b_in].shape, o = ctx.out[0].shape;
  if (a.size() < 2 || b.size() < 2 || o.size() < 2) ctx.unsupported("operands of rank < 2 are not implemented");
  const int64_t M = a[a.size() - 2], K = a.back(), N = b.back();
  if (b[b.size() - 2] != K) ctx.invalid(ErrorId::Shape, "A and B disagree on K");
  if (o[o.size() - 2] != M || o.back() != N) ctx.invalid(ErrorId::Shape, "output shape does not match [..., M, N]");
  const Shape batch(o.begin(), o.end() - 2);
  const Shape sa = exec::broadcast_strides(Shape(a.begin(), a.end() - 2), batch);
  const Shape sb = exec::broadcast_strides(Shape(b.begin(), b.end() - 2), batch);
  const int64_t nb = numel(batch), rows_a = numel(a) / std::max<int64_t>(K, 1), cols_b = numel(b) / std::max<int64_t>(K, 1);
  // A zero point / scale: 1, one per row (M) or one per row of every matrix (rows_a); B's per column.
  auto per = [&](std::size_t i, int64_t one, int64_t all, const char* what) -> int64_t {
    if (!ctx.has_input(i)) return 0;
    const int64_t c = numel(ctx.in[i].shape);
    if (c != 1 && c != one && c != all) ctx.invalid(ErrorId::Shape, std::string(what) + " must be a scalar or one value per row / column");
    return c;
  };
  const int64_t az = per(azp, M, rows_a, "A's zero point"), bz = per(bzp, N, cols_b, "B's zero point");
  int64_t as = 0, bs = 0;
  float lo = 0, hi = 0;
  if (qlinear) {
    as = per(1, M, rows_a, "a_scale");
    bs = per(4, N, cols_b, "b_scale");
    if (!as || !bs || per_channel_count(ctx, 6, 1, "y_scale") != 1 || per_channel_count(ctx, 7, 1, "y_zero_point") != 1)
      ctx.invalid(ErrorId::Arity, "needs a_scale, b_scale and scalar y_scale, y_zero_point");
    require_plain_integers(ctx, {7});
    requantized_range(ctx, lo, hi);
  }
  // Which value of a per-row (per-column) input row r of matrix `mat` uses.
  auto pick = [](int64_t count, int64_t per_matrix, int64_t mat, int64_t r) {
    return count <= 1 ? 0 : count == per_matrix ? r : mat * per_matrix + r;
  };
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<int32_t> ai(static_cast<std::size_t>(rows_a * K)), bi(static_cast<std::size_t>(cols_b * K));
    const float* a_zp = input_or_null(in, azp);
    const float* b_zp = input_or_null(in, bzp);
    for (int64_t r = 0; r < rows_a; ++r)
      for (int64_t k = 0; k < K; ++k)
        ai[r * K + k] = static_cast<int32_t>(in[0][r * K + k] - at_or(a_zp, az, pick(az, M, r / M, r % M)));
    for (int64_t i = 0; i < cols_b * K; ++i) {
      const int64_t mat = i / (K * N), col = i % N;
      bi[i] = static_cast<int32_t>(in[b_in][i] - at_or(b_zp, bz, pick(bz, N, mat, col)));
    }
    for (int64_t t = 0; t < nb; ++t) {
      int64_t rem = t, ia = 0, ib = 0;
      for (std::size_t d = batch.size(); d-- > 0;) {
        const int64_t idx = rem % batch[d];
        rem /= batch[d];
        ia += idx * sa[d], ib += idx * sb[d];
      }
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          int64_t acc = 0;
          for (int64_t k = 0; k < K; ++k)
            acc += static_cast<int64_t>(ai[(ia * M + i) * K + k]) * bi[(ib * K + k) * N + j];
          float& y = out[0][(t * M + i) * N + j];
          if (!qlinear) {
            y = static_cast<float>(acc);
            continue;
          }
          const double scale = static_cast<double>(at_or(in[1], as, pick(as, M, ia, i))) * at_or(in[4], bs, pick(bs, N, ib, j));
          const double v = std::nearbyint(static_cast<double>(acc) * scale / in[6][0]) + in[7][0];
          y = static_cast<float>(std::clamp<double>(v, lo, hi));
        }
    }
  };
}

}  // namespace

RangedKernel qlinear_conv_ranged(const KernelContext& ctx) {
  RangedKernel r;
  r.kernel = make_integer_conv(ctx, true, &r.range);
  return r;
}

void add_qlinear_kernels(KernelTable& t) {
  t["ConvInteger"] = [](const KernelContext& c) { return make_integer_conv(c, false); };
  t["QLinearConv"] = [](const KernelContext& c) { return make_integer_conv(c, true); };
  t["MatMulInteger"] = [](const KernelContext& c) { return make_integer_matmul(c, false); };
  t["QLinearMatMul"] = [](const KernelContext& c) { return make_integer_matmul(c, true); };
}

}  // namespace nnbridge::cpu_ref
