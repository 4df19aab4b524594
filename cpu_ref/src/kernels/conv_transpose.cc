// ConvTranspose (2-D, NCHW or NHWC; ONNX ConvTranspose-11, Arm NN TransposeConvolution2d):
// every input pixel scatters W into the output at (iy * stride - pad_begin + ky * dilation).
// The output shape is the resolved one (output_padding / output_shape already applied).
// W layouts: IOHW (ONNX: [C, M/group, kh, kw]), OIHW and OHWI (Arm NN: [M, C, kh, kw] in NCHW
// graphs, [M, kh, kw, C] in NHWC graphs).
#include <cmath>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_conv_transpose(const KernelContext& ctx) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  const Shape& ws = ctx.in[1].shape;
  if (xs.size() != 4 || ys.size() != 4 || ws.size() != 4) ctx.unsupported("only 2-D transposed convolution is implemented");
  const bool nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  const std::string layout = ctx.attr_string("kernel_layout", "IOHW");
  const int64_t N = xs[0], C = nhwc ? xs[3] : xs[1], H = nhwc ? xs[1] : xs[2], W = nhwc ? xs[2] : xs[3];
  const int64_t M = nhwc ? ys[3] : ys[1], OH = nhwc ? ys[1] : ys[2], OW = nhwc ? ys[2] : ys[3];
  const int64_t group = ctx.attr_int("group", 1);
  if (ys[0] != N) ctx.invalid("output batch differs from the input's");
  if (group < 1 || C % group || M % group) ctx.invalid("channels do not divide into groups");
  const int64_t cg = C / group, mg = M / group;
  int64_t kh, kw;
  if (layout == "IOHW" || layout == "OIHW") kh = ws[2], kw = ws[3];
  else if (layout == "OHWI") kh = ws[1], kw = ws[2];
  else ctx.unsupported("kernel_layout " + layout);
  if (numel(ws) != M * cg * kh * kw) ctx.invalid("W size does not match the channels and kernel");
  if (ctx.attr_string("auto_pad", "NOTSET") != "NOTSET") ctx.unsupported("auto_pad for ConvTranspose");
  Shape st = ctx.attr_ints("strides", {1, 1}), dil = ctx.attr_ints("dilations", {1, 1}), pads = ctx.attr_ints("pads", {0, 0, 0, 0});
  if (st.size() != 2 || dil.size() != 2 || pads.size() != 4) ctx.invalid("strides/dilations/pads sizes");
  const bool has_bias = ctx.has_input(2);
  if (has_bias && numel(ctx.in[2].shape) != M) ctx.invalid("B must have one value per output channel");
  const std::vector<float> bscale = implied_bias_scale(ctx, M);
  // Index of W[o][ci][ky][kx] (o in [0, M), ci in [0, C/group)) in the given layout.
  auto widx = [=](int64_t o, int64_t ci, int64_t ky, int64_t kx) -> int64_t {
    if (layout == "OIHW") return ((o * cg + ci) * kh + ky) * kw + kx;
    if (layout == "OHWI") return ((o * kh + ky) * kw + kx) * cg + ci;
    const int64_t g = o / mg, og = o % mg;  // IOHW: [C][M/group]
    return (((g * cg + ci) * mg + og) * kh + ky) * kw + kx;
  };
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const float* x = in[0];
    const float* w = in[1];
    float* y = out[0];
    auto yat = [&](int64_t n, int64_t o, int64_t i, int64_t j) {
      return nhwc ? ((n * OH + i) * OW + j) * M + o : ((n * M + o) * OH + i) * OW + j;
    };
    for (int64_t n = 0; n < N; ++n)
      for (int64_t o = 0; o < M; ++o)
        for (int64_t i = 0; i < OH; ++i)
          for (int64_t j = 0; j < OW; ++j)
            y[yat(n, o, i, j)] = has_bias ? in[2][o] * (bscale.empty() ? 1.0f : bscale[o]) : 0.0f;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c) {
        const int64_t g = c / cg, ci = c % cg;
        for (int64_t iy = 0; iy < H; ++iy)
          for (int64_t ix = 0; ix < W; ++ix) {
            const float v = x[nhwc ? ((n * H + iy) * W + ix) * C + c : ((n * C + c) * H + iy) * W + ix];
            for (int64_t og = 0; og < mg; ++og) {
              const int64_t o = g * mg + og;
              for (int64_t ky = 0; ky < kh; ++ky) {
                const int64_t oy = iy * st[0] - pads[0] + ky * dil[0];
                if (oy < 0 || oy >= OH) continue;
                for (int64_t kx = 0; kx < kw; ++kx) {
                  const int64_t ox = ix * st[1] - pads[1] + kx * dil[1];
                  if (ox < 0 || ox >= OW) continue;
                  y[yat(n, o, oy, ox)] += v * w[widx(o, ci, ky, kx)];
                }
              }
            }
          }
      }
  };
}

