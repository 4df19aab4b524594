// The transforms of the mapping table (ops.cc) that plain renames cannot express.
// Each pair is the exact inverse of the other on what it derives; what it leaves out stays
// an armnn.* attribute. Sources: Arm NN Descriptors.hpp field meanings, ONNX operator specs.
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

#include "nnbridge/error.h"
#include "ops.h"
#include "ops_transforms_util.h"

namespace nnbridge::formats::armnn::transforms {

using namespace detail;

namespace {

// Fills ONNX-order pads / strides / dilations from Arm NN's X/Y fields.
void spatial_to(const FieldMap& f, const reflection::Object& o, AttrMap& out, bool dilation) {
  out["pads"] = Attr(Ints{I(f, o, "descriptor.padTop"), I(f, o, "descriptor.padLeft"), I(f, o, "descriptor.padBottom"),
                          I(f, o, "descriptor.padRight")});
  out["strides"] = Attr(Ints{I(f, o, "descriptor.strideY"), I(f, o, "descriptor.strideX")});
  if (dilation) out["dilations"] = Attr(Ints{I(f, o, "descriptor.dilationY"), I(f, o, "descriptor.dilationX")});
}
void spatial_from(const AttrMap& a, FieldMap& f, bool dilation) {
  Ints pads = aints(a, "pads"), strides = aints(a, "strides"), dil = aints(a, "dilations");
  if (pads.empty()) pads = {0, 0, 0, 0};
  if (strides.empty()) strides = {1, 1};
  if (dil.empty()) dil = {1, 1};
  if (pads.size() != 4 || strides.size() != 2 || dil.size() != 2) unsupported("Arm NN 2-D layers need 2 spatial dims");
  f["descriptor.padTop"] = Attr(pads[0]);
  f["descriptor.padLeft"] = Attr(pads[1]);
  f["descriptor.padBottom"] = Attr(pads[2]);
  f["descriptor.padRight"] = Attr(pads[3]);
  f["descriptor.strideY"] = Attr(strides[0]);
  f["descriptor.strideX"] = Attr(strides[1]);
  if (dilation) {
    f["descriptor.dilationY"] = Attr(dil[0]);
    f["descriptor.dilationX"] = Attr(dil[1]);
  } else if (dil != Ints{1, 1}) {
    unsupported("this Arm NN layer has no dilation");
  }
}
bool layout_into(const FieldMap& f, const reflection::Object& o, AttrMap& out) {
  const char* l = layout_name(I(f, o, "descriptor.dataLayout"));
  if (!l) return false;
  out["data_layout"] = Attr(l);
  return true;
}
void layout_back(const AttrMap& a, FieldMap& f) {
  f["descriptor.dataLayout"] = Attr(layout_value(astr(a, "data_layout")));
}

// Weights layout names (the core Conv schema's kernel_layout); Arm NN: Conv2d weights follow the data
// layout ([O,I,H,W] for NCHW, [O,H,W,I] for NHWC).
void kernel_shape_from(const MapContext& c, const std::string& layout, AttrMap& out) {
  if (c.inputs.size() < 2 || c.inputs[1].unknown_rank || c.inputs[1].shape.size() != 4) return;
  const auto& w = c.inputs[1].shape;
  if (layout == "OIHW" || layout == "MIHW") out["kernel_shape"] = Attr(Ints{w[2], w[3]});
  else out["kernel_shape"] = Attr(Ints{w[1], w[2]});
}
int64_t channels(const TensorType& t, const std::string& layout) {
  if (t.unknown_rank || t.shape.size() != 4) return -1;
  return layout == "NCHW" ? t.shape[1] : t.shape[3];
}

}  // namespace

bool conv_to(const FieldMap& f, const reflection::Object& o, const MapContext& c, AttrMap& out) {
  if (!layout_into(f, o, out)) return false;
  spatial_to(f, o, out, true);
  out["group"] = Attr(int64_t{1});
  std::string kl = out["data_layout"].get<std::string>() == "NCHW" ? "OIHW" : "OHWI";
  out["kernel_layout"] = Attr(kl);
  kernel_shape_from(c, kl, out);
  return I(f, o, "descriptor.biasEnabled") == int64_t(has_bias(c));
}
void conv_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  layout_back(a, f);
  spatial_from(a, f, true);
  f["descriptor.biasEnabled"] = Attr(has_bias(c));
}

