// ReduceMean/Sum/Max/Min/Prod, one work item per output element, folding the reduced elements
// in input (C) order in float, as cpu and Arm NN CpuRef's Reduce do.
// meta: nk, kept dims[nk], their x strides[nk], nr, reduced dims[nr], their x strides[nr].
// op: 0 mean, 1 sum, 2 max, 3 min, 4 prod.
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
  float acc = op == 2 ? -INFINITY : op == 3 ? INFINITY : op == 4 ? 1.0f : 0.0f;
  for (int k = 0; k < count; ++k) {
    int r = k, off = base;
    for (int d = nr - 1; d >= 0; --d) {
      off += (r % rd[d]) * rs[d];
      r /= rd[d];
    }
    const float v = x[off];
    if (op == 2) acc = acc < v ? v : acc;
    else if (op == 3) acc = v < acc ? v : acc;
    else if (op == 4) acc *= v;
    else acc += v;
  }
  y[i] = op == 0 ? acc / (float)count : acc;
}
