// Conv (2-D, NCHW or NHWC; 1-D as 2-D with height 1) by im2col and a GEMM (sgemm: Eigen's, per
// instruction set; bias added in its epilogue) per image, group and block of output
// rows, written straight into the output: NCHW as W [mg, K] x col [K, P] (K = (ci, ky, kx), W
// as OIHW), NHWC as col [P, K] x W^T (K = (ky, kx, ci), W as OHWI); a 1x1 convolution with
// stride 1 and no padding reads X itself as col, and other NCHW ones, where sgemm takes B by
// rows, read col's rows as shifted rows of a padded, phase-split copy of X (im2col.h). There, NCHW
// convolutions with constant W where indirect_pays (conv.h) multiply with the output channels
// across the vector lanes instead (sgemm/indirect.h: W packed into strips at prepare, the taps
// of each output position read through offsets into X or that staged copy). Depthwise
// convolutions with multiplier 1 go to depthwise.cc.
//
// Weights are first brought to OIHW with C/group input channels per output channel:
//   OIHW  ONNX;                      OHWI  Arm NN Convolution2d in NHWC;
//   1HWO  depthwise [1, H, W, C*M]   (TFLite, Arm NN weightsLayoutScheme 1): output channel o
//         reads input channel o / M;
//   MIHW  depthwise [M, C, H, W]     (Arm NN 20.08): output channel c*M + m is W[m][c].
// Output size floor((in + pad_begin + pad_end - dilation*(k-1) - 1) / stride) + 1 (ONNX Conv-11).
#include <algorithm>
#include <memory>
#include <vector>

#include "../sgemm/indirect.h"
#include "../sgemm/sgemm.h"
#include "conv.h"
#include "im2col.h"
#include "scratch.h"
#include "spatial.h"

