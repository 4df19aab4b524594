// Element-wise indexing by index tensors (semantics: the core schemas in sdk/core/src/ops/index.cc).
// - GatherElements (ONNX GatherElements-13) and ScatterElements (ONNX ScatterElements-16, with
//   ScatterElements-18's max / min): indices of data's rank; position p of indices names the
//   data element at p with dim `axis` replaced by indices[p]. Indices may be smaller than data
//   in every dim. Negative indices count from the end; one outside [-dim, dim) fails the run.
// - OneHot (ONNX OneHot-11): depth and the [off, on] values arrive as inputs; depth must match
//   the planned output dim on each run.
// - TopK (ONNX TopK-11): K arrives as an input and must match the planned output dim; of equal
//   elements the lower index comes first; NaN orders above every number (NumPy's sort order).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

std::string label(const KernelContext& ctx) {
  return ctx.node.name.empty() ? ctx.node.op : ctx.node.op + " '" + ctx.node.name + "'";
}

// An index read from a float buffer, checked against [-dim, dim) and made non-negative.
int64_t checked_index(float v, int64_t dim, const std::string& who) {
  if (!(v >= -static_cast<float>(dim) && v < static_cast<float>(dim)))
    throw Error(ErrorId::DanglingReference, who + ": index " + std::to_string(v) + " is outside [-" + std::to_string(dim) + ", " +
                                        std::to_string(dim) + ")");
  const int64_t i = static_cast<int64_t>(v);
  return i < 0 ? i + dim : i;
}

// The walk shared by GatherElements and ScatterElements: for each position of indices (shape
// `is`, C order), fn(k, offset of the element in data with dim `axis` left at 0).
struct ElementWalk {
  Shape is, data_strides;
  int64_t axis = 0, dim = 0, axis_stride = 0;

  ElementWalk(const KernelContext& ctx, const Shape& ds, const Shape& idx_shape) : is(idx_shape) {
    const int64_t r = static_cast<int64_t>(ds.size());
    if (r == 0) ctx.invalid(ErrorId::Shape, "data must have rank >= 1");
    if (static_cast<int64_t>(is.size()) != r) ctx.invalid(ErrorId::Shape, "indices must have data's rank");
    axis = ctx.attr_axis("axis", 0, r);
    for (int64_t d = 0; d < r; ++d)
      if (d != axis && is[d] > ds[d]) ctx.invalid(ErrorId::Shape, "indices dim " + std::to_string(d) + " exceeds data's");
    data_strides = strides_of(ds);
    dim = ds[axis];
    axis_stride = data_strides[axis];
  }

  template <class Fn>
  void run(Fn&& fn) const {
    const int64_t n = numel(is), r = static_cast<int64_t>(is.size());
    std::vector<int64_t> idx(static_cast<std::size_t>(r), 0);
    int64_t base = 0;
    for (int64_t k = 0; k < n; ++k) {
      fn(k, base);
      for (int64_t d = r; d-- > 0;) {
        const int64_t step = d == axis ? 0 : data_strides[d];
        base += step;
        if (++idx[d] < is[d]) break;
        base -= step * is[d];
        idx[d] = 0;
      }
    }
  }
};

Kernel make_gather_elements(const KernelContext& ctx) {
  const ElementWalk w(ctx, ctx.in[0].shape, ctx.in[1].shape);
  if (ctx.out[0].shape != ctx.in[1].shape) ctx.invalid(ErrorId::Shape, "output shape differs from the indices'");
  const std::string who = label(ctx);
  return [w, who](std::span<const float* const> in, std::span<float* const> out) {
    w.run([&](int64_t k, int64_t base) { out[0][k] = in[0][base + checked_index(in[1][k], w.dim, who) * w.axis_stride]; });
  };
}

enum class Reduce { None, Add, Mul, Max, Min };

Kernel make_scatter_elements(const KernelContext& ctx) {
  const Shape ds = ctx.in[0].shape;
  const ElementWalk w(ctx, ds, ctx.in[1].shape);
  if (ctx.in[2].shape != ctx.in[1].shape) ctx.invalid(ErrorId::Shape, "updates' shape differs from the indices'");
  if (ctx.out[0].shape != ds) ctx.invalid(ErrorId::Shape, "output shape differs from data's");
  const std::string rs = ctx.attr_string("reduction", "none");
  Reduce red;
  if (rs == "none") red = Reduce::None;
  else if (rs == "add") red = Reduce::Add;
  else if (rs == "mul") red = Reduce::Mul;
  else if (rs == "max") red = Reduce::Max;
  else if (rs == "min") red = Reduce::Min;
  else ctx.unsupported("ScatterElements reduction " + rs);
  const int64_t n = numel(ds);
  const std::string who = label(ctx);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    float* y = out[0];
    if (n) std::memcpy(y, in[0], static_cast<std::size_t>(n) * sizeof(float));
    w.run([&](int64_t k, int64_t base) {
      float& t = y[base + checked_index(in[1][k], w.dim, who) * w.axis_stride];
      const float u = in[2][k];
      switch (red) {
        case Reduce::None: t = u; break;
        case Reduce::Add: t += u; break;
        case Reduce::Mul: t *= u; break;
        case Reduce::Max: t = std::max(t, u); break;
        case Reduce::Min: t = std::min(t, u); break;
      }
    });
  };
}

