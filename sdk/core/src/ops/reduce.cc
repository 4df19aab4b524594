// Reductions: ReduceMean/Sum/Max/Min/Prod/L1/L2/SumSquare/LogSum/LogSumExp and ArgMax/ArgMin.
#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

std::vector<int64_t> reduce_shape(const std::vector<int64_t>& in, const std::vector<int64_t>& axes, bool keepdims) {
  const int64_t r = static_cast<int64_t>(in.size());
  std::vector<bool> reduced(r, axes.empty());  // ONNX: no axes reduces every dim
  for (int64_t a : axes) {
    int64_t n = normalize_axis(a, r, "axes value");
    if (reduced[n]) fail(ErrorId::AttributeValue, "axes repeats " + std::to_string(n));
    reduced[n] = true;
  }
  std::vector<int64_t> out;
  for (int64_t i = 0; i < r; ++i) {
    if (!reduced[i]) out.push_back(in[i]);
    else if (keepdims) out.push_back(1);
  }
  return out;
}

std::vector<TensorType> infer_reduce(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  std::vector<int64_t> axes = ctx.attr("axes") ? ctx.attr_ints("axes") : std::vector<int64_t>{};
  return {TensorType{x.dtype, reduce_shape(x.shape, axes, ctx.attr_int("keepdims") != 0), false, std::nullopt}};
}

// ONNX ReduceSum-13: axes is input 1; absent or empty, every dim is reduced, unless
// noop_with_empty_axes is 1 (then the output is the input).
std::vector<TensorType> infer_reduce_sum(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  const bool keepdims = ctx.attr_int("keepdims") != 0, noop = ctx.attr_int("noop_with_empty_axes") != 0;
  std::vector<int64_t> axes;
  if (input_given(ctx, 1)) {
    auto c = constant_ints(ctx, 1);
    if (!c) {
      const int64_t k = length_of(ctx, 1);
      const int64_t r = static_cast<int64_t>(x.shape.size());
      if (keepdims || (k == 0 && noop)) return {TensorType{x.dtype, std::vector<int64_t>(r, -1), false, std::nullopt}};
      if (k == 0) return {TensorType{x.dtype, {}, false, std::nullopt}};
      if (k > 0 && k <= r) return {TensorType{x.dtype, std::vector<int64_t>(r - k, -1), false, std::nullopt}};
      return {unknown_rank(x.dtype)};
    }
    axes = *c;
  }
  if (axes.empty() && noop) return {TensorType{x.dtype, x.shape, false, std::nullopt}};
  return {TensorType{x.dtype, reduce_shape(x.shape, axes, keepdims), false, std::nullopt}};
}

std::vector<TensorType> infer_arg(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  // The index type is the file's choice (Arm NN: Signed32 or Signed64); ONNX's is int64.
  DataType dt = declared_dtype(ctx, 0, {DataType::Int32, DataType::Int64}, DataType::Int64);
  if (x.unknown_rank) return {unknown_rank(dt)};
  int64_t axis = normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(x.shape.size()));
  return {TensorType{dt, reduce_shape(x.shape, {axis}, ctx.attr_int("keepdims") != 0), false, std::nullopt}};
}

}  // namespace

void add_reduce_ops(std::vector<OpSchema>& out) {
  struct R {
    const char* name;
    const char* doc;
    const char* source;
  };
  for (R r : {R{"ReduceMean", "Mean", "ONNX ReduceMean-13 (axes attribute); Arm NN Mean / Reduce Mean"},
              R{"ReduceMax", "Maximum", "ONNX ReduceMax-13; Arm NN Reduce Max"},
              R{"ReduceMin", "Minimum", "ONNX ReduceMin-13; Arm NN Reduce Min"},
              R{"ReduceProd", "Product", "ONNX ReduceProd-13; Arm NN Reduce Prod"},
              R{"ReduceL1", "Sum of |x|", "ONNX ReduceL1-13"}, R{"ReduceL2", "sqrt of the sum of x^2", "ONNX ReduceL2-13"},
              R{"ReduceSumSquare", "Sum of x^2", "ONNX ReduceSumSquare-13"},
              R{"ReduceLogSum", "log of the sum (of an empty set: -inf)", "ONNX ReduceLogSum-13"},
              R{"ReduceLogSumExp", "log of the sum of e^x (computed as max + log(sum e^(x - max)))",
                "ONNX ReduceLogSumExp-13"}}) {
    out.push_back(make_op(r.name, 1, 1,
                          {optional_attr("axes", AttrType::Ints, Attr(std::vector<int64_t>{}),
                                         "the reduced axes; empty: all"),
                           optional_attr("keepdims", AttrType::Int, Attr(int64_t{1}),
                                         "1: reduced dims stay as size 1 (ONNX default; Arm NN's keepDims defaults to false)")},
                          std::string(r.doc) + " over `axes`. Output has the input's dtype.", r.source, infer_reduce));
  }
  out.push_back(make_op("ReduceSum", 1, 2,
                        {optional_attr("keepdims", AttrType::Int, Attr(int64_t{1}),
                                       "1: reduced dims stay as size 1 (ONNX default; Arm NN's keepDims defaults to false)"),
                         optional_attr("noop_with_empty_axes", AttrType::Int, Attr(int64_t{0}),
                                       "1: axes absent or empty is the identity (0: every dim is reduced)")},
                        "Sum over the axes of input 1 (`axes`, int64 1-D; absent or empty: all dims, or none with "
                        "noop_with_empty_axes). Output has the input's dtype.",
                        "ONNX ReduceSum-13; Arm NN Reduce Sum", infer_reduce_sum));
  auto arg_attrs = [] {
    return std::vector<AttrSpec>{
        optional_attr("axis", AttrType::Int, Attr(int64_t{0}), "the reduced axis"),
        optional_attr("keepdims", AttrType::Int, Attr(int64_t{1}), "1: the axis stays as size 1"),
        optional_attr("select_last_index", AttrType::Int, Attr(int64_t{0}), "1: ties give the last index")};
  };
  out.push_back(make_op("ArgMax", 1, 1, arg_attrs(),
                        "Index of the largest element along `axis`; Int64 output, or Int32 where the file declares it.",
                        "ONNX ArgMax-13; Arm NN ArgMinMax Max", infer_arg));
  out.push_back(make_op("ArgMin", 1, 1, arg_attrs(),
                        "Index of the smallest element along `axis`; Int64 output, or Int32 where the file declares it.",
                        "ONNX ArgMin-13; Arm NN ArgMinMax Min", infer_arg));
}

}  // namespace nnbridge::ops
