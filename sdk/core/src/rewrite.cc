// The rewrites of nnbridge/rewrite.h; each rule's source is stated there.
#include "nnbridge/rewrite.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_set>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"
#include "nnbridge/order.h"
#include "rewrite_edit.h"

namespace nnbridge {

namespace {

using Ints = std::vector<int64_t>;

const Attr* find(const Node& n, const char* k) {
  auto it = n.attrs.find(k);
  return it == n.attrs.end() ? nullptr : &it->second;
}
std::string str_or(const Node& n, const char* k, const char* def) {
  const Attr* a = find(n, k);
  return a && a->is<std::string>() ? a->get<std::string>() : def;
}
std::optional<Ints> ints_of(const Node& n, const char* k) {
  const Attr* a = find(n, k);
  if (!a || !a->is<Ints>()) return std::nullopt;
  return a->get<Ints>();
}
const TensorType* type_of(const Graph& g, const Node& n, std::size_t k) {
  if (k >= n.inputs.size() || n.inputs[k] >= g.values.size()) return nullptr;
  return &g.values[n.inputs[k]].type;
}

// Declared parts of `have` win; what it leaves unknown comes from `inferred`.
bool merge(TensorType& have, const TensorType& inferred) {
  bool changed = false;
  if (have.dtype == DataType::Undefined && inferred.dtype != DataType::Undefined) {
    have.dtype = inferred.dtype;
    changed = true;
  }
  if (inferred.unknown_rank) return changed;
  if (have.unknown_rank) {
    have.unknown_rank = false;
    have.shape = inferred.shape;
    return true;
  }
  if (have.shape.size() != inferred.shape.size()) return changed;
  for (std::size_t i = 0; i < have.shape.size(); ++i)
    if (have.shape[i] < 0 && inferred.shape[i] >= 0) {
      have.shape[i] = inferred.shape[i];
      changed = true;
    }
  return changed;
}

}  // namespace

namespace rewrite_detail {

bool infer_node_types(Graph& g, std::size_t i) {
  const Node& n = g.nodes[i];
  bool needed = false;
  for (ValueId v : n.outputs)
    if (v < g.values.size() && !g.values[v].type.fully_known()) needed = true;
  if (!needed) return false;
  std::optional<std::vector<TensorType>> inferred;
  try {
    inferred = infer_types(g, i);
  } catch (const Error&) {
    return false;
  }
  if (!inferred) return false;
  bool changed = false;
  for (std::size_t k = 0; k < n.outputs.size() && k < inferred->size(); ++k) {
    ValueId v = n.outputs[k];
    if (v < g.values.size() && !g.values[v].is_constant() && merge(g.values[v].type, (*inferred)[k])) changed = true;
  }
  return changed;
}

}  // namespace rewrite_detail

std::size_t infer_missing_types(Graph& g) {
  std::vector<std::size_t> order;
  try {
    order = topological_order(g);
  } catch (const Error&) {
    return 0;  // a cycle: the checker and every writer refuse it
  }
  std::size_t changed = 0;
  for (std::size_t i : order)
    if (rewrite_detail::infer_node_types(g, i)) ++changed;
  return changed;
}

std::size_t explicit_transpose_perm(Graph& g) {
  std::size_t changed = 0;
  for (Node& n : g.nodes) {
    if (n.op != "Transpose" || find(n, "perm")) continue;
    const TensorType* x = type_of(g, n, 0);
    if (!x || x->unknown_rank) continue;
    Ints perm(x->shape.size());
    for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = int64_t(perm.size() - 1 - i);
    n.attrs["perm"] = Attr(perm);
    ++changed;
  }
  return changed;
}

std::size_t explicit_pads(Graph& g) {
  std::size_t changed = 0;
  for (Node& n : g.nodes) {
    const bool conv = n.op == "Conv";
    if (!conv && n.op != "MaxPool" && n.op != "AveragePool" && n.op != "LpPool") continue;
    const std::string mode = str_or(n, "auto_pad", "NOTSET");
    if (mode != "SAME_UPPER" && mode != "SAME_LOWER" && mode != "VALID") continue;
    const TensorType* x = type_of(g, n, 0);
    if (!x || x->unknown_rank || x->shape.size() < 3) continue;
    const std::size_t ns = x->shape.size() - 2;
    const bool nhwc = str_or(n, "data_layout", "NCHW") == "NHWC";
    std::optional<Ints> kernel = ints_of(n, "kernel_shape");
    if (!kernel && conv) {
      // W's spatial dims where its layout puts them (OIHW unless kernel_layout says otherwise).
      const TensorType* w = type_of(g, n, 1);
      const std::string kl = str_or(n, "kernel_layout", "OIHW");
      if (w && !w->unknown_rank && w->shape.size() == ns + 2 && (kl == "OIHW" || kl == "OHWI" || kl == "1HWO")) {
        const std::size_t first = kl == "OIHW" ? 2 : 1;
        kernel = Ints(w->shape.begin() + first, w->shape.begin() + first + ns);
      }
    }
    if (!kernel || kernel->size() != ns) continue;
    const Ints strides = ints_of(n, "strides").value_or(Ints(ns, 1));
    const Ints dilations = ints_of(n, "dilations").value_or(Ints(ns, 1));
    if (strides.size() != ns || dilations.size() != ns) continue;
    Ints pads(2 * ns, 0);
    bool known = true;
    for (std::size_t i = 0; i < ns && mode != "VALID"; ++i) {
      const int64_t in = x->shape[nhwc ? 1 + i : 2 + i];
      const int64_t s = strides[i], d = dilations[i], k = (*kernel)[i];
      if (in < 0 || s < 1 || d < 1 || k < 1) {
        known = false;
        break;
      }
      const int64_t out = in / s + (in % s != 0);
      const int64_t total = std::max<int64_t>(0, (out - 1) * s + d * (k - 1) + 1 - in);
      const int64_t small = total / 2, large = total - small;
      pads[i] = mode == "SAME_UPPER" ? small : large;
      pads[i + ns] = mode == "SAME_UPPER" ? large : small;
    }
    if (!known) continue;
    n.attrs["pads"] = Attr(pads);
    n.attrs["auto_pad"] = Attr(std::string("NOTSET"));
    ++changed;
  }
  return changed;
}

namespace {

using OA = OperandAttribute;
using Kind = OperandAttribute::Kind;

// A constant input's elements as int64 (Int32 / Int64), nullopt otherwise.
std::optional<Ints> const_ints(const Value& v) {
  if (!v.constant) return std::nullopt;
  const std::size_t es = v.type.dtype == DataType::Int64 ? 8 : v.type.dtype == DataType::Int32 ? 4 : 0;
  if (es == 0 || v.constant->size() % es) return std::nullopt;
  Ints out(v.constant->size() / es);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (es == 8) {
      std::memcpy(&out[i], v.constant->data() + 8 * i, 8);
    } else {
      int32_t x;
      std::memcpy(&x, v.constant->data() + 4 * i, 4);
      out[i] = x;
    }
  }
  return out;
}

// A constant's elements as double: float32/float64 always; with `integers`, also the integer
// types and bool (their stored values). Quantized, float16 and bfloat16 tensors: nullopt.
std::optional<std::vector<double>> const_numbers(const Value& v, bool integers) {
  if (!v.constant) return std::nullopt;
  const DataType dt = v.type.dtype;
  const std::size_t es = element_size(dt);
  const bool ok = dt == DataType::Float32 || dt == DataType::Float64 ||
                  (integers && (dt == DataType::Int8 || dt == DataType::Int16 || dt == DataType::Int32 ||
                                dt == DataType::Int64 || dt == DataType::UInt8 || dt == DataType::UInt16 ||
                                dt == DataType::UInt32 || dt == DataType::UInt64 || dt == DataType::Bool));
  if (!ok || es == 0 || v.constant->size() % es) return std::nullopt;
  std::vector<double> out(v.constant->size() / es);
  const std::byte* p = v.constant->data();
  for (std::size_t i = 0; i < out.size(); ++i, p += es) {
    switch (dt) {
      case DataType::Float32: { float x; std::memcpy(&x, p, 4); out[i] = x; break; }
      case DataType::Float64: { std::memcpy(&out[i], p, 8); break; }
      case DataType::Int8: { int8_t x; std::memcpy(&x, p, 1); out[i] = x; break; }
      case DataType::Int16: { int16_t x; std::memcpy(&x, p, 2); out[i] = x; break; }
      case DataType::Int32: { int32_t x; std::memcpy(&x, p, 4); out[i] = x; break; }
      case DataType::Int64: { int64_t x; std::memcpy(&x, p, 8); out[i] = double(x); break; }
      case DataType::UInt16: { uint16_t x; std::memcpy(&x, p, 2); out[i] = x; break; }
      case DataType::UInt32: { uint32_t x; std::memcpy(&x, p, 4); out[i] = x; break; }
      case DataType::UInt64: { uint64_t x; std::memcpy(&x, p, 8); out[i] = double(x); break; }
      default: { uint8_t x; std::memcpy(&x, p, 1); out[i] = x; break; }  // UInt8, Bool
    }
  }
  return out;
}

template <class T>
Buffer bytes_of(const std::vector<T>& v) {
  std::vector<std::byte> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return Buffer::owned(std::move(b));
}

// Removes the values in `detached` that nothing reads any more (no node input, not a graph
// input or output) and that are constants, renumbering the rest.
void drop_unread(Graph& g, const std::vector<ValueId>& detached) {
  if (detached.empty()) return;
  const std::size_t nv = g.values.size();
  std::vector<bool> read(nv, false), drop(nv, false);
  for (const Node& n : g.nodes)
    for (ValueId v : n.inputs)
      if (v != kNoValue && v < nv) read[v] = true;
  for (ValueId v : g.inputs)
    if (v < nv) read[v] = true;
  for (ValueId v : g.outputs)
    if (v < nv) read[v] = true;
  for (const Node& n : g.nodes)
    for (ValueId v : n.outputs)
      if (v < nv) read[v] = true;  // a node's output stays whoever reads it
  bool any = false;
  for (ValueId v : detached)
    if (v < nv && !read[v] && g.values[v].constant) drop[v] = any = true;
  if (!any) return;
  drop.flip();
  rewrite_detail::keep_values(g, drop);
}

// Names of every value, for unique names of new constants (built on first use).
class Names {
 public:
  explicit Names(const Graph& g) : g_(g) {}
  std::string unique(const std::string& base) {
    if (!built_) {
      for (const Value& v : g_.values) taken_.insert(v.name);
      built_ = true;
    }
    std::string name = base;
    for (int k = 2; taken_.count(name); ++k) name = base + "_" + std::to_string(k);
    taken_.insert(name);
    return name;
  }

