// sgemm_indirect (indirect.h) on AVX-512F + FMA: compiled with -mavx512f -mfma
// (cpu_ref/CMakeLists.txt), called only where indirect_available().
//
// A micro-tile is up to kRows output positions by up to four vectors of 16 output channels (24
// accumulators). Each step k loads row k of four strips of W (aligned; four streams) and
// broadcasts x[pos[p] + offsets[k]] for each position, one multiply-add per
// accumulator: every output is the chain acc = fma(W[o][k], x[...], acc) over k = 0 .. K - 1 from
// 0, as sgemm computes it with the operands' roles swapped (a product of two floats does not
// depend on their order). Between blocks of K the sums wait as floats in a scratch row per
// position (exact: the chain resumes from the same values); after the last block they go to a
// chunk of 96 positions, which is transposed 16 x 16 at a time into Y's planes with the bias and
// the clamp (a scatter per vector cost a quarter of the time at K = 96). Loop order: groups of
// four strips (64 channels), blocks of K (the strips' block stays in L2 while every tile of
// positions passes over it), chunks of positions, their tiles (as even in size as a chunk
// allows; on a small plane the first tiles prefetch the next block). The loops over a tile's registers
// are unrolled by pragma (only then does GCC keep the accumulators in registers).
// GCC 12's AVX-512 intrinsics (_mm512_max_ps / _mm512_min_ps among them) pass
// _mm512_undefined_ps() as an unused merge operand, which -Wmaybe-uninitialized reports once the
// tile loops are unrolled: a false positive (as in sgemm_nn_avx512f.cc).
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
#include "transpose16.h"

namespace nnbridge::cpu_ref::sgemm_avx512f {

namespace {

constexpr int kRows = 6;
constexpr int kVectors = 4;
constexpr int64_t kGroup = kVectors * kIndirectStrip;  // channels per group of strips
constexpr int64_t kDepth = 2048;
constexpr int64_t kChunk = 96;  // positions per chunk: 16 tiles of 6, 6 blocks of 16 to transpose
// Products of at most kPrefetchPositions positions prefetch each next block of strips of at
// least kPrefetchRows rows (run_indirect): a block's first tile otherwise reads it from memory,
// which on a 7 x 7 plane (9 tiles) is a large share of the block's time: resnet18's 512 -> 512 3 x 3
// on 7 x 7 (blocks of 1536 rows, 384 KiB) took 0.95x the time with it, mobilenet_v2's 160 -> 960
// 1 x 1 (160 rows, 40 KiB, fetched fast enough without) 1.03x.
constexpr int64_t kPrefetchPositions = 256;
constexpr int64_t kPrefetchRows = 512;

struct Tile {
  const float* w;          // the first strip's row k0
  int64_t strip;           // floats from one strip to the next (K * 16)
  const float* x;
  const int64_t* pos;      // the tile's first position
  const int64_t* offsets;  // K of them
  int64_t k;
  const float* from;       // with `resume`: the sums so far, [position][kGroup] at the tile's first
  bool resume;             // start from `from` (a block of K after the first), else from 0
  float* to;               // the sums after this block, [position][kGroup] at the tile's first
  const char* prefetch;    // a strip's rows to fetch into L2, one (64 bytes) at steps k < prefetch_rows
  int64_t prefetch_rows;
};

template <int R, int V>
void tile(const Tile& t) {
  __m512 acc[R][V];
  _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v)
      acc[r][v] = t.resume ? _mm512_loadu_ps(t.from + r * kGroup + 16 * v) : _mm512_setzero_ps();
  const float* xr[R];
  _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) xr[r] = t.x + t.pos[r];
  const float* w = t.w;
  for (int64_t k = 0; k < t.k; ++k, w += kIndirectStrip) {
    if (k < t.prefetch_rows) _mm_prefetch(t.prefetch + 64 * k, _MM_HINT_T1);
    const int64_t off = t.offsets[k];
    __m512 wv[V];
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) wv[v] = _mm512_load_ps(w + v * t.strip);
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) {
      const __m512 xv = _mm512_set1_ps(xr[r][off]);
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) acc[r][v] = _mm512_fmadd_ps(wv[v], xv, acc[r][v]);
    }
  }
  // The float sums as they are: the chain goes on from these exact values, or they are transposed.
  _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) _mm512_storeu_ps(t.to + r * kGroup + 16 * v, acc[r][v]);
}

using TileFn = void (*)(const Tile&);

// tile<R, V> for R in 1 .. kRows and V in 1 .. kVectors, at [(R - 1) * kVectors + V - 1].
template <int... I>
constexpr std::array<TileFn, sizeof...(I)> tile_table(std::integer_sequence<int, I...>) {
  return {tile<I / kVectors + 1, I % kVectors + 1>...};
}
constexpr auto kTiles = tile_table(std::make_integer_sequence<int, kRows * kVectors>{});

