// Transforms of the mapping table (ops.cc) for layers newer than Arm NN 20.08: the 3-D
// Convolution3d / Pooling3d, BatchMatMul and ScatterNd. As in ops_transforms.cc, each pair is
// the exact inverse of the other on what it derives; the rest stays an armnn.* attribute.
// Sources: Arm NN Descriptors.hpp field meanings and the reference workloads (Conv3dImpl.cpp,
// Pooling3d.cpp, BatchMatMulImpl.cpp, ScatterNd.cpp); ONNX Conv-11, MaxPool-12, ScatterND-18.
#include "ops_transforms_util.h"

namespace nnbridge::formats::armnn::transforms {

using namespace detail;

namespace {

// Arm NN 3-D layouts: NDHWC = 2 is channels last ("NHWC" in the IR at rank 5), NCDHW = 3 is
// channels after batch ("NCHW").
bool layout3d_into(const FieldMap& f, const reflection::Object& o, AttrMap& out) {
  int64_t l = I(f, o, "descriptor.dataLayout");
  if (l != 2 && l != 3) return false;
  out["data_layout"] = Attr(l == 2 ? "NHWC" : "NCHW");
  return true;
}
void layout3d_back(const AttrMap& a, FieldMap& f) {
  std::string l = astr(a, "data_layout");
  if (l != "NHWC" && l != "NCHW") unsupported("Arm NN 3-D layers have no data layout " + l);
  f["descriptor.dataLayout"] = Attr(int64_t(l == "NHWC" ? 2 : 3));
}

// ONNX order for the spatial dims (D, H, W): pads [front, top, left, back, bottom, right].
void spatial3d_to(const FieldMap& f, const reflection::Object& o, AttrMap& out, bool dilation) {
  out["pads"] = Attr(Ints{I(f, o, "descriptor.padFront"), I(f, o, "descriptor.padTop"), I(f, o, "descriptor.padLeft"),
                          I(f, o, "descriptor.padBack"), I(f, o, "descriptor.padBottom"), I(f, o, "descriptor.padRight")});
  out["strides"] = Attr(Ints{I(f, o, "descriptor.strideZ"), I(f, o, "descriptor.strideY"), I(f, o, "descriptor.strideX")});
  if (dilation)
    out["dilations"] =
        Attr(Ints{I(f, o, "descriptor.dilationZ"), I(f, o, "descriptor.dilationY"), I(f, o, "descriptor.dilationX")});
}
void spatial3d_from(const AttrMap& a, FieldMap& f, bool dilation) {
  Ints pads = aints(a, "pads"), strides = aints(a, "strides"), dil = aints(a, "dilations");
  if (pads.empty()) pads.assign(6, 0);
  if (strides.empty()) strides.assign(3, 1);
  if (dil.empty()) dil.assign(3, 1);
  if (pads.size() != 6 || strides.size() != 3 || dil.size() != 3) unsupported("Arm NN 3-D layers need 3 spatial dims");
  if (A(a, "auto_pad") && astr(a, "auto_pad") != "NOTSET") unsupported("Arm NN 3-D layers have explicit pads only");
  const char* pad_fields[6] = {"descriptor.padFront", "descriptor.padTop",    "descriptor.padLeft",
                               "descriptor.padBack",  "descriptor.padBottom", "descriptor.padRight"};
  for (int i = 0; i < 6; ++i) f[pad_fields[i]] = Attr(pads[i]);
  f["descriptor.strideZ"] = Attr(strides[0]);
  f["descriptor.strideY"] = Attr(strides[1]);
  f["descriptor.strideX"] = Attr(strides[2]);
  if (dilation) {
    f["descriptor.dilationZ"] = Attr(dil[0]);
    f["descriptor.dilationY"] = Attr(dil[1]);
    f["descriptor.dilationX"] = Attr(dil[2]);
  } else if (dil != Ints{1, 1, 1}) {
    unsupported("Arm NN Pooling3d has no dilation");
  }
}

}  // namespace

// Convolution3d: weights are input slot 1 in Arm NN's [D, H, W, I, O] layout (Conv3dImpl.cpp),
// kernel_layout "HWIO"; one group; the bias is slot 2 when biasEnabled.
bool conv3d_to(const FieldMap& f, const reflection::Object& o, const MapContext& c, AttrMap& out) {
  if (!layout3d_into(f, o, out)) return false;
  spatial3d_to(f, o, out, true);
  out["group"] = Attr(int64_t{1});
  out["kernel_layout"] = Attr("HWIO");
  if (c.inputs.size() >= 2 && !c.inputs[1].unknown_rank && c.inputs[1].shape.size() == 5) {
    const auto& w = c.inputs[1].shape;
    out["kernel_shape"] = Attr(Ints{w[0], w[1], w[2]});
  }
  return I(f, o, "descriptor.biasEnabled") == int64_t(has_bias(c));
}
void conv3d_from(const AttrMap& a, const MapContext& c, FieldMap& f) {
  if (astr(a, "kernel_layout") != "HWIO") unsupported("Arm NN Convolution3d weights are [D,H,W,I,O] (kernel_layout HWIO)");
  if (ai(a, "group") != 1) unsupported("Arm NN Convolution3d has no groups");
  layout3d_back(a, f);
  spatial3d_from(a, f, true);
  f["descriptor.biasEnabled"] = Attr(has_bias(c));
}

// Pooling3d: the fields of Pooling2d with a depth (Z) added; the same rules for the padding
// method and the output rounding (see pool_to).
bool pool3d_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  if (!layout3d_into(f, o, out)) return false;
  spatial3d_to(f, o, out, false);
  out["kernel_shape"] =
      Attr(Ints{I(f, o, "descriptor.poolDepth"), I(f, o, "descriptor.poolHeight"), I(f, o, "descriptor.poolWidth")});
  pool_rules_to(f, o, out);
  return true;
}
void pool3d_from(const AttrMap& a, const MapContext&, FieldMap& f) {
  layout3d_back(a, f);
  spatial3d_from(a, f, false);
  Ints k = aints(a, "kernel_shape");
  if (k.size() != 3) unsupported("Pooling3d needs a 3-D kernel_shape");
  f["descriptor.poolDepth"] = Attr(k[0]);
  f["descriptor.poolHeight"] = Attr(k[1]);
  f["descriptor.poolWidth"] = Attr(k[2]);
  pool_rules_from(a, f);
}

