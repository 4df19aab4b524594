// Gemm Y = alpha * A' * B' + beta * C (ONNX Gemm-13) and MatMul (numpy matmul), with Eigen.
// Eigen's product runs on one thread (its own threading needs OpenMP): large products are
// split into row blocks, or column blocks when Y has more columns than rows (FullyConnected on
// a few images), and the blocks computed on ctx.threads threads.
//
// Arm NN FullyConnected extension (core Gemm schema, sdk/core/src/ops/): A of rank > 2 is read as
// 2-D [numel / K, K], K taken from B (K = B's dim 1 when transB, else dim 0).
#include <Eigen/Core>

#include <algorithm>

#include "../kernel.h"
#include "nnbridge/exec/gemm.h"

namespace nnbridge::cpu_ref {

namespace {

using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Y = A * B (A, B: Eigen expressions, e.g. transposed maps) in blocks across threads.
template <class EA, class EB>
void product(int threads, const EA& A, const EB& B, Eigen::Map<RowMat>& Y) {
  const int64_t M = Y.rows(), N = Y.cols(), K = A.cols();
  const int64_t parts = std::min<int64_t>(threads, M * N * K >> 19);
  if (parts <= 1) {
    Y.noalias() = A * B;
    return;
  }
  // Split the larger of M and N: each block packs all of the other operand.
  if (M >= N) {
    parallel_ranges(static_cast<int>(parts), M, std::max<int64_t>(1, M / parts), [&](int64_t r0, int64_t r1) {
      Y.middleRows(r0, r1 - r0).noalias() = A.middleRows(r0, r1 - r0) * B;
    });
  } else {
    parallel_ranges(static_cast<int>(parts), N, std::max<int64_t>(1, N / parts), [&](int64_t c0, int64_t c1) {
      Y.middleCols(c0, c1 - c0).noalias() = A * B.middleCols(c0, c1 - c0);
    });
  }
}

// Y = op(A) * op(B) for the four transpose combinations.
void product(int threads, bool ta, bool tb, const Eigen::Map<const RowMat>& A, const Eigen::Map<const RowMat>& B,
             Eigen::Map<RowMat>& Y) {
  if (ta && tb) product(threads, A.transpose(), B.transpose(), Y);
  else if (ta) product(threads, A.transpose(), B, Y);
  else if (tb) product(threads, A, B.transpose(), Y);
  else product(threads, A, B, Y);
}

Kernel make_gemm(const KernelContext& ctx) {
  const exec::GemmParams p = exec::gemm_params(ctx);  // attributes and shape checks, shared with opencl
  const bool ta = p.trans_a, tb = p.trans_b, has_c = p.has_c;
  const float alpha = p.alpha, beta = p.beta;
  const int64_t M = p.M, N = p.N, cm = p.c_rows, cn = p.c_cols, as0 = p.a_rows, as1 = p.a_cols;
  const Shape bs = ctx.in[1].shape;
  const std::vector<float> bscale = p.c_scale;
  const int threads = ctx.threads;
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    Eigen::Map<const RowMat> A(in[0], as0, as1);
    Eigen::Map<const RowMat> B(in[1], bs[0], bs[1]);
    Eigen::Map<RowMat> Y(out[0], M, N);
    product(threads, ta, tb, A, B, Y);
    if (alpha != 1.0f) Y *= alpha;
    if (has_c)
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j)
          Y(i, j) += beta * in[2][(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)] * (bscale.empty() ? 1.0f : bscale[j]);
  };
}

// MatMul with optional transA/transB (Arm NN BatchMatMul); batch dims broadcast as numpy.
Kernel make_matmul(const KernelContext& ctx) {
  Shape a = ctx.in[0].shape, b = ctx.in[1].shape;
  const Shape& o = ctx.out[0].shape;
  const bool ta = ctx.attr_int("transA", 0) != 0, tb = ctx.attr_int("transB", 0) != 0;
  if (a.size() < 2 || b.size() < 2) ctx.unsupported("MatMul of 1-D operands is not implemented");
  const int64_t M = ta ? a[a.size() - 1] : a[a.size() - 2], K = ta ? a[a.size() - 2] : a[a.size() - 1];
  const int64_t N = tb ? b[b.size() - 2] : b[b.size() - 1];
  if ((tb ? b[b.size() - 1] : b[b.size() - 2]) != K) ctx.invalid("A and B disagree on K");
  const std::size_t r = o.size();
  if (r < 2) ctx.invalid("output rank < 2");
  Shape batch(o.begin(), o.end() - 2);
  // Batch strides of A and B in units of matrices, 0 where broadcast.
  auto bstrides = [&](const Shape& s) {
    Shape st(batch.size(), 0);
    int64_t acc = 1;
    for (std::size_t i = 0; i + 2 < s.size(); ++i) {
      std::size_t d = s.size() - 3 - i, od = batch.size() - 1 - i;
      if (s[d] != 1) st[od] = acc;
      acc *= s[d];
    }
    return st;
  };
  Shape sa = bstrides(a), sb = bstrides(b);
  const int64_t nb = numel(batch), a0 = a[a.size() - 2], a1 = a.back(), b0 = b[b.size() - 2], b1 = b.back();
  const int threads = ctx.threads;
  // Batches across threads when there are enough of them, else each product split.
  const bool by_batch = nb >= threads && nb * M * N * K >= (int64_t{1} << 20);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    parallel_for(by_batch ? threads : 1, nb, [&](int64_t i) {
      int64_t rem = i, ia = 0, ib = 0;
      for (std::size_t d = batch.size(); d-- > 0;) {
        int64_t idx = rem % batch[d];
        rem /= batch[d];
        ia += idx * sa[d], ib += idx * sb[d];
      }
      Eigen::Map<const RowMat> A(in[0] + ia * a0 * a1, a0, a1);
      Eigen::Map<const RowMat> B(in[1] + ib * b0 * b1, b0, b1);
      Eigen::Map<RowMat> Y(out[0] + i * M * N, M, N);
      product(by_batch ? 1 : threads, ta, tb, A, B, Y);
    });
  };
}

}  // namespace

void add_gemm_kernels(KernelTable& t) {
  t["Gemm"] = make_gemm;
  t["MatMul"] = make_matmul;
}

}  // namespace nnbridge::cpu_ref
