// ONNX BatchNormalization (inference): y = (x - mean[c]) * (scale[c] / sqrt(var[c] + epsilon))
// + B[c], channel c = (i / inner) % channels (axis 1 for NCHW, the last for NHWC), in the
// order cpu and Arm NN CpuRef's BatchNormalization compute it.
__kernel void batchnorm(__global const float* x, __global const float* scale, __global const float* bias,
                        __global const float* mean, __global const float* var, __global float* y, int channels, int inner,
                        float epsilon) {
  const int i = (int)get_global_id(0);
  const int c = (i / inner) % channels;
  const float mul = scale[c] / sqrt(var[c] + epsilon);
  y[i] = (x[i] - mean[c]) * mul + bias[c];
}

// The kernels below keep cpu_ref's evaluation order exactly (no contraction into fma) and sum
// in acc_t: double where the device has it, as cpu sums in double.
#pragma OPENCL FP_CONTRACT OFF
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double acc_t;
#else
typedef float acc_t;
#endif

// LayerNormalization (ONNX LayerNormalization-17), one work item per row of n elements:
// (x - mean) / sqrt(var + epsilon) * scale + B with the population variance; scale and B hold
// one value (ns / nb 1) or one per element, B may be absent (nb 0). mean / inv_std get the row's
// mean and 1 / sqrt(var + epsilon) when outs > 1 / > 2 (cpu_ref/src/kernels/layer_norm.cc).
__kernel void layer_norm(__global const float* x, __global const float* scale, __global const float* b,
                         __global float* y, __global float* mean_out, __global float* inv_out, int n, int ns, int nb,
                         float epsilon, int outs) {
  const int r = (int)get_global_id(0);
  __global const float* xr = x + r * n;
  acc_t mean = 0, var = 0;
  for (int i = 0; i < n; ++i) mean += xr[i];
  mean /= (acc_t)n;
  for (int i = 0; i < n; ++i) var += (xr[i] - mean) * (xr[i] - mean);
  var /= (acc_t)n;
  const acc_t inv = (acc_t)1 / sqrt(var + (acc_t)epsilon);
  for (int i = 0; i < n; ++i) {
    acc_t v = (xr[i] - mean) * inv * scale[ns == 1 ? 0 : i];
    if (nb) v += b[nb == 1 ? 0 : i];
    y[r * n + i] = (float)v;
  }
  if (outs > 1) mean_out[r] = (float)mean;
  if (outs > 2) inv_out[r] = (float)inv;
}

// InstanceNormalization (ONNX InstanceNormalization-6), one work item per (n, c) of x viewed as
// [N][C][S] (NCHW) or [N][S][C] (NHWC): mean and variance in acc_t, then in float
// (x - mean) * inv * g + b with g, b from scale / B (has_sb) or the attributes gamma / beta
// (cpu_ref/src/kernels/normalization.cc).
__kernel void instance_norm(__global const float* x, __global const float* scale, __global const float* bias,
                            __global float* y, int C, int S, int nhwc, int has_scale, int has_b, float gamma, float beta,
                            float epsilon) {
  const int nc = (int)get_global_id(0);
  const int n = nc / C, c = nc % C;
  const int base = nhwc ? n * S * C + c : nc * S, step = nhwc ? C : 1;
  acc_t mean = 0, var = 0;
  for (int i = 0; i < S; ++i) mean += x[base + i * step];
  mean /= (acc_t)S;
  for (int i = 0; i < S; ++i) {
    const acc_t d = x[base + i * step] - mean;
    var += d * d;
  }
  var /= (acc_t)S;
  const float g = has_scale ? scale[c] : gamma, b = has_b ? bias[c] : beta;
  const float inv = (float)((acc_t)1 / sqrt(var + (acc_t)epsilon));
  const float m = (float)mean;
  for (int i = 0; i < S; ++i) y[base + i * step] = (x[base + i * step] - m) * inv * g + b;
}

// LRN (ONNX LRN-13) across channels of x viewed as [outer][C][inner]:
// x / (bias + alpha / size * sum x^2)^beta, the sum over channels [c - lo, c + hi].
__kernel void lrn(__global const float* x, __global float* y, int C, int inner, int size, int lo, int hi, float alpha,
                  float beta, float bias) {
  const int i = (int)get_global_id(0);
  const int e = i % inner, c = (i / inner) % C, o = i / (inner * C);
  float sum = 0.0f;
  for (int k = max(0, c - lo); k <= min(C - 1, c + hi); ++k) {
    const float v = x[(o * C + k) * inner + e];
    sum += v * v;
  }
  y[i] = x[i] / pow(bias + alpha / (float)size * sum, beta);
}

