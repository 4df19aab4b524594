#include "types.h"

#include "nnbridge/error.h"

namespace nnbridge::formats::onnx {

namespace {

const std::string* str(const AttrMap& a, const std::string& k) {
  auto it = a.find(k);
  return it != a.end() && it->second.is<std::string>() ? &it->second.get<std::string>() : nullptr;
}
const std::vector<std::string>* strs(const AttrMap& a, const std::string& k) {
  auto it = a.find(k);
  return it != a.end() && it->second.is<std::vector<std::string>>() ? &it->second.get<std::vector<std::string>>() : nullptr;
}
bool flag(const AttrMap& a, const std::string& k) {
  auto it = a.find(k);
  return it != a.end() && it->second.is<bool>() && it->second.get<bool>();
}

}  // namespace

void type_from_onnx(const ::onnx::ValueInfoProto& info, Value& v, const std::string& where) {
  v.type = TensorType{};
  v.type.unknown_rank = true;
  if (info.has_doc_string()) v.attrs[keys::kValueDocString] = Attr(info.doc_string());
  if (!info.has_type()) {
    v.attrs[keys::kTypeAbsent] = Attr(true);
    return;
  }
  const auto& tp = info.type();
  if (tp.has_denotation()) v.attrs[keys::kDenotation] = Attr(tp.denotation());
  switch (tp.value_case()) {
    case ::onnx::TypeProto::kTensorType: break;
    case ::onnx::TypeProto::kSequenceType:
      throw Error(ErrorId::Feature, "sequence types have no nnbridge form", {}, where + ".type.sequence_type");
    case ::onnx::TypeProto::kMapType:
      throw Error(ErrorId::Feature, "map types have no nnbridge form", {}, where + ".type.map_type");
    case ::onnx::TypeProto::kOptionalType:
      throw Error(ErrorId::Feature, "optional types have no nnbridge form", {}, where + ".type.optional_type");
    case ::onnx::TypeProto::kSparseTensorType:
      throw Error(ErrorId::Feature, "sparse tensors have no nnbridge form", {}, where + ".type.sparse_tensor_type");
    default:
      throw Error(ErrorId::Feature, "a type that is not a tensor has no nnbridge form", {}, where + ".type");
  }
  const auto& tt = tp.tensor_type();
  if (!tt.has_elem_type()) v.attrs[keys::kElemTypeAbsent] = Attr(true);
  auto dt = dtype_from_onnx(tt.elem_type());
  if (!dt)
    throw Error(ErrorId::DataType,
                tt.elem_type() == ::onnx::TensorProto::STRING ? "string tensors have no nnbridge dtype"
                                                               : "elem_type " + onnx_type_name(tt.elem_type()) + " has no nnbridge dtype",
                {}, where + ".type.tensor_type.elem_type");
  v.type.dtype = *dt;
  if (!tt.has_shape()) return;
  v.type.unknown_rank = false;
  std::vector<std::string> params, denotations;
  bool any_param = false, any_denotation = false;
  for (int i = 0; i < tt.shape().dim_size(); ++i) {
    const auto& d = tt.shape().dim(i);
    int64_t dim = -1;
    std::string param;
    if (d.has_dim_value()) {
      if (d.dim_value() < 0)
        throw Error(ErrorId::BadEncoding, "a negative dim_value (" + std::to_string(d.dim_value()) + ")", {},
                    where + ".type.tensor_type.shape.dim[" + std::to_string(i) + "]");
      dim = d.dim_value();
    } else if (d.has_dim_param()) {
      param = d.dim_param();
      any_param = true;
    }
    v.type.shape.push_back(dim);
    params.push_back(param);
    denotations.push_back(d.denotation());
    any_denotation = any_denotation || d.has_denotation();
  }
  if (any_param) v.attrs[keys::kDimParams] = Attr(params);
  if (any_denotation) v.attrs[keys::kDimDenotations] = Attr(denotations);
}

::onnx::ValueInfoProto type_to_onnx(const Value& v) {
  ::onnx::ValueInfoProto info;
  info.set_name(v.name);
  if (const auto* d = str(v.attrs, keys::kValueDocString)) info.set_doc_string(*d);
  if (flag(v.attrs, keys::kTypeAbsent)) return info;
  auto* tp = info.mutable_type();
  if (const auto* d = str(v.attrs, keys::kDenotation)) tp->set_denotation(*d);
  auto* tt = tp->mutable_tensor_type();
  if (!flag(v.attrs, keys::kElemTypeAbsent)) tt->set_elem_type(dtype_to_onnx(v.type.dtype).value_or(0));
  if (v.type.unknown_rank) return info;
  auto* shape = tt->mutable_shape();
  const auto* params = strs(v.attrs, keys::kDimParams);
  const auto* denotations = strs(v.attrs, keys::kDimDenotations);
  for (std::size_t i = 0; i < v.type.shape.size(); ++i) {
    auto* d = shape->add_dim();
    if (v.type.shape[i] >= 0) d->set_dim_value(v.type.shape[i]);
    else if (params && i < params->size() && !(*params)[i].empty()) d->set_dim_param((*params)[i]);
    if (denotations && i < denotations->size() && !(*denotations)[i].empty()) d->set_denotation((*denotations)[i]);
  }
  return info;
}

::onnx::ValueInfoProto type_of_constant(const Value& v) {
  ::onnx::ValueInfoProto info;
  info.set_name(v.name);
  auto* tt = info.mutable_type()->mutable_tensor_type();
  tt->set_elem_type(dtype_to_onnx(v.type.dtype).value_or(0));
  auto* shape = tt->mutable_shape();
  for (int64_t d : v.type.shape) shape->add_dim()->set_dim_value(d);
  return info;
}

}  // namespace nnbridge::formats::onnx
