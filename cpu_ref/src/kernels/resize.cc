// Resize (2-D, NCHW or NHWC), nearest or linear, with the source-coordinate rules of Arm NN
// CpuRef (armnn/src/backends/reference/workloads/Resize.cpp), which ONNX Resize names
// coordinate_transformation_mode:
//   scale = (in - 1) / (out - 1) for align_corners (out > 1), else in / out;
//   asymmetric / align_corners: src = dst * scale;
//   half_pixel: src = (dst + 0.5) * scale - 0.5 for linear, (dst + 0.5) * scale for nearest;
//   src below 0 is clamped to 0 (checked against Arm NN 20.08 CpuRef: tests/golden/armnn/
//   resize_bilinear_half_pixel_nchw); nearest takes floor(src) (round(src) with align_corners),
//   linear interpolates between floor(src) and the next pixel, clamped to the edge.
#include <cmath>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_resize(const KernelContext& ctx) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  if (xs.size() != 4) ctx.unsupported("only 2-D resize (rank-4 X) is implemented");
  if (ctx.in.size() > 1) ctx.unsupported("scales/sizes as inputs is not implemented");
  const bool nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  const std::string mode = ctx.attr_string("mode", "nearest"), ctm = ctx.attr_string("coordinate_transformation_mode", "asymmetric");
  if (mode != "nearest" && mode != "linear") ctx.unsupported("Resize mode " + mode);
  if (ctm != "asymmetric" && ctm != "align_corners" && ctm != "half_pixel")
    ctx.unsupported("coordinate_transformation_mode " + ctm);
  const std::string nearest_mode = ctx.attr_string("nearest_mode", "floor");
  if (mode == "nearest" && nearest_mode != "floor" && nearest_mode != "round_prefer_ceil")
    ctx.unsupported("nearest_mode " + nearest_mode);
  const int64_t N = xs[0], C = nhwc ? xs[3] : xs[1], H = nhwc ? xs[1] : xs[2], W = nhwc ? xs[2] : xs[3];
  const int64_t OH = nhwc ? ys[1] : ys[2], OW = nhwc ? ys[2] : ys[3];
  if (ys.size() != 4 || ys[0] != N || (nhwc ? ys[3] : ys[1]) != C) ctx.invalid("output N or C differs from the input's");
  const bool align = ctm == "align_corners", half = ctm == "half_pixel", linear = mode == "linear";
  auto scale = [align](int64_t in, int64_t out) {
    return align && out > 1 ? static_cast<float>(in - 1) / static_cast<float>(out - 1) : static_cast<float>(in) / static_cast<float>(out);
  };
  const float sy = scale(H, OH), sx = scale(W, OW);
  // Per output coordinate: the two source indices and the weight of the second.
  struct Tap {
    int64_t i0, i1;
    float w;
  };
  auto taps = [&](int64_t out, int64_t in, float s) {
    std::vector<Tap> t(static_cast<std::size_t>(out));
    for (int64_t o = 0; o < out; ++o) {
      float src = half ? (static_cast<float>(o) + 0.5f) * s - (linear ? 0.5f : 0.0f) : static_cast<float>(o) * s;
      src = std::max(src, 0.0f);  // half_pixel can go below 0: Arm NN clamps to the first pixel
      float f = (!linear && (align || nearest_mode == "round_prefer_ceil")) ? std::round(src) : std::floor(src);
      f = std::max(f, 0.0f);
      int64_t i0 = std::min<int64_t>(static_cast<int64_t>(f), in - 1);
      t[o] = Tap{i0, std::min<int64_t>(i0 + 1, in - 1), linear ? src - f : 0.0f};
    }
    return t;
  };
  const std::vector<Tap> ty = taps(OH, H, sy), tx = taps(OW, W, sx);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    auto at = [&](int64_t n, int64_t c, int64_t y, int64_t x) {
      return in[0][nhwc ? ((n * H + y) * W + x) * C + c : ((n * C + c) * H + y) * W + x];
    };
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c)
        for (int64_t oy = 0; oy < OH; ++oy)
          for (int64_t ox = 0; ox < OW; ++ox) {
            const Tap& a = ty[oy];
            const Tap& b = tx[ox];
            float v;
            if (!linear) {
              v = at(n, c, a.i0, b.i0);
            } else {
              const float top = at(n, c, a.i0, b.i0) + (at(n, c, a.i0, b.i1) - at(n, c, a.i0, b.i0)) * b.w;
              const float bot = at(n, c, a.i1, b.i0) + (at(n, c, a.i1, b.i1) - at(n, c, a.i1, b.i0)) * b.w;
              v = top + (bot - top) * a.w;
            }
            out[0][nhwc ? ((n * OH + oy) * OW + ox) * C + c : ((n * C + c) * OH + oy) * OW + ox] = v;
          }
  };
}

}  // namespace

void add_resize_kernels(KernelTable& t) { t["Resize"] = make_resize; }

}  // namespace nnbridge::cpu_ref
