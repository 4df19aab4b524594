// ReduceMean/Sum/Max/Min/Prod (ONNX, axes attribute; empty axes = all) and ArgMax/ArgMin
// (ONNX ArgMax-13: first index of the extreme unless select_last_index).
#include <cmath>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

enum class Op { Mean, Sum, Max, Min, Prod };

Kernel make_reduce(const KernelContext& ctx, Op op) {
  const Shape& is = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  if (ctx.in.size() > 1) ctx.unsupported("axes as an input is not implemented");
  Shape axes = ctx.attr_ints("axes");
  std::vector<bool> red(r, axes.empty());
  for (int64_t a : axes) red[norm_axis(a, r)] = true;
  // Output index of each input element: the kept dims, in order.
  Shape kept, kst = {};
  for (int64_t d = 0; d < r; ++d)
    if (!red[d]) kept.push_back(is[d]);
  Shape ks = strides_of(kept), ostr(r, 0);
  for (int64_t d = 0, k = 0; d < r; ++d)
    if (!red[d]) ostr[d] = ks[k++];
  const int64_t on = numel(kept);
  if (numel(ctx.out[0].shape) != on) ctx.invalid("output size does not match the reduction");
  const int64_t count = numel(is) / std::max<int64_t>(on, 1);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<double> acc(static_cast<std::size_t>(on),
                            op == Op::Max ? -INFINITY : op == Op::Min ? INFINITY : op == Op::Prod ? 1.0 : 0.0);
    const int64_t n = numel(is);
    std::vector<int64_t> idx(r, 0);
    int64_t o = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double v = in[0][i];
      double& a = acc[o];
      switch (op) {
        case Op::Mean: case Op::Sum: a += v; break;
        case Op::Max: a = std::max(a, v); break;
        case Op::Min: a = std::min(a, v); break;
        case Op::Prod: a *= v; break;
      }
      for (int64_t d = r; d-- > 0;) {
        if (++idx[d] < is[d]) {
          o += ostr[d];
          break;
        }
        o -= ostr[d] * (is[d] - 1);
        idx[d] = 0;
      }
    }
    for (int64_t k = 0; k < on; ++k)
      out[0][k] = static_cast<float>(op == Op::Mean ? acc[k] / static_cast<double>(count) : acc[k]);
  };
}

Kernel make_arg(const KernelContext& ctx, bool max) {
  const Shape& is = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const int64_t axis = norm_axis(ctx.attr_int("axis", 0), r);
  const bool last = ctx.attr_int("select_last_index", 0) != 0;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= is[d];
  for (int64_t d = axis + 1; d < r; ++d) inner *= is[d];
  const int64_t len = is[axis];
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < inner; ++k) {
        const float* x = in[0] + o * len * inner + k;
        int64_t best = 0;
        for (int64_t i = 1; i < len; ++i) {
          const float v = x[i * inner], b = x[best * inner];
          if (max ? (v > b || (last && v == b)) : (v < b || (last && v == b))) best = i;
        }
        out[0][o * inner + k] = static_cast<float>(best);
      }
  };
}

}  // namespace

void add_reduce_kernels(KernelTable& t) {
  t["ReduceMean"] = [](const KernelContext& c) { return make_reduce(c, Op::Mean); };
  t["ReduceSum"] = [](const KernelContext& c) { return make_reduce(c, Op::Sum); };
  t["ReduceMax"] = [](const KernelContext& c) { return make_reduce(c, Op::Max); };
  t["ReduceMin"] = [](const KernelContext& c) { return make_reduce(c, Op::Min); };
  t["ReduceProd"] = [](const KernelContext& c) { return make_reduce(c, Op::Prod); };
  t["ArgMax"] = [](const KernelContext& c) { return make_arg(c, true); };
  t["ArgMin"] = [](const KernelContext& c) { return make_arg(c, false); };
}

}  // namespace nnbridge::cpu_ref
