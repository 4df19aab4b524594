// Variants of the layers with optional parameter groups: Lstm and QLstm without CIFG, with
// peephole, projection, layer normalization and clipping; DetectionPostProcess with regular and
// fast NMS (several classes per box, score threshold, unequal scales, quantized inputs).
#include "harness.h"

namespace peer {

using armnn::DataType;

namespace {

struct LstmVariant {
  unsigned batch, in, units, out;
  bool cifg, peephole, projection, layer_norm;
  uint32_t activation;  // TfLite fused-activation code
  float clip_cell, clip_proj;
};

void lstm(Builder& b, const LstmVariant& v) {
  armnn::LstmDescriptor d;
  d.m_ActivationFunc = v.activation;
  d.m_CifgEnabled = v.cifg;
  d.m_PeepholeEnabled = v.peephole;
  d.m_ProjectionEnabled = v.projection;
  d.m_LayerNormEnabled = v.layer_norm;
  d.m_ClippingThresCell = v.clip_cell;
  d.m_ClippingThresProj = v.clip_proj;
  const auto wi = tinfo({v.units, v.in}), wr = tinfo({v.units, v.out}), vec = tinfo({v.units});
  // Every parameter is made (in a fixed order, so the data do not depend on the flags) and only
  // the ones the descriptor asks for are passed.
  auto i2i = b.constant(wi), i2f = b.constant(wi), i2c = b.constant(wi), i2o = b.constant(wi);
  auto r2i = b.constant(wr), r2f = b.constant(wr), r2c = b.constant(wr), r2o = b.constant(wr);
  auto ib = b.constant(vec), fb = b.constant(vec), cb = b.constant(vec), ob = b.constant(vec);
  auto c2i = b.constant(vec), c2f = b.constant(vec), c2o = b.constant(vec);
  auto pw = b.constant(tinfo({v.out, v.units})), pb = b.constant(tinfo({v.out}), -0.2, 0.2);
  auto lni = b.constant(vec, 0.5, 1.5), lnf = b.constant(vec, 0.5, 1.5), lnc = b.constant(vec, 0.5, 1.5), lno = b.constant(vec, 0.5, 1.5);
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
  if (!v.cifg) {
    p.m_InputToInputWeights = &i2i;
    p.m_RecurrentToInputWeights = &r2i;
    p.m_InputGateBias = &ib;
  }
  if (v.peephole) {
    if (!v.cifg) p.m_CellToInputWeights = &c2i;
    p.m_CellToForgetWeights = &c2f;
    p.m_CellToOutputWeights = &c2o;
  }
  if (v.projection) {
    p.m_ProjectionWeights = &pw;
    p.m_ProjectionBias = &pb;
  }
  if (v.layer_norm) {
    if (!v.cifg) p.m_InputLayerNormWeights = &lni;
    p.m_ForgetLayerNormWeights = &lnf;
    p.m_CellLayerNormWeights = &lnc;
    p.m_OutputLayerNormWeights = &lno;
  }
  auto& x = b.input("input", tinfo({v.batch, v.in}));
  auto& h = b.input("output_state_in", tinfo({v.batch, v.out}), -0.5, 0.5);
  auto& c = b.input("cell_state_in", tinfo({v.batch, v.units}), -1, 1);
  auto* l = b.add("Lstm", b.net().AddLstmLayer(d, p, "lstm"), {&x, &h, &c},
                  {tinfo({v.batch, v.units * (v.cifg ? 3 : 4)}), tinfo({v.batch, v.out}), tinfo({v.batch, v.units}), tinfo({v.batch, v.out})});
  b.output("scratch", l->GetOutputSlot(0));
  b.output("output_state_out", l->GetOutputSlot(1));
  b.output("cell_state_out", l->GetOutputSlot(2));
  b.output("output", l->GetOutputSlot(3));
}

// QLstm with every optional group: no CIFG, peephole, layer norm, projection with bias, clipping,
// and a non-zero hidden-state zero point.
void qlstm_full(Builder& b) {
  const unsigned batch = 2, in = 3, units = 4, outsz = 3;
  armnn::QLstmDescriptor d;
  d.m_CifgEnabled = false;
  d.m_PeepholeEnabled = true;
  d.m_ProjectionEnabled = true;
  d.m_LayerNormEnabled = true;
  d.m_CellClip = 0.5f;
  d.m_ProjectionClip = 0.2f;
  d.m_InputIntermediateScale = 0.007059f;
  d.m_ForgetIntermediateScale = 0.007812f;
  d.m_CellIntermediateScale = 0.007059f;
  d.m_OutputIntermediateScale = 0.007812f;
  d.m_HiddenStateZeroPoint = 3;
  d.m_HiddenStateScale = 0.007f;
  const auto wi = tinfo({units, in}, DataType::QSymmS8, 0.00784314f, 0);
  const auto wr = tinfo({units, outsz}, DataType::QSymmS8, 0.00784314f, 0);
  // Layer-norm biases are read with scale (layer-norm weight scale / 1024) = 2^-22: +-0.5.
  const auto bias = tinfo({units}, DataType::Signed32, 0.0000614f, 0);
  const auto peep = tinfo({units}, DataType::QSymmS16, 0.0005f, 0);
  const auto ln = tinfo({units}, DataType::QSymmS16, 1.0f / 4096, 0);
  std::vector<armnn::ConstTensor> w;
  for (int i = 0; i < 4; ++i) w.push_back(b.constant(wi, -127, 127));
  for (int i = 0; i < 4; ++i) w.push_back(b.constant(wr, -127, 127));
  for (int i = 0; i < 4; ++i) w.push_back(b.constant(bias, -2000000, 2000000));
  for (int i = 0; i < 3; ++i) w.push_back(b.constant(peep, -1000, 1000));
  for (int i = 0; i < 4; ++i) w.push_back(b.constant(ln, 2000, 6000));
  auto pw = b.constant(tinfo({outsz, units}, DataType::QSymmS8, 0.00784314f, 0), -127, 127);
  auto pb = b.constant(tinfo({outsz}, DataType::Signed32, 0.0001f, 0), -1500, 1500);
  armnn::LstmInputParams p;
  p.m_InputToInputWeights = &w[0];
  p.m_InputToForgetWeights = &w[1];
  p.m_InputToCellWeights = &w[2];
  p.m_InputToOutputWeights = &w[3];
  p.m_RecurrentToInputWeights = &w[4];
  p.m_RecurrentToForgetWeights = &w[5];
  p.m_RecurrentToCellWeights = &w[6];
  p.m_RecurrentToOutputWeights = &w[7];
  p.m_InputGateBias = &w[8];
  p.m_ForgetGateBias = &w[9];
  p.m_CellBias = &w[10];
  p.m_OutputGateBias = &w[11];
  p.m_CellToInputWeights = &w[12];
  p.m_CellToForgetWeights = &w[13];
  p.m_CellToOutputWeights = &w[14];
  p.m_InputLayerNormWeights = &w[15];
  p.m_ForgetLayerNormWeights = &w[16];
  p.m_CellLayerNormWeights = &w[17];
  p.m_OutputLayerNormWeights = &w[18];
  p.m_ProjectionWeights = &pw;
  p.m_ProjectionBias = &pb;
  auto s8 = [](std::vector<unsigned> s) { return tinfo(s, DataType::QAsymmS8, 0.0078125f, 0); };
  auto c16 = tinfo({batch, units}, DataType::QSymmS16, 3.05176e-05f, 0);
  auto& x = b.input("input", s8({batch, in}), -128, 127);
  auto& h = b.input("output_state_in", s8({batch, outsz}), -128, 127);
  auto& c = b.input("cell_state_in", c16, -20000, 20000);
  auto* l = b.add("QLstm", b.net().AddQLstmLayer(d, p, "qlstm"), {&x, &h, &c}, {s8({batch, outsz}), c16, s8({batch, outsz})});
  b.output("output_state_out", l->GetOutputSlot(0));
  b.output("cell_state_out", l->GetOutputSlot(1));
  b.output("output", l->GetOutputSlot(2));
}

struct DppVariant {
  unsigned anchors, classes, max_detections, max_classes_per_detection, detections_per_class;
  bool regular;
  float score_threshold, iou_threshold;
  DataType type;
};

void dpp(Builder& b, const DppVariant& v) {
  armnn::DetectionPostProcessDescriptor d;
  d.m_MaxDetections = v.max_detections;
  d.m_MaxClassesPerDetection = v.max_classes_per_detection;
  d.m_DetectionsPerClass = v.detections_per_class;
  d.m_NmsScoreThreshold = v.score_threshold;
  d.m_NmsIouThreshold = v.iou_threshold;
  d.m_NumClasses = v.classes;
  d.m_UseRegularNms = v.regular;
  d.m_ScaleY = 8.0f;
  d.m_ScaleX = 12.0f;
  d.m_ScaleH = 4.0f;
  d.m_ScaleW = 6.0f;
  // Overlapping anchors [ycenter, xcenter, h, w] on a grid with half-cell steps.
  std::vector<double> a;
  for (unsigned i = 0; i < v.anchors; ++i) a.insert(a.end(), {0.2 + 0.15 * (i / 2), 0.3 + 0.2 * (i % 2), 0.4, 0.5});
  auto anchor_t = b.constant_of(tinfo({v.anchors, 4}), a);
  const bool q = v.type != DataType::Float32;
  auto& boxes = q ? b.input("box_encodings", tinfo({1, v.anchors, 4}, v.type, 0.01f, 128), 0, 255)
                  : b.input("box_encodings", tinfo({1, v.anchors, 4}), -1, 1);
  auto& scores = q ? b.input("scores", tinfo({1, v.anchors, v.classes + 1}, v.type, 1.0f / 256, 0), 0, 255)
                   : b.input("scores", tinfo({1, v.anchors, v.classes + 1}), 0, 1);
  // Arm NN 20.08 infers maxDetections * maxClassesPerDetection rows for fast NMS.
  const unsigned m = v.max_detections * (v.regular ? 1 : v.max_classes_per_detection);
  auto* l = b.add("DetectionPostProcess", b.net().AddDetectionPostProcessLayer(d, anchor_t, "dpp"), {&boxes, &scores},
                  {tinfo({1, m, 4}), tinfo({1, m}), tinfo({1, m}), tinfo({1})});
  b.output("detection_boxes", l->GetOutputSlot(0));
  b.output("detection_classes", l->GetOutputSlot(1));
  b.output("detection_scores", l->GetOutputSlot(2));
  b.output("num_detections", l->GetOutputSlot(3));
}

}  // namespace

void add_recurrent_variant_cases(std::vector<CaseDef>& out) {
  out.push_back({"lstm_peephole_projection_layer_norm", [](Builder& b) {
                   lstm(b, {2, 3, 4, 3, false, true, true, true, 4, 0.5f, 0.2f});
                 }});
  out.push_back({"lstm_peephole_relu6", [](Builder& b) { lstm(b, {2, 3, 4, 4, false, true, false, false, 3, 0, 0}); }});
  out.push_back({"lstm_cifg_layer_norm_no_activation", [](Builder& b) {
                   lstm(b, {2, 2, 3, 3, true, true, false, true, 0, 0, 0});
                 }});
  out.push_back({"qlstm_peephole_projection_layer_norm", qlstm_full});
  out.push_back({"detection_post_process_regular_nms", [](Builder& b) {
                   dpp(b, {8, 3, 6, 1, 2, true, 0.75f, 0.4f, DataType::Float32});
                 }});
  out.push_back({"detection_post_process_fast_nms_two_classes", [](Builder& b) {
                   dpp(b, {8, 3, 4, 2, 1, false, 0.2f, 0.5f, DataType::Float32});
                 }});
  out.push_back({"detection_post_process_qasymmu8", [](Builder& b) {
                   dpp(b, {6, 2, 3, 1, 1, false, 0.1f, 0.5f, DataType::QAsymmU8});
                 }});
}

}  // namespace peer