 private:
  const Graph& g_;
  std::unordered_set<std::string> taken_;
  bool built_ = false;
};

// The scalar's dtype (attributes_as_operands in rewrite.h) and its bytes.
Value scalar_value(double x, DataType dtype_of_x) {
  const bool exact32 = double(float(x)) == x || std::isnan(x);
  DataType dt = dtype_of_x == DataType::Float64 ? DataType::Float64 : exact32 ? DataType::Float32 : DataType::Float64;
  Value v;
  v.type = TensorType{dt, {}, false, std::nullopt};
  v.constant = dt == DataType::Float32 ? bytes_of(std::vector<float>{float(x)}) : bytes_of(std::vector<double>{x});
  return v;
}

// The attribute form of node n's operands, as constant inputs (attributes_as_operands).
bool node_attributes_as_operands(Graph& g, std::size_t i, Names& names) {
  // Most nodes have no operand attributes: one lookup instead of a string compare per row.
  static const std::unordered_set<std::string_view> ops = [] {
    std::unordered_set<std::string_view> s;
    for (const OA& o : operand_attributes()) s.insert(o.op);
    return s;
  }();
  if (g.nodes[i].attrs.empty() || !ops.count(g.nodes[i].op)) return false;
  bool changed = false;
  for (const OA& o : operand_attributes()) {
    Node& n = g.nodes[i];
    if (n.op != o.op || n.op == "Tile") continue;
    auto it = n.attrs.find(o.attr);
    if (it == n.attrs.end()) continue;
    Value v;
    const Attr& a = it->second;
    if (o.kind == Kind::Ints && a.is<Ints>()) {
      const Ints& x = a.get<Ints>();
      v.type = TensorType{DataType::Int64, {int64_t(x.size())}, false, std::nullopt};
      v.constant = bytes_of(x);
    } else if (o.kind == Kind::Floats && a.is<std::vector<double>>()) {
      const auto& x = a.get<std::vector<double>>();
      v.type = TensorType{DataType::Float32, {int64_t(x.size())}, false, std::nullopt};
      v.constant = bytes_of(std::vector<float>(x.begin(), x.end()));
    } else if (o.kind == Kind::Scalar && (a.is<double>() || a.is<int64_t>())) {
      const double x = a.is<double>() ? a.get<double>() : double(a.get<int64_t>());
      const DataType xt = !n.inputs.empty() && n.inputs[0] < g.values.size() ? g.values[n.inputs[0]].type.dtype
                                                                            : DataType::Undefined;
      v = scalar_value(x, xt);
    } else {
      continue;  // not the attribute's form: left for the checker to report
    }
    const std::string base = !n.name.empty()                                            ? n.name
                             : !n.outputs.empty() && n.outputs[0] < g.values.size() ? g.values[n.outputs[0]].name
                                                                                      : n.op;
    v.name = names.unique(base + "." + o.name);
    n.attrs.erase(it);
    const ValueId id = g.add_value(std::move(v));
    Node& m = g.nodes[i];  // add_value may not move nodes, but stay safe
    if (m.inputs.size() < o.input + 1) m.inputs.resize(o.input + 1, kNoValue);
    m.inputs[o.input] = id;
    changed = true;
  }
  return changed;
}

}  // namespace

