// Ops whose output shape depends on input values: NonZero, Compress, Unique, Range. Their shape
// inference computes the shape when those inputs are constants and leaves the data-dependent
// dim unknown (-1) otherwise; a backend then takes it from the file's declared type or from
// the values bound at run time.
#include <algorithm>
#include <cmath>

#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

TensorType shaped(DataType dt, std::vector<int64_t> shape) { return TensorType{dt, std::move(shape), false, std::nullopt}; }

int64_t count_nonzero(const std::vector<double>& v) {
  return static_cast<int64_t>(std::count_if(v.begin(), v.end(), [](double x) { return x != 0; }));
}

std::vector<TensorType> infer_non_zero(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  const int64_t rank = x.unknown_rank ? -1 : static_cast<int64_t>(x.shape.size());
  // ONNX NonZero-13: [rank, number of non-zero elements], int64 (a 0-d input counts as rank 1).
  int64_t n = -1;
  if (auto v = constant_values(ctx, 0)) n = count_nonzero(*v);
  return {shaped(DataType::Int64, {rank == 0 ? 1 : rank, n})};
}

std::vector<TensorType> infer_compress(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  const TensorType& cond = input(ctx, 1);
  if (!cond.unknown_rank && cond.shape.size() != 1) fail("condition must be 1-D");
  int64_t n = -1;
  if (auto v = constant_values(ctx, 1)) n = count_nonzero(*v);
  // ONNX Compress-11: without axis the input is flattened first.
  if (!ctx.attr("axis")) return {shaped(x.dtype, {n})};
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  const int64_t axis = normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(x.shape.size()));
  std::vector<int64_t> out = x.shape;
  out[axis] = n;
  return {shaped(x.dtype, out)};
}

// The number of distinct elements (no axis) or distinct slices along `axis` of a constant X.
int64_t distinct_count(const std::vector<double>& v, const std::vector<int64_t>& shape, std::optional<int64_t> axis) {
  if (!axis) {
    std::vector<double> s = v;
    std::sort(s.begin(), s.end());
    return static_cast<int64_t>(std::unique(s.begin(), s.end()) - s.begin());
  }
  int64_t outer = 1, inner = 1;
  const int64_t dim = shape[*axis];
  for (int64_t d = 0; d < *axis; ++d) outer *= shape[d];
  for (std::size_t d = *axis + 1; d < shape.size(); ++d) inner *= shape[d];
  // Slice j is the elements (o, j, i) for all o, i, compared in that order.
  auto element = [&](int64_t j, int64_t k) { return v[((k / inner) * dim + j) * inner + k % inner]; };
  const int64_t len = outer * inner;
  std::vector<int64_t> order(dim);
  for (int64_t j = 0; j < dim; ++j) order[j] = j;
  auto less = [&](int64_t a, int64_t b) {
    for (int64_t k = 0; k < len; ++k)
      if (element(a, k) != element(b, k)) return element(a, k) < element(b, k);
    return false;
  };
  std::sort(order.begin(), order.end(), less);
  int64_t n = dim == 0 ? 0 : 1;
  for (int64_t j = 1; j < dim; ++j) n += less(order[j - 1], order[j]) ? 1 : 0;
  return n;
}

std::vector<TensorType> infer_unique(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  const DataType i64 = DataType::Int64;
  std::optional<int64_t> axis;
  if (ctx.attr("axis")) {
    if (x.unknown_rank) return {unknown_rank(x.dtype), shaped(i64, {-1}), shaped(i64, {-1}), shaped(i64, {-1})};
    axis = normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(x.shape.size()));
  }
  int64_t u = -1;
  if (auto v = constant_values(ctx, 0); v && x.fully_known() && static_cast<int64_t>(v->size()) == *x.element_count())
    u = distinct_count(*v, x.shape, axis);
  // ONNX Unique-11: Y, indices (first occurrence of each), inverse_indices (for each input
  // element or slice, its position in Y), counts.
  std::vector<TensorType> out;
  if (axis) {
    std::vector<int64_t> ys = x.shape;
    ys[*axis] = u;
    out.push_back(shaped(x.dtype, ys));
  } else {
    out.push_back(shaped(x.dtype, {u}));
  }
  out.push_back(shaped(i64, {u}));
  int64_t inv = -1;
  if (axis) inv = x.shape[*axis];
  else if (auto n = x.element_count()) inv = *n;
  out.push_back(shaped(i64, {inv}));
  out.push_back(shaped(i64, {u}));
  out.resize(std::min(out.size(), std::max<std::size_t>(1, ctx.node.outputs.size())));
  return out;
}

std::vector<TensorType> infer_range(const InferenceContext& ctx) {
  const DataType dt = input(ctx, 0).dtype;
  for (std::size_t i = 0; i < 3; ++i) {
    const TensorType& t = input(ctx, i);
    if (!t.unknown_rank && t.element_count() && *t.element_count() != 1)
      fail("start, limit and delta must be scalars");
  }
  auto s = constant_values(ctx, 0), l = constant_values(ctx, 1), d = constant_values(ctx, 2);
  if (!s || !l || !d) return {shaped(dt, {-1})};
  if (s->size() != 1 || l->size() != 1 || d->size() != 1) fail("start, limit and delta must be scalars");
  const double delta = (*d)[0];
  if (delta == 0) fail(ErrorId::AttributeValue, "delta must not be 0");
  // ONNX Range-11: max(ceil((limit - start) / delta), 0) elements.
  const double n = std::ceil(((*l)[0] - (*s)[0]) / delta);
  if (!(n < 9.0e15)) fail("the range has too many elements");
  return {shaped(dt, {n > 0 ? static_cast<int64_t>(n) : 0})};
}

}  // namespace

void add_value_shaped_ops(std::vector<OpSchema>& out) {
  out.push_back(make_op("NonZero", 1, 1, {},
                        "The indices of the non-zero elements of X, as int64 [rank, n]: column j holds the index of the "
                        "j-th non-zero element in C order (a 0-d X is read as [1]). n is known when X is constant.",
                        "ONNX NonZero-13", infer_non_zero));
  out.push_back(make_op(
      "Compress", 2, 2, {optional_attr("axis", AttrType::Int, "the axis selected along; absent: X flattened first")},
      "Keeps the slices of X along axis (or the elements of flattened X) whose condition element (1-D, Bool) is true; "
      "a condition shorter than the axis drops the rest, a true element past its end fails. The selected dim is "
      "known when condition is constant.",
      "ONNX Compress-11", infer_compress));
  OpSchema unique = make_op(
      "Unique", 1, 1,
      {optional_attr("axis", AttrType::Int, "unique slices along axis; absent: unique elements of flattened X"),
       optional_attr("sorted", AttrType::Int, Attr(int64_t{1}),
                     "1: Y ascending (slices compared lexicographically in C order); 0: in order of first occurrence")},
      "Outputs Y (the distinct elements or slices), indices (int64: where each first occurs in X), inverse_indices "
      "(int64: for each element or slice of X its position in Y) and counts (int64: occurrences of each); the last "
      "three are optional. The number of distinct values is known when X is constant.",
      "ONNX Unique-11", infer_unique);
  unique.max_outputs = 4;
  out.push_back(std::move(unique));
  out.push_back(make_op("Range", 3, 3, {},
                        "Scalars start, limit, delta (delta != 0) of one type: the 1-D tensor start + i * delta for "
                        "i in [0, max(ceil((limit - start) / delta), 0)), of start's type. The length is known when "
                        "the three are constant.",
                        "ONNX Range-11", infer_range));
}

}  // namespace nnbridge::ops
