// Single-precision matrix product of the cpu backend's contractions (Conv, Gemm, MatMul), with
// its bias epilogue: Eigen's GEMM compiled once per x86 instruction set (baseline x86-64,
// AVX2 + FMA, AVX-512F + FMA; cpu_ref/CMakeLists.txt) and chosen at run time for this CPU.
//
// Rounding: the AVX2 and AVX-512 builds multiply-add with fused FMA instructions (one rounding
// per step instead of two) and the builds block the K sum alike, so results agree with the
// baseline build within the documented float32 tolerance but not bit for bit (docs/api.md,
// "Numerics of the cpu backend").
#pragma once

#include <cstdint>
#include <vector>

namespace nnbridge::cpu_ref {

/// C = op(A) * op(B) (+ bias), all row-major with row strides lda, ldb, ldc (in floats):
/// op(A) is [m][k] (A stored [m][k], or [k][m] when trans_a), op(B) is [k][n] (B stored [k][n],
/// or [n][k] when trans_b). C is overwritten; it must not overlap A or B. Then, when given,
/// bias_n[j] is added to every row's column j, bias_m[i] to every column of row i (after the
/// whole sum, as a separate rounding). Then, when `clamp` is set, every C[i][j] becomes
/// std::min(clamp_hi, std::max(clamp_lo, C[i][j])): the Relu (0, +inf) and Clip (its bounds)
/// epilogues of the convolutions, with the same bits as the simd Relu / Clip kernels (a NaN
/// becomes clamp_lo, as std::max(lo, NaN) gives). m, n >= 1; k >= 0 (k = 0 gives C = bias).
struct SgemmArgs {
  int64_t m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int64_t lda = 0;
  bool trans_a = false;
  const float* b = nullptr;
  int64_t ldb = 0;
  bool trans_b = false;
  float* c = nullptr;
  int64_t ldc = 0;
  const float* bias_n = nullptr;
  const float* bias_m = nullptr;
  bool clamp = false;
  float clamp_lo = 0, clamp_hi = 0;
  /// When set (only where sgemm_b_rows_available(), with no transposes and n >= 16), B's rows are
  /// given one by one: B[k][j] = b_rows[k][j], and `b` and `ldb` are not read. The NCHW
  /// convolutions use it to read their patches as shifted rows of a padded input (conv.cc,
  /// im2col.h) instead of copying each tap into an im2col matrix.
  const float* const* b_rows = nullptr;
  /// When c_grid_wp > 0 (only with b_rows; 1 <= c_grid_w <= c_grid_wp), C's n columns are a
  /// grid of rows of c_grid_wp columns of which only the first c_grid_w are kept: column j of
  /// row i is stored at c[i * ldc + j - (j / wp) * (wp - w)] when j % wp < w, and not at all
  /// otherwise. The shifted-rows convolutions (conv.cc) so write their outputs straight into
  /// Y's planes, without the grid's extra columns.
  int64_t c_grid_wp = 0, c_grid_w = 0;
};

/// Runs on the calling thread (callers split large products into blocks across threads).
/// Throws Error(Feature) for b_rows where sgemm_b_rows_available() is false, Error(Invalid) for
/// b_rows with a transpose, k < 1 or n < 16, and for c_grid_wp without b_rows or with c_grid_w
/// outside [1, c_grid_wp].
void sgemm(const SgemmArgs& args);

/// Whether sgemm() takes SgemmArgs::b_rows: the AVX-512 build runs (sgemm_arch() "avx512f").
bool sgemm_b_rows_available();

/// The instruction set sgemm runs on: "avx512f", "avx2" (both with FMA) or "baseline". The
/// environment variable NNBRIDGE_CPU_SIMD, read by the vector kernels too, caps it: "sse2" or
/// "sse4.2" give the baseline build, "avx2" the AVX2 one (when this CPU runs it).
const char* sgemm_arch();

/// One build of sgemm (tests run each one this CPU runs, best first; the baseline is last).
struct SgemmBuild {
  const char* name;
  void (*run)(const SgemmArgs& args);
};
std::vector<SgemmBuild> runnable_sgemms();

}  // namespace nnbridge::cpu_ref
