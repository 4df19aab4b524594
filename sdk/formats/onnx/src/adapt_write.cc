// IR node -> ONNX node (the writer's direction of ops.cc).
#include <algorithm>
#include <cmath>

#include "adapt.h"
#include "attrs.h"
#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"
#include "onnx/defs/schema.h"
#include "ops.h"

namespace nnbridge::formats::onnx {

namespace {

using Ints = std::vector<int64_t>;

const Attr* find(const AttrMap& a, const std::string& k) {
  auto it = a.find(k);
  return it == a.end() ? nullptr : &it->second;
}
template <class T>
const T* get(const AttrMap& a, const std::string& k) {
  const Attr* x = find(a, k);
  return x && x->is<T>() ? &x->get<T>() : nullptr;
}

std::string label(const Node& n) { return n.op + (n.name.empty() ? std::string() : " '" + n.name + "'"); }

[[noreturn]] void refuse(ErrorId id, const Node& n, const std::string& where, const std::string& msg) {
  throw Error(id, label(n) + ": " + msg, {}, where);
}

// The attribute list in the order the node records (kAttrOrder), the rest by name.
void emit(std::vector<std::pair<std::string, Attr>> attrs, const Node& n, ::onnx::NodeProto& out, const std::string& where) {
  const auto* order = get<std::vector<std::string>>(n.attrs, keys::kAttrOrder);
  auto rank = [&](const std::string& name) -> std::size_t {
    if (order)
      if (auto it = std::find(order->begin(), order->end(), name); it != order->end()) return std::size_t(it - order->begin());
    return SIZE_MAX;
  };
  std::stable_sort(attrs.begin(), attrs.end(), [&](const auto& a, const auto& b) {
    const std::size_t ra = rank(a.first), rb = rank(b.first);
    return ra != rb ? ra < rb : a.first < b.first;
  });
  for (const auto& [name, a] : attrs) {
    auto* p = out.add_attribute();
    attr_to_onnx(name, a, *p, where);
    if (const auto* doc = get<std::string>(n.attrs, keys::kAttrDocPrefix + name)) p->set_doc_string(*doc);
  }
}

std::string input_name(const Node& n, std::size_t i, const NodeWriter& w) {
  const ValueId id = n.inputs[i];
  return id == kNoValue ? std::string() : w.names[id];
}

void io(const Node& n, std::size_t n_inputs, ::onnx::NodeProto& out, const NodeWriter& w) {
  for (std::size_t i = 0; i < n_inputs; ++i) out.add_input(input_name(n, i, w));
  for (ValueId id : n.outputs) out.add_output(w.names[id]);
  if (const auto* t = get<int64_t>(n.attrs, keys::kTrailingAbsent))
    for (int64_t i = 0; i < *t; ++i) out.add_output("");
  if (const auto* d = get<std::string>(n.attrs, keys::kNodeDomain)) out.set_domain(*d);
}

// The canonical attribute's value on the node, else its schema default.
const Attr* value_of(const Node& n, const OpSchema* s, const std::string& name) {
  if (const Attr* a = find(n.attrs, name)) return a;
  if (s)
    if (const AttrSpec* spec = s->find_attr(name); spec && spec->default_value) return &*spec->default_value;
  return nullptr;
}

std::string operand_hint(const Node& n, const NodeWriter& w, const char* attr) {
  const std::string base = !n.name.empty() ? n.name : !n.outputs.empty() ? w.names[n.outputs[0]] : n.op;
  return base + "_" + attr;
}

// The attribute form of an input (Reshape-1's shape, Tile's repeats) as a new int64 initializer.
std::string ints_operand(const Node& n, const Ints& want, NodeWriter& w, const char* attr) {
  ::onnx::TensorProto t;
  make_int64_tensor("", want, t);
  return w.add_initializer(operand_hint(n, w, attr), std::move(t));
}

void write_native(const Node& n, ::onnx::NodeProto& out, NodeWriter& w, const std::string& where) {
  out.set_op_type(n.op.substr(5));
  io(n, n.inputs.size(), out, w);
  std::vector<std::pair<std::string, Attr>> attrs;
  for (const auto& [k, a] : n.attrs) {
    if (k.rfind(keys::kTensorAttrPrefix, 0) == 0) attrs.emplace_back(k.substr(keys::kTensorAttrPrefix.size()), a);
    else if (k.find('.') == std::string::npos) attrs.emplace_back(k, a);
  }
  emit(std::move(attrs), n, out, where);
}

}  // namespace

void write_node(const Node& n, ::onnx::NodeProto& out, NodeWriter& w, const std::string& where) {
  if (n.op.rfind("onnx.", 0) == 0) return write_native(n, out, w, where);
  if (n.op.find('.') != std::string::npos) refuse(ErrorId::NoForm, n, where, "a format-native op of another format has no ONNX form");
  const OpRow* row = row_for_canonical(n.op);
  if (!row) refuse(ErrorId::NoForm, n, where, "the canonical op " + n.op + " has no ONNX opset-17 operator");
  const OpSchema* s = find_schema(n.op);
  const ::onnx::OpSchema* os = ::onnx::OpSchemaRegistry::Schema(row->op_type, int(kOpset), "");
  out.set_op_type(row->op_type);
  io(n, n.inputs.size(), out, w);

  for (const FixedAttr& f : row->fixed) {
    const Attr* v = value_of(n, s, f.name);
    if (!v) continue;
    if ((f.value && !(*v == *f.value)) || (f.ok && !f.ok(*v)))
      refuse(ErrorId::NoForm, n, where + ".attrs." + f.name, std::string("attribute ") + f.name + " has a value ONNX cannot express (" + f.why + ")");
  }
  std::vector<std::pair<std::string, Attr>> attrs;
  const auto* implied = get<std::vector<std::string>>(n.attrs, keys::kImplied);
  auto is_operand = [&](const std::string& k) {
    return std::any_of(row->attr_operands.begin(), row->attr_operands.end(), [&](const Operand& o) { return k == o.attr; });
  };
  for (const auto& entry : n.attrs) {
    const auto& k = entry.first;  // not structured bindings: lambdas capture them (clang 14)
    const auto& a = entry.second;
    if (k.rfind(keys::kKeptPrefix, 0) == 0) {
      attrs.emplace_back(k.substr(keys::kKeptPrefix.size()), a);
      continue;
    }
    if (k.find('.') != std::string::npos || is_operand(k)) continue;
    if (std::any_of(row->defaults.begin(), row->defaults.end(), [&](const OnnxDefault& d) { return k == d.name; })) continue;
    if (row->dtype_attr && k == row->dtype_attr) {
      auto dt = a.is<std::string>() ? parse_data_type(a.get<std::string>()) : std::nullopt;
      auto et = dt ? dtype_to_onnx(*dt) : std::nullopt;
      if (!et || *et == 0) refuse(ErrorId::DataType, n, where + ".attrs." + k, "names a dtype ONNX has no type for");
      attrs.emplace_back(k, Attr(int64_t(*et)));
      continue;
    }
    if (row->special == Special::ConstantOfShape && k == "value") continue;
    if (os && !os->attributes().count(k)) {
      // A canonical attribute ONNX's operator lacks: only its default means what ONNX computes.
      const AttrSpec* spec = s ? s->find_attr(k) : nullptr;
      if (spec && spec->default_value && *spec->default_value == a) continue;
      refuse(ErrorId::NoForm, n, where + ".attrs." + k, "attribute " + k + " has no ONNX " + row->op_type + "-" + std::to_string(kOpset) +
                                           " form (only its default does)");
    }
    attrs.emplace_back(k, a);
  }
  if (row->special == Special::Cast && !n.attrs.count("to")) {
    const DataType dt = n.outputs.empty() ? DataType::Undefined : w.g.values[n.outputs[0]].type.dtype;
    auto et = dtype_to_onnx(dt);
    if (!et || *et == 0) refuse(ErrorId::DataType, n, where, "Cast without `to` needs an output dtype ONNX has a type for");
    attrs.emplace_back("to", Attr(int64_t(*et)));
  }
  if (row->special == Special::ConstantOfShape) {
    const DataType dt = n.outputs.empty() ? DataType::Undefined : w.g.values[n.outputs[0]].type.dtype;
    const double value = get<double>(n.attrs, "value") ? *get<double>(n.attrs, "value") : 0.0;
    const DataType want = dt == DataType::Undefined ? DataType::Float32 : dt;
    auto et = dtype_to_onnx(want);
    if (!et) refuse(ErrorId::DataType, n, where, "the output dtype " + std::string(to_string(want)) + " has no ONNX type");
    const Attr* kept = find(n.attrs, keys::kTensorAttrPrefix + "value");
    bool reuse = false;
    if (kept && kept->is<Bytes>()) {
      ::onnx::TensorProto t;
      const auto& b = kept->get<Bytes>().data;
      if (t.ParseFromArray(b.data(), int(b.size())) && t.data_type() == *et) {
        Value tmp;
        try {
          DecodedTensor d = decode_tensor(t, nullptr, ExternalData{}, where);
          tmp.type = d.type;
          tmp.type.shape = {1};
          tmp.constant = d.data;
          auto f = constant_floats(tmp);
          reuse = d.type.element_count() == 1 && f && (*f)[0] == value;
        } catch (const Error&) {
        }
      }
    }
    if (reuse) {
      attrs.emplace_back("value", *kept);
    } else if (n.attrs.count("value") || dt != DataType::Undefined) {
      ::onnx::TensorProto t;
      make_tensor("value", *et, {value}, {1}, t);
      const std::string bytes = t.SerializeAsString();
      attrs.emplace_back("value", Attr(Bytes{std::vector<uint8_t>(bytes.begin(), bytes.end())}));
    }
  }
  for (const OnnxDefault& d : row->defaults) {
    const Attr* v = value_of(n, s, d.name);
    if (!v) continue;
    const bool was_implied = implied && std::find(implied->begin(), implied->end(), d.name) != implied->end();
    if (was_implied && *v == d.value) continue;
    attrs.emplace_back(d.name, *v);
  }
  emit(std::move(attrs), n, out, where);

  for (const Operand& op : row->attr_operands) {
    const Ints* v = get<Ints>(n.attrs, op.attr);
    if (!v) continue;
    if (n.inputs.size() > std::size_t(op.input))
      refuse(ErrorId::NoForm, n, where, std::string("has both the attribute ") + op.attr + " and input " + std::to_string(op.input));
    while (out.input_size() < op.input) out.add_input("");
    out.add_input(ints_operand(n, *v, w, op.attr));
  }
}

}  // namespace nnbridge::formats::onnx
