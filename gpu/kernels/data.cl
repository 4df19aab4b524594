// Data-movement and per-axis kernels of the opencl backend (gpu/src/ops_data.cc): one generic
// strided gather that Slice, Pad, Split, Tile, Expand, DepthToSpace and SpaceToDepth reduce to,
// the ops that walk one axis (CumSum, ArgMax/ArgMin, Hardmax), Range and Resize's passes. One
// work item per output element unless a kernel says otherwise. The formulas are cpu_ref's (the
// host code names each file); sums that cpu accumulates in double do so here where the device
// has doubles.
#pragma OPENCL FP_CONTRACT OFF
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double acc_t;
#else
typedef float acc_t;
#endif

// y[i] = x[base + sum_d j_d * stride_d]. m holds 6 ints per output dim d: size, start, step, len,
// stride, mode. Output coordinate c of dim d reads input coordinate j = start + c * step, which
// mode brings into [0, len): 0 none (always inside), 1 constant (outside: y[i] = fill), 2 edge
// (clamped), 3 reflect (mirrored about the edge elements), 4 symmetric (mirrored, edges
// repeated), 5 wrap (modulo len). An empty input dim (len 0) gives fill in every mode but 0.
__kernel void gather_strided(__global const float* x, __global float* y, int rank, __global const int* m, int base,
                             float fill) {
  const int i = (int)get_global_id(0);
  int rem = i, off = base;
  for (int d = rank - 1; d >= 0; --d) {
    __global const int* e = m + 6 * d;
    const int c = rem % e[0];
    rem /= e[0];
    long j = (long)e[1] + (long)c * e[2];
    const long len = e[3];
    const int mode = e[5];
    if (mode != 0 && (j < 0 || j >= len)) {
      if (mode == 1 || len == 0) {
        y[i] = fill;
        return;
      }
      if (mode == 2) {
        j = j < 0 ? 0 : len - 1;
      } else if (mode == 5) {
        j = ((j % len) + len) % len;
      } else {
        const long period = mode == 4 ? 2 * len : max(2 * len - 2, (long)1);
        j = ((j % period) + period) % period;
        if (j >= len) j = mode == 4 ? period - 1 - j : period - j;
      }
    }
    off += (int)j * e[4];
  }
  y[i] = x[off];
}

// CumSum (ONNX CumSum-14) of x viewed as [outer][dim][inner], one work item per (outer, inner)
// column: running sums in acc_t, exclusive leaving each element out of its own, reverse from the end.
__kernel void cum_sum(__global const float* x, __global float* y, int dim, int inner, int exclusive, int reverse) {
  const int col = (int)get_global_id(0);
  const int o = col / inner, k = col % inner;
  acc_t sum = 0;
  for (int s = 0; s < dim; ++s) {
    const int j = reverse ? dim - 1 - s : s;
    const int at = (o * dim + j) * inner + k;
    const float v = x[at];
    if (!exclusive) sum += v;
    y[at] = (float)sum;
    if (exclusive) sum += v;
  }
}

// ArgMax / ArgMin (ONNX ArgMax-13) of x viewed as [outer][dim][inner] into y [outer][inner]: the
// first index of the extreme, the last with select_last; comparisons as cpu's (a NaN never wins).
__kernel void arg_extreme(__global const float* x, __global float* y, int dim, int inner, int is_max, int last) {
  const int col = (int)get_global_id(0);
  const int o = col / inner, k = col % inner;
  __global const float* p = x + o * dim * inner + k;
  int best = 0;
  for (int i = 1; i < dim; ++i) {
    const float v = p[i * inner], b = p[best * inner];
    if (is_max ? (v > b || (last && v == b)) : (v < b || (last && v == b))) best = i;
  }
  y[col] = (float)best;
}

// Hardmax (ONNX Hardmax-13), one work item per column of x viewed as [outer][dim][inner]: 1 at the
// first largest element (a NaN counts as largest and stops the search), 0 elsewhere.
__kernel void hardmax(__global const float* x, __global float* y, int dim, int inner) {
  const int col = (int)get_global_id(0);
  const int o = col / inner, k = col % inner;
  const int base = o * dim * inner + k;
  int best = 0;
  for (int j = 1; j < dim && !isnan(x[base + best * inner]); ++j)
    if (isnan(x[base + j * inner]) || x[base + j * inner] > x[base + best * inner]) best = j;
  for (int j = 0; j < dim; ++j) y[base + j * inner] = j == best ? 1.0f : 0.0f;
}

// Range (ONNX Range-11): y[i] = start + i * delta, computed in acc_t as cpu computes in double.
__kernel void range(__global float* y, float start, float delta) {
  const int i = (int)get_global_id(0);
  y[i] = (float)((acc_t)start + (acc_t)i * (acc_t)delta);
}

// One pass of Resize (ONNX Resize-13, gpu/src/ops_resize.cc) along one dim of x viewed as
// [outer][in][inner] into y [outer][out][inner]: output index j takes n taps (idx[j * n + k],
// weight w_hi + w_lo, a double split in two floats), summed in acc_t and rounded to float as cpu
// rounds after each pass.
__kernel void resize_pass(__global const float* x, __global float* y, __global const int* idx,
                          __global const float* w_hi, __global const float* w_lo, int n, int in, int out, int inner) {
  const int i = (int)get_global_id(0);
  const int e = i % inner, j = (i / inner) % out, o = i / (inner * out);
  acc_t acc = 0;
  for (int k = 0; k < n; ++k) {
    const acc_t w = (acc_t)w_hi[j * n + k] + (acc_t)w_lo[j * n + k];
    acc += w * (acc_t)x[(o * in + idx[j * n + k]) * inner + e];
  }
  y[i] = (float)acc;
}

// tf_crop_and_resize: elements whose coordinate along any dim samples outside the input get
// `value`. m: rank, dims[rank], then per dim d an offset into the flags (-1: none outside).
__kernel void resize_extrapolate(__global float* y, __global const int* m, __global const int* flags, float value) {
  const int i = (int)get_global_id(0);
  const int rank = m[0];
  int rem = i;
  for (int d = rank - 1; d >= 0; --d) {
    const int c = rem % m[1 + d];
    rem /= m[1 + d];
    const int at = m[1 + rank + d];
    if (at >= 0 && flags[at + c]) {
      y[i] = value;
      return;
    }
  }
}