const std::vector<OperandAttribute>& operand_attributes() {
  static const std::vector<OperandAttribute> table = {
      {"Tile", 1, "repeats", Kind::Ints, "repeats"},
      {"Slice", 1, "starts", Kind::Ints, "starts"},
      {"Slice", 2, "ends", Kind::Ints, "ends"},
      {"Slice", 3, "axes", Kind::Ints, "axes"},
      {"Slice", 4, "steps", Kind::Ints, "steps"},
      {"Pad", 1, "pads", Kind::Ints, "pads"},
      {"Pad", 2, "value", Kind::Scalar, "constant_value"},
      {"Split", 1, "split", Kind::Ints, "split"},
      {"Squeeze", 1, "axes", Kind::Ints, "axes"},
      {"Unsqueeze", 1, "axes", Kind::Ints, "axes"},
      {"Clip", 1, "min", Kind::Scalar, "min"},
      {"Clip", 2, "max", Kind::Scalar, "max"},
      {"ReduceSum", 1, "axes", Kind::Ints, "axes"},
      {"Resize", 1, "roi", Kind::Floats, "roi"},
      {"Resize", 2, "scales", Kind::Floats, "scales"},
      {"Resize", 3, "sizes", Kind::Ints, "sizes"},
  };
  return table;
}

