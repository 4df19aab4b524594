// 2-D max / average pooling, NCHW or NHWC, one work item per output element (ONNX MaxPool /
// AveragePool; padded taps are skipped; averages divide by the real taps unless
// count_include_pad, Arm NN CpuRef Pooling2d "Exclude"/"IgnoreValue"; no real tap gives 0).
// g: n c h w oh ow kh kw sh sw dh dw pt pl pb pr nhwc is_max include_pad
__kernel void pool2d(__global const float* x, __global float* y, __global const int* g) {
  const int n = g[0], c = g[1], h = g[2], wd = g[3], oh = g[4], ow = g[5], kh = g[6], kw = g[7];
  const int sh = g[8], sw = g[9], dh = g[10], dw = g[11], pt = g[12], pl = g[13], pb = g[14], pr = g[15];
  const int nhwc = g[16], is_max = g[17], include_pad = g[18];
  const int i = (int)get_global_id(0);
  int b, ch, oy, ox;
  if (nhwc) {
    ch = i % c; ox = (i / c) % ow; oy = (i / (c * ow)) % oh; b = i / (c * ow * oh);
  } else {
    ox = i % ow; oy = (i / ow) % oh; ch = (i / (ow * oh)) % c; b = i / (ow * oh * c);
  }
  float acc = is_max ? -INFINITY : 0.0f;
  int padded = 0, real = 0;
  for (int ky = 0; ky < kh; ++ky) {
    const int iy = oy * sh - pt + ky * dh;
    if (iy >= h + pb) break;
    for (int kx = 0; kx < kw; ++kx) {
      const int ix = ox * sw - pl + kx * dw;
      if (ix >= wd + pr) break;
      ++padded;
      if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
      ++real;
      const float v = x[nhwc ? ((b * h + iy) * wd + ix) * c + ch : ((b * c + ch) * h + iy) * wd + ix];
      acc = is_max ? fmax(acc, v) : acc + v;
    }
  }
  y[i] = real == 0 ? 0.0f : is_max ? acc : acc / (float)(include_pad ? padded : real);
}
