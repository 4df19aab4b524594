// Convolutions and pooling: output sizes per ONNX Conv-11 / ConvTranspose-11 / MaxPool-12.
#include <algorithm>

#include "ops/ops.h"

namespace nnbridge::ops {

namespace {

struct Window {
  std::vector<int64_t> kernel, strides, dilations, pads;  // pads: begins then ends (ONNX order)
  std::string auto_pad;
};

std::vector<int64_t> ints_or(const InferenceContext& ctx, const char* name, std::size_t n, int64_t fill) {
  if (!ctx.attr(name)) return std::vector<int64_t>(n, fill);
  const std::vector<int64_t>& v = ctx.attr_ints(name);
  expect_size(v, n, name);
  return v;
}

Window read_window(const InferenceContext& ctx, std::size_t ns, std::vector<int64_t> kernel) {
  Window w;
  if (ctx.attr("kernel_shape")) {
    w.kernel = ctx.attr_ints("kernel_shape");
    expect_size(w.kernel, ns, "kernel_shape");
    // ONNX Conv: kernel_shape, when given, is W's spatial shape.
    for (std::size_t i = 0; i < ns; ++i) {
      if (w.kernel[i] < 1) fail(ErrorId::AttributeValue, "kernel_shape must be >= 1");
      if (i < kernel.size() && kernel[i] >= 0 && kernel[i] != w.kernel[i])
        fail(ErrorId::Shape, "kernel_shape[" + std::to_string(i) + "] = " + std::to_string(w.kernel[i]) + " disagrees with W's spatial dim " +
             std::to_string(kernel[i]));
    }
  } else {
    w.kernel = std::move(kernel);
  }
  w.strides = ints_or(ctx, "strides", ns, 1);
  w.dilations = ints_or(ctx, "dilations", ns, 1);
  w.pads = ints_or(ctx, "pads", 2 * ns, 0);
  w.auto_pad = ctx.attr_string("auto_pad");
  for (int64_t s : w.strides)
    if (s < 1) fail(ErrorId::AttributeValue, "strides must be >= 1");
  for (int64_t d : w.dilations)
    if (d < 1) fail(ErrorId::AttributeValue, "dilations must be >= 1");
  for (int64_t p : w.pads)
    if (p < 0) fail(ErrorId::AttributeValue, "pads must be >= 0");
  if (w.auto_pad != "NOTSET" && w.auto_pad != "SAME_UPPER" && w.auto_pad != "SAME_LOWER" && w.auto_pad != "VALID")
    fail(ErrorId::AttributeValue, "auto_pad must be NOTSET, SAME_UPPER, SAME_LOWER or VALID, not \"" + w.auto_pad + "\"");
  return w;
}

// num >= 0, den >= 1; written without num + den - 1, which can overflow.
int64_t div_round(int64_t num, int64_t den, bool ceil) { return num / den + (ceil && num % den != 0 ? 1 : 0); }

// Output size of spatial dim i (ONNX Conv/MaxPool): floor_or_ceil((in + pb + pe - dil*(k-1) - 1) / stride) + 1.
// The ceil form follows the ONNX formula and Arm NN OutputShapeRounding::Ceiling (no PyTorch-style
// "last window must start inside the input" correction).
int64_t window_out(const Window& w, std::size_t i, int64_t in, bool ceil_mode) {
  std::size_t ns = w.kernel.size();
  int64_t k = w.kernel[i];
  if (in < 0 || k < 0) return -1;
  int64_t s = w.strides[i];
  int64_t eff = checked_add(checked_mul(w.dilations[i], k - 1), 1);
  if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") return div_round(in, s, true);
  int64_t padded = checked_add(in, w.auto_pad == "VALID" ? 0 : checked_add(w.pads[i], w.pads[i + ns]));
  if (padded < eff)
    fail("window " + std::to_string(eff) + " is larger than the padded input " + std::to_string(padded) + " in spatial dim " +
         std::to_string(i));
  return div_round(padded - eff, s, ceil_mode) + 1;
}

std::vector<AttrSpec> window_attrs(bool kernel_required) {
  std::vector<AttrSpec> a;
  if (kernel_required)
    a.push_back(required_attr("kernel_shape", AttrType::Ints, "window size per spatial dim"));
  else
    a.push_back(optional_attr("kernel_shape", AttrType::Ints, "kernel size per spatial dim; absent: from W"));
  a.push_back(optional_attr("strides", AttrType::Ints, "stride per spatial dim; absent: all 1"));
  a.push_back(optional_attr("pads", AttrType::Ints,
                            "[x1_begin, x2_begin, ..., x1_end, x2_end, ...] (ONNX order); absent: all 0"));
  a.push_back(optional_attr("dilations", AttrType::Ints, "dilation per spatial dim; absent: all 1"));
  a.push_back(optional_attr("auto_pad", AttrType::String, Attr("NOTSET"),
                            "NOTSET (use pads), SAME_UPPER, SAME_LOWER (output = ceil(in / stride)) or VALID (no padding)"));
  a.push_back(data_layout_attr());
  return a;
}

struct Shape4 {
  int64_t rank;
  std::size_t ns;
  bool nhwc;
};

// Kernel geometry from W by kernel_layout: out channels and spatial kernel dims.
struct KernelInfo {
  int64_t out_channels = -1;
  int64_t in_channels = -1;  // per group; -1 when the layout does not say
  std::vector<int64_t> kernel;
};

KernelInfo read_kernel(const InferenceContext& ctx, const TensorType& w, std::size_t ns, bool transpose, int64_t group) {
  KernelInfo k;
  k.kernel.assign(ns, -1);
  const std::string& layout = ctx.attr_string("kernel_layout");
  if (layout != "OIHW" && layout != "OHWI" && layout != "1HWO" && !(!transpose && (layout == "MIHW" || layout == "HWIO")) &&
      !(transpose && layout == "IOHW"))
    fail(ErrorId::AttributeValue, "kernel_layout \"" + layout + "\" is not supported here");
  if (w.unknown_rank) return k;
  if (w.shape.size() != ns + 2)
    fail("W has rank " + std::to_string(w.shape.size()) + ", expected " + std::to_string(ns + 2));
  const auto& d = w.shape;
  std::size_t r = d.size();
  if (layout == "OIHW") {
    k.out_channels = d[0], k.in_channels = d[1];
    for (std::size_t i = 0; i < ns; ++i) k.kernel[i] = d[2 + i];
  } else if (layout == "IOHW") {
    k.out_channels = mul_dims(d[1], group), k.in_channels = d[0];
    for (std::size_t i = 0; i < ns; ++i) k.kernel[i] = d[2 + i];
  } else if (layout == "OHWI") {
    k.out_channels = d[0], k.in_channels = d[r - 1];
    for (std::size_t i = 0; i < ns; ++i) k.kernel[i] = d[1 + i];
  } else if (layout == "HWIO") {  // [spatial..., I, O]: TensorFlow, Arm NN Convolution3d [D,H,W,I,O]
    k.out_channels = d[r - 1], k.in_channels = d[r - 2];
    for (std::size_t i = 0; i < ns; ++i) k.kernel[i] = d[i];
  } else if (layout == "MIHW") {  // depthwise [M, I, H, W], Arm NN before weightsLayoutScheme 1
    k.out_channels = mul_dims(d[0], d[1]);
    for (std::size_t i = 0; i < ns; ++i) k.kernel[i] = d[2 + i];
  } else {  // 1HWO: depthwise [1, H, W, I*M] (TFLite / Arm NN weightsLayoutScheme 1)
    k.out_channels = d[r - 1];
    for (std::size_t i = 0; i < ns; ++i) k.kernel[i] = d[1 + i];
  }
  return k;
}

std::vector<TensorType> infer_conv(const InferenceContext& ctx, bool transpose) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  if (x.shape.size() < 3) fail("X must have rank >= 3 (N, C and spatial dims)");
  const std::size_t ns = x.shape.size() - 2;
  const bool nhwc = is_nhwc(ctx);
  const int64_t group = ctx.attr_int("group");
  if (group < 1) fail(ErrorId::AttributeValue, "group must be >= 1");
  KernelInfo k = read_kernel(ctx, input(ctx, 1), ns, transpose, group);
  Window w = read_window(ctx, ns, k.kernel);

