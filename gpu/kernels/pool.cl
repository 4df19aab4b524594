// Max / average / Lp pooling on 1, 2 or 3 spatial dims (the host puts unit dims in front of
// fewer), NCHW or NHWC (channels last), one work item per output element, by cpu_ref's rules
// (cpu_ref/src/kernels/pool.cc, pool3d.cc; Arm NN CpuRef Pooling2d / Pooling3d): a window starts
// at out * stride - pad_begin and is cut at in + pad_end; padded taps are skipped; averages
// divide by the taps inside the padded input with count_include_pad, else by the real taps; a
// window over padding only gives 0. Sums in acc_t (double where the device has it, as cpu).
// MaxPool's Indices: the flat index in x of the window's first maximum (of its first real tap
// when no value beats -inf; -1 over padding only).
// g: n c nhwc kind (0 max, 1 average, 2 Lp) include_pad p lp_mean indices, in[3], on[3], k[3],
// strides[3], dilations[3], pads_begin[3], pads_end[3].
#pragma OPENCL FP_CONTRACT OFF
#if defined(cl_khr_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double acc_t;
#else
typedef float acc_t;
#endif

__kernel void pool(__global const float* x, __global float* y, __global float* indices, __global const int* g) {
  const int c = g[1], nhwc = g[2], kind = g[3], include_pad = g[4], lp = g[5], lp_mean = g[6], want_indices = g[7];
  __global const int* in = g + 8;
  __global const int* on = g + 11;
  __global const int* k = g + 14;
  __global const int* s = g + 17;
  __global const int* d = g + 20;
  __global const int* pb = g + 23;
  __global const int* pe = g + 26;
  const int i = (int)get_global_id(0);
  int r = i, b, ch, oz, oy, ox;
  if (nhwc) {
    ch = r % c; r /= c;
    ox = r % on[2]; r /= on[2];
    oy = r % on[1]; r /= on[1];
    oz = r % on[0]; b = r / on[0];
  } else {
    ox = r % on[2]; r /= on[2];
    oy = r % on[1]; r /= on[1];
    oz = r % on[0]; r /= on[0];
    ch = r % c; b = r / c;
  }
  acc_t acc = kind == 0 ? -INFINITY : 0;
  int padded = 0, real = 0, best = -1;
  for (int kz = 0; kz < k[0]; ++kz) {
    const int iz = oz * s[0] - pb[0] + kz * d[0];
    if (iz >= in[0] + pe[0]) break;
    for (int ky = 0; ky < k[1]; ++ky) {
      const int iy = oy * s[1] - pb[1] + ky * d[1];
      if (iy >= in[1] + pe[1]) break;
      for (int kx = 0; kx < k[2]; ++kx) {
        const int ix = ox * s[2] - pb[2] + kx * d[2];
        if (ix >= in[2] + pe[2]) break;
        ++padded;
        if (iz < 0 || iz >= in[0] || iy < 0 || iy >= in[1] || ix < 0 || ix >= in[2]) continue;
        ++real;
        const int xi = nhwc ? (((b * in[0] + iz) * in[1] + iy) * in[2] + ix) * c + ch
                            : (((b * c + ch) * in[0] + iz) * in[1] + iy) * in[2] + ix;
        const acc_t v = x[xi];
        if (kind == 0) {
          if (v > acc) {
            acc = v;
            best = xi;
          } else if (best < 0) {
            best = xi;
          }
        } else if (kind == 1) {
          acc += v;
        } else {
          acc += lp == 2 ? v * v : pow(fabs(v), (acc_t)lp);
        }
      }
    }
  }
  const acc_t div = (acc_t)(include_pad ? padded : real);
  acc_t res;
  if (real == 0) res = 0;
  else if (kind == 0) res = acc;
  else if (kind == 1) res = acc / div;
  else res = pow(lp_mean ? acc / div : acc, (acc_t)1 / (acc_t)lp);
  y[i] = (float)res;
  if (want_indices) indices[i] = (float)best;
}

// PyTorch's max_pool2d (ExecuTorch vk.aten.max_pool2d / max_pool2d_with_indices), one work item
// per output element of `planes` planes: the window starts at o * stride - padding and takes the
// taps inside the plane; the maximum starts at -inf with the first inside tap's index, a larger
// value or a NaN replaces it (the last NaN wins), and the index is h * W + w within the plane
// (written when indices is 1), as cpu_ref/src/kernels/executorch.cc make_torch_max_pool.
__kernel void torch_max_pool2d(__global const float* x, __global float* y, __global float* yi, int indices, int H, int W,
                               int OH, int OW, int kh, int kw, int sh, int sw, int ph, int pw, int dh, int dw) {
  const int i = (int)get_global_id(0);
  const int ow = i % OW, oh = (i / OW) % OH, plane = i / (OW * OH);
  __global const float* xp = x + plane * H * W;
  float best = -INFINITY;
  int at = -1;
  for (int a = 0; a < kh; ++a) {
    const int h = oh * sh - ph + a * dh;
    if (h < 0 || h >= H) continue;
    for (int b = 0; b < kw; ++b) {
      const int w = ow * sw - pw + b * dw;
      if (w < 0 || w >= W) continue;
      const float v = xp[h * W + w];
      if (at < 0) at = h * W + w;
      if (v > best || isnan(v)) {
        best = v;
        at = h * W + w;
      }
    }
  }
  y[i] = best;
  if (indices) yi[i] = (float)at;
}
