// Ops that move elements without computing: Reshape, Transpose, Concat, Split, Pad, Tile ...
#include <algorithm>
#include <cmath>
#include <numeric>

#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

TensorType with_shape(const TensorType& in, std::vector<int64_t> shape) {
  return TensorType{in.dtype, std::move(shape), false, std::nullopt};
}

std::vector<TensorType> infer_reshape(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  std::vector<int64_t> target;
  if (ctx.attr("shape")) {
    target = ctx.attr_ints("shape");
  } else if (auto c = constant_ints(ctx, 1)) {
    target = *c;
  } else {
    if (ctx.input_types.size() > 1 && !ctx.input_types[1].unknown_rank && ctx.input_types[1].shape.size() == 1 &&
        ctx.input_types[1].shape[0] >= 0)
      return {with_shape(x, std::vector<int64_t>(ctx.input_types[1].shape[0], -1))};
    if (ctx.input_types.size() < 2) fail(ErrorId::AttributeValue, "needs the `shape` attribute or a second input");
    return {unknown_rank(x.dtype)};
  }
  // ONNX Reshape-14: 0 copies the input dim (unless allowzero), one -1 is inferred from the element count.
  const bool allowzero = ctx.attr_int("allowzero") != 0;
  int infer_at = -1;
  std::vector<int64_t> out(target.size());
  for (std::size_t i = 0; i < target.size(); ++i) {
    int64_t d = target[i];
    if (d == -1) {
      if (infer_at >= 0) fail(ErrorId::AttributeValue, "shape has more than one -1");
      infer_at = static_cast<int>(i);
      out[i] = -1;
    } else if (d == 0 && !allowzero) {
      if (x.unknown_rank) out[i] = -1;
      else if (i >= x.shape.size()) fail("shape[" + std::to_string(i) + "] = 0 copies a dim the input lacks");
      else out[i] = x.shape[i];
    } else if (d < 0) {
      fail("shape[" + std::to_string(i) + "] = " + std::to_string(d) + " is invalid");
    } else {
      out[i] = d;
    }
  }
  auto total = x.element_count();
  if (infer_at >= 0) {
    int64_t rest = 1;
    bool known = true;
    for (std::size_t i = 0; i < out.size(); ++i)
      if (static_cast<int>(i) != infer_at) {
        if (out[i] < 0) known = false;
        else rest = mul_dims(rest, out[i]);
      }
    if (total && known) {
      if (rest == 0 || *total % rest != 0)
        fail("cannot reshape " + std::to_string(*total) + " elements with -1 and the other dims' product " +
             std::to_string(rest));
      out[infer_at] = *total / rest;
    }
  } else if (total) {
    bool known = std::all_of(out.begin(), out.end(), [](int64_t d) { return d >= 0; });
    if (known && product(out, 0, out.size()) != *total)
      fail("cannot reshape " + std::to_string(*total) + " elements to " + std::to_string(product(out, 0, out.size())));
  }
  return {with_shape(x, out)};
}

std::vector<TensorType> infer_flatten(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {with_shape(x, {-1, -1})};
  const int64_t r = static_cast<int64_t>(x.shape.size());
  int64_t axis = ctx.attr_int("axis");
  if (axis < -r || axis > r) fail("axis " + std::to_string(axis) + " out of range for rank " + std::to_string(r));
  if (axis < 0) axis += r;
  return {with_shape(x, {product(x.shape, 0, axis), product(x.shape, axis, r)})};
}

std::vector<TensorType> infer_squeeze(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  const int64_t r = static_cast<int64_t>(x.shape.size());
  std::vector<bool> drop(r, false);
  if (input_given(ctx, 1)) {  // ONNX Squeeze-13: axes is input 1
    auto axes = constant_ints(ctx, 1);
    if (!axes) {
      const int64_t k = length_of(ctx, 1);
      return {k >= 0 && k <= r ? with_shape(x, std::vector<int64_t>(r - k, -1)) : unknown_rank(x.dtype)};
    }
    for (int64_t a : *axes) {
      int64_t n = normalize_axis(a, r, "axes value");
      if (x.shape[n] != 1 && x.shape[n] != -1) fail("cannot squeeze dim " + std::to_string(n) + " of size " + std::to_string(x.shape[n]));
      drop[n] = true;
    }
  } else {
    for (int64_t i = 0; i < r; ++i) {
      if (x.shape[i] == -1) return {unknown_rank(x.dtype)};
      drop[i] = x.shape[i] == 1;
    }
  }
  std::vector<int64_t> out;
  for (int64_t i = 0; i < r; ++i)
    if (!drop[i]) out.push_back(x.shape[i]);
  return {with_shape(x, out)};
}

