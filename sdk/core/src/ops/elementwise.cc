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

OpSchema variadic(std::string name, std::string doc, std::string source) {
  OpSchema s;
  s.name = std::move(name);
  s.min_inputs = 1;
  s.max_inputs = -1;
  s.doc = std::move(doc);
  s.source = std::move(source);
  s.infer = [](const InferenceContext& ctx) { return std::vector<TensorType>{broadcast_inputs(ctx)}; };
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
  const std::string vbc = " One or more inputs, broadcast together by NumPy rules; the output has the broadcast shape and "
                          "input 0's dtype (one input: a copy of it).";
  out.push_back(variadic("Max", "Elementwise maximum of the inputs." + vbc, "ONNX Max-13; Arm NN Maximum (two inputs)"));
  out.push_back(variadic("Min", "Elementwise minimum of the inputs." + vbc, "ONNX Min-13; Arm NN Minimum (two inputs)"));
  out.push_back(variadic("Sum", "Elementwise sum of the inputs, added left to right." + vbc, "ONNX Sum-13"));
  out.push_back(variadic("Mean", "Elementwise sum of the inputs divided by their count." + vbc, "ONNX Mean-13"));
  {
    OpSchema mod = binary("Mod",
                          "Remainder of A / B." + bc +
                              " fmod 0 (integers only): the sign of the divisor, A - B * floor(A / B) (Python's %); "
                              "fmod 1: the sign of the dividend, C fmod. An integer remainder by 0 is undefined in "
                              "ONNX: Error(Invalid) at run time.",
                          "ONNX Mod-13");
    mod.attrs.push_back(optional_attr("fmod", AttrType::Int, Attr(int64_t{0}),
                                      "0: integer modulus (sign of B); 1: fmod (sign of A; required for floats)"));
    out.push_back(std::move(mod));
  }
  out.push_back(binary("Pow", "C = A ^ B." + bc, "ONNX Pow-15"));
  {
    OpSchema shift = binary("BitShift",
                            "A shifted left or right by B bits, both of one unsigned integer dtype; bits shifted "
                            "out of the type are lost (a shift by the type's width or more gives 0)." + bc,
                            "ONNX BitShift-11");
    shift.attrs.push_back(required_attr("direction", AttrType::String, "\"LEFT\" or \"RIGHT\""));
    out.push_back(std::move(shift));
  }
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
  out.push_back(binary("Xor", "Logical A != B on Bool tensors." + cmp, "ONNX Xor-7", DataType::Bool));
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
  // Trigonometric and hyperbolic functions, radians; outside a function's domain the result is NaN (C's <cmath>).
  struct Trig {
    const char* name;
    const char* formula;
    const char* source;
  };
  for (Trig t : {Trig{"Cos", "cos(X)", "ONNX Cos-7"}, Trig{"Tan", "tan(X)", "ONNX Tan-7"},
                 Trig{"Asin", "asin(X), X in [-1, 1]", "ONNX Asin-7"}, Trig{"Acos", "acos(X), X in [-1, 1]", "ONNX Acos-7"},
                 Trig{"Atan", "atan(X)", "ONNX Atan-7"}, Trig{"Sinh", "sinh(X)", "ONNX Sinh-9"},
                 Trig{"Cosh", "cosh(X)", "ONNX Cosh-9"}, Trig{"Asinh", "asinh(X)", "ONNX Asinh-9"},
                 Trig{"Acosh", "acosh(X), X >= 1", "ONNX Acosh-9"}, Trig{"Atanh", "atanh(X), X in (-1, 1)", "ONNX Atanh-9"},
                 Trig{"Erf", "the error function erf(X)", "ONNX Erf-13"}})
    out.push_back(unary(t.name, std::string(t.formula) + "." + same, t.source));
  {
    OpSchema isnan = unary("IsNaN", "True where X is NaN. Output Bool, X's shape.", "ONNX IsNaN-13");
    isnan.infer = [](const InferenceContext& ctx) {
      TensorType t = same_as_input0(ctx)[0];
      t.dtype = DataType::Bool;
      t.quantization.reset();
      return std::vector<TensorType>{t};
    };
    OpSchema isinf = isnan;
    isinf.name = "IsInf";
    isinf.doc = "True where X is +inf (when detect_positive) or -inf (when detect_negative). Output Bool, X's shape.";
    isinf.source = "ONNX IsInf-10";
    isinf.attrs = {optional_attr("detect_negative", AttrType::Int, Attr(int64_t{1}), "1: -inf counts"),
                   optional_attr("detect_positive", AttrType::Int, Attr(int64_t{1}), "1: +inf counts")};
    out.push_back(std::move(isnan));
    out.push_back(std::move(isinf));
  }
}

}  // namespace nnbridge::ops
