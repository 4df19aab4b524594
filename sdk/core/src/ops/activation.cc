// Activations and softmax.
#include <limits>

#include "ops/ops.h"

namespace nnbridge::ops {

void add_activation_ops(std::vector<OpSchema>& out) {
  const std::string same = " Output has the input's dtype and shape.";
  out.push_back(make_op("Relu", 1, 1, {}, "max(0, X)." + same, "ONNX Relu-14; Arm NN Activation ReLu", same_as_input0));
  out.push_back(make_op("Sigmoid", 1, 1, {}, "1 / (1 + e^-X)." + same, "ONNX Sigmoid-13; Arm NN Activation Sigmoid",
                        same_as_input0));
  out.push_back(make_op("Tanh", 1, 1, {}, "tanh(X)." + same, "ONNX Tanh-13", same_as_input0));
  out.push_back(make_op("ScaledTanh", 1, 1,
                        {optional_attr("alpha", AttrType::Float, Attr(1.0), "output scale a"),
                         optional_attr("beta", AttrType::Float, Attr(1.0), "input scale b")},
                        "alpha * tanh(beta * X)." + same,
                        "ONNX ScaledTanh-1 (experimental); Arm NN Activation TanH (a*tanh(b*x))", same_as_input0));
  out.push_back(make_op("Affine", 1, 1,
                        {optional_attr("alpha", AttrType::Float, Attr(1.0), "slope"),
                         optional_attr("beta", AttrType::Float, Attr(0.0), "offset")},
                        "alpha * X + beta." + same, "ONNX Affine-1 (experimental); Arm NN Activation Linear (a*x+b)",
                        same_as_input0));
  out.push_back(make_op("Clip", 1, 3, {},
                        "min(max(X, min), max) with min (input 1) and max (input 2) scalars of X's type; an absent bound "
                        "does not clip." + same,
                        "ONNX Clip-13; Arm NN Activation BoundedReLu (min=b, max=a)", same_as_input0));
  out.push_back(make_op("LeakyRelu", 1, 1, {optional_attr("alpha", AttrType::Float, Attr(0.01), "slope for X < 0")},
                        "X if X >= 0 else alpha * X." + same, "ONNX LeakyRelu-16; Arm NN Activation LeakyReLu",
                        same_as_input0));
  out.push_back(make_op("Elu", 1, 1, {optional_attr("alpha", AttrType::Float, Attr(1.0), "scale of the negative part")},
                        "X if X >= 0 else alpha * (e^X - 1)." + same, "ONNX Elu-6; Arm NN Activation Elu",
                        same_as_input0));
  out.push_back(make_op("Softplus", 1, 1, {}, "ln(1 + e^X)." + same, "ONNX Softplus-1; Arm NN Activation SoftReLu",
                        same_as_input0));
  out.push_back(make_op("HardSwish", 1, 1, {}, "X * max(0, min(1, X/6 + 1/2))." + same,
                        "ONNX HardSwish-14; Arm NN Activation HardSwish", same_as_input0));
  out.push_back(make_op("Gelu", 1, 1,
                        {optional_attr("approximate", AttrType::String, Attr("none"),
                                       "\"none\" (erf form) or \"tanh\" (tanh approximation)")},
                        "X * Phi(X), Phi the standard normal CDF." + same, "ONNX Gelu-20", same_as_input0));

  out.push_back(make_op("Selu", 1, 1,
                        {optional_attr("alpha", AttrType::Float, Attr(1.67326319217681884765625), "scale of the negative part"),
                         optional_attr("gamma", AttrType::Float, Attr(1.05070102214813232421875), "overall scale")},
                        "gamma * X if X > 0 else gamma * alpha * (e^X - 1)." + same,
                        "ONNX Selu-6 (defaults: the float32 values of Klambauer et al. 2017)", same_as_input0));
  out.push_back(make_op("Celu", 1, 1, {optional_attr("alpha", AttrType::Float, Attr(1.0), "the C1 continuity scale")},
                        "max(0, X) + min(0, alpha * (e^(X/alpha) - 1))." + same, "ONNX Celu-12 (Barron 2017)",
                        same_as_input0));
  out.push_back(make_op("HardSigmoid", 1, 1,
                        {optional_attr("alpha", AttrType::Float, Attr(0.2), "slope"),
                         optional_attr("beta", AttrType::Float, Attr(0.5), "offset")},
                        "max(0, min(1, alpha * X + beta))." + same, "ONNX HardSigmoid-6", same_as_input0));
  out.push_back(make_op("ThresholdedRelu", 1, 1, {optional_attr("alpha", AttrType::Float, Attr(1.0), "the threshold")},
                        "X if X > alpha else 0." + same, "ONNX ThresholdedRelu-10", same_as_input0));
  out.push_back(make_op("Shrink", 1, 1,
                        {optional_attr("bias", AttrType::Float, Attr(0.0), "added to (subtracted from) the kept values"),
                         optional_attr("lambd", AttrType::Float, Attr(0.5), "half width of the zeroed band")},
                        "X + bias if X < -lambd, X - bias if X > lambd, else 0." + same, "ONNX Shrink-9",
                        same_as_input0));
  out.push_back(make_op("Softsign", 1, 1, {}, "X / (1 + |X|)." + same, "ONNX Softsign-1", same_as_input0));

  auto softmax_attrs = [] {
    return std::vector<AttrSpec>{
        optional_attr("axis", AttrType::Int, Attr(int64_t{-1}), "the axis normalized over; negative counts from the end"),
        optional_attr("beta", AttrType::Float, Attr(1.0), "input scale: exp(beta * (x - max)) (Arm NN)")};
  };
  auto check_axis = [](const InferenceContext& ctx) {
    const TensorType& t = ctx.input_types[0];
    if (!t.unknown_rank) normalize_axis(ctx.attr_int("axis"), static_cast<int64_t>(t.shape.size()));
    return same_as_input0(ctx);
  };
  out.push_back(make_op("Softmax", 1, 1, softmax_attrs(),
                        "exp(beta*(x - max)) / sum(exp(beta*(x - max))) along `axis`." + same,
                        "ONNX Softmax-13 (axis); Arm NN SoftmaxDescriptor.beta", check_axis));
  out.push_back(make_op("LogSoftmax", 1, 1, softmax_attrs(), "log of Softmax along `axis`." + same,
                        "ONNX LogSoftmax-13 (axis); Arm NN LogSoftmaxDescriptor.beta", check_axis));
}

}  // namespace nnbridge::ops
