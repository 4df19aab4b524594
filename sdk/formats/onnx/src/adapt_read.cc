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

std::string label(const std::string& op_type, const Node& n) {
  return op_type + (n.name.empty() ? std::string() : " '" + n.name + "'");
}

// The constant behind input `p` of `n`, or an Error naming it.
const Value& operand(const Node& n, int p, const Graph& g, const std::string& op_type, const char* attr,
                     const std::string& where) {
  const Value& v = g.values[n.inputs[std::size_t(p)]];
  if (!v.is_constant())
    throw Error(ErrorCode::Unsupported,
                label(op_type, n) + ": input " + std::to_string(p) + " ('" + v.name +
                    "') is not a constant; nnbridge's " + op_type + " takes it as the attribute `" + attr +
                    "` (docs/api.md, ONNX opsets)",
                {}, where + ".input[" + std::to_string(p) + "]");
  return v;
}

[[noreturn]] void unreadable(const Node& n, int p, const Value& v, const std::string& op_type, const char* what,
                             const std::string& where) {
  throw Error(ErrorCode::Unsupported,
              label(op_type, n) + ": input " + std::to_string(p) + " ('" + v.name + "') must be " + what + ", not a " +
                  std::string(to_string(v.type.dtype)) + " tensor of " +
                  (v.type.unknown_rank ? std::string("unknown rank") : "rank " + std::to_string(v.type.shape.size())),
              {}, where + ".input[" + std::to_string(p) + "]");
}

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
  const int first = row->first_operand();
  const std::size_t n_in = first < 0 ? n.inputs.size() : std::min(n.inputs.size(), std::size_t(first));
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

  // Operands: constant inputs that become attributes.
  std::vector<std::string> names;
  for (const Operand& op : row->operands) {
    const int p = op.input;
    if (std::size_t(p) >= n.inputs.size()) break;
    const ValueId id = n.inputs[std::size_t(p)];
    names.push_back(id == kNoValue ? std::string() : g.values[id].name);
    if (id == kNoValue || op.kind == OperandKind::Ignored) continue;
    const Value& v = operand(n, p, g, op_type, op.kind == OperandKind::Scales ? "sizes" : op.attr, where);
    switch (op.kind) {
      case OperandKind::Ints: {
        auto ints = constant_ints(v);
        if (!ints) unreadable(n, p, v, op_type, "an int32 or int64 scalar or 1-D constant", where);
        out[op.attr] = Attr(*ints);
        break;
      }
      case OperandKind::Scalar: {
        auto f = constant_floats(v);
        if (!f || f->size() != 1) unreadable(n, p, v, op_type, "a one-element constant", where);
        out[op.attr] = Attr((*f)[0]);
        break;
      }
      case OperandKind::Scales: {
        auto f = constant_floats(v);
        if (!f || !is_floating(v.type.dtype)) unreadable(n, p, v, op_type, "a 1-D float constant", where);
        if (f->empty()) break;  // Resize-11 writes an empty scales beside sizes
        const TensorType& x = g.values[n.inputs[0]].type;
        if (!x.fully_known() || x.shape.size() != f->size())
          throw Error(ErrorCode::Unsupported,
                      label(op_type, n) + ": scales need X's shape to give the sizes nnbridge's Resize takes, and X ('" +
                          g.values[n.inputs[0]].name + "') has " +
                          (x.fully_known() ? "rank " + std::to_string(x.shape.size()) : std::string("no known shape")),
                      {}, where + ".input[2]");
        std::vector<int64_t> sizes;
        for (std::size_t i = 0; i < f->size(); ++i) {
          const double s = double(x.shape[i]) * (*f)[i];
          if (!(s >= 0) || s != std::floor(s) || s > 9.0e15)
            throw Error(ErrorCode::Unsupported,
                        label(op_type, n) + ": scale " + std::to_string((*f)[i]) + " of dim " + std::to_string(i) + " (size " +
                            std::to_string(x.shape[i]) +
                            ") does not give a whole output size; nnbridge's Resize takes sizes, which would change the "
                            "sampling ONNX derives from the scale",
                        {}, where + ".input[2]");
          sizes.push_back(int64_t(s));
        }
        out["sizes"] = Attr(sizes);
        break;
      }
      case OperandKind::Ignored: break;
    }
  }
  if (row->special == Special::Resize) {
    auto mode = out.find("coordinate_transformation_mode");
    if (mode != out.end() && mode->second.is<std::string>() && mode->second.get<std::string>() == "tf_crop_and_resize")
      return false;  // reads roi: native
    if (!out.count("sizes"))
      throw Error(ErrorCode::Unsupported, label(op_type, n) + ": neither scales nor sizes is given", {}, where);
  }
  if (first >= 0) {
    if (std::size_t(first) < n.inputs.size()) out[keys::kOperands] = Attr(names);
    n.inputs.resize(n_in);
  }
  if (!implied.empty()) out[keys::kImplied] = Attr(implied);
  n.op = row->op;
  for (auto& [k, v] : out) n.attrs[k] = std::move(v);
  return true;
}

}  // namespace nnbridge::formats::onnx
