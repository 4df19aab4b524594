// Distances in units in the last place (nnbridge/exec.h ulp_distance).
//
// The mapping of IEEE 754 bit patterns onto one ordered integer line (sign-magnitude to two's
// complement) is the one IEEE 754-2008 §3.4 makes possible: for same-signed finite values the
// bit patterns, read as unsigned integers, order like the values themselves.
#include <bit>
#include <cmath>
#include <cstdlib>

#include "nnbridge/exec.h"

namespace nnbridge {

namespace {

// Position on the integer line of a sign-magnitude pattern with `sign_bit` as its top bit.
int64_t ordered(uint64_t bits, uint64_t sign_bit) {
  const int64_t magnitude = static_cast<int64_t>(bits & (sign_bit - 1));
  return (bits & sign_bit) ? -magnitude : magnitude;
}

uint64_t distance(uint64_t a, uint64_t b, uint64_t sign_bit, bool a_nan, bool b_nan) {
  if (a_nan || b_nan) return a_nan && b_nan ? 0 : kUlpNaNMismatch;
  const int64_t x = ordered(a, sign_bit), y = ordered(b, sign_bit);
  // |x - y| < 2^64 for every pattern of at most 64 bits with the sign bit taken out.
  return x > y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y) : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
}

// 16-bit formats with an all-ones exponent field for inf/NaN: NaN when the magnitude bits
// exceed those of infinity.
uint64_t distance16(uint16_t a, uint16_t b, uint16_t inf_bits) {
  return distance(a, b, 0x8000u, (a & 0x7fffu) > inf_bits, (b & 0x7fffu) > inf_bits);
}

}  // namespace

uint64_t ulp_distance(float a, float b) {
  return distance(std::bit_cast<uint32_t>(a), std::bit_cast<uint32_t>(b), 0x80000000u, std::isnan(a), std::isnan(b));
}

uint64_t ulp_distance(double a, double b) {
  return distance(std::bit_cast<uint64_t>(a), std::bit_cast<uint64_t>(b), uint64_t{1} << 63, std::isnan(a), std::isnan(b));
}

uint64_t ulp_distance_float16(uint16_t a_bits, uint16_t b_bits) { return distance16(a_bits, b_bits, 0x7c00u); }

uint64_t ulp_distance_bfloat16(uint16_t a_bits, uint16_t b_bits) { return distance16(a_bits, b_bits, 0x7f80u); }

}  // namespace nnbridge