std::vector<TensorType> infer_unsqueeze(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  auto given = constant_ints(ctx, 1);  // ONNX Unsqueeze-13: axes is input 1
  if (!given) {
    const int64_t k = length_of(ctx, 1);
    return {k >= 0 ? with_shape(x, std::vector<int64_t>(x.shape.size() + k, -1)) : unknown_rank(x.dtype)};
  }
  const std::vector<int64_t>& axes = *given;
  const int64_t r = static_cast<int64_t>(x.shape.size() + axes.size());
  std::vector<bool> added(r, false);
  for (int64_t a : axes) {
    int64_t n = normalize_axis(a, r, "axes value");
    if (added[n]) fail(ErrorId::AttributeValue, "axes repeats " + std::to_string(n));
    added[n] = true;
  }
  std::vector<int64_t> out;
  std::size_t j = 0;
  for (int64_t i = 0; i < r; ++i) out.push_back(added[i] ? 1 : x.shape[j++]);
  return {with_shape(x, out)};
}

std::vector<TensorType> infer_transpose(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  const std::size_t r = x.shape.size();
  std::vector<int64_t> perm(r);
  if (ctx.attr("perm")) {
    perm = ctx.attr_ints("perm");
    expect_size(perm, r, "perm");
  } else {
    for (std::size_t i = 0; i < r; ++i) perm[i] = static_cast<int64_t>(r - 1 - i);  // ONNX default: reverse
  }
  std::vector<bool> seen(r, false);
  std::vector<int64_t> out(r);
  for (std::size_t i = 0; i < r; ++i) {
    if (perm[i] < 0 || perm[i] >= static_cast<int64_t>(r) || seen[perm[i]]) fail(ErrorId::AttributeValue, "perm is not a permutation");
    seen[perm[i]] = true;
    out[i] = x.shape[perm[i]];  // ONNX: output dim i is input dim perm[i]
  }
  return {with_shape(x, out)};
}

// Merges `b` into `a` where both must agree (-1 unknown).
int64_t agree(int64_t a, int64_t b, const char* what) {
  if (a == -1) return b;
  if (b == -1 || a == b) return a;
  fail(std::string(what) + ": dims " + std::to_string(a) + " and " + std::to_string(b) + " differ");
}

std::vector<TensorType> infer_concat(const InferenceContext& ctx) {
  const TensorType* first = nullptr;
  for (const TensorType& t : ctx.input_types)
    if (!t.unknown_rank) {
      first = &t;
      break;
    }
  if (!first) return {unknown_rank(input(ctx, 0).dtype)};
  const int64_t r = static_cast<int64_t>(first->shape.size());
  const int64_t axis = normalize_axis(ctx.attr_int("axis"), r);
  std::vector<int64_t> out = first->shape;
  out[axis] = 0;
  for (const TensorType& t : ctx.input_types) {
    if (t.unknown_rank) {
      out[axis] = -1;
      continue;
    }
    if (static_cast<int64_t>(t.shape.size()) != r) fail("inputs have different ranks");
    for (int64_t i = 0; i < r; ++i)
      if (i != axis) out[i] = agree(out[i], t.shape[i], "Concat inputs");
    out[axis] = out[axis] < 0 || t.shape[axis] < 0 ? -1 : checked_add(out[axis], t.shape[axis]);
  }
  return {with_shape(ctx.input_types[0], out)};
}

