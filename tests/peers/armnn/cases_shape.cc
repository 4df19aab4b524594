// Data-movement families: Reshape, Permute, Transpose, Concat, Splitter, Stack, Slice,
// StridedSlice, Pad, Mean, Resize, Space/Batch/Depth rearrangements, Gather, ArgMinMax,
// Constant, Fill, Rank.
#include "harness.h"

namespace peer {

using armnn::DataLayout;
using armnn::DataType;

void add_shape_cases(std::vector<CaseDef>& out) {
  out.push_back({"reshape", [](Builder& b) {
                   armnn::ReshapeDescriptor d(armnn::TensorShape({3, 8}));
                   auto& x = b.input("x", tinfo({2, 3, 4}));
                   b.output("y", b.op("Reshape", b.net().AddReshapeLayer(d, "reshape"), {&x}, tinfo({3, 8})));
                 }});
  out.push_back({"reshape_qasymmu8", [](Builder& b) {
                   armnn::ReshapeDescriptor d(armnn::TensorShape({1, 12}));
                   auto& x = b.input("x", tinfo({1, 3, 2, 2}, DataType::QAsymmU8, 0.5f, 3), 0, 255);
                   b.output("y", b.op("Reshape", b.net().AddReshapeLayer(d, "reshape"), {&x}, tinfo({1, 12}, DataType::QAsymmU8, 0.5f, 3)));
                 }});
  // Permute and Transpose read the same vector oppositely: Permute sends input dim i to output dim
  // p[i]; Transpose takes output dim i from input dim p[i].
  out.push_back({"permute_0231", [](Builder& b) {
                   armnn::PermuteDescriptor d(armnn::PermutationVector({0, 2, 3, 1}));
                   auto& x = b.input("x", tinfo({1, 2, 3, 4}));
                   b.output("y", b.op("Permute", b.net().AddPermuteLayer(d, "permute"), {&x}, tinfo({1, 4, 2, 3})));
                 }});
  out.push_back({"transpose_0231", [](Builder& b) {
                   armnn::TransposeDescriptor d(armnn::PermutationVector({0, 2, 3, 1}));
                   auto& x = b.input("x", tinfo({1, 2, 3, 4}));
                   b.output("y", b.op("Transpose", b.net().AddTransposeLayer(d, "transpose"), {&x}, tinfo({1, 3, 4, 2})));
                 }});
  for (unsigned axis : {0u, 1u, 2u})
    out.push_back({"concat_axis" + std::to_string(axis), [axis](Builder& b) {
                     std::vector<armnn::TensorShape> shapes = {armnn::TensorShape({2, 3, 2}), armnn::TensorShape({2, 3, 2}), armnn::TensorShape({2, 3, 2})};
                     auto d = armnn::CreateDescriptorForConcatenation(shapes.begin(), shapes.end(), axis);
                     auto& a = b.input("a", tinfo({2, 3, 2}));
                     auto& c = b.input("b", tinfo({2, 3, 2}));
                     auto& e = b.input("c", tinfo({2, 3, 2}));
                     std::vector<unsigned> os = {2, 3, 2};
                     os[axis] *= 3;
                     b.output("y", b.op("Concat", b.net().AddConcatLayer(d, "concat"), {&a, &c, &e}, tinfo(os)));
                   }});
  out.push_back({"splitter_two_outputs", [](Builder& b) {
                   armnn::ViewsDescriptor d(2, 2);
                   for (unsigned v = 0; v < 2; ++v) {
                     d.SetViewOriginCoord(v, 0, 0);
                     d.SetViewOriginCoord(v, 1, v * 3);
                     d.SetViewSize(v, 0, 2);
                     d.SetViewSize(v, 1, 3);
                   }
                   auto& x = b.input("x", tinfo({2, 6}));
                   auto* l = b.add("Splitter", b.net().AddSplitterLayer(d, "split"), {&x}, {tinfo({2, 3}), tinfo({2, 3})});
                   b.output("left", l->GetOutputSlot(0));
                   b.output("right", l->GetOutputSlot(1));
                 }});
  out.push_back({"splitter_then_add", [](Builder& b) {
                   armnn::ViewsDescriptor d(2, 3);
                   for (unsigned v = 0; v < 2; ++v) {
                     d.SetViewOriginCoord(v, 2, v * 2);
                     d.SetViewSize(v, 0, 1);
                     d.SetViewSize(v, 1, 3);
                     d.SetViewSize(v, 2, 2);
                   }
                   auto& x = b.input("x", tinfo({1, 3, 4}));
                   auto* l = b.add("Splitter", b.net().AddSplitterLayer(d, "split"), {&x}, {tinfo({1, 3, 2}), tinfo({1, 3, 2})});
                   b.output("y", b.op("Addition", b.net().AddAdditionLayer("add"), {&l->GetOutputSlot(0), &l->GetOutputSlot(1)}, tinfo({1, 3, 2})));
                 }});
  out.push_back({"stack_axis1", [](Builder& b) {
                   armnn::StackDescriptor d(1, 2, armnn::TensorShape({2, 3}));
                   auto& a = b.input("a", tinfo({2, 3}));
                   auto& c = b.input("b", tinfo({2, 3}));
                   b.output("y", b.op("Stack", b.net().AddStackLayer(d, "stack"), {&a, &c}, tinfo({2, 2, 3})));
                 }});
  out.push_back({"slice", [](Builder& b) {
                   armnn::SliceDescriptor d({0, 1, 1}, {2, 2, 3});
                   auto& x = b.input("x", tinfo({3, 4, 5}));
                   b.output("y", b.op("Slice", b.net().AddSliceLayer(d, "slice"), {&x}, tinfo({2, 2, 3})));
                 }});
  out.push_back({"strided_slice", [](Builder& b) {
                   armnn::StridedSliceDescriptor d({0, 1, 0}, {2, 4, 6}, {1, 2, 2});
                   auto& x = b.input("x", tinfo({3, 4, 6}));
                   b.output("y", b.op("StridedSlice", b.net().AddStridedSliceLayer(d, "sslice"), {&x}, tinfo({2, 2, 3})));
                 }});
  out.push_back({"strided_slice_masks", [](Builder& b) {
                   armnn::StridedSliceDescriptor d({1, 0, 2}, {0, 3, 5}, {1, 1, -1});
                   d.m_BeginMask = 0b010;   // dim 1 starts at 0 regardless of begin
                   d.m_EndMask = 0b001;     // dim 0 runs to the end
                   d.m_ShrinkAxisMask = 0;  // keep every dim
                   d.m_Begin = {1, 0, 4};
                   d.m_End = {0, 3, 1};
                   auto& x = b.input("x", tinfo({3, 4, 6}));
                   b.output("y", b.op("StridedSlice", b.net().AddStridedSliceLayer(d, "sslice"), {&x}, tinfo({2, 3, 3})));
                 }});
  out.push_back({"strided_slice_shrink", [](Builder& b) {
                   armnn::StridedSliceDescriptor d({1, 0}, {2, 4}, {1, 1});
                   d.m_ShrinkAxisMask = 0b01;
                   auto& x = b.input("x", tinfo({3, 4}));
                   b.output("y", b.op("StridedSlice", b.net().AddStridedSliceLayer(d, "sslice"), {&x}, tinfo({4})));
                 }});
  out.push_back({"pad", [](Builder& b) {
                   armnn::PadDescriptor d({{0, 0}, {1, 2}, {2, 1}}, 0.5f);
                   auto& x = b.input("x", tinfo({1, 2, 3}));
                   b.output("y", b.op("Pad", b.net().AddPadLayer(d, "pad"), {&x}, tinfo({1, 5, 6})));
                 }});
  out.push_back({"pad_qasymmu8", [](Builder& b) {
                   armnn::PadDescriptor d({{1, 1}, {0, 2}}, 0.0f);
                   auto& x = b.input("x", tinfo({2, 3}, DataType::QAsymmU8, 0.1f, 7), 0, 255);
                   b.output("y", b.op("Pad", b.net().AddPadLayer(d, "pad"), {&x}, tinfo({4, 5}, DataType::QAsymmU8, 0.1f, 7)));
                 }});
  out.push_back({"mean_keepdims", [](Builder& b) {
                   armnn::MeanDescriptor d({1, 2}, true);
                   auto& x = b.input("x", tinfo({1, 3, 4, 2}));
                   b.output("y", b.op("Mean", b.net().AddMeanLayer(d, "mean"), {&x}, tinfo({1, 1, 1, 2})));
                 }});
  out.push_back({"mean_reduce_axis", [](Builder& b) {
                   armnn::MeanDescriptor d({0}, false);
                   auto& x = b.input("x", tinfo({3, 5}));
                   b.output("y", b.op("Mean", b.net().AddMeanLayer(d, "mean"), {&x}, tinfo({5})));
                 }});
  const std::pair<const char*, armnn::ResizeMethod> methods[] = {{"bilinear", armnn::ResizeMethod::Bilinear},
                                                                 {"nearest", armnn::ResizeMethod::NearestNeighbor}};
  for (const auto& [name, method] : methods)
    for (bool align : {false, true})
      out.push_back({std::string("resize_") + name + (align ? "_align_corners" : ""), [method = method, align](Builder& b) {
                       armnn::ResizeDescriptor d;
                       d.m_Method = method;
                       d.m_TargetHeight = 5;
                       d.m_TargetWidth = 6;
                       d.m_DataLayout = DataLayout::NHWC;
                       d.m_AlignCorners = align;
                       auto& x = b.input("x", tinfo({1, 3, 4, 2}));
                       b.output("y", b.op("Resize", b.net().AddResizeLayer(d, "resize"), {&x}, tinfo({1, 5, 6, 2})));
                     }});
  out.push_back({"resize_bilinear_half_pixel_nchw", [](Builder& b) {
                   armnn::ResizeDescriptor d;
                   d.m_Method = armnn::ResizeMethod::Bilinear;
                   d.m_TargetHeight = 4;
                   d.m_TargetWidth = 4;
                   d.m_DataLayout = DataLayout::NCHW;
                   d.m_HalfPixelCenters = true;
                   auto& x = b.input("x", tinfo({1, 2, 2, 2}));
                   b.output("y", b.op("Resize", b.net().AddResizeLayer(d, "resize"), {&x}, tinfo({1, 2, 4, 4})));
                 }});
  out.push_back({"space_to_batch_nd", [](Builder& b) {
                   armnn::SpaceToBatchNdDescriptor d({2, 2}, {{0, 0}, {1, 1}});
                   d.m_DataLayout = DataLayout::NHWC;
                   auto& x = b.input("x", tinfo({1, 4, 2, 1}));
                   b.output("y", b.op("SpaceToBatchNd", b.net().AddSpaceToBatchNdLayer(d, "s2b"), {&x}, tinfo({4, 2, 2, 1})));
                 }});
  out.push_back({"batch_to_space_nd", [](Builder& b) {
                   armnn::BatchToSpaceNdDescriptor d({2, 2}, {{0, 0}, {0, 1}});
                   d.m_DataLayout = DataLayout::NHWC;
                   auto& x = b.input("x", tinfo({4, 2, 2, 1}));
                   b.output("y", b.op("BatchToSpaceNd", b.net().AddBatchToSpaceNdLayer(d, "b2s"), {&x}, tinfo({1, 4, 3, 1})));
                 }});
  out.push_back({"space_to_depth_nhwc", [](Builder& b) {
                   armnn::SpaceToDepthDescriptor d(2, DataLayout::NHWC);
                   auto& x = b.input("x", tinfo({1, 4, 4, 2}));
                   b.output("y", b.op("SpaceToDepth", b.net().AddSpaceToDepthLayer(d, "s2d"), {&x}, tinfo({1, 2, 2, 8})));
                 }});
  out.push_back({"depth_to_space_nchw", [](Builder& b) {
                   armnn::DepthToSpaceDescriptor d(2, DataLayout::NCHW);
                   auto& x = b.input("x", tinfo({1, 8, 2, 3}));
                   b.output("y", b.op("DepthToSpace", b.net().AddDepthToSpaceLayer(d, "d2s"), {&x}, tinfo({1, 2, 4, 6})));
                 }});
  out.push_back({"gather_axis0", [](Builder& b) {
                   auto& params = b.input("params", tinfo({5, 3}));
                   auto& idx = b.input("indices", tinfo({2, 2}, DataType::Signed32), 0, 4);
                   b.output("y", b.op("Gather", b.net().AddGatherLayer(armnn::GatherDescriptor(0), "gather"), {&params, &idx}, tinfo({2, 2, 3})));
                 }});
  out.push_back({"gather_constant_indices", [](Builder& b) {
                   auto& params = b.input("params", tinfo({4, 3}));
                   auto idx = b.net().AddConstantLayer(b.constant_of(tinfo({3}, DataType::Signed32), {3, 0, 2}), "indices");
                   auto& is = b.op("Constant", idx, {}, tinfo({3}, DataType::Signed32));
                   b.output("y", b.op("Gather", b.net().AddGatherLayer(armnn::GatherDescriptor(0), "gather"), {&params, &is}, tinfo({3, 3})));
                 }});
  out.push_back({"gather_axis1_constant_indices", [](Builder& b) {
                   auto& params = b.input("params", tinfo({2, 6}));
                   auto idx = b.net().AddConstantLayer(b.constant_of(tinfo({3}, DataType::Signed32), {5, 0, 2}), "indices");
                   auto& is = b.op("Constant", idx, {}, tinfo({3}, DataType::Signed32));
                   b.output("y", b.op("Gather", b.net().AddGatherLayer(armnn::GatherDescriptor(1), "gather"), {&params, &is}, tinfo({2, 3})));
                 }});
  for (auto f : {armnn::ArgMinMaxFunction::Max, armnn::ArgMinMaxFunction::Min})
    out.push_back({f == armnn::ArgMinMaxFunction::Max ? "argmax_axis1" : "argmin_axis_last", [f](Builder& b) {
                     armnn::ArgMinMaxDescriptor d;
                     d.m_Function = f;
                     d.m_Axis = f == armnn::ArgMinMaxFunction::Max ? 1 : -1;
                     auto& x = b.input("x", tinfo({2, 5, 3}));
                     b.output("y", b.op("ArgMinMax", b.net().AddArgMinMaxLayer(d, "argminmax"), {&x},
                                        f == armnn::ArgMinMaxFunction::Max ? tinfo({2, 3}, DataType::Signed32) : tinfo({2, 5}, DataType::Signed32)));
                   }});
  out.push_back({"constant_add", [](Builder& b) {
                   auto& x = b.input("x", tinfo({2, 3}));
                   auto& c = b.op("Constant", b.net().AddConstantLayer(b.constant(tinfo({2, 3})), "bias"), {}, tinfo({2, 3}));
                   b.output("y", b.op("Addition", b.net().AddAdditionLayer("add"), {&x, &c}, tinfo({2, 3})));
                 }});
  out.push_back({"constant_qasymmu8_mul", [](Builder& b) {
                   auto t = tinfo({4}, DataType::QAsymmU8, 0.1f, 0);
                   auto& x = b.input("x", t, 0, 255);
                   auto& c = b.op("Constant", b.net().AddConstantLayer(b.constant(t, 0, 40), "scale"), {}, t);
                   b.output("y", b.op("Multiplication", b.net().AddMultiplicationLayer("mul"), {&x, &c}, tinfo({4}, DataType::QAsymmU8, 0.5f, 0)));
                 }});
  out.push_back({"fill", [](Builder& b) {
                   auto& x = b.input("x", tinfo({2, 3, 2}));
                   auto& shape = b.op("Constant", b.net().AddConstantLayer(b.constant_of(tinfo({3}, DataType::Signed32), {2, 3, 2}), "dims"), {}, tinfo({3}, DataType::Signed32));
                   auto& filled = b.op("Fill", b.net().AddFillLayer(armnn::FillDescriptor(1.5f), "fill"), {&shape}, tinfo({2, 3, 2}));
                   b.output("y", b.op("Addition", b.net().AddAdditionLayer("add"), {&x, &filled}, tinfo({2, 3, 2})));
                 },
                 "Arm NN 20.08's deserializer ignores FillDescriptor.value (model.armnn holds 1.5, verified with flatc; "
                 "the deserialized network fills with 1.0); the expected outputs are those of the network that was "
                 "serialized, i.e. of the value in the file"});
  out.push_back({"rank", [](Builder& b) {
                   auto& x = b.input("x", tinfo({2, 3, 4}));
                   // Arm NN 20.08 infers a scalar (Dimensionality::Scalar) output for Rank.
                   b.output("y", b.op("Rank", b.net().AddRankLayer("rank"), {&x},
                                      armnn::TensorInfo(armnn::TensorShape(armnn::Dimensionality::Scalar), DataType::Signed32)));
                 }});
}

}  // namespace peer
