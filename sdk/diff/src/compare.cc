// diff(): the comparison of two graphs in normal form once they are paired (nnbridge/diff.h).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "nnbridge/attr_text.h"
#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "nnbridge/op_schema.h"

namespace nnbridge {

namespace diff_detail {
std::string shape_text(const TensorType& t);
std::string quantization_text(const TensorType& t);
}  // namespace diff_detail

namespace {

using namespace diff_detail;

const std::string kAbsent = "(absent)";

std::string value_name(const Graph& g, ValueId v) {
  if (v == kNoValue) return kAbsent;
  return v < g.values.size() ? g.values[v].name : std::string();
}

// Attributes equal, floats (and lists of floats) compared once rounded to float32.
bool equal_as_float32(const Attr& x, const Attr& y) {
  auto same = [](double a, double b) {
    const float fa = static_cast<float>(a), fb = static_cast<float>(b);
    return fa == fb || (std::isnan(fa) && std::isnan(fb));
  };
  if (x.is<double>() && y.is<double>()) return same(x.get<double>(), y.get<double>());
  if (x.is<std::vector<double>>() && y.is<std::vector<double>>()) {
    const auto &a = x.get<std::vector<double>>(), &b = y.get<std::vector<double>>();
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!same(a[i], b[i])) return false;
    return true;
  }
  return x == y;
}

class Comparer {
 public:
  Comparer(const Graph& a, const Graph& b, const DiffOptions& o, GraphDiff& out)
      : a_(a), b_(b), o_(o), out_(out), m_(match(a, b, o.ignore_names)) {
    type_done_.assign(a.values.size(), false);
    attrs_done_.assign(a.values.size(), false);
  }

  void run() {
    out_.inputs = m_.inputs;
    out_.outputs = m_.outputs;
    out_.nodes = m_.nodes;
    graph_level();
    std::vector<bool> a_in(a_.inputs.size(), false), b_in(b_.inputs.size(), false);
    for (const auto& [i, j] : m_.inputs) {
      a_in[i] = b_in[j] = true;
      Difference d = base(DiffSubject::Input, i, j, a_.inputs[i], b_.inputs[j]);
      name_difference(d, value_name(a_, a_.inputs[i]), value_name(b_, b_.inputs[j]));
      value_types(d, a_.inputs[i], b_.inputs[j]);
      value_attrs(d, a_.inputs[i], b_.inputs[j]);
    }
    for (std::size_t i = 0; i < a_in.size(); ++i)
      if (!a_in[i]) only(DiffKind::OnlyInA, DiffSubject::Input, i, value_name(a_, a_.inputs[i]), "");
    std::vector<bool> b_node_paired(b_.nodes.size(), false);
    std::vector<std::size_t> a_pair(a_.nodes.size(), SIZE_MAX);
    for (const NodeMatch& nm : m_.nodes) a_pair[nm.a] = nm.b, b_node_paired[nm.b] = true;
    for (std::size_t i = 0; i < a_.nodes.size(); ++i) {
      if (a_pair[i] == SIZE_MAX) only(DiffKind::OnlyInA, DiffSubject::Node, i, a_.nodes[i].name, a_.nodes[i].op);
      else node_pair(i, a_pair[i]);
    }
    std::vector<bool> a_out(a_.outputs.size(), false), b_out(b_.outputs.size(), false);
    for (const auto& [i, j] : m_.outputs) {
      a_out[i] = b_out[j] = true;
      const ValueId va = a_.outputs[i], vb = b_.outputs[j];
      Difference d = base(DiffSubject::Output, i, j, va, vb);
      name_difference(d, value_name(a_, va), value_name(b_, vb));
      const ValueId want = va < m_.a_to_b.size() ? m_.a_to_b[va] : kNoValue;
      if (want != kNoValue && want != vb) {
        Difference w = d;
        wiring(w, va, vb, "", "");
      }
      value_types(d, va, vb);
      value_attrs(d, va, vb);
    }
    for (std::size_t i = 0; i < a_out.size(); ++i)
      if (!a_out[i]) only(DiffKind::OnlyInA, DiffSubject::Output, i, value_name(a_, a_.outputs[i]), "");
    for (std::size_t j = 0; j < b_in.size(); ++j)
      if (!b_in[j]) only(DiffKind::OnlyInB, DiffSubject::Input, j, value_name(b_, b_.inputs[j]), "");
    for (std::size_t j = 0; j < b_.nodes.size(); ++j)
      if (!b_node_paired[j]) only(DiffKind::OnlyInB, DiffSubject::Node, j, b_.nodes[j].name, b_.nodes[j].op);
    for (std::size_t j = 0; j < b_out.size(); ++j)
      if (!b_out[j]) only(DiffKind::OnlyInB, DiffSubject::Output, j, value_name(b_, b_.outputs[j]), "");
  }