// Depthwise: one group per input channel. Arm NN's weights are [M, I, H, W] in
// weightsLayoutScheme 0 (kernel_layout "MIHW", output channel i*M + m) and [1, H, W, I*M] in
// scheme 1 ("1HWO", the TFLite layout).
bool dwconv_to(const FieldMap& f, const reflection::Object& o, const MapContext& c, AttrMap& out) {
  if (!layout_into(f, o, out)) return false;
  spatial_to(f, o, out, true);
  std::string kl = c.weights_layout_scheme == 1 ? "1HWO" : "MIHW";
  out["kernel_layout"] = Attr(kl);
  kernel_shape_from(c, kl, out);
  if (!c.inputs.empty()) {
    int64_t ch = channels(c.inputs[0], out["data_layout"].get<std::string>());
    if (ch > 0) out["group"] = Attr(ch);
  }
  return I(f, o, "descriptor.biasEnabled") == int64_t(has_bias(c));
}
void dwconv_from(const AttrMap& a, const MapContext& c, FieldMap& f) { conv_from(a, c, f); }

bool tconv_to(const FieldMap& f, const reflection::Object& o, const MapContext& c, AttrMap& out) {
  if (!layout_into(f, o, out)) return false;
  spatial_to(f, o, out, false);
  out["group"] = Attr(int64_t{1});
  std::string kl = out["data_layout"].get<std::string>() == "NCHW" ? "OIHW" : "OHWI";
  out["kernel_layout"] = Attr(kl);
  kernel_shape_from(c, kl, out);
  return I(f, o, "descriptor.biasEnabled") == int64_t(has_bias(c));
}
void tconv_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  layout_back(a, f);
  spatial_from(a, f, false);
  f["descriptor.biasEnabled"] = Attr(has_bias(c));
}

// Pooling2d. PaddingMethod IgnoreValue counts padded elements in the average (ONNX
// count_include_pad = 1); Exclude does not. OutputShapeRounding Ceiling is ceil_mode = 1.
bool pool_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  if (!layout_into(f, o, out)) return false;
  spatial_to(f, o, out, false);
  out["kernel_shape"] = Attr(Ints{I(f, o, "descriptor.poolHeight"), I(f, o, "descriptor.poolWidth")});
  pool_rules_to(f, o, out);
  return true;
}
void pool_from(const AttrMap& a, const MapContext&, FieldMap& f) {
  layout_back(a, f);
  spatial_from(a, f, false);
  Ints k = aints(a, "kernel_shape");
  if (k.size() != 2) unsupported("Pooling2d needs a 2-D kernel_shape");
  f["descriptor.poolHeight"] = Attr(k[0]);
  f["descriptor.poolWidth"] = Attr(k[1]);
  pool_rules_from(a, f);
}