  const int64_t rank = static_cast<int64_t>(x.shape.size());
  const int64_t c_in = x.shape[channel_axis(nhwc, rank)];
  int64_t grouped = 0;  // W's input channels x group, which may overflow for a hostile group
  if (!transpose && c_in >= 0 && k.in_channels >= 0 &&
      (__builtin_mul_overflow(k.in_channels, group, &grouped) || grouped != c_in))
    fail("W has " + std::to_string(k.in_channels) + " input channels per group x group " + std::to_string(group) +
         ", but X has " + std::to_string(c_in) + " channels");

  TensorType out;
  out.dtype = x.dtype;
  out.shape.assign(x.shape.size(), -1);
  out.shape[0] = x.shape[0];
  out.shape[channel_axis(nhwc, rank)] = k.out_channels;
  std::vector<int64_t> output_shape;
  if (transpose && ctx.attr("output_shape")) {
    output_shape = ctx.attr_ints("output_shape");
    if (output_shape.size() == x.shape.size()) {  // a full shape: keep its spatial part
      std::vector<int64_t> sp;
      for (std::size_t i = 0; i < ns; ++i) sp.push_back(output_shape[spatial_axis(nhwc, i)]);
      output_shape = sp;
    }
    expect_size(output_shape, ns, "output_shape");
  }
  std::vector<int64_t> out_pad = transpose ? ints_or(ctx, "output_padding", ns, 0) : std::vector<int64_t>{};
  for (std::size_t i = 0; i < ns; ++i) {
    int64_t in = x.shape[spatial_axis(nhwc, i)];
    int64_t& o = out.shape[spatial_axis(nhwc, i)];
    if (!transpose) {
      o = window_out(w, i, in, false);
    } else if (!output_shape.empty()) {
      o = output_shape[i];
    } else if (in < 0 || w.kernel[i] < 0) {
      o = -1;
    } else if (w.auto_pad == "SAME_UPPER" || w.auto_pad == "SAME_LOWER") {
      o = checked_mul(in, w.strides[i]);  // ONNX ConvTranspose: output_shape = input_shape * strides
    } else {
      // ONNX ConvTranspose-11: stride*(in-1) + output_padding + ((k-1)*dilation + 1) - pad_begin - pad_end.
      int64_t pads = w.auto_pad == "VALID" ? 0 : checked_add(w.pads[i], w.pads[i + ns]);
      if (out_pad[i] < 0) fail(ErrorId::AttributeValue, "output_padding must be >= 0");
      o = checked_add(checked_add(checked_mul(w.strides[i], in - 1), out_pad[i]),
                      checked_add(checked_mul(w.kernel[i] - 1, w.dilations[i]), 1)) - pads;
      if (o < 1) fail("ConvTranspose output size " + std::to_string(o) + " in spatial dim " + std::to_string(i));
    }
  }
  return {out};
}

std::vector<TensorType> infer_pool(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  std::size_t n_out = std::max<std::size_t>(1, ctx.node.outputs.size());
  if (x.unknown_rank) return std::vector<TensorType>(n_out, unknown_rank(x.dtype));
  if (x.shape.size() < 3) fail("X must have rank >= 3 (N, C and spatial dims)");
  const std::size_t ns = x.shape.size() - 2;
  const bool nhwc = is_nhwc(ctx);
  Window w = read_window(ctx, ns, {});
  bool ceil_mode = ctx.attr_int("ceil_mode") != 0;
  TensorType out;
  out.dtype = x.dtype;
  out.shape = x.shape;
  for (std::size_t i = 0; i < ns; ++i)
    out.shape[spatial_axis(nhwc, i)] = window_out(w, i, x.shape[spatial_axis(nhwc, i)], ceil_mode);
  std::vector<TensorType> outs{out};
  if (n_out > 1) {  // MaxPool Indices
    out.dtype = DataType::Int64;
    outs.push_back(out);
  }
  return outs;
}

std::vector<TensorType> infer_global_pool(const InferenceContext& ctx) {
  const TensorType& x = input(ctx, 0);
  if (x.unknown_rank) return {unknown_rank(x.dtype)};
  if (x.shape.size() < 3) fail("X must have rank >= 3 (N, C and spatial dims)");
  const bool nhwc = is_nhwc(ctx);
  TensorType out{x.dtype, x.shape, false, std::nullopt};
  for (std::size_t i = 0; i + 2 < x.shape.size(); ++i) out.shape[spatial_axis(nhwc, i)] = 1;
  return {out};
}

// ConvInteger / QLinearConv: Conv's inference (OIHW weights, NCHW data) on X (input 0) and W
// (input w), with the output dtype `dt` (Undefined: that of input `dt_input`).
std::vector<TensorType> infer_integer_conv(const InferenceContext& ctx, std::size_t w, DataType dt, std::size_t dt_input) {
  const OpSchema* conv = find_schema("Conv");
  const std::vector<TensorType> xw{input(ctx, 0), input(ctx, w)};
  const std::vector<const Buffer*> none(2, nullptr);
  InferenceContext sub{ctx.node, xw, none, conv};
  std::vector<TensorType> out = infer_conv(sub, false);
  out[0].dtype = dt != DataType::Undefined ? dt : (dt_input < ctx.input_types.size() ? ctx.input_types[dt_input].dtype : DataType::Undefined);
  return out;
}

}  // namespace

