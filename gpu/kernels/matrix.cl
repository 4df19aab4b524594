// Matrix kernels of the opencl backend (gpu/src/ops_matrix.cc; cpu_ref/src/kernels/matrix.cc):
// Trilu, EyeLike, Det, Einsum. Det and Einsum compute in acc_t (double where the device has it),
// as cpu computes in double.
#pragma OPENCL FP_CONTRACT OFF
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double acc_t;
#else
typedef float acc_t;
#endif

// Trilu (ONNX Trilu-14) per matrix of the last two dims [rows][cols]: keeps (i, j) with j - i >= k
// (upper) or <= k (lower). k is kb[0] when has_k, else 0, compared in acc_t as cpu compares in double.
__kernel void trilu(__global const float* x, __global const float* kb, __global float* y, int rows, int cols,
                    int has_k, int upper) {
  const int at = (int)get_global_id(0);
  const int j = at % cols, i = (at / cols) % rows;
  const acc_t k = has_k ? (acc_t)kb[0] : (acc_t)0;
  const acc_t diff = (acc_t)(j - i);
  y[at] = (upper ? diff >= k : diff <= k) ? x[at] : 0.0f;
}

// EyeLike (ONNX EyeLike-9): ones at (i, i + k) of [rows][cols]. The host passes k = cols when no
// column can match, so i + k stays small.
__kernel void eye_like(__global float* y, int cols, int k) {
  const int at = (int)get_global_id(0);
  const int j = at % cols, i = at / cols;
  y[at] = j == i + k ? 1.0f : 0.0f;
}

// Det (ONNX Det-11), one work item per m x m matrix: LU decomposition with partial pivoting (the
// largest magnitude in the column at or below the diagonal) in acc_t, in a's scratch matrix; the
// determinant of a 0 x 0 matrix is 1.
__kernel void det(__global const float* x, __global float* y, __global acc_t* scratch, int m) {
  const int k = (int)get_global_id(0);
  __global acc_t* a = scratch + k * m * m;
  for (int i = 0; i < m * m; ++i) a[i] = x[k * m * m + i];
  acc_t d = 1;
  for (int c = 0; c < m && d != 0; ++c) {
    int p = c;
    for (int r = c + 1; r < m; ++r)
      if (fabs(a[r * m + c]) > fabs(a[p * m + c])) p = r;
    if (a[p * m + c] == 0) {
      d = 0;
      break;
    }
    if (p != c) {
      for (int j = 0; j < m; ++j) {
        const acc_t t = a[p * m + j];
        a[p * m + j] = a[c * m + j];
        a[c * m + j] = t;
      }
      d = -d;
    }
    d *= a[c * m + c];
    for (int r = c + 1; r < m; ++r) {
      const acc_t f = a[r * m + c] / a[c * m + c];
      for (int j = c; j < m; ++j) a[r * m + j] -= f * a[c * m + j];
    }
  }
  y[k] = (float)d;
}

// Einsum (ONNX Einsum-12) of up to 4 operands, one work item per output element: the sum over
// every index of the summed labels of the product of the operands' elements, in acc_t. Each
// label steps each operand by a stride (0 where the operand lacks it or broadcasts it).
// m: n_in, n_out, n_sum, then for each output label: size, strides[4]; for each summed label:
// size, strides[4].
__kernel void einsum(__global const float* a0, __global const float* a1, __global const float* a2,
                     __global const float* a3, __global float* y, __global const int* m, int terms) {
  const int i = (int)get_global_id(0);
  const int n_in = m[0], n_out = m[1], n_sum = m[2];
  __global const int* ol = m + 3;
  __global const int* sl = m + 3 + 5 * n_out;
  int base[4] = {0, 0, 0, 0};
  int rem = i;
  for (int d = n_out - 1; d >= 0; --d) {
    const int c = rem % ol[5 * d];
    rem /= ol[5 * d];
    for (int k = 0; k < 4; ++k) base[k] += c * ol[5 * d + 1 + k];
  }
  acc_t acc = 0;
  for (int s = 0; s < terms; ++s) {
    int off[4] = {base[0], base[1], base[2], base[3]};
    int r = s;
    for (int d = n_sum - 1; d >= 0; --d) {
      const int c = r % sl[5 * d];
      r /= sl[5 * d];
      for (int k = 0; k < 4; ++k) off[k] += c * sl[5 * d + 1 + k];
    }
    acc_t p = 1;
    p *= a0[off[0]];
    if (n_in > 1) p *= a1[off[1]];
    if (n_in > 2) p *= a2[off[2]];
    if (n_in > 3) p *= a3[off[3]];
    acc += p;
  }
  y[i] = (float)acc;
}
