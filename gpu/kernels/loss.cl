// Losses over class scores (gpu/src/ops_loss.cc; cpu_ref/src/kernels/loss.cc): input viewed as
// [N][C][D], target [N][D], optional weight [C]. Sums accumulate in acc_t (double where the device
// has it, as cpu's do). A target outside [0, C) that is not ignore_index lowers `bad` to its
// position (atomic_min; the host set INT_MAX) and is read through nowhere.
#pragma OPENCL FP_CONTRACT OFF
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double acc_t;
#else
typedef float acc_t;
#endif

// The weight (0 for ignore_index) and loss -w * logp[n, t, d] of element p = n * D + d; 0 when its
// target is out of range (then bad).
acc_t nll_term(__global const float* logp, __global const float* target, __global const float* weight, int p, int C,
               int D, int has_weight, int has_ignore, float ignore, acc_t* w, __global int* bad) {
  const float t = target[p];
  *w = 0;
  if (has_ignore && t == ignore) return 0;
  if (!(t >= 0.0f && t < (float)C)) {
    atomic_min(bad, p);
    return 0;
  }
  const int c = (int)t;
  *w = has_weight ? (acc_t)weight[c] : (acc_t)1;
  return -*w * (acc_t)logp[((p / D) * C + c) * D + p % D];
}

// Reduction none: one work item per element.
__kernel void nll_none(__global const float* logp, __global const float* target, __global const float* weight,
                       __global float* loss, int C, int D, int has_weight, int has_ignore, float ignore,
                       __global int* bad) {
  const int p = (int)get_global_id(0);
  acc_t w;
  loss[p] = (float)nll_term(logp, target, weight, p, C, D, has_weight, has_ignore, ignore, &w, bad);
}

// Reduction sum (mean = 0) or mean (1): one work item adding the elements in order, as cpu does.
__kernel void nll_total(__global const float* logp, __global const float* target, __global const float* weight,
                        __global float* loss, int count, int C, int D, int has_weight, int has_ignore, float ignore,
                        int mean, __global int* bad) {
  acc_t sum = 0, wsum = 0;
  for (int p = 0; p < count; ++p) {
    acc_t w;
    sum += nll_term(logp, target, weight, p, C, D, has_weight, has_ignore, ignore, &w, bad);
    wsum += w;
  }
  loss[0] = (float)(mean ? sum / wsum : sum);
}

// log(softmax(x)) over C, one work item per (n, d): x - max - log(sum(exp(x - max))) with the sum
// in acc_t (SoftmaxCrossEntropyLoss's log_prob).
__kernel void log_softmax_c(__global const float* x, __global float* lp, int C, int D) {
  const int col = (int)get_global_id(0);
  const int base = (col / D) * C * D + col % D;
  float mx = -INFINITY;
  for (int c = 0; c < C; ++c) mx = fmax(mx, x[base + c * D]);
  acc_t e = 0;
  for (int c = 0; c < C; ++c) e += exp((acc_t)x[base + c * D] - mx);
  const acc_t lse = mx + log(e);
  for (int c = 0; c < C; ++c) lp[base + c * D] = (float)(x[base + c * D] - lse);
}
