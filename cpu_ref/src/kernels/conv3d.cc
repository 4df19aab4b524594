// Conv on rank-5 X (3-D convolution), computed directly: Arm NN Convolution3d (Conv3dImpl.cpp)
// and ONNX Conv-11 with three spatial dims. X is [N,C,D,H,W] or, with data_layout NHWC,
// [N,D,H,W,C] (Arm NN NDHWC); W is OIHW [M,C/group,kD,kH,kW] (ONNX), OHWI [M,kD,kH,kW,C/group]
// or HWIO [kD,kH,kW,C/group,M] (Arm NN's [D,H,W,I,O]). Each output is B[m] plus the sum over
// the taps inside the input (padding contributes zeros), taps in (kz, ky, kx, c) order.
#include <array>

#include "conv.h"

namespace nnbridge::cpu_ref {

Kernel make_conv3d(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape, ws = ctx.in[1].shape, ys = ctx.out[0].shape;
  if (xs.size() != 5 || ws.size() != 5 || ys.size() != 5) ctx.invalid("3-D Conv needs rank-5 X, W and Y");
  const bool nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  const std::string layout = ctx.attr_string("kernel_layout", "OIHW");
  if (layout != "OIHW" && layout != "OHWI" && layout != "HWIO") ctx.unsupported("kernel_layout " + layout + " for a 3-D Conv");
  const std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
  if (auto_pad != "NOTSET" && auto_pad != "VALID") ctx.unsupported("auto_pad " + auto_pad + " for a 3-D Conv");
  const int64_t group = ctx.attr_int("group", 1);
  const int64_t N = xs[0], C = nhwc ? xs[4] : xs[1], M = nhwc ? ys[4] : ys[1];
  const std::array<int64_t, 3> in{nhwc ? xs[1] : xs[2], nhwc ? xs[2] : xs[3], nhwc ? xs[3] : xs[4]};
  const std::array<int64_t, 3> on{nhwc ? ys[1] : ys[2], nhwc ? ys[2] : ys[3], nhwc ? ys[3] : ys[4]};
  std::array<int64_t, 3> k;
  int64_t w_in, w_out;
  if (layout == "OIHW") k = {ws[2], ws[3], ws[4]}, w_out = ws[0], w_in = ws[1];
  else if (layout == "OHWI") k = {ws[1], ws[2], ws[3]}, w_out = ws[0], w_in = ws[4];
  else k = {ws[0], ws[1], ws[2]}, w_in = ws[3], w_out = ws[4];
  if (group < 1 || C % group != 0 || M % group != 0 || w_in * group != C || w_out != M || ys[0] != N)
    ctx.invalid("W's channels do not match X, Y and group");
  const Shape s = ctx.attr_ints("strides", {1, 1, 1}), d = ctx.attr_ints("dilations", {1, 1, 1});
  Shape p = ctx.attr_ints("pads", {0, 0, 0, 0, 0, 0});
  if (auto_pad == "VALID") p.assign(6, 0);
  if (s.size() != 3 || d.size() != 3 || p.size() != 6) ctx.invalid("strides/dilations/pads sizes");
  const bool has_bias = ctx.has_input(2);
  const std::vector<float> bscale = has_bias ? implied_bias_scale(ctx, M) : std::vector<float>{};
  const int64_t cg = C / group, mg = M / group;
  const int wl = layout == "OIHW" ? 0 : layout == "OHWI" ? 1 : 2;
  auto widx = [=](int64_t o, int64_t i, int64_t z, int64_t y, int64_t x) {
    if (wl == 0) return (((o * cg + i) * k[0] + z) * k[1] + y) * k[2] + x;
    if (wl == 1) return (((o * k[0] + z) * k[1] + y) * k[2] + x) * cg + i;
    return (((z * k[1] + y) * k[2] + x) * cg + i) * M + o;
  };
  return [=](std::span<const float* const> inp, std::span<float* const> out) {
    const float* X = inp[0];
    const float* W = inp[1];
    const std::vector<float> bias = conv_bias(has_bias ? inp[2] : nullptr, bscale, M);
    float* Y = out[0];
    auto xat = [&](int64_t n, int64_t c, int64_t z, int64_t y, int64_t x) {
      return nhwc ? (((n * in[0] + z) * in[1] + y) * in[2] + x) * C + c : (((n * C + c) * in[0] + z) * in[1] + y) * in[2] + x;
    };
    auto yat = [&](int64_t n, int64_t m, int64_t z, int64_t y, int64_t x) {
      return nhwc ? (((n * on[0] + z) * on[1] + y) * on[2] + x) * M + m : (((n * M + m) * on[0] + z) * on[1] + y) * on[2] + x;
    };
    for (int64_t n = 0; n < N; ++n)
      for (int64_t m = 0; m < M; ++m) {
        const int64_t g = m / mg;
        for (int64_t oz = 0; oz < on[0]; ++oz)
          for (int64_t oy = 0; oy < on[1]; ++oy)
            for (int64_t ox = 0; ox < on[2]; ++ox) {
              float acc = 0.0f;
              for (int64_t kz = 0; kz < k[0]; ++kz) {
                const int64_t iz = oz * s[0] - p[0] + kz * d[0];
                if (iz < 0 || iz >= in[0]) continue;
                for (int64_t ky = 0; ky < k[1]; ++ky) {
                  const int64_t iy = oy * s[1] - p[1] + ky * d[1];
                  if (iy < 0 || iy >= in[1]) continue;
                  for (int64_t kx = 0; kx < k[2]; ++kx) {
                    const int64_t ix = ox * s[2] - p[2] + kx * d[2];
                    if (ix < 0 || ix >= in[2]) continue;
                    for (int64_t i = 0; i < cg; ++i) acc += W[widx(m, i, kz, ky, kx)] * X[xat(n, g * cg + i, iz, iy, ix)];
                  }
                }
              }
              Y[yat(n, m, oz, oy, ox)] = acc + bias[m];
            }
      }
  };
}

}  // namespace nnbridge::cpu_ref
