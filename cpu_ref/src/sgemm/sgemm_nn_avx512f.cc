// sgemm's product without transposes (C = A * B + bias, sgemm.h) on AVX-512F + FMA, for the
// AVX-512 build (sgemm_avx512f.cc): the NCHW convolutions' W [m, K] x col [K, P] and MatMul.
// Compiled with -mavx512f -mfma (cpu_ref/CMakeLists.txt); called only where sgemm.cc found both.
//
// Neither operand is repacked. A micro-tile of kRows rows of C by up to kVectors vectors of 16
// columns keeps its sums in registers; each step k broadcasts A[i][k] from A's own rows and
// loads 16 * kVectors consecutive floats of B's row k, then fuses one multiply-add per
// accumulator. Loop order (outermost first): blocks of kDepth values of k; blocks of kWidth
// columns (a kDepth x kWidth block of B stays in L2 while every row block of A passes over it);
// blocks of kRows rows (their kDepth values per row stay in L1 across the column tiles); tiles.
// Partial sums go through C between k blocks as floats, which rounds nothing: every C[i][j] is
// the chain acc = fma(A[i][k], B[k][j], acc) over k = 0, 1, ..., K - 1 from acc = 0, then +
// bias_n[j], then + bias_m[i], then the clamp when asked, whatever the blocking, the thread split
// or the tile C[i][j] falls in. C as a grid (SgemmArgs::c_grid_wp) keeps the same sums: each
// vector's kept lanes are packed (VCOMPRESSPS) into consecutive places, and unpacked
// (VEXPANDPS) when a later k block reloads them. The loops over a tile's registers are
// unrolled by pragma: only then does GCC keep the accumulator array in registers (else it
// stores it every step).
// GCC 12's _mm512_max_ps / _mm512_min_ps pass _mm512_undefined_ps() as their unused merge
// operand, which -Wmaybe-uninitialized reports once the tile loops are unrolled: a false positive.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <immintrin.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <utility>
#include <vector>

#include "sgemm_nn.h"

namespace nnbridge::cpu_ref::sgemm_avx512f {

namespace {

constexpr int kRows = 6;
constexpr int kVectors = 4;
constexpr int64_t kTile = 16 * kVectors;  // columns per full micro-tile
constexpr int64_t kDepth = 512;
constexpr int64_t kWidth = 256;

// One vector of 16 grid columns (SgemmArgs::c_grid_wp): the lanes kept, and where the first of
// them goes in each row of C (the kept lanes go to consecutive places).
struct GridVector {
  __mmask16 lanes;   // columns j < n with j % wp < w
  __mmask16 packed;  // the low popcount(lanes) lanes
  int64_t at;        // j - (j / wp) * (wp - w) of the first kept column (0 if none)
};

struct Tile {
  const float* a;  // A[row0][k0]
  int64_t lda;
  const float* b;  // B[k0][col0]
  int64_t ldb;
  const float* const* b_rows;  // else: B[k0 + k][col0] at b_rows[k] + b_col
  int64_t b_col;
  int64_t kc;
  float* c;  // C[row0][col0]; with `grid`, C[row0][0]
  int64_t ldc;
  const GridVector* grid;  // SgemmArgs::c_grid_wp: where each vector of the tile goes, else null
  __mmask16 last;       // lanes of the last vector that are columns of C
  bool accumulate;      // C holds the sums of the k blocks before this one
  const float* bias_n;  // at col0, on the last k block only (else null)
  const float* bias_m;  // at row0, likewise
  bool clamp;           // on the last k block only
  float lo, hi;
};

template <int R, int V>
void tile(const Tile& t) {
  __m512 acc[R][V];
  if (!t.accumulate) {
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) acc[r][v] = _mm512_setzero_ps();
  } else if (t.grid) {
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) {
        const GridVector& g = t.grid[v];
        acc[r][v] = _mm512_maskz_expand_ps(g.lanes, _mm512_maskz_loadu_ps(g.packed, t.c + r * t.ldc + g.at));
      }
  } else {
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) {
        float* cp = t.c + r * t.ldc + 16 * v;
        acc[r][v] = v == V - 1 ? _mm512_maskz_loadu_ps(t.last, cp) : _mm512_loadu_ps(cp);
      }
  }
  const float* ar[R];
  _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) ar[r] = t.a + r * t.lda;
  const float* bk = t.b;
  for (int64_t k = 0; k < t.kc; ++k, bk += t.ldb) {
    if (t.b_rows) bk = t.b_rows[k] + t.b_col;
    __m512 bv[V];
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) bv[v] = v == V - 1 ? _mm512_maskz_loadu_ps(t.last, bk + 16 * v) : _mm512_loadu_ps(bk + 16 * v);
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) {
      const __m512 av = _mm512_set1_ps(ar[r][k]);
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) acc[r][v] = _mm512_fmadd_ps(av, bv[v], acc[r][v]);
    }
  }
  if (t.bias_n)
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) {
      const __m512 bn = v == V - 1 ? _mm512_maskz_loadu_ps(t.last, t.bias_n + 16 * v) : _mm512_loadu_ps(t.bias_n + 16 * v);
      _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) acc[r][v] = _mm512_add_ps(acc[r][v], bn);
    }
  if (t.bias_m)
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r) {
      const __m512 bm = _mm512_set1_ps(t.bias_m[r]);
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) acc[r][v] = _mm512_add_ps(acc[r][v], bm);
    }
  if (t.clamp) {  // MAXPS(x, lo) then MINPS(., hi): a NaN gives lo, as std::max(lo, NaN) does
    const __m512 lo = _mm512_set1_ps(t.lo), hi = _mm512_set1_ps(t.hi);
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) acc[r][v] = _mm512_min_ps(_mm512_max_ps(acc[r][v], lo), hi);
  }
  if (t.grid) {  // the kept lanes packed down, then stored to consecutive places
    _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
      _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) {
        const GridVector& g = t.grid[v];
        _mm512_mask_storeu_ps(t.c + r * t.ldc + g.at, g.packed, _mm512_maskz_compress_ps(g.lanes, acc[r][v]));
      }
    return;
  }
  _Pragma("GCC unroll 8") for (int r = 0; r < R; ++r)
    _Pragma("GCC unroll 8") for (int v = 0; v < V; ++v) {
      float* cp = t.c + r * t.ldc + 16 * v;
      if (v == V - 1) _mm512_mask_storeu_ps(cp, t.last, acc[r][v]);
      else _mm512_storeu_ps(cp, acc[r][v]);
    }
}

