// ReduceMean/Sum/Max/Min/Prod/L1/L2/SumSquare/LogSum/LogSumExp, one work item per output
// element, folding the reduced elements in input (C) order in float, as cpu and Arm NN CpuRef's
// Reduce do. L1 / L2 / SumSquare / LogSum sum |x|, x^2, x^2, x and map the sum (L2 sqrt, LogSum
// log); LogSumExp is m + log(sum(exp(x - m))) with m the set's maximum, or m where m is not
// finite (cpu_ref/src/kernels/reduce.cc).
// meta: nk, kept dims[nk], their x strides[nk], nr, reduced dims[nr], their x strides[nr].
// op: 0 mean, 1 sum, 2 max, 3 min, 4 prod, 5 L1, 6 L2, 7 sum square, 8 log sum, 9 log sum exp.
#pragma OPENCL FP_CONTRACT OFF
__kernel void reduce(__global const float* x, __global float* y, __global const int* meta, int op, int count) {
  const int i = (int)get_global_id(0);
  const int nk = meta[0];
  __global const int* kd = meta + 1;
  __global const int* ks = meta + 1 + nk;
  const int nr = meta[1 + 2 * nk];
  __global const int* rd = meta + 2 + 2 * nk;
  __global const int* rs = meta + 2 + 2 * nk + nr;
  int rem = i, base = 0;
  for (int d = nk - 1; d >= 0; --d) {
    base += (rem % kd[d]) * ks[d];
    rem /= kd[d];
  }
  float m = 0.0f;  // LogSumExp: the maximum, found first
  for (int pass = op == 9 ? 0 : 1; pass < 2; ++pass) {
    const int fold = pass == 0 ? 2 : op;
    float acc = fold == 2 ? -INFINITY : fold == 3 ? INFINITY : fold == 4 ? 1.0f : 0.0f;
    for (int k = 0; k < count; ++k) {
      int r = k, off = base;
      for (int d = nr - 1; d >= 0; --d) {
        off += (r % rd[d]) * rs[d];
        r /= rd[d];
      }
      const float v = x[off];
      if (fold == 2) acc = acc < v ? v : acc;
      else if (fold == 3) acc = v < acc ? v : acc;
      else if (fold == 4) acc *= v;
      else if (fold == 5) acc += fabs(v);
      else if (fold == 6 || fold == 7) acc += v * v;
      else if (fold == 9) acc += isfinite(m) ? exp(v - m) : 0.0f;
      else acc += v;
    }
    if (pass == 0) {
      m = acc;
      continue;
    }
    y[i] = op == 0 ? acc / (float)count : op == 6 ? sqrt(acc) : op == 8 ? log(acc) : op == 9 ? (isfinite(m) ? m + log(acc) : m) : acc;
  }
}
