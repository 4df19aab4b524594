// Resize (ONNX Resize-13, any rank): the taps of each resized dim come from the exec floor
// (nnbridge/exec/resize.h, which states every rule and where Arm NN CpuRef's Resize sits among
// them); this kernel applies them one dim at a time, last dim first, summing each output value's
// taps in double and rounding to float between passes, then writes extrapolation_value where a
// tf_crop_and_resize coordinate samples outside the input.
#include <algorithm>

#include "../kernel.h"
#include "nnbridge/exec/resize.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_resize(const KernelContext& ctx) {
  const Shape& xs = ctx.in[0].shape;
  const Shape& ys = ctx.out[0].shape;
  const exec::ResizePlan plan = exec::resize_plan(ctx);
  const int64_t r = static_cast<int64_t>(xs.size());
  std::vector<std::vector<bool>> outside(static_cast<std::size_t>(r));
  if (plan.any_outside)
    for (const exec::ResizeAxis& t : plan.passes) outside[static_cast<std::size_t>(t.dim)] = t.outside;
  const int64_t total = numel(ys);
  return [plan, outside, xs, ys, total](std::span<const float* const> in, std::span<float* const> out) {
    if (total == 0) return;
    Shape cur = xs;
    std::vector<float> a(in[0], in[0] + numel(xs)), b;
    for (const exec::ResizeAxis& t : plan.passes) {
      const std::size_t d = static_cast<std::size_t>(t.dim);
      int64_t outer = 1, inner = 1;
      for (std::size_t k = 0; k < d; ++k) outer *= cur[k];
      for (std::size_t k = d + 1; k < cur.size(); ++k) inner *= cur[k];
      b.assign(static_cast<std::size_t>(outer * t.out * inner), 0.0f);
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t j = 0; j < t.out; ++j) {
          float* dst = b.data() + (o * t.out + j) * inner;
          for (int64_t i = 0; i < inner; ++i) {
            double acc = 0;
            for (int k = 0; k < t.n; ++k)
              acc += t.w[j * t.n + k] * static_cast<double>(a[static_cast<std::size_t>((o * t.in + t.idx[j * t.n + k]) * inner + i)]);
            dst[i] = static_cast<float>(acc);
          }
        }
      cur[d] = t.out;
      a.swap(b);
    }
    std::copy(a.begin(), a.end(), out[0]);
    if (!plan.any_outside) return;
    std::vector<int64_t> idx(xs.size(), 0);
    for (int64_t e = 0; e < total; ++e) {
      bool off = false;
      for (std::size_t d = 0; d < idx.size() && !off; ++d) off = !outside[d].empty() && outside[d][static_cast<std::size_t>(idx[d])];
      if (off) out[0][e] = plan.extrapolation_value;
      for (std::size_t d = idx.size(); d-- > 0;) {
        if (++idx[d] < ys[d]) break;
        idx[d] = 0;
      }
    }
  };
}

}  // namespace

void add_resize_kernels(KernelTable& t) { t["Resize"] = make_resize; }

}  // namespace nnbridge::cpu_ref