// BatchMatMul is MatMul (numpy.matmul with transA/transB) when it multiplies the last two dims
// of each input and takes no adjoint: dataLayoutX/Y NCHW or NCDHW (BatchMatMulDescriptor::
// GetAxesToMul; NHWC/NDHWC multiply the two dims before the last) and adjointX/Y false (the
// reference computes the adjugate matrix there). Other files keep the native layer.
bool bmm_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap&) {
  for (const char* l : {"descriptor.dataLayoutX", "descriptor.dataLayoutY"}) {
    int64_t v = I(f, o, l);
    if (v != 1 && v != 3) return false;
  }
  return I(f, o, "descriptor.adjointX") == 0 && I(f, o, "descriptor.adjointY") == 0;
}

// ScatterNd: ScatterNdFunction (upstream numbering: Update 0, Add 1, Sub 2, Max 3, Min 4) is
// the reduction; m_InputEnabled false is data_is_shape = 1 (slot 0 holds the output shape);
// the reference combines every update with the original input element (combine_with "data").
// m_AxisEnabled (unsupported by the reference) keeps the native layer.
bool scatter_to(const FieldMap& f, const reflection::Object& o, const MapContext&, AttrMap& out) {
  static const char* reductions[] = {"none", "add", "sub", "max", "min"};
  int64_t fn = I(f, o, "descriptor.m_Function");
  if (fn < 0 || fn > 4 || I(f, o, "descriptor.m_AxisEnabled") != 0) return false;
  out["reduction"] = Attr(reductions[fn]);
  out["data_is_shape"] = Attr(int64_t(I(f, o, "descriptor.m_InputEnabled") == 0));
  out["combine_with"] = Attr("data");
  return true;
}
void scatter_from(const AttrMap& a, const MapContext&, FieldMap& f) {
  const std::string r = astr(a, "reduction");
  int64_t fn = r == "none" ? 0 : r == "add" ? 1 : r == "sub" ? 2 : r == "max" ? 3 : r == "min" ? 4 : -1;
  if (fn < 0) unsupported("Arm NN ScatterNd has no reduction " + r + " (ScatterNdFunction: Update, Add, Sub, Max, Min)");
  if (fn != 0 && astr(a, "combine_with") != "data")
    unsupported("Arm NN ScatterNd combines each update with the original element (combine_with must be \"data\")");
  f["descriptor.m_Function"] = Attr(fn);
  f["descriptor.m_InputEnabled"] = Attr(ai(a, "data_is_shape") == 0);
}

}  // namespace nnbridge::formats::armnn::transforms
