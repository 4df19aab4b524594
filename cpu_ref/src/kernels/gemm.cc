// Gemm Y = alpha * A' * B' + beta * C (ONNX Gemm-13) and MatMul (numpy matmul), with sgemm
// (Eigen's GEMM per instruction set, ../sgemm/sgemm.h), one thread per call: large products are
// split into row blocks, or column blocks when Y has more columns than rows (FullyConnected on
// a few images), and the blocks computed on ctx.threads threads.
//
// Arm NN FullyConnected extension (core Gemm schema, sdk/core/src/ops/): A of rank > 2 is read as
// 2-D [numel / K, K], K taken from B (K = B's dim 1 when transB, else dim 0).
#include <algorithm>

#include "../kernel.h"
#include "../sgemm/sgemm.h"
#include "nnbridge/exec/gemm.h"

namespace nnbridge::cpu_ref {

namespace {

// Y [M, N] (row-major, dense) = op(A) * op(B), A stored [a_rows, a_cols] and B [b_rows, b_cols]
// row-major, in blocks across threads. Splits the larger of M and N: each block packs all of
// the other operand.
void product(int threads, bool ta, bool tb, const float* A, int64_t a_cols, const float* B, int64_t b_cols, float* Y,
             int64_t M, int64_t N, int64_t K) {
  SgemmArgs p;
  p.k = K, p.a = A, p.lda = a_cols, p.trans_a = ta, p.b = B, p.ldb = b_cols, p.trans_b = tb, p.ldc = N;
  const int64_t parts = std::min<int64_t>(threads, M * N * K >> 19);
  if (parts <= 1) {
    p.m = M, p.n = N, p.c = Y;
    sgemm(p);
    return;
  }
  if (M >= N) {
    parallel_ranges(static_cast<int>(parts), M, std::max<int64_t>(1, M / parts), [&](int64_t r0, int64_t r1) {
      SgemmArgs q = p;
      q.m = r1 - r0, q.n = N, q.c = Y + r0 * N;
      q.a = ta ? A + r0 : A + r0 * a_cols;  // rows r0.. of op(A): columns of a stored-transposed A
      sgemm(q);
    });
  } else {
    parallel_ranges(static_cast<int>(parts), N, std::max<int64_t>(1, N / parts), [&](int64_t c0, int64_t c1) {
      SgemmArgs q = p;
      q.m = M, q.n = c1 - c0, q.c = Y + c0;
      q.b = tb ? B + c0 * b_cols : B + c0;  // columns c0.. of op(B): rows of a stored-transposed B
      sgemm(q);
    });
  }
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
    float* Y = out[0];
    product(threads, ta, tb, in[0], as1, in[1], bs[1], Y, M, N, ta ? as0 : as1);
    if (alpha != 1.0f)
      for (int64_t i = 0; i < M * N; ++i) Y[i] *= alpha;
    if (has_c)
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j)
          Y[i * N + j] += beta * in[2][(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)] * (bscale.empty() ? 1.0f : bscale[j]);
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
  if ((tb ? b[b.size() - 1] : b[b.size() - 2]) != K) ctx.invalid(ErrorId::Shape, "A and B disagree on K");
  const std::size_t r = o.size();
  if (r < 2) ctx.invalid(ErrorId::Shape, "output rank < 2");
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
      product(by_batch ? 1 : threads, ta, tb, in[0] + ia * a0 * a1, a1, in[1] + ib * b0 * b1, b1, out[0] + i * M * N, M, N, K);
    });
  };
}

}  // namespace

void add_gemm_kernels(KernelTable& t) {
  t["Gemm"] = make_gemm;
  t["MatMul"] = make_matmul;
}

}  // namespace nnbridge::cpu_ref
