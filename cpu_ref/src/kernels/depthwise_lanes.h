// NCHW depthwise convolutions on small planes with 16 channels across the vector lanes
// (depthwise.cc). The plane kernel (simd.h depthwise_plane) puts output columns across the lanes:
// a 7-wide plane fills 7 of 16, and each plane pays its own padded copy and loop set-up. Here the
// planes of 16 channels are transposed into one zero-padded buffer of [rows][columns][16]
// (AVX-512 16 x 16 register transposes, sgemm/transpose16.h), every output position is one
// register of 16 channels, and the results are transposed back into the planes.
#pragma once

#include <cstdint>
#include <vector>

namespace nnbridge::cpu_ref {

/// One call: `channels` (1 .. 16) consecutive NCHW planes of one image.
struct DepthwiseLanesArgs {
  const float* x = nullptr;  ///< the first channel's input plane [h][w]; the next ones h * w floats apart
  float* y = nullptr;        ///< the first channel's output plane [oh][ow]; the next ones oh * ow apart
  int64_t channels = 0;
  int64_t h = 0, w = 0, oh = 0, ow = 0, kh = 0, kw = 0, sh = 1, sw = 1, dh = 1, dw = 1, pt = 0, pl = 0;
  const float* weights = nullptr;  ///< pack_depthwise_lanes' [kh * kw][16] of these channels
  const float* bias = nullptr;     ///< `channels` values, or null (0)
  bool clamp = false;
  float lo = 0, hi = 0;
};

/// Rounding: y[c][oy][ox] = bias[c], then for every tap (ky, kx) in that order
/// y = y + x * w[c][ky][kx] (a multiply, then an add: two roundings), the taps in the padding
/// included as x = 0; then, when `clamp`, min(max(y, lo), hi) with MAXPS / MINPS operand order
/// (a NaN gives lo). The same expression, bit for bit, as simd::Kernels::depthwise_plane on the
/// zero-padded plane (simd.h), so the choice between them never changes a value.
void depthwise_lanes(const DepthwiseLanesArgs& args);

/// Whether depthwise_lanes() runs here (the AVX-512 build of sgemm is chosen: sgemm.h).
bool depthwise_lanes_available();

/// Depthwise W as [c][kh * kw] (one channel's taps in (ky, kx) order) to ceil(c / 16) blocks of
/// [kh * kw][16] (channel o at lane o % 16 of block o / 16, 0 past c).
std::vector<float> pack_depthwise_lanes(const float* w, int64_t c, int64_t taps);

/// The most floats depthwise.cc lets the padded [rows][columns][16] buffer of one call take
/// (256 KiB): a dilated kernel on a large plane with few outputs would otherwise make each
/// thread keep a buffer of hp * wp * 16 floats (a 3 x 3 kernel with dilation 1000 about 256 MiB).
constexpr int64_t kDepthwiseLanesMaxBuffer = int64_t{1} << 16;

/// Whether depthwise.cc gives a plane of output width `ow`, column stride `sw`, `taps` =
/// kh * kw taps and a padded input of `padded` = hp * wp positions (depthwise_lanes_avx512f.cc)
/// to depthwise_lanes rather than the plane kernel. Measured per step in mobilenet_v2 and
/// mnasnet0_5 (one thread, alternating processes): 7 x 7 outputs 2x faster (3 x 3 and 5 x 5),
/// 14 x 14 1.1x to 1.3x, 28 x 28 with 5 x 5 taps and stride 1 1.1x; but 28 x 28 from 56 x 56
/// with stride 2 0.95x, 28 x 28 with 3 x 3 taps 0.8x to 0.9x and 56 x 56 0.8x, where the plane
/// kernel's registers are full and the transposes of few taps per position (and a padded
/// buffer past L1) cost more than they save.
inline bool depthwise_lanes_pays(int64_t ow, int64_t sw, int64_t taps, int64_t padded) {
  return (ow <= 14 || (ow <= 28 && sw == 1 && taps >= 25)) && padded <= kDepthwiseLanesMaxBuffer / 16;
}

}  // namespace nnbridge::cpu_ref
