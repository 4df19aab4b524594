// igemm (igemm.h) on AVX-512 VNNI: this object alone is compiled with -mavx512f -mavx512bw
// -mavx512vl -mavx512vnni and -fno-weak (cpu_ref/CMakeLists.txt), and is called only after
// igemm_available() has checked the CPU. It uses raw pointers only, so no inline function of a
// header is instantiated here with those flags.
#include <immintrin.h>

#include <cstdint>

namespace nnbridge::cpu_ref::igemm_avx512vnni {

namespace {

constexpr int64_t kRows = 6;  // igemm.h: kIgemmRows

// A's quads, packed: row r's quad q of a row block at a[q * kRows + r].
struct PackedA {
  const int32_t* a;
  int32_t operator()(int64_t q, int r) const { return a[q * kRows + r]; }
};
// A's quads in place: row r's quad q at bytes 4q .. 4q+3 of row r (rows lda bytes apart).
struct RowsA {
  const int8_t* a;
  int64_t lda;
  int32_t operator()(int64_t q, int r) const {
    int32_t v;
    __builtin_memcpy(&v, a + r * lda + 4 * q, 4);
    return v;
  }
};

// Rows [0, R) of one row block of A times 16 NV columns of B (quads [kq][columns][4], starting
// at this tile's first column), into C.
template <int R, int NV, class A>
void tile(A a, const uint8_t* b, int64_t columns, int64_t kq, int32_t* c, int64_t ldc) {
  __m512i acc[R][NV];
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_setzero_si512();
  const int64_t stride = columns * 4;
  for (int64_t q = 0; q < kq; ++q, b += stride) {
    __m512i bv[NV];
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) bv[v] = _mm512_loadu_si512(b + 64 * v);
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      const __m512i s = _mm512_set1_epi32(a(q, r));
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_dpbusd_epi32(acc[r][v], bv[v], s);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < NV; ++v) _mm512_storeu_si512(c + r * ldc + 16 * v, acc[r][v]);
}

// 16 values of one row of B (fewer at the tail: `mask`), plus `add`, clamped to [0, 255], as int32.
inline __m512i row16(const float* p, __mmask16 mask, __m512 add) {
  __m512 v = _mm512_add_ps(_mm512_maskz_loadu_ps(mask, p), add);
  v = _mm512_min_ps(_mm512_max_ps(v, _mm512_setzero_ps()), _mm512_set1_ps(255.0f));
  return _mm512_maskz_cvtps_epi32(mask, v);
}

}  // namespace

void pack_b(const float* b, int64_t k, int64_t n, int64_t ldb, float add, int64_t columns, uint8_t* out) {
  const __m512 vadd = _mm512_set1_ps(add);
  for (int64_t q = 0; q * 4 < k; ++q) {
    uint8_t* o = out + q * columns * 4;
    const int64_t rows = k - 4 * q < 4 ? k - 4 * q : 4;
    for (int64_t j = 0; j < columns; j += 16) {
      const int64_t left = n - j;
      const __mmask16 mask = left >= 16 ? __mmask16(0xffff) : left <= 0 ? __mmask16(0) : __mmask16((1u << left) - 1);
      // Lane j holds rows 4q .. 4q+3 of column j in its four bytes, low byte first.
      __m512i v = row16(b + (4 * q) * ldb + j, mask, vadd);
      if (rows > 1) v = _mm512_or_si512(v, _mm512_slli_epi32(row16(b + (4 * q + 1) * ldb + j, mask, vadd), 8));
      if (rows > 2) v = _mm512_or_si512(v, _mm512_slli_epi32(row16(b + (4 * q + 2) * ldb + j, mask, vadd), 16));
      if (rows > 3) v = _mm512_or_si512(v, _mm512_slli_epi32(row16(b + (4 * q + 3) * ldb + j, mask, vadd), 24));
      _mm512_storeu_si512(o + j * 4, v);
    }
  }
}

void stage_row(const float* src, int64_t stride, int64_t count, float add, uint8_t* dst) {
  const __m512 vadd = _mm512_set1_ps(add), lo = _mm512_setzero_ps(), hi = _mm512_set1_ps(255.0f);
  const __m512i index = _mm512_mullo_epi32(_mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0),
                                           _mm512_set1_epi32(static_cast<int32_t>(stride)));
  for (int64_t u = 0; u < count; u += 16) {
    const int64_t left = count - u;
    const __mmask16 mask = left >= 16 ? __mmask16(0xffff) : __mmask16((1u << left) - 1);
    const __m512 v = stride == 1 ? _mm512_maskz_loadu_ps(mask, src + u)
                                 : _mm512_mask_i32gather_ps(lo, mask, index, src + u * stride, 4);
    const __m512 c = _mm512_min_ps(_mm512_max_ps(_mm512_add_ps(v, vadd), lo), hi);
    _mm_mask_storeu_epi8(dst + u, mask, _mm512_cvtusepi32_epi8(_mm512_cvtps_epi32(c)));
  }
}

