// Losses over class scores: NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss.
#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

// Input [N, C, d1..dk], target [N, d1..dk], weight [C]: the loss is [N, d1..dk] with reduction
// none, a scalar otherwise (ONNX NegativeLogLikelihoodLoss-13 / SoftmaxCrossEntropyLoss-13).
TensorType loss_type(const InferenceContext& ctx) {
  const std::string& r = ctx.attr_string("reduction");
  if (r != "none" && r != "sum" && r != "mean") fail(ErrorId::AttributeValue, "reduction must be none, sum or mean, not \"" + r + "\"");
  const TensorType& x = input(ctx, 0);
  const TensorType& t = input(ctx, 1);
  if (!x.unknown_rank && x.shape.size() < 2) fail("input must have rank >= 2 ([N, C, ...])");
  if (!x.unknown_rank && !t.unknown_rank) {
    if (t.shape.size() + 1 != x.shape.size()) fail("target must have rank input's - 1");
    for (std::size_t d = 0; d < t.shape.size(); ++d) {
      const int64_t xd = x.shape[d == 0 ? 0 : d + 1], td = t.shape[d];
      if (xd >= 0 && td >= 0 && xd != td) fail("target's dims differ from input's N, d1..dk");
    }
  }
  if (ctx.input_types.size() > 2 && ctx.node.inputs[2] != kNoValue) {
    const TensorType& w = ctx.input_types[2];
    if (!w.unknown_rank && w.shape.size() != 1) fail("weight must be 1-D [C]");
    if (!w.unknown_rank && !x.unknown_rank && w.shape[0] >= 0 && x.shape[1] >= 0 && w.shape[0] != x.shape[1])
      fail("weight has " + std::to_string(w.shape[0]) + " elements, C is " + std::to_string(x.shape[1]));
  }
  if (r != "none") return TensorType{x.dtype, {}, false, std::nullopt};
  if (x.unknown_rank && t.unknown_rank) return unknown_rank(x.dtype);
  std::vector<int64_t> shape;
  if (!t.unknown_rank) {
    shape = t.shape;
  } else {
    shape = x.shape;
    shape.erase(shape.begin() + 1);
  }
  return TensorType{x.dtype, shape, false, std::nullopt};
}

std::vector<AttrSpec> loss_attrs() {
  return {optional_attr("reduction", AttrType::String, Attr("mean"),
                        "none (per element), sum, or mean (the sum divided by the sum of the weights applied)"),
          optional_attr("ignore_index", AttrType::Int, "a target value that contributes nothing (weight 0); absent: none")};
}

const char* kLossRule =
    "Per element (n, d1..dk) with target class c = target[n, d1..dk] in [0, C) (else the run fails, unless it is "
    "ignore_index): loss = -w[c] * input[n, c, d1..dk] with w the optional weight input (all 1 when absent) and w = 0 "
    "where the target is ignore_index. mean divides the sum by the sum of those w.";

}  // namespace

void add_loss_ops(std::vector<OpSchema>& out) {
  out.push_back(make_op("NegativeLogLikelihoodLoss", 2, 3, loss_attrs(),
                        std::string("Inputs input [N, C, d1..dk] (log-probabilities), target [N, d1..dk] (integer), "
                                    "weight [C] (optional). ") + kLossRule,
                        "ONNX NegativeLogLikelihoodLoss-13",
                        [](const InferenceContext& ctx) { return std::vector<TensorType>{loss_type(ctx)}; }));
  OpSchema sce = make_op(
      "SoftmaxCrossEntropyLoss", 2, 3, loss_attrs(),
      std::string("Inputs scores [N, C, d1..dk], labels [N, d1..dk] (integer), weights [C] (optional). log_prob = "
                  "log(softmax(scores)) along C (the optional second output, scores' shape), then "
                  "NegativeLogLikelihoodLoss of log_prob: ") + kLossRule,
      "ONNX SoftmaxCrossEntropyLoss-13", [](const InferenceContext& ctx) {
        std::vector<TensorType> out{loss_type(ctx)};
        if (ctx.node.outputs.size() > 1) out.push_back(same_as_input0(ctx)[0]);
        return out;
      });
  sce.max_outputs = 2;
  out.push_back(std::move(sce));
}

}  // namespace nnbridge::ops