using TileFn = void (*)(const Tile&);

// tile<R, V> for R in 1 .. kRows and V in 1 .. kVectors, at [(R - 1) * kVectors + V - 1].
template <int... I>
constexpr std::array<TileFn, sizeof...(I)> tile_table(std::integer_sequence<int, I...>) {
  return {tile<I / kVectors + 1, I % kVectors + 1>...};
}
constexpr auto kTiles = tile_table(std::make_integer_sequence<int, kRows * kVectors>{});

TileFn tile_fn(int rows, int vectors) { return kTiles[static_cast<std::size_t>((rows - 1) * kVectors + vectors - 1)]; }

// The GridVector of each 16 columns of C [0, n) (SgemmArgs::c_grid_wp), walking the columns
// once: q = j % wp, place = the next kept column's place.
void grid_vectors(const SgemmArgs& p, std::vector<GridVector>& out) {
  const int64_t wp = p.c_grid_wp, w = p.c_grid_w;
  out.resize(static_cast<std::size_t>((p.n + 15) / 16));
  int64_t q = 0, place = 0;
  for (std::size_t v = 0; v < out.size(); ++v) {
    GridVector g{0, 0, 0};
    int kept = 0;
    for (int l = 0; l < 16 && static_cast<int64_t>(v) * 16 + l < p.n; ++l) {
      if (q < w) {
        if (kept++ == 0) g.at = place;
        g.lanes = static_cast<__mmask16>(g.lanes | (1u << l));
        ++place;
      }
      if (++q == wp) q = 0;
    }
    g.packed = static_cast<__mmask16>((1u << kept) - 1);
    out[v] = g;
  }
}

}  // namespace

void run_nn(const SgemmArgs& p) {
  thread_local std::vector<GridVector> grid;
  if (p.c_grid_wp > 0) grid_vectors(p, grid);
  for (int64_t k0 = 0; k0 < p.k; k0 += kDepth) {
    const int64_t kc = std::min(kDepth, p.k - k0);
    const bool final = k0 + kc == p.k;
    for (int64_t n0 = 0; n0 < p.n; n0 += kWidth) {
      const int64_t nc = std::min(kWidth, p.n - n0);
      for (int64_t i0 = 0; i0 < p.m; i0 += kRows) {
        const int rows = static_cast<int>(std::min<int64_t>(kRows, p.m - i0));
        for (int64_t j0 = n0; j0 < n0 + nc; j0 += kTile) {
          const int64_t cols = std::min(kTile, n0 + nc - j0);
          const int vectors = static_cast<int>((cols + 15) / 16);
          const int tail = static_cast<int>(cols - 16 * (vectors - 1));
          Tile t;
          t.a = p.a + i0 * p.lda + k0, t.lda = p.lda;
          if (p.b_rows) t.b = nullptr, t.ldb = 0, t.b_rows = p.b_rows + k0, t.b_col = j0;
          else t.b = p.b + k0 * p.ldb + j0, t.ldb = p.ldb, t.b_rows = nullptr, t.b_col = 0;
          t.kc = kc;
          t.c = p.c + i0 * p.ldc + (p.c_grid_wp > 0 ? 0 : j0), t.ldc = p.ldc;
          t.grid = p.c_grid_wp > 0 ? grid.data() + j0 / 16 : nullptr;
          t.last = static_cast<__mmask16>(tail == 16 ? 0xFFFF : (1u << tail) - 1);
          t.accumulate = k0 > 0;
          t.bias_n = final && p.bias_n ? p.bias_n + j0 : nullptr;
          t.bias_m = final && p.bias_m ? p.bias_m + i0 : nullptr;
          t.clamp = final && p.clamp, t.lo = p.clamp_lo, t.hi = p.clamp_hi;
          tile_fn(rows, vectors)(t);
        }
      }
    }
  }
}

}  // namespace nnbridge::cpu_ref::sgemm_avx512f
