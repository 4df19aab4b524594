// PaddedPlane (padded_plane.h).
#include "padded_plane.h"

#include <algorithm>

#include "../simd/simd.h"

namespace nnbridge::cpu_ref {

PaddedPlane::PaddedPlane(const PlaneGeom& g, std::size_t lanes) : g_(g) {
  const int64_t L = static_cast<int64_t>(lanes);
  rows_ = (g.oh - 1) * g.sh + (g.kh - 1) * g.dh + 1;
  // Whole registers of outputs plus the taps' reach, rounded up to whole registers: every row
  // (and phase) then starts register-aligned in an aligned buffer, and a register one past the
  // outputs' last still lies in the row (simd.h DepthwisePlane).
  phase_ = ((g.ow + L - 1) / L * L + (g.kw - 1) * g.dw / g.sw + 1 + L - 1) / L * L;
}

void PaddedPlane::fill_padding(float* dst, float pad) const { std::fill_n(dst, size(), pad); }

void PaddedPlane::copy_plane(const float* x, float* dst) const {
  const int64_t sw = g_.sw, phase = phase_, pl = g_.pl, w = g_.w;
  // Rows r hold input rows r - pt; those outside the image are all padding.
  const int64_t r0 = std::clamp<int64_t>(g_.pt, 0, rows_), r1 = std::clamp<int64_t>(g_.pt + g_.h, r0, rows_);
  if (sw == 1) {  // columns [pl, pl + w) hold the input row
    const int64_t lo = std::min(pl, phase), hi = std::min(pl + w, phase);
    for (int64_t r = r0; r < r1; ++r) std::copy_n(x + (r - g_.pt) * w, hi - lo, dst + r * phase + lo);
    return;
  }
  // sw == 2: input column ix is padded column ix + pl, phase (ix + pl) % 2, place (ix + pl) / 2.
  // Even input columns go to one phase, odd ones to the other, each at consecutive places.
  // Where ix = 0 and ix = 1 land in the row (then consecutive places), and how many fit.
  const int64_t even_at = pl % 2 == 0 ? pl / 2 : phase + (pl - 1) / 2;
  const int64_t odd_at = pl % 2 == 0 ? phase + pl / 2 : (pl + 1) / 2;
  const int64_t n_even = std::clamp<int64_t>(phase - (pl % 2 == 0 ? pl / 2 : (pl - 1) / 2), 0, (w + 1) / 2);
  const int64_t n_odd = std::clamp<int64_t>(phase - (pl % 2 == 0 ? pl / 2 : (pl + 1) / 2), 0, w / 2);
  const auto take_even = simd::kernels().take_even;
  if (n_even == (w + 1) / 2 && n_odd == w / 2) {  // the whole row fits: both phases in one pass
    const auto split = simd::kernels().split_even_odd;
    for (int64_t r = r0; r < r1; ++r) {
      float* row = dst + r * 2 * phase;
      split(x + (r - g_.pt) * w, static_cast<std::size_t>(w), row + even_at, row + odd_at);
    }
    return;
  }
  for (int64_t r = r0; r < r1; ++r) {
    float* row = dst + r * 2 * phase;
    const float* xr = x + (r - g_.pt) * w;
    take_even(xr, static_cast<std::size_t>(n_even), row + even_at);     // reads up to xr[2 n_even - 2] <= xr[w - 1]
    take_even(xr + 1, static_cast<std::size_t>(n_odd), row + odd_at);   // up to xr[2 n_odd - 1] <= xr[w - 1]
  }
}

std::vector<int64_t> PaddedPlane::taps() const {
  std::vector<int64_t> t;
  for (int64_t ky = 0; ky < g_.kh; ++ky)
    for (int64_t kx = 0; kx < g_.kw; ++kx) {
      const int64_t c = kx * g_.dw;
      t.push_back(ky * g_.dh * g_.sw * phase_ + (c % g_.sw) * phase_ + c / g_.sw);
    }
  return t;
}

std::vector<PlaneBand> plane_bands(const PlaneGeom& g, int64_t bands, std::size_t lanes) {
  std::vector<PlaneBand> out;
  out.reserve(static_cast<std::size_t>(bands));
  for (int64_t t = 0; t < bands; ++t) {
    PlaneGeom b = g;
    const int64_t r0 = g.oh * t / bands, r1 = g.oh * (t + 1) / bands;
    // Input row of the band's first padded row: r0 * sh - pt. Below 0 the band keeps that much
    // top padding; else it starts that many rows into the plane, with no padding above.
    const int64_t first = r0 * g.sh - g.pt;
    b.oh = r1 - r0;
    b.pt = first < 0 ? -first : 0;
    b.h = first < 0 ? g.h : std::max<int64_t>(0, g.h - first);
    out.push_back({r0, r1, first < 0 ? 0 : std::min(first, g.h) * g.w, PaddedPlane(b, lanes)});
  }
  return out;
}

std::vector<PlaneBand> tall_plane_bands(const PlaneGeom& g, int64_t parts, std::size_t lanes) {
  if (parts < 2 || g.oh < kBandRows * parts) return {};
  return plane_bands(g, parts, lanes);
}

}  // namespace nnbridge::cpu_ref