void add_conv_pool_ops(std::vector<OpSchema>& out) {
  auto conv_attrs = [](bool transpose) {
    std::vector<AttrSpec> a = window_attrs(false);
    a.push_back(optional_attr("group", AttrType::Int, Attr(int64_t{1}), "number of channel groups"));
    a.push_back(optional_attr(
        "kernel_layout", AttrType::String, Attr(transpose ? "IOHW" : "OIHW"),
        transpose ? "layout of W: \"IOHW\" (ONNX: C_in x C_out/group x k...), \"OIHW\" or \"OHWI\" (Arm NN)"
                  : "layout of W: \"OIHW\" (ONNX), \"OHWI\" (Arm NN NHWC), \"1HWO\" (depthwise [1,H,W,C*M], "
                    "TFLite / Arm NN weightsLayoutScheme 1) or \"MIHW\" (depthwise [M,C,H,W], Arm NN 20.08; "
                    "output channels M*C), \"HWIO\" ([spatial..., I, O], Arm NN Convolution3d [D,H,W,I,O])"));
    if (transpose) {
      a.push_back(optional_attr("output_padding", AttrType::Ints, "extra size added at the end of each spatial dim"));
      a.push_back(optional_attr("output_shape", AttrType::Ints,
                                "explicit output spatial shape (or full shape), overriding the formula"));
    }
    return a;
  };
  out.push_back(make_op(
      "Conv", 2, 3, conv_attrs(false),
      "Convolution of X [N,C,spatial...] (or NHWC) with W, plus optional bias B [M]. Output spatial size "
      "floor((in + pad_begin + pad_end - dilation*(k-1) - 1) / stride) + 1; output channels from W.",
      "ONNX Conv-11; Arm NN Convolution2d / DepthwiseConvolution2d / Convolution3d (rank 5; data_layout NHWC is NDHWC)",
      [](const InferenceContext& ctx) { return infer_conv(ctx, false); }));
  out.push_back(make_op("ConvTranspose", 2, 3, conv_attrs(true),
                        "Transposed convolution. Output spatial size stride*(in-1) + output_padding + "
                        "(k-1)*dilation + 1 - pad_begin - pad_end, unless output_shape is given.",
                        "ONNX ConvTranspose-11; Arm NN TransposeConvolution2d",
                        [](const InferenceContext& ctx) { return infer_conv(ctx, true); }));

  // The integer convolutions: ONNX's window attributes, NCHW data and OIHW weights only.
  auto int_conv_attrs = [] {
    std::vector<AttrSpec> a = window_attrs(false);
    a.erase(std::remove_if(a.begin(), a.end(), [](const AttrSpec& s) { return s.name == "data_layout"; }), a.end());
    a.push_back(optional_attr("group", AttrType::Int, Attr(int64_t{1}), "number of channel groups"));
    return a;
  };
  out.push_back(make_op(
      "ConvInteger", 2, 4, int_conv_attrs(),
      "Int32 Y = Conv of (X - x_zero_point) with (W - w_zero_point), accumulated exactly in integers; x_zero_point "
      "a scalar, w_zero_point a scalar or one per output channel (absent: 0). Shapes as Conv (NCHW, W [M, C/group, k...]).",
      "ONNX ConvInteger-10", [](const InferenceContext& ctx) { return infer_integer_conv(ctx, 1, DataType::Int32, 0); }));
  out.push_back(make_op(
      "QLinearConv", 8, 9, int_conv_attrs(),
      "Inputs x, x_scale, x_zero_point, w, w_scale, w_zero_point, y_scale, y_zero_point, optional Int32 B. "
      "acc = B[m] + sum (x - x_zp) * (w - w_zp) exactly in integers; y = saturate(round_half_even(acc * x_scale * "
      "w_scale[m] / y_scale) + y_zero_point) in y_zero_point's type. w_scale / w_zero_point: a scalar or one per "
      "output channel. Shapes as Conv (NCHW, W [M, C/group, k...]).",
      "ONNX QLinearConv-10", [](const InferenceContext& ctx) { return infer_integer_conv(ctx, 3, DataType::Undefined, 7); }));

  auto pool_attrs = [](bool avg, bool lp) {
    std::vector<AttrSpec> a = window_attrs(true);
    a.push_back(optional_attr("ceil_mode", AttrType::Int, Attr(int64_t{0}), "1: round the output size up"));
    if (avg || lp)
      a.push_back(optional_attr("count_include_pad", AttrType::Int, Attr(int64_t{0}),
                                "1: padding counts in the divisor (Arm NN PaddingMethod IgnoreValue)"));
    if (lp) {
      a.push_back(optional_attr("p", AttrType::Int, Attr(int64_t{2}), "the norm's order"));
      a.push_back(optional_attr("mean", AttrType::Int, Attr(int64_t{0}),
                                "1: (mean |x|^p)^(1/p), the divisor as for AveragePool (Arm NN / Compute "
                                "Library L2 pooling); 0: (sum |x|^p)^(1/p) (ONNX)"));
    }
    return a;
  };
  const std::string pool_doc =
      " Output spatial size floor_or_ceil((in + pad_begin + pad_end - dilation*(k-1) - 1) / stride) + 1 "
      "(ceil when ceil_mode = 1).";
  OpSchema maxpool = make_op("MaxPool", 1, 1, pool_attrs(false, false),
                             "Maximum over each window. Optional second output Indices (Int64)." + pool_doc,
                             "ONNX MaxPool-12; Arm NN Pooling2d / Pooling3d Max (rank 5; data_layout NHWC is NDHWC)", infer_pool);
  maxpool.max_outputs = 2;
  out.push_back(std::move(maxpool));
  out.push_back(make_op("AveragePool", 1, 1, pool_attrs(true, false), "Mean over each window." + pool_doc,
                        "ONNX AveragePool-19; Arm NN Pooling2d / Pooling3d Average", infer_pool));
  out.push_back(make_op("LpPool", 1, 1, pool_attrs(false, true), "(sum |x|^p)^(1/p) over each window, or (mean |x|^p)^(1/p) with mean = 1." + pool_doc,
                        "ONNX LpPool-18; Arm NN Pooling2d L2 is p = 2, mean = 1 (RefPooling2d: sqrt of the average of squares)", infer_pool));
  out.push_back(make_op("GlobalAveragePool", 1, 1, {data_layout_attr()},
                        "Mean over all spatial dims; they become 1.", "ONNX GlobalAveragePool-1", infer_global_pool));
  out.push_back(make_op("GlobalMaxPool", 1, 1, {data_layout_attr()}, "Maximum over all spatial dims; they become 1.",
                        "ONNX GlobalMaxPool-1", infer_global_pool));
}

}  // namespace nnbridge::ops
