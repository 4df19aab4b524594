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
  // The geometry in private variables: read once, not once per tap.
  const int c = g[1], m = g[2], group = g[3], nhwc = g[4];
  const int in0 = g[5], in1 = g[6], in2 = g[7];
  const int k0 = g[11], k1 = g[12], k2 = g[13], s0 = g[14], s1 = g[15], s2 = g[16];
  const int d0 = g[17], d1 = g[18], d2 = g[19], p0 = g[20], p1 = g[21], p2 = g[22];
  const int i = (int)get_global_id(0);
  int b, o, oz, oy, ox;
  split_index(i, nhwc, m, g + 8, &b, &o, &oz, &oy, &ox);
  const int cg = c / group, mg = m / group, c0 = (o / mg) * cg;
  // Element (ci, iz, iy, ix) of batch b at x[base + ci * cs + ((iz * in1 + iy) * in2 + ix) * ps].
  const int plane = in0 * in1 * in2;
  const int cs = nhwc ? 1 : plane, ps = nhwc ? c : 1;
  const int base = nhwc ? b * plane * c + c0 : (b * c + c0) * plane;
  const int z0 = oz * s0 - p0, y0 = oy * s1 - p1, x0 = ox * s2 - p2;
  __global const float* wo = w + o * cg * k0 * k1 * k2;
  float acc = 0.0f;
  for (int ci = 0; ci < cg; ++ci) {
    __global const float* xc = x + base + ci * cs;
    for (int kz = 0; kz < k0; ++kz) {
      const int iz = z0 + kz * d0;
      if (iz < 0 || iz >= in0) continue;
      for (int ky = 0; ky < k1; ++ky) {
        const int iy = y0 + ky * d1;
        if (iy < 0 || iy >= in1) continue;
        __global const float* xr = xc + (iz * in1 + iy) * in2 * ps;
        __global const float* wr = wo + ((ci * k0 + kz) * k1 + ky) * k2;
        for (int kx = 0; kx < k2; ++kx) {
          const int ix = x0 + kx * d2;
          if (ix < 0 || ix >= in2) continue;
          acc += xr[ix * ps] * wr[kx];
        }
      }
    }
  }
  y[i] = acc + bias[o];
}

// conv for 4 output channels of one group per work item (the host picks it when m / group is a
// multiple of 4): each input element read once serves the four; every output's sum is the same
// products in the same order as conv's, so the results are the same.
__kernel void conv_m4(__global const float* x, __global const float* w, __global const float* bias, __global float* y,
                      __global const int* g) {
  const int c = g[1], m = g[2], group = g[3], nhwc = g[4];
  const int in0 = g[5], in1 = g[6], in2 = g[7], on0 = g[8], on1 = g[9], on2 = g[10];
  const int k0 = g[11], k1 = g[12], k2 = g[13], s0 = g[14], s1 = g[15], s2 = g[16];
  const int d0 = g[17], d1 = g[18], d2 = g[19], p0 = g[20], p1 = g[21], p2 = g[22];
  const int i = (int)get_global_id(0);
  int b, o4, oz, oy, ox;
  split_index(i, nhwc, m / 4, g + 8, &b, &o4, &oz, &oy, &ox);
  const int o = o4 * 4;
  const int cg = c / group, mg = m / group, c0 = (o / mg) * cg;
  const int plane = in0 * in1 * in2;
  const int cs = nhwc ? 1 : plane, ps = nhwc ? c : 1;
  const int base = nhwc ? b * plane * c + c0 : (b * c + c0) * plane;
  const int z0 = oz * s0 - p0, y0 = oy * s1 - p1, x0 = ox * s2 - p2;
  const int taps = cg * k0 * k1 * k2;
  __global const float* wo = w + o * taps;
  float a0 = 0.0f, a1 = 0.0f, a2 = 0.0f, a3 = 0.0f;
  for (int ci = 0; ci < cg; ++ci) {
    __global const float* xc = x + base + ci * cs;
    for (int kz = 0; kz < k0; ++kz) {
      const int iz = z0 + kz * d0;
      if (iz < 0 || iz >= in0) continue;
      for (int ky = 0; ky < k1; ++ky) {
        const int iy = y0 + ky * d1;
        if (iy < 0 || iy >= in1) continue;
        __global const float* xr = xc + (iz * in1 + iy) * in2 * ps;
        __global const float* wr = wo + ((ci * k0 + kz) * k1 + ky) * k2;
        for (int kx = 0; kx < k2; ++kx) {
          const int ix = x0 + kx * d2;
          if (ix < 0 || ix >= in2) continue;
          const float v = xr[ix * ps];
          a0 += v * wr[kx];
          a1 += v * wr[taps + kx];
          a2 += v * wr[2 * taps + kx];
          a3 += v * wr[3 * taps + kx];
        }
      }
    }
  }
  const int pos = (oz * on1 + oy) * on2 + ox, oplane = on0 * on1 * on2;
  const int at = nhwc ? (b * oplane + pos) * m + o : (b * m + o) * oplane + pos, step = nhwc ? 1 : oplane;
  y[at] = a0 + bias[o];
  y[at + step] = a1 + bias[o + 1];
  y[at + 2 * step] = a2 + bias[o + 2];
  y[at + 3 * step] = a3 + bias[o + 3];
}

// conv for channels-last tensors (NHWC / NDHWC) with W packed [c / group][k0][k1][k2][m] (the
// host transposes a constant W once): one work item per output element, output channel fastest,
// so neighbouring items read one input element and neighbouring weights. Each output's products
// are conv's, summed in the same order.
__kernel void conv_nhwc(__global const float* x, __global const float* wt, __global const float* bias,
                        __global float* y, __global const int* g) {
  const int c = g[1], m = g[2], group = g[3];
  const int in0 = g[5], in1 = g[6], in2 = g[7], on0 = g[8], on1 = g[9], on2 = g[10];
  const int k0 = g[11], k1 = g[12], k2 = g[13], s0 = g[14], s1 = g[15], s2 = g[16];
  const int d0 = g[17], d1 = g[18], d2 = g[19], p0 = g[20], p1 = g[21], p2 = g[22];
  const int i = (int)get_global_id(0);
  const int o = i % m;
  int r = i / m;
  const int ox = r % on2; r /= on2;
  const int oy = r % on1; r /= on1;
  const int oz = r % on0;
  const int b = r / on0;
  const int cg = c / group, mg = m / group, c0 = (o / mg) * cg;
  __global const float* xb = x + b * in0 * in1 * in2 * c + c0;
  const int z0 = oz * s0 - p0, y0 = oy * s1 - p1, x0 = ox * s2 - p2;
  float acc = 0.0f;
  for (int ci = 0; ci < cg; ++ci)
    for (int kz = 0; kz < k0; ++kz) {
      const int iz = z0 + kz * d0;
      if (iz < 0 || iz >= in0) continue;
      for (int ky = 0; ky < k1; ++ky) {
        const int iy = y0 + ky * d1;
        if (iy < 0 || iy >= in1) continue;
        __global const float* xr = xb + (iz * in1 + iy) * in2 * c + ci;
        __global const float* wr = wt + ((ci * k0 + kz) * k1 + ky) * k2 * m + o;
        for (int kx = 0; kx < k2; ++kx) {
          const int ix = x0 + kx * d2;
          if (ix < 0 || ix >= in2) continue;
          acc += xr[ix * c] * wr[kx * m];
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
