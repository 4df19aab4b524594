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
