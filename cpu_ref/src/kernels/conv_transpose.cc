// ConvTranspose (ONNX ConvTranspose-11, Arm NN TransposeConvolution2d) on 3 spatial dims, NCHW
// or NHWC; 1-D and 2-D nodes run with unit dims in front (spatial.h). Every input element
// scatters W into the output at (i * stride - pad_begin + k * dilation) per spatial dim. The
// output shape is the resolved one (output_padding / output_shape already applied).
// W layouts: IOHW (ONNX: [C, M/group, k...]), OIHW and OHWI (Arm NN: [M, C, kh, kw] in NCHW
// graphs, [M, kh, kw, C] in NHWC graphs).
// Padding at the beginning: `pads` with auto_pad NOTSET and no output_shape, 0 with VALID;
// with SAME_UPPER / SAME_LOWER or an output_shape, ONNX ConvTranspose-11's rule: per dim
// total = max(0, stride*(in-1) + output_padding + (k-1)*dilation + 1 - out), of which
// SAME_UPPER puts total / 2 at the beginning and the others total - total / 2.
#include <algorithm>
#include <array>
#include <cmath>

#include "spatial.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_conv_transpose3(const KernelContext& ctx) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  const Shape& ws = ctx.in[1].shape;
  if (xs.size() != 5 || ys.size() != 5 || ws.size() != 5)
    ctx.unsupported("only 1-D, 2-D and 3-D transposed convolutions (X of rank 3, 4 or 5) are implemented");
  const bool nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  const std::string layout = ctx.attr_string("kernel_layout", "IOHW");
  const int64_t N = xs[0], C = nhwc ? xs[4] : xs[1], M = nhwc ? ys[4] : ys[1];
  const std::array<int64_t, 3> in{nhwc ? xs[1] : xs[2], nhwc ? xs[2] : xs[3], nhwc ? xs[3] : xs[4]};
  const std::array<int64_t, 3> on{nhwc ? ys[1] : ys[2], nhwc ? ys[2] : ys[3], nhwc ? ys[3] : ys[4]};
  const int64_t group = ctx.attr_int("group", 1);
  if (ys[0] != N) ctx.invalid(ErrorId::Shape, "output batch differs from the input's");
  if (group < 1 || C % group || M % group) ctx.invalid(ErrorId::Shape, "channels do not divide into groups");
  const int64_t cg = C / group, mg = M / group;
  std::array<int64_t, 3> k;
  if (layout == "IOHW" || layout == "OIHW") k = {ws[2], ws[3], ws[4]};
  else if (layout == "OHWI") k = {ws[1], ws[2], ws[3]};
  else ctx.unsupported("kernel_layout " + layout);
  if (numel(ws) != M * cg * k[0] * k[1] * k[2]) ctx.invalid(ErrorId::Shape, "W size does not match the channels and kernel");
  const Shape st = ctx.attr_ints("strides", {1, 1, 1}), dil = ctx.attr_ints("dilations", {1, 1, 1});
  const Shape opad = ctx.attr_ints("output_padding", {0, 0, 0});
  Shape pads = ctx.attr_ints("pads", {0, 0, 0, 0, 0, 0});
  if (st.size() != 3 || dil.size() != 3 || pads.size() != 6 || opad.size() != 3)
    ctx.invalid(ErrorId::Shape, "strides/dilations/pads/output_padding sizes");
  const std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
  if (auto_pad == "VALID") {
    pads.assign(6, 0);
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER" || (auto_pad == "NOTSET" && ctx.has_attr("output_shape"))) {
    for (std::size_t i = 0; i < 3; ++i) {
      const int64_t total = std::max<int64_t>(0, st[i] * (in[i] - 1) + opad[i] + (k[i] - 1) * dil[i] + 1 - on[i]);
      pads[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    }
  } else if (auto_pad != "NOTSET") {
    ctx.unsupported("auto_pad " + auto_pad);
  }
  const bool has_bias = ctx.has_input(2);
  if (has_bias && numel(ctx.in[2].shape) != M) ctx.invalid(ErrorId::Shape, "B must have one value per output channel");
  const std::vector<float> bscale = implied_bias_scale(ctx, M);
  // Index of W[o][ci][kz][ky][kx] (o in [0, M), ci in [0, C/group)) in the given layout.
  const int wl = layout == "OIHW" ? 0 : layout == "OHWI" ? 1 : 2;
  auto widx = [=](int64_t o, int64_t ci, int64_t kz, int64_t ky, int64_t kx) -> int64_t {
    if (wl == 0) return (((o * cg + ci) * k[0] + kz) * k[1] + ky) * k[2] + kx;
    if (wl == 1) return (((o * k[0] + kz) * k[1] + ky) * k[2] + kx) * cg + ci;
    const int64_t g = o / mg, og = o % mg;  // IOHW: [C][M/group]
    return ((((g * cg + ci) * mg + og) * k[0] + kz) * k[1] + ky) * k[2] + kx;
  };
  return [=](std::span<const float* const> inp, std::span<float* const> out) {
    const float* x = inp[0];
    const float* w = inp[1];
    float* y = out[0];
    auto at = [&](const std::array<int64_t, 3>& sz, int64_t ch, int64_t n, int64_t c, int64_t i0, int64_t i1, int64_t i2) {
      return nhwc ? (((n * sz[0] + i0) * sz[1] + i1) * sz[2] + i2) * ch + c : (((n * ch + c) * sz[0] + i0) * sz[1] + i1) * sz[2] + i2;
    };
    for (int64_t n = 0; n < N; ++n)
      for (int64_t o = 0; o < M; ++o)
        for (int64_t i0 = 0; i0 < on[0]; ++i0)
          for (int64_t i1 = 0; i1 < on[1]; ++i1)
            for (int64_t i2 = 0; i2 < on[2]; ++i2)
              y[at(on, M, n, o, i0, i1, i2)] = has_bias ? inp[2][o] * (bscale.empty() ? 1.0f : bscale[o]) : 0.0f;
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c) {
        const int64_t g = c / cg, ci = c % cg;
        for (int64_t iz = 0; iz < in[0]; ++iz)
          for (int64_t iy = 0; iy < in[1]; ++iy)
            for (int64_t ix = 0; ix < in[2]; ++ix) {
              const float v = x[at(in, C, n, c, iz, iy, ix)];
              for (int64_t og = 0; og < mg; ++og) {
                const int64_t o = g * mg + og;
                for (int64_t kz = 0; kz < k[0]; ++kz) {
                  const int64_t oz = iz * st[0] - pads[0] + kz * dil[0];
                  if (oz < 0 || oz >= on[0]) continue;
                  for (int64_t ky = 0; ky < k[1]; ++ky) {
                    const int64_t oy = iy * st[1] - pads[1] + ky * dil[1];
                    if (oy < 0 || oy >= on[1]) continue;
                    for (int64_t kx = 0; kx < k[2]; ++kx) {
                      const int64_t ox = ix * st[2] - pads[2] + kx * dil[2];
                      if (ox < 0 || ox >= on[2]) continue;
                      y[at(on, M, n, o, oz, oy, ox)] += v * w[widx(o, ci, kz, ky, kx)];
                    }
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
  if (ctx.out[0].shape != s) ctx.invalid(ErrorId::Shape, "output shape differs from the input's");
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
  t["ConvTranspose"] = [](const KernelContext& ctx) {
    if (ctx.in[0].shape.size() == 5) return make_conv_transpose3(ctx);
    const Lifted lifted(ctx, 3, {1});
    return make_conv_transpose3(lifted.ctx());
  };
  t["armnn.Normalization"] = make_armnn_normalization;
}

}  // namespace nnbridge::cpu_ref
