// Ops along axes that keep the shape: CumSum, Hardmax, ReverseSequence, MeanVarianceNormalization.
#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

std::vector<TensorType> infer_cum_sum(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  const TensorType& a = input(ctx, 1);
  if (!a.unknown_rank && a.element_count() && *a.element_count() != 1) fail("axis must be a scalar");
  if (auto axis = constant_ints(ctx, 1); axis && !x.unknown_rank) {
    if (axis->size() != 1) fail("axis must be a scalar");
    (void)normalize_axis((*axis)[0], static_cast<int64_t>(x.shape.size()));
  }
  return same_as_input0(ctx);
}

std::vector<TensorType> infer_hardmax(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (!x.unknown_rank) (void)normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(x.shape.size()));
  return same_as_input0(ctx);
}

std::vector<TensorType> infer_reverse_sequence(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  const TensorType& lens = input(ctx, 1);
  if (!lens.unknown_rank && lens.shape.size() != 1) fail("sequence_lens must be 1-D [batch]");
  if (!x.unknown_rank) {
    const int64_t r = static_cast<int64_t>(x.shape.size());
    if (r < 2) fail("input must have rank >= 2");
    const int64_t b = ctx.attr_int("batch_axis"), t = ctx.attr_int("time_axis");
    // ONNX ReverseSequence-10: batch_axis and time_axis are 0 or 1, and differ.
    if ((b != 0 && b != 1) || (t != 0 && t != 1) || b == t) fail(ErrorId::AttributeValue, "batch_axis and time_axis must be 0 and 1 or 1 and 0");
    if (!lens.unknown_rank && lens.shape[0] >= 0 && x.shape[b] >= 0 && lens.shape[0] != x.shape[b])
      fail("sequence_lens has " + std::to_string(lens.shape[0]) + " elements for a batch of " + std::to_string(x.shape[b]));
  }
  return same_as_input0(ctx);
}

std::vector<TensorType> infer_mvn(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (!x.unknown_rank)
    for (int64_t a : ctx.attr_ints("axes")) (void)normalize_axis(a, static_cast<int64_t>(x.shape.size()), "axes value");
  return same_as_input0(ctx);
}

}  // namespace

void add_axis_ops(std::vector<OpSchema>& out) {
  out.push_back(make_op(
      "CumSum", 2, 2,
      {optional_attr("exclusive", AttrType::Int, Attr(int64_t{0}), "1: each sum leaves out its own element"),
       optional_attr("reverse", AttrType::Int, Attr(int64_t{0}), "1: sums run from the end of the axis")},
      "Running sums of x along the axis given by input 1 (a scalar int32/int64, in [-r, r-1]); the shape is kept.",
      "ONNX CumSum-14", infer_cum_sum));
  out.push_back(make_op("Hardmax", 1, 1,
                        {optional_attr("axis", AttrType::Int, Attr(int64_t{-1}), "the axis, in [-r, r-1]")},
                        "1 at the first largest element along axis, 0 elsewhere; the shape is kept.", "ONNX Hardmax-13",
                        infer_hardmax));
  out.push_back(make_op(
      "ReverseSequence", 2, 2,
      {optional_attr("batch_axis", AttrType::Int, Attr(int64_t{1}), "the batch axis, 0 or 1"),
       optional_attr("time_axis", AttrType::Int, Attr(int64_t{0}), "the time axis, 1 or 0")},
      "For each batch entry b, reverses its first sequence_lens[b] elements along time_axis (input 1, int64 [batch], "
      "each in [0, time steps]) and copies the rest; the shape is kept.",
      "ONNX ReverseSequence-10", infer_reverse_sequence));
  out.push_back(make_op(
      "MeanVarianceNormalization", 1, 1,
      {optional_attr("axes", AttrType::Ints, Attr(std::vector<int64_t>{0, 2, 3}), "the axes the statistics run over")},
      "(X - mean) / (sqrt(variance) + 1e-9), mean and (biased) variance over `axes`; the shape is kept.",
      "ONNX MeanVarianceNormalization-13 (its function body: ReduceMean, Sqrt, epsilon 1e-9 added to the deviation)",
      infer_mvn));
}

}  // namespace nnbridge::ops
