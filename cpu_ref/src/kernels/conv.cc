// Conv (2-D, NCHW or NHWC) by im2col and an Eigen GEMM per image and group.
//
// Weights are first brought to OIHW with C/group input channels per output channel:
//   OIHW  ONNX;                      OHWI  Arm NN Convolution2d in NHWC;
//   1HWO  depthwise [1, H, W, C*M]   (TFLite, Arm NN weightsLayoutScheme 1): output channel o
//         reads input channel o / M;
//   MIHW  depthwise [M, C, H, W]     (Arm NN 20.08): output channel c*M + m is W[m][c].
// Output size floor((in + pad_begin + pad_end - dilation*(k-1) - 1) / stride) + 1 (ONNX Conv-11).
#include <Eigen/Core>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct ConvGeom {
  int64_t n, c, h, w, m, oh, ow, kh, kw, sh, sw, dh, dw, pt, pl, group;
  bool nhwc;
  std::string layout;
  Shape wshape;
};

// W (any layout) -> OIHW [m][c/group][kh][kw].
std::vector<float> to_oihw(const ConvGeom& g, const float* w) {
  const int64_t cg = g.c / g.group, K = cg * g.kh * g.kw;
  std::vector<float> out(static_cast<std::size_t>(g.m * K));
  const Shape& ws = g.wshape;
  for (int64_t o = 0; o < g.m; ++o)
    for (int64_t i = 0; i < cg; ++i)
      for (int64_t y = 0; y < g.kh; ++y)
        for (int64_t x = 0; x < g.kw; ++x) {
          int64_t src;
          if (g.layout == "OIHW") src = ((o * cg + i) * g.kh + y) * g.kw + x;
          else if (g.layout == "OHWI") src = ((o * g.kh + y) * g.kw + x) * cg + i;
          else if (g.layout == "1HWO") src = (y * g.kw + x) * g.m + o;
          else {  // MIHW: o = c * M + m
            const int64_t M = ws[0], C = ws[1];
            src = (((o % M) * C + o / M) * g.kh + y) * g.kw + x;
          }
          out[static_cast<std::size_t>(((o * cg + i) * g.kh + y) * g.kw + x)] = w[src];
        }
  return out;
}

