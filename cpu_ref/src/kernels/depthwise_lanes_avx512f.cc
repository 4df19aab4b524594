// depthwise_lanes (depthwise_lanes.h) on AVX-512F. Compiled with -mavx512f -ffp-contract=off
// (cpu_ref/CMakeLists.txt): every multiply and add rounds on its own, as in the plane kernel.
#include <immintrin.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "../sgemm/transpose16.h"
#include "depthwise_lanes.h"

namespace nnbridge::cpu_ref::depthwise_lanes_avx512f {

namespace {

__mmask16 first(int64_t n) { return static_cast<__mmask16>(n >= 16 ? 0xFFFFu : (1u << n) - 1); }

// R output positions of row oy from column ox0, into out[(oy * ow + ox) * 16].
template <int R>
void row_block(const DepthwiseLanesArgs& a, const float* buf, int64_t wp, __m512 bias, int64_t oy, int64_t ox0, float* out) {
  __m512 acc[R];
  _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) acc[r] = bias;
  const int64_t step = a.sw * 16;
  for (int64_t ky = 0; ky < a.kh; ++ky) {
    const float* brow = buf + ((oy * a.sh + ky * a.dh) * wp + ox0 * a.sw) * 16;
    const float* wrow = a.weights + ky * a.kw * 16;
    for (int64_t kx = 0; kx < a.kw; ++kx) {
      const __m512 wt = _mm512_loadu_ps(wrow + kx * 16);
      const float* b = brow + kx * a.dw * 16;
      _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) acc[r] = _mm512_add_ps(acc[r], _mm512_mul_ps(_mm512_load_ps(b + r * step), wt));
    }
  }
  if (a.clamp) {  // MAXPS(y, lo) then MINPS(., hi): a NaN gives lo
    const __m512 lo = _mm512_set1_ps(a.lo), hi = _mm512_set1_ps(a.hi);
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) acc[r] = _mm512_min_ps(_mm512_max_ps(acc[r], lo), hi);
  }
  _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) _mm512_store_ps(out + (oy * a.ow + ox0 + r) * 16, acc[r]);
}

template <int R>
void row_tail(const DepthwiseLanesArgs& a, const float* buf, int64_t wp, __m512 bias, int64_t oy, int64_t ox0, int64_t n,
              float* out) {
  if constexpr (R >= 1) {
    if (n == R) row_block<R>(a, buf, wp, bias, oy, ox0, out);
    else row_tail<R - 1>(a, buf, wp, bias, oy, ox0, n, out);
  }
}

// 64-byte aligned scratch of this thread.
float* scratch(std::vector<float>& v, std::size_t floats) {
  if (v.size() < floats + 16) v.assign(floats + 16, 0.0f);
  const auto at = reinterpret_cast<std::uintptr_t>(v.data());
  return v.data() + ((64 - at % 64) % 64) / sizeof(float);
}

}  // namespace

void run(const DepthwiseLanesArgs& a) {
  // The padded input: rows from -pt, columns from -pl, as far as any tap reaches.
  const int64_t hp = (a.oh - 1) * a.sh + (a.kh - 1) * a.dh + 1, wp = (a.ow - 1) * a.sw + (a.kw - 1) * a.dw + 1;
  const int64_t in_plane = a.h * a.w, out_plane = a.oh * a.ow;
  // The buffer's padding stays 0 between calls of one geometry (only the image's places are
  // written); another geometry clears it again.
  thread_local std::vector<float> in_store, out_store;
  thread_local int64_t key[6] = {-1, -1, -1, -1, -1, -1};
  float* buf = scratch(in_store, static_cast<std::size_t>(hp * wp * 16));
  const int64_t geometry[6] = {hp, wp, a.pt, a.pl, a.h, a.w};
  if (!std::equal(geometry, geometry + 6, key)) {
    std::fill_n(buf, hp * wp * 16, 0.0f);
    std::copy(geometry, geometry + 6, key);
  }
  // Which input positions land in the buffer: rows pt .. pt + h - 1, columns pl .. pl + w - 1,
  // clipped to hp x wp (rows and columns no tap reaches are left out).
  const __mmask16 chans = first(a.channels);
  __m512 r[16];
  int64_t iy = a.pt, ix = a.pl;  // where position p0 + j goes
  for (int64_t p0 = 0; p0 < in_plane; p0 += 16) {
    const __mmask16 cols = first(in_plane - p0);
    for (int c = 0; c < 16; ++c)
      r[c] = c < a.channels ? _mm512_maskz_loadu_ps(cols, a.x + c * in_plane + p0) : _mm512_setzero_ps();
    avx512::transpose16(r);
    for (int j = 0; j < 16 && p0 + j < in_plane; ++j) {
      if (iy < hp && ix < wp) _mm512_store_ps(buf + (iy * wp + ix) * 16, r[j]);
      if (++ix == a.pl + a.w) ix = a.pl, ++iy;
    }
  }
  float* out = scratch(out_store, static_cast<std::size_t>((out_plane + 15) / 16 * 16 * 16));
  const __m512 bias = a.bias ? _mm512_maskz_loadu_ps(chans, a.bias) : _mm512_setzero_ps();
  for (int64_t oy = 0; oy < a.oh; ++oy) {
    int64_t ox = 0;
    for (; ox + 8 <= a.ow; ox += 8) row_block<8>(a, buf, wp, bias, oy, ox, out);
    if (ox < a.ow) row_tail<7>(a, buf, wp, bias, oy, ox, a.ow - ox, out);
  }
  // Back into the planes: 16 positions of the 16 channels at a time.
  for (int64_t p0 = 0; p0 < out_plane; p0 += 16) {
    const int64_t n = std::min<int64_t>(16, out_plane - p0);
    for (int j = 0; j < 16; ++j) r[j] = j < n ? _mm512_load_ps(out + (p0 + j) * 16) : _mm512_setzero_ps();
    avx512::transpose16(r);
    const __mmask16 cols = first(n);
    for (int c = 0; c < a.channels; ++c) _mm512_mask_storeu_ps(a.y + c * out_plane + p0, cols, r[c]);
  }
}

}  // namespace nnbridge::cpu_ref::depthwise_lanes_avx512f