void pack_b_runs(const uint8_t* base, const int64_t* offsets, int64_t k, int64_t rows, int64_t ow, int64_t row_stride,
                 int64_t columns, uint8_t* out) {
  // 16 columns of the quad's four rows, 16 bytes each, go into the four 128-bit lanes of one
  // register; VPERMD makes lane j hold dword j of each row (columns 4j .. 4j+3 of rows 0..3) and
  // VPSHUFB interleaves them within the lane into four quads: byte 4i + r <- byte 4r + i.
  const __m512i transpose = _mm512_set_epi32(15, 11, 7, 3, 14, 10, 6, 2, 13, 9, 5, 1, 12, 8, 4, 0);
  const __m512i interleave = _mm512_set4_epi32(0x0F0B0703, 0x0E0A0602, 0x0D090501, 0x0C080400);  // per lane: bytes 0, 4, 8, 12, 1, 5, ...
  const __m512i zero = _mm512_setzero_si512();
  for (int64_t q = 0; q * 4 < k; ++q) {
    // Rows past k read row 4q's bytes and are then zeroed (lane r of the register is row r).
    const int64_t have = k - 4 * q < 4 ? k - 4 * q : 4;
    const __mmask16 present = __mmask16((1u << (4 * have)) - 1);
    const uint8_t* p0 = base + offsets[4 * q];
    const uint8_t* p1 = have > 1 ? base + offsets[4 * q + 1] : p0;
    const uint8_t* p2 = have > 2 ? base + offsets[4 * q + 2] : p0;
    const uint8_t* p3 = have > 3 ? base + offsets[4 * q + 3] : p0;
    uint8_t* o = out + q * columns * 4;
    int64_t j = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t at = r * row_stride;
      for (int64_t x = 0; x < ow; x += 16) {
        __m512i v = _mm512_castsi128_si512(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p0 + at + x)));
        v = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p1 + at + x)), 1);
        v = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p2 + at + x)), 2);
        v = _mm512_inserti32x4(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(p3 + at + x)), 3);
        v = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(transpose, _mm512_maskz_mov_epi32(present, v)), interleave);
        const int64_t take = ow - x < 16 ? ow - x : 16;
        _mm512_mask_storeu_epi32(o + j * 4, __mmask16((1u << take) - 1), v);
        j += take;
      }
    }
    for (; j < columns; j += 16) {
      const int64_t left = columns - j;
      _mm512_mask_storeu_epi32(o + j * 4, left >= 16 ? __mmask16(0xffff) : __mmask16((1u << left) - 1), zero);
    }
  }
}

namespace {

// Every tile of C: the 64-column tiles of B (a 32-column one last), each against every row
// block of A (`block(i)` gives block i / kRows's accessor).
template <int NV, class Block>
void panel(Block block, int64_t m, int64_t kq, const uint8_t* b, int64_t columns, int32_t* c, int64_t ldc) {
  for (int64_t i = 0; i < m; i += kRows) {
    const auto a = block(i);
    int32_t* ct = c + i * ldc;
    switch (m - i < kRows ? m - i : kRows) {
      case 6: tile<6, NV>(a, b, columns, kq, ct, ldc); break;
      case 5: tile<5, NV>(a, b, columns, kq, ct, ldc); break;
      case 4: tile<4, NV>(a, b, columns, kq, ct, ldc); break;
      case 3: tile<3, NV>(a, b, columns, kq, ct, ldc); break;
      case 2: tile<2, NV>(a, b, columns, kq, ct, ldc); break;
      default: tile<1, NV>(a, b, columns, kq, ct, ldc); break;
    }
  }
}

template <class Block>
void tiles(Block block, int64_t m, int64_t kq, const uint8_t* b, int64_t columns, int32_t* c, int64_t ldc) {
  int64_t j = 0;
  for (; j + 64 <= columns; j += 64) panel<4>(block, m, kq, b + j * 4, columns, c + j, ldc);
  if (j < columns) panel<2>(block, m, kq, b + j * 4, columns, c + j, ldc);  // columns is a multiple of 32
}

}  // namespace

void run(const int32_t* quads, int64_t m, int64_t kq, const uint8_t* b, int64_t columns, int32_t* c, int64_t ldc) {
  tiles([&](int64_t i) { return PackedA{quads + i * kq}; }, m, kq, b, columns, c, ldc);
}