// The rules Pooling2d and Pooling3d share (Pooling3d adds a depth to the same descriptor).
void pool_rules_to(const FieldMap& f, const reflection::Object& o, AttrMap& out) {
  out["ceil_mode"] = Attr(int64_t(I(f, o, "descriptor.outputShapeRounding") == 1));
  int64_t type = I(f, o, "descriptor.poolType");
  if (type != 0) out["count_include_pad"] = Attr(int64_t(I(f, o, "descriptor.paddingMethod") == 0));
  if (type == 2) {
    // Arm NN L2 pooling is the root of the mean of squares, not ONNX LpPool's root of the sum.
    out["p"] = Attr(int64_t{2});
    out["mean"] = Attr(int64_t{1});
  }
}
void pool_rules_from(const AttrMap& a, FieldMap& f) {
  f["descriptor.outputShapeRounding"] = Attr(int64_t(ai(a, "ceil_mode") ? 1 : 0));
  // Arm NN's default PaddingMethod is Exclude; MaxPool has no count_include_pad (padding never
  // wins a max), so it keeps that default and a file's other choice stays a residual field.
  const bool include_pad = A(a, "count_include_pad") && ai(a, "count_include_pad");
  f["descriptor.paddingMethod"] = Attr(int64_t(include_pad ? 0 : 1));
  if (A(a, "p") && ai(a, "p") != 2) unsupported("Arm NN L2 pooling has p = 2 only");
  if (A(a, "p") && (!A(a, "mean") || ai(a, "mean") != 1))
    unsupported("Arm NN L2 pooling averages the squares (LpPool mean = 1); ONNX's sum form has no layer");
}

// Permute: input dimension i goes to output dimension m[i]; ONNX Transpose perm is the
// inverse (output dimension i takes input dimension perm[i]).
bool permute_to(const FieldMap& f, const reflection::Object&, const MapContext&, AttrMap& out) {
  Ints m = get_ints(f, "descriptor.dimMappings");
  Ints perm(m.size(), -1);
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i] < 0 || size_t(m[i]) >= m.size() || perm[m[i]] != -1) return false;
    perm[m[i]] = int64_t(i);
  }
  out["perm"] = Attr(perm);
  return true;
}
void permute_from(const AttrMap& a, const MapContext&, FieldMap& f) {
  Ints perm = aints(a, "perm"), m(perm.size(), 0);
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] < 0 || size_t(perm[i]) >= perm.size()) unsupported("Transpose perm is not a permutation");
    m[perm[i]] = int64_t(i);
  }
  f["descriptor.dimMappings"] = Attr(m);
}

bool layout_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  return layout_into(f, o, out);
}
void layout_from(const AttrMap& a, const MapContext&, FieldMap& f) { layout_back(a, f); }

bool act_ab_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  out["alpha"] = Attr(F(f, o, "descriptor.a"));
  out["beta"] = Attr(F(f, o, "descriptor.b"));
  return true;
}
void act_ab_from(const AttrMap& a, const MapContext&, FieldMap& f) {
  f["descriptor.a"] = Attr(double(f32(af(a, "alpha"))));
  f["descriptor.b"] = Attr(double(f32(af(a, "beta"))));
}
bool act_a_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  out["alpha"] = Attr(F(f, o, "descriptor.a"));
  return true;
}
void act_a_from(const AttrMap& a, const MapContext&, FieldMap& f) {
  // LeakyRelu's ONNX default is 0.01, Elu's 1.0; the registry supplies them when absent.
  f["descriptor.a"] = Attr(double(f32(af(a, "alpha"))));
}
// BoundedReLu computes min(a, max(b, x)): Clip max = a, min = b (descriptor form of Clip-13's
// min and max inputs, nnbridge/rewrite.h operands_as_attributes; an absent bound is infinite).
bool clip_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  out["max"] = Attr(F(f, o, "descriptor.a"));
  out["min"] = Attr(F(f, o, "descriptor.b"));
  return true;
}
void clip_from(const AttrMap& a, const MapContext&, FieldMap& f) {
  f["descriptor.a"] = Attr(double(f32(A(a, "max") ? af(a, "max") : INFINITY)));
  f["descriptor.b"] = Attr(double(f32(A(a, "min") ? af(a, "min") : -INFINITY)));
}