std::size_t attributes_as_operands(Graph& g) {
  Names names(g);
  std::size_t changed = 0;
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (node_attributes_as_operands(g, i, names)) ++changed;
  return changed;
}

bool has_operand_inputs(const Node& n) {
  for (const OA& o : operand_attributes())
    if (n.op == o.op && o.input < n.inputs.size() && n.inputs[o.input] != kNoValue) return true;
  return false;
}

std::size_t operands_as_attributes(Graph& g) {
  std::size_t changed = 0;
  std::vector<ValueId> detached;
  for (Node& n : g.nodes) {
    if (!has_operand_inputs(n)) continue;
    AttrMap attrs;
    bool ok = true;
    std::size_t first = SIZE_MAX;
    for (const OA& o : operand_attributes()) {
      if (n.op != o.op) continue;
      first = std::min(first, o.input);
      if (o.input >= n.inputs.size() || n.inputs[o.input] == kNoValue) continue;
      if (n.inputs[o.input] >= g.values.size() || n.attrs.count(o.attr)) {
        ok = false;
        break;
      }
      const Value& v = g.values[n.inputs[o.input]];
      if (o.kind == Kind::Ints) {
        auto x = const_ints(v);
        if (!x) ok = false;
        else attrs[o.attr] = Attr(*x);
      } else {
        auto x = const_numbers(v, o.kind == Kind::Scalar);
        if (!x || (o.kind == Kind::Scalar && x->size() != 1)) ok = false;
        else if (o.kind == Kind::Scalar) attrs[o.attr] = Attr((*x)[0]);
        else if (!(n.op == "Resize" && x->empty())) attrs[o.attr] = Attr(*x);  // Resize-11's empty scales: absent
      }
      if (!ok) break;
    }
    if (!ok) continue;
    // Resize scales whose products with X's dims are whole are those sizes: out / in is then
    // the scale, so the sampling is the same (formats' descriptors hold sizes).
    if (auto sc = attrs.find("scales"); n.op == "Resize" && sc != attrs.end()) {
      const TensorType* x = type_of(g, n, 0);
      const auto& f = sc->second.get<std::vector<double>>();
      Ints sizes;
      if (x && x->fully_known() && x->shape.size() == f.size())
        for (std::size_t k = 0; k < f.size(); ++k) {
          const double p = double(x->shape[k]) * f[k];
          if (!(p >= 0 && p <= 9.0e15 && p == std::floor(p))) break;
          sizes.push_back(int64_t(p));
        }
      if (sizes.size() == f.size() && !attrs.count("sizes")) {
        attrs.erase(sc);
        attrs["sizes"] = Attr(sizes);
      }
    }
    for (std::size_t k = first; k < n.inputs.size(); ++k)
      if (n.inputs[k] != kNoValue) detached.push_back(n.inputs[k]);
    n.inputs.resize(first);
    for (auto& [k, a] : attrs) n.attrs[k] = std::move(a);
    ++changed;
  }
  drop_unread(g, detached);
  return changed;
}

