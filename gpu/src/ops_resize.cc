// Resize of the opencl backend (kernels/data.cl resize_pass, resize_extrapolate): ONNX Resize-13
// (and Resize-11's tf_half_pixel_for_nn) on any rank by the rules of the exec floor
// (nnbridge/exec/resize.h, which cpu applies too): one pass per resized dim, last dim first, each
// output index reading its taps with the floor's double weights, rounded to float between passes as
// cpu does; tf_crop_and_resize's extrapolation_value where a coordinate samples outside).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "nnbridge/exec/resize.h"
#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

struct Pass {
  int n = 1, in = 0, out = 0, inner = 1;
  int64_t items = 0;
  cl::Buffer idx, w_hi, w_lo;
};

Launch resize(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& xs = k.in[0].shape;
  const Shape& ys = k.out[0].shape;
  const int64_t r = static_cast<int64_t>(xs.size());
  const exec::ResizePlan plan = exec::resize_plan(k);
  const float extrapolation = plan.extrapolation_value;
  c.to_int(numel(xs));
  const int64_t total = c.to_int(numel(ys));
  // The passes in the plan's order (last dim first); each one's output dims so far.
  Shape cur = xs;
  std::vector<Pass> passes;
  std::vector<int> flags, flag_at(static_cast<std::size_t>(r), -1);
  int64_t largest = 1;
  for (const exec::ResizeAxis& t : plan.passes) {
    const int64_t d = t.dim;
    if (std::find(t.outside.begin(), t.outside.end(), true) != t.outside.end()) {
      flag_at[d] = static_cast<int>(flags.size());
      for (bool o : t.outside) flags.push_back(o ? 1 : 0);
    }
    cur[d] = t.out;
    int64_t inner = 1;
    for (int64_t e = d + 1; e < r; ++e) inner *= cur[e];
    std::vector<int> idx;
    for (int64_t i : t.idx) idx.push_back(c.to_int(i));
    std::vector<float> hi, lo;  // each weight as float + float: the device sums them as cpu sums doubles
    for (double w : t.w) {
      hi.push_back(static_cast<float>(w));
      lo.push_back(static_cast<float>(w - static_cast<double>(hi.back())));
    }
    passes.push_back(Pass{t.n, c.to_int(t.in), c.to_int(t.out), c.to_int(inner), c.to_int(numel(cur)), c.ints(idx), c.floats(hi),
                          c.floats(lo)});
    largest = std::max(largest, numel(cur));
  }
  // Passes before the last write into two buffers of the plan in turn.
  std::vector<cl::Buffer> tmp;
  for (std::size_t i = 0; i < std::min<std::size_t>(2, passes.size() > 0 ? passes.size() - 1 : 0); ++i)
    tmp.emplace_back(c.dev.context, CL_MEM_READ_WRITE, static_cast<std::size_t>(largest) * sizeof(float));
  cl::Kernel pass_k = c.kernel("data.cl", "resize_pass"), extra_k = c.kernel("data.cl", "resize_extrapolate");
  std::vector<int> meta{static_cast<int>(r)};
  for (int64_t v : ys) meta.push_back(c.to_int(v));
  meta.insert(meta.end(), flag_at.begin(), flag_at.end());
  cl::Buffer mb = c.ints(meta), fb = c.ints(flags);
  const bool any_outside = !flags.empty();
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    if (total == 0) return;
    if (passes.empty()) {
      dev.queue.enqueueCopyBuffer(in[0], out[0], 0, 0, static_cast<std::size_t>(total) * sizeof(float));
    } else {
      for (std::size_t p = 0; p < passes.size(); ++p) {
        const Pass& s = passes[p];
        const cl::Buffer& src = p == 0 ? in[0] : tmp[(p - 1) % 2];
        const cl::Buffer& dst = p + 1 == passes.size() ? out[0] : tmp[p % 2];
        set_args(pass_k, src, dst, s.idx, s.w_hi, s.w_lo, s.n, s.in, s.out, s.inner);
        enqueue(dev, pass_k, s.items);
      }
    }
    if (!any_outside) return;
    set_args(extra_k, out[0], mb, fb, extrapolation);
    enqueue(dev, extra_k, total);
  };
}

}  // namespace

void add_resize_ops(OpTable& t) { t["Resize"] = resize; }

}  // namespace nnbridge::gpu