 private:
  void add(Difference d) {
    if (d.category == DiffCategory::Name && o_.ignore_names) return;
    if (d.category == DiffCategory::Metadata && o_.ignore_metadata) return;
    out_.differences.push_back(std::move(d));
  }

  // A difference about a paired subject, without kind (the caller sets it).
  Difference base(DiffSubject s, std::size_t i, std::size_t j, ValueId va, ValueId vb) const {
    Difference d;
    d.subject = s;
    d.a_index = i, d.b_index = j;
    d.a_name = value_name(a_, va), d.b_name = value_name(b_, vb);
    return d;
  }

  void only(DiffKind k, DiffSubject s, std::size_t index, const std::string& name, const std::string& op) {
    Difference d;
    d.kind = k;
    d.subject = s;
    (k == DiffKind::OnlyInA ? d.a_index : d.b_index) = index;
    (k == DiffKind::OnlyInA ? d.a_name : d.b_name) = name;
    (k == DiffKind::OnlyInA ? d.a_op : d.b_op) = op;
    add(std::move(d));
  }

  void name_difference(const Difference& at, const std::string& a, const std::string& b) {
    if (a == b) return;
    Difference d = at;
    d.category = DiffCategory::Name;
    d.kind = DiffKind::Name;
    d.a = a, d.b = b;
    add(std::move(d));
  }

  void metadata(const Difference& at, const std::string& key, const Attr* a, const Attr* b) {
    if ((a && b && *a == *b) || (!a && !b)) return;
    Difference d = at;
    d.category = DiffCategory::Metadata;
    d.kind = DiffKind::Metadata;
    d.key = key;
    d.a = a ? attr_text(*a) : kAbsent;
    d.b = b ? attr_text(*b) : kAbsent;
    add(std::move(d));
  }

  // Every key of either map, each with the two sides' attributes (nullptr when absent).
  template <class F>
  static void each_key(const AttrMap& a, const AttrMap& b, F f) {
    auto i = a.begin(), j = b.begin();
    while (i != a.end() || j != b.end()) {
      if (j == b.end() || (i != a.end() && i->first < j->first)) f(i->first, &i->second, nullptr), ++i;
      else if (i == a.end() || j->first < i->first) f(j->first, nullptr, &j->second), ++j;
      else f(i->first, &i->second, &j->second), ++i, ++j;
    }
  }

  void graph_level() {
    Difference at;
    at.subject = DiffSubject::Graph;
    if (o_.ignore_metadata) return;
    if (a_.source_format != b_.source_format) {
      Difference d = at;
      d.category = DiffCategory::Metadata;
      d.kind = DiffKind::Metadata;
      d.key = "source_format";
      d.a = a_.source_format, d.b = b_.source_format;
      add(std::move(d));
    }
    each_key(a_.metadata, b_.metadata, [&](const std::string& k, const Attr* x, const Attr* y) { metadata(at, k, x, y); });
  }

  void type_difference(const Difference& at, const char* key, std::string a, std::string b) {
    if (a == b) return;
    Difference d = at;
    d.kind = DiffKind::Type;
    d.key = key;
    d.a = std::move(a), d.b = std::move(b);
    add(std::move(d));
  }

  // dtype, shape and quantization of corresponding values (each A value compared once).
  // Returns whether the types are equal.
  bool value_types(const Difference& at, ValueId va, ValueId vb) {
    if (va >= a_.values.size() || vb >= b_.values.size()) return false;
    const TensorType &x = a_.values[va].type, &y = b_.values[vb].type;
    if (type_done_[va]) return x == y;
    type_done_[va] = true;
    type_difference(at, "dtype", std::string(to_string(x.dtype)), std::string(to_string(y.dtype)));
    type_difference(at, "shape", shape_text(x), shape_text(y));
    type_difference(at, "quantization", quantization_text(x), quantization_text(y));
    return x == y;
  }

  void value_attrs(const Difference& at, ValueId va, ValueId vb) {
    if (o_.ignore_metadata || va >= a_.values.size() || vb >= b_.values.size() || attrs_done_[va]) return;
    attrs_done_[va] = true;
    each_key(a_.values[va].attrs, b_.values[vb].attrs, [&](const std::string& k, const Attr* x, const Attr* y) {
      if (k == kExternalDataKey) return;  // compared with the constant
      metadata(at, k, x, y);
    });
  }

