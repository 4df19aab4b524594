// Ops along one axis that keep the shape (semantics: sdk/core/src/ops/axis_ops.cc).
// - CumSum (ONNX CumSum-14): running sums along the axis given on input 1 (read on each run,
//   in [-r, r-1]); exclusive leaves each element out of its own sum, reverse runs from the end.
//   Sums accumulate in double.
// - Hardmax (ONNX Hardmax-13): 1 at the first largest element along axis (a NaN counts as
//   largest, as ONNX's reference argmax takes it), 0 elsewhere.
// - ReverseSequence (ONNX ReverseSequence-10): per batch entry b, the first sequence_lens[b]
//   steps along time_axis reversed (each length read on each run, in [0, steps]), the rest
//   copied.
// - MeanVarianceNormalization (ONNX MeanVarianceNormalization-13, as its function body):
//   (x - mean) / (sqrt(variance) + 1e-9) with mean and biased variance over `axes`, in double.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_cum_sum(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape;
  if (ctx.out[0].shape != xs) ctx.invalid(ErrorId::Shape, "output shape differs from the input's");
  if (numel(ctx.in[1].shape) != 1) ctx.invalid(ErrorId::Shape, "axis must be a scalar");
  const bool exclusive = ctx.attr_int("exclusive", 0) != 0, reverse = ctx.attr_int("reverse", 0) != 0;
  const int64_t r = static_cast<int64_t>(xs.size());
  const std::string who = ctx.node.name.empty() ? "CumSum" : "CumSum '" + ctx.node.name + "'";
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const float av = in[1][0];
    if (!(av >= -static_cast<float>(r) && av < static_cast<float>(r)) || av != std::trunc(av))
      throw Error(ErrorId::AttributeValue, who + ": axis " + std::to_string(av) + " is outside [-" + std::to_string(r) + ", " +
                                          std::to_string(r) + ")");
    const int64_t axis = static_cast<int64_t>(av) < 0 ? static_cast<int64_t>(av) + r : static_cast<int64_t>(av);
    int64_t outer = 1, inner = 1;
    const int64_t dim = xs[axis];
    for (int64_t d = 0; d < axis; ++d) outer *= xs[d];
    for (int64_t d = axis + 1; d < r; ++d) inner *= xs[d];
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        double sum = 0;
        for (int64_t s = 0; s < dim; ++s) {
          const int64_t j = reverse ? dim - 1 - s : s;
          const int64_t at = (o * dim + j) * inner + i;
          const float v = in[0][at];
          if (!exclusive) sum += v;
          out[0][at] = static_cast<float>(sum);
          if (exclusive) sum += v;
        }
      }
  };
}

Kernel make_hardmax(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape;
  if (ctx.out[0].shape != xs) ctx.invalid(ErrorId::Shape, "output shape differs from the input's");
  const int64_t r = static_cast<int64_t>(xs.size());
  const int64_t axis = ctx.attr_axis("axis", -1, r);
  int64_t outer = 1, inner = 1;
  const int64_t dim = xs[axis];
  for (int64_t d = 0; d < axis; ++d) outer *= xs[d];
  for (int64_t d = axis + 1; d < r; ++d) inner *= xs[d];
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    std::fill(out[0], out[0] + outer * dim * inner, 0.0f);
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < inner; ++i) {
        const float* x = in[0] + o * dim * inner + i;
        int64_t best = 0;
        for (int64_t j = 1; j < dim && !std::isnan(x[best * inner]); ++j)
          if (std::isnan(x[j * inner]) || x[j * inner] > x[best * inner]) best = j;
        if (dim > 0) out[0][(o * dim + best) * inner + i] = 1.0f;
      }
  };
}

