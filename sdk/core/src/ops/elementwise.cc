// Elementwise binary, comparison, logical and unary ops.
#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

OpSchema binary(std::string name, std::string doc, std::string source, std::optional<DataType> out = std::nullopt) {
  OpSchema s;
  s.name = std::move(name);
  s.min_inputs = s.max_inputs = 2;
  s.doc = std::move(doc);
  s.source = std::move(source);
  s.infer = [out](const InferenceContext& ctx) { return std::vector<TensorType>{broadcast_inputs(ctx, out)}; };
  return s;
}

OpSchema unary(std::string name, std::string doc, std::string source) {
  OpSchema s;
  s.name = std::move(name);
  s.min_inputs = s.max_inputs = 1;
  s.doc = std::move(doc);
  s.source = std::move(source);
  s.infer = same_as_input0;
  return s;
}

}  // namespace

void add_elementwise_ops(std::vector<OpSchema>& out) {
  const std::string bc = " Inputs broadcast by NumPy rules; the output has the broadcast shape and A's dtype.";
  out.push_back(binary("Add", "C = A + B." + bc, "ONNX Add-14; Arm NN Addition"));
  out.push_back(binary("Sub", "C = A - B." + bc, "ONNX Sub-14; Arm NN Subtraction"));
  out.push_back(binary("Mul", "C = A * B." + bc, "ONNX Mul-14; Arm NN Multiplication"));
  out.push_back(binary("Div", "C = A / B (integer division truncates)." + bc, "ONNX Div-14; Arm NN Division"));
  out.push_back(binary("Max", "C = max(A, B), two inputs (ONNX allows more; nnbridge declares the binary form)." + bc,
                       "ONNX Max-13; Arm NN Maximum"));
  out.push_back(binary("Min", "C = min(A, B), two inputs." + bc, "ONNX Min-13; Arm NN Minimum"));
  out.push_back(binary("Pow", "C = A ^ B." + bc, "ONNX Pow-15"));
  out.push_back(binary("SquaredDifference", "C = (A - B)^2." + bc,
                       "TensorFlow SquaredDifference (no ONNX op); Arm NN ElementwiseBinary SqDiff"));

  const std::string cmp = " Inputs broadcast by NumPy rules; the output is Bool with the broadcast shape.";
  out.push_back(binary("Equal", "A == B." + cmp, "ONNX Equal-13; Arm NN Comparison Equal", DataType::Bool));
  out.push_back(binary("Greater", "A > B." + cmp, "ONNX Greater-13; Arm NN Comparison Greater", DataType::Bool));
  out.push_back(binary("GreaterOrEqual", "A >= B." + cmp, "ONNX GreaterOrEqual-16; Arm NN Comparison GreaterOrEqual",
                       DataType::Bool));
  out.push_back(binary("Less", "A < B." + cmp, "ONNX Less-13; Arm NN Comparison Less", DataType::Bool));
  out.push_back(binary("LessOrEqual", "A <= B." + cmp, "ONNX LessOrEqual-16; Arm NN Comparison LessOrEqual",
                       DataType::Bool));
  out.push_back(binary("NotEqual", "A != B." + cmp, "TensorFlow NotEqual (no ONNX op); Arm NN Comparison NotEqual",
                       DataType::Bool));

  out.push_back(binary("And", "Logical A && B on Bool tensors." + cmp, "ONNX And-7; Arm NN LogicalBinary", DataType::Bool));
  out.push_back(binary("Or", "Logical A || B on Bool tensors." + cmp, "ONNX Or-7; Arm NN LogicalBinary", DataType::Bool));
  out.push_back(unary("Not", "Logical !X on a Bool tensor.", "ONNX Not-1; Arm NN ElementwiseUnary LogicalNot"));

  const std::string same = " Output has the input's dtype and shape.";
  out.push_back(unary("Abs", "|X|." + same, "ONNX Abs-13; Arm NN ElementwiseUnary Abs"));
  out.push_back(unary("Neg", "-X." + same, "ONNX Neg-13; Arm NN ElementwiseUnary Neg"));
  out.push_back(unary("Sqrt", "sqrt(X)." + same, "ONNX Sqrt-13; Arm NN ElementwiseUnary Sqrt"));
  out.push_back(unary("Rsqrt", "1 / sqrt(X)." + same, "TensorFlow Rsqrt (no ONNX op); Arm NN ElementwiseUnary Rsqrt"));
  out.push_back(unary("Exp", "e^X." + same, "ONNX Exp-13; Arm NN ElementwiseUnary Exp"));
  out.push_back(unary("Log", "Natural logarithm of X." + same, "ONNX Log-13; Arm NN ElementwiseUnary Log"));
  out.push_back(unary("Sin", "sin(X), radians." + same, "ONNX Sin-7; Arm NN ElementwiseUnary Sin"));
  out.push_back(unary("Ceil", "ceil(X)." + same, "ONNX Ceil-13"));
  out.push_back(unary("Floor", "floor(X)." + same, "ONNX Floor-13; Arm NN Floor"));
  out.push_back(unary("Reciprocal", "1 / X." + same, "ONNX Reciprocal-13"));
  out.push_back(unary("Identity", "X unchanged." + same, "ONNX Identity-16"));
  out.push_back(unary("Square", "X * X." + same, "TensorFlow Square (no ONNX op)"));
  out.push_back(unary("Sign", "-1, 0 or 1 by the sign of X." + same, "ONNX Sign-13"));
  out.push_back(unary("Round", "Round half to even." + same, "ONNX Round-11"));
}

}  // namespace nnbridge::ops