void run_rows(const int8_t* a, int64_t lda, int64_t m, int64_t kq, const uint8_t* b, int64_t columns, int32_t* c, int64_t ldc) {
  tiles([&](int64_t i) { return RowsA{a + i * lda, lda}; }, m, kq, b, columns, c, ldc);
}

void row_sums(const int8_t* a, int64_t m, int64_t k, int64_t lda, int64_t* out) {
  const __m512i ones = _mm512_set1_epi8(1);
  for (int64_t i = 0; i < m; ++i) {
    const int8_t* row = a + i * lda;
    __m512i acc = _mm512_setzero_si512();  // each lane: 4 bytes per step, |sum| <= 512 k / 64
    int64_t kk = 0;
    for (; kk + 64 <= k; kk += 64) acc = _mm512_dpbusd_epi32(acc, ones, _mm512_loadu_si512(row + kk));
    int64_t sum = _mm512_reduce_add_epi32(acc);
    for (; kk < k; ++kk) sum += row[kk];
    out[i] = sum;
  }
}

void to_double(const int32_t* acc, int64_t n, int64_t correction, double* out) {
  const double c = static_cast<double>(correction);
  const __m512d vc = _mm512_set1_pd(c);
  int64_t j = 0;
  for (; j + 8 <= n; j += 8)
    _mm512_storeu_pd(out + j, _mm512_sub_pd(_mm512_cvtepi32_pd(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + j))), vc));
  for (; j < n; ++j) out[j] = static_cast<double>(acc[j]) - c;
}

namespace {

// QLinearConv's requantization (simd::Kernels::requantize's operations in its order) of 8 sums
// as doubles: y[0..7] = clamp(round_half_even((sum + bias) * multiplier) + y_zero, lo, hi), as float.
struct Wide {
  __m512d b, m, z, lo, hi;
  Wide(double bias, double multiplier, double y_zero, double lo_, double hi_)
      : b(_mm512_set1_pd(bias)), m(_mm512_set1_pd(multiplier)), z(_mm512_set1_pd(y_zero)), lo(_mm512_set1_pd(lo_)), hi(_mm512_set1_pd(hi_)) {}
  void operator()(__m512d sums, float* y) const {
    __m512d v = _mm512_mul_pd(_mm512_add_pd(sums, b), m);
    v = _mm512_add_pd(_mm512_roundscale_pd(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), z);
    v = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(v, lo, _CMP_LT_OQ), v, lo);  // std::clamp's order: a NaN stays
    v = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(hi, v, _CMP_LT_OQ), v, hi);
    _mm256_storeu_ps(y, _mm512_cvtpd_ps(v));
  }
};

// The same requantization of 16 sums in float32, where that gives the same bits, which the caller
// checks first (narrow()): the multiplier, lo and hi are float32 values, y_zero and the bias
// integers. Then t = sum + bias is an integer below 2^24 (checked per lane) and exact in float32;
// t * multiplier is exact in double (two 24-bit significands) and within |p| 2^-24 of it in
// float32 (p); and when p lies farther than |p| 2^-23 from every half-integer, the exact product
// lies on the same side of each, so both round to the same integer. Adding the integer y_zero
// then rounds once to float32 either way (exact in double, which the store rounds), and clamping
// to float32 bounds commutes with that rounding. Any lane that fails a check (a near-tie, a NaN,
// a sum too large) sends the 16 back to the double path: returns false, having stored nothing.
struct Narrow {
  __m512 m, z, lo, hi;
  Narrow(double multiplier, double y_zero, double lo_, double hi_)
      : m(_mm512_set1_ps(static_cast<float>(multiplier))), z(_mm512_set1_ps(static_cast<float>(y_zero))),
        lo(_mm512_set1_ps(static_cast<float>(lo_))), hi(_mm512_set1_ps(static_cast<float>(hi_))) {}
  bool operator()(__m512 t, __mmask16 ok, float* y) const {
    const __m512 p = _mm512_mul_ps(t, m);
    const __m512 r = _mm512_roundscale_ps(p, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    const __m512 margin = _mm512_sub_ps(_mm512_set1_ps(0.5f), _mm512_abs_ps(_mm512_sub_ps(p, r)));
    const __m512 slack = _mm512_mul_ps(_mm512_abs_ps(p), _mm512_set1_ps(0x1p-23f));
    ok &= _mm512_cmp_ps_mask(slack, margin, _CMP_LT_OQ);  // false for NaN and infinities
    if (ok != 0xffff) return false;
    __m512 v = _mm512_add_ps(r, z);
    v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(v, lo, _CMP_LT_OQ), v, lo);
    v = _mm512_mask_blend_ps(_mm512_cmp_ps_mask(hi, v, _CMP_LT_OQ), v, hi);
    _mm512_storeu_ps(y, v);
    return true;
  }
};