bool concat_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  out["axis"] = Attr(I(f, o, "descriptor.concatAxis"));
  return true;
}
void concat_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  int64_t axis = ai(a, "axis");
  f["descriptor.concatAxis"] = Attr(axis);
  f["descriptor.numViews"] = Attr(int64_t(c.inputs.size()));
  if (c.inputs.empty() || c.inputs[0].unknown_rank) return;
  int64_t rank = int64_t(c.inputs[0].shape.size());
  if (axis < 0) axis += rank, f["descriptor.concatAxis"] = Attr(axis);
  f["descriptor.numDimensions"] = Attr(rank);
  // Each view's origin: zero except along the axis, where the views follow each other.
  Ints origin(rank, 0);
  f["descriptor.viewOrigins"] = Attr(int64_t(c.inputs.size()));
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    f["descriptor.viewOrigins[" + std::to_string(i) + "].data"] = Attr(origin);
    const auto& s = c.inputs[i].shape;
    if (c.inputs[i].unknown_rank || int64_t(s.size()) != rank || axis < 0 || axis >= rank || s[axis] < 0) {
      f.erase("descriptor.viewOrigins");
      for (size_t j = 0; j <= i; ++j) f.erase("descriptor.viewOrigins[" + std::to_string(j) + "].data");
      return;
    }
    origin[axis] += s[axis];
  }
}

// Splitter is Split when its views tile the input along one axis, in order.
bool split_to(const FieldMap& f, const reflection::Object& o, const MapContext& c, AttrMap& out) {
  if (c.inputs.empty() || c.inputs[0].unknown_rank) return false;
  const auto& in = c.inputs[0].shape;
  int64_t n = I(f, o, "descriptor.origins.numViews");
  int64_t rank = int64_t(in.size());
  if (n <= 0 || get_int(f, o, "descriptor.origins.numDimensions") != rank) return false;
  std::vector<Ints> origins, sizes;
  for (int64_t i = 0; i < n; ++i) {
    origins.push_back(get_ints(f, "descriptor.origins.viewOrigins[" + std::to_string(i) + "].data"));
    sizes.push_back(get_ints(f, "descriptor.viewSizes[" + std::to_string(i) + "].data"));
    if (int64_t(origins.back().size()) != rank || int64_t(sizes.back().size()) != rank) return false;
  }
  int64_t axis = -1;
  for (int64_t d = 0; d < rank; ++d)
    for (int64_t i = 0; i < n; ++i)
      if (sizes[i][d] != in[d] || origins[i][d] != 0) {
        if (axis != -1 && axis != d) return false;
        axis = d;
      }
  // ViewsDescriptor.hasAxis/axis (current Arm NN): the axis the views split on, counted from
  // the end when negative. It decides when the views alone do not (one view, or views that
  // span the whole input); views that split elsewhere keep the layer native.
  if (get_bool(f, o, "descriptor.hasAxis")) {
    int64_t given = I(f, o, "descriptor.axis");
    if (given < 0) given += rank;
    if (given < 0 || given >= rank || (axis != -1 && axis != given)) return false;
    axis = given;
  }
  if (axis == -1) axis = 0;
  Ints split;
  int64_t at = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (origins[i][axis] != at) return false;
    split.push_back(sizes[i][axis]);
    at += sizes[i][axis];
  }
  if (in[axis] >= 0 && at != in[axis]) return false;
  out["axis"] = Attr(axis);
  out["split"] = Attr(split);
  return true;
}
void split_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  if (c.inputs.empty() || c.inputs[0].unknown_rank) unsupported("Split needs the input shape to write a Splitter");
  Ints in = c.inputs[0].shape;
  int64_t rank = int64_t(in.size()), axis = ai(a, "axis");
  if (axis < 0) axis += rank;
  Ints split = aints(a, "split");
  if (split.empty()) {
    int64_t n = int64_t(c.outputs.size());
    if (n == 0 || axis < 0 || axis >= rank || in[axis] < 0 || in[axis] % n) unsupported("Split without split sizes");
    split.assign(n, in[axis] / n);
  }
  if (axis < 0 || axis >= rank) unsupported("Split axis out of range");
  int64_t n = int64_t(split.size());
  f["descriptor.origins"] = Attr(true);
  f["descriptor.origins.numViews"] = Attr(n);
  f["descriptor.origins.numDimensions"] = Attr(rank);
  f["descriptor.origins.viewOrigins"] = Attr(n);
  f["descriptor.viewSizes"] = Attr(n);
  int64_t at = 0;
  for (int64_t i = 0; i < n; ++i) {
    Ints origin(rank, 0), size = in;
    origin[axis] = at;
    size[axis] = split[i];
    at += split[i];
    f["descriptor.origins.viewOrigins[" + std::to_string(i) + "].data"] = Attr(origin);
    f["descriptor.viewSizes[" + std::to_string(i) + "].data"] = Attr(size);
  }
}

