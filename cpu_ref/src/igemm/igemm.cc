// igemm's packing of A, its run-time choice and the calls into the AVX-512 VNNI object
// (igemm_avx512vnni.cc, built with GCC on x86-64: cpu_ref/CMakeLists.txt).
#include "igemm.h"

#include "../isa_cap.h"
#include "nnbridge/error.h"

#include <cstdlib>
#include <cstring>

namespace nnbridge::cpu_ref {

#if defined(NNBRIDGE_IGEMM_X86)
namespace igemm_avx512vnni {
void pack_b(const float* b, int64_t k, int64_t n, int64_t ldb, float add, int64_t columns, uint8_t* out);
void stage_row(const float* src, int64_t stride, int64_t count, float add, uint8_t* dst);
void pack_b_runs(const uint8_t* base, const int64_t* offsets, int64_t k, int64_t rows, int64_t ow, int64_t row_stride,
                 int64_t columns, uint8_t* out);
void run(const int32_t* quads, int64_t m, int64_t kq, const uint8_t* b, int64_t columns, int32_t* c, int64_t ldc);
void run_rows(const int8_t* a, int64_t lda, int64_t m, int64_t kq, const uint8_t* b, int64_t columns, int32_t* c, int64_t ldc);
void row_sums(const int8_t* a, int64_t m, int64_t k, int64_t lda, int64_t* out);
void to_double(const int32_t* acc, int64_t n, int64_t correction, double* out);
void requantize(const int32_t* acc, int64_t n, int64_t correction, double bias, double multiplier, double y_zero, double lo,
                double hi, float* y);
void requantize_f32(const float* sums, int64_t n, double bias, double multiplier, double y_zero, double lo, double hi, float* y);
}  // namespace igemm_avx512vnni
#endif

namespace {

#if !defined(NNBRIDGE_IGEMM_X86)
// A caller that skipped igemm_available(): a clear error, not an abort.
[[noreturn]] void unavailable() {
  throw Error(ErrorId::Feature, "the int8 GEMM (igemm) is not built for this compiler or CPU; check igemm_available() first");
}
#endif

bool detect() {
#if defined(NNBRIDGE_IGEMM_X86)
  const IsaCap cap = isa_cap();
  if (cap == IsaCap::Sse2 || cap == IsaCap::Sse4_2 || cap == IsaCap::Avx2) return false;
  __builtin_cpu_init();  // GCC's check includes the OS saving the AVX-512 state (XGETBV)
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512vnni");
#else
  return false;
#endif
}

}  // namespace

bool igemm_available() {
  static const bool on = detect();
  return on;
}

int64_t igemm_columns(int64_t n) { return (n + kIgemmColumns - 1) / kIgemmColumns * kIgemmColumns; }

std::size_t igemm_b_bytes(int64_t k, int64_t n) { return static_cast<std::size_t>((k + 3) / 4 * igemm_columns(n) * 4); }

IgemmA igemm_pack_a(const int8_t* a, int64_t m, int64_t k, int64_t lda) {
  IgemmA p;
  p.m = m, p.k = k;
  const int64_t kq = (k + 3) / 4, blocks = (m + kIgemmRows - 1) / kIgemmRows, whole = k / 4;
  p.quads.assign(static_cast<std::size_t>(blocks * kq * kIgemmRows), 0);
  p.row_sum.assign(static_cast<std::size_t>(m), 0);
  for (int64_t i = 0; i < m; ++i) {
    const int8_t* row = a + i * lda;
    int32_t* dst = p.quads.data() + (i / kIgemmRows) * kq * kIgemmRows + i % kIgemmRows;
    for (int64_t q = 0; q < whole; ++q) std::memcpy(dst + q * kIgemmRows, row + 4 * q, 4);
    if (whole < kq) {
      int8_t v[4] = {0, 0, 0, 0};
      std::memcpy(v, row + 4 * whole, static_cast<std::size_t>(k - 4 * whole));
      std::memcpy(dst + whole * kIgemmRows, v, 4);
    }
    int64_t sum = 0;
    for (int64_t kk = 0; kk < k; ++kk) sum += row[kk];
    p.row_sum[static_cast<std::size_t>(i)] = sum;
  }
  return p;
}

IgemmA igemm_view_a(const int8_t* a, int64_t m, int64_t k, int64_t lda) {
  if (k % 4 != 0 || k > kIgemmMaxK) throw Error(ErrorId::InvalidOther, "igemm_view_a: k must be a multiple of 4 and at most kIgemmMaxK");
  IgemmA p;
  p.m = m, p.k = k, p.rows = a, p.lda = lda;
  p.row_sum.assign(static_cast<std::size_t>(m), 0);
#if defined(NNBRIDGE_IGEMM_X86)
  if (igemm_available()) {
    igemm_avx512vnni::row_sums(a, m, k, lda, p.row_sum.data());
    return p;
  }
#endif
  for (int64_t i = 0; i < m; ++i) {
    int64_t sum = 0;
    for (int64_t kk = 0; kk < k; ++kk) sum += a[i * lda + kk];
    p.row_sum[static_cast<std::size_t>(i)] = sum;
  }
  return p;
}

void igemm_pack_b(const float* b, int64_t k, int64_t n, int64_t ldb, float add, uint8_t* out) {
#if defined(NNBRIDGE_IGEMM_X86)
  igemm_avx512vnni::pack_b(b, k, n, ldb, add, igemm_columns(n), out);
#else
  (void)b, (void)k, (void)n, (void)ldb, (void)add, (void)out;
  unavailable();
#endif
}

void igemm_stage_row(const float* src, int64_t stride, int64_t count, float add, uint8_t* dst) {
#if defined(NNBRIDGE_IGEMM_X86)
  igemm_avx512vnni::stage_row(src, stride, count, add, dst);
#else
  (void)src, (void)stride, (void)count, (void)add, (void)dst;
  unavailable();
#endif
}

void igemm_pack_b_runs(const uint8_t* base, const int64_t* offsets, int64_t k, int64_t rows, int64_t ow, int64_t row_stride,
                       uint8_t* out) {
#if defined(NNBRIDGE_IGEMM_X86)
  igemm_avx512vnni::pack_b_runs(base, offsets, k, rows, ow, row_stride, igemm_columns(rows * ow), out);
#else
  (void)base, (void)offsets, (void)k, (void)rows, (void)ow, (void)row_stride, (void)out;
  unavailable();
#endif
}

void igemm(const IgemmA& a, const uint8_t* b, int64_t n, int32_t* c, int64_t ldc) {
#if defined(NNBRIDGE_IGEMM_X86)
  if (a.rows) igemm_avx512vnni::run_rows(a.rows, a.lda, a.m, a.k / 4, b, igemm_columns(n), c, ldc);
  else igemm_avx512vnni::run(a.quads.data(), a.m, (a.k + 3) / 4, b, igemm_columns(n), c, ldc);
#else
  (void)a, (void)b, (void)n, (void)c, (void)ldc;
  unavailable();
#endif
}

void igemm_to_double(const int32_t* acc, int64_t n, int64_t correction, double* out) {
#if defined(NNBRIDGE_IGEMM_X86)
  igemm_avx512vnni::to_double(acc, n, correction, out);
#else
  (void)acc, (void)n, (void)correction, (void)out;
  unavailable();
#endif
}

void igemm_requantize(const int32_t* acc, int64_t n, int64_t correction, const IgemmRequantize& r, float* y) {
#if defined(NNBRIDGE_IGEMM_X86)
  igemm_avx512vnni::requantize(acc, n, correction, r.bias, r.multiplier, r.y_zero, r.lo, r.hi, y);
#else
  (void)acc, (void)n, (void)correction, (void)r, (void)y;
  unavailable();
#endif
}

void igemm_requantize_f32(const float* sums, int64_t n, const IgemmRequantize& r, float* y) {
#if defined(NNBRIDGE_IGEMM_X86)
  igemm_avx512vnni::requantize_f32(sums, n, r.bias, r.multiplier, r.y_zero, r.lo, r.hi, y);
#else
  (void)sums, (void)n, (void)r, (void)y;
  unavailable();
#endif
}

}  // namespace nnbridge::cpu_ref
