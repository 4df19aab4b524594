// Losses over class scores (semantics: sdk/core/src/ops/loss.cc).
// - NegativeLogLikelihoodLoss (ONNX NegativeLogLikelihoodLoss-13) of input [N, C, d1..dk]
//   (read as [N, C, D]), target [N, D] and the optional weight [C]: per element
//   -w[t] * input[n, t, d], w = 0 where t is ignore_index; a target outside [0, C) that is not
//   ignore_index fails the run. reduction sum adds, mean divides the sum by the sum of the w.
// - SoftmaxCrossEntropyLoss (ONNX SoftmaxCrossEntropyLoss-13): the same of log(softmax(scores))
//   over C (x - max - log(sum(exp(x - max)))), which is also the optional output log_prob.
// Sums accumulate in double.
#include <algorithm>
#include <cmath>
#include <vector>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

enum class Reduction { None, Sum, Mean };

struct LossShape {
  int64_t n = 0, c = 0, d = 1;
  Reduction red = Reduction::Mean;
  bool weighted = false, has_ignore = false;
  float ignore = 0;
  std::string who;
};

LossShape loss_shape(const KernelContext& ctx) {
  LossShape s;
  const Shape xs = ctx.in[0].shape, ts = ctx.in[1].shape;
  if (xs.size() < 2) ctx.invalid(ErrorId::Shape, "input must be [N, C, d1..dk]");
  if (ts.size() + 1 != xs.size()) ctx.invalid(ErrorId::Shape, "target must be [N, d1..dk]");
  for (std::size_t k = 0; k < ts.size(); ++k)
    if (ts[k] != xs[k == 0 ? 0 : k + 1]) ctx.invalid(ErrorId::Shape, "target's dims differ from input's N, d1..dk");
  s.n = xs[0];
  s.c = xs[1];
  for (std::size_t k = 2; k < xs.size(); ++k) s.d *= xs[k];
  s.weighted = ctx.has_input(2);
  if (s.weighted && ctx.in[2].shape != Shape{s.c}) ctx.invalid(ErrorId::Shape, "weight must be [C]");
  const std::string r = ctx.attr_string("reduction", "mean");
  if (r == "none") s.red = Reduction::None;
  else if (r == "sum") s.red = Reduction::Sum;
  else if (r == "mean") s.red = Reduction::Mean;
  else ctx.unsupported("reduction " + r);
  if (numel(ctx.out[0].shape) != (s.red == Reduction::None ? s.n * s.d : 1)) ctx.invalid(ErrorId::Shape, "loss has the wrong size");
  if (ctx.attr("ignore_index")) {
    s.has_ignore = true;
    s.ignore = static_cast<float>(ctx.attr_int("ignore_index"));
  }
  s.who = ctx.node.name.empty() ? ctx.node.op : ctx.node.op + " '" + ctx.node.name + "'";
  return s;
}

// The loss of log-probabilities `logp` [N, C, D] against `target` [N, D] into `out`.
void nll(const LossShape& s, const float* logp, const float* target, const float* weight, float* out) {
  double sum = 0, wsum = 0;
  for (int64_t i = 0; i < s.n; ++i)
    for (int64_t k = 0; k < s.d; ++k) {
      const float t = target[i * s.d + k];
      double l = 0, w = 0;
      if (!(s.has_ignore && t == s.ignore)) {
        if (!(t >= 0 && t < static_cast<float>(s.c)))
          throw Error(ErrorId::DanglingReference, s.who + ": target " + std::to_string(t) + " is outside [0, " +
                                              std::to_string(s.c) + ") and not ignore_index");
        const int64_t c = static_cast<int64_t>(t);
        w = weight ? weight[c] : 1.0;
        l = -w * logp[(i * s.c + c) * s.d + k];
      }
      if (s.red == Reduction::None) out[i * s.d + k] = static_cast<float>(l);
      sum += l;
      wsum += w;
    }
  if (s.red == Reduction::Sum) out[0] = static_cast<float>(sum);
  if (s.red == Reduction::Mean) out[0] = static_cast<float>(sum / wsum);
}

Kernel make_nll(const KernelContext& ctx) {
  const LossShape s = loss_shape(ctx);
  return [s](std::span<const float* const> in, std::span<float* const> out) {
    nll(s, in[0], in[1], s.weighted ? in[2] : nullptr, out[0]);
  };
}

Kernel make_sce(const KernelContext& ctx) {
  const LossShape s = loss_shape(ctx);
  const bool log_prob_out = ctx.out.size() > 1 && ctx.out[1].dtype != DataType::Undefined;
  if (log_prob_out && ctx.out[1].shape != ctx.in[0].shape) ctx.invalid(ErrorId::Shape, "log_prob must have the scores' shape");
  return [s, log_prob_out](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<float> own;
    float* lp = log_prob_out ? out[1] : nullptr;
    if (!lp) {
      own.resize(static_cast<std::size_t>(s.n * s.c * s.d));
      lp = own.data();
    }
    const float* x = in[0];
    for (int64_t i = 0; i < s.n; ++i)
      for (int64_t k = 0; k < s.d; ++k) {
        const int64_t base = i * s.c * s.d + k;
        float mx = -INFINITY;
        for (int64_t c = 0; c < s.c; ++c) mx = std::max(mx, x[base + c * s.d]);
        double e = 0;
        for (int64_t c = 0; c < s.c; ++c) e += std::exp(static_cast<double>(x[base + c * s.d]) - mx);
        const double lse = mx + std::log(e);
        for (int64_t c = 0; c < s.c; ++c) lp[base + c * s.d] = static_cast<float>(x[base + c * s.d] - lse);
      }
    nll(s, lp, in[1], s.weighted ? in[2] : nullptr, out[0]);
  };
}

}  // namespace

void add_loss_kernels(KernelTable& t) {
  t["NegativeLogLikelihoodLoss"] = make_nll;
  t["SoftmaxCrossEntropyLoss"] = make_sce;
}

}  // namespace nnbridge::cpu_ref