void require_constant_operands(const Graph& g, std::string_view format) {
  for (const Node& n : g.nodes)
    for (const OA& o : operand_attributes()) {
      if (n.op != o.op || o.input >= n.inputs.size() || n.inputs[o.input] == kNoValue) continue;
      const ValueId v = n.inputs[o.input];
      const std::string value = v < g.values.size() ? " ('" + g.values[v].name + "')" : std::string();
      const char* what = o.kind == Kind::Ints ? "an int32/int64 constant" : o.kind == Kind::Scalar
                                                                              ? "a one-element float or integer constant"
                                                                              : "a float constant";
      throw Error(ErrorId::NoForm,
                  "node '" + n.name + "' (" + n.op + "): input " + std::to_string(o.input) + " `" + o.name + "`" + value +
                      " must be " + what + ": " + std::string(format) + " holds it in the operator's fields");
    }
  // Reshape's shape: reshape_shape_as_attribute leaves an input it cannot read (computed at run time).
  for (const Node& n : g.nodes)
    if (n.op == "Reshape" && n.inputs.size() > 1 && n.inputs[1] != kNoValue && !n.attrs.count("shape")) {
      const ValueId v = n.inputs[1];
      const std::string value = v < g.values.size() ? " ('" + g.values[v].name + "')" : std::string();
      throw Error(ErrorId::NoForm, "node '" + n.name + "' (Reshape): input 1 `shape`" + value +
                                              " must be an int64 constant: " + std::string(format) +
                                              " holds the target shape in the operator's fields (a shape computed at run "
                                              "time cannot be written)");
    }
}