Kernel make_one_hot(const KernelContext& ctx) {
  const Shape is = ctx.in[0].shape, os = ctx.out[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const int64_t axis = ctx.attr_axis("axis", -1, r + 1);
  if (static_cast<int64_t>(os.size()) != r + 1) ctx.invalid(ErrorId::Shape, "output rank must be the indices' + 1");
  if (numel(ctx.in[1].shape) != 1) ctx.invalid(ErrorId::Shape, "depth must hold one element");
  if (numel(ctx.in[2].shape) != 2) ctx.invalid(ErrorId::Shape, "values must hold [off_value, on_value]");
  for (int64_t d = 0; d < r; ++d)
    if (is[d] != os[d < axis ? d : d + 1]) ctx.invalid(ErrorId::Shape, "output dims differ from the indices'");
  const int64_t depth = os[axis];
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= is[d];
  for (int64_t d = axis; d < r; ++d) inner *= is[d];
  const std::string who = label(ctx);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const float dv = in[1][0];
    if (!(std::trunc(dv) == static_cast<float>(depth)))
      throw Error(ErrorId::Shape, who + ": depth " + std::to_string(dv) + " differs from the planned output dim " +
                                          std::to_string(depth));
    const float off = in[2][0], on = in[2][1];
    std::fill(out[0], out[0] + outer * depth * inner, off);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const float v = in[0][o * inner + i];
        if (!(v >= -static_cast<float>(depth) && v < static_cast<float>(depth))) continue;  // all off
        int64_t j = static_cast<int64_t>(v);
        if (j < 0) j += depth;
        out[0][(o * depth + j) * inner + i] = on;
      }
  };
}

Kernel make_top_k(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(xs.size());
  if (r == 0) ctx.invalid(ErrorId::Shape, "X must have rank >= 1");
  const int64_t axis = ctx.attr_axis("axis", -1, r);
  if (ctx.out.size() != 2) ctx.invalid(ErrorId::Arity, "needs the outputs Values and Indices");
  if (numel(ctx.in[1].shape) != 1) ctx.invalid(ErrorId::Shape, "K must hold one element");
  const Shape os = ctx.out[0].shape;
  if (ctx.out[1].shape != os || static_cast<int64_t>(os.size()) != r) ctx.invalid(ErrorId::Shape, "outputs must have X's rank");
  for (int64_t d = 0; d < r; ++d)
    if (d != axis && os[d] != xs[d]) ctx.invalid(ErrorId::Shape, "output dims differ from X's");
  const int64_t k = os[axis], dim = xs[axis];
  if (k > dim) ctx.invalid(ErrorId::Shape, "K exceeds the axis size");
  const bool largest = ctx.attr_int("largest", 1) != 0;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= xs[d];
  for (int64_t d = axis + 1; d < r; ++d) inner *= xs[d];
  const std::string who = label(ctx);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    if (in[1][0] != static_cast<float>(k))
      throw Error(ErrorId::Shape, who + ": K = " + std::to_string(in[1][0]) + " differs from the planned output dim " +
                                          std::to_string(k));
    std::vector<int64_t> order(static_cast<std::size_t>(dim));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const float* x = in[0] + o * dim * inner + i;
        // A strict weak order with NaN above every number; ties by index.
        auto before = [&](int64_t a, int64_t b) {
          const float va = x[a * inner], vb = x[b * inner];
          const bool na = std::isnan(va), nb = std::isnan(vb);
          if (na != nb) return largest ? na : nb;
          if (!na && va != vb) return largest ? va > vb : va < vb;
          return a < b;
        };
        std::iota(order.begin(), order.end(), int64_t{0});
        std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
        for (int64_t j = 0; j < k; ++j) {
          const int64_t at = (o * k + j) * inner + i;
          out[0][at] = x[order[j] * inner];
          out[1][at] = static_cast<float>(order[j]);
        }
      }
  };
}

}  // namespace

void add_index_kernels(KernelTable& t) {
  t["GatherElements"] = make_gather_elements;
  t["ScatterElements"] = make_scatter_elements;
  t["OneHot"] = make_one_hot;
  t["TopK"] = make_top_k;
}

}  // namespace nnbridge::cpu_ref
