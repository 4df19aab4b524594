// ONNX Gemm: Y[M, N] = alpha op(A) op(B) + beta C, C broadcast from [cm, cn] (cm in {1, M},
// cn in {1, N}) and scaled per column by cscale (Arm NN's implied bias scale; ones otherwise).
// One work item per output element. g: M N K transA transB has_c cm cn
__kernel void gemm(__global const float* a, __global const float* b, __global const float* cmat,
                   __global const float* cscale, __global float* y, __global const int* g, float alpha, float beta) {
  const int M = g[0], N = g[1], K = g[2], ta = g[3], tb = g[4], has_c = g[5], cm = g[6], cn = g[7];
  const int i = (int)get_global_id(0) / N, j = (int)get_global_id(0) % N;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += a[ta ? k * M + i : i * K + k] * b[tb ? j * K + k : k * N + j];
  acc *= alpha;
  if (has_c) acc += beta * cmat[(cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j)] * cscale[j];
  y[i * N + j] = acc;
}

// ONNX MatMul-13 (numpy.matmul) with Arm NN BatchMatMul's transA/transB: Y[..., M, N] =
// op(A)[..., M, K] op(B)[..., K, N], batch dims broadcast. One work item per output element.
// g: M N K transA transB nd, then the nd output batch dims, A's and B's batch strides in
// matrices (0 where that operand broadcasts).
__kernel void matmul(__global const float* a, __global const float* b, __global float* y, __global const int* g) {
  const int M = g[0], N = g[1], K = g[2], ta = g[3], tb = g[4], nd = g[5];
  const int id = (int)get_global_id(0);
  const int j = id % N, i = (id / N) % M;
  int rem = id / N / M, ia = 0, ib = 0;
  for (int d = nd - 1; d >= 0; --d) {
    const int idx = rem % g[6 + d];
    rem /= g[6 + d];
    ia += idx * g[6 + nd + d];
    ib += idx * g[6 + 2 * nd + d];
  }
  __global const float* am = a + ia * M * K;
  __global const float* bm = b + ib * K * N;
  float acc = 0.0f;
  for (int k = 0; k < K; ++k) acc += am[ta ? k * M + i : i * K + k] * bm[tb ? j * K + k : k * N + j];
  y[id] = acc;
}