std::size_t reshape_shape_as_attribute(Graph& g) {
  std::size_t changed = 0;
  std::vector<ValueId> detached;
  for (Node& n : g.nodes) {
    if (n.op != "Reshape" || n.inputs.size() != 2 || find(n, "shape")) continue;
    if (n.inputs[1] >= g.values.size() || n.outputs.empty() || n.outputs[0] >= g.values.size()) continue;
    const Value& s = g.values[n.inputs[1]];
    if (!s.constant || s.type.dtype != DataType::Int64 || s.constant->size() % sizeof(int64_t)) continue;
    Ints target = *const_ints(s);
    const TensorType& out = g.values[n.outputs[0]].type;
    if (out.fully_known() && out.shape.size() == target.size()) {
      target = out.shape;
    } else {
      const Attr* az = find(n, "allowzero");
      const bool allowzero = az && az->is<int64_t>() && az->get<int64_t>() != 0;
      const TensorType* x = type_of(g, n, 0);
      for (std::size_t i = 0; i < target.size() && !allowzero; ++i)
        if (target[i] == 0) {
          if (!x || x->unknown_rank || i >= x->shape.size() || x->shape[i] < 0) {
            target.clear();
            break;
          }
          target[i] = x->shape[i];
        }
      if (target.empty() && s.constant->size() != 0) continue;
    }
    n.attrs["shape"] = Attr(target);
    detached.push_back(n.inputs[1]);
    n.inputs.pop_back();
    ++changed;
  }
  drop_unread(g, detached);
  return changed;
}

namespace {
bool has_fields_of(const Node& n, std::string_view prefix) {
  if (prefix.empty()) return false;
  auto it = n.attrs.lower_bound(prefix);
  return it != n.attrs.end() && std::string_view(it->first).substr(0, prefix.size()) == prefix;
}
}  // namespace

std::size_t inference_dropout_as_identity(Graph& g) {
  std::vector<bool> read(g.values.size(), false);
  for (const Node& n : g.nodes)
    for (ValueId v : n.inputs)
      if (v < g.values.size()) read[v] = true;
  for (ValueId v : g.outputs)
    if (v < g.values.size()) read[v] = true;
  // The single number of optional input k: `def` when absent, nullopt when not a constant.
  auto number = [&](const Node& n, std::size_t k, double def) -> std::optional<double> {
    if (k >= n.inputs.size() || n.inputs[k] == kNoValue) return def;
    if (n.inputs[k] >= g.values.size()) return std::nullopt;
    const auto v = const_numbers(g.values[n.inputs[k]], true);
    if (!v || v->size() != 1) return std::nullopt;
    return (*v)[0];
  };
  std::size_t changed = 0;
  for (Node& n : g.nodes) {
    if (n.op != "Dropout" || n.inputs.empty() || n.outputs.empty()) continue;
    if (n.outputs.size() > 1 && n.outputs[1] != kNoValue && n.outputs[1] < read.size() && read[n.outputs[1]]) continue;
    const auto ratio = number(n, 1, 0.5), training = number(n, 2, 0.0);
    if (!ratio || !training || (*training != 0 && *ratio != 0)) continue;
    n = Node{"Identity", n.name, {n.inputs[0]}, {n.outputs[0]}, {}};
    ++changed;
  }
  return changed;
}