// Arm NN 20.08 CpuRef fills a quantized Pad output with padValue quantized at scale 1 and offset
// 0 (reference workloads Pad.cpp: "Pad Value should not be quantized with scale and offset of the
// tensor info"; armnn::Quantize rounds half away from zero and saturates), so for such an output
// padValue is a stored integer q, while the canonical Pad's constant_value is always a real value
// (ONNX Pad-13 pads with that value). Read: value = scale * (q - zero_point); written: q =
// round(value / scale) + zero_point, saturated to the storage type. The per-tensor scale and zero
// point apply (Arm NN's Pad output is never per-axis). Other outputs: the value itself.
struct PadStorage {
  double scale = 0, zero_point = 0, lowest = 0, highest = 0;
};
std::optional<PadStorage> pad_storage(const std::vector<TensorType>& outputs) {
  if (outputs.empty() || !is_quantized(outputs[0].dtype)) return std::nullopt;
  const auto& q = outputs[0].quantization;
  if (!q || q->scales.empty() || !(q->scales[0] > 0)) return std::nullopt;
  PadStorage p;
  p.scale = q->scales[0];
  p.zero_point = q->zero_points.empty() ? 0.0 : static_cast<double>(q->zero_points[0]);
  switch (outputs[0].dtype) {
    case DataType::QAsymmU8: p.lowest = 0, p.highest = 255; break;
    case DataType::QSymmS16: p.lowest = -32768, p.highest = 32767; break;
    default: p.lowest = -128, p.highest = 127; break;  // QAsymmS8, QSymmS8
  }
  return p;
}

bool pad_to(const FieldMap& f, const reflection::Object& o, const MapContext& c, AttrMap& out) {
  Ints list = get_ints(f, "descriptor.padList");
  if (list.size() % 2) return false;
  size_t n = list.size() / 2;
  Ints pads(list.size());
  for (size_t i = 0; i < n; ++i) pads[i] = list[2 * i], pads[n + i] = list[2 * i + 1];
  out["pads"] = Attr(pads);
  const double pad_value = F(f, o, "descriptor.padValue");
  if (const auto q = pad_storage(c.outputs)) {
    const double stored = std::clamp(std::round(pad_value), q->lowest, q->highest);
    out["value"] = Attr(q->scale * (stored - q->zero_point));
  } else {
    out["value"] = Attr(pad_value);
  }
  static const char* modes[] = {"constant", "reflect", "symmetric"};
  int64_t m = I(f, o, "descriptor.paddingMode");
  if (m < 0 || m > 2) return false;
  out["mode"] = Attr(modes[m]);
  return true;
}
void pad_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  Ints pads = aints(a, "pads");
  size_t n = pads.size() / 2;
  Ints list(pads.size());
  for (size_t i = 0; i < n; ++i) list[2 * i] = pads[i], list[2 * i + 1] = pads[n + i];
  f["descriptor.padList"] = Attr(list);
  const double value = A(a, "value") ? af(a, "value") : 0.0;  // constant_value absent: 0
  if (const auto q = pad_storage(c.outputs))
    f["descriptor.padValue"] = Attr(std::clamp(std::round(value / q->scale) + q->zero_point, q->lowest, q->highest));
  else
    f["descriptor.padValue"] = Attr(double(f32(value)));
  std::string m = astr(a, "mode");
  if (m == "constant") f["descriptor.paddingMode"] = Attr(int64_t{0});
  else if (m == "reflect") f["descriptor.paddingMode"] = Attr(int64_t{1});
  else if (m == "symmetric") f["descriptor.paddingMode"] = Attr(int64_t{2});
  else unsupported("Arm NN Pad has no mode " + m);
}

