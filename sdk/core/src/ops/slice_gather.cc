// Slicing and indexing: Slice, StridedSlice, Gather, GatherND, ScatterND.
#include <algorithm>

#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

TensorType with_shape(const TensorType& in, std::vector<int64_t> shape) {
  return TensorType{in.dtype, std::move(shape), false, std::nullopt};
}

// Number of elements from `begin` towards `end` (exclusive) by `stride`.
int64_t span_count(int64_t begin, int64_t end, int64_t stride) {
  int64_t interval = end - begin;
  if (interval == 0 || (interval < 0) != (stride < 0)) return 0;
  return interval / stride + (interval % stride != 0 ? 1 : 0);
}

// ONNX Slice-13 on one axis of length `dim`: negative indices count from the end, then starts
// clamp to [0, dim] (step > 0) or [0, dim-1] (step < 0), ends to [0, dim] or [-1, dim-1]
// (INT64_MIN + dim cannot overflow: dim >= 0).
int64_t slice_count(int64_t start, int64_t end, int64_t step, int64_t dim) {
  int64_t s = start < 0 ? start + dim : start;
  int64_t e = end < 0 ? end + dim : end;
  if (step > 0) {
    s = std::clamp<int64_t>(s, 0, dim);
    e = std::clamp<int64_t>(e, 0, dim);
  } else {
    s = std::clamp<int64_t>(s, 0, dim - 1);
    e = std::clamp<int64_t>(e, -1, dim - 1);
  }
  return span_count(s, e, step);
}

// ONNX Slice-13: inputs data, starts, ends, axes (optional), steps (optional). The output shape
// is known where starts and ends are constants (and axes / steps, when given, too); otherwise
// the sliced dims (every dim when axes is not a constant) are unknown.
std::vector<TensorType> infer_slice(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  const int64_t r = static_cast<int64_t>(x.shape.size());
  const auto starts = constant_ints(ctx, 1), ends = constant_ints(ctx, 2);
  const bool has_axes = input_given(ctx, 3), has_steps = input_given(ctx, 4);
  const auto axes_c = has_axes ? constant_ints(ctx, 3) : std::nullopt;
  const auto steps_c = has_steps ? constant_ints(ctx, 4) : std::nullopt;
  if (!starts || !ends || (has_axes && !axes_c) || (has_steps && !steps_c)) {
    std::vector<int64_t> out = x.shape;
    if (has_axes && !axes_c) return {with_shape(x, std::vector<int64_t>(x.shape.size(), -1))};
    std::vector<int64_t> axes;
    if (axes_c) {
      axes = *axes_c;
    } else {
      int64_t n = starts ? static_cast<int64_t>(starts->size()) : ends ? static_cast<int64_t>(ends->size()) : length_of(ctx, 1);
      if (n < 0) n = r;
      for (int64_t i = 0; i < n; ++i) axes.push_back(i);
    }
    for (int64_t a : axes) out[normalize_axis(a, r, "axes value")] = -1;
    return {with_shape(x, out)};
  }
  expect_size(*ends, starts->size(), "ends");
  std::vector<int64_t> axes(starts->size()), steps(starts->size(), 1);
  if (axes_c) {
    axes = *axes_c;
    expect_size(axes, starts->size(), "axes");
  } else {
    for (std::size_t i = 0; i < axes.size(); ++i) axes[i] = static_cast<int64_t>(i);
  }
  if (steps_c) {
    steps = *steps_c;
    expect_size(steps, starts->size(), "steps");
  }
  std::vector<int64_t> out = x.shape;
  std::vector<bool> seen(r, false);
  for (std::size_t i = 0; i < starts->size(); ++i) {
    int64_t a = normalize_axis(axes[i], r, "axes value");
    if (seen[a]) fail(ErrorId::AttributeValue, "axes repeats " + std::to_string(a));
    seen[a] = true;
    int64_t step = steps[i];
    if (step == 0) fail(ErrorId::AttributeValue, "steps must not be 0");
    int64_t dim = x.shape[a];
    if (dim < 0) {
      out[a] = -1;
      continue;
    }
    out[a] = slice_count((*starts)[i], (*ends)[i], step, dim);
  }
  return {with_shape(x, out)};
}