namespace nnbridge::cpu_ref {

int64_t ConvGeom::w_index(int64_t o, int64_t i, int64_t y, int64_t x) const {
  const int64_t cg = c / group;
  switch (wl) {
    case WLayout::OIHW: return ((o * cg + i) * kh + y) * kw + x;
    case WLayout::OHWI: return ((o * kh + y) * kw + x) * cg + i;
    case WLayout::HWO1: return (y * kw + x) * m + o;
    case WLayout::MIHW: {  // o = c * M + mult
      const int64_t M = wshape[0], C = wshape[1];
      return (((o % M) * C + o / M) * kh + y) * kw + x;
    }
  }
  return 0;
}

// Reserved then appended in the destination order: one pass, no zero-fill (for large weights the
// page faults of a second pass cost more than the copy).
std::vector<float> to_oihw(const ConvGeom& g, const float* w) {
  const int64_t cg = g.c / g.group;
  if (g.wl == WLayout::OIHW) return std::vector<float>(w, w + g.m * cg * g.kh * g.kw);  // already in order
  std::vector<float> out;
  out.reserve(static_cast<std::size_t>(g.m * cg * g.kh * g.kw));
  for (int64_t o = 0; o < g.m; ++o)
    for (int64_t i = 0; i < cg; ++i)
      for (int64_t y = 0; y < g.kh; ++y)
        for (int64_t x = 0; x < g.kw; ++x) out.push_back(w[g.w_index(o, i, y, x)]);
  return out;
}

namespace {
// A 1x1 convolution with stride 1 and no padding: its patches are X's planes as they lie.
bool direct_1x1(const ConvGeom& g) { return g.kh == 1 && g.kw == 1 && g.sh == 1 && g.sw == 1 && g.pt == 0 && g.pl == 0 && g.oh == g.h && g.ow == g.w; }
}  // namespace

bool indirect_pays(const ConvGeom& g) {
  const int64_t K = g.c / g.group * g.kh * g.kw, plane = g.oh * g.ow;
  const bool direct = direct_1x1(g);
  const bool lanes_idle = 16 * ((plane + 15) / 16) * 9 > plane * 10;
  return !g.nhwc && g.group == 1 && (direct ? lanes_idle && K >= kIndirectMinKDirect : K >= kIndirectMinK);
}

std::vector<float> conv_bias(const float* b, const std::vector<float>& bscale, int64_t m) {
  std::vector<float> out(static_cast<std::size_t>(m), 0.0f);
  if (b)
    for (int64_t o = 0; o < m; ++o) out[o] = bscale.empty() ? b[o] : b[o] * bscale[o];
  return out;
}

namespace {

// W as OHWI: [m][kh][kw][c / group], the [M, K = (ky, kx, ci)] matrix the NHWC path multiplies.
std::vector<float> to_ohwi(const ConvGeom& g, const float* w) {
  const int64_t cg = g.c / g.group;
  std::vector<float> out;
  out.reserve(static_cast<std::size_t>(g.m * cg * g.kh * g.kw));
  for (int64_t o = 0; o < g.m; ++o)
    for (int64_t y = 0; y < g.kh; ++y)
      for (int64_t x = 0; x < g.kw; ++x)
        for (int64_t i = 0; i < cg; ++i) out.push_back(w[g.w_index(o, i, y, x)]);
  return out;
}

// The run-time body of the GEMM path (below).
// Work split of the GEMM path: items (image, group, block of output rows, block of channels).
struct Blocks {
  int threads = 1;
  int64_t rows = 1, chans = 1;
  bool shifted = false;  // NCHW, not 1x1 direct: patches as shifted rows where wide enough
};
void conv_gemm(const ConvGeom& g, const float* x, const float* w, const float* panels, const float* bias, float* y,
               const Blocks& b, const EpilogueRun& ep);

EpilogueKernel make_conv(const KernelContext& ctx) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  if (xs.size() != 4) ctx.unsupported("only 1-D, 2-D and 3-D convolutions (X of rank 3, 4 or 5) are implemented");
  ConvGeom g{};
  g.nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  g.layout = ctx.attr_string("kernel_layout", "OIHW");
  g.wshape = ctx.in[1].shape;
  g.n = xs[0];
  g.c = g.nhwc ? xs[3] : xs[1];
  g.h = g.nhwc ? xs[1] : xs[2];
  g.w = g.nhwc ? xs[2] : xs[3];
  g.m = g.nhwc ? ys[3] : ys[1];
  g.oh = g.nhwc ? ys[1] : ys[2];
  g.ow = g.nhwc ? ys[2] : ys[3];
  g.group = ctx.attr_int("group", 1);
  if (ys.size() != 4 || ys[0] != g.n) ctx.invalid(ErrorId::Shape, "output batch differs from the input's");
  const Shape& ws = g.wshape;
  if (ws.size() != 4) ctx.invalid(ErrorId::Shape, "W must have rank 4");
  if (g.layout == "OIHW" || g.layout == "MIHW") g.kh = ws[2], g.kw = ws[3];
  else if (g.layout == "OHWI" || g.layout == "1HWO") g.kh = ws[1], g.kw = ws[2];
  else ctx.unsupported("kernel_layout \"" + g.layout + "\"");
  g.wl = g.layout == "OIHW" ? WLayout::OIHW : g.layout == "OHWI" ? WLayout::OHWI : g.layout == "1HWO" ? WLayout::HWO1 : WLayout::MIHW;
  if (g.layout == "1HWO" || g.layout == "MIHW") {
    if (g.group != g.c) ctx.invalid(ErrorId::AttributeValue, "depthwise kernel_layout " + g.layout + " needs group = input channels");
  }
  if (g.group < 1 || g.c % g.group != 0 || g.m % g.group != 0) ctx.invalid(ErrorId::Shape, "channels do not divide into groups");
  if (numel(ws) != g.m * (g.c / g.group) * g.kh * g.kw) ctx.invalid(ErrorId::Shape, "W size does not match the channels and kernel");
  const WindowAttrs wa = window_attrs(ctx, {g.kh, g.kw}, {g.h, g.w}, {g.oh, g.ow});
  g.sh = wa.strides[0], g.sw = wa.strides[1], g.dh = wa.dilations[0], g.dw = wa.dilations[1];
  g.pt = wa.pads[0], g.pl = wa.pads[1];
  const bool has_bias = ctx.has_input(2);
  if (has_bias && numel(ctx.in[2].shape) != g.m) ctx.invalid(ErrorId::Shape, "B must have one value per output channel");
  std::vector<float> bscale = implied_bias_scale(ctx, g.m);
  if (g.group == g.c && g.m == g.c && g.group > 1) return make_depthwise(ctx, g, has_bias, std::move(bscale));

