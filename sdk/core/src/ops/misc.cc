// MatMul, Gemm, PRelu, Where, Dropout and shape queries (Shape, Size, Rank, ConstantOfShape).
#include <algorithm>
#include <limits>

#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

TensorType shaped(DataType dt, std::vector<int64_t> shape) { return TensorType{dt, std::move(shape), false, std::nullopt}; }

int64_t agree(int64_t a, int64_t b, const char* what) {
  if (a == -1) return b;
  if (b == -1 || a == b) return a;
  fail(std::string(what) + ": " + std::to_string(a) + " vs " + std::to_string(b));
}

// numpy.matmul (ONNX MatMul-13): 1-D A is [1,K] and 1-D B is [K,1] with the added dim removed
// afterwards; leading dims broadcast. transA/transB swap the last two dims first (Arm NN BatchMatMul).
std::vector<TensorType> infer_matmul(const InferenceContext& ctx) {
  const TensorType& a = input(ctx, 0);
  const TensorType& b = input(ctx, 1);
  if (a.unknown_rank || b.unknown_rank) return {unknown_rank(a.dtype)};
  if (a.shape.empty() || b.shape.empty()) fail("MatMul inputs must have rank >= 1");
  std::vector<int64_t> sa = a.shape, sb = b.shape;
  bool a1 = sa.size() == 1, b1 = sb.size() == 1;
  if (a1) sa.insert(sa.begin(), 1);
  if (b1) sb.push_back(1);
  if (!a1 && ctx.attr_int("transA")) std::swap(sa[sa.size() - 1], sa[sa.size() - 2]);
  if (!b1 && ctx.attr_int("transB")) std::swap(sb[sb.size() - 1], sb[sb.size() - 2]);
  int64_t m = sa[sa.size() - 2], k1 = sa.back(), k2 = sb[sb.size() - 2], n = sb.back();
  agree(k1, k2, "inner dims differ");
  std::vector<int64_t> batch = broadcast_shapes(std::vector<int64_t>(sa.begin(), sa.end() - 2),
                                                std::vector<int64_t>(sb.begin(), sb.end() - 2));
  if (!a1) batch.push_back(m);
  if (!b1) batch.push_back(n);
  return {shaped(a.dtype, batch)};
}

// ONNX Gemm-13: Y = alpha * A' * B' + beta * C, A' [M,K], B' [K,N]. Extension (Arm NN FullyConnected):
// A of rank > 2 is read as [numel / K, K] with K taken from B.
std::vector<TensorType> infer_gemm(const InferenceContext& ctx) {
  const TensorType& a = input(ctx, 0);
  const TensorType& b = input(ctx, 1);
  const bool ta = ctx.attr_int("transA") != 0, tb = ctx.attr_int("transB") != 0;
  int64_t k_b = -1, n = -1;
  if (!b.unknown_rank) {
    if (b.shape.size() != 2) fail("B must be 2-D");
    k_b = tb ? b.shape[1] : b.shape[0];
    n = tb ? b.shape[0] : b.shape[1];
  }
  if (a.unknown_rank) return {shaped(a.dtype, {-1, n})};
  int64_t m = -1, k_a = -1;
  if (a.shape.size() == 2) {
    m = ta ? a.shape[1] : a.shape[0];
    k_a = ta ? a.shape[0] : a.shape[1];
  } else if (a.shape.size() > 2) {
    if (ta) fail("transA is not defined for A of rank > 2");
    auto total = a.element_count();
    if (total && k_b > 0) {
      if (*total % k_b != 0) fail("A's " + std::to_string(*total) + " elements are not a multiple of K = " + std::to_string(k_b));
      m = *total / k_b;
    }
    k_a = k_b;
  } else {
    fail("A must have rank >= 2");
  }
  agree(k_a, k_b, "K of A and B differ");
  return {shaped(a.dtype, {m, n})};
}

}  // namespace

