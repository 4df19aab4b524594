#include "attrs.h"

#include <google/protobuf/reflection.h>
#include <google/protobuf/unknown_field_set.h>

#include "nnbridge/error.h"

namespace nnbridge::formats::onnx {

using ::onnx::AttributeProto;

Attr attr_from_onnx(const AttributeProto& a, const std::string& where) {
  if (a.has_ref_attr_name())
    throw Error(ErrorId::Feature, "references to function attributes have no nnbridge form", {}, where + ".ref_attr_name");
  switch (a.type()) {
    case AttributeProto::INT: return Attr(int64_t(a.i()));
    case AttributeProto::FLOAT: return Attr(double(a.f()));
    case AttributeProto::STRING: return Attr(a.s());
    case AttributeProto::INTS: return Attr(std::vector<int64_t>(a.ints().begin(), a.ints().end()));
    case AttributeProto::FLOATS: {
      std::vector<double> v;
      for (float f : a.floats()) v.push_back(f);
      return Attr(v);
    }
    case AttributeProto::STRINGS: return Attr(std::vector<std::string>(a.strings().begin(), a.strings().end()));
    case AttributeProto::TENSOR: {
      const std::string s = a.t().SerializeAsString();
      return Attr(Bytes{std::vector<uint8_t>(s.begin(), s.end())});
    }
    case AttributeProto::GRAPH:
    case AttributeProto::GRAPHS:
      throw Error(ErrorId::Feature, "graph-valued attributes (If / Loop / Scan bodies) have no nnbridge form", {},
                  where + (a.type() == AttributeProto::GRAPH ? ".g" : ".graphs"));
    case AttributeProto::SPARSE_TENSOR:
    case AttributeProto::SPARSE_TENSORS:
      throw Error(ErrorId::Feature, "sparse-tensor attributes have no nnbridge form", {}, where + ".sparse_tensor");
    case AttributeProto::TYPE_PROTO:
    case AttributeProto::TYPE_PROTOS:
      throw Error(ErrorId::Feature, "type-valued attributes have no nnbridge form", {}, where + ".tp");
    case AttributeProto::TENSORS:
      throw Error(ErrorId::Feature, "tensor-list attributes have no nnbridge form", {}, where + ".tensors");
    default:
      throw Error(ErrorId::BadEncoding, "attribute '" + a.name() + "' has no type", {}, where + ".type");
  }
}

void attr_to_onnx(const std::string& name, const Attr& a, AttributeProto& out, const std::string& where) {
  out.set_name(name);
  switch (a.type()) {
    case AttrType::Int:
      out.set_type(AttributeProto::INT);
      out.set_i(a.get<int64_t>());
      break;
    case AttrType::Bool:
      out.set_type(AttributeProto::INT);
      out.set_i(a.get<bool>() ? 1 : 0);
      break;
    case AttrType::Float:
      out.set_type(AttributeProto::FLOAT);
      out.set_f(float(a.get<double>()));
      break;
    case AttrType::String:
      out.set_type(AttributeProto::STRING);
      out.set_s(a.get<std::string>());
      break;
    case AttrType::Ints:
      out.set_type(AttributeProto::INTS);
      for (int64_t v : a.get<std::vector<int64_t>>()) out.add_ints(v);
      break;
    case AttrType::Bools:
      out.set_type(AttributeProto::INTS);
      for (bool v : a.get<std::vector<bool>>()) out.add_ints(v ? 1 : 0);
      break;
    case AttrType::Floats:
      out.set_type(AttributeProto::FLOATS);
      for (double v : a.get<std::vector<double>>()) out.add_floats(float(v));
      break;
    case AttrType::Strings:
      out.set_type(AttributeProto::STRINGS);
      for (const auto& v : a.get<std::vector<std::string>>()) out.add_strings(v);
      break;
    case AttrType::Bytes: {
      const auto& b = a.get<Bytes>().data;
      out.set_type(AttributeProto::TENSOR);
      if (!out.mutable_t()->ParseFromArray(b.data(), int(b.size())))
        throw Error(ErrorId::AttributeValue, "the bytes of attribute '" + name + "' are not a TensorProto", {}, where);
      break;
    }
  }
}

std::string first_unknown_field(const google::protobuf::Message& m, const std::string& path) {
  const auto* refl = m.GetReflection();
  const auto& unknown = refl->GetUnknownFields(m);
  if (unknown.field_count() > 0)
    return (path.empty() ? std::string("(model)") : path) + ": field " + std::to_string(unknown.field(0).number());
  std::vector<const google::protobuf::FieldDescriptor*> fields;
  refl->ListFields(m, &fields);
  for (const auto* f : fields) {
    if (f->cpp_type() != google::protobuf::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    const std::string p = path.empty() ? f->name() : path + "." + f->name();
    if (f->is_repeated()) {
      const int n = refl->FieldSize(m, f);
      for (int i = 0; i < n; ++i) {
        auto s = first_unknown_field(refl->GetRepeatedMessage(m, f, i), p + "[" + std::to_string(i) + "]");
        if (!s.empty()) return s;
      }
    } else {
      auto s = first_unknown_field(refl->GetMessage(m, f), p);
      if (!s.empty()) return s;
    }
  }
  return {};
}

}  // namespace nnbridge::formats::onnx
