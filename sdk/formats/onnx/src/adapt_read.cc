// ONNX node -> IR node (the reader's direction of ops.cc).
#include <algorithm>
#include <cmath>

#include "adapt.h"
#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"
#include "onnx/defs/schema.h"
#include "ops.h"

namespace nnbridge::formats::onnx {

namespace {

bool same_kind(AttrType onnx, AttrType canonical) { return onnx == canonical; }

}  // namespace

void to_native(const std::string& op_type, const OnnxAttrs& attrs, Node& n) {
  n.op = "onnx." + op_type;
  for (const auto& [name, a] : attrs) n.attrs[a.is<Bytes>() ? keys::kTensorAttrPrefix + name : name] = a;
}

bool to_canonical(const std::string& op_type, const OnnxAttrs& attrs, Node& n, Graph& g, const std::string& where) {
  const OpRow* row = row_for_onnx(op_type);
  if (!row) return false;
  const OpSchema* schema = find_schema(row->op);
  const ::onnx::OpSchema* onnx_schema = ::onnx::OpSchemaRegistry::Schema(op_type, int(kOpset), "");
  if (!schema || !onnx_schema) return false;
  const std::size_t n_in = n.inputs.size();
  auto fits = [](std::size_t k, int lo, int hi) { return int(k) >= lo && (hi < 0 || int(k) <= hi); };
  if (!fits(n_in, schema->min_inputs, schema->max_inputs) || !fits(n.outputs.size(), schema->min_outputs, schema->max_outputs))
    return false;

  AttrMap out;
  std::vector<std::string> implied;
  for (const auto& entry : attrs) {
    const auto& name = entry.first;  // not structured bindings: lambdas capture them (clang 14)
    const auto& a = entry.second;
    if (!onnx_schema->attributes().count(name)) return false;  // not ONNX's own: the checker refuses it
    if (row->dtype_attr && name == row->dtype_attr) {
      if (!a.is<int64_t>()) return false;
      auto dt = dtype_from_onnx(int32_t(a.get<int64_t>()));
      if (!dt || *dt == DataType::Undefined) return false;  // uint16, string, ...: native Cast
      out[name] = Attr(std::string(to_string(*dt)));
      continue;
    }
    if (row->special == Special::ConstantOfShape && name == "value") {
      if (!a.is<Bytes>()) return false;
      ::onnx::TensorProto t;
      const auto& b = a.get<Bytes>().data;
      if (!t.ParseFromArray(b.data(), int(b.size()))) return false;
      DecodedTensor d;
      try {
        d = decode_tensor(t, nullptr, ExternalData{}, where);
      } catch (const Error&) {
        return false;
      }
      if (d.type.element_count() != 1) return false;
      Value tmp;
      tmp.type = d.type;
      tmp.type.shape = {1};
      tmp.constant = d.data;
      auto f = constant_floats(tmp);
      if (!f) return false;
      out["value"] = Attr((*f)[0]);
      out[keys::kTensorAttrPrefix + name] = a;  // name, dims and storage as written
      Value& y = g.values[n.outputs[0]];
      // ConstantOfShape-9: the output has value's type. A file that declares another keeps its
      // node as it is (native), so that nothing is read with one type and written with the other.
      if (y.type.dtype != DataType::Undefined && y.type.dtype != d.type.dtype) return false;
      if (y.type.dtype == DataType::Undefined) y.type.dtype = d.type.dtype;
      continue;
    }
    if (auto k = std::find_if(row->kept.begin(), row->kept.end(), [&](const KeptAttr& x) { return name == x.name; });
        k != row->kept.end()) {
      if (!k->any && !(k->neutral && *k->neutral == a)) return false;
      out[keys::kKeptPrefix + name] = a;
      continue;
    }
    const AttrSpec* spec = schema->find_attr(name);
    if (!spec || a.is<Bytes>() || !same_kind(a.type(), spec->type)) return false;
    out[name] = a;
  }
  for (const OnnxDefault& d : row->defaults)
    if (!out.count(d.name)) {
      out[d.name] = d.value;
      implied.push_back(d.name);
    }

  if (!implied.empty()) out[keys::kImplied] = Attr(implied);
  n.op = row->op;
  for (auto& [k, v] : out) n.attrs[k] = std::move(v);
  return true;
}

}  // namespace nnbridge::formats::onnx