  void node_pair(std::size_t i, std::size_t j) {
    const Node &na = a_.nodes[i], &nb = b_.nodes[j];
    Difference at;
    at.subject = DiffSubject::Node;
    at.a_index = i, at.b_index = j;
    at.a_name = na.name, at.b_name = nb.name;
    at.a_op = na.op, at.b_op = nb.op;
    if (na.op != nb.op) {
      Difference d = at;
      d.kind = DiffKind::Op;
      d.a = na.op, d.b = nb.op;
      add(std::move(d));
    }
    name_difference(at, na.name, nb.name);
    node_attrs(at, na, nb);
    arity(at, "inputs", na.inputs.size(), nb.inputs.size());
    arity(at, "outputs", na.outputs.size(), nb.outputs.size());
    for (std::size_t k = 0; k < na.inputs.size() && k < nb.inputs.size(); ++k) {
      Difference slot = at;
      slot.place = "inputs[" + std::to_string(k) + "]";
      input_slot(slot, na.inputs[k], nb.inputs[k]);
    }
    for (std::size_t k = 0; k < na.outputs.size() && k < nb.outputs.size(); ++k) {
      Difference slot = at;
      slot.place = "outputs[" + std::to_string(k) + "]";
      value_types(slot, na.outputs[k], nb.outputs[k]);
      value_attrs(slot, na.outputs[k], nb.outputs[k]);
    }
  }

  void arity(const Difference& at, const char* key, std::size_t a, std::size_t b) {
    if (a == b) return;
    Difference d = at;
    d.kind = DiffKind::Arity;
    d.key = key;
    d.a = std::to_string(a), d.b = std::to_string(b);
    add(std::move(d));
  }

  // Canonical attributes with schema defaults applied (semantic); namespaced ones are format
  // vocabulary, except on a format-native op, whose only description they are.
  void node_attrs(const Difference& at, const Node& na, const Node& nb) {
    const OpSchema* sa = find_schema(na.op);
    const OpSchema* sb = na.op == nb.op ? sa : find_schema(nb.op);
    const bool native = is_namespaced(na.op) || is_namespaced(nb.op);
    auto with_default = [](const OpSchema* s, const std::string& k, const Attr* v) -> const Attr* {
      if (v || !s) return v;
      const AttrSpec* spec = s->find_attr(k);
      return spec && spec->default_value ? &*spec->default_value : nullptr;
    };
    each_key(na.attrs, nb.attrs, [&](const std::string& k, const Attr* x, const Attr* y) {
      if (is_namespaced(k) && !native) return metadata(at, k, x, y);
      x = with_default(sa, k, x), y = with_default(sb, k, y);
      if ((x && y && equal_as_float32(*x, *y)) || (!x && !y)) return;
      Difference d = at;
      d.kind = DiffKind::Attribute;
      d.key = k;
      d.a = x ? attr_text(*x) : kAbsent;
      d.b = y ? attr_text(*y) : kAbsent;
      add(std::move(d));
    });
  }

  void input_slot(const Difference& at, ValueId va, ValueId vb) {
    const bool ca = va != kNoValue && va < a_.values.size() && a_.values[va].is_constant();
    const bool cb = vb != kNoValue && vb < b_.values.size() && b_.values[vb].is_constant();
    const bool ea = va != kNoValue && va < a_.values.size() && a_.values[va].attrs.count(kExternalDataKey);
    const bool eb = vb != kNoValue && vb < b_.values.size() && b_.values[vb].attrs.count(kExternalDataKey);
    if (va == kNoValue && vb == kNoValue) return;
    if ((ca || ea) && (cb || eb)) return constants(at, va, vb);
    bool same = false;
    if (va != kNoValue && vb != kNoValue && !ca && !cb && !ea && !eb) {
      const ValueId want = va < m_.a_to_b.size() ? m_.a_to_b[va] : kNoValue;
      const ValueId back = vb < m_.b_to_a.size() ? m_.b_to_a[vb] : kNoValue;
      // Both without a counterpart: the consequence of an unpaired producer, reported there.
      same = want == vb || (want == kNoValue && back == kNoValue);
      if (want == vb) value_types(at, va, vb);
    }
    if (same) return;
    Difference d = at;
    wiring(d, va, vb, ca || ea ? "constant " : "", cb || eb ? "constant " : "");
  }