std::vector<TensorType> infer_split(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  const std::size_t n = ctx.node.outputs.size();
  if (n == 0) fail(ErrorId::Arity, "needs at least one output");
  if (x.unknown_rank) return std::vector<TensorType>(n, unknown_rank(x.dtype));
  const int64_t axis = normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(x.shape.size()));
  const int64_t dim = x.shape[axis];
  std::vector<int64_t> sizes;
  std::optional<std::vector<int64_t>> given;
  if (input_given(ctx, 1)) {  // ONNX Split-13: split is input 1
    given = constant_ints(ctx, 1);
    if (!given) sizes.assign(n, -1);
  }
  if (given) {
    sizes = *given;
    expect_size(sizes, n, "split");
    int64_t sum = 0;
    for (int64_t s : sizes) {
      if (s < 0) fail(ErrorId::AttributeValue, "split sizes must be >= 0");
      sum = checked_add(sum, s);
    }
    if (dim >= 0 && sum != dim)
      fail("split sizes sum to " + std::to_string(sum) + ", but the axis has " + std::to_string(dim));
  } else if (!sizes.empty()) {
    // split is an input that is not a constant: the sizes along axis are unknown.
  } else if (dim < 0) {
    sizes.assign(n, -1);
  } else {
    if (dim % static_cast<int64_t>(n) != 0)
      fail("axis of " + std::to_string(dim) + " does not split equally into " + std::to_string(n));
    sizes.assign(n, dim / static_cast<int64_t>(n));
  }
  std::vector<TensorType> outs;
  for (int64_t s : sizes) {
    TensorType t = with_shape(x, x.shape);
    t.shape[axis] = s;
    outs.push_back(t);
  }
  return outs;
}

std::vector<TensorType> infer_stack(const InferenceContext& ctx) {
  const TensorType* first = nullptr;
  for (const TensorType& t : ctx.input_types)
    if (!t.unknown_rank) first = first ? first : &t;
  if (!first) return {unknown_rank(input(ctx, 0).dtype)};
  std::vector<int64_t> shape = first->shape;
  for (const TensorType& t : ctx.input_types) {
    if (t.unknown_rank) continue;
    if (t.shape.size() != shape.size()) fail("inputs have different ranks");
    for (std::size_t i = 0; i < shape.size(); ++i) shape[i] = agree(shape[i], t.shape[i], "Stack inputs");
  }
  // TensorFlow Stack: the new axis may be one past the last ([-(r+1), r]).
  const int64_t axis = normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(shape.size()) + 1);
  shape.insert(shape.begin() + axis, static_cast<int64_t>(ctx.input_types.size()));
  return {with_shape(ctx.input_types[0], shape)};
}

std::vector<TensorType> infer_pad(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  const std::size_t r = x.shape.size();
  const std::string& mode = ctx.attr_string("mode");
  if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "symmetric")
    fail(ErrorId::AttributeValue, "mode must be constant, reflect, edge or symmetric, not \"" + mode + "\"");
  const auto given = constant_ints(ctx, 1);  // ONNX Pad-13: pads is input 1
  if (!given) return {with_shape(x, std::vector<int64_t>(r, -1))};
  const std::vector<int64_t>& pads = *given;
  expect_size(pads, 2 * r, "pads");
  std::vector<int64_t> out(r);
  for (std::size_t i = 0; i < r; ++i) {
    out[i] = x.shape[i] < 0 ? -1 : checked_add(x.shape[i], checked_add(pads[i], pads[i + r]));
    if (x.shape[i] >= 0 && out[i] < 0) fail("pads remove more than dim " + std::to_string(i) + " holds");
  }
  return {with_shape(x, out)};
}

std::vector<TensorType> infer_tile(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  std::optional<std::vector<int64_t>> reps;
  if (ctx.attr("repeats")) reps = ctx.attr_ints("repeats");
  else reps = constant_ints(ctx, 1);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  if (!reps) return {with_shape(x, std::vector<int64_t>(x.shape.size(), -1))};
  expect_size(*reps, x.shape.size(), "repeats");
  std::vector<int64_t> out(x.shape.size());
  for (std::size_t i = 0; i < out.size(); ++i) {
    if ((*reps)[i] < 0) fail(ErrorId::AttributeValue, "repeats must be >= 0");
    out[i] = mul_dims(x.shape[i], (*reps)[i]);
  }
  return {with_shape(x, out)};
}