// Resize (ONNX Resize-13 names, cpu_ref/src/kernels/resize.cc): bilinear takes alignCorners as
// align_corners, halfPixelCenters as half_pixel, neither as asymmetric; nearest (Arm NN floors
// the scaled coordinate, or rounds it with alignCorners, and does not take 0.5 off with
// halfPixelCenters) is asymmetric floor, align_corners round_prefer_ceil, or tf_half_pixel_for_nn
// floor. targetHeight / targetWidth are the spatial dims of Resize-13's full-rank sizes, N and C
// X's (descriptor form: the sizes attribute, nnbridge/rewrite.h). ResizeBilinear is the
// bilinear-only predecessor.
bool resize_to(const FieldMap& f, const reflection::Object& o, const MapContext& c, AttrMap& out) {
  if (!layout_into(f, o, out)) return false;
  const bool nhwc = astr(out, "data_layout") == "NHWC";
  bool bilinear_layer = o.name()->str() == "armnnSerializer.ResizeBilinearLayer";
  const int64_t th = I(f, o, "descriptor.targetHeight"), tw = I(f, o, "descriptor.targetWidth");
  // N and C: X's, else the output's.
  Ints sizes = nhwc ? Ints{-1, th, tw, -1} : Ints{-1, -1, th, tw};
  for (const std::vector<TensorType>* t : {&c.inputs, &c.outputs})
    if (!t->empty() && !(*t)[0].unknown_rank && (*t)[0].shape.size() == 4)
      for (std::size_t d : {std::size_t{0}, std::size_t(nhwc ? 3 : 1)})
        if (sizes[d] < 0) sizes[d] = (*t)[0].shape[d];
  if (sizes[0] < 0 || sizes[nhwc ? 3 : 1] < 0) return false;
  out["sizes"] = Attr(sizes);
  int64_t method = bilinear_layer ? 1 : I(f, o, "descriptor.method");
  if (method != 0 && method != 1) return false;
  out["mode"] = Attr(method == 1 ? "linear" : "nearest");
  bool ac = I(f, o, "descriptor.alignCorners"), hp = I(f, o, "descriptor.halfPixelCenters");
  if (ac && hp) return false;
  if (method == 1) {
    out["coordinate_transformation_mode"] = Attr(ac ? "align_corners" : hp ? "half_pixel" : "asymmetric");
  } else {
    out["coordinate_transformation_mode"] = Attr(ac ? "align_corners" : hp ? "tf_half_pixel_for_nn" : "asymmetric");
    out["nearest_mode"] = Attr(ac ? "round_prefer_ceil" : "floor");
  }
  return true;
}
void resize_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  layout_back(a, f);
  const bool nhwc = astr(a, "data_layout") == "NHWC";
  Ints sizes = aints(a, "sizes");
  if (sizes.size() == 4) {
    const std::size_t ch = nhwc ? 3 : 1;
    if (!c.inputs.empty() && !c.inputs[0].unknown_rank && c.inputs[0].shape.size() == 4 &&
        (sizes[0] != c.inputs[0].shape[0] || sizes[ch] != c.inputs[0].shape[ch]))
      unsupported("Arm NN Resize resizes H and W only (sizes changes N or C)");
    sizes = nhwc ? Ints{sizes[1], sizes[2]} : Ints{sizes[2], sizes[3]};
  }
  if (sizes.size() != 2) unsupported("Arm NN Resize needs 4-D sizes (scales: give sizes)");
  f["descriptor.targetHeight"] = Attr(sizes[0]);
  f["descriptor.targetWidth"] = Attr(sizes[1]);
  std::string mode = astr(a, "mode"), ct = astr(a, "coordinate_transformation_mode"), nm = astr(a, "nearest_mode");
  if (mode != "nearest" && mode != "linear") unsupported("Arm NN Resize has no mode " + mode);
  f["descriptor.method"] = Attr(int64_t(mode == "linear"));
  bool ac = false, hp = false;
  if (mode == "linear") {
    if (ct != "asymmetric" && ct != "align_corners" && ct != "half_pixel")
      unsupported("Arm NN bilinear Resize has no coordinate_transformation_mode " + ct);
    ac = ct == "align_corners", hp = ct == "half_pixel";
  } else if (ct == "asymmetric" && nm == "floor") {
  } else if (ct == "align_corners" && nm == "round_prefer_ceil") {
    ac = true;
  } else if (ct == "tf_half_pixel_for_nn" && nm == "floor") {
    hp = true;
  } else {
    unsupported("Arm NN nearest Resize has no coordinate_transformation_mode " + ct + " with nearest_mode " + nm);
  }
  f["descriptor.alignCorners"] = Attr(ac);
  f["descriptor.halfPixelCenters"] = Attr(hp);
}

