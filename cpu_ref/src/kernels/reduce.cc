// ReduceMean/Sum/Max/Min/Prod/L1/L2/SumSquare/LogSum/LogSumExp (ONNX opset 13: axes attribute,
// ReduceSum's axes input; empty axes = all) and ArgMax/ArgMin
// (ONNX ArgMax-13: first index of the extreme unless select_last_index).
#include <algorithm>
#include <cmath>

#include "vector_ops.h"

namespace nnbridge::cpu_ref {

namespace {

enum class Op { Mean, Sum, Max, Min, Prod };

simd::Fold fold_of(Op op) {
  switch (op) {
    case Op::Mean: case Op::Sum: return simd::Fold::Sum;
    case Op::Max: return simd::Fold::Max;
    case Op::Min: return simd::Fold::Min;
    case Op::Prod: return simd::Fold::Prod;
  }
  return simd::Fold::Sum;
}

float identity(Op op) { return op == Op::Max ? -INFINITY : op == Op::Min ? INFINITY : op == Op::Prod ? 1.0f : 0.0f; }

// The dims a reduction folds: ReduceSum-13's axes input (absent or empty: every dim, or none
// with noop_with_empty_axes 1); the other reductions' axes attribute (opset 13; empty: every dim).
std::vector<bool> reduced_dims(const KernelContext& ctx, int64_t r) {
  Shape axes;
  bool none = false;
  if (ctx.node.op == "ReduceSum") {
    if (ctx.has_input(1)) axes = exec::to_ints(ctx.value(1, "axes"));
    none = axes.empty() && ctx.attr_int("noop_with_empty_axes", 0) != 0;
  } else {
    if (ctx.in.size() > 1) ctx.unsupported("axes as an input is not implemented");
    axes = ctx.attr_ints("axes");
  }
  std::vector<bool> red(static_cast<std::size_t>(r), axes.empty() && !none);
  for (int64_t a : axes) red[static_cast<std::size_t>(normalize_axis(a, r, "axes value"))] = true;
  return red;
}

// Accumulates in float, in input order per output element (as Arm NN CpuRef's Mean and Reduce
// do); the vector paths fold in lanes, which changes only the summation order. Max/Min follow
// std::max / std::min.
Kernel make_reduce(const KernelContext& ctx, Op op) {
  const Shape& is = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const std::vector<bool> red = reduced_dims(ctx, r);
  // Output index of each input element: the kept dims, in order.
  Shape kept;
  for (int64_t d = 0; d < r; ++d)
    if (!red[d]) kept.push_back(is[d]);
  Shape ks = strides_of(kept), ostr(r, 0);
  for (int64_t d = 0, k = 0; d < r; ++d)
    if (!red[d]) ostr[d] = ks[k++];
  const int64_t on = numel(kept);
  if (numel(ctx.out[0].shape) != on) ctx.invalid(ErrorId::Shape, "output size does not match the reduction");
  const int64_t n = numel(is);
  const int64_t count = n / std::max<int64_t>(on, 1);
  const float init = identity(op);
  const simd::Fold fold = fold_of(op);
  const auto* k = &simd::kernels();
  const int threads = ctx.threads;
  auto finish = [op, count, on](float* y) {
    if (op == Op::Mean)
      for (int64_t i = 0; i < on; ++i) y[i] = y[i] / static_cast<float>(count);
  };
  // Runs of dims (size-1 dims dropped): reduced or kept, neighbours of one kind merged.
  std::vector<std::pair<bool, int64_t>> runs;
  for (int64_t d = 0; d < r; ++d) {
    if (is[d] == 1) continue;
    if (!runs.empty() && runs.back().first == red[d]) runs.back().second *= is[d];
    else runs.emplace_back(red[d], is[d]);
  }
  // [outer kept][len reduced][inner kept], each part possibly absent (= 1).
  int64_t outer = 1, len = 1, inner = 1;
  bool simple = true;
  std::size_t i = 0;
  if (i < runs.size() && !runs[i].first) outer = runs[i++].second;
  if (i < runs.size() && runs[i].first) len = runs[i++].second;
  if (i < runs.size() && !runs[i].first) inner = runs[i++].second;
  if (i != runs.size()) simple = false;
  if (simple && n > 0) {
    return [=](std::span<const float* const> in, std::span<float* const> out) {
      const float* x = in[0];
      float* y = out[0];
      const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 15) / std::max<int64_t>(len * inner, 1));
      parallel_ranges(threads, outer, grain, [&](int64_t o0, int64_t o1) {
        for (int64_t o = o0; o < o1; ++o) {
          const float* xo = x + o * len * inner;
          if (inner == 1) {
            y[o] = k->fold(fold, xo, static_cast<std::size_t>(len), init);
            continue;
          }
          float* yo = y + o * inner;
          for (int64_t j = 0; j < inner; ++j) yo[j] = init;
          for (int64_t l = 0; l < len; ++l) k->fold_into(fold, xo + l * inner, yo, static_cast<std::size_t>(inner));
        }
      });
      finish(y);
    };
  }
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    float* y = out[0];
    for (int64_t j = 0; j < on; ++j) y[j] = init;
    std::vector<int64_t> idx(r, 0);
    int64_t o = 0;
    for (int64_t e = 0; e < n; ++e) {
      const float v = in[0][e];
      float& a = y[o];
      switch (op) {
        case Op::Mean: case Op::Sum: a = a + v; break;
        case Op::Max: a = std::max(a, v); break;
        case Op::Min: a = std::min(a, v); break;
        case Op::Prod: a = a * v; break;
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
    finish(y);
  };
}

// ReduceL1 / L2 / SumSquare / LogSum (ONNX *-13): the Sum reduction of a mapped input, then a map of the sum.
template <class Pre, class Post>
Kernel mapped_sum(const KernelContext& ctx, Pre pre, Post post) {
  Kernel sum = make_reduce(ctx, Op::Sum);
  const int64_t n = numel(ctx.in[0].shape), on = numel(ctx.out[0].shape);
  return [sum, n, on, pre, post](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<float> mapped(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) mapped[i] = pre(in[0][i]);
    const float* m[] = {mapped.data()};
    sum(std::span<const float* const>(m, 1), out);
    for (int64_t j = 0; j < on; ++j) out[0][j] = post(out[0][j]);
  };
}

// ReduceLogSumExp-13: log(sum(e^x)) computed as m + log(sum(e^(x - m))) with m the maximum of each
// reduced set, which is the same number without overflowing e^x (a set of -inf gives -inf).
Kernel make_log_sum_exp(const KernelContext& ctx) {
  Kernel max = make_reduce(ctx, Op::Max);
  const Shape& is = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const std::vector<bool> red = reduced_dims(ctx, r);
  Shape kept;
  for (int64_t d = 0; d < r; ++d)
    if (!red[d]) kept.push_back(is[d]);
  const Shape ks = strides_of(kept);
  Shape ostr(r, 0);
  for (int64_t d = 0, k = 0; d < r; ++d)
    if (!red[d]) ostr[d] = ks[k++];
  const int64_t n = numel(is), on = numel(ctx.out[0].shape);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    max(in, out);
    std::vector<float> m(out[0], out[0] + on), acc(static_cast<std::size_t>(on), 0.0f);
    std::vector<int64_t> idx(r, 0);
    int64_t o = 0;
    for (int64_t e = 0; e < n; ++e) {
      if (std::isfinite(m[o])) acc[o] += std::exp(in[0][e] - m[o]);
      for (int64_t d = r; d-- > 0;) {  // odometer; o follows the kept dims
        if (++idx[d] < is[d]) {
          o += ostr[d];
          break;
        }
        o -= ostr[d] * (is[d] - 1);
        idx[d] = 0;
      }
    }
    for (int64_t j = 0; j < on; ++j) out[0][j] = std::isfinite(m[j]) ? m[j] + std::log(acc[j]) : m[j];
  };
}

Kernel make_arg(const KernelContext& ctx, bool max) {
  const Shape& is = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const int64_t axis = ctx.attr_axis("axis", 0, r);
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
  t["ReduceL1"] = [](const KernelContext& c) {
    return mapped_sum(c, [](float x) { return std::fabs(x); }, [](float y) { return y; });
  };
  t["ReduceL2"] = [](const KernelContext& c) {
    return mapped_sum(c, [](float x) { return x * x; }, [](float y) { return std::sqrt(y); });
  };
  t["ReduceSumSquare"] = [](const KernelContext& c) {
    return mapped_sum(c, [](float x) { return x * x; }, [](float y) { return y; });
  };
  t["ReduceLogSum"] = [](const KernelContext& c) {
    return mapped_sum(c, [](float x) { return x; }, [](float y) { return std::log(y); });
  };
  t["ReduceLogSumExp"] = make_log_sum_exp;
  t["ArgMax"] = [](const KernelContext& c) { return make_arg(c, true); };
  t["ArgMin"] = [](const KernelContext& c) { return make_arg(c, false); };
}

}  // namespace nnbridge::cpu_ref