// MeanVarianceNormalization (ONNX MeanVarianceNormalization-13), one work item per group (an
// index of the kept dims): mean and population variance of the group's elements in C order, in
// acc_t, then (x - mean) / (sqrt(var) + 1e-9f) (cpu_ref/src/kernels/axis_ops.cc).
// meta: nk, kept dims[nk], their x strides[nk], nr, reduced dims[nr], their x strides[nr].
int mvn_offset(int base, int k, int nr, __global const int* rd, __global const int* rs) {
  int off = base;
  for (int d = nr - 1; d >= 0; --d) {
    off += (k % rd[d]) * rs[d];
    k /= rd[d];
  }
  return off;
}

__kernel void mvn(__global const float* x, __global float* y, __global const int* meta, int count) {
  const int g = (int)get_global_id(0);
  const int nk = meta[0];
  __global const int* kd = meta + 1;
  __global const int* ks = meta + 1 + nk;
  const int nr = meta[1 + 2 * nk];
  __global const int* rd = meta + 2 + 2 * nk;
  __global const int* rs = meta + 2 + 2 * nk + nr;
  int rem = g, base = 0;
  for (int d = nk - 1; d >= 0; --d) {
    base += (rem % kd[d]) * ks[d];
    rem /= kd[d];
  }
  acc_t mean = 0, var = 0;
  for (int k = 0; k < count; ++k) mean += x[mvn_offset(base, k, nr, rd, rs)];
  mean /= (acc_t)count;
  for (int k = 0; k < count; ++k) {
    const acc_t dv = x[mvn_offset(base, k, nr, rd, rs)] - mean;
    var += dv * dv;
  }
  var /= (acc_t)count;
  const acc_t eps = 1e-9f;
  for (int k = 0; k < count; ++k) {
    const int at = mvn_offset(base, k, nr, rd, rs);
    y[at] = (float)((x[at] - mean) / (sqrt(var) + eps));
  }
}

// LpNormalization with p = 2 (ONNX LpNormalization-1; Arm NN L2Normalization), one work item
// per (outer, inner) position: x / sqrt(max(sum of x^2 over the C elements inner apart,
// epsilon)), summed in float in index order as cpu_ref/src/kernels/normalization.cc make_lpnorm.
__kernel void lp_norm2(__global const float* x, __global float* y, int C, int inner, float epsilon) {
  const int p = (int)get_global_id(0);
  const int o = p / inner, e = p % inner;
  __global const float* xr = x + o * C * inner + e;
  float sum = 0.0f;
  for (int c = 0; c < C; ++c) sum += xr[c * inner] * xr[c * inner];
  const float inv = 1.0f / sqrt(max(sum, epsilon));
  for (int c = 0; c < C; ++c) y[o * C * inner + e + c * inner] = xr[c * inner] * inv;
}

// Arm NN Normalization, LocalBrightness (RefNormalizationWorkload.cpp), one work item per
// element of an NHWC (nhwc 1) or NCHW tensor: x / pow(k + alpha * acc, beta), acc the sum of
// squares over channels c - radius .. c + radius (across) or over the (2 radius + 1)^2 window
// of the channel's plane (within), in cpu_ref's order (conv_transpose.cc make_armnn_normalization).
__kernel void armnn_normalization(__global const float* x, __global float* y, int C, int H, int W, int nhwc, int within,
                                  int radius, float alpha, float beta, float k) {
  const int i = (int)get_global_id(0);
  int n, c, h, w;
  if (nhwc) {
    c = i % C, w = (i / C) % W, h = (i / (C * W)) % H, n = i / (C * W * H);
  } else {
    w = i % W, h = (i / W) % H, c = (i / (W * H)) % C, n = i / (W * H * C);
  }
  float acc = 0.0f;
  if (within) {
    for (int dy = -radius; dy <= radius; ++dy)
      for (int dx = -radius; dx <= radius; ++dx) {
        const int yy = h + dy, xx = w + dx;
        if (yy < 0 || yy >= H || xx < 0 || xx >= W) continue;
        const float v = x[nhwc ? ((n * H + yy) * W + xx) * C + c : ((n * C + c) * H + yy) * W + xx];
        acc += v * v;
      }
  } else {
    for (int cc = max(0, c - radius); cc <= min(C - 1, c + radius); ++cc) {
      const float v = x[nhwc ? ((n * H + h) * W + w) * C + cc : ((n * C + cc) * H + h) * W + w];
      acc += v * v;
    }
  }
  y[i] = x[i] / pow(k + acc * alpha, beta);
}