std::vector<TensorType> infer_expand(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  auto shape = constant_ints(ctx, 1);
  if (x.unknown_rank || !shape) return {unknown_rank(x.dtype)};
  return {with_shape(x, broadcast_shapes(x.shape, *shape))};
}

std::vector<TensorType> infer_space_depth(const InferenceContext& ctx, bool to_depth) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  if (x.shape.size() != 4) fail("input must have rank 4");
  const bool nhwc = is_nhwc(ctx);
  const int64_t b = ctx.attr_int("blocksize");
  if (b < 1) fail(ErrorId::AttributeValue, "blocksize must be >= 1");
  std::vector<int64_t> out = x.shape;
  const int64_t c = channel_axis(nhwc, 4);
  for (int64_t i = 0; i < 2; ++i) {
    int64_t& d = out[spatial_axis(nhwc, i)];
    if (to_depth) {
      if (d >= 0 && d % b != 0) fail("spatial dim " + std::to_string(d) + " is not a multiple of blocksize");
      d = d < 0 ? -1 : d / b;
    } else {
      d = mul_dims(d, b);
    }
  }
  if (to_depth) {
    out[c] = mul_dims(out[c], checked_mul(b, b));
  } else {
    if (out[c] >= 0 && out[c] % checked_mul(b, b) != 0) fail("channels are not a multiple of blocksize^2");
    out[c] = out[c] < 0 ? -1 : out[c] / checked_mul(b, b);
  }
  return {with_shape(x, out)};
}

std::vector<TensorType> infer_space_batch(const InferenceContext& ctx, bool to_batch) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  const bool nhwc = is_nhwc(ctx);
  const std::vector<int64_t>& block = ctx.attr_ints("block_shape");
  const std::vector<int64_t>& pads = ctx.attr_ints(to_batch ? "pads" : "crops");
  const std::size_t m = block.size();
  expect_size(pads, 2 * m, to_batch ? "pads" : "crops");
  if (x.shape.size() < m + 2) fail("input rank is too small for block_shape");
  std::vector<int64_t> out = x.shape;
  int64_t blocks = 1;
  for (std::size_t i = 0; i < m; ++i) {
    if (block[i] < 1) fail(ErrorId::AttributeValue, "block_shape values must be >= 1");
    if (pads[2 * i] < 0 || pads[2 * i + 1] < 0) fail(to_batch ? "pads must be >= 0" : "crops must be >= 0");
    blocks = mul_dims(blocks, block[i]);
    int64_t& d = out[spatial_axis(nhwc, i)];
    if (d < 0) continue;
    if (to_batch) {  // TF SpaceToBatchND: (in + pad_begin + pad_end) / block, exactly
      int64_t padded = checked_add(d, checked_add(pads[2 * i], pads[2 * i + 1]));
      if (padded % block[i] != 0) fail("padded spatial dim " + std::to_string(padded) + " is not a multiple of the block");
      d = padded / block[i];
    } else {  // TF BatchToSpaceND: in * block - crop_begin - crop_end
      d = checked_add(checked_mul(d, block[i]), -checked_add(pads[2 * i], pads[2 * i + 1]));
      if (d < 0) fail("crops exceed the spatial size");
    }
  }
  if (to_batch) {
    out[0] = mul_dims(out[0], blocks);
  } else if (out[0] >= 0) {
    if (out[0] % blocks != 0) fail("batch is not a multiple of the block size product");
    out[0] /= blocks;
  }
  return {with_shape(x, out)};
}

