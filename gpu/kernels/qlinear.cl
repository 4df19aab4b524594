// ONNX ConvInteger-10, QLinearConv-10, MatMulInteger-10, QLinearMatMul-10 as
// cpu_ref/src/kernels/qlinear.cc computes them, one work item per output element: operands hold
// plain integers; zero points are subtracted in int, products summed in long (exact); the
// integer forms store the sum, the QLinear forms requantize it in req_t (double where the device
// has it, as cpu): saturate(rint(acc * scales / y_scale) + y_zero_point) to [lo, hi].
// A zero point / scale input of `count` values: 0 absent (zero), 1 per tensor, else per channel.
#pragma OPENCL FP_CONTRACT OFF
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double req_t;
#else
typedef float req_t;
#endif

float q_at(__global const float* p, int count, int k) { return count == 0 ? 0.0f : p[count == 1 ? 0 : k]; }

// Which value of a per-row (per-column) input row r of matrix `mat` uses.
int q_pick(int count, int per_matrix, int mat, int r) { return count <= 1 ? 0 : count == per_matrix ? r : mat * per_matrix + r; }

// NCDHW X, OIHW W (3 spatial dims; the host puts unit dims in front of fewer).
// g: N C M group qlinear xz_count wz_count ws_count b_count, in[3], on[3], k[3], strides[3],
// dilations[3], pads_begin[3].
__kernel void int_conv(__global const float* x, __global const float* w, __global const float* xzp,
                       __global const float* wzp, __global const float* xs, __global const float* wsc,
                       __global const float* ys, __global const float* yzp, __global const float* bias,
                       __global float* y, __global const int* g, float lo, float hi) {
  const int C = g[1], M = g[2], group = g[3], qlinear = g[4], xz_count = g[5], wz_count = g[6], ws_count = g[7];
  const int b_count = g[8];
  __global const int* in = g + 9;
  __global const int* on = g + 12;
  __global const int* k = g + 15;
  __global const int* s = g + 18;
  __global const int* d = g + 21;
  __global const int* p = g + 24;
  const int i = (int)get_global_id(0);
  int r = i;
  const int ox = r % on[2]; r /= on[2];
  const int oy = r % on[1]; r /= on[1];
  const int oz = r % on[0]; r /= on[0];
  const int m = r % M, n = r / M;
  const int cg = C / group, mg = M / group, c0 = (m / mg) * cg;
  const float xz = q_at(xzp, xz_count, 0), wz = q_at(wzp, wz_count, m);
  long acc = 0;
  for (int kz = 0; kz < k[0]; ++kz) {
    const int iz = oz * s[0] - p[0] + kz * d[0];
    if (iz < 0 || iz >= in[0]) continue;
    for (int ky = 0; ky < k[1]; ++ky) {
      const int iy = oy * s[1] - p[1] + ky * d[1];
      if (iy < 0 || iy >= in[1]) continue;
      for (int kx = 0; kx < k[2]; ++kx) {
        const int ix = ox * s[2] - p[2] + kx * d[2];
        if (ix < 0 || ix >= in[2]) continue;
        for (int ci = 0; ci < cg; ++ci) {
          const int wv = (int)(w[(((m * cg + ci) * k[0] + kz) * k[1] + ky) * k[2] + kx] - wz);
          const int xv = (int)(x[(((n * C + c0 + ci) * in[0] + iz) * in[1] + iy) * in[2] + ix] - xz);
          acc += (long)wv * (long)xv;
        }
      }
    }
  }
  if (!qlinear) {
    y[i] = (float)acc;
    return;
  }
  if (b_count) acc += (long)bias[m];
  const req_t v = rint((req_t)acc * (req_t)xs[0] * (req_t)q_at(wsc, ws_count, m) / (req_t)ys[0]) + (req_t)yzp[0];
  y[i] = (float)clamp(v, (req_t)lo, (req_t)hi);
}

// y [batch..., M, N] = A [..., M, K] x B [..., K, N], batches broadcast (numpy.matmul).
// g: M K N rank qlinear az as bz bs, then the output's batch dims, A's and B's batch strides (in matrices).
__kernel void int_matmul(__global const float* a, __global const float* b, __global const float* azp,
                         __global const float* bzp, __global const float* as, __global const float* bs,
                         __global const float* ys, __global const float* yzp, __global float* y,
                         __global const int* g, float lo, float hi) {
  const int M = g[0], K = g[1], N = g[2], rank = g[3], qlinear = g[4], az = g[5], asc = g[6], bz = g[7], bsc = g[8];
  __global const int* dims = g + 9;
  __global const int* sa = dims + rank;
  __global const int* sb = sa + rank;
  const int e = (int)get_global_id(0);
  const int j = e % N, i = (e / N) % M;
  int t = e / (M * N), ia = 0, ib = 0;
  for (int q = rank - 1; q >= 0; --q) {
    const int idx = t % dims[q];
    t /= dims[q];
    ia += idx * sa[q];
    ib += idx * sb[q];
  }
  const float a_zero = q_at(azp, az, q_pick(az, M, ia, i)), b_zero = q_at(bzp, bz, q_pick(bz, N, ib, j));
  long acc = 0;
  for (int k = 0; k < K; ++k) {
    const int av = (int)(a[(ia * M + i) * K + k] - a_zero);
    const int bv = (int)(b[(ib * K + k) * N + j] - b_zero);
    acc += (long)av * (long)bv;
  }
  if (!qlinear) {
    y[e] = (float)acc;
    return;
  }
  const req_t scale = (req_t)q_at(as, asc, q_pick(asc, M, ia, i)) * (req_t)q_at(bs, bsc, q_pick(bsc, N, ib, j));
  const req_t v = rint((req_t)acc * scale / (req_t)ys[0]) + (req_t)yzp[0];
  y[e] = (float)clamp(v, (req_t)lo, (req_t)hi);
}