  // A Wiring difference between the values `va` and `vb`. Where both print the same name (a
  // converter put a node in between and gave its output the original name), each side also
  // names the node that makes its value, so the report does not read "x vs x".
  void wiring(Difference d, ValueId va, ValueId vb, const std::string& prefix_a, const std::string& prefix_b) {
    d.kind = DiffKind::Wiring;
    d.a = prefix_a + value_name(a_, va);
    d.b = prefix_b + value_name(b_, vb);
    if (d.a == d.b) {
      if (a_producer_.empty()) a_producer_ = a_.producers(), b_producer_ = b_.producers();
      d.a += made_by(a_, a_producer_, va);
      d.b += made_by(b_, b_producer_, vb);
    }
    add(std::move(d));
  }

  static std::string made_by(const Graph& g, const std::vector<std::size_t>& producer, ValueId v) {
    if (v == kNoValue || v >= producer.size()) return "";
    if (producer[v] == SIZE_MAX) return g.values[v].is_constant() ? "" : " (no node makes it)";
    const Node& n = g.nodes[producer[v]];
    return " (made by node \"" + n.name + "\", " + n.op + ")";
  }

  void constants(const Difference& at, ValueId va, ValueId vb) {
    if (type_done_[va]) return;  // compared where another node reads it
    const Value &x = a_.values[va], &y = b_.values[vb];
    Difference d = at;
    d.a = x.name, d.b = y.name;
    const bool types_equal = value_types(at, va, vb);
    value_attrs(at, va, vb);
    if (!x.constant || !y.constant) {
      // Data not loaded (ExecuTorch named data): the keys are all there is to compare.
      auto key = [](const Value& v) {
        auto it = v.attrs.find(kExternalDataKey);
        return it != v.attrs.end() ? "external data " + attr_text(it->second) : std::string("data loaded");
      };
      if (key(x) == key(y)) return;
      d.kind = DiffKind::Constant;
      d.a += ": " + key(x), d.b += ": " + key(y);
      return add(std::move(d));
    }
    const TensorType &tx = x.type, &ty = y.type;
    if (!(tx.shape == ty.shape && storage_type(tx.dtype) == storage_type(ty.dtype))) return;  // Type says it
    if (types_equal && x.constant->size() == y.constant->size() &&
        std::memcmp(x.constant->data(), y.constant->data(), x.constant->size()) == 0)
      return;
    d.kind = DiffKind::Constant;
    try {
      HostTensor hx = HostTensor::from_buffer(tx, *x.constant), hy = HostTensor::from_buffer(ty, *y.constant);
      // The statistics of `validate` (nnbridge/exec.h compare_outputs): B measured against A.
      Tolerance tol;
      tol.atol = 0, tol.rtol = 0, tol.quantized_steps = 0;
      TensorMap ma, mb;
      ma.emplace("c", hx), mb.emplace("c", hy);
      const OutputReport r = compare_outputs(mb, ma, tol).at(0);
      const std::vector<double> ax = hx.to_double(), by = hy.to_double();
      d.elements = static_cast<std::int64_t>(ax.size());
      for (std::size_t k = 0; k < ax.size() && k < by.size(); ++k) {
        if (ax[k] == by[k] || (std::isnan(ax[k]) && std::isnan(by[k]))) continue;
        if (d.first_index < 0) d.first_index = static_cast<std::int64_t>(k), d.first_a = ax[k], d.first_b = by[k];
        ++d.elements_differing;
      }
      d.max_abs_diff = r.max_abs_error;
      d.max_ulp = r.max_ulp;
      if (d.elements_differing == 0 && d.max_ulp == 0) return;  // equal as numbers (+0 / -0, NaN payloads)
    } catch (const Error&) {
      // Sizes that disagree with the type (the checker reports it): the bytes differ, no statistics.
    }
    add(std::move(d));
  }

  const Graph& a_;
  const Graph& b_;
  const DiffOptions& o_;
  GraphDiff& out_;
  Matching m_;
  std::vector<bool> type_done_, attrs_done_;
  std::vector<std::size_t> a_producer_, b_producer_;  // filled on the first same-named Wiring
};

}  // namespace

std::size_t GraphDiff::count(DiffCategory c) const {
  return static_cast<std::size_t>(
      std::count_if(differences.begin(), differences.end(), [c](const Difference& d) { return d.category == c; }));
}

GraphDiff diff(const Graph& a_in, const Graph& b_in, const DiffOptions& options) {
  const Graph a = normal_form(a_in), b = normal_form(b_in);
  GraphDiff out;
  out.options = options;
  out.a_nodes = a.nodes.size(), out.b_nodes = b.nodes.size();
  out.a_format = a.source_format, out.b_format = b.source_format;
  Comparer(a, b, options, out).run();
  return out;
}

}  // namespace nnbridge