// TensorFlow StridedSlice (tensorflow/core/util/strided_slice_op.cc semantics, re-derived):
// the sparse spec (one entry per begin/end/stride value) expands to one entry per input dim,
// an ellipsis covering the dims no entry names (implicit at the end when absent); new_axis
// entries insert a size-1 dim, shrink_axis entries take one element and drop the dim.
std::vector<TensorType> infer_strided_slice(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  const std::vector<int64_t>& begin = ctx.attr_ints("begin");
  const std::vector<int64_t>& end = ctx.attr_ints("end");
  std::vector<int64_t> strides = ctx.attr("strides") ? ctx.attr_ints("strides") : std::vector<int64_t>(begin.size(), 1);
  expect_size(end, begin.size(), "end");
  expect_size(strides, begin.size(), "strides");
  const int64_t begin_mask = ctx.attr_int("begin_mask"), end_mask = ctx.attr_int("end_mask");
  const int64_t shrink_mask = ctx.attr_int("shrink_axis_mask"), ellipsis_mask = ctx.attr_int("ellipsis_mask");
  const int64_t new_axis_mask = ctx.attr_int("new_axis_mask");
  auto bit = [](int64_t mask, std::size_t i) { return i < 63 && ((mask >> i) & 1) != 0; };

  std::size_t n = begin.size();
  if (n > 62) fail(ErrorId::AttributeValue, "too many slice entries");
  if ((ellipsis_mask & (ellipsis_mask - 1)) != 0) fail(ErrorId::AttributeValue, "ellipsis_mask has more than one bit set");
  bool has_ellipsis = false;
  std::size_t ellipsis_at = n;
  for (std::size_t i = 0; i < n; ++i)
    if (bit(ellipsis_mask, i)) has_ellipsis = true, ellipsis_at = i;
  std::size_t sparse_n = has_ellipsis ? n : n + 1;  // an implicit ellipsis after the last entry
  std::size_t new_after_ellipsis = 0;
  for (std::size_t i = ellipsis_at + 1; i < n; ++i)
    if (bit(new_axis_mask, i)) ++new_after_ellipsis;

  const std::size_t rank = x.shape.size();
  struct Dense {
    int64_t begin = 0, end = 0, stride = 1;
    bool begin_masked = false, end_masked = false, shrink = false;
  };
  std::vector<Dense> dense(rank);
  // For each output position: a dense dim index, kNew (inserted 1) or kShrink (dropped).
  constexpr int64_t kNew = -1, kShrink = -2;
  std::vector<int64_t> gather;
  std::size_t full = 0;
  for (std::size_t i = 0; i < sparse_n; ++i) {
    bool is_ellipsis = i == n || bit(ellipsis_mask, i);
    if (is_ellipsis) {
      std::size_t next = std::min(rank, rank + 1 + new_after_ellipsis - (sparse_n - i));
      if (rank + 1 + new_after_ellipsis < sparse_n - i) fail("more slice entries than input dims");
      for (; full < next; ++full) {
        dense[full].begin_masked = dense[full].end_masked = true;
        gather.push_back(static_cast<int64_t>(full));
      }
    } else if (bit(new_axis_mask, i)) {
      gather.push_back(kNew);
    } else {
      if (full >= rank) fail("more slice entries than input dims");
      Dense& d = dense[full];
      d.begin = begin[i], d.end = end[i], d.stride = strides[i];
      d.begin_masked = bit(begin_mask, i), d.end_masked = bit(end_mask, i), d.shrink = bit(shrink_mask, i);
      gather.push_back(d.shrink ? kShrink : static_cast<int64_t>(full));
      ++full;
    }
  }

  std::vector<int64_t> dims(rank);
  for (std::size_t k = 0; k < rank; ++k) {
    const Dense& d = dense[k];
    const int64_t dim = x.shape[k];
    if (d.stride == 0) fail(ErrorId::AttributeValue, "strides must not be 0");
    if (d.shrink) {
      if (dim >= 0) {
        int64_t b = d.begin < 0 ? d.begin + dim : d.begin;
        if (b < 0 || b >= dim) fail("shrink index " + std::to_string(d.begin) + " out of range for dim " + std::to_string(dim));
      }
      dims[k] = 1;
      continue;
    }
    if (dim < 0) {
      dims[k] = -1;
      continue;
    }
    auto canonical = [&](int64_t v, bool masked, bool is_begin) -> int64_t {
      if (masked) return d.stride > 0 ? (is_begin ? 0 : dim) : (is_begin ? dim - 1 : -1);
      int64_t f = v < 0 ? v + dim : v;
      return d.stride > 0 ? std::clamp<int64_t>(f, 0, dim) : std::clamp<int64_t>(f, -1, dim - 1);
    };
    dims[k] = span_count(canonical(d.begin, d.begin_masked, true), canonical(d.end, d.end_masked, false), d.stride);
  }
  std::vector<int64_t> out;
  for (int64_t g : gather) {
    if (g == kNew) out.push_back(1);
    else if (g != kShrink) out.push_back(dims[g]);
  }
  return {with_shape(x, out)};
}

