#include <doctest/doctest.h>

#include <limits>
#include <set>

#include "nnbridge/op_schema.h"

using namespace nnbridge;

// The canonical ops the Arm NN mapping and both backends rely on, listed by hand as a
// reviewable contract: the registry must declare exactly these names (adding an op is a
// deliberate change to this list too).
static const char* const kPlannedOps[] = {
    "Add", "Sub", "Mul", "Div", "Max", "Min", "Pow", "SquaredDifference",
    "Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "NotEqual",
    "And", "Or", "Not",
    "Abs", "Neg", "Sqrt", "Rsqrt", "Exp", "Log", "Sin", "Ceil", "Floor", "Reciprocal", "Identity", "Square",
    "Sign", "Round",
    "Relu", "Sigmoid", "Tanh", "ScaledTanh", "Affine", "Clip", "LeakyRelu", "Elu", "Softplus", "HardSwish", "Gelu",
    "Softmax", "LogSoftmax", "Conv", "ConvTranspose", "Gemm", "MatMul",
    "MaxPool", "AveragePool", "LpPool", "GlobalAveragePool", "GlobalMaxPool",
    "BatchNormalization", "InstanceNormalization", "LpNormalization", "LRN", "LayerNormalization",
    "Reshape", "Flatten", "Squeeze", "Unsqueeze", "Transpose", "Concat", "Split", "Slice", "StridedSlice",
    "Gather", "GatherND", "ScatterND", "Pad", "Resize",
    "ReduceMean", "ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ArgMax", "ArgMin",
    "SpaceToDepth", "DepthToSpace", "SpaceToBatchND", "BatchToSpaceND", "Stack", "Tile", "ReverseV2",
    "PRelu", "QuantizeLinear", "DequantizeLinear", "Cast", "Shape", "Size", "Rank", "ConstantOfShape",
    "ChannelShuffle", "Where", "Expand",
    "ConvInteger", "QLinearConv", "MatMulInteger", "QLinearMatMul", "DynamicQuantizeLinear",
    "RNN", "GRU", "LSTM",
    "GatherElements", "ScatterElements", "OneHot", "TopK", "Trilu", "EyeLike", "Range", "CumSum", "Hardmax",
    "NonZero", "Compress", "Unique", "NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss", "ReverseSequence",
    "MeanVarianceNormalization", "BitShift", "Det", "Einsum",
    "Sum", "Mean", "Mod", "Xor", "Cos", "Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
    "Erf", "IsNaN", "IsInf", "Selu", "Celu", "HardSigmoid", "ThresholdedRelu", "Shrink", "Softsign",
    "ReduceL1", "ReduceL2", "ReduceSumSquare", "ReduceLogSum", "ReduceLogSumExp", "Dropout", "CastLike",
};

TEST_CASE("the registry declares every planned op and no other") {
  std::set<std::string> planned(std::begin(kPlannedOps), std::end(kPlannedOps));
  std::set<std::string> registered;
  for (const OpSchema* s : all_schemas()) registered.insert(s->name);
  for (const std::string& op : planned) CHECK_MESSAGE(registered.count(op), op);
  for (const std::string& op : registered)
    if (op.rfind("TestOnly", 0) != 0) CHECK_MESSAGE(planned.count(op), op);  // tests may register their own
}

TEST_CASE("every schema is documented and its defaults have the declared type") {
  auto all = all_schemas();
  for (std::size_t i = 1; i < all.size(); ++i) CHECK(all[i - 1]->name < all[i]->name);  // sorted
  for (const OpSchema* s : all) {
    INFO(s->name);
    CHECK_FALSE(s->doc.empty());
    CHECK_FALSE(s->source.empty());
    CHECK(s->min_inputs >= 0);
    CHECK((s->max_inputs == -1 || s->max_inputs >= s->min_inputs));
    CHECK(static_cast<bool>(s->infer));
    std::set<std::string> names;
    for (const AttrSpec& a : s->attrs) {
      INFO(a.name);
      CHECK(names.insert(a.name).second);
      CHECK(a.name.find('.') == std::string::npos);
      if (a.default_value) CHECK(a.default_value->type() == a.type);
      if (a.required) CHECK_FALSE(a.default_value.has_value());
    }
  }
}

TEST_CASE("schemas carry the plan's attribute names and defaults") {
  const OpSchema* softmax = find_schema("Softmax");
  REQUIRE(softmax);
  REQUIRE(softmax->find_attr("axis"));
  CHECK(softmax->find_attr("axis")->default_value == Attr(int64_t{-1}));
  CHECK(softmax->find_attr("beta")->default_value == Attr(1.0));
  const OpSchema* conv = find_schema("Conv");
  REQUIRE(conv);
  CHECK(conv->min_inputs == 2);
  CHECK(conv->max_inputs == 3);
  CHECK(conv->find_attr("group")->default_value == Attr(int64_t{1}));
  CHECK(conv->find_attr("data_layout")->default_value == Attr("NCHW"));
  CHECK(conv->find_attr("kernel_layout")->type == AttrType::String);
  CHECK(find_schema("LeakyRelu")->find_attr("alpha")->default_value == Attr(0.01));
  // ONNX opset 13+ operands are inputs (Pad-13: data, pads, constant_value), not attributes.
  CHECK(find_schema("Pad")->find_attr("pads") == nullptr);
  CHECK(find_schema("Pad")->min_inputs == 2);
  CHECK(find_schema("Pad")->max_inputs == 3);
  CHECK(find_schema("Slice")->min_inputs == 3);
  CHECK(find_schema("Slice")->max_inputs == 5);
  CHECK(find_schema("Resize")->max_inputs == 4);
  CHECK(find_schema("ReduceSum")->find_attr("noop_with_empty_axes")->default_value == Attr(int64_t{0}));
  CHECK(find_schema("ReduceMean")->find_attr("keepdims")->default_value == Attr(int64_t{1}));
  CHECK(find_schema("Concat")->max_inputs == -1);
  // Resize: the plan lists each string attribute's default first.
  CHECK(find_schema("Resize")->find_attr("mode")->default_value == Attr("nearest"));
  CHECK(find_schema("Resize")->find_attr("coordinate_transformation_mode")->default_value == Attr("asymmetric"));
  CHECK(find_schema("Resize")->find_attr("nearest_mode")->default_value == Attr("floor"));
  CHECK(find_schema("DepthToSpace")->find_attr("mode")->default_value == Attr("DCR"));
  CHECK(find_schema("Clip")->find_attr("min") == nullptr);
  CHECK(find_schema("Clip")->max_inputs == 3);
  CHECK(find_schema("Split")->max_outputs == -1);
  CHECK(find_schema("armnn.StandIn") == nullptr);
  CHECK(find_schema("NoSuchOp") == nullptr);
}

TEST_CASE("register_schema adds an op and replaces keep old pointers valid") {
  OpSchema s;
  s.name = "TestOnlyOp";
  s.min_inputs = s.max_inputs = 1;
  s.doc = "first";
  register_schema(s);
  const OpSchema* first = find_schema("TestOnlyOp");
  REQUIRE(first);
  s.doc = "second";
  register_schema(s);
  CHECK(find_schema("TestOnlyOp")->doc == "second");
  CHECK(first->doc == "first");  // still alive
}
