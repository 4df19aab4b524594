// Convolution-like families: Convolution2d, DepthwiseConvolution2d, TransposeConvolution2d,
// FullyConnected, Pooling2d (float and quantized, both layouts).
#include "harness.h"

namespace peer {

using armnn::DataLayout;
using armnn::DataType;

namespace {

// A 4-D shape in `layout` from (N, C, H, W).
std::vector<unsigned> nchw_or_nhwc(DataLayout layout, unsigned n, unsigned c, unsigned h, unsigned w) {
  return layout == DataLayout::NCHW ? std::vector<unsigned>{n, c, h, w} : std::vector<unsigned>{n, h, w, c};
}

void conv(Builder& b, DataLayout layout, unsigned stride, unsigned pad, unsigned dilation, bool bias) {
  armnn::Convolution2dDescriptor d;
  d.m_PadLeft = d.m_PadRight = d.m_PadTop = d.m_PadBottom = pad;
  d.m_StrideX = d.m_StrideY = stride;
  d.m_DilationX = d.m_DilationY = dilation;
  d.m_BiasEnabled = bias;
  d.m_DataLayout = layout;
  const unsigned in = 6, k = 3, ek = (k - 1) * dilation + 1, o = (in + 2 * pad - ek) / stride + 1;
  // Arm NN 20.08: weights are [O, H, W, I] for NHWC and [O, I, H, W] for NCHW.
  auto w = b.constant(tinfo(nchw_or_nhwc(layout, 3, 2, k, k)));
  auto& x = b.input("x", tinfo(nchw_or_nhwc(layout, 1, 2, in, in)));
  armnn::IConnectableLayer* l = bias ? b.net().AddConvolution2dLayer(d, w, armnn::Optional<armnn::ConstTensor>(b.constant(tinfo({3}))), "conv")
                                     : b.net().AddConvolution2dLayer(d, w, armnn::EmptyOptional(), "conv");
  b.output("y", b.op("Convolution2d", l, {&x}, tinfo(nchw_or_nhwc(layout, 1, 3, o, o))));
}

void depthwise(Builder& b, DataLayout layout, unsigned multiplier, unsigned stride, unsigned pad) {
  armnn::DepthwiseConvolution2dDescriptor d;
  d.m_PadLeft = d.m_PadRight = d.m_PadTop = d.m_PadBottom = pad;
  d.m_StrideX = d.m_StrideY = stride;
  d.m_BiasEnabled = true;
  d.m_DataLayout = layout;
  const unsigned c = 3, in = 5, k = 3, o = (in + 2 * pad - k) / stride + 1;
  // Arm NN 20.08 depthwise weights: [M, I, H, W] in both layouts.
  auto w = b.constant(tinfo({multiplier, c, k, k}));
  auto bias = b.constant(tinfo({c * multiplier}));
  auto& x = b.input("x", tinfo(nchw_or_nhwc(layout, 1, c, in, in)));
  b.output("y", b.op("DepthwiseConvolution2d", b.net().AddDepthwiseConvolution2dLayer(d, w, armnn::Optional<armnn::ConstTensor>(bias), "dwconv"),
                     {&x}, tinfo(nchw_or_nhwc(layout, 1, c * multiplier, o, o))));
}

void pool(Builder& b, armnn::PoolingAlgorithm alg, DataLayout layout, unsigned k, unsigned stride, unsigned pad,
          armnn::PaddingMethod method, armnn::OutputShapeRounding rounding, DataType t = DataType::Float32) {
  armnn::Pooling2dDescriptor d;
  d.m_PoolType = alg;
  d.m_PoolWidth = d.m_PoolHeight = k;
  d.m_StrideX = d.m_StrideY = stride;
  d.m_PadLeft = d.m_PadRight = d.m_PadTop = d.m_PadBottom = pad;
  d.m_PaddingMethod = method;
  d.m_OutputShapeRounding = rounding;
  d.m_DataLayout = layout;
  const unsigned in = 7, span = in + 2 * pad - k;
  const unsigned o = (rounding == armnn::OutputShapeRounding::Ceiling ? (span + stride - 1) / stride : span / stride) + 1;
  const bool q = t != DataType::Float32;
  auto& x = b.input("x", tinfo(nchw_or_nhwc(layout, 1, 2, in, in), t, q ? 0.1f : 0, q ? 5 : 0), q ? (t == DataType::QAsymmS8 ? -128 : 0) : -2, q ? (t == DataType::QAsymmS8 ? 127 : 255) : 2);
  b.output("y", b.op("Pooling2d", b.net().AddPooling2dLayer(d, "pool"), {&x}, tinfo(nchw_or_nhwc(layout, 1, 2, o, o), t, q ? 0.1f : 0, q ? 5 : 0)));
}

}  // namespace

void add_conv_cases(std::vector<CaseDef>& out) {
  out.push_back({"conv2d_nhwc_same", [](Builder& b) { conv(b, DataLayout::NHWC, 1, 1, 1, true); }});
  out.push_back({"conv2d_nchw_stride2", [](Builder& b) { conv(b, DataLayout::NCHW, 2, 0, 1, true); }});
  out.push_back({"conv2d_nhwc_dilated_nobias", [](Builder& b) { conv(b, DataLayout::NHWC, 1, 0, 2, false); }});
  out.push_back({"conv2d_qasymmu8", [](Builder& b) {
                   armnn::Convolution2dDescriptor d;
                   d.m_StrideX = d.m_StrideY = 1;
                   d.m_BiasEnabled = true;
                   d.m_DataLayout = DataLayout::NHWC;
                   auto w = b.constant(tinfo({2, 3, 3, 2}, DataType::QAsymmU8, 0.02f, 128), 0, 255);
                   auto bias = b.constant(tinfo({2}, DataType::Signed32, 0.1f * 0.02f, 0), -200, 200);
                   auto& x = b.input("x", tinfo({1, 5, 5, 2}, DataType::QAsymmU8, 0.1f, 100), 0, 255);
                   b.output("y", b.op("Convolution2d", b.net().AddConvolution2dLayer(d, w, armnn::Optional<armnn::ConstTensor>(bias), "qconv"),
                                      {&x}, tinfo({1, 3, 3, 2}, DataType::QAsymmU8, 0.2f, 120)));
                 }});
  out.push_back({"conv2d_per_axis_qsymms8", [](Builder& b) {
                   armnn::Convolution2dDescriptor d;
                   d.m_StrideX = d.m_StrideY = 1;
                   d.m_BiasEnabled = true;
                   d.m_DataLayout = DataLayout::NHWC;
                   armnn::TensorInfo wi = tinfo({3, 2, 2, 2}, DataType::QSymmS8);
                   wi.SetQuantizationScales({0.01f, 0.02f, 0.03f});
                   wi.SetQuantizationDim(armnn::Optional<unsigned>(0));
                   armnn::TensorInfo bi = tinfo({3}, DataType::Signed32);
                   bi.SetQuantizationScales({0.001f, 0.002f, 0.003f});
                   bi.SetQuantizationDim(armnn::Optional<unsigned>(0));
                   auto w = b.constant(wi, -127, 127);
                   auto bias = b.constant(bi, -100, 100);
                   auto& x = b.input("x", tinfo({1, 4, 4, 2}, DataType::QAsymmS8, 0.1f, 0), -128, 127);
                   b.output("y", b.op("Convolution2d", b.net().AddConvolution2dLayer(d, w, armnn::Optional<armnn::ConstTensor>(bias), "qconv"),
                                      {&x}, tinfo({1, 3, 3, 3}, DataType::QAsymmS8, 0.25f, -3)));
                 }});
  out.push_back({"depthwise_nhwc_m1", [](Builder& b) { depthwise(b, DataLayout::NHWC, 1, 1, 1); }});
  out.push_back({"depthwise_nchw_m2_stride2", [](Builder& b) { depthwise(b, DataLayout::NCHW, 2, 2, 0); }});
  out.push_back({"transpose_conv2d_nhwc", [](Builder& b) {
                   armnn::TransposeConvolution2dDescriptor d;
                   d.m_StrideX = d.m_StrideY = 2;
                   d.m_BiasEnabled = true;
                   d.m_DataLayout = DataLayout::NHWC;
                   auto w = b.constant(tinfo({2, 3, 3, 3}));  // [O, H, W, I]
                   auto bias = b.constant(tinfo({2}));
                   auto& x = b.input("x", tinfo({1, 3, 3, 3}));
                   b.output("y", b.op("TransposeConvolution2d", b.net().AddTransposeConvolution2dLayer(d, w, armnn::Optional<armnn::ConstTensor>(bias), "deconv"),
                                      {&x}, tinfo({1, 7, 7, 2})));
                 }});
  out.push_back({"transpose_conv2d_nchw_pad", [](Builder& b) {
                   armnn::TransposeConvolution2dDescriptor d;
                   d.m_StrideX = d.m_StrideY = 1;
                   d.m_PadLeft = d.m_PadRight = d.m_PadTop = d.m_PadBottom = 1;
                   d.m_BiasEnabled = false;
                   d.m_DataLayout = DataLayout::NCHW;
                   auto w = b.constant(tinfo({1, 2, 3, 3}));  // [O, I, H, W]
                   auto& x = b.input("x", tinfo({1, 2, 4, 4}));
                   b.output("y", b.op("TransposeConvolution2d", b.net().AddTransposeConvolution2dLayer(d, w, armnn::EmptyOptional(), "deconv"),
                                      {&x}, tinfo({1, 1, 4, 4})));
                 }});
  for (bool transpose : {false, true})
    out.push_back({transpose ? "fully_connected_transposed" : "fully_connected", [transpose](Builder& b) {
                     armnn::FullyConnectedDescriptor d;
                     d.m_BiasEnabled = true;
                     d.m_TransposeWeightMatrix = transpose;
                     auto w = b.constant(transpose ? tinfo({4, 6}) : tinfo({6, 4}));
                     auto bias = b.constant(tinfo({4}));
                     auto& x = b.input("x", tinfo({2, 6}));
                     b.output("y", b.op("FullyConnected", b.net().AddFullyConnectedLayer(d, w, armnn::Optional<armnn::ConstTensor>(bias), "fc"), {&x}, tinfo({2, 4})));
                   }});
  out.push_back({"fully_connected_qasymmu8_4d_input", [](Builder& b) {
                   armnn::FullyConnectedDescriptor d;
                   d.m_BiasEnabled = true;
                   d.m_TransposeWeightMatrix = true;
                   auto w = b.constant(tinfo({3, 8}, DataType::QAsymmU8, 0.05f, 120), 0, 255);
                   auto bias = b.constant(tinfo({3}, DataType::Signed32, 0.1f * 0.05f, 0), -300, 300);
                   auto& x = b.input("x", tinfo({1, 2, 2, 2}, DataType::QAsymmU8, 0.1f, 128), 0, 255);
                   b.output("y", b.op("FullyConnected", b.net().AddFullyConnectedLayer(d, w, armnn::Optional<armnn::ConstTensor>(bias), "qfc"),
                                      {&x}, tinfo({1, 3}, DataType::QAsymmU8, 0.3f, 128)));
                 }});
  using PA = armnn::PoolingAlgorithm;
  using PM = armnn::PaddingMethod;
  using R = armnn::OutputShapeRounding;
  out.push_back({"maxpool_nhwc", [](Builder& b) { pool(b, PA::Max, DataLayout::NHWC, 2, 2, 0, PM::Exclude, R::Floor); }});
  out.push_back({"maxpool_nchw_ceil", [](Builder& b) { pool(b, PA::Max, DataLayout::NCHW, 3, 2, 0, PM::Exclude, R::Ceiling); }});
  out.push_back({"avgpool_nhwc_pad_ignore_value", [](Builder& b) { pool(b, PA::Average, DataLayout::NHWC, 3, 1, 1, PM::IgnoreValue, R::Floor); }});
  out.push_back({"avgpool_nchw_pad_exclude", [](Builder& b) { pool(b, PA::Average, DataLayout::NCHW, 3, 2, 1, PM::Exclude, R::Floor); }});
  out.push_back({"l2pool_nhwc", [](Builder& b) { pool(b, PA::L2, DataLayout::NHWC, 2, 1, 0, PM::Exclude, R::Floor); }});
  out.push_back({"maxpool_qasymmu8", [](Builder& b) { pool(b, PA::Max, DataLayout::NHWC, 2, 2, 0, PM::Exclude, R::Floor, DataType::QAsymmU8); }});
  out.push_back({"avgpool_qasymms8", [](Builder& b) { pool(b, PA::Average, DataLayout::NHWC, 2, 2, 0, PM::Exclude, R::Floor, DataType::QAsymmS8); }});
}

}  // namespace peer
