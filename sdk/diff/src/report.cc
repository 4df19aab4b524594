// The diff's report: names of the enums, one-line messages, the text and JSON forms (nnbridge/diff.h).
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <variant>

#include "nnbridge/attr_text.h"
#include "internal.h"
#include "nnbridge/exec.h"

namespace nnbridge {

namespace diff_detail {

std::string shape_text(const TensorType& t) {
  if (t.unknown_rank) return "[*]";
  std::string s = "[";
  for (std::size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(t.shape[i]);
  return s + "]";
}

std::string quantization_text(const TensorType& t) {
  if (!t.quantization) return "none";
  const Quantization& q = *t.quantization;
  std::string s = "scales " + attr_text(Attr(q.scales)) + " zero_points " + attr_text(Attr(q.zero_points));
  if (q.axis) s += " axis " + std::to_string(*q.axis);
  return s;
}

}  // namespace diff_detail

namespace {

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

std::string quoted(const std::string& s) { return "\"" + s + "\""; }

// How one side names the subject: `"conv" (Conv)`, `#3 (Conv)` for a node without a name.
std::string side(const Difference& d, bool a) {
  const std::optional<std::size_t>& index = a ? d.a_index : d.b_index;
  const std::string& name = a ? d.a_name : d.b_name;
  const std::string& op = a ? d.a_op : d.b_op;
  if (!index) return {};
  std::string s = name.empty() ? "#" + std::to_string(*index) : quoted(name);
  if (d.subject == DiffSubject::Node && !op.empty()) s += " (" + op + ")";
  return s;
}

std::string subject_text(const Difference& d) {
  if (d.subject == DiffSubject::Graph) return "graph";
  std::string s = std::string(to_string(d.subject)) + " ";
  const std::string a = side(d, true), b = side(d, false);
  if (a.empty() || b.empty()) s += a + b;
  else s += a == b ? a : a + " / " + b;
  if (!d.place.empty()) s += " " + d.place;
  return s;
}

}  // namespace

std::string_view to_string(DiffCategory c) {
  switch (c) {
    case DiffCategory::Semantic: return "semantic";
    case DiffCategory::Name: return "name";
    case DiffCategory::Metadata: return "metadata";
  }
  return "?";
}

std::string_view to_string(DiffKind k) {
  switch (k) {
    case DiffKind::OnlyInA: return "only_in_a";
    case DiffKind::OnlyInB: return "only_in_b";
    case DiffKind::Name: return "name";
    case DiffKind::Op: return "op";
    case DiffKind::Attribute: return "attribute";
    case DiffKind::Arity: return "arity";
    case DiffKind::Wiring: return "wiring";
    case DiffKind::Type: return "type";
    case DiffKind::Constant: return "constant";
    case DiffKind::Metadata: return "metadata";
  }
  return "?";
}

std::string_view to_string(DiffSubject s) {
  switch (s) {
    case DiffSubject::Graph: return "graph";
    case DiffSubject::Input: return "input";
    case DiffSubject::Output: return "output";
    case DiffSubject::Node: return "node";
  }
  return "?";
}

std::string Difference::message() const {
  const std::string at = subject_text(*this) + ": ";
  switch (kind) {
    case DiffKind::OnlyInA: return at + "only in A";
    case DiffKind::OnlyInB: return at + "only in B";
    case DiffKind::Name: return at + "name " + quoted(a) + " vs " + quoted(b);
    case DiffKind::Op: return at + "op " + a + " vs " + b;
    case DiffKind::Attribute: return at + "attribute " + key + ": " + a + " vs " + b;
    case DiffKind::Arity: return at + a + " " + key + " vs " + b;
    case DiffKind::Wiring: return at + "reads " + a + " vs " + b;
    case DiffKind::Type: return at + key + " " + a + " vs " + b;
    case DiffKind::Metadata:
      return at + (subject == DiffSubject::Graph && key != "source_format" ? "metadata " : "") + key + ": " + a + " vs " + b;
    case DiffKind::Constant: {
      std::string s = at + "constant " + quoted(a) + " vs " + quoted(b);
      if (elements == 0 && elements_differing == 0) return s + ": bytes differ";
      s += ": " + std::to_string(elements_differing) + " of " + std::to_string(elements) + " elements differ";
      if (first_index >= 0) s += " (first at " + std::to_string(first_index) + ": " + number(first_a) + " vs " + number(first_b) + ")";
      s += ", max abs diff " + number(max_abs_diff) + ", max ULP " +
           (max_ulp == kUlpNaNMismatch ? std::string("NaN vs number") : std::to_string(max_ulp));
      return s;
    }
  }
  return at;
}

std::string to_text(const GraphDiff& d, std::string_view a_label, std::string_view b_label, std::string_view a_file_format,
                    std::string_view b_file_format) {
  std::string s;
  auto plural = [](std::size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
  auto format = [](std::string_view file, const std::string& source) {
    if (source.empty()) return file.empty() ? std::string("graph") : std::string(file);
    return file.empty() || file == source ? source : std::string(file) + " from " + source;
  };
  s += "A: " + std::string(a_label) + " (" + format(a_file_format, d.a_format) + ", " + plural(d.a_nodes, "node") + " in normal form)\n";
  s += "B: " + std::string(b_label) + " (" + format(b_file_format, d.b_format) + ", " + plural(d.b_nodes, "node") + " in normal form)\n";
  std::size_t by_name = 0;
  for (const NodeMatch& m : d.nodes) by_name += m.by == NodeMatch::By::Name;
  s += "paired: " + plural(d.inputs.size(), "input") + ", " + plural(d.outputs.size(), "output") + ", " +
       plural(d.nodes.size(), "node") + " (" + std::to_string(by_name) + " by name, " +
       std::to_string(d.nodes.size() - by_name) + " by topology)\n";
  if (d.same()) return s + "same" + (d.options.ignore_metadata ? " (format vocabulary ignored)" : "") + "\n";
  const std::pair<DiffCategory, const char*> headings[] = {
      {DiffCategory::Semantic, "semantic"}, {DiffCategory::Name, "names"}, {DiffCategory::Metadata, "format vocabulary"}};
  for (const auto& [c, heading] : headings) {
    const std::size_t n = d.count(c);
    if (!n) continue;
    s += std::string(heading) + " (" + std::to_string(n) + "):\n";
    for (const Difference& x : d.differences)
      if (x.category == c) s += "  " + x.message() + "\n";
  }
  return s;
}

namespace {

nlohmann::json json_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

}  // namespace

std::string to_json(const GraphDiff& d, std::string_view a_label, std::string_view b_label, int indent) {
  using nlohmann::json;
  json j = json::object();
  j["format"] = "nnbridge-diff";
  j["version"] = 1;
  j["same"] = d.same();
  j["a"] = {{"file", std::string(a_label)}, {"format", d.a_format}, {"nodes", d.a_nodes}};
  j["b"] = {{"file", std::string(b_label)}, {"format", d.b_format}, {"nodes", d.b_nodes}};
  j["options"] = {{"ignore_names", d.options.ignore_names}, {"ignore_metadata", d.options.ignore_metadata}};
  j["counts"] = {{"semantic", d.count(DiffCategory::Semantic)},
                 {"name", d.count(DiffCategory::Name)},
                 {"metadata", d.count(DiffCategory::Metadata)}};
  json nodes = json::array();
  for (const NodeMatch& m : d.nodes)
    nodes.push_back({{"a", m.a}, {"b", m.b}, {"by", m.by == NodeMatch::By::Name ? "name" : "topology"}});
  json inputs = json::array(), outputs = json::array();
  for (const auto& [i, k] : d.inputs) inputs.push_back({i, k});
  for (const auto& [i, k] : d.outputs) outputs.push_back({i, k});
  j["matches"] = {{"inputs", inputs}, {"outputs", outputs}, {"nodes", nodes}};
  json list = json::array();
  for (const Difference& x : d.differences) {
    json e = json::object();
    e["category"] = std::string(to_string(x.category));
    e["kind"] = std::string(to_string(x.kind));
    e["subject"] = std::string(to_string(x.subject));
    if (x.a_index) e["a_index"] = *x.a_index, e["a_name"] = x.a_name;
    if (x.b_index) e["b_index"] = *x.b_index, e["b_name"] = x.b_name;
    if (x.subject == DiffSubject::Node && x.a_index) e["a_op"] = x.a_op;
    if (x.subject == DiffSubject::Node && x.b_index) e["b_op"] = x.b_op;
    e["place"] = x.place;
    e["key"] = x.key;
    e["a"] = x.a;
    e["b"] = x.b;
    if (x.kind == DiffKind::Constant) {
      e["elements"] = x.elements;
      e["elements_differing"] = x.elements_differing;
      e["first_index"] = x.first_index;
      e["first_a"] = json_number(x.first_a);
      e["first_b"] = json_number(x.first_b);
      e["max_abs_diff"] = json_number(x.max_abs_diff);
      e["max_ulp"] = x.max_ulp;
    }
    e["message"] = x.message();
    list.push_back(std::move(e));
  }
  j["differences"] = std::move(list);
  return j.dump(indent, ' ', false, json::error_handler_t::replace) + (indent >= 0 ? "\n" : "");
}

}  // namespace nnbridge
