// Shared pieces of the Conv kernels (conv.cc: im2col + Eigen GEMM; depthwise.cc: direct).
#pragma once

#include <memory>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

enum class WLayout { OIHW, OHWI, HWO1, MIHW };

/// A 2-D convolution's geometry, resolved at prepare time (ONNX Conv-11 names).
struct ConvGeom {
  int64_t n, c, h, w, m, oh, ow, kh, kw, sh, sw, dh, dw, pt, pl, group;
  bool nhwc;
  std::string layout;  ///< kernel_layout of W: OIHW, OHWI, 1HWO or MIHW
  WLayout wl;          ///< the same, parsed
  Shape wshape;
  /// Where W[o][i][y][x] (output channel o, input channel i within its group) is in W's layout.
  int64_t w_index(int64_t o, int64_t i, int64_t y, int64_t x) const;
};

/// W (any kernel_layout) as OIHW: [m][c / group][kh][kw].
std::vector<float> to_oihw(const ConvGeom& g, const float* w);

/// Bias of output channel o: B[o], times the implied scale of a quantized graph (see
/// implied_bias_scale); nullptr B gives zeros.
std::vector<float> conv_bias(const float* b, const std::vector<float>& bscale, int64_t m);

/// Depthwise convolution with channel multiplier 1 (group = C = M), computed directly: each
/// output is B[c] + the sum over the taps inside the image, in (ky, kx) order. Threads split
/// output rows. W is packed at prepare time when constant, else per run.
Kernel make_depthwise(const KernelContext& ctx, const ConvGeom& g, bool has_bias, std::vector<float> bscale);

/// Conv on rank-5 X (conv3d.cc): direct loops, kernel_layout OIHW, OHWI or HWIO.
Kernel make_conv3d(const KernelContext& ctx);

}  // namespace nnbridge::cpu_ref
