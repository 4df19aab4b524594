// igemm (igemm.h) on AVX-512 VNNI: this object alone is compiled with -mavx512f -mavx512bw
// -mavx512vnni and -fno-weak (cpu_ref/CMakeLists.txt), and is called only after
// igemm_available() has checked the CPU. It uses raw pointers only, so no inline function of a
// header is instantiated here with those flags.
#include <immintrin.h>

#include <cstdint>

namespace nnbridge::cpu_ref::igemm_avx512vnni {

namespace {

constexpr int64_t kRows = 6;  // igemm.h: kIgemmRows

// acc += four u8 x s8 products per int32 lane: columns j..j+15 of B's quad against row r's quad.
inline void dot(__m512i& lo, __m512i& hi, __m512i b0, __m512i b1, int32_t quad) {
  const __m512i s = _mm512_set1_epi32(quad);
  lo = _mm512_dpbusd_epi32(lo, b0, s);
  hi = _mm512_dpbusd_epi32(hi, b1, s);
}

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

// Rows [0, R) of one row block of A times 32 columns of B (quads [kq][columns][4], starting at
// this tile's first column), into C.
template <int R, class A>
void tile(A a, const uint8_t* b, int64_t columns, int64_t kq, int32_t* c, int64_t ldc) {
  const __m512i z = _mm512_setzero_si512();
  __m512i c00 = z, c01 = z, c10 = z, c11 = z, c20 = z, c21 = z, c30 = z, c31 = z, c40 = z, c41 = z, c50 = z, c51 = z;
  const int64_t stride = columns * 4;
  for (int64_t q = 0; q < kq; ++q, b += stride) {
    const __m512i b0 = _mm512_loadu_si512(b), b1 = _mm512_loadu_si512(b + 64);
    dot(c00, c01, b0, b1, a(q, 0));
    if constexpr (R > 1) dot(c10, c11, b0, b1, a(q, 1));
    if constexpr (R > 2) dot(c20, c21, b0, b1, a(q, 2));
    if constexpr (R > 3) dot(c30, c31, b0, b1, a(q, 3));
    if constexpr (R > 4) dot(c40, c41, b0, b1, a(q, 4));
    if constexpr (R > 5) dot(c50, c51, b0, b1, a(q, 5));
  }
  auto store = [&](int64_t r, __m512i lo, __m512i hi) {
    _mm512_storeu_si512(c + r * ldc, lo);
    _mm512_storeu_si512(c + r * ldc + 16, hi);
  };
  store(0, c00, c01);
  if constexpr (R > 1) store(1, c10, c11);
  if constexpr (R > 2) store(2, c20, c21);
  if constexpr (R > 3) store(3, c30, c31);
  if constexpr (R > 4) store(4, c40, c41);
  if constexpr (R > 5) store(5, c50, c51);
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

namespace {

// Every tile of C: row blocks of A (`block(i)` gives block i / kRows's accessor) times 32-column
// tiles of B.
template <class Block>
void tiles(Block block, int64_t m, int64_t kq, const uint8_t* b, int64_t columns, int32_t* c, int64_t ldc) {
  for (int64_t j = 0; j < columns; j += 32)
    for (int64_t i = 0; i < m; i += kRows) {
      const auto a = block(i);
      const uint8_t* bt = b + j * 4;
      int32_t* ct = c + i * ldc + j;
      switch (m - i < kRows ? m - i : kRows) {
        case 6: tile<6>(a, bt, columns, kq, ct, ldc); break;
        case 5: tile<5>(a, bt, columns, kq, ct, ldc); break;
        case 4: tile<4>(a, bt, columns, kq, ct, ldc); break;
        case 3: tile<3>(a, bt, columns, kq, ct, ldc); break;
        case 2: tile<2>(a, bt, columns, kq, ct, ldc); break;
        default: tile<1>(a, bt, columns, kq, ct, ldc); break;
      }
    }
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

// QLinearConv's requantization (simd::Kernels::requantize's operations in its order) of n sums:
// wide(j) gives sums j .. j+7 as doubles, one(j) sum j; y[j] = clamp(round_half_even((sum +
// bias) * multiplier) + y_zero, lo, hi), stored as float.
template <class Wide, class One>
void requantize_sums(Wide wide, One one, int64_t n, double bias, double multiplier, double y_zero, double lo, double hi, float* y) {
  const __m512d vb = _mm512_set1_pd(bias), vm = _mm512_set1_pd(multiplier), vz = _mm512_set1_pd(y_zero);
  const __m512d vlo = _mm512_set1_pd(lo), vhi = _mm512_set1_pd(hi);
  int64_t j = 0;
  for (; j + 8 <= n; j += 8) {
    __m512d v = _mm512_mul_pd(_mm512_add_pd(wide(j), vb), vm);
    v = _mm512_add_pd(_mm512_roundscale_pd(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), vz);
    v = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(v, vlo, _CMP_LT_OQ), v, vlo);  // std::clamp's order: a NaN stays
    v = _mm512_mask_blend_pd(_mm512_cmp_pd_mask(vhi, v, _CMP_LT_OQ), v, vhi);
    _mm256_storeu_ps(y + j, _mm512_cvtpd_ps(v));
  }
  for (; j < n; ++j) {
    double v = __builtin_nearbyint((one(j) + bias) * multiplier) + y_zero;
    v = v < lo ? lo : v;
    y[j] = static_cast<float>(hi < v ? hi : v);
  }
}

}  // namespace

void requantize(const int32_t* acc, int64_t n, int64_t correction, double bias, double multiplier, double y_zero, double lo,
                double hi, float* y) {
  const double c = static_cast<double>(correction);
  const __m512d vc = _mm512_set1_pd(c);
  requantize_sums([&](int64_t j) { return _mm512_sub_pd(_mm512_cvtepi32_pd(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(acc + j))), vc); },
                  [&](int64_t j) { return static_cast<double>(acc[j]) - c; }, n, bias, multiplier, y_zero, lo, hi, y);
}

void requantize_f32(const float* sums, int64_t n, double bias, double multiplier, double y_zero, double lo, double hi, float* y) {
  requantize_sums([&](int64_t j) { return _mm512_cvtps_pd(_mm256_loadu_ps(sums + j)); },
                  [&](int64_t j) { return static_cast<double>(sums[j]); }, n, bias, multiplier, y_zero, lo, hi, y);
}

}  // namespace nnbridge::cpu_ref::igemm_avx512vnni
