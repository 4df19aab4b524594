// Conv on rank-5 X (3-D convolution), computed directly: Arm NN Convolution3d (Conv3dImpl.cpp)
// and ONNX Conv-11 with three spatial dims. X is [N,C,D,H,W] or, with data_layout NHWC,
// [N,D,H,W,C] (Arm NN NDHWC); W is OIHW [M,C/group,kD,kH,kW] (ONNX), OHWI [M,kD,kH,kW,C/group]
// or HWIO [kD,kH,kW,C/group,M] (Arm NN's [D,H,W,I,O]). Each output is B[m] plus the sum over
// the taps inside the input (padding contributes zeros), taps in (kz, ky, kx, c) order;
// auto_pad as for 2-D (spatial.h). The geometry and loops (conv.h: Conv3dGeom, conv3d_each)
// also serve the integer convolutions (qlinear.cc).
#include "conv.h"
#include "spatial.h"

namespace nnbridge::cpu_ref {

Conv3dGeom conv3d_geom(const KernelContext& ctx, std::size_t w_input) {
  const Shape xs = ctx.in[0].shape, ws = ctx.in[w_input].shape, ys = ctx.out[0].shape;
  if (xs.size() != 5 || ws.size() != 5 || ys.size() != 5) ctx.invalid(ErrorId::Shape, "3-D Conv needs rank-5 X, W and Y");
  Conv3dGeom g;
  g.nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  const bool nhwc = g.nhwc;
  const std::string layout = ctx.attr_string("kernel_layout", "OIHW");
  if (layout != "OIHW" && layout != "OHWI" && layout != "HWIO") ctx.unsupported("kernel_layout " + layout + " for a 3-D Conv");
  g.group = ctx.attr_int("group", 1);
  g.N = xs[0], g.C = nhwc ? xs[4] : xs[1], g.M = nhwc ? ys[4] : ys[1];
  g.in = {nhwc ? xs[1] : xs[2], nhwc ? xs[2] : xs[3], nhwc ? xs[3] : xs[4]};
  g.on = {nhwc ? ys[1] : ys[2], nhwc ? ys[2] : ys[3], nhwc ? ys[3] : ys[4]};
  int64_t w_in, w_out;
  if (layout == "OIHW") g.k = {ws[2], ws[3], ws[4]}, w_out = ws[0], w_in = ws[1];
  else if (layout == "OHWI") g.k = {ws[1], ws[2], ws[3]}, w_out = ws[0], w_in = ws[4];
  else g.k = {ws[0], ws[1], ws[2]}, w_in = ws[3], w_out = ws[4];
  if (g.group < 1 || g.C % g.group != 0 || g.M % g.group != 0 || w_in * g.group != g.C || w_out != g.M || ys[0] != g.N)
    ctx.invalid(ErrorId::Shape, "W's channels do not match X, Y and group");
  g.cg = g.C / g.group, g.mg = g.M / g.group;
  g.wl = layout == "OIHW" ? 0 : layout == "OHWI" ? 1 : 2;
  const WindowAttrs wa = window_attrs(ctx, {g.k[0], g.k[1], g.k[2]}, {g.in[0], g.in[1], g.in[2]}, {g.on[0], g.on[1], g.on[2]});
  g.s = wa.strides, g.d = wa.dilations, g.p = wa.pads;
  return g;
}

Kernel make_conv3d(const KernelContext& ctx) {
  const Conv3dGeom g = conv3d_geom(ctx, 1);
  const bool has_bias = ctx.has_input(2);
  if (has_bias && numel(ctx.in[2].shape) != g.M) ctx.invalid(ErrorId::Shape, "B must have one value per output channel");
  const std::vector<float> bscale = has_bias ? implied_bias_scale(ctx, g.M) : std::vector<float>{};
  return [g, has_bias, bscale](std::span<const float* const> inp, std::span<float* const> out) {
    const std::vector<float> bias = conv_bias(has_bias ? inp[2] : nullptr, bscale, g.M);
    float* Y = out[0];
    conv3d_each<float>(g, inp[0], inp[1], [&](int64_t yi, int64_t m, float acc) { Y[yi] = acc + bias[m]; });
  };
}

}  // namespace nnbridge::cpu_ref