std::size_t drop_identity(Graph& g, std::string_view keep_prefix) {
  std::vector<std::size_t> order;
  try {
    order = topological_order(g);
  } catch (const Error&) {
    return 0;  // a cycle: the checker and every writer refuse it
  }
  const std::size_t nv = g.values.size();
  std::vector<bool> is_output(nv, false), is_input(nv, false);
  for (ValueId v : g.outputs)
    if (v < nv) is_output[v] = true;
  for (ValueId v : g.inputs)
    if (v < nv) is_input[v] = true;
  std::vector<std::size_t> producer(nv, SIZE_MAX);
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    for (ValueId v : g.nodes[i].outputs)
      if (v < nv) producer[v] = i;
  // renamed[v]: the value readers of v read instead (chains of Identity resolve in turn).
  std::vector<ValueId> renamed(nv);
  for (ValueId v = 0; v < nv; ++v) renamed[v] = v;
  auto resolve = [&](ValueId v) {
    while (v < nv && renamed[v] != v) v = renamed[v];
    return v;
  };
  std::vector<bool> drop(g.nodes.size(), false);
  std::size_t removed = 0;
  for (std::size_t i : order) {
    Node& n = g.nodes[i];
    if (n.op != "Identity" || n.inputs.size() != 1 || n.outputs.size() != 1 || has_fields_of(n, keep_prefix)) continue;
    const ValueId x = resolve(n.inputs[0]), y = n.outputs[0];
    if (x >= nv || y >= nv) continue;
    if (!is_output[y]) {
      renamed[y] = x;
    } else {
      const std::size_t p = producer[x];
      if (p == SIZE_MAX || drop[p] || is_output[x] || is_input[x] || !(g.values[x].type == g.values[y].type)) continue;
      for (ValueId& o : g.nodes[p].outputs)
        if (o == x) o = y;
      producer[y] = p;
      renamed[x] = y;
    }
    drop[i] = true;
    ++removed;
  }
  if (!removed) return 0;
  std::vector<Node> kept;
  kept.reserve(g.nodes.size() - removed);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (drop[i]) continue;
    for (ValueId& v : g.nodes[i].inputs)
      if (v != kNoValue && v < nv) v = resolve(v);
    kept.push_back(std::move(g.nodes[i]));
  }
  g.nodes = std::move(kept);
  return removed;
}

std::size_t global_pools_as_windows(Graph& g) {
  std::size_t changed = 0;
  for (Node& n : g.nodes) {
    if (n.op != "GlobalAveragePool" && n.op != "GlobalMaxPool") continue;
    const TensorType* x = type_of(g, n, 0);
    if (!x || x->unknown_rank || x->shape.size() < 3) continue;
    const bool nhwc = str_or(n, "data_layout", "NCHW") == "NHWC";
    const std::size_t ns = x->shape.size() - 2;
    Ints kernel(ns);
    bool known = true;
    for (std::size_t i = 0; i < ns; ++i) {
      kernel[i] = x->shape[nhwc ? 1 + i : 2 + i];
      known = known && kernel[i] > 0;
    }
    if (!known) continue;
    n.op = n.op == "GlobalAveragePool" ? "AveragePool" : "MaxPool";
    n.attrs["kernel_shape"] = Attr(kernel);
    n.attrs["strides"] = Attr(Ints(ns, 1));
    n.attrs["pads"] = Attr(Ints(2 * ns, 0));
    ++changed;
  }
  return changed;
}

