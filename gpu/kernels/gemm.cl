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
