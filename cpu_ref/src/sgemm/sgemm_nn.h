// The AVX-512 build's own kernel for sgemm without transposes (sgemm_nn_avx512f.cc): Eigen's
// GEMM copies both operands into its panel layouts on every call, which on the convolutions'
// products cost about a third of its time; this kernel reads A and B where they lie.
#pragma once

#include <cstdint>

#include "sgemm.h"

namespace nnbridge::cpu_ref::sgemm_avx512f {

/// Whether run_nn() takes this product: no transposes, k >= 1 and n >= 16 (narrower products,
/// matrix-vector ones among them, fill too few of a vector's 16 lanes and stay with Eigen).
inline bool takes_nn(const SgemmArgs& p) { return !p.trans_a && !p.trans_b && p.k >= 1 && p.n >= 16 && p.m >= 1; }

/// C = A * B (+ bias_n[j]) (+ bias_m[i]) as sgemm() documents, for takes_nn() products; every
/// C[i][j] is the fused multiply-add chain over k = 0 .. K - 1 in ascending order from 0, then
/// the biases, each a separate rounding, then the clamp (so the result does not depend on blocking
/// or threads).
/// B by rows (SgemmArgs::b_rows) when given. Requires AVX-512F and FMA.
void run_nn(const SgemmArgs& p);

}  // namespace nnbridge::cpu_ref::sgemm_avx512f
