// Softmax / LogSoftmax along one axis of x viewed as [outer][len][inner]; one work item per
// (outer, inner) column: y = exp(beta (x - max)) / sum, or beta (x - max) - log(sum)
// (ONNX Softmax-13 with Arm NN's beta; the max is subtracted for range, as cpu does).
__kernel void softmax(__global const float* x, __global float* y, int len, int inner, float beta, int log_form) {
  const int col = (int)get_global_id(0);
  const int o = col / inner, k = col % inner;
  const int base = o * len * inner + k;
  float m = -INFINITY;
  for (int i = 0; i < len; ++i) m = fmax(m, x[base + i * inner]);
  float sum = 0.0f;
  for (int i = 0; i < len; ++i) sum += exp(beta * (x[base + i * inner] - m));
  if (log_form) {
    const float ls = log(sum);
    for (int i = 0; i < len; ++i) y[base + i * inner] = beta * (x[base + i * inner] - m) - ls;
  } else {
    for (int i = 0; i < len; ++i) y[base + i * inner] = exp(beta * (x[base + i * inner] - m)) / sum;
  }
}