std::vector<TensorType> infer_gather(const InferenceContext& ctx) {
  const TensorType& data = input(ctx, 0);
  const TensorType& idx = input(ctx, 1);
  if (data.unknown_rank || idx.unknown_rank) return {unknown_rank(data.dtype)};
  const int64_t axis = normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(data.shape.size()));
  // ONNX Gather-13: data[:axis] + indices.shape + data[axis+1:].
  std::vector<int64_t> out(data.shape.begin(), data.shape.begin() + axis);
  out.insert(out.end(), idx.shape.begin(), idx.shape.end());
  out.insert(out.end(), data.shape.begin() + axis + 1, data.shape.end());
  return {with_shape(data, out)};
}

std::vector<TensorType> infer_gather_nd(const InferenceContext& ctx) {
  const TensorType& data = input(ctx, 0);
  const TensorType& idx = input(ctx, 1);
  if (data.unknown_rank || idx.unknown_rank || idx.shape.empty() || idx.shape.back() < 0)
    return {unknown_rank(data.dtype)};
  const int64_t b = ctx.attr_int("batch_dims");
  const int64_t last = idx.shape.back();
  const int64_t r = static_cast<int64_t>(data.shape.size());
  if (b < 0 || b >= static_cast<int64_t>(idx.shape.size()) || b + last > r)
    fail("indices' last dim " + std::to_string(last) + " with batch_dims " + std::to_string(b) + " exceeds data rank " +
         std::to_string(r));
  // ONNX GatherND-13: indices.shape[:-1] + data.shape[batch_dims + indices.shape[-1]:].
  std::vector<int64_t> out(idx.shape.begin(), idx.shape.end() - 1);
  out.insert(out.end(), data.shape.begin() + b + last, data.shape.end());
  return {with_shape(data, out)};
}

std::vector<TensorType> infer_scatter_nd(const InferenceContext& ctx) {
  const std::string& r = ctx.attr_string("reduction");
  if (r != "none" && r != "add" && r != "mul" && r != "max" && r != "min" && r != "sub")
    fail(ErrorId::AttributeValue, "reduction must be none, add, mul, max, min or sub, not \"" + r + "\"");
  const std::string& c = ctx.attr_string("combine_with");
  if (c != "accumulated" && c != "data") fail(ErrorId::AttributeValue, "combine_with must be accumulated or data, not \"" + c + "\"");
  if (ctx.attr_int("data_is_shape") == 0) return same_as_input0(ctx);
  const DataType dt = input(ctx, 2).dtype;
  if (auto s = constant_ints(ctx, 0)) {
    for (int64_t d : *s)
      if (d < 1) fail(ErrorId::AttributeValue, "shape values must be >= 1");
    return {TensorType{dt, *s, false, std::nullopt}};
  }
  const TensorType& shape = input(ctx, 0);
  if (!shape.unknown_rank && shape.shape.size() == 1 && shape.shape[0] >= 0)
    return {TensorType{dt, std::vector<int64_t>(static_cast<std::size_t>(shape.shape[0]), -1), false, std::nullopt}};
  return {unknown_rank(dt)};
}

}  // namespace

