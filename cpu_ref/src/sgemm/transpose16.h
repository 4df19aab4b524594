// A 16 x 16 float transpose in AVX-512 registers, shared by the kernels that move 16 channels
// across the lanes into planes and back (indirect_avx512f.cc, kernels/depthwise_lanes_avx512f.cc).
// Include only from a translation unit built with -mavx512f (cpu_ref/CMakeLists.txt).
#pragma once

#include <immintrin.h>

namespace nnbridge::cpu_ref::avx512 {

/// r[i][j] -> r[j][i] for a 16 x 16 block of floats held as 16 registers (moves only: exact).
/// Pairs of rows interleaved, then 4 x 4 blocks within each 128-bit lane, then the lanes.
inline void transpose16(__m512 r[16]) {
  __m512 t[16];
  for (int i = 0; i < 8; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int i = 0; i < 4; ++i) {  // r[4 i + j], 128-bit lane l: rows 4 i .. 4 i + 3 of column 4 l + j
    r[4 * i] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
    r[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
    r[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
    r[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
  }
  for (int j = 0; j < 4; ++j) {
    t[j] = _mm512_shuffle_f32x4(r[j], r[4 + j], 0x88);
    t[j + 4] = _mm512_shuffle_f32x4(r[j], r[4 + j], 0xDD);
    t[j + 8] = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0x88);
    t[j + 12] = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0xDD);
  }
  for (int j = 0; j < 4; ++j) {
    r[j] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0x88);
    r[j + 8] = _mm512_shuffle_f32x4(t[j], t[j + 8], 0xDD);
    r[j + 4] = _mm512_shuffle_f32x4(t[j + 4], t[j + 12], 0x88);
    r[j + 12] = _mm512_shuffle_f32x4(t[j + 4], t[j + 12], 0xDD);
  }
}

}  // namespace nnbridge::cpu_ref::avx512
