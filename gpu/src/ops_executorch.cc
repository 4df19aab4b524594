// ExecuTorch Vulkan operators without a canonical form (vk.*), on the opencl backend:
// vk.aten.max_pool2d.default and vk.aten.max_pool2d_with_indices.default, PyTorch's max_pool2d
// with its per-plane indices (kernels/pool.cl torch_max_pool2d); vk.et_vk.conv_with_clamp.default,
// the Conv kernel followed by a clamp (kernels/elementwise.cl clamp_range). The geometry, the
// Conv each conv_with_clamp is and their refusals are the exec floor's
// (nnbridge/exec/torch_pool.h, conv_with_clamp.h), the same cpu reads.
#include "nnbridge/exec/conv_with_clamp.h"
#include "nnbridge/exec/torch_pool.h"
#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

Launch torch_max_pool(const OpContext& c) {
  const exec::TorchMaxPool m = exec::torch_max_pool(c.k);
  const int64_t n = c.to_int(m.planes * m.OH * m.OW);
  c.to_int(m.planes * m.H * m.W);
  const int indices = c.k.out.size() > 1 ? 1 : 0;
  const int H = c.to_int(m.H), W = c.to_int(m.W), OH = c.to_int(m.OH), OW = c.to_int(m.OW);
  const int kh = c.to_int(m.k[0]), kw = c.to_int(m.k[1]), sh = c.to_int(m.s[0]), sw = c.to_int(m.s[1]);
  const int ph = c.to_int(m.p[0]), pw = c.to_int(m.p[1]), dh = c.to_int(m.d[0]), dw = c.to_int(m.d[1]);
  cl::Kernel kern = c.kernel("pool.cl", "torch_max_pool2d");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], out[0], indices ? out[1] : out[0], indices, H, W, OH, OW, kh, kw, sh, sw, ph, pw, dh, dw);
    enqueue(dev, kern, n);
  };
}

Launch conv_with_clamp(const OpContext& c) {
  const exec::ConvWithClamp cc = exec::conv_with_clamp(c.k);
  const KernelContext conv_ctx{cc.conv, find_schema("Conv"), c.k.in, c.k.out, c.k.constants, c.k.threads, c.k.in_attrs};
  Launch conv = ops().at("Conv")(OpContext{conv_ctx, c.dev, c.label});
  const int64_t n = c.to_int(numel(c.k.out.at(0).shape));
  const float lo = cc.lo, hi = cc.hi;
  cl::Kernel clamp = c.kernel("elementwise.cl", "clamp_range");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    conv(dev, in, out);
    set_args(clamp, out[0], lo, hi);
    enqueue(dev, clamp, n);
  };
}

}  // namespace

void add_executorch_ops(OpTable& t) {
  t["vk.aten.max_pool2d.default"] = torch_max_pool;
  t["vk.aten.max_pool2d_with_indices.default"] = torch_max_pool;
  t["vk.et_vk.conv_with_clamp.default"] = conv_with_clamp;
}

}  // namespace nnbridge::gpu
