// Variants of the data-movement families beyond cases_shape.cc: the other data layout of
// SpaceToBatchNd, BatchToSpaceNd, SpaceToDepth, DepthToSpace and Resize, and quantized inputs
// whose output has another scale (Concat, Mean, Resize, SpaceToBatchNd, Softmax QAsymmS8).
#include "harness.h"

namespace peer {

using armnn::DataLayout;
using armnn::DataType;

void add_shape_variant_cases(std::vector<CaseDef>& out) {
  out.push_back({"space_to_batch_nd_nchw", [](Builder& b) {
                   armnn::SpaceToBatchNdDescriptor d({2, 2}, {{1, 1}, {0, 1}});
                   d.m_DataLayout = DataLayout::NCHW;
                   auto& x = b.input("x", tinfo({1, 2, 2, 3}));
                   b.output("y", b.op("SpaceToBatchNd", b.net().AddSpaceToBatchNdLayer(d, "s2b"), {&x}, tinfo({4, 2, 2, 2})));
                 }});
  out.push_back({"batch_to_space_nd_nchw", [](Builder& b) {
                   armnn::BatchToSpaceNdDescriptor d({2, 2}, {{1, 0}, {0, 1}});
                   d.m_DataLayout = DataLayout::NCHW;
                   auto& x = b.input("x", tinfo({4, 2, 2, 3}));
                   b.output("y", b.op("BatchToSpaceNd", b.net().AddBatchToSpaceNdLayer(d, "b2s"), {&x}, tinfo({1, 2, 3, 5})));
                 }});
  out.push_back({"space_to_depth_nchw", [](Builder& b) {
                   armnn::SpaceToDepthDescriptor d(2, DataLayout::NCHW);
                   auto& x = b.input("x", tinfo({1, 2, 4, 6}));
                   b.output("y", b.op("SpaceToDepth", b.net().AddSpaceToDepthLayer(d, "s2d"), {&x}, tinfo({1, 8, 2, 3})));
                 }});
  out.push_back({"depth_to_space_nhwc", [](Builder& b) {
                   armnn::DepthToSpaceDescriptor d(2, DataLayout::NHWC);
                   auto& x = b.input("x", tinfo({1, 2, 3, 8}));
                   b.output("y", b.op("DepthToSpace", b.net().AddDepthToSpaceLayer(d, "d2s"), {&x}, tinfo({1, 4, 6, 2})));
                 }});
  out.push_back({"space_to_batch_nd_qasymmu8", [](Builder& b) {
                   armnn::SpaceToBatchNdDescriptor d({2, 1}, {{0, 0}, {1, 0}});
                   d.m_DataLayout = DataLayout::NHWC;
                   const auto t = [](std::vector<unsigned> s) { return tinfo(std::move(s), DataType::QAsymmU8, 0.1f, 10); };
                   auto& x = b.input("x", t({1, 2, 3, 2}), 0, 255);
                   b.output("y", b.op("SpaceToBatchNd", b.net().AddSpaceToBatchNdLayer(d, "s2b"), {&x}, t({2, 1, 4, 2})));
                 }});
  out.push_back({"resize_nearest_nchw_qasymmu8", [](Builder& b) {
                   armnn::ResizeDescriptor d;
                   d.m_Method = armnn::ResizeMethod::NearestNeighbor;
                   d.m_TargetHeight = 5;
                   d.m_TargetWidth = 3;
                   d.m_DataLayout = DataLayout::NCHW;
                   auto& x = b.input("x", tinfo({1, 2, 3, 2}, DataType::QAsymmU8, 0.05f, 100), 0, 255);
                   b.output("y", b.op("Resize", b.net().AddResizeLayer(d, "resize"), {&x}, tinfo({1, 2, 5, 3}, DataType::QAsymmU8, 0.05f, 100)));
                 }});
  out.push_back({"resize_bilinear_nchw_qasymms8_rescale", [](Builder& b) {
                   armnn::ResizeDescriptor d;
                   d.m_Method = armnn::ResizeMethod::Bilinear;
                   d.m_TargetHeight = 3;
                   d.m_TargetWidth = 5;
                   d.m_DataLayout = DataLayout::NCHW;
                   auto& x = b.input("x", tinfo({1, 1, 2, 3}, DataType::QAsymmS8, 0.05f, 0), -128, 127);
                   b.output("y", b.op("Resize", b.net().AddResizeLayer(d, "resize"), {&x}, tinfo({1, 1, 3, 5}, DataType::QAsymmS8, 0.1f, 3)));
                 }});
  out.push_back({"concat_qasymmu8_rescale", [](Builder& b) {
                   std::vector<armnn::TensorShape> shapes = {armnn::TensorShape({2, 3}), armnn::TensorShape({2, 2})};
                   auto d = armnn::CreateDescriptorForConcatenation(shapes.begin(), shapes.end(), 1);
                   auto& a = b.input("a", tinfo({2, 3}, DataType::QAsymmU8, 0.1f, 20), 0, 255);
                   auto& c = b.input("b", tinfo({2, 2}, DataType::QAsymmU8, 0.25f, 130), 0, 255);
                   b.output("y", b.op("Concat", b.net().AddConcatLayer(d, "concat"), {&a, &c}, tinfo({2, 5}, DataType::QAsymmU8, 0.2f, 128)));
                 }});
  out.push_back({"mean_qasymmu8_rescale", [](Builder& b) {
                   armnn::MeanDescriptor d({1, 2}, false);
                   auto& x = b.input("x", tinfo({1, 3, 4, 2}, DataType::QAsymmU8, 0.1f, 128), 0, 255);
                   b.output("y", b.op("Mean", b.net().AddMeanLayer(d, "mean"), {&x}, tinfo({1, 2}, DataType::QAsymmU8, 0.05f, 120)));
                 }});
  out.push_back({"softmax_qasymms8_beta", [](Builder& b) {
                   armnn::SoftmaxDescriptor d;
                   d.m_Beta = 0.5f;
                   auto& x = b.input("x", tinfo({2, 6}, DataType::QAsymmS8, 0.1f, 0), -128, 127);
                   b.output("probs", b.op("Softmax", b.net().AddSoftmaxLayer(d, "softmax"), {&x}, tinfo({2, 6}, DataType::QAsymmS8, 1.0f / 256, -128)));
                 }});
}

}  // namespace peer
