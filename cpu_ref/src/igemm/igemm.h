// Exact int8 matrix product of the integer convolutions (ConvInteger-10, QLinearConv-10 on 2-D
// NCHW images: kernels/integer_conv.cc): C = A * B with A int8 (the weights minus their
// zero point, packed once at prepare), B uint8 (the patches, packed per block of output rows),
// C int32. On AVX-512 VNNI, whose VPDPBUSD adds four u8 x s8 products into each int32 lane
// (Intel SDM, "VPDPBUSD"), 64 multiply-adds per instruction against float32 FMA's 16; the sums
// are integers, so the result is exact and does not depend on the order of the additions.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nnbridge::cpu_ref {

/// Rows of A per micro-tile (one broadcast each), and the multiple of columns B is padded to:
/// micro-tiles are 64 columns (four vectors of 16 int32 lanes; 24 accumulators for 6 rows), the
/// last one 32 when that is what is left.
constexpr int64_t kIgemmRows = 6;
constexpr int64_t kIgemmColumns = 32;
/// The largest k whose sums fit int32 for any int8 A and uint8 B: k * 128 * 255 < 2^31.
constexpr int64_t kIgemmMaxK = 65792;

/// A [m][k] int8 matrix for igemm(), in one of two forms:
/// - packed: rows in blocks of kIgemmRows (the last padded with zero rows), k in quads of 4
///   consecutive values (the last padded with zeros), one int32 per quad;
/// - in place: A's own rows, read where they lie, 4 bytes at a time (k a multiple of 4), so the
///   weights are neither copied nor faulted in twice at prepare.
struct IgemmA {
  int64_t m = 0, k = 0;
  std::vector<int32_t> quads;    ///< packed: [ceil(m / kIgemmRows)][ceil(k / 4)][kIgemmRows]; empty in place
  const int8_t* rows = nullptr;  ///< in place: A[i][kk] = rows[i * lda + kk]; null when packed
  int64_t lda = 0;
  std::vector<int64_t> row_sum;  ///< per row i: the sum over k of A[i][k]
};

/// Packs A[i][kk] = a[i * lda + kk], i < m, kk < k.
IgemmA igemm_pack_a(const int8_t* a, int64_t m, int64_t k, int64_t lda);
/// A[i][kk] = a[i * lda + kk] in place (only row_sum is made); k must be a multiple of 4 and at
/// most kIgemmMaxK (Error(Invalid) otherwise), and `a` must outlive every igemm() call on the result.
IgemmA igemm_view_a(const int8_t* a, int64_t m, int64_t k, int64_t lda);

/// Whether igemm_pack_b() and igemm() run here: the CPU has AVX-512 F, BW, VL and VNNI, the OS saves
/// their registers, the build has the kernel (GCC on x86-64), and NNBRIDGE_CPU_SIMD does not cap
/// the instruction sets below AVX-512 (simd.h). Everything else uses the float32 path.
bool igemm_available();

/// n rounded up to kIgemmColumns: the columns igemm_pack_b() writes and igemm() computes.
int64_t igemm_columns(int64_t n);
/// Bytes igemm_pack_b() writes for a [k][n] B: ceil(k / 4) * igemm_columns(n) * 4.
std::size_t igemm_b_bytes(int64_t k, int64_t n);

/// B[kk][j] = b[kk * ldb + j] + add (floats holding integers), clamped to [0, 255], as uint8 quads
/// [ceil(k / 4)][igemm_columns(n)][4]: out[(q * columns + j) * 4 + r] = B[4q + r][j]; rows past k
/// and columns past n are 0. Requires igemm_available() (a build without the kernel throws Error(Unsupported)).
void igemm_pack_b(const float* b, int64_t k, int64_t n, int64_t ldb, float add, uint8_t* out);

/// dst[u] = src[u * stride] + add, clamped to [0, 255], as uint8 (floats holding integers), for
/// u < count; stride >= 1. The rows of the staged input that igemm_pack_b_runs() reads
/// (im2col.h, pad_input_nchw_u8). Requires igemm_available() (else Error(Unsupported)).
void igemm_stage_row(const float* src, int64_t stride, int64_t count, float add, uint8_t* dst);

/// Bytes igemm_pack_b_runs() may read past the last byte of a run: the staged buffer's slack
/// (runs are read 16 bytes at a time; the bytes past a run are read, never used).
constexpr int64_t kIgemmRunSlack = 16;

/// igemm_pack_b()'s quads of a B held as runs of bytes, n = rows * ow columns: B[kk][r * ow + x]
/// = base[offsets[kk] + r * row_stride + x] for kk < k, r < rows, x < ow (the im2col matrix of a
/// convolution whose input was staged as bytes: im2col.h, shifted_offsets); rows past k and
/// columns past n are 0. Each run may be followed by up to kIgemmRunSlack readable bytes. No
/// arithmetic, so the same bytes as staging im2col's floats and igemm_pack_b(). Requires
/// igemm_available() (else Error(Unsupported)).
void igemm_pack_b_runs(const uint8_t* base, const int64_t* offsets, int64_t k, int64_t rows, int64_t ow, int64_t row_stride,
                       uint8_t* out);

/// C[i][j] = sum over kk < a.k of A[i][kk] * B[kk][j] for i < a.m, j < igemm_columns(n), written
/// as int32 to c[i * ldc + j] (ldc >= igemm_columns(n)); exact for a.k <= kIgemmMaxK. `b` is
/// igemm_pack_b()'s output for this k and n. Runs on the calling thread. Requires
/// igemm_available() (else Error(Unsupported)).
void igemm(const IgemmA& a, const uint8_t* b, int64_t n, int32_t* c, int64_t ldc);

/// out[j] = acc[j] - correction in double (exact: every int32 and the difference of an int32 and
/// an int64 below 2^53 are doubles), j < n: igemm()'s sums for the requantization. Requires
/// igemm_available() (else Error(Unsupported)).
void igemm_to_double(const int32_t* acc, int64_t n, int64_t correction, double* out);

/// QLinearConv's requantization (simd.h, Kernels::requantize; the same operations in the same
/// order, so the same bits) of igemm()'s sums minus a correction: y[j] = saturate(
/// round_half_even(((acc[j] - correction) + bias) * multiplier) + y_zero) to [lo, hi], in
/// double, j < n. Requires igemm_available() (a build without the kernel throws Error(Unsupported)).
struct IgemmRequantize {
  double bias = 0, multiplier = 1, y_zero = 0, lo = 0, hi = 0;
};
void igemm_requantize(const int32_t* acc, int64_t n, int64_t correction, const IgemmRequantize& r, float* y);

/// simd::Kernels::requantize on sums held as floats (integers, so exact as doubles), the same
/// operations in the same order, so the same bits: y[j] = saturate(round_half_even((sums[j] +
/// bias) * multiplier) + y_zero) to [lo, hi], in double, j < n; y may be sums (in place). For
/// kernels whose sums come out of the float32 paths (the depthwise convolution), without a pass
/// that widens them to double first. Requires igemm_available() (else Error(Unsupported)).
void igemm_requantize_f32(const float* sums, int64_t n, const IgemmRequantize& r, float* y);

}  // namespace nnbridge::cpu_ref
