// Element-wise families: Activation (every function), ElementwiseUnary, Floor, binary arithmetic,
// Comparison, Prelu, Softmax/LogSoftmax, normalizations, Quantize/Dequantize.
#include "harness.h"

namespace peer {

using armnn::DataType;

namespace {

struct ActCase {
  const char* name;
  armnn::ActivationFunction f;
  float a, b;
  double lo, hi;
};

void activation(Builder& b, armnn::ActivationFunction f, float a, float bb, const armnn::TensorInfo& info,
                double lo, double hi, const armnn::TensorInfo& out) {
  armnn::ActivationDescriptor d;
  d.m_Function = f;
  d.m_A = a;
  d.m_B = bb;
  auto& x = b.input("x", info, lo, hi);
  b.output("y", b.op("Activation", b.net().AddActivationLayer(d, "act"), {&x}, out));
}

void binary(Builder& b, const char* type, armnn::IConnectableLayer* l, const armnn::TensorInfo& ta,
            const armnn::TensorInfo& tb, const armnn::TensorInfo& out, double lo = -2, double hi = 2) {
  auto& a = b.input("a", ta, lo, hi);
  auto& c = b.input("b", tb, lo, hi);
  b.output("y", b.op(type, l, {&a, &c}, out));
}

}  // namespace

void add_elementwise_cases(std::vector<CaseDef>& out) {
  using AF = armnn::ActivationFunction;
  const ActCase acts[] = {
      {"sigmoid", AF::Sigmoid, 0, 0, -4, 4},      {"tanh", AF::TanH, 1, 1, -3, 3},
      {"linear", AF::Linear, 0.5f, -1, -2, 2},   {"relu", AF::ReLu, 0, 0, -2, 2},
      {"bounded_relu", AF::BoundedReLu, 6, 0, -3, 9}, {"soft_relu", AF::SoftReLu, 0, 0, -3, 3},
      {"leaky_relu", AF::LeakyReLu, 0.1f, 0, -2, 2}, {"abs", AF::Abs, 0, 0, -2, 2},
      {"sqrt", AF::Sqrt, 0, 0, 0.01, 4},          {"square", AF::Square, 0, 0, -2, 2},
      {"elu", AF::Elu, 1.0f, 0, -3, 3},           {"hard_swish", AF::HardSwish, 0, 0, -4, 4},
  };
  for (const auto& c : acts) {
    out.push_back({std::string("activation_") + c.name, [c](Builder& b) {
                     const auto t = tinfo({1, 2, 3, 4});
                     activation(b, c.f, c.a, c.b, t, c.lo, c.hi, t);
                   }});
    if (c.f == AF::SoftReLu) {
      // Verified by decoding model.armnn with flatc: the descriptor says Sigmoid.
      out.back().armnn_defect =
          "Arm NN 20.08's serializer writes ActivationFunction SoftReLu as Sigmoid (0), so model.armnn holds a "
          "Sigmoid activation; the expected outputs are those of the file (a Sigmoid), computed by running "
          "the deserialized network";
      out.back().outputs_from_file = true;
    }
  }
  out.push_back({"activation_relu_qasymmu8", [](Builder& b) {
                   activation(b, armnn::ActivationFunction::ReLu, 0, 0, tinfo({1, 4, 4, 2}, DataType::QAsymmU8, 0.05f, 128),
                              0, 255, tinfo({1, 4, 4, 2}, DataType::QAsymmU8, 0.05f, 128));
                 }});
  out.push_back({"activation_sigmoid_qasymms8", [](Builder& b) {
                   activation(b, armnn::ActivationFunction::Sigmoid, 0, 0, tinfo({2, 8}, DataType::QAsymmS8, 0.05f, 0),
                              -128, 127, tinfo({2, 8}, DataType::QAsymmS8, 1.0f / 256, -128));
                 }});
  out.push_back({"activation_bounded_relu_qsymms16", [](Builder& b) {
                   activation(b, armnn::ActivationFunction::BoundedReLu, 1, -1, tinfo({3, 5}, DataType::QSymmS16, 0.001f, 0),
                              -2000, 2000, tinfo({3, 5}, DataType::QSymmS16, 0.001f, 0));
                 }});
  out.push_back({"activation_zoo_multi_output", [](Builder& b) {
                   const auto t = tinfo({2, 5});
                   auto& x = b.input("x", t);
                   const std::pair<const char*, AF> fs[] = {{"y_relu", AF::ReLu}, {"y_tanh", AF::TanH}, {"y_elu", AF::Elu}};
                   for (const auto& [name, f] : fs) {
                     armnn::ActivationDescriptor d;
                     d.m_Function = f;
                     d.m_A = 1.0f;
                     b.output(name, b.op("Activation", b.net().AddActivationLayer(d, name), {&x}, t));
                   }
                 }});

  const std::pair<const char*, armnn::UnaryOperation> unary[] = {
      {"abs", armnn::UnaryOperation::Abs}, {"exp", armnn::UnaryOperation::Exp}, {"sqrt", armnn::UnaryOperation::Sqrt},
      {"rsqrt", armnn::UnaryOperation::Rsqrt}, {"neg", armnn::UnaryOperation::Neg}};
  for (const auto& [name, op] : unary)
    out.push_back({std::string("unary_") + name, [op = op](Builder& b) {
                     const auto t = tinfo({2, 3, 4});
                     const bool positive = op == armnn::UnaryOperation::Sqrt || op == armnn::UnaryOperation::Rsqrt;
                     auto& x = b.input("x", t, positive ? 0.1 : -2, 2);
                     b.output("y", b.op("ElementwiseUnary", b.net().AddElementwiseUnaryLayer(armnn::ElementwiseUnaryDescriptor(op), "unary"), {&x}, t));
                   }});
  out.push_back({"floor", [](Builder& b) {
                   const auto t = tinfo({4, 6});
                   auto& x = b.input("x", t, -5, 5);
                   b.output("y", b.op("Floor", b.net().AddFloorLayer("floor"), {&x}, t));
                 }});

  // Binary arithmetic, same shapes, broadcast and quantized.
  out.push_back({"add_float", [](Builder& b) { auto t = tinfo({1, 2, 2, 3}); binary(b, "Addition", b.net().AddAdditionLayer("add"), t, t, t); }});
  out.push_back({"add_broadcast", [](Builder& b) { binary(b, "Addition", b.net().AddAdditionLayer("add"), tinfo({2, 3, 4}), tinfo({1, 1, 4}), tinfo({2, 3, 4})); }});
  out.push_back({"add_qasymmu8", [](Builder& b) {
                   binary(b, "Addition", b.net().AddAdditionLayer("qadd"), tinfo({1, 8}, DataType::QAsymmU8, 0.1f, 10),
                          tinfo({1, 8}, DataType::QAsymmU8, 0.2f, 5), tinfo({1, 8}, DataType::QAsymmU8, 0.25f, 20), 0, 255);
                 }});
  out.push_back({"add_float16", [](Builder& b) { auto t = tinfo({2, 4}, DataType::Float16); binary(b, "Addition", b.net().AddAdditionLayer("add"), t, t, t); }});
  out.push_back({"sub_float", [](Builder& b) { auto t = tinfo({3, 4}); binary(b, "Subtraction", b.net().AddSubtractionLayer("sub"), t, t, t); }});
  out.push_back({"sub_qasymms8", [](Builder& b) {
                   auto t = tinfo({2, 6}, DataType::QAsymmS8, 0.05f, 3);
                   binary(b, "Subtraction", b.net().AddSubtractionLayer("qsub"), t, t, tinfo({2, 6}, DataType::QAsymmS8, 0.1f, 0), -128, 127);
                 }});
  out.push_back({"mul_broadcast", [](Builder& b) { binary(b, "Multiplication", b.net().AddMultiplicationLayer("mul"), tinfo({2, 1, 3}), tinfo({1, 4, 1}), tinfo({2, 4, 3})); }});
  out.push_back({"mul_qsymms16", [](Builder& b) {
                   auto t = tinfo({10}, DataType::QSymmS16, 0.001f, 0);
                   binary(b, "Multiplication", b.net().AddMultiplicationLayer("qmul"), t, t, tinfo({10}, DataType::QSymmS16, 0.002f, 0), -1500, 1500);
                 }});
  out.push_back({"div_float", [](Builder& b) { auto t = tinfo({2, 5}); binary(b, "Division", b.net().AddDivisionLayer("div"), t, t, t, 0.5, 3); }});
  out.push_back({"max_float", [](Builder& b) { auto t = tinfo({2, 2, 3}); binary(b, "Maximum", b.net().AddMaximumLayer("max"), t, t, t); }});
  out.push_back({"min_broadcast", [](Builder& b) { binary(b, "Minimum", b.net().AddMinimumLayer("min"), tinfo({3, 4}), tinfo({1, 4}), tinfo({3, 4})); }});
  out.push_back({"prelu", [](Builder& b) {
                   auto& x = b.input("x", tinfo({1, 2, 2, 3}));
                   auto& alpha = b.input("alpha", tinfo({1, 1, 1, 3}), 0, 0.5);
                   b.output("y", b.op("Prelu", b.net().AddPreluLayer("prelu"), {&x, &alpha}, tinfo({1, 2, 2, 3})));
                 }});
  const std::pair<const char*, armnn::ComparisonOperation> cmps[] = {
      {"equal", armnn::ComparisonOperation::Equal}, {"greater", armnn::ComparisonOperation::Greater},
      {"greater_or_equal", armnn::ComparisonOperation::GreaterOrEqual}, {"less", armnn::ComparisonOperation::Less},
      {"less_or_equal", armnn::ComparisonOperation::LessOrEqual}, {"not_equal", armnn::ComparisonOperation::NotEqual}};
  for (const auto& [name, op] : cmps)
    out.push_back({std::string("comparison_") + name, [op = op](Builder& b) {
                     // Integer-valued floats so that equality cases actually occur.
                     auto& a = b.input("a", tinfo({2, 6}, DataType::Signed32), -2, 2);
                     auto& c = b.input("b", tinfo({2, 6}, DataType::Signed32), -2, 2);
                     b.output("y", b.op("Comparison", b.net().AddComparisonLayer(armnn::ComparisonDescriptor(op), "cmp"), {&a, &c}, tinfo({2, 6}, DataType::Boolean)));
                   }});
  out.push_back({"comparison_greater_float", [](Builder& b) {
                   binary(b, "Comparison", b.net().AddComparisonLayer(armnn::ComparisonDescriptor(armnn::ComparisonOperation::Greater), "gt"),
                          tinfo({3, 4}), tinfo({3, 4}), tinfo({3, 4}, DataType::Boolean));
                 }});

  out.push_back({"softmax", [](Builder& b) {
                   armnn::SoftmaxDescriptor d;
                   d.m_Beta = 1.0f;
                   auto& x = b.input("x", tinfo({2, 10}), -3, 3);
                   b.output("probs", b.op("Softmax", b.net().AddSoftmaxLayer(d, "softmax"), {&x}, tinfo({2, 10})));
                 }});
  out.push_back({"softmax_beta_qasymmu8", [](Builder& b) {
                   armnn::SoftmaxDescriptor d;
                   d.m_Beta = 2.0f;
                   auto& x = b.input("x", tinfo({1, 12}, DataType::QAsymmU8, 0.1f, 128), 0, 255);
                   b.output("probs", b.op("Softmax", b.net().AddSoftmaxLayer(d, "softmax"), {&x}, tinfo({1, 12}, DataType::QAsymmU8, 1.0f / 256, 0)));
                 }});
  out.push_back({"log_softmax", [](Builder& b) {
                   armnn::LogSoftmaxDescriptor d;
                   d.m_Beta = 1.0f;
                   d.m_Axis = -1;
                   auto& x = b.input("x", tinfo({3, 7}), -3, 3);
                   b.output("y", b.op("LogSoftmax", b.net().AddLogSoftmaxLayer(d, "log_softmax"), {&x}, tinfo({3, 7})));
                 }});

  for (auto layout : {armnn::DataLayout::NCHW, armnn::DataLayout::NHWC}) {
    const bool nchw = layout == armnn::DataLayout::NCHW;
    const auto t = nchw ? tinfo({1, 3, 2, 4}) : tinfo({1, 2, 4, 3});
    out.push_back({std::string("l2_normalization_") + (nchw ? "nchw" : "nhwc"), [layout, t](Builder& b) {
                     armnn::L2NormalizationDescriptor d;
                     d.m_DataLayout = layout;
                     d.m_Eps = 1e-6f;
                     auto& x = b.input("x", t);
                     b.output("y", b.op("L2Normalization", b.net().AddL2NormalizationLayer(d, "l2n"), {&x}, t));
                   }});
    out.push_back({std::string("instance_normalization_") + (nchw ? "nchw" : "nhwc"), [layout, t](Builder& b) {
                     armnn::InstanceNormalizationDescriptor d;
                     d.m_DataLayout = layout;
                     d.m_Gamma = 1.5f;
                     d.m_Beta = 0.25f;
                     d.m_Eps = 1e-5f;
                     auto& x = b.input("x", t);
                     b.output("y", b.op("InstanceNormalization", b.net().AddInstanceNormalizationLayer(d, "in"), {&x}, t));
                   }});
    out.push_back({std::string("batch_normalization_") + (nchw ? "nchw" : "nhwc"), [layout, t](Builder& b) {
                     armnn::BatchNormalizationDescriptor d;
                     d.m_DataLayout = layout;
                     d.m_Eps = 1e-3f;
                     const auto c = tinfo({3});
                     auto mean = b.constant(c), var = b.constant(c, 0.5, 2), beta = b.constant(c), gamma = b.constant(c, 0.5, 1.5);
                     auto& x = b.input("x", t);
                     b.output("y", b.op("BatchNormalization", b.net().AddBatchNormalizationLayer(d, mean, var, beta, gamma, "bn"), {&x}, t));
                   }});
    out.push_back({std::string("lrn_across_") + (nchw ? "nchw" : "nhwc"), [layout, t](Builder& b) {
                     armnn::NormalizationDescriptor d;
                     d.m_NormChannelType = armnn::NormalizationAlgorithmChannel::Across;
                     d.m_NormMethodType = armnn::NormalizationAlgorithmMethod::LocalBrightness;
                     d.m_NormSize = 3;
                     d.m_Alpha = 0.1f;
                     d.m_Beta = 0.75f;
                     d.m_K = 1.0f;
                     d.m_DataLayout = layout;
                     auto& x = b.input("x", t);
                     b.output("y", b.op("Normalization", b.net().AddNormalizationLayer(d, "lrn"), {&x}, t));
                   }});
  }
  out.push_back({"lrn_within_nchw", [](Builder& b) {
                   armnn::NormalizationDescriptor d;
                   d.m_NormChannelType = armnn::NormalizationAlgorithmChannel::Within;
                   d.m_NormMethodType = armnn::NormalizationAlgorithmMethod::LocalBrightness;
                   d.m_NormSize = 3;
                   d.m_Alpha = 0.2f;
                   d.m_Beta = 0.5f;
                   d.m_K = 2.0f;
                   d.m_DataLayout = armnn::DataLayout::NCHW;
                   auto& x = b.input("x", tinfo({1, 2, 4, 4}));
                   b.output("y", b.op("Normalization", b.net().AddNormalizationLayer(d, "lrn"), {&x}, tinfo({1, 2, 4, 4})));
                 }});

  out.push_back({"quantize_to_qasymmu8", [](Builder& b) {
                   auto& x = b.input("x", tinfo({2, 8}), -3, 3);
                   b.output("q", b.op("Quantize", b.net().AddQuantizeLayer("quantize"), {&x}, tinfo({2, 8}, DataType::QAsymmU8, 0.025f, 128)));
                 }});
  out.push_back({"quantize_to_qsymms16", [](Builder& b) {
                   auto& x = b.input("x", tinfo({12}), -3, 3);
                   b.output("q", b.op("Quantize", b.net().AddQuantizeLayer("quantize"), {&x}, tinfo({12}, DataType::QSymmS16, 0.0001f, 0)));
                 }});
  out.push_back({"dequantize_qasymms8", [](Builder& b) {
                   auto& x = b.input("q", tinfo({3, 5}, DataType::QAsymmS8, 0.04f, -7), -128, 127);
                   b.output("y", b.op("Dequantize", b.net().AddDequantizeLayer("dequantize"), {&x}, tinfo({3, 5})));
                 }});
}

}  // namespace peer
