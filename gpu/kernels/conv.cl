// 2-D convolution, NCHW or NHWC, grouped (depthwise included), one work item per output
// element. W is OIHW with C/group input channels per output channel (the host repacks other
// layouts once); bias has one value per output channel (zeros when absent).
// g: n c h w m oh ow kh kw sh sw dh dw pt pl group nhwc (ONNX Conv-11 geometry).
__kernel void conv2d(__global const float* x, __global const float* w, __global const float* bias, __global float* y,
                     __global const int* g) {
  const int n = g[0], c = g[1], h = g[2], wd = g[3], m = g[4], oh = g[5], ow = g[6], kh = g[7], kw = g[8];
  const int sh = g[9], sw = g[10], dh = g[11], dw = g[12], pt = g[13], pl = g[14], group = g[15], nhwc = g[16];
  const int i = (int)get_global_id(0);
  int b, o, oy, ox;
  if (nhwc) {
    o = i % m; ox = (i / m) % ow; oy = (i / (m * ow)) % oh; b = i / (m * ow * oh);
  } else {
    ox = i % ow; oy = (i / ow) % oh; o = (i / (ow * oh)) % m; b = i / (ow * oh * m);
  }
  const int cg = c / group, mg = m / group, c0 = (o / mg) * cg;
  float acc = 0.0f;
  for (int ci = 0; ci < cg; ++ci)
    for (int ky = 0; ky < kh; ++ky) {
      const int iy = oy * sh - pt + ky * dh;
      if (iy < 0 || iy >= h) continue;
      for (int kx = 0; kx < kw; ++kx) {
        const int ix = ox * sw - pl + kx * dw;
        if (ix < 0 || ix >= wd) continue;
        const int xi = nhwc ? ((b * h + iy) * wd + ix) * c + c0 + ci : ((b * c + c0 + ci) * h + iy) * wd + ix;
        acc += x[xi] * w[((o * cg + ci) * kh + ky) * kw + kx];
      }
    }
  y[i] = acc + bias[o];
}
