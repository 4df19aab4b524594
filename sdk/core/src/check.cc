#include "nnbridge/check.h"

#include <map>
#include <mutex>
#include <set>
#include <string_view>
#include <unordered_map>

#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"
#include "nnbridge/order.h"

namespace nnbridge {

namespace {

std::string idx(const char* field, std::size_t i) { return std::string(field) + "[" + std::to_string(i) + "]"; }

std::string shape_str(const TensorType& t) {
  if (t.unknown_rank) return "[?]";
  std::string s = "[";
  for (std::size_t i = 0; i < t.shape.size(); ++i) {
    if (i) s += ",";
    s += t.shape[i] < 0 ? "?" : std::to_string(t.shape[i]);
  }
  return s + "]";
}

std::string type_str(const TensorType& t) { return std::string(to_string(t.dtype)) + shape_str(t); }

class Checker {
 public:
  explicit Checker(const Graph& g) : g_(g) {}

  std::vector<Issue> run() {
    const std::size_t nv = g_.values.size();
    producer_.assign(nv, SIZE_MAX);
    is_input_.assign(nv, false);
    check_graph_io();
    check_values();
    // First pass: who produces what (values produced twice are reported here).
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) {
      const Node& n = g_.nodes[i];
      for (std::size_t j = 0; j < n.outputs.size(); ++j) {
        auto where = [&] { return idx("nodes", i) + "." + idx("outputs", j); };  // built for an issue only
        ValueId v = n.outputs[j];
        if (v == kNoValue) {
          error(ErrorId::DanglingReference, where(), "an output cannot be absent (kNoValue)");
        } else if (v >= nv) {
          error(ErrorId::DanglingReference, where(), "value id " + std::to_string(v) + " is out of range (" + std::to_string(nv) + " values)");
        } else if (producer_[v] != SIZE_MAX) {
          error(ErrorId::InvalidOther, where(), "value '" + g_.values[v].name + "' is also produced by " + idx("nodes", producer_[v]));
        } else {
          producer_[v] = i;
          if (g_.values[v].is_constant()) error(ErrorId::InvalidOther, where(), "value '" + g_.values[v].name + "' is a constant and cannot be produced");
          if (is_input_[v]) error(ErrorId::InvalidOther, where(), "value '" + g_.values[v].name + "' is a graph input and cannot be produced");
        }
      }
    }
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) check_node(i);
    // Order is free (graph.h); only a cycle in the data flow is an error.
    if (const auto cycle = find_cycle(g_); !cycle.empty())
      error(ErrorId::Cycle, idx("nodes", cycle.front()), "is on a cycle of data flow: " + describe_cycle(g_, cycle));
    // Graph outputs must come from somewhere.
    for (std::size_t j = 0; j < g_.outputs.size(); ++j) {
      ValueId v = g_.outputs[j];
      if (v < nv && !available(v))
        error(ErrorId::DanglingReference, idx("outputs", j), unavailable(v));
    }
    return std::move(issues_);
  }

 private:
  // Why value v has no data: a constant whose bytes live in a file that was not read
  // (kExternalDataKey, with the graph's kExternalDataHint), or nothing at all.
  std::string unavailable(ValueId v) const {
    const Value& val = g_.values[v];
    if (auto k = val.attrs.find(kExternalDataKey); k != val.attrs.end() && k->second.is<std::string>()) {
      auto h = g_.metadata.find(kExternalDataHint);
      return "constant '" + val.name + "' has no data: its bytes are the named data \"" + k->second.get<std::string>() +
             "\", which was not loaded" +
             (h != g_.metadata.end() && h->second.is<std::string>() ? " (" + h->second.get<std::string>() + ")" : "");
    }
    return "value '" + val.name + "' has no data: it is neither a graph input, a constant with data, nor produced by a node";
  }

  void error(ErrorId id, std::string where, std::string message) {
    issues_.push_back({Issue::Severity::Error, std::move(where), std::move(message), id});
  }
  void warning(std::string where, std::string message) {
    issues_.push_back({Issue::Severity::Warning, std::move(where), std::move(message)});
  }
  bool available(ValueId v) const { return producer_[v] != SIZE_MAX || is_input_[v] || g_.values[v].is_constant(); }

  void check_graph_io() {
    const std::size_t nv = g_.values.size();
    for (std::size_t j = 0; j < g_.inputs.size(); ++j) {
      ValueId v = g_.inputs[j];
      if (v >= nv) {
        error(ErrorId::DanglingReference, idx("inputs", j), "value id " + std::to_string(v) + " is out of range (" + std::to_string(nv) + " values)");
        continue;
      }
      if (is_input_[v]) error(ErrorId::InvalidOther, idx("inputs", j), "value '" + g_.values[v].name + "' is listed twice");
      is_input_[v] = true;
      if (g_.values[v].is_constant()) warning(idx("inputs", j), "graph input '" + g_.values[v].name + "' is a constant");
    }
    for (std::size_t j = 0; j < g_.outputs.size(); ++j)
      if (g_.outputs[j] >= nv)
        error(ErrorId::DanglingReference, idx("outputs", j),
              "value id " + std::to_string(g_.outputs[j]) + " is out of range (" + std::to_string(nv) + " values)");
  }

