#include "ops.h"

#include <algorithm>
#include <map>
#include <sstream>
#include <unordered_map>

#include "armnn/ArmnnSchema_generated.h"
#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"
#include "tensor_info.h"

namespace nnbridge::formats::armnn {

namespace {

using namespace transforms;
using RK = RenameKind;

OpRow row(std::string layer, std::string op, std::vector<AttrRename> renames = {}, ToCanonical to = nullptr,
          FromCanonical from = nullptr, std::vector<std::string> consts = {}) {
  OpRow r;
  r.layer = std::move(layer);
  r.op = std::move(op);
  r.renames = std::move(renames);
  r.to = to;
  r.from = from;
  r.const_fields = std::move(consts);
  return r;
}
OpRow disc(std::string layer, std::string field, int64_t value, std::string op, std::vector<AttrRename> renames = {},
           ToCanonical to = nullptr, FromCanonical from = nullptr) {
  OpRow r = row(std::move(layer), std::move(op), std::move(renames), to, from);
  r.disc_field = std::move(field);
  r.disc_value = value;
  return r;
}

// The table. Order matters only between rows with the same canonical op: the first one is
// what a writer picks for a new graph, so layers Arm NN 20.08 can load come first
// (Addition before ElementwiseBinary, Mean before Reduce, Transpose before Permute).
std::vector<OpRow> canonical_rows() {
  const char* op = "descriptor.operation";
  const char* act = "descriptor.activationFunction";
  std::vector<OpRow> t = {
      // Elementwise binary (Arm NN: equal-rank broadcasting of size-1 dimensions).
      row("Addition", "Add"), row("Subtraction", "Sub"), row("Multiplication", "Mul"), row("Division", "Div"),
      row("Maximum", "Max"), row("Minimum", "Min"),
      disc("ElementwiseBinary", op, 0, "Add"), disc("ElementwiseBinary", op, 1, "Div"),
      disc("ElementwiseBinary", op, 2, "Max"), disc("ElementwiseBinary", op, 3, "Min"),
      disc("ElementwiseBinary", op, 4, "Mul"), disc("ElementwiseBinary", op, 5, "Sub"),
      // BinaryOperation numbering of the released schema: SqDiff 6, Power 7.
      disc("ElementwiseBinary", op, 6, "SquaredDifference"), disc("ElementwiseBinary", op, 7, "Pow"),
      // Softmax: Arm NN computes exp(beta * (x - max)).
      row("Softmax", "Softmax", {{"descriptor.axis", "axis"}, {"descriptor.beta", "beta"}}),
      row("LogSoftmax", "LogSoftmax", {{"descriptor.axis", "axis"}, {"descriptor.beta", "beta"}}),
      // Unary (ElementwiseUnary first: both Arm NN 20.08 and current Arm NN load it).
      disc("ElementwiseUnary", op, 0, "Abs"), disc("ElementwiseUnary", op, 1, "Rsqrt"),
      disc("ElementwiseUnary", op, 2, "Sqrt"), disc("ElementwiseUnary", op, 3, "Exp"),
      disc("ElementwiseUnary", op, 4, "Neg"), disc("ElementwiseUnary", op, 5, "Not"),
      disc("ElementwiseUnary", op, 6, "Log"), disc("ElementwiseUnary", op, 7, "Sin"),
      disc("ElementwiseUnary", op, 8, "Ceil"),
      row("Abs", "Abs"), row("Rsqrt", "Rsqrt"), row("Floor", "Floor"),
      // Activation functions (Arm NN ActivationDescriptor a, b).
      disc("Activation", act, 0, "Sigmoid"), disc("Activation", act, 1, "ScaledTanh", {}, act_ab_to, act_ab_from),
      disc("Activation", act, 2, "Affine", {}, act_ab_to, act_ab_from), disc("Activation", act, 3, "Relu"),
      disc("Activation", act, 4, "Clip", {}, clip_to, clip_from), disc("Activation", act, 5, "Softplus"),
      disc("Activation", act, 6, "LeakyRelu", {}, act_a_to, act_a_from), disc("Activation", act, 7, "Abs"),
      disc("Activation", act, 8, "Sqrt"), disc("Activation", act, 9, "Square"),
      disc("Activation", act, 10, "Elu", {}, act_a_to, act_a_from), disc("Activation", act, 11, "HardSwish"),
      disc("Activation", act, 12, "Gelu"),
      // Convolutions and fully connected: weights and biases are node inputs.
      row("Convolution2d", "Conv", {}, conv_to, conv_from, {"weights", "biases"}),
      row("DepthwiseConvolution2d", "Conv", {}, dwconv_to, dwconv_from, {"weights", "biases"}),
      row("TransposeConvolution2d", "ConvTranspose", {}, tconv_to, tconv_from, {"weights", "biases"}),
      row("FullyConnected", "Gemm", {}, gemm_to, gemm_from, {"weights", "biases"}),
      row("Convolution3d", "Conv", {}, conv3d_to, conv3d_from),
      row("BatchMatMul", "MatMul",
          {{"descriptor.transposeX", "transA", RK::BoolAsInt}, {"descriptor.transposeY", "transB", RK::BoolAsInt}},
          bmm_to),
      // Pooling.
      disc("Pooling2d", "descriptor.poolType", 0, "MaxPool", {}, pool_to, pool_from),
      disc("Pooling2d", "descriptor.poolType", 1, "AveragePool", {}, pool_to, pool_from),
      disc("Pooling2d", "descriptor.poolType", 2, "LpPool", {}, pool_to, pool_from),
      disc("Pooling3d", "descriptor.poolType", 0, "MaxPool", {}, pool3d_to, pool3d_from),
      disc("Pooling3d", "descriptor.poolType", 1, "AveragePool", {}, pool3d_to, pool3d_from),
      disc("Pooling3d", "descriptor.poolType", 2, "LpPool", {}, pool3d_to, pool3d_from),
      // Shape and layout.
      row("Reshape", "Reshape", {{"descriptor.targetShape", "shape"}}),
      row("Transpose", "Transpose", {{"descriptor.dimMappings", "perm"}}),
      row("Permute", "Transpose", {}, permute_to, permute_from),
      row("Concat", "Concat", {}, concat_to, concat_from), row("Merger", "Concat", {}, concat_to, concat_from),
      row("Splitter", "Split", {}, split_to, split_from),
      row("Stack", "Stack", {}, stack_to, stack_from),
      row("Pad", "Pad", {}, pad_to, pad_from),
      row("Slice", "Slice", {}, slice_to, slice_from),
      row("StridedSlice", "StridedSlice",
          {{"descriptor.begin", "begin"}, {"descriptor.end", "end"}, {"descriptor.stride", "strides"},
           {"descriptor.beginMask", "begin_mask"}, {"descriptor.endMask", "end_mask"},
           {"descriptor.shrinkAxisMask", "shrink_axis_mask"}, {"descriptor.ellipsisMask", "ellipsis_mask"},
           {"descriptor.newAxisMask", "new_axis_mask"}}),
      row("Gather", "Gather", {{"descriptor.axis", "axis"}}), row("GatherNd", "GatherND"),
      // ScatterNdFunction as upstream numbers it (Update 0, Add 1, Sub 2, Max 3, Min 4).
      row("ScatterNd", "ScatterND", {}, scatter_to, scatter_from),
      row("Resize", "Resize", {}, resize_to, resize_from), row("ResizeBilinear", "Resize", {}, resize_to, resize_from),
      row("SpaceToBatchNd", "SpaceToBatchND", {{"descriptor.blockShape", "block_shape"}, {"descriptor.padList", "pads"}},
          layout_to, layout_from),
      row("BatchToSpaceNd", "BatchToSpaceND", {{"descriptor.blockShape", "block_shape"}, {"descriptor.crops", "crops"}},
          layout_to, layout_from),
      row("SpaceToDepth", "SpaceToDepth", {{"descriptor.blockSize", "blocksize"}}, layout_to, layout_from),
      row("DepthToSpace", "DepthToSpace", {{"descriptor.blockSize", "blocksize"}}, layout_to, layout_from),
      row("ChannelShuffle", "ChannelShuffle", {{"descriptor.axis", "axis"}, {"descriptor.numGroups", "group"}}),
      // Reductions (Mean before Reduce: Arm NN 20.08 has no Reduce layer).
      row("Mean", "ReduceMean", {{"descriptor.axis", "axes"}, {"descriptor.keepDims", "keepdims", RK::BoolAsInt}}),
      disc("Reduce", "descriptor.reduceOperation", 0, "ReduceSum",
           {{"descriptor.axis", "axes"}, {"descriptor.keepDims", "keepdims", RK::BoolAsInt}}, nullptr, reduce_sum_from),
      disc("Reduce", "descriptor.reduceOperation", 1, "ReduceMax",
           {{"descriptor.axis", "axes"}, {"descriptor.keepDims", "keepdims", RK::BoolAsInt}}),
      disc("Reduce", "descriptor.reduceOperation", 2, "ReduceMean",
           {{"descriptor.axis", "axes"}, {"descriptor.keepDims", "keepdims", RK::BoolAsInt}}),
      disc("Reduce", "descriptor.reduceOperation", 3, "ReduceMin",
           {{"descriptor.axis", "axes"}, {"descriptor.keepDims", "keepdims", RK::BoolAsInt}}),
      disc("Reduce", "descriptor.reduceOperation", 4, "ReduceProd",
           {{"descriptor.axis", "axes"}, {"descriptor.keepDims", "keepdims", RK::BoolAsInt}}),
      disc("ArgMinMax", "descriptor.argMinMaxFunction", 0, "ArgMin", {}, argminmax_to, argminmax_from),
      disc("ArgMinMax", "descriptor.argMinMaxFunction", 1, "ArgMax", {}, argminmax_to, argminmax_from),
      // Normalization.
      row("BatchNormalization", "BatchNormalization", {{"descriptor.eps", "epsilon"}}, layout_to, layout_from,
          {"gamma", "beta", "mean", "variance"}),
      row("InstanceNormalization", "InstanceNormalization",
          {{"descriptor.gamma", "gamma"}, {"descriptor.beta", "beta"}, {"descriptor.eps", "epsilon"}}, layout_to,
          layout_from),
      row("L2Normalization", "LpNormalization", {}, l2norm_to, l2norm_from),
      row("Normalization", "LRN", {{"descriptor.beta", "beta"}, {"descriptor.k", "bias"}, {"descriptor.normSize", "size"}},
          lrn_to, lrn_from),
      // Comparison and logic (Comparison first; Equal/Greater layers are its deprecated forms).
      disc("Comparison", op, 0, "Equal"), disc("Comparison", op, 1, "Greater"),
      disc("Comparison", op, 2, "GreaterOrEqual"), disc("Comparison", op, 3, "Less"),
      disc("Comparison", op, 4, "LessOrEqual"), disc("Comparison", op, 5, "NotEqual"),
      row("Equal", "Equal"), row("Greater", "Greater"),
      disc("LogicalBinary", op, 0, "And"), disc("LogicalBinary", op, 1, "Or"),
      // Types, quantization, misc.
      row("Quantize", "QuantizeLinear"), row("Dequantize", "DequantizeLinear"), row("Cast", "Cast"),
      row("Prelu", "PRelu"), row("Fill", "ConstantOfShape", {{"descriptor.value", "value"}}),
      row("Rank", "Rank"), row("Shape", "Shape"), row("ReverseV2", "ReverseV2"),
      row("Tile", "Tile", {{"descriptor.m_Multiples", "repeats"}}),
  };
  return t;
}

// ConstTensor fields of native layers, in schema order (LSTM parameters are nested one level).
std::vector<std::string> const_fields_of(const reflection::Object& obj) {
  std::vector<std::string> out;
  for (const auto* f : fields_by_id(obj)) {
    const auto* o = field_object(*f);
    if (!o || f->type()->base_type() != reflection::BaseType::Obj) continue;
    std::string name = o->name()->str();
    if (name == "armnnSerializer.ConstTensor") {
      out.push_back(f->name()->str());
    } else if (name.size() > 11 && name.compare(name.size() - 11, 11, "InputParams") == 0) {
      for (const auto* g : fields_by_id(*o)) out.push_back(f->name()->str() + "." + g->name()->str());
    }
  }
  return out;
}

struct Table {
  std::vector<OpRow> rows;
  std::vector<std::vector<const OpRow*>> by_tag;  // indexed by union tag
  std::unordered_map<std::string_view, std::vector<const OpRow*>> by_op;  // keys view rows[i].ir
  std::vector<std::vector<std::string>> skip_top;  // indexed like rows
};

const Table& table() {
  static const Table t = [] {
    Table t;
    t.rows = canonical_rows();
    const char* const* names = armnnSerializer::EnumNamesLayer();
    std::map<std::string, uint8_t> tag_of;
    for (int i = 1; i <= int(armnnSerializer::Layer::MAX); ++i) tag_of[std::string(names[i])] = uint8_t(i);
    std::map<std::string, uint32_t> type_of;
    for (auto v : armnnSerializer::EnumValuesLayerType()) type_of[armnnSerializer::EnumNameLayerType(v)] = uint32_t(v);
    for (const auto& [name, tag] : tag_of) {
      OpRow r;
      r.layer = name.substr(0, name.size() - 5);  // "...Layer"
      t.rows.push_back(r);
    }
    for (auto& r : t.rows) {
      auto it = tag_of.find(r.layer + "Layer");
      if (it == tag_of.end()) throw Error(ErrorId::InvalidOther, "armnn op table: no union member " + r.layer + "Layer");
      r.tag = it->second;
      r.layer_type = type_of.at(r.layer);
      r.object = &object("armnnSerializer." + r.layer + "Layer");
      if (r.const_fields.empty()) r.const_fields = const_fields_of(*r.object);
    }
    t.by_tag.resize(std::size_t(armnnSerializer::Layer::MAX) + 1);
    t.skip_top.resize(t.rows.size());
    for (std::size_t i = 0; i < t.rows.size(); ++i) {
      auto& r = t.rows[i];
      r.ir = r.op.empty() ? "armnn." + r.layer : r.op;
      r.fields_only = !r.to && !r.from;
      auto& skip = t.skip_top[i];
      skip.push_back("base");
      for (const auto& path : r.const_fields) {
        std::string top = path.substr(0, path.find('.'));
        if (std::find(skip.begin(), skip.end(), top) == skip.end()) skip.push_back(top);
      }
    }
    for (const auto& r : t.rows) {
      t.by_tag[r.tag].push_back(&r);
      t.by_op[std::string_view(r.ir)].push_back(&r);
    }
    return t;
  }();
  return t;
}

const AttrSpec* spec_of(const std::string& op, const std::string& attr) {
  const OpSchema* s = find_schema(op);
  return s ? s->find_attr(attr) : nullptr;
}

// Fills the schema defaults of every scalar in every present table, so that comparing with
// what a file holds does not report default-valued fields as differences.
void fill_defaults(const reflection::Object& obj, const std::string& prefix, FieldMap& m) {
  for (const auto* f : fields_by_id(obj)) {
    std::string key = prefix + f->name()->str();
    auto bt = f->type()->base_type();
    if (flatbuffers::IsScalar(bt)) {
      if (!m.count(key)) m[key] = default_of(obj, f->name()->str());
    } else if (bt == reflection::BaseType::Obj && m.count(key)) {
      fill_defaults(*field_object(*f), key + ".", m);
    } else if (bt == reflection::BaseType::Vector && f->type()->element() == reflection::BaseType::Obj &&
               m.count(key) && m.at(key).is<int64_t>()) {
      for (int64_t i = 0; i < m.at(key).get<int64_t>(); ++i)
        fill_defaults(*field_object(*f), key + "[" + std::to_string(i) + "].", m);
    }
  }
}

}  // namespace

const std::vector<OpRow>& op_rows() { return table().rows; }

const std::vector<const OpRow*>& rows_for_tag(uint8_t tag) {
  static const std::vector<const OpRow*> none;
  const auto& t = table();
  return tag < t.by_tag.size() ? t.by_tag[tag] : none;
}

const OpRow* row_for_op(std::string_view op, std::string_view layer) {
  const auto& t = table();
  auto it = t.by_op.find(op);
  if (it == t.by_op.end()) return nullptr;
  if (!layer.empty())
    for (const OpRow* r : it->second)
      if (r->layer == layer) return r;
  return it->second.front();
}

const std::vector<std::string>& skipped_top_fields(const OpRow& row) {
  const auto& t = table();
  return t.skip_top[std::size_t(&row - t.rows.data())];
}

std::size_t layer_type_count() { return std::size_t(armnnSerializer::Layer::MAX); }

std::optional<AttrMap> to_canonical(const OpRow& row, const FieldMap& f, const MapContext& c) {
  if (!row.disc_field.empty() && get_int(f, *row.object, row.disc_field) != row.disc_value) return std::nullopt;
  AttrMap out;
  for (const auto& r : row.renames) {
    auto it = f.find(r.field);
    Attr v = it != f.end() ? it->second : Attr();
    if (it == f.end()) {
      // Absent vectors read as empty lists; absent scalars as the schema default.
      try {
        v = default_of(*row.object, r.field);
      } catch (const Error&) {
        v = Attr(std::vector<int64_t>{});
      }
    }
    out[r.attr] = rename_to_canonical(r, v);
  }
  if (row.to && !row.to(f, *row.object, c, out)) return std::nullopt;
  return out;
}

FieldMap from_canonical(const OpRow& row, const AttrMap& attrs, const MapContext& c) {
  FieldMap f;
  if (row.op.empty()) return f;  // native: every field is an armnn.* attribute
  for (const auto& r : row.renames) {
    const Attr* a = nullptr;
    if (auto it = attrs.find(r.attr); it != attrs.end()) a = &it->second;
    else if (const auto* s = spec_of(row.op, r.attr); s && s->default_value) a = &*s->default_value;
    if (!a) continue;
    f[r.field] = rename_from_canonical(r, *a, row.layer);
  }
  if (row.from) {
    // The transforms see the node's attributes completed with the registry's defaults.
    row.from(with_schema_defaults(row.op, attrs), c, f);
  }
  if (!row.disc_field.empty()) f[row.disc_field] = Attr(row.disc_value);
  if (row.object->fields()->LookupByKey("descriptor") &&
      field_object(*row.object->fields()->LookupByKey("descriptor")))
    f["descriptor"] = Attr(true);
  add_markers(*row.object, f);
  fill_defaults(*row.object, "", f);
  return f;
}

namespace {

// Equal as Arm NN stores them: descriptor floats are float32, so a double attribute that only
// differs past float precision reads back as the same value.
bool same_stored(const Attr& a, const Attr& b) {
  auto f32 = [](double x) { return float(x); };
  if (a.is<double>() && b.is<double>()) return f32(a.get<double>()) == f32(b.get<double>());
  if (a.is<std::vector<double>>() && b.is<std::vector<double>>()) {
    const auto &x = a.get<std::vector<double>>(), &y = b.get<std::vector<double>>();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (f32(x[i]) != f32(y[i])) return false;
    return true;
  }
  if (a.is<bool>() && b.is<int64_t>()) return int64_t(a.get<bool>()) == b.get<int64_t>();
  if (a.is<int64_t>() && b.is<bool>()) return a.get<int64_t>() == int64_t(b.get<bool>());
  return a == b;
}

// An attribute for a message: scalars as written, lists in brackets, strings quoted.
std::string text(const Attr& a) {
  std::ostringstream o;
  auto list = [&](const auto& v, auto one) {
    o << '[';
    for (std::size_t i = 0; i < v.size(); ++i) o << (i ? ", " : "") << one(v[i]);
    o << ']';
  };
  auto id = [](auto x) { return x; };
  auto quote = [](const std::string& x) { return '"' + x + '"'; };
  if (a.is<int64_t>()) o << a.get<int64_t>();
  else if (a.is<double>()) o << a.get<double>();
  else if (a.is<bool>()) o << (a.get<bool>() ? "true" : "false");
  else if (a.is<std::string>()) o << quote(a.get<std::string>());
  else if (a.is<std::vector<int64_t>>()) list(a.get<std::vector<int64_t>>(), id);
  else if (a.is<std::vector<double>>()) list(a.get<std::vector<double>>(), id);
  else if (a.is<std::vector<bool>>()) list(a.get<std::vector<bool>>(), [](bool b) { return b ? "true" : "false"; });
  else if (a.is<std::vector<std::string>>()) list(a.get<std::vector<std::string>>(), quote);
  else o << "<bytes>";
  return o.str();
}

}  // namespace

std::optional<std::string> lost_attribute(const OpRow& row, const AttrMap& attrs, const FieldMap& written,
                                          const MapContext& c) {
  const OpSchema* s = row.op.empty() ? nullptr : find_schema(row.op);
  if (!s) return std::nullopt;
  const std::optional<AttrMap> back = to_canonical(row, written, c);
  if (!back) return "the " + row.layer + " layer written for it would not read back as " + row.op;
  for (const AttrSpec& spec : s->attrs) {
    const Attr* mine = nullptr;
    if (auto it = attrs.find(spec.name); it != attrs.end()) mine = &it->second;
    else if (spec.default_value) mine = &*spec.default_value;
    if (!mine) continue;  // absent without a default: derived from the tensors on both sides
    const Attr* theirs = nullptr;
    if (auto it = back->find(spec.name); it != back->end()) theirs = &it->second;
    else if (spec.default_value) theirs = &*spec.default_value;
    // Absent without a default on the way back ("absent: all 1" dilations of a Pooling2d):
    // the row does not derive it, and nothing says what absent would mean; not judged.
    if (!theirs) continue;
    if (same_stored(*mine, *theirs)) continue;
    return spec.name + " = " + text(*mine) + " has no " + row.layer + " form (it would read back as " +
           text(*theirs) + ")";
  }
  return std::nullopt;
}

}  // namespace nnbridge::formats::armnn