// armnn.Normalization (Arm NN NormalizationLayer; ArmnnSchema.fbs NormalizationDescriptor:
// normChannelType 0 Across 1 Within, normMethodType 0 LocalBrightness, DataLayout 0 NHWC 1 NCHW),
// as Arm NN CpuRef (RefNormalizationWorkload.cpp): x / (k + alpha * sum x^2)^beta, the sum over
// the normSize/2 neighbours on each side across channels, or over the
// (2*(normSize/2)+1)^2 spatial window within the channel; no division by the window size.
Kernel make_armnn_normalization(const KernelContext& ctx) {
  auto fi = [&](const char* n) { return ctx.attr_int(std::string("armnn.descriptor.") + n, 0); };
  auto ff = [&](const char* n) { return static_cast<float>(ctx.attr_float(std::string("armnn.descriptor.") + n, 0.0)); };
  if (fi("normMethodType") != 0) ctx.unsupported("Normalization method LocalContrast");
  const Shape& s = ctx.in[0].shape;
  if (s.size() != 4) ctx.unsupported("only rank-4 input is implemented");
  const bool nhwc = fi("dataLayout") == 0, within = fi("normChannelType") == 1;
  const int64_t N = s[0], C = nhwc ? s[3] : s[1], H = nhwc ? s[1] : s[2], W = nhwc ? s[2] : s[3];
  if (ctx.out[0].shape != s) ctx.invalid("output shape differs from the input's");
  const int64_t r = fi("normSize") / 2;
  const float alpha = ff("alpha"), beta = ff("beta"), k = ff("k");
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    auto at = [&](int64_t n, int64_t c, int64_t i, int64_t j) { return nhwc ? ((n * H + i) * W + j) * C + c : ((n * C + c) * H + i) * W + j; };
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t i = 0; i < H; ++i)
          for (int64_t j = 0; j < W; ++j) {
            float acc = 0;
            if (within) {
              for (int64_t dy = -r; dy <= r; ++dy)
                for (int64_t dx = -r; dx <= r; ++dx) {
                  const int64_t yy = i + dy, xx = j + dx;
                  if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
                  const float v = in[0][at(n, c, yy, xx)];
                  acc += v * v;
                }
            } else {
              for (int64_t cc = std::max<int64_t>(0, c - r); cc <= std::min(C - 1, c + r); ++cc) {
                const float v = in[0][at(n, cc, i, j)];
                acc += v * v;
              }
            }
            const int64_t o = at(n, c, i, j);
            out[0][o] = in[0][o] / std::pow(k + acc * alpha, beta);
          }
  };
}

}  // namespace

void add_conv_transpose_kernels(KernelTable& t) {
  t["ConvTranspose"] = make_conv_transpose;
  t["armnn.Normalization"] = make_armnn_normalization;
}

}  // namespace nnbridge::cpu_ref