  // Work items: (image, group, block of output rows, block of output channels), independent of
  // each other. When images x groups leave threads idle, the larger GEMM dim is split (each
  // block packs the whole other operand, so splitting the smaller dim would repeat more work):
  // rows of the output (P = OH * OW), or its channels when there are more of them than output
  // positions (small images late in a network: 7 rows split 4 / 3, 512 channels 256 / 256; each
  // channel block then builds the patches of its rows itself). Not below 2^18 multiply-adds per
  // item; an im2col buffer of a row block stays near 1 MiB.
  const int64_t cg = g.c / g.group, mg = g.m / g.group, K = cg * g.kh * g.kw;
  const int64_t macs = g.n * g.m * K * g.oh * g.ow;
  const bool direct = direct_1x1(g);
  Blocks blocks;
  blocks.threads = macs < (int64_t{1} << 20) ? 1 : ctx.threads;
  const int64_t images = g.n * g.group, per_image = std::max<int64_t>(1, macs / (int64_t{1} << 18) / std::max<int64_t>(images, 1));
  if (images < blocks.threads) {
    if (g.oh * g.ow < mg) blocks.chans = std::min<int64_t>({mg, blocks.threads, per_image});
    else blocks.rows = std::min<int64_t>({g.oh, blocks.threads, per_image});
  }
  if (!direct) blocks.rows = std::max(blocks.rows, std::min(g.oh, K * g.oh * g.ow / (int64_t{1} << 18)));
  // NCHW: rows split evenly, every block at least 16 outputs wide where the plane has 16, so
  // that sgemm gives each block to its own kernel, whose sums do not depend on the blocks (a
  // 1-row block of a 7-wide plane went to Eigen's GEMM, and 3 threads changed its bits).
  if (!g.nhwc) blocks.rows = std::max<int64_t>(1, std::min(blocks.rows, g.oh / ((16 + g.ow - 1) / g.ow)));
  // More blocks than threads: a multiple of the threads where the rows allow it, so that every
  // thread gets as many (resnet18's 3 x 3 convolutions on 28 x 28 made 3 blocks of rows, and two
  // threads took 0.67x the time of one where 4 blocks take 0.5x; its 7 x 7 stem made 7).
  const int64_t most_rows = g.nhwc ? g.oh : std::max<int64_t>(1, g.oh / ((16 + g.ow - 1) / g.ow));
  for (int64_t r = blocks.rows, items = images * blocks.chans; items * blocks.rows > blocks.threads && r <= most_rows; ++r)
    if (items * r % blocks.threads == 0) {
      blocks.rows = r;
      break;
    }
  // Shifted rows save the im2col copy (K floats per output; the padded input holds each input
  // element once) for a grid of shifted_width columns per output row (conv_gemm).
  blocks.shifted = !g.nhwc && !direct && sgemm_b_rows_available();

  // The GEMM reads W as [M, K]: OHWI for NHWC, OIHW for NCHW. W in that layout is used as it
  // is (no copy); another layout is repacked once when constant, else per run.
  const bool repack = g.nhwc ? g.wl != WLayout::OHWI : g.wl != WLayout::OIHW;
  auto pack = [g](const float* w) { return g.nhwc ? to_ohwi(g, w) : to_oihw(g, w); };
  std::shared_ptr<const std::vector<float>> wprep;
  if (repack && ctx.constants[1]) wprep = std::make_shared<const std::vector<float>>(pack(ctx.constants[1]->data()));

  // Channels across the lanes (indirect_pays) where W is constant and the AVX-512 sgemm runs.
  // Only the strips are kept then (the run reads no other form of W).
  std::shared_ptr<const IndirectWeights> panels;
  if (ctx.constants[1] && indirect_available() && indirect_pays(g)) {
    // Float32 bytes that are not aligned (ONNX raw_data left in the file) are packed as they
    // are, without the aligned float32 copy that data() would make first.
    const exec::FloatConstant& wc = *ctx.constants[1];
    const bool as_stored = !wprep && wc.stored() && wc.stored_type()->dtype == DataType::Float32;
    panels = std::make_shared<const IndirectWeights>(
        as_stored ? pack_indirect_weights(wc.stored()->data(), g.m, K)
                  : pack_indirect_weights(wprep ? wprep->data() : wc.data(), g.m, K));
    wprep.reset();
  }
  // The run reads W itself only where it is used as it is (no strips, no repacked copy): the
  // plan then keeps no float32 form of it (NodeContext::prepared_only).
  if (panels || wprep) ctx.prepared_only(1);