// ONNX Resize-13: X, roi, scales, sizes (each optional but X); one of scales and sizes, each
// with one value per dim of X (an empty scales beside sizes, as Resize-11 files write it, counts
// as absent). Output dims: sizes, or floor(dim * scale) (ONNX's shape inference and reference).
std::vector<TensorType> infer_resize(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  is_nhwc(ctx);  // a data_layout other than NCHW / NHWC is an error
  const std::string& mode = ctx.attr_string("mode");
  if (mode != "nearest" && mode != "linear" && mode != "cubic") fail(ErrorId::AttributeValue, "mode must be nearest, linear or cubic, not \"" + mode + "\"");
  const std::string& ctm = ctx.attr_string("coordinate_transformation_mode");
  if (ctm != "half_pixel" && ctm != "pytorch_half_pixel" && ctm != "align_corners" && ctm != "asymmetric" &&
      ctm != "tf_half_pixel_for_nn" && ctm != "tf_crop_and_resize")
    fail(ErrorId::AttributeValue, "unknown coordinate_transformation_mode \"" + ctm + "\"");
  const std::string& nm = ctx.attr_string("nearest_mode");
  if (nm != "round_prefer_floor" && nm != "round_prefer_ceil" && nm != "floor" && nm != "ceil")
    fail(ErrorId::AttributeValue, "unknown nearest_mode \"" + nm + "\"");
  const bool has_sizes = input_given(ctx, 3);
  auto scales = input_given(ctx, 2) ? constant_floats(ctx, 2) : std::nullopt;
  const bool has_scales = input_given(ctx, 2) && !(scales && scales->empty()) && length_of(ctx, 2) != 0;
  if (has_sizes && has_scales) fail(ErrorId::AttributeValue, "takes scales or sizes, not both");
  if (!has_sizes && !has_scales) fail(ErrorId::AttributeValue, "needs scales or sizes");
  const int64_t r = x.unknown_rank ? -1 : static_cast<int64_t>(x.shape.size());
  if (has_sizes) {
    auto sizes = constant_ints(ctx, 3);
    if (!sizes) {
      const int64_t k = r >= 0 ? r : length_of(ctx, 3);
      return {k >= 0 ? with_shape(x, std::vector<int64_t>(k, -1)) : unknown_rank(x.dtype)};
    }
    if (r >= 0) expect_size(*sizes, static_cast<std::size_t>(r), "sizes");
    for (int64_t d : *sizes)
      if (d < 0) fail(ErrorId::AttributeValue, "sizes must be >= 0");
    return {with_shape(x, *sizes)};
  }
  if (r < 0) return {unknown_rank(x.dtype)};
  if (!scales) return {with_shape(x, std::vector<int64_t>(r, -1))};
  expect_size(std::vector<int64_t>(scales->size()), static_cast<std::size_t>(r), "scales");
  std::vector<int64_t> out(r);
  for (int64_t i = 0; i < r; ++i) {
    const double sc = (*scales)[i];
    if (!(sc > 0) || !(sc < 1e9)) fail(ErrorId::AttributeValue, "scales must be positive and finite");
    const double d = std::floor(static_cast<double>(x.shape[i]) * sc);
    if (d > 9.0e15) fail("scales make a dim too large");
    out[i] = x.shape[i] < 0 ? -1 : static_cast<int64_t>(d);
  }
  return {with_shape(x, out)};
}

}  // namespace

