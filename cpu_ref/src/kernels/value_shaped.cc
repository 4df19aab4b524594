// Ops whose output shape depends on input values (semantics: sdk/core/src/ops/value_shaped.cc):
// NonZero (ONNX NonZero-13), Compress (Compress-11), Unique (Unique-11), Range (Range-11). The
// output shapes are planned before a run (from constant inputs, the file's declared types or the
// values bound at run time); each run computes the shape from the values again and fails, naming
// the node, when it differs from the planned one.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

std::string label(const KernelContext& ctx) {
  return ctx.node.name.empty() ? ctx.node.op : ctx.node.op + " '" + ctx.node.name + "'";
}

[[noreturn]] void differs(const std::string& who, const char* what, int64_t got, int64_t planned) {
  throw Error(ErrorId::Shape, who + ": the input values give " + what + " " + std::to_string(got) +
                                      ", the plan has " + std::to_string(planned));
}

Kernel make_non_zero(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape.empty() ? Shape{1} : ctx.in[0].shape;  // a 0-d X reads as [1]
  const Shape& os = ctx.out[0].shape;
  const int64_t r = static_cast<int64_t>(xs.size());
  if (os.size() != 2 || os[0] != r) ctx.invalid(ErrorId::Shape, "output must be [rank, n]");
  const int64_t planned = os[1], total = numel(xs);
  const Shape st = strides_of(xs);
  const std::string who = label(ctx);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const int64_t n = std::count_if(in[0], in[0] + total, [](float v) { return v != 0; });
    if (n != planned) differs(who, "a non-zero count of", n, planned);
    int64_t col = 0;
    for (int64_t i = 0; i < total; ++i) {
      if (in[0][i] == 0) continue;
      for (int64_t d = 0; d < r; ++d) out[0][d * n + col] = static_cast<float>((i / st[d]) % xs[d]);
      ++col;
    }
  };
}

Kernel make_compress(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape, os = ctx.out[0].shape;
  if (ctx.in[1].shape.size() != 1) ctx.invalid(ErrorId::Shape, "condition must be 1-D");
  const int64_t c = ctx.in[1].shape[0];
  const bool flat = !ctx.attr("axis");
  int64_t outer = 1, dim = numel(xs), inner = 1, axis = 0;
  if (!flat) {
    const int64_t r = static_cast<int64_t>(xs.size());
    axis = ctx.attr_axis("axis", 0, r);
    dim = xs[axis];
    for (int64_t d = 0; d < axis; ++d) outer *= xs[d];
    for (int64_t d = axis + 1; d < r; ++d) inner *= xs[d];
    if (os.size() != xs.size()) ctx.invalid(ErrorId::Shape, "output rank differs from the input's");
    for (int64_t d = 0; d < r; ++d)
      if (d != axis && os[d] != xs[d]) ctx.invalid(ErrorId::Shape, "output dims differ from the input's");
  } else if (os.size() != 1) {
    ctx.invalid(ErrorId::Shape, "output must be 1-D without axis");
  }
  const int64_t planned = os[flat ? 0 : axis];
  const std::string who = label(ctx);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<int64_t> keep;
    for (int64_t j = 0; j < c; ++j) {
      if (in[1][j] == 0) continue;
      if (j >= dim)
        throw Error(ErrorId::Shape, who + ": condition[" + std::to_string(j) + "] is true past the axis size " +
                                            std::to_string(dim));
      keep.push_back(j);
    }
    if (static_cast<int64_t>(keep.size()) != planned) differs(who, "a selected count of", static_cast<int64_t>(keep.size()), planned);
    float* y = out[0];
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t j : keep) y = std::copy_n(in[0] + (o * dim + j) * inner, inner, y);
  };
}

// Equal-or-ordered comparison of two floats with NaN above every number and equal to itself.
int compare(float a, float b) {
  const bool na = std::isnan(a), nb = std::isnan(b);
  if (na || nb) return na == nb ? 0 : (na ? 1 : -1);
  return a < b ? -1 : (a > b ? 1 : 0);
}