void add_misc_ops(std::vector<OpSchema>& out) {
  out.push_back(make_op("MatMul", 2, 2,
                        {optional_attr("transA", AttrType::Int, Attr(int64_t{0}), "1: swap A's last two dims first"),
                         optional_attr("transB", AttrType::Int, Attr(int64_t{0}), "1: swap B's last two dims first")},
                        "numpy.matmul: batch dims broadcast, [..., M, K] x [..., K, N] -> [..., M, N].",
                        "ONNX MatMul-13 (plus Arm NN BatchMatMul transposes)", infer_matmul));
  out.push_back(make_op("Gemm", 2, 3,
                        {optional_attr("alpha", AttrType::Float, Attr(1.0), "scale of A*B"),
                         optional_attr("beta", AttrType::Float, Attr(1.0), "scale of C"),
                         optional_attr("transA", AttrType::Int, Attr(int64_t{0}), "1: use A transposed"),
                         optional_attr("transB", AttrType::Int, Attr(int64_t{0}), "1: use B transposed")},
                        "Y [M,N] = alpha * A' * B' + beta * C (C broadcasts to [M,N]). A of rank > 2 is flattened "
                        "to [numel/K, K] with K from B (nnbridge extension for Arm NN FullyConnected).",
                        "ONNX Gemm-13; Arm NN FullyConnected", infer_gemm));
  out.push_back(make_op("PRelu", 2, 2, {}, "X if X >= 0 else slope * X; slope broadcasts to X.",
                        "ONNX PRelu-16; Arm NN Prelu",
                        [](const InferenceContext& ctx) { return std::vector<TensorType>{broadcast_inputs(ctx)}; }));
  out.push_back(make_op("Where", 3, 3, {}, "condition ? X : Y, the three broadcast; output has X's dtype.",
                        "ONNX Where-16", [](const InferenceContext& ctx) {
                          TensorType t = broadcast_inputs(ctx);
                          t.dtype = input(ctx, 1).dtype;
                          return std::vector<TensorType>{t};
                        }));
  out.push_back(make_op(
      "Shape", 1, 1,
      {optional_attr("start", AttrType::Int, Attr(int64_t{0}), "first dim given (negative: from the end)"),
       optional_attr("end", AttrType::Int, Attr(std::numeric_limits<int64_t>::max()),
                     "dim after the last one given (negative: from the end); default: the rank")},
      "Dims [start, end) of the input's shape as a 1-D tensor, start and end clamped to [0, rank] after adding the "
      "rank to negative values; Int64, or Int32 where the file declares it.",
      "ONNX Shape-15; Arm NN Shape (Signed32, the whole shape)", [](const InferenceContext& ctx) {
        const TensorType& x = input(ctx, 0);
        DataType dt = declared_dtype(ctx, 0, {DataType::Int32, DataType::Int64}, DataType::Int64);
        if (x.unknown_rank) return std::vector<TensorType>{shaped(dt, {-1})};
        const int64_t r = static_cast<int64_t>(x.shape.size());
        auto clamp = [r](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + r : v, 0, r); };
        const int64_t s = clamp(ctx.attr_int("start")), e = clamp(ctx.attr_int("end"));
        return std::vector<TensorType>{shaped(dt, {std::max<int64_t>(e - s, 0)})};
      }));
  out.push_back(make_op("Size", 1, 1, {}, "The input's element count as a 0-d tensor; Int64, or Int32 where declared.",
                        "ONNX Size-13", [](const InferenceContext& ctx) {
                          DataType dt = declared_dtype(ctx, 0, {DataType::Int32, DataType::Int64}, DataType::Int64);
                          return std::vector<TensorType>{shaped(dt, {})};
                        }));
  out.push_back(make_op("Rank", 1, 1, {},
                        "The input's rank as one Int32 element: a 0-d tensor, or the shape [1] where the file "
                        "declares it so (Arm NN's RankLayer declares its output [1]; TFLite's is 0-d).",
                        "Arm NN Rank / TFLite Rank (no ONNX op)", [](const InferenceContext& ctx) {
                          // The declared shape wins when it holds exactly one element: the format states it.
                          if (!ctx.declared_output_types.empty()) {
                            const TensorType& d = ctx.declared_output_types[0];
                            if (!d.unknown_rank && (d.shape.empty() || d.shape == std::vector<int64_t>{1}))
                              return std::vector<TensorType>{shaped(DataType::Int32, d.shape)};
                          }
                          return std::vector<TensorType>{shaped(DataType::Int32, {})};
                        }));
  out.push_back(make_op(
      "ConstantOfShape", 1, 1,
      {optional_attr("value", AttrType::Float, Attr(0.0), "the fill value")},
      "A tensor of the shape given by the constant 1-D input, filled with `value`; dtype as declared, else Float32.",
      "ONNX ConstantOfShape-9 (value as a float attribute); Arm NN Fill", [](const InferenceContext& ctx) {
        DataType dt = declared_dtype(
            ctx, 0, {DataType::Float32, DataType::Float16, DataType::Int32, DataType::Int64, DataType::Bool},
            DataType::Float32);
        if (auto s = constant_ints(ctx, 0)) {
          for (int64_t d : *s)
            if (d < 0) fail(ErrorId::AttributeValue, "shape values must be >= 0");
          return std::vector<TensorType>{shaped(dt, *s)};
        }
        const TensorType& in = input(ctx, 0);
        if (!in.unknown_rank && in.shape.size() == 1 && in.shape[0] >= 0)
          return std::vector<TensorType>{shaped(dt, std::vector<int64_t>(in.shape[0], -1))};
        return std::vector<TensorType>{unknown_rank(dt)};
      }));
  {
    OpSchema d = make_op(
        "Dropout", 1, 3, {optional_attr("seed", AttrType::Int, "random seed (training only)")},
        "Inference form: output = data, mask (optional second output, Bool, data's shape) all true. Inputs ratio (1, "
        "scalar) and training_mode (2, Bool scalar) are optional; a training_mode that is not a constant false, with "
        "a ratio other than 0, draws random numbers and has no reference result: backends refuse it.",
        "ONNX Dropout-13", [](const InferenceContext& ctx) {
          TensorType t = same_as_input0(ctx)[0];
          TensorType mask = t;
          mask.dtype = DataType::Bool;
          mask.quantization.reset();
          std::vector<TensorType> out{t};
          if (ctx.node.outputs.size() > 1) out.push_back(mask);
          return out;
        });
    d.max_outputs = 2;
    out.push_back(std::move(d));
  }
}

}  // namespace nnbridge::ops