bool slice_to(const FieldMap& f, const reflection::Object&, const MapContext&, AttrMap& out) {
  Ints b = get_ints(f, "descriptor.begin"), s = get_ints(f, "descriptor.size");
  if (b.size() != s.size()) return false;
  Ints e(b.size()), axes(b.size());
  for (size_t i = 0; i < b.size(); ++i) e[i] = b[i] + s[i], axes[i] = int64_t(i);
  out["starts"] = Attr(b);
  out["ends"] = Attr(e);
  out["axes"] = Attr(axes);
  return true;
}
void slice_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  Ints st = aints(a, "starts"), en = aints(a, "ends"), axes = aints(a, "axes"), steps = aints(a, "steps");
  for (auto s : steps)
    if (s != 1) unsupported("Arm NN Slice has no steps");
  int64_t rank = (c.inputs.empty() || c.inputs[0].unknown_rank) ? int64_t(st.size()) : int64_t(c.inputs[0].shape.size());
  if (axes.empty())
    for (size_t i = 0; i < st.size(); ++i) axes.push_back(int64_t(i));
  if (st.size() != en.size() || st.size() != axes.size()) unsupported("Slice starts/ends/axes differ in length");
  Ints b(rank, 0), s(rank, -1);
  for (int64_t d = 0; d < rank; ++d)
    if (!c.inputs.empty() && !c.inputs[0].unknown_rank) s[d] = c.inputs[0].shape[d];
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t ax = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (ax < 0 || ax >= rank) unsupported("Slice axis out of range");
    int64_t dim = s[ax];
    int64_t lo = st[i], hi = en[i];
    if (dim >= 0) {
      if (lo < 0) lo += dim;
      if (hi < 0) hi += dim;
      hi = std::min(hi, dim);
    }
    if (lo < 0 || hi < lo) unsupported("Slice bounds Arm NN cannot express");
    b[ax] = lo;
    s[ax] = hi - lo;
  }
  for (auto x : s)
    if (x < 0) unsupported("Slice needs the input shape");
  f["descriptor.begin"] = Attr(b);
  f["descriptor.size"] = Attr(s);
}

bool stack_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  out["axis"] = Attr(I(f, o, "descriptor.axis"));
  return true;
}
void stack_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  f["descriptor.axis"] = Attr(ai(a, "axis"));
  f["descriptor.numInputs"] = Attr(int64_t(c.inputs.size()));
  if (!c.inputs.empty() && !c.inputs[0].unknown_rank) f["descriptor.inputShape"] = Attr(c.inputs[0].shape);
}

