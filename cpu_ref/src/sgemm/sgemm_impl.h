// The body of sgemm (sgemm.h) for one instruction set: included by each sgemm_<isa>.cc, which
// defines it under its own name. Compiled with -fno-weak in the AVX builds (cpu_ref/CMakeLists.txt)
// so that every Eigen function instantiated here stays local to that object: the linker can
// then never hand a baseline caller a copy compiled for AVX.
#pragma once

#include <Eigen/Core>
#include <algorithm>

#include "sgemm.h"

namespace nnbridge::cpu_ref::sgemm_detail {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using Stride = Eigen::OuterStride<>;
using ConstMap = Eigen::Map<const RowMat, 0, Stride>;
using OutMap = Eigen::Map<RowMat, 0, Stride>;

template <class EA, class EB>
inline void product(const EA& A, const EB& B, OutMap& C) {
  C.noalias() = A * B;
}

inline void run(const SgemmArgs& p) {
  OutMap C(p.c, p.m, p.n, Stride(p.ldc));
  if (p.k == 0) {
    C.setZero();
  } else {
    // Stored shapes: A [m][k] or [k][m]; B [k][n] or [n][k].
    ConstMap A(p.a, p.trans_a ? p.k : p.m, p.trans_a ? p.m : p.k, Stride(p.lda));
    ConstMap B(p.b, p.trans_b ? p.n : p.k, p.trans_b ? p.k : p.n, Stride(p.ldb));
    if (p.trans_a && p.trans_b) product(A.transpose(), B.transpose(), C);
    else if (p.trans_a) product(A.transpose(), B, C);
    else if (p.trans_b) product(A, B.transpose(), C);
    else product(A, B, C);
  }
  // Row by row (C is row-major: Eigen's colwise() would walk it with a stride of ldc).
  if (p.bias_n)
    for (int64_t i = 0; i < p.m; ++i) C.row(i) += Eigen::Map<const Eigen::RowVectorXf>(p.bias_n, p.n);
  if (p.bias_m)
    for (int64_t i = 0; i < p.m; ++i) C.row(i).array() += p.bias_m[i];
  if (p.clamp)
    for (int64_t i = 0; i < p.m; ++i)
      for (int64_t j = 0; j < p.n; ++j) {
        float& c = p.c[i * p.ldc + j];
        c = std::min(p.clamp_hi, std::max(p.clamp_lo, c));
      }
}

}  // namespace nnbridge::cpu_ref::sgemm_detail
