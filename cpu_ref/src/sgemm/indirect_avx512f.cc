// sgemm_indirect (indirect.h) on AVX-512F + FMA: compiled with -mavx512f -mfma
// (cpu_ref/CMakeLists.txt), called only where indirect_available().
//
// A micro-tile is up to kRows output positions by up to four vectors of 16 output channels (24
// accumulators). Each step k loads row k of four strips of W (aligned; four streams) and
// broadcasts x[pos[p] + offsets[k]] for each position, one multiply-add per
// accumulator: every output is the chain acc = fma(W[o][k], x[...], acc) over k = 0 .. K - 1 from
// 0, as sgemm computes it with the operands' roles swapped (a product of two floats does not
// depend on their order). Between blocks of K the sums wait as floats in a scratch row per
// position (exact: the chain resumes from the same values); after the last block, the bias, the
// clamp, and a masked scatter of each vector into 16 planes of Y. Loop order: groups of four
// strips (64 channels), blocks of K (the strips' block stays in L2 while every tile of positions
// passes over it), tiles of positions. The loops over a tile's registers are unrolled by pragma (only
// then does GCC keep the accumulators in registers).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "indirect.h"

namespace nnbridge::cpu_ref::sgemm_avx512f {

namespace {

constexpr int kRows = 6;
constexpr int kVectors = 4;
constexpr int64_t kGroup = kVectors * kIndirectStrip;  // channels per group of strips
constexpr int64_t kDepth = 2048;

struct Tile {
  const float* w;          // the first strip's row k0
  int64_t strip;           // floats from one strip to the next (K * 16)
  const float* x;
  const int64_t* pos;      // the tile's first position
  const int64_t* offsets;  // K of them
  int64_t k;
  float* y;                // Y[o0][p0]
  int64_t ldy;
  float* part;             // partial sums between blocks of K: [position][kGroup], at the tile's first
  bool resume;             // start from `part` (a block of K after the first), else from 0
  bool final;              // the last block of K: bias, clamp, scatter into Y; else store `part`
  const float* bias;       // at o0, or null
  __mmask16 last;          // lanes of the last vector that are channels < m
  bool clamp;
  float lo, hi;
};

template <int R, int V>
void tile(const Tile& t) {
  __m512 acc[R][V];
  _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v)
      acc[r][v] = t.resume ? _mm512_loadu_ps(t.part + r * kGroup + 16 * v) : _mm512_setzero_ps();
  const float* xr[R];
  _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) xr[r] = t.x + t.pos[r];
  const float* w = t.w;
  for (int64_t k = 0; k < t.k; ++k, w += kIndirectStrip) {
    const int64_t off = t.offsets[k];
    __m512 wv[V];
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) wv[v] = _mm512_load_ps(w + v * t.strip);
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) {
      const __m512 xv = _mm512_set1_ps(xr[r][off]);
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) acc[r][v] = _mm512_fmadd_ps(wv[v], xv, acc[r][v]);
    }
  }
  if (!t.final) {  // the float partial sums: the chain goes on from these exact values
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) _mm512_storeu_ps(t.part + r * kGroup + 16 * v, acc[r][v]);
    return;
  }
  if (t.bias)
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) {
      const __m512 b = v == V - 1 ? _mm512_maskz_loadu_ps(t.last, t.bias + 16 * v) : _mm512_loadu_ps(t.bias + 16 * v);
      _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) acc[r][v] = _mm512_add_ps(acc[r][v], b);
    }
  if (t.clamp) {  // MAXPS(x, lo) then MINPS(., hi): a NaN gives lo, as std::max(lo, NaN) does
    const __m512 lo = _mm512_set1_ps(t.lo), hi = _mm512_set1_ps(t.hi);
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) acc[r][v] = _mm512_min_ps(_mm512_max_ps(acc[r][v], lo), hi);
  }
  // Lane l of vector v is channel 16 v + l: its plane is 16 v + l planes after the tile's first.
  const __m512i planes = _mm512_mullo_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                            _mm512_set1_epi32(static_cast<int32_t>(t.ldy)));
  _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) {
    float* yv = t.y + 16 * v * t.ldy;
    const __mmask16 lanes = v == V - 1 ? t.last : static_cast<__mmask16>(0xFFFF);
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) _mm512_mask_i32scatter_ps(yv + r, lanes, planes, acc[r][v], 4);
  }
}

using TileFn = void (*)(const Tile&);

// tile<R, V> for R in 1 .. kRows and V in 1 .. kVectors, at [(R - 1) * kVectors + V - 1].
template <int... I>
constexpr std::array<TileFn, sizeof...(I)> tile_table(std::integer_sequence<int, I...>) {
  return {tile<I / kVectors + 1, I % kVectors + 1>...};
}
constexpr auto kTiles = tile_table(std::make_integer_sequence<int, kRows * kVectors>{});

}  // namespace

void run_indirect(const IndirectArgs& a) {
  // K in blocks of at most kDepth (split evenly): a block of four strips (kDepth x 64 floats,
  // 512 KiB) stays in L2 while the tiles pass over it; 512 x 3 x 3 weights (K = 4608) would not.
  const int64_t blocks = (a.k + kDepth - 1) / kDepth, kc = (a.k + blocks - 1) / blocks;
  thread_local std::vector<float> part;
  if (blocks > 1) part.resize(static_cast<std::size_t>(a.np * kGroup));
  for (int64_t o0 = 0; o0 < a.m; o0 += kGroup) {
    const int64_t chans = std::min(kGroup, a.m - o0);
    const int vectors = static_cast<int>((chans + 15) / 16);
    const int tail = static_cast<int>(chans - 16 * (vectors - 1));
    Tile t;
    t.x = a.x;
    t.ldy = a.ldy;
    t.bias = a.bias ? a.bias + o0 : nullptr;
    t.last = static_cast<__mmask16>(tail == 16 ? 0xFFFF : (1u << tail) - 1);
    t.clamp = a.clamp, t.lo = a.lo, t.hi = a.hi;
    for (int64_t k0 = 0; k0 < a.k; k0 += kc) {
      t.w = a.w + o0 * a.k + k0 * kIndirectStrip;  // strip o0 / 16 (k rows of 16), row k0
      t.strip = a.k * kIndirectStrip;
      t.offsets = a.offsets + k0;
      t.k = std::min(kc, a.k - k0);
      t.resume = k0 > 0;
      t.final = k0 + t.k == a.k;
      for (int64_t p0 = 0; p0 < a.np; p0 += kRows) {
        const int rows = static_cast<int>(std::min<int64_t>(kRows, a.np - p0));
        t.pos = a.pos + p0;
        t.part = blocks > 1 ? part.data() + p0 * kGroup : nullptr;
        t.y = a.y + o0 * a.ldy + p0;
        kTiles[static_cast<std::size_t>((rows - 1) * kVectors + vectors - 1)](t);
      }
    }
  }
}

}  // namespace nnbridge::cpu_ref::sgemm_avx512f