// L2Normalization normalizes across channels: x / sqrt(max(sum(x^2), eps)).
bool l2norm_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  int64_t l = I(f, o, "descriptor.dataLayout");
  if (l != 0 && l != 1) return false;
  out["axis"] = Attr(int64_t(l == 1 ? 1 : -1));
  out["p"] = Attr(int64_t{2});
  out["epsilon"] = Attr(F(f, o, "descriptor.eps"));
  return true;
}
void l2norm_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  if (ai(a, "p") != 2) unsupported("Arm NN L2Normalization has p = 2 only");
  int64_t axis = ai(a, "axis");
  int64_t rank = (c.inputs.empty() || c.inputs[0].unknown_rank) ? -1 : int64_t(c.inputs[0].shape.size());
  bool last = axis == -1 || (rank > 0 && axis == rank - 1);
  if (axis != 1 && !last) unsupported("Arm NN L2Normalization normalizes the channel axis only");
  f["descriptor.dataLayout"] = Attr(int64_t(axis == 1 ? 1 : 0));
  f["descriptor.eps"] = Attr(double(f32(af(a, "epsilon"))));
}

// ReduceSum-13 without its axes input (descriptor form: no axes attribute) reduces every dim,
// as Arm NN's empty axis list does; with noop_with_empty_axes 1 it is the identity, which Arm
// NN's Reduce cannot say.
void reduce_sum_from(const AttrMap& a, const MapContext&, FieldMap& f) {
  if (aints(a, "axes").empty() && ai(a, "noop_with_empty_axes") != 0)
    unsupported("Arm NN Reduce has no noop_with_empty_axes (no axes reduces every dim)");
  if (!A(a, "axes")) f["descriptor.axis"] = Attr(Ints{});
}

bool argminmax_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  out["axis"] = Attr(I(f, o, "descriptor.axis"));
  out["keepdims"] = Attr(int64_t{0});  // Arm NN removes the reduced axis
  return true;
}
void argminmax_from(const AttrMap& a, const MapContext&, FieldMap& f) {
  if (ai(a, "keepdims") != 0) unsupported("Arm NN ArgMinMax removes the reduced axis (keepdims must be 0)");
  if (ai(a, "select_last_index") != 0) unsupported("Arm NN ArgMinMax has no select_last_index");
  f["descriptor.axis"] = Attr(ai(a, "axis"));
}

// Normalization (Across, LocalBrightness): Arm NN's reference computes
// x / (k + alpha * sum x^2)^beta over normSize channels; ONNX LRN divides alpha by size.
bool lrn_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  if (I(f, o, "descriptor.normChannelType") != 0 || I(f, o, "descriptor.normMethodType") != 0) return false;
  if (!layout_into(f, o, out)) return false;
  out["alpha"] = Attr(F(f, o, "descriptor.alpha") * double(I(f, o, "descriptor.normSize")));
  return true;
}
void lrn_from(const AttrMap& a, const MapContext&, FieldMap& f) {
  layout_back(a, f);
  int64_t size = ai(a, "size");
  if (size <= 0) unsupported("LRN size must be positive");
  f["descriptor.alpha"] = Attr(double(f32(af(a, "alpha") / double(size))));
  f["descriptor.normChannelType"] = Attr(int64_t{0});
  f["descriptor.normMethodType"] = Attr(int64_t{0});
}

// FullyConnected: weights [K, N], or [N, K] with transposeWeightsMatrix (Gemm transB).
bool gemm_to(const FieldMap& f, const reflection::Object& o, const MapContext& c, AttrMap& out) {
  out["transB"] = Attr(int64_t(I(f, o, "descriptor.transposeWeightsMatrix") != 0));
  out["transA"] = Attr(int64_t{0});
  out["alpha"] = Attr(1.0);
  out["beta"] = Attr(1.0);
  return I(f, o, "descriptor.biasEnabled") == int64_t(has_bias(c));
}
void gemm_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  if (ai(a, "transA") != 0 || af(a, "alpha") != 1.0 || af(a, "beta") != 1.0)
    unsupported("Arm NN FullyConnected needs transA = 0, alpha = beta = 1");
  f["descriptor.transposeWeightsMatrix"] = Attr(ai(a, "transB") != 0);
  f["descriptor.biasEnabled"] = Attr(has_bias(c));
}

}  // namespace nnbridge::formats::armnn::transforms