Kernel make_unique(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape;
  const bool flat = !ctx.attr("axis");
  const bool sorted = ctx.attr_int("sorted", 1) != 0;
  int64_t outer = 1, dim = numel(xs), inner = 1, axis = 0;
  if (!flat) {
    const int64_t r = static_cast<int64_t>(xs.size());
    axis = ctx.attr_axis("axis", 0, r);
    dim = xs[axis];
    for (int64_t d = 0; d < axis; ++d) outer *= xs[d];
    for (int64_t d = axis + 1; d < r; ++d) inner *= xs[d];
  }
  if (flat ? ctx.out[0].shape.size() != 1 : ctx.out[0].shape.size() != xs.size()) ctx.invalid(ErrorId::Shape, "Y has the wrong rank");
  const int64_t planned = ctx.out[0].shape[flat ? 0 : axis];
  if (!flat) {
    Shape want = xs;
    want[axis] = planned;
    if (ctx.out[0].shape != want) ctx.invalid(ErrorId::Shape, "Y's dims other than axis differ from X's");
  }
  const std::size_t n_out = ctx.out.size();
  for (std::size_t o = 1; o < n_out; ++o) {
    const int64_t want = o == 2 ? dim : planned;
    if (ctx.out[o].dtype != DataType::Undefined && ctx.out[o].shape != Shape{want})
      ctx.invalid(ErrorId::Shape, "output " + std::to_string(o) + " must be [" + std::to_string(want) + "]");
  }
  const int64_t len = outer * inner;
  const std::string who = label(ctx);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const float* x = in[0];
    auto at = [&](int64_t j, int64_t k) { return x[((k / inner) * dim + j) * inner + k % inner]; };
    auto cmp = [&](int64_t a, int64_t b) {
      for (int64_t k = 0; k < len; ++k)
        if (int c = compare(at(a, k), at(b, k))) return c;
      return 0;
    };
    // Slices sorted by value (ties by position), then grouped: each group's first member is
    // the slice's first occurrence.
    std::vector<int64_t> order(static_cast<std::size_t>(dim));
    std::iota(order.begin(), order.end(), int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return cmp(a, b) < 0; });
    std::vector<int64_t> first, count, group_of(static_cast<std::size_t>(dim));
    for (int64_t p = 0; p < dim; ++p) {
      if (p == 0 || cmp(order[p - 1], order[p]) != 0) {
        first.push_back(order[p]);
        count.push_back(0);
      }
      group_of[order[p]] = static_cast<int64_t>(first.size()) - 1;
      ++count.back();
    }
    const int64_t u = static_cast<int64_t>(first.size());
    if (u != planned) differs(who, "a distinct count of", u, planned);
    // Output position of each group: sorted order, or order of first occurrence.
    std::vector<int64_t> groups(static_cast<std::size_t>(u)), pos(static_cast<std::size_t>(u));
    std::iota(groups.begin(), groups.end(), int64_t{0});
    if (!sorted) std::sort(groups.begin(), groups.end(), [&](int64_t a, int64_t b) { return first[a] < first[b]; });
    for (int64_t q = 0; q < u; ++q) pos[groups[q]] = q;
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t q = 0; q < u; ++q)
        std::copy_n(x + (o * dim + first[groups[q]]) * inner, inner, out[0] + (o * u + q) * inner);
    if (n_out > 1 && out[1])
      for (int64_t q = 0; q < u; ++q) out[1][q] = static_cast<float>(first[groups[q]]);
    if (n_out > 2 && out[2])
      for (int64_t j = 0; j < dim; ++j) out[2][j] = static_cast<float>(pos[group_of[j]]);
    if (n_out > 3 && out[3])
      for (int64_t q = 0; q < u; ++q) out[3][q] = static_cast<float>(count[groups[q]]);
  };
}

Kernel make_range(const KernelContext& ctx) {
  for (std::size_t i = 0; i < 3; ++i)
    if (numel(ctx.in[i].shape) != 1) ctx.invalid(ErrorId::Shape, "start, limit and delta must be scalars");
  if (ctx.out[0].shape.size() != 1) ctx.invalid(ErrorId::Shape, "output must be 1-D");
  const int64_t planned = ctx.out[0].shape[0];
  const std::string who = label(ctx);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const double start = in[0][0], limit = in[1][0], delta = in[2][0];
    if (delta == 0) throw Error(ErrorId::InvalidOther, who + ": delta is 0");
    const double c = std::ceil((limit - start) / delta);
    const int64_t n = c > 0 ? (c < 9.0e15 ? static_cast<int64_t>(c) : INT64_MAX) : 0;
    if (n != planned) differs(who, "a length of", n, planned);
    for (int64_t i = 0; i < n; ++i) out[0][i] = static_cast<float>(start + static_cast<double>(i) * delta);
  };
}

}  // namespace

void add_value_shaped_kernels(KernelTable& t) {
  t["NonZero"] = make_non_zero;
  t["Compress"] = make_compress;
  t["Unique"] = make_unique;
  t["Range"] = make_range;
}

}  // namespace nnbridge::cpu_ref
