// Losses of the opencl backend (kernels/loss.cl): NegativeLogLikelihoodLoss and
// SoftmaxCrossEntropyLoss as cpu_ref/src/kernels/loss.cc computes them (its shapes, attributes,
// refusals and messages). A target out of range is found on the device and refused at run time.
#include <string>
#include <vector>

#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

enum class Reduction { None, Sum, Mean };

struct LossShape {
  int64_t n = 0, c = 0, d = 1;
  Reduction red = Reduction::Mean;
  int weighted = 0, has_ignore = 0;
  float ignore = 0;
};

LossShape loss_shape(const OpContext& c) {
  const KernelContext& k = c.k;
  LossShape s;
  const Shape xs = k.in[0].shape, ts = k.in[1].shape;
  if (xs.size() < 2) k.invalid(ErrorId::Shape, "input must be [N, C, d1..dk]");
  if (ts.size() + 1 != xs.size()) k.invalid(ErrorId::Shape, "target must be [N, d1..dk]");
  for (std::size_t i = 0; i < ts.size(); ++i)
    if (ts[i] != xs[i == 0 ? 0 : i + 1]) k.invalid(ErrorId::Shape, "target's dims differ from input's N, d1..dk");
  s.n = xs[0];
  s.c = xs[1];
  for (std::size_t i = 2; i < xs.size(); ++i) s.d *= xs[i];
  s.weighted = k.has_input(2);
  if (s.weighted && k.in[2].shape != Shape{s.c}) k.invalid(ErrorId::Shape, "weight must be [C]");
  const std::string r = k.attr_string("reduction", "mean");
  if (r == "none") s.red = Reduction::None;
  else if (r == "sum") s.red = Reduction::Sum;
  else if (r == "mean") s.red = Reduction::Mean;
  else k.unsupported("reduction " + r);
  if (numel(k.out[0].shape) != (s.red == Reduction::None ? s.n * s.d : 1)) k.invalid(ErrorId::Shape, "loss has the wrong size");
  if (k.attr("ignore_index")) {
    s.has_ignore = 1;
    s.ignore = static_cast<float>(k.attr_int("ignore_index"));
  }
  c.to_int(numel(xs));
  return s;
}

// The loss of log-probabilities `logp` against in[1] (target) into out[0]; refuses the first
// target out of range.
struct Nll {
  LossShape s;
  cl::Kernel none, total;
  IndexFlags flags;
  std::string name;

  Nll(const OpContext& c, const LossShape& shape)
      : s(shape), none(c.kernel("loss.cl", "nll_none")), total(c.kernel("loss.cl", "nll_total")), flags(c.dev, 1), name(who(c.k)) {}

  void operator()(const Device& dev, const cl::Buffer& logp, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) {
    const int C = static_cast<int>(s.c), D = static_cast<int>(s.d), count = static_cast<int>(s.n * s.d);
    const cl::Buffer& weight = s.weighted ? in[2] : in[1];
    flags.reset(dev);
    if (s.red == Reduction::None) {
      set_args(none, logp, in[1], weight, out[0], C, D, s.weighted, s.has_ignore, s.ignore, flags.buffer());
      enqueue(dev, none, count);
    } else {
      set_args(total, logp, in[1], weight, out[0], count, C, D, s.weighted, s.has_ignore, s.ignore,
               s.red == Reduction::Mean ? 1 : 0, flags.buffer());
      enqueue(dev, total, 1);
    }
    const int at = flags.read(dev)[0];
    if (at == INT_MAX) return;
    throw Error(ErrorId::DanglingReference, name + ": target " + std::to_string(IndexFlags::element(dev, in[1], at)) + " is outside [0, " +
                                        std::to_string(s.c) + ") and not ignore_index");
  }
};

// NegativeLogLikelihoodLoss-13: the input holds the log-probabilities.
Launch nll(const OpContext& c) {
  Nll loss(c, loss_shape(c));
  return [loss](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    loss(dev, in[0], in, out);
  };
}

// SoftmaxCrossEntropyLoss-13: log(softmax(scores)) over C, into the optional output log_prob
// (else a buffer of the plan's), then the NLL of it.
Launch sce(const OpContext& c) {
  const LossShape s = loss_shape(c);
  const bool log_prob_out = c.k.out.size() > 1 && c.k.out[1].dtype != DataType::Undefined;
  if (log_prob_out && c.k.out[1].shape != c.k.in[0].shape) c.k.invalid(ErrorId::Shape, "log_prob must have the scores' shape");
  const std::size_t n = static_cast<std::size_t>(std::max<int64_t>(numel(c.k.in[0].shape), 1));
  const cl::Buffer own = log_prob_out ? cl::Buffer() : cl::Buffer(c.dev.context, CL_MEM_READ_WRITE, n * sizeof(float));
  Nll loss(c, s);
  cl::Kernel lsm = c.kernel("loss.cl", "log_softmax_c");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    const cl::Buffer& lp = log_prob_out ? out[1] : own;
    set_args(lsm, in[0], lp, static_cast<int>(s.c), static_cast<int>(s.d));
    if (s.c > 0) enqueue(dev, lsm, s.n * s.d);
    loss(dev, lp, in, out);
  };
}

}  // namespace

void add_loss_ops(OpTable& t) {
  t["NegativeLogLikelihoodLoss"] = nll;
  t["SoftmaxCrossEntropyLoss"] = sce;
}

}  // namespace nnbridge::gpu