Kernel make_reverse_sequence(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape;
  if (xs.size() < 2 || ctx.out[0].shape != xs) ctx.invalid(ErrorId::Shape, "input must have rank >= 2 and the output its shape");
  const int64_t ba = ctx.attr_int("batch_axis", 1), ta = ctx.attr_int("time_axis", 0);
  if ((ba != 0 && ba != 1) || (ta != 0 && ta != 1) || ba == ta) ctx.invalid(ErrorId::AttributeValue, "batch_axis and time_axis must be 0 and 1");
  const int64_t batch = xs[ba], steps = xs[ta], inner = numel(Shape(xs.begin() + 2, xs.end()));
  if (ctx.in[1].shape != Shape{batch}) ctx.invalid(ErrorId::Shape, "sequence_lens must be [batch]");
  // Element (b, t) of the first two dims starts at offset (b * bs + t * ts) * inner.
  const int64_t bs = ba == 0 ? steps : 1, ts = ta == 0 ? batch : 1;
  const std::string who = ctx.node.name.empty() ? "ReverseSequence" : "ReverseSequence '" + ctx.node.name + "'";
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t b = 0; b < batch; ++b) {
      const float lv = in[1][b];
      if (!(lv >= 0 && lv <= static_cast<float>(steps)))
        throw Error(ErrorId::Shape, who + ": sequence_lens[" + std::to_string(b) + "] = " + std::to_string(lv) +
                                            " is outside [0, " + std::to_string(steps) + "]");
      const int64_t len = static_cast<int64_t>(lv);
      for (int64_t t = 0; t < steps; ++t) {
        const int64_t src = t < len ? len - 1 - t : t;
        std::memcpy(out[0] + (b * bs + t * ts) * inner, in[0] + (b * bs + src * ts) * inner,
                    static_cast<std::size_t>(inner) * sizeof(float));
      }
    }
  };
}

Kernel make_mvn(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape;
  if (ctx.out[0].shape != xs) ctx.invalid(ErrorId::Shape, "output shape differs from the input's");
  const int64_t r = static_cast<int64_t>(xs.size());
  // The statistics' shape: X's with the reduced dims set to 1; each element's group is its
  // index there.
  Shape gs = xs;
  for (int64_t a : ctx.attr_ints("axes", {0, 2, 3})) gs[normalize_axis(a, r, "axes value")] = 1;
  const Shape gst = exec::broadcast_strides(gs, xs);
  const int64_t n = numel(xs), groups = numel(gs), per = groups ? n / std::max<int64_t>(groups, 1) : 0;
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<int64_t> group(static_cast<std::size_t>(n));
    std::vector<int64_t> idx(static_cast<std::size_t>(r), 0);
    for (int64_t i = 0, g = 0; i < n; ++i) {
      group[i] = g;
      for (int64_t d = r; d-- > 0;) {
        g += gst[d];
        if (++idx[d] < xs[d]) break;
        g -= gst[d] * xs[d];
        idx[d] = 0;
      }
    }
    std::vector<double> mean(static_cast<std::size_t>(groups), 0.0), var(static_cast<std::size_t>(groups), 0.0);
    for (int64_t i = 0; i < n; ++i) mean[group[i]] += in[0][i];
    for (double& m : mean) m /= static_cast<double>(per);
    for (int64_t i = 0; i < n; ++i) {
      const double dv = in[0][i] - mean[group[i]];
      var[group[i]] += dv * dv;
    }
    for (double& v : var) v /= static_cast<double>(per);
    const double eps = 1e-9f;  // ONNX's constant, a float
    for (int64_t i = 0; i < n; ++i)
      out[0][i] = static_cast<float>((in[0][i] - mean[group[i]]) / (std::sqrt(var[group[i]]) + eps));
  };
}

}  // namespace

void add_axis_kernels(KernelTable& t) {
  t["CumSum"] = make_cum_sum;
  t["Hardmax"] = make_hardmax;
  t["ReverseSequence"] = make_reverse_sequence;
  t["MeanVarianceNormalization"] = make_mvn;
}

}  // namespace nnbridge::cpu_ref
