// The padded copy of one NCHW plane that the window kernels simd::Kernels::depthwise_plane and
// max_plane read (simd.h DepthwisePlane): rows from -pt, columns from -pl, split by phase
// (column % sw) for strides 1 and 2, each phase wide enough for whole registers, padding filled
// with a given value (0 for a convolution, -inf for MaxPool).
#pragma once

#include <cstdint>
#include <vector>

#include "conv.h"

namespace nnbridge::cpu_ref {

/// A 2-D window over one plane: input h x w, output oh x ow, kernel kh x kw, strides, dilations
/// and the top / left pads (ONNX Conv-11 and MaxPool-12 names).
struct PlaneGeom {
  int64_t h = 0, w = 0, oh = 0, ow = 0, kh = 1, kw = 1, sh = 1, sw = 1, dh = 1, dw = 1, pt = 0, pl = 0;
  static PlaneGeom of(const ConvGeom& g) { return {g.h, g.w, g.oh, g.ow, g.kh, g.kw, g.sh, g.sw, g.dh, g.dw, g.pt, g.pl}; }
};

/// The layout for `g` (sw must be 1 or 2) with registers of `lanes` floats.
class PaddedPlane {
 public:
  PaddedPlane(const PlaneGeom& g, std::size_t lanes);
  /// Floats of one padded plane.
  int64_t size() const { return rows_ * g_.sw * phase_; }
  /// DepthwisePlane::row_stride and phase_stride.
  int64_t row_stride() const { return g_.sw * phase_; }
  int64_t phase_stride() const { return phase_; }
  /// Writes `pad` to all size() floats of dst (where the window reaches outside the image). The
  /// places copy_plane writes are the same for every plane, so one fill_padding serves any
  /// number of planes copied into the same dst in turn.
  void fill_padding(float* dst, float pad) const;
  /// Writes the h x w plane x to its places in dst, and nothing else.
  void copy_plane(const float* x, float* dst) const;
  /// DepthwisePlane::taps: per tap (ky, kx), ky * dh * row_stride + (kx * dw % sw) * phase +
  /// kx * dw / sw.
  std::vector<int64_t> taps() const;

 private:
  PlaneGeom g_;
  int64_t rows_ = 0, phase_ = 0;
};

}  // namespace nnbridge::cpu_ref