// The sums of `count` positions (sums[p][c], c < channels of a group) into Y's planes: 16
// positions by 16 channels at a time, transposed, then + bias[c], + the same places of R when
// given, the clamp, and a store of the positions (masked at the chunk's end) into channel c's
// plane.
void store_planes(const float* sums, int64_t count, int64_t channels, float* y, int64_t ldy, const float* bias,
                  const float* residual, bool clamp, float lo, float hi) {
  const __m512 vlo = _mm512_set1_ps(lo), vhi = _mm512_set1_ps(hi);
  for (int64_t c0 = 0; c0 < channels; c0 += 16) {
    const int lanes = static_cast<int>(std::min<int64_t>(16, channels - c0));
    for (int64_t p0 = 0; p0 < count; p0 += 16) {
      const int n = static_cast<int>(std::min<int64_t>(16, count - p0));
      __m512 r[16];
      for (int i = 0; i < 16; ++i) r[i] = i < n ? _mm512_loadu_ps(sums + (p0 + i) * kGroup + c0) : _mm512_setzero_ps();
      avx512::transpose16(r);
      const __mmask16 keep = static_cast<__mmask16>(n == 16 ? 0xFFFF : (1u << n) - 1);
      for (int j = 0; j < lanes; ++j) {
        __m512 v = r[j];
        if (bias) v = _mm512_add_ps(v, _mm512_set1_ps(bias[c0 + j]));
        if (residual) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(keep, residual + (c0 + j) * ldy + p0));
        if (clamp) v = _mm512_min_ps(_mm512_max_ps(v, vlo), vhi);  // MAXPS(x, lo) then MINPS: a NaN gives lo
        _mm512_mask_storeu_ps(y + (c0 + j) * ldy + p0, keep, v);
      }
    }
  }
}

}  // namespace

void run_indirect(const IndirectArgs& a) {
  // K in blocks of at most kDepth (split evenly): a block of four strips (kDepth x 64 floats,
  // 512 KiB) stays in L2 while the tiles pass over it; 512 x 3 x 3 weights (K = 4608) would not.
  const int64_t blocks = (a.k + kDepth - 1) / kDepth, kc = (a.k + blocks - 1) / blocks;
  thread_local std::vector<float> part;
  alignas(64) static thread_local float chunk[kChunk * kGroup];
  if (blocks > 1) part.resize(static_cast<std::size_t>(a.np * kGroup));
  for (int64_t o0 = 0; o0 < a.m; o0 += kGroup) {
    const int64_t chans = std::min(kGroup, a.m - o0);
    const int vectors = static_cast<int>((chans + 15) / 16);
    Tile t;
    t.x = a.x;
    t.strip = a.k * kIndirectStrip;
    for (int64_t k0 = 0; k0 < a.k; k0 += kc) {
      t.w = a.w + o0 * a.k + k0 * kIndirectStrip;  // strip o0 / 16 (k rows of 16), row k0
      t.offsets = a.offsets + k0;
      t.k = std::min(kc, a.k - k0);
      t.resume = k0 > 0;
      const bool final = k0 + t.k == a.k;
      // The block after this one (the next of K, else the first of the next group of strips):
      // where a block has few tiles, its first tiles fetch that block into L2, strip j by tile j,
      // one 64-byte row of 16 floats per step, so that its first tile does not wait on memory.
      const int64_t next_k0 = final ? 0 : k0 + t.k, next_o0 = final ? o0 + kGroup : o0;
      const int64_t next_rows = std::min(kc, a.k - next_k0);
      const int next_strips = next_o0 < a.m ? static_cast<int>((std::min(kGroup, a.m - next_o0) + 15) / 16) : 0;
      const bool fetch_next = next_strips > 0 && a.np <= kPrefetchPositions && next_rows >= kPrefetchRows;
      int64_t tile_index = 0;
      for (int64_t c0 = 0; c0 < a.np; c0 += kChunk) {
        const int64_t count = std::min(kChunk, a.np - c0);
        // ceil(count / kRows) tiles of sizes differing by at most one (49 = 4 x 6 + 5 x 5, not
        // 8 x 6 + 1: a 1-position tile does 4 multiply-adds per 5 loads).
        const int64_t tiles = (count + kRows - 1) / kRows;
        for (int64_t i = 0; i < tiles; ++i, ++tile_index) {
          const int64_t p0 = c0 + count * i / tiles;
          const int rows = static_cast<int>(c0 + count * (i + 1) / tiles - p0);
          const bool fetch = fetch_next && tile_index < next_strips;
          t.prefetch = fetch ? reinterpret_cast<const char*>(a.w + (next_o0 + 16 * tile_index) * a.k + next_k0 * kIndirectStrip) : nullptr;
          t.prefetch_rows = fetch ? std::min(next_rows, t.k) : 0;
          t.pos = a.pos + p0;
          t.from = blocks > 1 ? part.data() + p0 * kGroup : nullptr;
          t.to = final ? chunk + (p0 - c0) * kGroup : part.data() + p0 * kGroup;
          kTiles[static_cast<std::size_t>((rows - 1) * kVectors + vectors - 1)](t);
        }
        if (final)
          store_planes(chunk, count, chans, a.y + o0 * a.ldy + c0, a.ldy, a.bias ? a.bias + o0 : nullptr,
                       a.residual ? a.residual + o0 * a.ldy + c0 : nullptr, a.clamp, a.lo, a.hi);
      }
    }
  }
}

}  // namespace nnbridge::cpu_ref::sgemm_avx512f
