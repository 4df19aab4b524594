// Matrix structure and algebra: Trilu, EyeLike, Det, Einsum.
#include "nnbridge/einsum.h"
#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

std::vector<TensorType> infer_trilu(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (!x.unknown_rank && x.shape.size() < 2) fail("input must have rank >= 2");
  if (ctx.input_types.size() > 1 && ctx.node.inputs[1] != kNoValue) {
    const TensorType& k = ctx.input_types[1];
    if (!k.unknown_rank && k.element_count() && *k.element_count() != 1) fail("k must be a scalar");
  }
  return same_as_input0(ctx);
}

std::vector<TensorType> infer_eye_like(const InferenceContext& ctx) {
  TensorType t = same_as_input0(ctx)[0];
  if (!t.unknown_rank && t.shape.size() != 2) fail("input must be 2-D");
  if (ctx.attr("dtype")) {
    const std::string& name = ctx.attr_string("dtype");
    auto dt = parse_data_type(name);
    if (!dt || *dt == DataType::Undefined || is_quantized(*dt)) fail(ErrorId::AttributeValue, "dtype \"" + name + "\" is not a plain dtype");
    t.dtype = *dt;
  }
  return {t};
}

std::vector<TensorType> infer_det(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  const std::size_t r = x.shape.size();
  if (r < 2) fail("input must have rank >= 2 ([*, M, M])");
  const int64_t m = x.shape[r - 2], n = x.shape[r - 1];
  if (m >= 0 && n >= 0 && m != n) fail("the matrices are " + std::to_string(m) + " x " + std::to_string(n) + ", not square");
  return {TensorType{x.dtype, std::vector<int64_t>(x.shape.begin(), x.shape.end() - 2), false, std::nullopt}};
}

std::vector<TensorType> infer_einsum(const InferenceContext& ctx) {
  const DataType dt = input(ctx, 0).dtype;
  std::vector<int64_t> ranks;
  for (const TensorType& t : ctx.input_types) {
    if (t.unknown_rank) return {unknown_rank(dt)};
    ranks.push_back(static_cast<int64_t>(t.shape.size()));
  }
  const EinsumTerms e = parse_einsum(ctx.attr_string("equation"), ranks);
  // A label's size: equal wherever it is known; a broadcast (ellipsis) label also lets 1 stretch.
  std::vector<int64_t> size(static_cast<std::size_t>(e.labels), -2);  // -2: not seen yet
  for (std::size_t k = 0; k < e.inputs.size(); ++k)
    for (std::size_t d = 0; d < e.inputs[k].size(); ++d) {
      const int l = e.inputs[k][d];
      const int64_t v = ctx.input_types[k].shape[d];
      int64_t& s = size[static_cast<std::size_t>(l)];
      const bool bc = e.broadcast[static_cast<std::size_t>(l)];
      if (s == -2 || s == v) s = v;
      else if (bc && v == 1) continue;        // stretches to s
      else if (bc && s == 1) s = v;           // s stretches to v
      else if (v == -1) continue;             // agrees with s (or is 1, for a broadcast label)
      else if (s == -1) s = bc && v == 1 ? -1 : v;
      else fail("a label has sizes " + std::to_string(s) + " and " + std::to_string(v));
    }
  std::vector<int64_t> out;
  for (int l : e.output) out.push_back(size[static_cast<std::size_t>(l)] == -2 ? 1 : size[static_cast<std::size_t>(l)]);
  return {TensorType{dt, out, false, std::nullopt}};
}

}  // namespace

void add_matrix_ops(std::vector<OpSchema>& out) {
  out.push_back(make_op(
      "Trilu", 1, 2, {optional_attr("upper", AttrType::Int, Attr(int64_t{1}), "1: keep the upper triangle, 0: the lower")},
      "Keeps, in each matrix of the last two dims, the elements (i, j) with j - i >= k (upper) or j - i <= k (lower) "
      "and zeroes the rest; k is the optional scalar int64 input 1 (default 0: the main diagonal).",
      "ONNX Trilu-14", infer_trilu));
  out.push_back(make_op(
      "EyeLike", 1, 1,
      {optional_attr("k", AttrType::Int, Attr(int64_t{0}), "the diagonal: 0 main, > 0 above, < 0 below"),
       optional_attr("dtype", AttrType::String, "the output dtype's name (float32, int64, ...); absent: the input's")},
      "A 2-D tensor of the input's shape with ones on diagonal k (elements (i, i + k)) and zeros elsewhere.",
      "ONNX EyeLike-9 (dtype named as nnbridge dtypes are)", infer_eye_like));
  out.push_back(make_op("Det", 1, 1, {}, "The determinant of each square matrix of the last two dims: [*, M, M] -> [*].",
                        "ONNX Det-11", infer_det));
  out.push_back(make_op(
      "Einsum", 1, -1, {required_attr("equation", AttrType::String, "the Einstein summation, e.g. \"bij,bjk->bik\"")},
      "Sums the products of the operands' elements over the labels the output does not name (nnbridge/einsum.h "
      "reads the equation: explicit or implicit output, ellipsis broadcasting, repeated labels as diagonals). All "
      "operands have one dtype, the output's.",
      "ONNX Einsum-12 (numpy.einsum)", infer_einsum));
}

}  // namespace nnbridge::ops
