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
  /// The output rows this layout is for.
  int64_t oh() const { return g_.oh; }

 private:
  PlaneGeom g_;
  int64_t rows_ = 0, phase_ = 0;
};

/// Output rows [r0, r1) of a plane laid out as a plane of their own: `pad` is the PaddedPlane of
/// those rows (the input rows they read, the top padding only where the band starts above the
/// image), and `x_offset` the floats from the plane's start to the first input row it copies.
/// `pad.copy_plane(x + x_offset, buf)` and a kernel over pad.oh() rows then give output rows r0 ..
/// r1 - 1 of the whole plane, with the whole plane's taps (the same row stride and phases).
struct PlaneBand {
  int64_t r0 = 0, r1 = 0, x_offset = 0;
  PaddedPlane pad;
};

/// The fewest output rows per band worth splitting a plane by rows rather than by planes.
/// Measured on the zoo's depthwise layers at 2 threads: 28 x 28 and larger planes gain from bands
/// (mnasnet0_5 1.05x, mobilenet_v2 1.03x with their residual Adds split by rows too), 14 x 14 ones
/// lose (a 5 x 5 kernel's 7-row band copies 11 input rows).
constexpr int64_t kBandRows = 14;

/// The plane's output rows cut into `bands` ranges, rows r0 = oh * t / bands: the cut the GEMM
/// convolution uses for its blocks of output rows (conv.cc), so that on NCHW each thread reads the
/// rows its producer wrote. bands must be 1 .. oh.
std::vector<PlaneBand> plane_bands(const PlaneGeom& g, int64_t bands, std::size_t lanes);

/// plane_bands(g, parts, lanes) where `parts` threads each get kBandRows rows or more; else none
/// (the planes are then split whole).
std::vector<PlaneBand> tall_plane_bands(const PlaneGeom& g, int64_t parts, std::size_t lanes);

/// Runs `run(layout, r0, x_offset, p0, p1)` (planes [p0, p1), output rows from r0 through
/// `layout`, input from x_offset floats into each plane) over `planes` planes across threads:
/// one band of `bands` per thread, every plane; without bands, ranges of at least `grain` whole
/// planes (`whole`, row 0) on up to `threads` threads.
template <class Run>
void for_plane_parts(const std::vector<PlaneBand>& bands, const PaddedPlane& whole, int threads, int64_t planes,
                     int64_t grain, const Run& run) {
  if (!bands.empty()) {
    parallel_for(static_cast<int>(bands.size()), static_cast<int64_t>(bands.size()), [&](int64_t t) {
      const PlaneBand& b = bands[static_cast<std::size_t>(t)];
      run(b.pad, b.r0, b.x_offset, int64_t{0}, planes);
    });
    return;
  }
  parallel_ranges(threads, planes, grain, [&](int64_t p0, int64_t p1) { run(whole, int64_t{0}, int64_t{0}, p0, p1); });
}

}  // namespace nnbridge::cpu_ref