  return [g, repack, wprep, pack, has_bias, bscale, blocks, panels](const Epilogue& ep) -> Kernel {
    return [g, repack, wprep, pack, has_bias, bscale, blocks, panels, ep](std::span<const float* const> in, std::span<float* const> out) {
      std::vector<float> wlocal;
      const float* w = in[1];
      if (panels) {
        w = nullptr;
      } else if (wprep) {
        w = wprep->data();
      } else if (repack) {
        wlocal = pack(in[1]);
        w = wlocal.data();
      }
      const std::vector<float> bias = conv_bias(has_bias ? in[2] : nullptr, bscale, g.m);
      conv_gemm(g, in[0], w, panels ? panels->panels() : nullptr, bias.data(), out[0], blocks, EpilogueRun(ep, in, out[0]));
    };
  };
}

void conv_gemm(const ConvGeom& g, const float* x, const float* w, const float* panels, const float* bias, float* y,
               const Blocks& bl, const EpilogueRun& ep) {
  const int64_t cg = g.c / g.group, mg = g.m / g.group, K = cg * g.kh * g.kw, PO = g.oh * g.ow;
  const bool direct = direct_1x1(g);
  int64_t chans_per = (mg + bl.chans - 1) / bl.chans;
  if (panels) chans_per = (chans_per + kIndirectStrip - 1) / kIndirectStrip * kIndirectStrip;  // whole strips
  parallel_for(bl.threads, g.n * g.group * bl.rows * bl.chans, [&](int64_t item) {
    const int64_t cb = item % bl.chans, rb = (item / bl.chans) % bl.rows, gi = (item / (bl.chans * bl.rows)) % g.group,
                  n = item / (bl.chans * bl.rows * g.group);
    const int64_t oy0 = rb * g.oh / bl.rows, oy1 = (rb + 1) * g.oh / bl.rows;  // sizes differ by at most 1
    const int64_t m0 = cb * chans_per, m1 = std::min(mg, m0 + chans_per), mb = m1 - m0;
    if (oy0 >= oy1 || m0 >= m1) return;
    const int64_t P = (oy1 - oy0) * g.ow, p0 = oy0 * g.ow, o0 = gi * mg + m0;  // o0: first output channel
    // NCHW: the rest of the epilogue on the block's mb planes (P outputs each, from y0): what
    // the product did not do as it stored.
    const auto finish_planes = [&](bool clamped, float* y0, bool r_added = false) {
      for (int64_t o = 0; o < mb; ++o) ep.finish(y0 + o * PO, P, clamped, r_added);
    };
    if (panels) {
      // One group (o0 = m0, a multiple of 16: strip o0 / 16 starts at o0 * K). The positions'
      // taps: X itself for a direct 1x1 convolution, else pad_input_nchw's planes.
      thread_local std::vector<int64_t> pos, offsets;
      pos.resize(static_cast<std::size_t>(P));
      offsets.resize(static_cast<std::size_t>(K));
      IndirectArgs a;
      if (direct) {
        a.x = x + n * g.c * PO + p0;
        for (int64_t p = 0; p < P; ++p) pos[p] = p;
        for (int64_t k = 0; k < K; ++k) offsets[k] = k * PO;
      } else {
        float* buf = thread_scratch(static_cast<std::size_t>(shifted_staged(g, oy1 - oy0)));
        pad_input_nchw(g, x, n, gi, oy0, oy1, buf);
        shifted_offsets(g, oy1 - oy0, offsets.data());
        const int64_t wp = shifted_width(g);
        for (int64_t p = 0; p < P; ++p) pos[p] = p / g.ow * wp + p % g.ow;
        a.x = buf;
      }
      a.m = mb, a.k = K, a.np = P;
      a.w = panels + o0 * K;
      a.pos = pos.data(), a.offsets = offsets.data();
      a.y = y + (n * g.m + o0) * PO + p0, a.ldy = PO;
      a.bias = bias + o0;
      a.residual = ep.residual_at(a.y);  // added as the sums are stored, before the clamp
      a.clamp = ep.ep.clamp_bounds(a.lo, a.hi);
      sgemm_indirect(a);
      finish_planes(a.clamp, a.y, true);
      return;
    }
    const float* wm = w + o0 * K;  // rows o0 .. o0 + mb of W as [M, K]
    if (g.nhwc) {
      // col [P, K], K = (ky, kx, ci); Y block [P, mb] at column o0 of the [N*OH*OW, M] output.
      const float* cp;
      int64_t cstride = K;
      if (direct) {
        cp = x + (n * PO + p0) * g.c + gi * cg;
        cstride = g.c;
      } else {
        float* col = thread_scratch(static_cast<std::size_t>(P * K));
        im2col_nhwc(g, x, n, gi, oy0, oy1, col);
        cp = col;
      }
      SgemmArgs a;
      a.m = P, a.n = mb, a.k = K;
      a.a = cp, a.lda = cstride;
      a.b = wm, a.ldb = K, a.trans_b = true;
      a.c = y + (n * PO + p0) * g.m + o0, a.ldc = g.m;
      a.bias_n = bias + o0;
      a.clamp = ep.clamp_bounds(a.clamp_lo, a.clamp_hi);
      sgemm(a);
      for (int64_t p = 0; p < P; ++p) ep.finish(a.c + p * g.m, mb, a.clamp);
      return;
    }
    // NCHW where sgemm takes B by rows: the patches as shifted rows of the padded input, split
    // into the phases of the strides (im2col.h), products in a grid of wp columns per output
    // row of which sgemm stores the first ow straight into Y (SgemmArgs::c_grid_wp). The same
    // products, summed in the same order, as through im2col. Taken where the grid costs little
    // more than the outputs (shifted_grid_pays).
    const int64_t wp = shifted_width(g), grid = (oy1 - oy0) * wp - (wp - g.ow);
    if (bl.shifted && shifted_grid_pays(g, oy1 - oy0)) {
      float* buf = thread_scratch(static_cast<std::size_t>(shifted_staged(g, oy1 - oy0)));
      pad_input_nchw(g, x, n, gi, oy0, oy1, buf);
      thread_local std::vector<const float*> rows;
      rows.resize(static_cast<std::size_t>(K));
      shifted_rows(g, buf, oy1 - oy0, rows.data());
      SgemmArgs a;
      a.m = mb, a.n = grid, a.k = K;
      a.a = wm, a.lda = K;
      a.b_rows = rows.data();
      a.c = y + (n * g.m + o0) * PO + p0, a.ldc = PO;
      a.c_grid_wp = wp, a.c_grid_w = g.ow;
      a.bias_m = bias + o0;
      a.clamp = ep.clamp_bounds(a.clamp_lo, a.clamp_hi);
      sgemm(a);
      finish_planes(a.clamp, a.c);
      return;
    }
    // NCHW: col [K, P], K = (ci, ky, kx); Y block [mb, P] in rows of the output planes.
    const float* cp;
    int64_t cstride = P;
    if (direct) {
      cp = x + (n * g.c + gi * cg) * PO + p0;
      cstride = PO;
    } else {
      float* col = thread_scratch(static_cast<std::size_t>(K * P));
      im2col_nchw(g, x, n, gi, oy0, oy1, col);
      cp = col;
    }
    SgemmArgs a;
    a.m = mb, a.n = P, a.k = K;
    a.a = wm, a.lda = K;
    a.b = cp, a.ldb = cstride;
    a.c = y + (n * g.m + o0) * PO + p0, a.ldc = PO;
    a.bias_m = bias + o0;
    a.clamp = ep.clamp_bounds(a.clamp_lo, a.clamp_hi);
    sgemm(a);
    finish_planes(a.clamp, a.c);
  });
}

}  // namespace

void add_conv_kernels(KernelTable& t) {
  // Rank 3 (1-D) runs as 2-D with height 1 (spatial.h), rank 5 on the direct 3-D loops (conv3d.cc).
  t["Conv"] = [](const KernelContext& ctx) {
    if (ctx.in[0].shape.size() == 5) return make_conv3d(ctx);
    return conv_with_epilogue(ctx)(Epilogue{});
  };
}

EpilogueKernel conv_with_epilogue(const KernelContext& ctx) {
  const std::size_t rank = ctx.in[0].shape.size();
  if (rank == 3) {
    const Lifted lifted(ctx, 2, {1});
    return make_conv(lifted.ctx());
  }
  return rank == 5 ? nullptr : make_conv(ctx);  // make_conv refuses ranks other than 4
}

}  // namespace nnbridge::cpu_ref