void add_slice_gather_ops(std::vector<OpSchema>& out) {
  out.push_back(make_op("Slice", 3, 5, {},
                        "Takes elements starts[i], starts[i]+steps[i], ... before ends[i] along axes[i] (inputs 1-4: "
                        "int32/int64 1-D; axes absent: 0, 1, ...; steps absent: all 1); indices are clamped to the dim. "
                        "The output shape needs starts and ends (and axes / steps when given) as constants.",
                        "ONNX Slice-13; Arm NN Slice", infer_slice));
  std::vector<AttrSpec> ss{
      required_attr("begin", AttrType::Ints, "begin per slice entry"),
      required_attr("end", AttrType::Ints, "end (exclusive) per slice entry"),
      optional_attr("strides", AttrType::Ints, "stride per slice entry; absent: all 1")};
  for (const char* m : {"begin_mask", "end_mask", "shrink_axis_mask", "ellipsis_mask", "new_axis_mask"})
    ss.push_back(optional_attr(m, AttrType::Int, Attr(int64_t{0}), "bit i applies to slice entry i (TensorFlow)"));
  out.push_back(make_op("StridedSlice", 1, 1, std::move(ss),
                        "NumPy-style basic indexing with TensorFlow's masks: begin_mask/end_mask ignore begin/end, "
                        "shrink_axis_mask takes one index and drops the dim, new_axis_mask inserts a 1, "
                        "ellipsis_mask stands for all unnamed dims.",
                        "TensorFlow StridedSlice (no ONNX op); Arm NN StridedSlice", infer_strided_slice));
  out.push_back(make_op("Gather", 2, 2, {optional_attr("axis", AttrType::Int, Attr(int64_t{0}), "the axis indexed")},
                        "Output data[:axis] + indices.shape + data[axis+1:].", "ONNX Gather-13; Arm NN Gather",
                        infer_gather));
  out.push_back(make_op("GatherND", 2, 2,
                        {optional_attr("batch_dims", AttrType::Int, Attr(int64_t{0}), "leading dims shared by data and indices")},
                        "Output indices.shape[:-1] + data.shape[batch_dims + indices.shape[-1]:].",
                        "ONNX GatherND-13; Arm NN GatherNd", infer_gather_nd));
  out.push_back(make_op(
      "ScatterND", 3, 3,
      {optional_attr("reduction", AttrType::String, Attr("none"),
                     "none (write), add, mul, max, min (ONNX ScatterND-18), or sub (data - update: Arm NN "
                     "ScatterNdFunction Sub, an nnbridge extension)"),
       optional_attr("data_is_shape", AttrType::Int, Attr(int64_t{0}),
                     "1: input 0 is not data but the output shape (constant 1-D integer tensor) and the data is "
                     "all zeros (Arm NN ScatterNdDescriptor.m_InputEnabled = false)"),
       optional_attr("combine_with", AttrType::String, Attr("accumulated"),
                     "\"accumulated\": each update combines with the element as updated so far (ONNX); \"data\": "
                     "with data's original element, so of duplicate indices the last wins (Arm NN CpuRef ScatterNd)")},
      "A copy of data [r dims] with updates written at indices [q dims, last k <= r]: for each index tuple "
      "indices[i0..iq-2], output[tuple] = combine(output[tuple], updates[i0..iq-2]) (whole slices when k < r). "
      "Output has data's dtype and shape (updates' dtype and the constant shape with data_is_shape = 1). "
      "Duplicate indices with reduction none are an error at run time (ONNX leaves them undefined).",
      "ONNX ScatterND-18; Arm NN ScatterNd (RefScatterNd)", infer_scatter_nd));
}

}  // namespace nnbridge::ops
