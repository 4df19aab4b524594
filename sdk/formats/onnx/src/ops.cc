// The ONNX opset-17 table (ops.h). Each row: the ONNX operator version opset 17 resolves to,
// and what differs from the canonical schema in sdk/core/src/ops/.
#include "ops.h"

#include <unordered_map>

namespace nnbridge::formats::onnx {

namespace {

using K = OperandKind;

OpRow same(const char* op, const char* rule) {
  OpRow r;
  r.op_type = r.op = op;
  r.rule = rule;
  return r;
}
OpRow with(OpRow r, std::vector<Operand> attr_operands = {}, std::vector<KeptAttr> kept = {},
           std::vector<FixedAttr> fixed = {}) {
  r.attr_operands = std::move(attr_operands);
  r.kept = std::move(kept);
  r.fixed = std::move(fixed);
  return r;
}

bool all_ones(const Attr& a) {
  if (!a.is<std::vector<int64_t>>()) return false;
  for (int64_t v : a.get<std::vector<int64_t>>())
    if (v != 1) return false;
  return true;
}
bool onnx16_reduction(const Attr& a) {
  return a.is<std::string>() && (a.get<std::string>() == "none" || a.get<std::string>() == "add" || a.get<std::string>() == "mul");
}
bool onnx_pad_mode(const Attr& a) {
  return a.is<std::string>() && (a.get<std::string>() == "constant" || a.get<std::string>() == "reflect" ||
                                 a.get<std::string>() == "edge");
}

FixedAttr nchw() { return {"data_layout", Attr("NCHW"), nullptr, "ONNX tensors are NCHW"}; }
FixedAttr layout(const char* l) { return {"kernel_layout", Attr(l), nullptr, "ONNX weights have this layout"}; }
FixedAttr zero(const char* name, const char* why) { return {name, Attr(int64_t{0}), nullptr, why}; }

std::vector<OpRow> build() {
  std::vector<OpRow> t;
  // Elementwise binary and comparison ops: numpy broadcasting, same as canonical.
  t.push_back(same("Add", "Add-14"));
  t.push_back(same("Sub", "Sub-14"));
  t.push_back(same("Mul", "Mul-14"));
  t.push_back(same("Div", "Div-14"));
  t.push_back(same("Pow", "Pow-15"));
  t.push_back(same("Equal", "Equal-13"));
  t.push_back(same("Greater", "Greater-13"));
  t.push_back(same("GreaterOrEqual", "GreaterOrEqual-16"));
  t.push_back(same("Less", "Less-13"));
  t.push_back(same("LessOrEqual", "LessOrEqual-16"));
  t.push_back(same("And", "And-7"));
  t.push_back(same("Or", "Or-7"));
  t.push_back(same("Xor", "Xor-7"));
  t.push_back(same("Mod", "Mod-13"));
  // Max-13 / Min-13 / Sum-13 / Mean-13: variadic, as the canonical ops.
  for (const char* v : {"Max", "Min", "Sum", "Mean"}) t.push_back(same(v, "Max-13 / Min-13 / Sum-13 / Mean-13"));
  // Unary ops and activations: same attributes and defaults.
  for (const char* u : {"Not", "Abs", "Neg", "Sqrt", "Exp", "Log", "Sin", "Ceil", "Floor", "Reciprocal", "Identity",
                        "Sign", "Round", "Relu", "Sigmoid", "Tanh", "Softplus", "HardSwish", "LeakyRelu", "Elu",
                        "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Erf", "IsNaN",
                        "IsInf", "Selu", "Celu", "HardSigmoid", "ThresholdedRelu", "Shrink", "Softsign"})
    t.push_back(same(u, "opset-17 version (Not-1, Abs-13, Identity-16, LeakyRelu-16, Elu-6, ...): same as canonical"));
  // Clip-13: min and max are optional scalar inputs of X's type, as the canonical op's.
  t.push_back(same("Clip", "Clip-13"));
  // Softmax-13 / LogSoftmax-13: axis default -1; no beta (canonical beta 1 is ONNX's).
  t.push_back(with(same("Softmax", "Softmax-13: no beta"), {}, {}, {{"beta", Attr(1.0), nullptr, "ONNX Softmax has no beta"}}));
  t.push_back(with(same("LogSoftmax", "LogSoftmax-13: no beta"), {}, {},
                   {{"beta", Attr(1.0), nullptr, "ONNX LogSoftmax has no beta"}}));
  // Conv-11 / ConvTranspose-11: NCHW data, OIHW (IOHW) weights.
  t.push_back(with(same("Conv", "Conv-11: NCHW, W [M, C/group, k...]"), {}, {}, {nchw(), layout("OIHW")}));
  t.push_back(with(same("ConvTranspose", "ConvTranspose-11: NCHW, W [C, M/group, k...]"), {}, {}, {nchw(), layout("IOHW")}));
  // MaxPool-12: storage_order only orders the Indices output; kept while 0.
  t.push_back(with(same("MaxPool", "MaxPool-12: storage_order 0 kept"), {}, {{"storage_order", Attr(int64_t{0})}}, {nchw()}));
  // AveragePool-11 (opset 17): no dilations (AveragePool-19 adds them).
  t.push_back(with(same("AveragePool", "AveragePool-11: no dilations"), {}, {},
                   {nchw(), {"dilations", std::nullopt, all_ones, "AveragePool-11 has no dilations"}}));
  // LpPool-11: no ceil_mode, count_include_pad or dilations; the sum form (mean 0).
  t.push_back(with(same("LpPool", "LpPool-11: sum of |x|^p, no ceil_mode / dilations"), {}, {},
                   {nchw(), zero("ceil_mode", "LpPool-11 has no ceil_mode"),
                    zero("count_include_pad", "LpPool-11 has no count_include_pad"),
                    zero("mean", "ONNX LpPool is (sum |x|^p)^(1/p)"),
                    {"dilations", std::nullopt, all_ones, "LpPool-11 has no dilations"}}));
  t.push_back(with(same("GlobalAveragePool", "GlobalAveragePool-1: NCHW"), {}, {}, {nchw()}));
  t.push_back(with(same("GlobalMaxPool", "GlobalMaxPool-1: NCHW"), {}, {}, {nchw()}));
  // BatchNormalization-15: inference only; momentum is read by training alone.
  t.push_back(with(same("BatchNormalization", "BatchNormalization-15: training_mode 0 only, momentum kept"), {},
                   {{"momentum", std::nullopt, true}, {"training_mode", Attr(int64_t{0})}}, {nchw()}));
  // InstanceNormalization-6: scale and B are required inputs (no scalar gamma/beta).
  t.push_back(with(same("InstanceNormalization", "InstanceNormalization-6: scale and B as inputs"), {}, {},
                   {nchw(), {"gamma", Attr(1.0), nullptr, "ONNX takes scale as an input"},
                    {"beta", Attr(0.0), nullptr, "ONNX takes B as an input"}}));
  // LpNormalization-1: x / ||x||_p, no epsilon.
  t.push_back(with(same("LpNormalization", "LpNormalization-1: no epsilon"), {}, {},
                   {{"epsilon", Attr(0.0), nullptr, "LpNormalization-1 has no epsilon"}}));
  t.push_back(with(same("LRN", "LRN-13: NCHW"), {}, {}, {nchw()}));
  // LayerNormalization-17: stash_type 1 (float computation) kept.
  t.push_back(with(same("LayerNormalization", "LayerNormalization-17: stash_type 1 kept"), {},
                   {{"stash_type", Attr(int64_t{1})}}));
  // Shape and layout ops.
  t.push_back(same("Flatten", "Flatten-13"));
  t.push_back(same("Transpose", "Transpose-13"));
  t.push_back(same("Concat", "Concat-13"));
  t.push_back(same("Gather", "Gather-13"));
  t.push_back(same("GatherND", "GatherND-13"));
  t.push_back(same("Where", "Where-16"));
  t.push_back(same("PRelu", "PRelu-16"));
  t.push_back(same("Size", "Size-13"));
  t.push_back(same("Dropout", "Dropout-13: inputs ratio (1), training_mode (2) stay inputs"));
  t.push_back(same("CastLike", "CastLike-15"));
  // Reshape-14 / Tile-13: shape and repeats stay inputs (the canonical ops take them); the
  // attribute forms (Reshape-1, Arm NN) are written as int64 inputs.
  OpRow reshape = same("Reshape", "Reshape-14: shape stays an input; the shape attribute is written as one");
  reshape.attr_operands = {{1, "shape", K::Ints}};
  t.push_back(reshape);
  t.push_back(same("Expand", "Expand-13: shape stays an input"));
  OpRow tile = same("Tile", "Tile-13: repeats stays an input; the repeats attribute is written as one");
  tile.attr_operands = {{1, "repeats", K::Ints}};
  t.push_back(tile);
  // Shape-15: start / end slice the shape, as the canonical op's.
  t.push_back(same("Shape", "Shape-15"));
  // ScatterND-16: reduction none / add / mul (max, min come with ScatterND-18).
  t.push_back(with(same("ScatterND", "ScatterND-16"), {}, {},
                   {{"reduction", std::nullopt, onnx16_reduction, "ScatterND-16 reduces by none, add or mul"},
                    zero("data_is_shape", "ONNX ScatterND takes data"),
                    {"combine_with", Attr("accumulated"), nullptr, "ONNX combines with the element as updated"}}));
  // Squeeze-13 / Unsqueeze-13 / Split-13 / Slice-13 / ReduceSum-13: what became inputs (axes,
  // split, starts / ends / axes / steps) are inputs of the canonical ops too.
  for (const char* op : {"Squeeze", "Unsqueeze", "Split", "Slice", "ReduceSum"})
    t.push_back(same(op, "Squeeze-13 / Unsqueeze-13 / Split-13 / Slice-13 / ReduceSum-13: operands as inputs"));
  // Pad-13 (opset 17): pads and constant_value are inputs; no axes (Pad-18), no symmetric mode.
  t.push_back(with(same("Pad", "Pad-13: inputs pads (1), constant_value (2)"), {}, {},
                   {{"mode", std::nullopt, onnx_pad_mode, "ONNX Pad modes are constant, reflect and edge"}}));
  // The other reductions keep axes as an attribute until opset 18.
  for (const char* r : {"ReduceMean", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1", "ReduceL2", "ReduceSumSquare",
                        "ReduceLogSum", "ReduceLogSumExp"})
    t.push_back(same(r, "Reduce*-13: axes attribute"));
  t.push_back(same("ArgMax", "ArgMax-13"));
  t.push_back(same("ArgMin", "ArgMin-13"));
  // MatMul-13: numpy.matmul, no transposes.
  t.push_back(with(same("MatMul", "MatMul-13: no transposes"), {}, {},
                   {zero("transA", "ONNX MatMul has no transA"), zero("transB", "ONNX MatMul has no transB")}));
  t.push_back(same("Gemm", "Gemm-13"));
  t.push_back(with(same("DepthToSpace", "DepthToSpace-13: NCHW"), {}, {}, {nchw()}));
  t.push_back(with(same("SpaceToDepth", "SpaceToDepth-13: NCHW"), {}, {}, {nchw()}));
  t.push_back(same("QuantizeLinear", "QuantizeLinear-13: scale and zero point as inputs"));
  t.push_back(same("DequantizeLinear", "DequantizeLinear-13: scale and zero point as inputs"));
  // The dynamic quantizer and the integer products: same inputs, attributes and defaults.
  t.push_back(same("DynamicQuantizeLinear", "DynamicQuantizeLinear-11"));
  t.push_back(same("MatMulInteger", "MatMulInteger-10"));
  t.push_back(same("QLinearMatMul", "QLinearMatMul-10"));
  t.push_back(same("ConvInteger", "ConvInteger-10: NCHW, W [M, C/group, k...]"));
  t.push_back(same("QLinearConv", "QLinearConv-10: NCHW, W [M, C/group, k...]"));
  // RNN-14 / GRU-14 / LSTM-14: same inputs, attributes and defaults.
  t.push_back(same("RNN", "RNN-14"));
  t.push_back(same("GRU", "GRU-14"));
  t.push_back(same("LSTM", "LSTM-14"));
  // Cast-13: `to` is a TensorProto.DataType number; canonical `to` names the dtype.
  OpRow cast = same("Cast", "Cast-13: to as TensorProto.DataType <-> dtype name");
  cast.special = Special::Cast;
  cast.dtype_attr = "to";
  t.push_back(cast);
  // ConstantOfShape-9: value is a one-element tensor whose type is the output's.
  OpRow cos = same("ConstantOfShape", "ConstantOfShape-9: value tensor <-> float value and the output dtype");
  cos.special = Special::ConstantOfShape;
  t.push_back(cos);
  // Resize-13: roi (1), scales (2), sizes (3) are inputs of the canonical op too; ONNX defaults
  // half_pixel and round_prefer_floor (canonical: asymmetric, floor).
  OpRow rs = with(same("Resize", "Resize-13: ONNX's defaults written on the node"), {}, {}, {nchw()});
  rs.defaults = {{"coordinate_transformation_mode", Attr("half_pixel")}, {"nearest_mode", Attr("round_prefer_floor")}};
  t.push_back(rs);
  // Indexing, selection and generators: inputs stay inputs (k, depth, K, axis, ...).
  t.push_back(same("GatherElements", "GatherElements-13"));
  t.push_back(with(same("ScatterElements", "ScatterElements-16: reduction none, add or mul"), {}, {},
                   {{"reduction", std::nullopt, onnx16_reduction, "ScatterElements-16 reduces by none, add or mul"}}));
  t.push_back(same("OneHot", "OneHot-11"));
  t.push_back(same("TopK", "TopK-11"));
  t.push_back(same("Trilu", "Trilu-14"));
  OpRow eye = same("EyeLike", "EyeLike-9: dtype as TensorProto.DataType <-> dtype name");
  eye.dtype_attr = "dtype";
  t.push_back(eye);
  t.push_back(same("Range", "Range-11"));
  t.push_back(same("CumSum", "CumSum-14"));
  t.push_back(same("Hardmax", "Hardmax-13"));
  t.push_back(same("NonZero", "NonZero-13"));
  t.push_back(same("Compress", "Compress-11"));
  t.push_back(same("Unique", "Unique-11"));
  // Losses: reduction, ignore_index and the optional weight input as the canonical ops.
  t.push_back(same("NegativeLogLikelihoodLoss", "NegativeLogLikelihoodLoss-13"));
  t.push_back(same("SoftmaxCrossEntropyLoss", "SoftmaxCrossEntropyLoss-13"));
  t.push_back(same("ReverseSequence", "ReverseSequence-10"));
  t.push_back(same("MeanVarianceNormalization", "MeanVarianceNormalization-13"));
  t.push_back(same("BitShift", "BitShift-11"));
  t.push_back(same("Det", "Det-11"));
  t.push_back(same("Einsum", "Einsum-12"));
  return t;
}

struct Index {
  std::vector<OpRow> rows = build();
  std::unordered_map<std::string_view, const OpRow*> by_onnx, by_op;
  Index() {
    for (const OpRow& r : rows) {
      by_onnx.emplace(r.op_type, &r);
      by_op.emplace(r.op, &r);
    }
  }
};

const Index& index() {
  static const Index i;
  return i;
}

}  // namespace

const OpRow* row_for_onnx(std::string_view op_type) {
  auto it = index().by_onnx.find(op_type);
  return it == index().by_onnx.end() ? nullptr : it->second;
}

const OpRow* row_for_canonical(std::string_view op) {
  auto it = index().by_op.find(op);
  return it == index().by_op.end() ? nullptr : it->second;
}

const std::vector<OpRow>& op_rows() { return index().rows; }

}  // namespace nnbridge::formats::onnx
