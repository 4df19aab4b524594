// Recurrent and control-flow families: Lstm, QuantizedLstm, QLstm, DetectionPostProcess, Merge,
// Switch, StandIn (several of these CpuRef 20.08 cannot run; their models are still written).
#include "harness.h"

namespace peer {

using armnn::DataType;

void add_misc_cases(std::vector<CaseDef>& out) {
  out.push_back({"lstm_cifg", [](Builder& b) {
                   const unsigned batch = 1, in = 3, units = 4, outsz = 4;
                   armnn::LstmDescriptor d;
                   d.m_ActivationFunc = 4;  // TfLite fused-activation code for tanh
                   d.m_CifgEnabled = true;
                   d.m_PeepholeEnabled = false;
                   d.m_ProjectionEnabled = false;
                   d.m_ClippingThresCell = 0;
                   d.m_ClippingThresProj = 0;
                   auto wi = tinfo({units, in}), wr = tinfo({units, outsz}), bi = tinfo({units});
                   auto i2f = b.constant(wi), i2c = b.constant(wi), i2o = b.constant(wi);
                   auto r2f = b.constant(wr), r2c = b.constant(wr), r2o = b.constant(wr);
                   auto fb = b.constant(bi), cb = b.constant(bi), ob = b.constant(bi);
                   armnn::LstmInputParams p;
                   p.m_InputToForgetWeights = &i2f;
                   p.m_InputToCellWeights = &i2c;
                   p.m_InputToOutputWeights = &i2o;
                   p.m_RecurrentToForgetWeights = &r2f;
                   p.m_RecurrentToCellWeights = &r2c;
                   p.m_RecurrentToOutputWeights = &r2o;
                   p.m_ForgetGateBias = &fb;
                   p.m_CellBias = &cb;
                   p.m_OutputGateBias = &ob;
                   auto& x = b.input("input", tinfo({batch, in}));
                   auto& h = b.input("output_state_in", tinfo({batch, outsz}), -0.5, 0.5);
                   auto& c = b.input("cell_state_in", tinfo({batch, units}), -0.5, 0.5);
                   auto* l = b.add("Lstm", b.net().AddLstmLayer(d, p, "lstm"), {&x, &h, &c},
                                   {tinfo({batch, units * 3}), tinfo({batch, outsz}), tinfo({batch, units}), tinfo({batch, outsz})});
                   b.output("scratch", l->GetOutputSlot(0));
                   b.output("output_state_out", l->GetOutputSlot(1));
                   b.output("cell_state_out", l->GetOutputSlot(2));
                   b.output("output", l->GetOutputSlot(3));
                 }});
  out.push_back({"quantized_lstm", [](Builder& b) {
                   const unsigned batch = 2, in = 2, outsz = 4;
                   auto wi = tinfo({outsz, in}, DataType::QAsymmU8, 0.00408021f, 100);
                   auto wr = tinfo({outsz, outsz}, DataType::QAsymmU8, 0.00408021f, 100);
                   auto bi = tinfo({outsz}, DataType::Signed32, 3.1876640625e-05f, 0);
                   std::vector<armnn::ConstTensor> t;
                   for (int i = 0; i < 4; ++i) t.push_back(b.constant(wi, 0, 255));
                   for (int i = 0; i < 4; ++i) t.push_back(b.constant(wr, 0, 255));
                   for (int i = 0; i < 4; ++i) t.push_back(b.constant(bi, -20000, 20000));
                   armnn::QuantizedLstmInputParams p;
                   p.m_InputToInputWeights = &t[0];
                   p.m_InputToForgetWeights = &t[1];
                   p.m_InputToCellWeights = &t[2];
                   p.m_InputToOutputWeights = &t[3];
                   p.m_RecurrentToInputWeights = &t[4];
                   p.m_RecurrentToForgetWeights = &t[5];
                   p.m_RecurrentToCellWeights = &t[6];
                   p.m_RecurrentToOutputWeights = &t[7];
                   p.m_InputGateBias = &t[8];
                   p.m_ForgetGateBias = &t[9];
                   p.m_CellBias = &t[10];
                   p.m_OutputGateBias = &t[11];
                   auto q8 = [](std::vector<unsigned> s) { return tinfo(s, DataType::QAsymmU8, 0.0078125f, 128); };
                   auto c16 = tinfo({batch, outsz}, DataType::QSymmS16, 0.00048828125f, 0);
                   auto& x = b.input("input", q8({batch, in}), 0, 255);
                   auto& c = b.input("cell_state_in", c16, -2000, 2000);
                   auto& h = b.input("output_state_in", q8({batch, outsz}), 0, 255);
                   auto* l = b.add("QuantizedLstm", b.net().AddQuantizedLstmLayer(p, "qlstm"), {&x, &c, &h}, {c16, q8({batch, outsz})});
                   b.output("cell_state_out", l->GetOutputSlot(0));
                   b.output("output", l->GetOutputSlot(1));
                 }});
  out.push_back({"qlstm_cifg", [](Builder& b) {
                   const unsigned batch = 2, in = 4, units = 4, outsz = 4;
                   armnn::QLstmDescriptor d;
                   d.m_CifgEnabled = true;
                   d.m_PeepholeEnabled = false;
                   d.m_ProjectionEnabled = false;
                   d.m_LayerNormEnabled = false;
                   d.m_CellClip = 0;
                   d.m_ProjectionClip = 0;
                   d.m_InputIntermediateScale = 0.007059f;
                   d.m_ForgetIntermediateScale = 0.007812f;
                   d.m_CellIntermediateScale = 0.007059f;
                   d.m_OutputIntermediateScale = 0.007812f;
                   d.m_HiddenStateZeroPoint = 0;
                   d.m_HiddenStateScale = 0.007f;
                   auto wi = tinfo({units, in}, DataType::QSymmS8, 0.00784314f, 0);
                   auto wr = tinfo({units, outsz}, DataType::QSymmS8, 0.00784314f, 0);
                   auto bi = tinfo({units}, DataType::Signed32, 0.0000614f, 0);
                   auto i2f = b.constant(wi, -127, 127), i2c = b.constant(wi, -127, 127), i2o = b.constant(wi, -127, 127);
                   auto r2f = b.constant(wr, -127, 127), r2c = b.constant(wr, -127, 127), r2o = b.constant(wr, -127, 127);
                   auto fb = b.constant(bi, -1000, 1000), cb = b.constant(bi, -1000, 1000), ob = b.constant(bi, -1000, 1000);
                   armnn::LstmInputParams p;
                   p.m_InputToForgetWeights = &i2f;
                   p.m_InputToCellWeights = &i2c;
                   p.m_InputToOutputWeights = &i2o;
                   p.m_RecurrentToForgetWeights = &r2f;
                   p.m_RecurrentToCellWeights = &r2c;
                   p.m_RecurrentToOutputWeights = &r2o;
                   p.m_ForgetGateBias = &fb;
                   p.m_CellBias = &cb;
                   p.m_OutputGateBias = &ob;
                   auto s8 = [](std::vector<unsigned> s) { return tinfo(s, DataType::QAsymmS8, 0.0078125f, 0); };
                   auto c16 = tinfo({batch, units}, DataType::QSymmS16, 3.05176e-05f, 0);
                   auto& x = b.input("input", s8({batch, in}), -128, 127);
                   auto& h = b.input("output_state_in", s8({batch, outsz}), -128, 127);
                   auto& c = b.input("cell_state_in", c16, -8000, 8000);
                   auto* l = b.add("QLstm", b.net().AddQLstmLayer(d, p, "qlstm"), {&x, &h, &c}, {s8({batch, outsz}), c16, s8({batch, outsz})});
                   b.output("output_state_out", l->GetOutputSlot(0));
                   b.output("cell_state_out", l->GetOutputSlot(1));
                   b.output("output", l->GetOutputSlot(2));
                 }});
  out.push_back({"detection_post_process", [](Builder& b) {
                   const unsigned anchors = 6, classes = 2, maxdet = 3;
                   armnn::DetectionPostProcessDescriptor d;
                   d.m_MaxDetections = maxdet;
                   d.m_MaxClassesPerDetection = 1;
                   d.m_DetectionsPerClass = 1;
                   d.m_NmsScoreThreshold = 0.0f;
                   d.m_NmsIouThreshold = 0.5f;
                   d.m_NumClasses = classes;
                   d.m_UseRegularNms = false;
                   d.m_ScaleX = d.m_ScaleY = 10.0f;
                   d.m_ScaleW = d.m_ScaleH = 5.0f;
                   // Anchors [ycenter, xcenter, h, w] on a 3x2 grid.
                   std::vector<double> a;
                   for (unsigned i = 0; i < anchors; ++i) a.insert(a.end(), {0.25 + 0.25 * (i / 2), 0.25 + 0.5 * (i % 2), 0.5, 0.5});
                   auto anchor_t = b.constant_of(tinfo({anchors, 4}), a);
                   auto& boxes = b.input("box_encodings", tinfo({1, anchors, 4}), -1, 1);
                   auto& scores = b.input("scores", tinfo({1, anchors, classes + 1}), 0, 1);
                   auto* l = b.add("DetectionPostProcess", b.net().AddDetectionPostProcessLayer(d, anchor_t, "dpp"), {&boxes, &scores},
                                   {tinfo({1, maxdet, 4}), tinfo({1, maxdet}), tinfo({1, maxdet}), tinfo({1})});
                   b.output("detection_boxes", l->GetOutputSlot(0));
                   b.output("detection_classes", l->GetOutputSlot(1));
                   b.output("detection_scores", l->GetOutputSlot(2));
                   b.output("num_detections", l->GetOutputSlot(3));
                 }});
  out.push_back({"merge", [](Builder& b) {
                   auto& x = b.input("a", tinfo({2, 3}));
                   auto& y = b.input("b", tinfo({2, 3}));
                   b.output("y", b.op("Merge", b.net().AddMergeLayer("merge"), {&x, &y}, tinfo({2, 3})));
                 }});
  out.push_back({"switch", [](Builder& b) {
                   auto& x = b.input("x", tinfo({2, 3}));
                   auto& c = b.input("condition", tinfo({1}, DataType::Boolean), 0, 1);
                   auto* l = b.add("Switch", b.net().AddSwitchLayer("switch"), {&x, &c}, {tinfo({2, 3}), tinfo({2, 3})});
                   b.output("if_false", l->GetOutputSlot(0));
                   b.output("if_true", l->GetOutputSlot(1));
                 }});
  out.push_back({"stand_in", [](Builder& b) {
                   auto& x = b.input("a", tinfo({2, 2}));
                   auto& y = b.input("b", tinfo({3}));
                   b.output("y", b.op("StandIn", b.net().AddStandInLayer(armnn::StandInDescriptor(2, 1), "custom_op"), {&x, &y}, tinfo({4})));
                 }});
  // Deprecated INetwork calls: Arm NN 20.08 builds their successors' layers, so these record what
  // the serializer writes for a network built with the old API.
  out.push_back({"deprecated_api_abs_rsqrt", [](Builder& b) {
                   auto& x = b.input("x", tinfo({2, 4}), 0.1, 3);
                   auto& a = b.op("ElementwiseUnary", b.net().AddAbsLayer("abs"), {&x}, tinfo({2, 4}));
                   b.output("y", b.op("ElementwiseUnary", b.net().AddRsqrtLayer("rsqrt"), {&a}, tinfo({2, 4})));
                 }});
  out.push_back({"deprecated_api_equal_greater", [](Builder& b) {
                   auto& x = b.input("a", tinfo({2, 3}, DataType::Signed32), -1, 1);
                   auto& y = b.input("b", tinfo({2, 3}, DataType::Signed32), -1, 1);
                   b.output("eq", b.op("Comparison", b.net().AddEqualLayer("equal"), {&x, &y}, tinfo({2, 3}, DataType::Boolean)));
                   b.output("gt", b.op("Comparison", b.net().AddGreaterLayer("greater"), {&x, &y}, tinfo({2, 3}, DataType::Boolean)));
                 }});
  out.push_back({"deprecated_api_merger", [](Builder& b) {
                   std::vector<armnn::TensorShape> shapes = {armnn::TensorShape({2, 2}), armnn::TensorShape({2, 3})};
                   auto d = armnn::CreateDescriptorForConcatenation(shapes.begin(), shapes.end(), 1);
                   auto& x = b.input("a", tinfo({2, 2}));
                   auto& y = b.input("b", tinfo({2, 3}));
                   b.output("y", b.op("Concat", b.net().AddMergerLayer(d, "merger"), {&x, &y}, tinfo({2, 5})));
                 }});
  out.push_back({"deprecated_api_resize_bilinear", [](Builder& b) {
                   armnn::ResizeBilinearDescriptor d;
                   d.m_TargetWidth = 4;
                   d.m_TargetHeight = 3;
                   d.m_DataLayout = armnn::DataLayout::NHWC;
                   auto& x = b.input("x", tinfo({1, 2, 2, 1}));
                   b.output("y", b.op("Resize", b.net().AddResizeBilinearLayer(d, "resize_bilinear"), {&x}, tinfo({1, 3, 4, 1})));
                 }});
}

}  // namespace peer