// Whether Narrow may be tried: the multiplier, lo and hi float32 values, y_zero an integer below
// 2^24 (a zero point is one), the bias an integer of magnitude below `limit`.
bool narrow(double bias, double multiplier, double y_zero, double lo, double hi, double limit) {
  auto f32 = [](double v) { return static_cast<double>(static_cast<float>(v)) == v; };
  auto integer = [](double v, double below) { return __builtin_nearbyint(v) == v && v < below && -v < below; };
  return f32(multiplier) && f32(lo) && f32(hi) && integer(y_zero, 0x1p24) && integer(bias, limit);
}

double scalar(double sum, double bias, double multiplier, double y_zero, double lo, double hi) {
  double v = __builtin_nearbyint((sum + bias) * multiplier) + y_zero;
  v = v < lo ? lo : v;
  return hi < v ? hi : v;
}

}  // namespace

void requantize(const int32_t* acc, int64_t n, int64_t correction, double bias, double multiplier, double y_zero, double lo,
                double hi, float* y) {
  const double c = static_cast<double>(correction);
  const __m512d vc = _mm512_set1_pd(c);
  const Wide wide(bias, multiplier, y_zero, lo, hi);
  auto sums8 = [&](int64_t j) { return _mm512_sub_pd(_mm512_cvtepi32_pd(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + j))), vc); };
  int64_t j = 0;
  if (narrow(bias, multiplier, y_zero, lo, hi, 0x1p30)) {
    // acc - correction is the exact sum, which fits int32 (igemm.h), so the wrapping int32
    // subtraction gives it; |sum| < 2^24 and |bias| < 2^30 keep sum + bias exact in int32.
    const Narrow f(multiplier, y_zero, lo, hi);
    const __m512i vcorr = _mm512_set1_epi32(static_cast<int32_t>(static_cast<uint32_t>(correction)));
    const __m512i vbias = _mm512_set1_epi32(static_cast<int32_t>(bias)), limit = _mm512_set1_epi32(1 << 24);
    for (; j + 16 <= n; j += 16) {
      const __m512i sum = _mm512_sub_epi32(_mm512_loadu_si512(acc + j), vcorr);
      const __m512i t = _mm512_add_epi32(sum, vbias);
      const __mmask16 ok = _mm512_cmplt_epu32_mask(_mm512_abs_epi32(sum), limit) & _mm512_cmplt_epu32_mask(_mm512_abs_epi32(t), limit);
      if (f(_mm512_cvtepi32_ps(t), ok, y + j)) continue;
      wide(sums8(j), y + j);
      wide(sums8(j + 8), y + j + 8);
    }
  }
  for (; j + 8 <= n; j += 8) wide(sums8(j), y + j);
  for (; j < n; ++j) y[j] = static_cast<float>(scalar(static_cast<double>(acc[j]) - c, bias, multiplier, y_zero, lo, hi));
}

void requantize_f32(const float* sums, int64_t n, double bias, double multiplier, double y_zero, double lo, double hi, float* y) {
  const Wide wide(bias, multiplier, y_zero, lo, hi);
  auto sums8 = [&](int64_t j) { return _mm512_cvtps_pd(_mm256_loadu_ps(sums + j)); };
  int64_t j = 0;
  if (narrow(bias, multiplier, y_zero, lo, hi, 0x1p23)) {
    // Sums below 2^23 (integers in float32, checked per lane; NaN fails) plus a bias below 2^23
    // stay below 2^24: the float32 addition is exact.
    const Narrow f(multiplier, y_zero, lo, hi);
    const __m512 vbias = _mm512_set1_ps(static_cast<float>(bias)), limit = _mm512_set1_ps(0x1p23f);
    for (; j + 16 <= n; j += 16) {
      const __m512 sum = _mm512_loadu_ps(sums + j);
      const __mmask16 ok = _mm512_cmp_ps_mask(_mm512_abs_ps(sum), limit, _CMP_LT_OQ);
      if (f(_mm512_add_ps(sum, vbias), ok, y + j)) continue;
      wide(sums8(j), y + j);  // y may be sums: the first 8 are read before they are overwritten
      wide(sums8(j + 8), y + j + 8);
    }
  }
  for (; j + 8 <= n; j += 8) wide(sums8(j), y + j);
  for (; j < n; ++j) y[j] = static_cast<float>(scalar(static_cast<double>(sums[j]), bias, multiplier, y_zero, lo, hi));
}

}  // namespace nnbridge::cpu_ref::igemm_avx512vnni