void add_tensor_shape_ops(std::vector<OpSchema>& out) {
  out.push_back(make_op(
      "Reshape", 1, 2,
      {optional_attr("shape", AttrType::Ints, "target shape, in place of input 2; 0 copies the input dim, -1 is inferred"),
       optional_attr("allowzero", AttrType::Int, Attr(int64_t{0}), "1: a 0 in shape is a zero-size dim")},
      "Same elements, new shape (from the `shape` attribute or the constant int64 input `shape`).",
      "ONNX Reshape-14 (plus Reshape-1's shape attribute); Arm NN Reshape", infer_reshape));
  out.push_back(make_op("Flatten", 1, 1, {optional_attr("axis", AttrType::Int, Attr(int64_t{1}), "dims before it form the rows")},
                        "2-D [prod(d[0:axis]), prod(d[axis:])].", "ONNX Flatten-13", infer_flatten));
  out.push_back(make_op("Squeeze", 1, 2, {},
                        "Removes the size-1 dims listed in input 1 (`axes`, int64 1-D; absent: every size-1 dim).",
                        "ONNX Squeeze-13", infer_squeeze));
  out.push_back(make_op("Unsqueeze", 2, 2, {},
                        "Inserts size-1 dims at the output positions listed in input 1 (`axes`, int64 1-D).",
                        "ONNX Unsqueeze-13; Arm NN ExpandDims", infer_unsqueeze));
  out.push_back(make_op("Transpose", 1, 1, {optional_attr("perm", AttrType::Ints, "output dim i is input dim perm[i]; absent: reversed")},
                        "Permutes dims. Arm NN Permute's dimMappings is the inverse permutation.",
                        "ONNX Transpose-13; Arm NN Transpose / Permute", infer_transpose));
  out.push_back(make_op("Concat", 1, -1, {required_attr("axis", AttrType::Int, "the axis joined along")},
                        "Joins inputs along `axis`; other dims must agree.", "ONNX Concat-13; Arm NN Concat", infer_concat));
  OpSchema split = make_op("Split", 1, 2, {optional_attr("axis", AttrType::Int, Attr(int64_t{0}), "the axis split")},
                           "Splits along `axis` into one output per part; input 1 (`split`, int64 1-D) gives each "
                           "output's size, absent: equal parts.",
                           "ONNX Split-13; Arm NN Splitter", infer_split);
  split.max_outputs = -1;
  out.push_back(std::move(split));
  out.push_back(make_op("Stack", 1, -1, {optional_attr("axis", AttrType::Int, Attr(int64_t{0}), "position of the new dim, in [-(r+1), r]")},
                        "Stacks equal-shape inputs along a new dim of size = number of inputs.",
                        "TensorFlow Stack/Pack (no ONNX op); Arm NN Stack", infer_stack));
  out.push_back(make_op("Pad", 2, 3,
                        {optional_attr("mode", AttrType::String, Attr("constant"),
                                       "constant, reflect, edge or symmetric (symmetric: Arm NN MirrorPad; ONNX Pad-13 "
                                       "has the other three)")},
                        "Pads each dim: out = in + begin + end. Input 1 (`pads`, int64 [2 * rank]): [x1_begin, x2_begin, "
                        "..., x1_end, x2_end, ...]; input 2 (`constant_value`, a scalar of X's type, absent: 0) fills "
                        "mode constant.",
                        "ONNX Pad-13; Arm NN Pad / MirrorPad", infer_pad));
  out.push_back(make_op("Tile", 1, 2, {optional_attr("repeats", AttrType::Ints, "copies per dim, in place of input 2")},
                        "Repeats the input `repeats[i]` times along dim i (repeats from the attribute or the constant input).",
                        "ONNX Tile-13", infer_tile));
  out.push_back(make_op("Expand", 2, 2, {}, "Broadcasts the input to NumPy-broadcast(input shape, constant input `shape`).",
                        "ONNX Expand-13", infer_expand));
  out.push_back(make_op("SpaceToDepth", 1, 1, {required_attr("blocksize", AttrType::Int, "block edge"), data_layout_attr()},
                        "Moves blocksize x blocksize spatial blocks into channels: [N,C,H,W] -> [N,C*b*b,H/b,W/b].",
                        "ONNX SpaceToDepth-13; Arm NN SpaceToDepth",
                        [](const InferenceContext& ctx) { return infer_space_depth(ctx, true); }));
  out.push_back(make_op("DepthToSpace", 1, 1,
                        {required_attr("blocksize", AttrType::Int, "block edge"),
                         optional_attr("mode", AttrType::String, Attr("DCR"), "DCR (depth-column-row) or CRD"),
                         data_layout_attr()},
                        "Moves channels into spatial blocks: [N,C,H,W] -> [N,C/(b*b),H*b,W*b].",
                        "ONNX DepthToSpace-13; Arm NN DepthToSpace",
                        [](const InferenceContext& ctx) { return infer_space_depth(ctx, false); }));
  out.push_back(make_op("SpaceToBatchND", 1, 1,
                        {required_attr("block_shape", AttrType::Ints, "block per spatial dim"),
                         required_attr("pads", AttrType::Ints, "[begin, end] per spatial dim: [b0, e0, b1, e1, ...] (TF paddings)"),
                         data_layout_attr()},
                        "Spatial blocks to batch: batch * prod(block), spatial (in + begin + end) / block.",
                        "TensorFlow SpaceToBatchND (no ONNX op); Arm NN SpaceToBatchNd",
                        [](const InferenceContext& ctx) { return infer_space_batch(ctx, true); }));
  out.push_back(make_op("BatchToSpaceND", 1, 1,
                        {required_attr("block_shape", AttrType::Ints, "block per spatial dim"),
                         required_attr("crops", AttrType::Ints, "[begin, end] per spatial dim: [b0, e0, b1, e1, ...] (TF crops)"),
                         data_layout_attr()},
                        "Batch to spatial blocks: batch / prod(block), spatial in * block - begin - end.",
                        "TensorFlow BatchToSpaceND (no ONNX op); Arm NN BatchToSpaceNd",
                        [](const InferenceContext& ctx) { return infer_space_batch(ctx, false); }));
  out.push_back(make_op(
      "Resize", 1, 4,
      {optional_attr("mode", AttrType::String, Attr("nearest"), "nearest, linear or cubic"),
       optional_attr("coordinate_transformation_mode", AttrType::String, Attr("asymmetric"),
                     "half_pixel, pytorch_half_pixel, align_corners, asymmetric, tf_crop_and_resize (ONNX Resize-13) or "
                     "tf_half_pixel_for_nn (Resize-11: (x + 0.5) / scale, Arm NN's nearest halfPixelCenters); default "
                     "asymmetric as ONNX Resize-10 and Arm NN, not Resize-13's half_pixel"),
       optional_attr("nearest_mode", AttrType::String, Attr("floor"),
                     "round_prefer_floor, round_prefer_ceil, floor or ceil; default floor as Arm NN's NearestNeighbor, "
                     "not Resize-13's round_prefer_floor"),
       optional_attr("cubic_coeff_a", AttrType::Float, Attr(-0.75), "the cubic kernel's a (mode cubic)"),
       optional_attr("exclude_outside", AttrType::Int, Attr(int64_t{0}),
                     "1: taps outside X get weight 0 and the others are renormalised"),
       optional_attr("extrapolation_value", AttrType::Float, Attr(0.0),
                     "output where tf_crop_and_resize samples outside X"),
       data_layout_attr()},
      "Resamples X to `sizes` (input 3, int64, one per dim of X) or by `scales` (input 2, float, one per dim: "
      "out = floor(in * scale)); `roi` (input 1, float [2 * rank]: starts then ends, normalised) is read by "
      "tf_crop_and_resize only. Sizes and scales are in X's own dim order; data_layout only says where the channel "
      "dim is for formats whose descriptors name spatial dims (Arm NN).",
      "ONNX Resize-13; Arm NN Resize / ResizeBilinear", infer_resize));
  out.push_back(make_op("ChannelShuffle", 1, 1,
                        {required_attr("axis", AttrType::Int, "the channel axis"),
                         required_attr("group", AttrType::Int, "number of groups the axis is split into")},
                        "Reshapes `axis` to [group, n/group], transposes the two, flattens back. Shape unchanged.",
                        "Arm NN ChannelShuffle / TFLite (no ONNX op)", [](const InferenceContext& ctx) {
                          const TensorType& x = input(ctx, 0);
                          int64_t g = ctx.attr_int("group");
                          if (g < 1) fail(ErrorId::AttributeValue, "group must be >= 1");
                          if (!x.unknown_rank) {
                            int64_t a = normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(x.shape.size()));
                            if (x.shape[a] >= 0 && x.shape[a] % g != 0) fail("the axis is not a multiple of group");
                          }
                          return same_as_input0(ctx);
                        }));
  out.push_back(make_op("ReverseV2", 1, 2, {optional_attr("axis", AttrType::Ints, "dims reversed, in place of input 2")},
                        "Reverses the order of elements along the given dims. Shape unchanged.",
                        "TensorFlow ReverseV2 (no ONNX op); Arm NN ReverseV2", same_as_input0));
}

}  // namespace nnbridge::ops
