// Convolutions on 1, 2 or 3 spatial dims (the host puts unit dims in front of fewer), NCHW or
// NHWC (channels last: NDHWC), grouped (depthwise included), one work item per output element.
// W is [m][c / group][k0][k1][k2] (the host repacks other layouts once); bias holds one value per
// output channel (zeros when absent). Geometry as ONNX Conv-11 / ConvTranspose-11 name it.
// g: n c m group nhwc, in[3], on[3], k[3], strides[3], dilations[3], pads_begin[3].

// The output element i's batch, channel and spatial coordinates.
void split_index(int i, int nhwc, int ch, __global const int* on, int* b, int* o, int* z, int* y, int* x) {
  if (nhwc) {
    *o = i % ch; i /= ch;
    *x = i % on[2]; i /= on[2];
    *y = i % on[1]; i /= on[1];
    *z = i % on[0]; *b = i / on[0];
  } else {
    *x = i % on[2]; i /= on[2];
    *y = i % on[1]; i /= on[1];
    *z = i % on[0]; i /= on[0];
    *o = i % ch; *b = i / ch;
  }
}

int x_index(int nhwc, int c, __global const int* in, int b, int ci, int z, int y, int x) {
  return nhwc ? (((b * in[0] + z) * in[1] + y) * in[2] + x) * c + ci : (((b * c + ci) * in[0] + z) * in[1] + y) * in[2] + x;
}

__kernel void conv(__global const float* x, __global const float* w, __global const float* bias, __global float* y,
                   __global const int* g) {
  const int c = g[1], m = g[2], group = g[3], nhwc = g[4];
  __global const int* in = g + 5;
  __global const int* on = g + 8;
  __global const int* k = g + 11;
  __global const int* s = g + 14;
  __global const int* d = g + 17;
  __global const int* p = g + 20;
  const int i = (int)get_global_id(0);
  int b, o, oz, oy, ox;
  split_index(i, nhwc, m, on, &b, &o, &oz, &oy, &ox);
  const int cg = c / group, mg = m / group, c0 = (o / mg) * cg;
  float acc = 0.0f;
  for (int ci = 0; ci < cg; ++ci)
    for (int kz = 0; kz < k[0]; ++kz) {
      const int iz = oz * s[0] - p[0] + kz * d[0];
      if (iz < 0 || iz >= in[0]) continue;
      for (int ky = 0; ky < k[1]; ++ky) {
        const int iy = oy * s[1] - p[1] + ky * d[1];
        if (iy < 0 || iy >= in[1]) continue;
        for (int kx = 0; kx < k[2]; ++kx) {
          const int ix = ox * s[2] - p[2] + kx * d[2];
          if (ix < 0 || ix >= in[2]) continue;
          acc += x[x_index(nhwc, c, in, b, c0 + ci, iz, iy, ix)] * w[(((o * cg + ci) * k[0] + kz) * k[1] + ky) * k[2] + kx];
        }
      }
    }
  y[i] = acc + bias[o];
}

// ConvTranspose: input element (iz, iy, ix) of channel c adds x * W[o][c % cg][kz][ky][kx] to
// output (iz * s - p + kz * d, ...) of each output channel o of its group. Gathered per output
// element: the taps whose input coordinate (out + p - k * d) / s is whole and inside.
__kernel void conv_transpose(__global const float* x, __global const float* w, __global const float* bias,
                             __global float* y, __global const int* g) {
  const int c = g[1], m = g[2], group = g[3], nhwc = g[4];
  __global const int* in = g + 5;
  __global const int* on = g + 8;
  __global const int* k = g + 11;
  __global const int* s = g + 14;
  __global const int* d = g + 17;
  __global const int* p = g + 20;
  const int i = (int)get_global_id(0);
  int b, o, oz, oy, ox;
  split_index(i, nhwc, m, on, &b, &o, &oz, &oy, &ox);
  const int cg = c / group, mg = m / group, c0 = (o / mg) * cg;
  float acc = bias[o];
  for (int ci = 0; ci < cg; ++ci)
    for (int kz = 0; kz < k[0]; ++kz) {
      const int tz = oz + p[0] - kz * d[0];
      if (tz < 0 || tz % s[0] != 0 || tz / s[0] >= in[0]) continue;
      for (int ky = 0; ky < k[1]; ++ky) {
        const int ty = oy + p[1] - ky * d[1];
        if (ty < 0 || ty % s[1] != 0 || ty / s[1] >= in[1]) continue;
        for (int kx = 0; kx < k[2]; ++kx) {
          const int tx = ox + p[2] - kx * d[2];
          if (tx < 0 || tx % s[2] != 0 || tx / s[2] >= in[2]) continue;
          acc += x[x_index(nhwc, c, in, b, c0 + ci, tz / s[0], ty / s[1], tx / s[2])] *
                 w[(((o * cg + ci) * k[0] + kz) * k[1] + ky) * k[2] + kx];
        }
      }
    }
  y[i] = acc;
}