std::size_t shape_ops_as_reshape(Graph& g, std::string_view keep_prefix) {
  std::size_t changed = 0;
  std::vector<ValueId> detached;
  for (Node& n : g.nodes) {
    if (n.op != "Flatten" && n.op != "Squeeze" && n.op != "Unsqueeze") continue;
    if (n.inputs.empty() || n.outputs.size() != 1 || n.outputs[0] >= g.values.size() ||
        has_fields_of(n, keep_prefix))
      continue;
    const TensorType& out = g.values[n.outputs[0]].type;
    if (!out.fully_known()) continue;
    n.op = "Reshape";
    n.attrs.erase("axis");
    n.attrs.erase("axes");
    n.attrs["shape"] = Attr(out.shape);
    // A 0 in the output shape is a zero-size dim, not "copy the input's" (ONNX Reshape-14).
    if (std::find(out.shape.begin(), out.shape.end(), 0) != out.shape.end()) n.attrs["allowzero"] = Attr(int64_t{1});
    for (std::size_t k = 1; k < n.inputs.size(); ++k)
      if (n.inputs[k] != kNoValue) detached.push_back(n.inputs[k]);
    n.inputs.resize(1);
    ++changed;
  }
  drop_unread(g, detached);
  return changed;
}

std::size_t asymmetric_pads_as_pad(Graph& g) {
  std::size_t changed = 0;
  std::unordered_set<std::string> names;
  bool names_built = false;
  const std::size_t count = g.nodes.size();
  Names operand_names(g);
  for (std::size_t i = 0; i < count; ++i) {
    const Node& n = g.nodes[i];
    const bool conv = n.op == "Conv", max = n.op == "MaxPool", avg = n.op == "AveragePool";
    if (!conv && !max && !avg) continue;
    if (str_or(n, "auto_pad", "NOTSET") != "NOTSET") continue;
    if (avg) {
      const Attr* cip = find(n, "count_include_pad");
      if (!cip || !cip->is<int64_t>() || cip->get<int64_t>() != 1) continue;
    }
    if (max && n.outputs.size() > 1) continue;  // the Indices output counts in the unpadded input
    std::optional<Ints> pads = ints_of(n, "pads");
    const TensorType* x = type_of(g, n, 0);
    if (!pads || !x || x->unknown_rank || x->shape.size() < 3 || !is_floating(x->dtype) || x->quantization) continue;
    const std::size_t r = x->shape.size(), ns = r - 2;
    if (pads->size() != 2 * ns) continue;
    bool asymmetric = false;
    for (std::size_t k = 0; k < ns; ++k) asymmetric = asymmetric || (*pads)[k] != (*pads)[k + ns];
    if (!asymmetric) continue;
    const bool nhwc = str_or(n, "data_layout", "NCHW") == "NHWC";
    Ints full(2 * r, 0);
    TensorType padded = *x;
    for (std::size_t k = 0; k < ns; ++k) {
      const std::size_t d = nhwc ? 1 + k : 2 + k;
      full[d] = (*pads)[k];
      full[d + r] = (*pads)[k + ns];
      if (padded.shape[d] >= 0) padded.shape[d] += (*pads)[k] + (*pads)[k + ns];
    }
    if (!names_built) {
      for (const Value& v : g.values) names.insert(v.name);
      names_built = true;
    }
    std::string name = g.values[n.inputs[0]].name + "_padded";
    for (int k = 2; names.count(name); ++k) name = g.values[n.inputs[0]].name + "_padded_" + std::to_string(k);
    names.insert(name);
    const ValueId pv = g.add_value(Value{name, padded, std::nullopt, {}});
    AttrMap pad_attrs{{"pads", Attr(full)}, {"mode", Attr(std::string("constant"))},
                      {"value", Attr(max ? -std::numeric_limits<double>::infinity() : 0.0)}};
    Node pad{"Pad", n.name.empty() ? std::string() : n.name + "_pad", {g.nodes[i].inputs[0]}, {pv}, std::move(pad_attrs)};
    g.nodes[i].inputs[0] = pv;
    g.nodes[i].attrs["pads"] = Attr(Ints(2 * ns, 0));
    g.add_node(std::move(pad));
    node_attributes_as_operands(g, g.nodes.size() - 1, operand_names);  // the canonical Pad takes them as inputs
    ++changed;
  }
  return changed;
}

}  // namespace nnbridge
