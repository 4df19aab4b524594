// Element-wise indexing by index tensors: GatherElements, ScatterElements, OneHot, TopK.
#include <cmath>

#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

TensorType shaped(DataType dt, std::vector<int64_t> shape) { return TensorType{dt, std::move(shape), false, std::nullopt}; }

// Data and indices of GatherElements / ScatterElements have the same rank (ONNX GatherElements-13,
// ScatterElements-16); the axis is checked against it.
void check_same_rank(const InferenceContext& ctx, const TensorType& data, const TensorType& idx) {
  if (data.unknown_rank || idx.unknown_rank) return;
  if (data.shape.size() != idx.shape.size())
    fail("indices have rank " + std::to_string(idx.shape.size()) + ", data rank " + std::to_string(data.shape.size()));
  if (data.shape.empty()) fail("data must have rank >= 1");
  (void)normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(data.shape.size()));
}

std::vector<TensorType> infer_gather_elements(const InferenceContext& ctx) {
  const TensorType& data = input(ctx, 0);
  const TensorType& idx = input(ctx, 1);
  check_same_rank(ctx, data, idx);
  // ONNX GatherElements-13: the output has the indices' shape and the data's type.
  if (idx.unknown_rank) return {unknown_rank(data.dtype)};
  return {shaped(data.dtype, idx.shape)};
}

std::vector<TensorType> infer_scatter_elements(const InferenceContext& ctx) {
  const std::string& r = ctx.attr_string("reduction");
  if (r != "none" && r != "add" && r != "mul" && r != "max" && r != "min")
    fail(ErrorId::AttributeValue, "reduction must be none, add, mul, max or min, not \"" + r + "\"");
  const TensorType& data = input(ctx, 0);
  const TensorType& idx = input(ctx, 1);
  const TensorType& upd = input(ctx, 2);
  check_same_rank(ctx, data, idx);
  if (!idx.unknown_rank && !upd.unknown_rank) {
    if (idx.shape.size() != upd.shape.size()) fail("updates and indices differ in rank");
    for (std::size_t d = 0; d < idx.shape.size(); ++d)
      if (idx.shape[d] >= 0 && upd.shape[d] >= 0 && idx.shape[d] != upd.shape[d])
        fail("updates and indices differ in dim " + std::to_string(d));
  }
  return same_as_input0(ctx);
}

std::vector<TensorType> infer_one_hot(const InferenceContext& ctx) {
  const TensorType& idx = input(ctx, 0);
  const TensorType& values = input(ctx, 2);
  if (!values.unknown_rank && values.element_count() && *values.element_count() != 2)
    fail("values must hold two elements [off_value, on_value]");
  if (idx.unknown_rank) return {unknown_rank(values.dtype)};
  // ONNX OneHot-11: a new dim of size depth inserted at axis, in [-(r+1), r].
  const int64_t r = static_cast<int64_t>(idx.shape.size());
  const int64_t axis = normalize_axis(ctx.attr_int("axis"), r + 1);
  int64_t depth = -1;
  if (auto d = constant_values(ctx, 1)) {
    if (d->size() != 1) fail("depth must hold one element");
    const double v = (*d)[0];
    if (!(v >= 1) || v > 9.0e15) fail(ErrorId::AttributeValue, "depth must be >= 1");
    depth = static_cast<int64_t>(v);
  }
  std::vector<int64_t> out = idx.shape;
  out.insert(out.begin() + axis, depth);
  return {shaped(values.dtype, out)};
}

std::vector<TensorType> infer_top_k(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype), unknown_rank(DataType::Int64)};
  const int64_t r = static_cast<int64_t>(x.shape.size());
  if (r == 0) fail("X must have rank >= 1");
  const int64_t axis = normalize_axis(ctx.attr_int("axis"), r);
  std::vector<int64_t> out = x.shape;
  out[axis] = -1;
  if (auto k = constant_ints(ctx, 1)) {
    if (k->size() != 1) fail("K must hold one element");
    const int64_t kv = (*k)[0];
    if (kv < 0 || (x.shape[axis] >= 0 && kv > x.shape[axis]))
      fail("K = " + std::to_string(kv) + " is outside [0, " + std::to_string(x.shape[axis]) + "]");
    out[axis] = kv;
  }
  return {shaped(x.dtype, out), shaped(DataType::Int64, out)};
}

}  // namespace

void add_index_ops(std::vector<OpSchema>& out) {
  out.push_back(make_op("GatherElements", 2, 2,
                        {optional_attr("axis", AttrType::Int, Attr(int64_t{0}), "the axis indexed, in [-r, r-1]")},
                        "output[i0..ir-1] = data[i0.., indices[i0..ir-1], ..] with the index replacing dim `axis`: "
                        "indices have data's rank, the output has the indices' shape and data's dtype. Negative indices "
                        "count from the end; an index outside [-dim, dim) fails the run.",
                        "ONNX GatherElements-13", infer_gather_elements));
  out.push_back(make_op(
      "ScatterElements", 3, 3,
      {optional_attr("axis", AttrType::Int, Attr(int64_t{0}), "the axis indexed, in [-r, r-1]"),
       optional_attr("reduction", AttrType::String, Attr("none"),
                     "none (write), add, mul (ONNX ScatterElements-16), max or min (ScatterElements-18)")},
      "A copy of data where, for each position p of indices (data's rank; updates has the indices' shape), the "
      "element at p with dim `axis` replaced by indices[p] becomes updates[p] (reduction none) or is combined with it "
      "(add, mul, max, min), positions taken in C order. Negative indices count from the end; an index outside "
      "[-dim, dim) fails the run; duplicate targets with reduction none keep the last update (ONNX leaves the order "
      "undefined).",
      "ONNX ScatterElements-16 (Scatter-11 is its deprecated name)", infer_scatter_elements));
  out.push_back(make_op(
      "OneHot", 3, 3,
      {optional_attr("axis", AttrType::Int, Attr(int64_t{-1}), "position of the new dim, in [-(r+1), r]")},
      "Inputs indices (any numeric type), depth (one element, > 0) and values [off_value, on_value]. The output "
      "inserts a dim of size depth at `axis`; it holds on_value where the index along it equals indices (a negative "
      "index counts from depth) and off_value elsewhere; an index outside [-depth, depth-1] gives all off_value. "
      "dtype of values.",
      "ONNX OneHot-11", infer_one_hot));
  OpSchema topk = make_op(
      "TopK", 2, 2,
      {optional_attr("axis", AttrType::Int, Attr(int64_t{-1}), "the axis searched"),
       optional_attr("largest", AttrType::Int, Attr(int64_t{1}), "1: the K largest, 0: the K smallest"),
       optional_attr("sorted", AttrType::Int, Attr(int64_t{1}),
                     "1: in order (largest first with largest 1); 0: any order (nnbridge sorts anyway)")},
      "Input K (one int64 element in [0, dim]). Outputs Values (X's dtype) and Indices (int64), X's shape with dim "
      "`axis` = K: the K largest (smallest) elements along axis with their indices; of equal elements the one of "
      "lower index comes first.",
      "ONNX TopK-11", infer_top_k);
  topk.min_outputs = topk.max_outputs = 2;
  out.push_back(std::move(topk));
}

}  // namespace nnbridge::ops
