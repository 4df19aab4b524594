// Convolution and pooling variants beyond cases_conv.cc: unequal x/y strides and dilations,
// asymmetric padding, ceiling rounding with both padding methods, both layouts for each family,
// and quantized QAsymmU8 / QAsymmS8 / per-axis QSymmS8 weights, float16.
#include "harness.h"

namespace peer {

using armnn::DataLayout;
using armnn::DataType;

namespace {

std::vector<unsigned> layout_shape(DataLayout layout, unsigned n, unsigned c, unsigned h, unsigned w) {
  return layout == DataLayout::NCHW ? std::vector<unsigned>{n, c, h, w} : std::vector<unsigned>{n, h, w, c};
}

struct Window {
  unsigned kh, kw, stride_y, stride_x, dil_y, dil_x, pad_t, pad_b, pad_l, pad_r;
  unsigned out(unsigned in, bool vertical) const {
    const unsigned k = vertical ? kh : kw, s = vertical ? stride_y : stride_x, d = vertical ? dil_y : dil_x;
    const unsigned p = vertical ? pad_t + pad_b : pad_l + pad_r;
    return (in + p - ((k - 1) * d + 1)) / s + 1;
  }
};

// A float or quantized tensor type; `q` holds scale and zero point of quantized types.
struct QType {
  DataType type = DataType::Float32;
  float scale = 0;
  int32_t zero = 0;
  armnn::TensorInfo info(std::vector<unsigned> shape) const { return tinfo(std::move(shape), type, scale, zero); }
  double lo() const { return type == DataType::Float32 || type == DataType::Float16 ? -2 : type == DataType::QAsymmU8 ? 0 : -128; }
  double hi() const { return type == DataType::Float32 || type == DataType::Float16 ? 2 : type == DataType::QAsymmU8 ? 255 : 127; }
};

// The Int32 bias of a quantized convolution: scale = input scale * weight scale, per output
// channel when the weights are quantized per axis (as Arm NN requires).
armnn::TensorInfo bias_info(unsigned channels, float x_scale, const armnn::TensorInfo& weights) {
  if (!weights.HasMultipleQuantizationScales()) return tinfo({channels}, DataType::Signed32, x_scale * weights.GetQuantizationScale(), 0);
  armnn::TensorInfo bi = tinfo({channels}, DataType::Signed32);
  std::vector<float> s;
  for (float ws : weights.GetQuantizationScales()) s.push_back(x_scale * ws);
  bi.SetQuantizationScales(s);
  bi.SetQuantizationDim(armnn::Optional<unsigned>(0));
  return bi;
}

// Convolution2d with `weights` ([O, I, H, W] for NCHW, [O, H, W, I] for NHWC; per-axis when they
// have several scales) and a bias (Int32 for quantized inputs).
void conv(Builder& b, DataLayout layout, const Window& w, unsigned h, unsigned wd, const QType& x, const QType& y,
          const armnn::TensorInfo& weights, double wlo, double whi) {
  armnn::Convolution2dDescriptor d;
  d.m_PadTop = w.pad_t;
  d.m_PadBottom = w.pad_b;
  d.m_PadLeft = w.pad_l;
  d.m_PadRight = w.pad_r;
  d.m_StrideX = w.stride_x;
  d.m_StrideY = w.stride_y;
  d.m_DilationX = w.dil_x;
  d.m_DilationY = w.dil_y;
  d.m_BiasEnabled = true;
  d.m_DataLayout = layout;
  const unsigned cout = weights.GetShape()[0];
  auto wt = b.constant(weights, wlo, whi);
  armnn::TensorInfo bi = tinfo({cout}, x.type == DataType::Float16 ? DataType::Float16 : DataType::Float32);
  double blo = -1, bhi = 1;
  if (x.type != DataType::Float32 && x.type != DataType::Float16) {
    bi = bias_info(cout, x.scale, weights);
    blo = -300, bhi = 300;
  }
  auto bias = b.constant(bi, blo, bhi);
  const unsigned cin = layout == DataLayout::NCHW ? weights.GetShape()[1] : weights.GetShape()[3];
  auto& in = b.input("x", x.info(layout_shape(layout, 1, cin, h, wd)), x.lo(), x.hi());
  b.output("y", b.op("Convolution2d", b.net().AddConvolution2dLayer(d, wt, armnn::Optional<armnn::ConstTensor>(bias), "conv"), {&in},
                     y.info(layout_shape(layout, 1, cout, w.out(h, true), w.out(wd, false)))));
}

void depthwise(Builder& b, DataLayout layout, const Window& w, unsigned c, unsigned mult, unsigned h, unsigned wd,
               const QType& x, const QType& y, const armnn::TensorInfo& weights, double wlo, double whi) {
  armnn::DepthwiseConvolution2dDescriptor d;
  d.m_PadTop = w.pad_t;
  d.m_PadBottom = w.pad_b;
  d.m_PadLeft = w.pad_l;
  d.m_PadRight = w.pad_r;
  d.m_StrideX = w.stride_x;
  d.m_StrideY = w.stride_y;
  d.m_DilationX = w.dil_x;
  d.m_DilationY = w.dil_y;
  d.m_BiasEnabled = true;
  d.m_DataLayout = layout;
  auto wt = b.constant(weights, wlo, whi);  // [M, I, H, W] in both layouts (Arm NN 20.08)
  const bool q = x.type != DataType::Float32;
  const armnn::TensorInfo bi = q ? bias_info(c * mult, x.scale, weights) : tinfo({c * mult});
  auto bias = b.constant(bi, q ? -300 : -1, q ? 300 : 1);
  auto& in = b.input("x", x.info(layout_shape(layout, 1, c, h, wd)), x.lo(), x.hi());
  b.output("y", b.op("DepthwiseConvolution2d",
                     b.net().AddDepthwiseConvolution2dLayer(d, wt, armnn::Optional<armnn::ConstTensor>(bias), "dwconv"), {&in},
                     y.info(layout_shape(layout, 1, c * mult, w.out(h, true), w.out(wd, false)))));
}

void pool(Builder& b, armnn::PoolingAlgorithm alg, DataLayout layout, const Window& w, unsigned h, unsigned wd,
          armnn::PaddingMethod method, armnn::OutputShapeRounding rounding, const QType& t) {
  armnn::Pooling2dDescriptor d;
  d.m_PoolType = alg;
  d.m_PoolHeight = w.kh;
  d.m_PoolWidth = w.kw;
  d.m_StrideX = w.stride_x;
  d.m_StrideY = w.stride_y;
  d.m_PadTop = w.pad_t;
  d.m_PadBottom = w.pad_b;
  d.m_PadLeft = w.pad_l;
  d.m_PadRight = w.pad_r;
  d.m_PaddingMethod = method;
  d.m_OutputShapeRounding = rounding;
  d.m_DataLayout = layout;
  // Arm NN 20.08 Pooling2dLayer::InferOutputShapes: a last window that would start in the
  // trailing padding is dropped.
  auto out = [&](unsigned in, unsigned k, unsigned s, unsigned lead, unsigned trail) {
    const unsigned span = in + lead + trail - k;
    unsigned n = (rounding == armnn::OutputShapeRounding::Ceiling ? (span + s - 1) / s : span / s) + 1;
    if ((n - 1) * s >= in + lead) --n;
    return n;
  };
  auto& x = b.input("x", t.info(layout_shape(layout, 1, 2, h, wd)), t.lo(), t.hi());
  b.output("y", b.op("Pooling2d", b.net().AddPooling2dLayer(d, "pool"), {&x},
                     t.info(layout_shape(layout, 1, 2, out(h, w.kh, w.stride_y, w.pad_t, w.pad_b), out(wd, w.kw, w.stride_x, w.pad_l, w.pad_r)))));
}

armnn::TensorInfo per_axis(std::vector<unsigned> shape, std::vector<float> scales, unsigned dim) {
  armnn::TensorInfo t = tinfo(std::move(shape), DataType::QSymmS8);
  t.SetQuantizationScales(scales);
  t.SetQuantizationDim(armnn::Optional<unsigned>(dim));
  return t;
}

}  // namespace

void add_conv_variant_cases(std::vector<CaseDef>& out) {
  const QType f32;
  // Window: kh, kw, stride y/x, dilation y/x, pads t/b/l/r.
  out.push_back({"conv2d_nchw_dilated_pad_asym_stride_xy", [f32](Builder& b) {
                   conv(b, DataLayout::NCHW, {3, 2, 1, 2, 2, 1, 2, 1, 1, 0}, 7, 8, f32, f32, tinfo({3, 2, 3, 2}), -1, 1);
                 }});
  out.push_back({"conv2d_nhwc_stride2_dilated_pad2", [f32](Builder& b) {
                   conv(b, DataLayout::NHWC, {3, 3, 2, 2, 2, 2, 2, 2, 2, 2}, 9, 9, f32, f32, tinfo({3, 3, 3, 2}), -1, 1);
                 }});
  out.push_back({"conv2d_nchw_qasymms8_stride2_pad1", [](Builder& b) {
                   conv(b, DataLayout::NCHW, {3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, 6, 6, {DataType::QAsymmS8, 0.05f, -10},
                        {DataType::QAsymmS8, 0.1f, 5}, tinfo({3, 2, 3, 3}, DataType::QSymmS8, 0.02f, 0), -127, 127);
                 }});
  out.push_back({"conv2d_nchw_per_axis_qasymmu8", [](Builder& b) {
                   conv(b, DataLayout::NCHW, {2, 2, 1, 1, 1, 1, 0, 1, 1, 0}, 5, 5, {DataType::QAsymmU8, 0.05f, 120},
                        {DataType::QAsymmU8, 0.2f, 100}, per_axis({3, 2, 2, 2}, {0.01f, 0.02f, 0.03f}, 0), -127, 127);
                 }});
  out.push_back({"conv2d_nhwc_float16", [](Builder& b) {
                   conv(b, DataLayout::NHWC, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 5, 5, {DataType::Float16}, {DataType::Float16},
                        tinfo({3, 3, 3, 2}, DataType::Float16), -1, 1);
                 }});
  out.push_back({"depthwise_nhwc_dilated_pad_asym", [f32](Builder& b) {
                   depthwise(b, DataLayout::NHWC, {3, 3, 1, 1, 2, 2, 1, 2, 2, 1}, 3, 1, 7, 7, f32, f32, tinfo({1, 3, 3, 3}), -1, 1);
                 }});
  out.push_back({"depthwise_nchw_stride_xy_m3", [f32](Builder& b) {
                   depthwise(b, DataLayout::NCHW, {2, 3, 2, 1, 1, 1, 0, 1, 1, 1}, 2, 3, 6, 5, f32, f32, tinfo({3, 2, 2, 3}), -1, 1);
                 }});
  out.push_back({"depthwise_nchw_qasymmu8_m2", [](Builder& b) {
                   depthwise(b, DataLayout::NCHW, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 2, 2, 5, 5, {DataType::QAsymmU8, 0.05f, 128},
                             {DataType::QAsymmU8, 0.1f, 128}, tinfo({2, 2, 3, 3}, DataType::QAsymmU8, 0.02f, 128), 0, 255);
                 }});
  out.push_back({"depthwise_nhwc_per_axis_qasymms8", [](Builder& b) {
                   // Arm NN 20.08 takes per-axis depthwise scales along dim 0 of [M, I, H, W] only.
                   depthwise(b, DataLayout::NHWC, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 1, 3, 4, 4, {DataType::QAsymmS8, 0.1f, 0},
                             {DataType::QAsymmS8, 0.2f, -2}, per_axis({3, 1, 3, 3}, {0.01f, 0.02f, 0.03f}, 0), -127, 127);
                 }});
  using PA = armnn::PoolingAlgorithm;
  using PM = armnn::PaddingMethod;
  using R = armnn::OutputShapeRounding;
  out.push_back({"maxpool_nchw_pad_asym_stride_xy", [f32](Builder& b) {
                   pool(b, PA::Max, DataLayout::NCHW, {3, 2, 2, 1, 1, 1, 1, 1, 1, 0}, 7, 6, PM::Exclude, R::Floor, f32);
                 }});
  out.push_back({"avgpool_nhwc_ceil_pad_exclude_asym", [f32](Builder& b) {
                   pool(b, PA::Average, DataLayout::NHWC, {3, 3, 2, 2, 1, 1, 1, 0, 0, 1}, 6, 7, PM::Exclude, R::Ceiling, f32);
                 }});
  out.push_back({"avgpool_nchw_ceil_pad_ignore_value", [f32](Builder& b) {
                   pool(b, PA::Average, DataLayout::NCHW, {3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, 6, 6, PM::IgnoreValue, R::Ceiling, f32);
                 }});
  out.push_back({"l2pool_nchw_stride2_pad1", [f32](Builder& b) {
                   pool(b, PA::L2, DataLayout::NCHW, {3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, 6, 6, PM::Exclude, R::Floor, f32);
                 }});
  out.push_back({"maxpool_nchw_qasymms8_pad", [](Builder& b) {
                   pool(b, PA::Max, DataLayout::NCHW, {3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, 5, 5, PM::Exclude, R::Floor, {DataType::QAsymmS8, 0.1f, 3});
                 }});
  out.push_back({"avgpool_nchw_qasymmu8_pad_ignore_value", [](Builder& b) {
                   pool(b, PA::Average, DataLayout::NCHW, {3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, 6, 6, PM::IgnoreValue, R::Floor, {DataType::QAsymmU8, 0.1f, 128});
                 }});
  out.push_back({"transpose_conv2d_nhwc_qasymmu8", [](Builder& b) {
                   armnn::TransposeConvolution2dDescriptor d;
                   d.m_StrideX = d.m_StrideY = 2;
                   d.m_PadLeft = d.m_PadTop = 1;
                   d.m_BiasEnabled = true;
                   d.m_DataLayout = DataLayout::NHWC;
                   auto w = b.constant(tinfo({2, 3, 3, 2}, DataType::QAsymmU8, 0.02f, 128), 0, 255);  // [O, H, W, I]
                   auto bias = b.constant(tinfo({2}, DataType::Signed32, 0.1f * 0.02f, 0), -200, 200);
                   auto& x = b.input("x", tinfo({1, 3, 3, 2}, DataType::QAsymmU8, 0.1f, 128), 0, 255);
                   // (3 - 1) * 2 + 3 - 1 (pads) = 6.
                   b.output("y", b.op("TransposeConvolution2d", b.net().AddTransposeConvolution2dLayer(d, w, armnn::Optional<armnn::ConstTensor>(bias), "deconv"),
                                      {&x}, tinfo({1, 6, 6, 2}, DataType::QAsymmU8, 0.2f, 128)));
                 }});
}

}  // namespace peer