Kernel make_conv(const KernelContext& ctx) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  if (xs.size() != 4) ctx.unsupported("only 2-D convolution (rank-4 X) is implemented");
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
  if (ys.size() != 4 || ys[0] != g.n) ctx.invalid("output batch differs from the input's");
  const Shape& ws = g.wshape;
  if (ws.size() != 4) ctx.invalid("W must have rank 4");
  if (g.layout == "OIHW" || g.layout == "MIHW") g.kh = ws[2], g.kw = ws[3];
  else if (g.layout == "OHWI" || g.layout == "1HWO") g.kh = ws[1], g.kw = ws[2];
  else ctx.unsupported("kernel_layout \"" + g.layout + "\"");
  if (g.layout == "1HWO" || g.layout == "MIHW") {
    if (g.group != g.c) ctx.invalid("depthwise kernel_layout " + g.layout + " needs group = input channels");
  }
  if (g.group < 1 || g.c % g.group != 0 || g.m % g.group != 0) ctx.invalid("channels do not divide into groups");
  if (numel(ws) != g.m * (g.c / g.group) * g.kh * g.kw) ctx.invalid("W size does not match the channels and kernel");
  Shape strides = ctx.attr_ints("strides", {1, 1}), dil = ctx.attr_ints("dilations", {1, 1});
  Shape pads = ctx.attr_ints("pads", {0, 0, 0, 0});
  if (strides.size() != 2 || dil.size() != 2 || pads.size() != 4) ctx.invalid("strides/dilations/pads sizes");
  g.sh = strides[0], g.sw = strides[1], g.dh = dil[0], g.dw = dil[1];
  g.pt = pads[0], g.pl = pads[1];
  const std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
  if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    auto begin = [&](int64_t in, int64_t out, int64_t k, int64_t s, int64_t d) {
      int64_t total = std::max<int64_t>(0, (out - 1) * s + d * (k - 1) + 1 - in);
      return auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    };
    g.pt = begin(g.h, g.oh, g.kh, g.sh, g.dh);
    g.pl = begin(g.w, g.ow, g.kw, g.sw, g.dw);
  } else if (auto_pad == "VALID") {
    g.pt = g.pl = 0;
  }
  std::shared_ptr<const std::vector<float>> wconst;
  if (ctx.constants[1]) wconst = std::make_shared<const std::vector<float>>(to_oihw(g, ctx.constants[1]->data()));
  const bool has_bias = ctx.has_input(2);
  if (has_bias && numel(ctx.in[2].shape) != g.m) ctx.invalid("B must have one value per output channel");
  const std::vector<float> bscale = implied_bias_scale(ctx, g.m);

  // Work items: (image, group, block of output rows), independent of each other. Rows are
  // split only when images x groups leave threads idle, and only for enough work per item.
  const int64_t macs = g.n * g.m * (g.c / g.group) * g.kh * g.kw * g.oh * g.ow;
  const int threads = macs < (int64_t{1} << 20) ? 1 : ctx.threads;
  const int64_t row_blocks = g.n * g.group >= threads ? 1 : std::min<int64_t>(g.oh, threads);

  return [g, wconst, has_bias, bscale, threads, row_blocks](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<float> wlocal;
    const float* w;
    if (wconst) {
      w = wconst->data();
    } else {
      wlocal = to_oihw(g, in[1]);
      w = wlocal.data();
    }
    const float* x = in[0];
    const float* b = has_bias ? in[2] : nullptr;
    float* y = out[0];
    const int64_t cg = g.c / g.group, mg = g.m / g.group, K = cg * g.kh * g.kw;
    // Element (n, c, y, x) of X in either layout.
    auto xat = [&](int64_t n, int64_t c, int64_t yy, int64_t xx) {
      return g.nhwc ? x[((n * g.h + yy) * g.w + xx) * g.c + c] : x[((n * g.c + c) * g.h + yy) * g.w + xx];
    };
    const int64_t rows_per = (g.oh + row_blocks - 1) / row_blocks;
    parallel_for(threads, g.n * g.group * row_blocks, [&](int64_t item) {
      const int64_t rb = item % row_blocks, gi = (item / row_blocks) % g.group, n = item / (row_blocks * g.group);
      const int64_t oy0 = rb * rows_per, oy1 = std::min(g.oh, oy0 + rows_per);
      if (oy0 >= oy1) return;
      const int64_t P = (oy1 - oy0) * g.ow;
      RowMat col(K, P), res(mg, P);
      for (int64_t ci = 0; ci < cg; ++ci)
        for (int64_t ky = 0; ky < g.kh; ++ky)
          for (int64_t kx = 0; kx < g.kw; ++kx) {
            float* row = col.data() + ((ci * g.kh + ky) * g.kw + kx) * P;
            for (int64_t oy = oy0; oy < oy1; ++oy) {
              const int64_t iy = oy * g.sh - g.pt + ky * g.dh;
              for (int64_t ox = 0; ox < g.ow; ++ox) {
                const int64_t ix = ox * g.sw - g.pl + kx * g.dw;
                row[(oy - oy0) * g.ow + ox] =
                    (iy >= 0 && iy < g.h && ix >= 0 && ix < g.w) ? xat(n, gi * cg + ci, iy, ix) : 0.0f;
              }
            }
          }
      Eigen::Map<const RowMat> wm(w + gi * mg * K, mg, K);
      res.noalias() = wm * col;
      const int64_t PO = g.oh * g.ow, p0 = oy0 * g.ow;
      for (int64_t m = 0; m < mg; ++m) {
        const int64_t o = gi * mg + m;
        const float bias = b ? (bscale.empty() ? b[o] : b[o] * bscale[o]) : 0.0f;
        for (int64_t p = 0; p < P; ++p) {
          const float v = res(m, p) + bias;
          if (g.nhwc) y[(n * PO + p0 + p) * g.m + o] = v;
          else y[(n * g.m + o) * PO + p0 + p] = v;
        }
      }
    });
  };
}

}  // namespace

void add_conv_kernels(KernelTable& t) { t["Conv"] = make_conv; }

}  // namespace nnbridge::cpu_ref