  void check_values() {
    std::unordered_map<std::string_view, std::size_t> names;  // views of the graph's names
    for (std::size_t i = 0; i < g_.values.size(); ++i) {
      const Value& v = g_.values[i];
      if (!v.name.empty()) {
        auto [it, fresh] = names.emplace(v.name, i);
        if (!fresh) warning(idx("values", i) + ".name", "'" + v.name + "' is also the name of " + idx("values", it->second));
      }
      if (!v.type.unknown_rank)
        for (std::size_t d = 0; d < v.type.shape.size(); ++d)
          if (v.type.shape[d] < -1)
            error(ErrorId::Shape, idx("values", i) + ".type." + idx("shape", d), "dim " + std::to_string(v.type.shape[d]) + " is invalid");
      if (v.constant) {
        auto bytes = v.type.byte_size();
        if (v.type.dtype == DataType::Undefined)
          error(ErrorId::InvalidOther, idx("values", i) + ".constant", "a constant needs a dtype");
        else if (!bytes)
          error(ErrorId::Shape, idx("values", i) + ".constant", "a constant needs a fully known shape, not " + shape_str(v.type));
        else if (static_cast<uint64_t>(*bytes) != v.constant->size())
          error(ErrorId::Shape, idx("values", i) + ".constant", "holds " + std::to_string(v.constant->size()) + " bytes, but " +
                                                    type_str(v.type) + " needs " + std::to_string(*bytes));
      }
      if (const auto& q = v.type.quantization) {
        if (q->scales.empty()) error(ErrorId::Arity, idx("values", i) + ".type.quantization.scales", "needs at least one scale");
        if (!q->zero_points.empty() && q->zero_points.size() != 1 && q->zero_points.size() != q->scales.size())
          error(ErrorId::Arity, idx("values", i) + ".type.quantization.zero_points", "needs none, one, or one per scale");
      }
    }
  }

  void check_node(std::size_t i) {
    const Node& n = g_.nodes[i];
    auto at = [&] { return idx("nodes", i); };  // built for an issue only
    const std::size_t nv = g_.values.size();
    bool ids_ok = true;
    for (std::size_t j = 0; j < n.inputs.size(); ++j) {
      ValueId v = n.inputs[j];
      if (v == kNoValue) continue;
      if (v >= nv) {
        error(ErrorId::DanglingReference, at() + "." + idx("inputs", j), "value id " + std::to_string(v) + " is out of range (" + std::to_string(nv) + " values)");
        ids_ok = false;
      } else if (!available(v)) {
        error(ErrorId::DanglingReference, at() + "." + idx("inputs", j), unavailable(v));
      }
    }
    for (ValueId v : n.outputs)
      if (v >= nv) ids_ok = false;
    if (n.op.empty()) {
      error(ErrorId::InvalidOther, at() + ".op", "the op name is empty");
      return;
    }
    if (n.op.find('.') != std::string::npos) return;  // format-native: ids only
    const OpSchema* s = find_schema(n.op);
    if (!s) {
      warning(at() + ".op", "unknown op '" + n.op + "' (not in the registry and not format-native)");
      return;
    }
    bool shape_ok = ids_ok;
    auto arity = [&](std::size_t count, int lo, int hi, const char* what) {
      if (static_cast<int64_t>(count) < lo || (hi >= 0 && static_cast<int64_t>(count) > hi)) {
        std::string range = hi < 0 ? "at least " + std::to_string(lo)
                                   : lo == hi ? std::to_string(lo) : std::to_string(lo) + " to " + std::to_string(hi);
        error(ErrorId::Arity, at() + "." + what, n.op + " takes " + range + " " + what + ", got " + std::to_string(count));
        shape_ok = false;
      }
    };
    arity(n.inputs.size(), s->min_inputs, s->max_inputs, "inputs");
    // The first min_inputs inputs are required (ONNX: only trailing or marked-optional inputs may be empty).
    for (std::size_t j = 0; j < n.inputs.size() && static_cast<int64_t>(j) < s->min_inputs; ++j)
      if (n.inputs[j] == kNoValue) {
        error(ErrorId::Arity, at() + "." + idx("inputs", j), "required input of " + n.op + " is absent");
        shape_ok = false;
      }
    arity(n.outputs.size(), s->min_outputs, s->max_outputs, "outputs");
    for (const auto& [name, a] : n.attrs) {
      if (name.find('.') != std::string::npos) continue;
      const AttrSpec* spec = s->find_attr(name);
      if (!spec) {
        error(ErrorId::AttributeValue, at() + ".attrs." + name, "unknown attribute of " + n.op);
        shape_ok = false;
      } else if (a.type() != spec->type) {
        error(ErrorId::AttributeValue, at() + ".attrs." + name, "is " + std::string(to_string(a.type())) + ", " + n.op + " expects " +
                                         std::string(to_string(spec->type)));
        shape_ok = false;
      }
    }
    for (const AttrSpec& spec : s->attrs)
      if (spec.required && !n.attrs.count(spec.name)) {
        error(ErrorId::AttributeValue, at() + ".attrs." + spec.name, "required attribute of " + n.op + " is missing");
        shape_ok = false;
      }
    if (shape_ok) check_types(i);
  }

