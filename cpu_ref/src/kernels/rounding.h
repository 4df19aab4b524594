// Round half to even without the rounding-mode call of std::nearbyint, so that loops of it
// vectorize on every x86-64 build (SSE2 has no rounding instruction; std::nearbyint is a libm
// call per element there).
#pragma once

#include <cmath>

namespace nnbridge::cpu_ref {

/// std::nearbyint(v) in the default rounding mode (to nearest, ties to even), which the
/// backend never changes: for |v| < 2^52 (2^23 for float) adding and subtracting 2^52 leaves v
/// rounded to an integer by the addition's own rounding; larger values, infinities and NaN are
/// returned as they are; the sign is kept, so -0.4 gives -0 as std::nearbyint does.
inline double round_half_even(double v) {
  constexpr double kMagic = 4503599627370496.0;  // 2^52
  const double a = std::fabs(v), r = std::copysign((a + kMagic) - kMagic, v);  // both sides computed: a select, no branch
  return a < kMagic ? r : v;
}
inline float round_half_even(float v) {
  constexpr float kMagic = 8388608.0f;  // 2^23
  const float a = std::fabs(v), r = std::copysign((a + kMagic) - kMagic, v);
  return a < kMagic ? r : v;
}

}  // namespace nnbridge::cpu_ref
