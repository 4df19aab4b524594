// Operators of ExecuTorch's Vulkan pipeline that have no canonical form, as the VkGraph reader
// keeps them: native ops `vk.<operator>` with their non-tensor arguments under ATen names.
//
// - vk.aten.max_pool2d_with_indices.default and vk.aten.max_pool2d.default (the latter only
//   reaches here with ceil_mode = true, which ONNX MaxPool sizes differently): PyTorch 1.13's
//   max_pool2d (aten/src/ATen/native/Pooling.cpp, DilatedMaxPool2d.cpp): X [N, C, H, W] or
//   [C, H, W]; kernel_size / stride / padding / dilation of one or two elements, an empty stride
//   meaning the kernel; a window starts at o * stride - padding and takes the taps inside the
//   input; the output size floor-or-ceil((H + 2p - d(k - 1) - 1) / s) + 1, less one when
//   ceil_mode lets the last window start in the right padding; a NaN wins (the last one). The
//   indices (second output, int64) are per (n, c) plane: h * W + w of the maximum, the first on ties.
//   They are computed in float32 as every kernel here: exact for planes up to 2^24 elements.
// - vk.et_vk.conv_with_clamp.default (ExecuTorch backends/vulkan/custom_ops_lib.py):
//   aten.convolution (not transposed) followed by clamp(output_min, output_max), a Null bound
//   meaning none; computed by the Conv kernel with ONNX Conv attributes (strides, pads = padding
//   on both sides, dilations, group).
#include <algorithm>
#include <cmath>
#include <limits>

#include "../kernel.h"
#include "nnbridge/exec/conv_with_clamp.h"
#include "nnbridge/exec/torch_pool.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_torch_max_pool(const KernelContext& c) {
  const exec::TorchMaxPool m = exec::torch_max_pool(c);  // the geometry both backends read
  const Shape k = m.k, s = m.s, p = m.p, d = m.d;
  const int64_t planes = m.planes, H = m.H, W = m.W, OH = m.OH, OW = m.OW;
  const bool indices = c.out.size() > 1;
  const int threads = c.threads;
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    parallel_for(threads, planes, [&](int64_t plane) {
      const float* x = in[0] + plane * H * W;
      float* y = out[0] + plane * OH * OW;
      float* yi = indices ? out[1] + plane * OH * OW : nullptr;
      for (int64_t oh = 0; oh < OH; ++oh)
        for (int64_t ow = 0; ow < OW; ++ow) {
          float best = -std::numeric_limits<float>::infinity();
          int64_t at = -1;
          for (int64_t i = 0; i < k[0]; ++i) {
            const int64_t h = oh * s[0] - p[0] + i * d[0];
            if (h < 0 || h >= H) continue;
            for (int64_t j = 0; j < k[1]; ++j) {
              const int64_t w = ow * s[1] - p[1] + j * d[1];
              if (w < 0 || w >= W) continue;
              const float v = x[h * W + w];
              if (at < 0) at = h * W + w;  // PyTorch starts at the first tap inside, with -inf
              if (v > best || std::isnan(v)) {
                best = v;
                at = h * W + w;
              }
            }
          }
          y[oh * OW + ow] = best;
          if (yi) yi[oh * OW + ow] = static_cast<float>(at);
        }
    });
  };
}

Kernel make_conv_with_clamp(const KernelContext& c) {
  const exec::ConvWithClamp cc = exec::conv_with_clamp(c);  // the reading both backends share
  KernelContext conv{cc.conv, find_schema("Conv"), c.in, c.out, c.constants, c.threads, c.in_attrs};
  Kernel k = kernels().at("Conv")(conv);
  const float lo = cc.lo, hi = cc.hi;
  const int64_t n = numel(c.out.at(0).shape);
  return [k, lo, hi, n](std::span<const float* const> in, std::span<float* const> out) {
    k(in, out);
    for (int64_t i = 0; i < n; ++i) out[0][i] = std::min(std::max(out[0][i], lo), hi);
  };
}

}  // namespace

void add_executorch_kernels(KernelTable& t) {
  t["vk.aten.max_pool2d_with_indices.default"] = make_torch_max_pool;
  t["vk.aten.max_pool2d.default"] = make_torch_max_pool;
  t["vk.et_vk.conv_with_clamp.default"] = make_conv_with_clamp;
}

}  // namespace nnbridge::cpu_ref