  void check_types(std::size_t i) {
    const Node& n = g_.nodes[i];
    std::optional<std::vector<TensorType>> inferred;
    try {
      inferred = infer_types(g_, i);
    } catch (const Error& e) {
      error(e.id(), idx("nodes", i), e.message());
      return;
    }
    if (!inferred) return;
    for (std::size_t j = 0; j < n.outputs.size() && j < inferred->size(); ++j) {
      const TensorType& got = (*inferred)[j];
      const TensorType& declared = g_.values[n.outputs[j]].type;
      auto where = [&] { return idx("nodes", i) + "." + idx("outputs", j); };
      const std::string& name = g_.values[n.outputs[j]].name;
      if (got.dtype != DataType::Undefined && declared.dtype != DataType::Undefined && got.dtype != declared.dtype) {
        error(ErrorId::TypeMismatch, where(), "value '" + name + "' is declared " + std::string(to_string(declared.dtype)) + ", but " + n.op +
                         " gives " + std::string(to_string(got.dtype)));
      }
      if (got.unknown_rank || declared.unknown_rank) continue;
      bool bad = got.shape.size() != declared.shape.size();
      for (std::size_t d = 0; !bad && d < got.shape.size(); ++d)
        bad = got.shape[d] >= 0 && declared.shape[d] >= 0 && got.shape[d] != declared.shape[d];
      if (bad)
        error(ErrorId::Shape, where(), "value '" + name + "' is declared with shape " + shape_str(declared) + ", but " + n.op +
                         " gives " + shape_str(got));
    }
  }

  const Graph& g_;
  std::vector<std::size_t> producer_;
  std::vector<bool> is_input_;
  std::vector<Issue> issues_;
};

struct NativeChecks {
  std::mutex mutex;
  std::map<std::string, std::pair<NativeCheck, std::string>, std::less<>> by_namespace;  // rules, format
};

NativeChecks& native_checks() {
  static NativeChecks* n = new NativeChecks;  // never destroyed: check() may run during static destruction
  return *n;
}

// The registered rule sets that apply to `g` (register_native_check), in namespace order.
std::vector<std::pair<std::string, NativeCheck>> native_checks_for(const Graph& g) {
  std::set<std::string, std::less<>> spaces;
  auto add = [&](const std::string& name) {
    if (auto dot = name.find('.'); dot != std::string::npos && dot > 0) spaces.insert(name.substr(0, dot));
  };
  for (const Node& n : g.nodes) add(n.op);
  for (const auto& [key, value] : g.metadata) add(key);
  std::vector<std::pair<std::string, NativeCheck>> out;
  NativeChecks& nc = native_checks();
  std::lock_guard lock(nc.mutex);
  for (const auto& [space, entry] : nc.by_namespace)
    if (spaces.count(space) || (!entry.second.empty() && entry.second == g.source_format))
      out.emplace_back(space, entry.first);
  return out;
}

}  // namespace

void register_native_check(std::string op_namespace, NativeCheck fn, std::string format) {
  NativeChecks& nc = native_checks();
  std::lock_guard lock(nc.mutex);
  nc.by_namespace[std::move(op_namespace)] = {std::move(fn), std::move(format)};
}

std::vector<Issue> check(const Graph& g) {
  std::vector<Issue> issues;
  try {
    issues = Checker(g).run();
  } catch (const std::exception& e) {
    return {Issue{Issue::Severity::Error, "", std::string("checker failed: ") + e.what()}};
  } catch (...) {
    return {Issue{Issue::Severity::Error, "", "checker failed"}};
  }
  try {
    for (const auto& [space, fn] : native_checks_for(g)) {
      try {
        fn(g, issues);
      } catch (const std::exception& e) {
        issues.push_back({Issue::Severity::Error, "", "the " + space + ".* rules failed: " + e.what()});
      } catch (...) {
        issues.push_back({Issue::Severity::Error, "", "the " + space + ".* rules failed"});
      }
    }
  } catch (...) {
    issues.push_back({Issue::Severity::Error, "", "checker failed while looking up format rules"});
  }
  return issues;
}

void check_or_throw(const Graph& g) {
  for (const Issue& issue : check(g))
    if (issue.severity == Issue::Severity::Error) throw Error(issue.id, issue.message, {}, issue.where);
}

}  // namespace nnbridge
