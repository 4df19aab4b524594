// `type="MVCL"` CustomLayer elements (OpenVINO MYRIAD plugin, vpu graph_transformer frontend
// custom_layer.cpp / custom_kernel.cpp): parsed and checked; nnbridge cannot run SHAVE binaries.
//
// Two layouts exist. Current: Parameters and WorkSizes inside each Kernel, stages as a `stage`
// attribute on each Kernel. 2019 (the customLayerBindings files): Parameters and WorkSizes in the
// CustomLayer, one Kernel, and a multi-stage layer as several CustomLayer elements of one name,
// each with a `stage` attribute.
#include <algorithm>
#include <map>
#include <set>

#include "internal.h"

namespace nnbridge::config::openvino_custom::detail {

namespace {

bool caseless_eq(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}
bool one_of(std::string_view v, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return caseless_eq(v, n); });
}

// "input,N" / "output,N" (custom_kernel.cpp parseDimSource), caseless, N optional.
bool legal_dim(const std::string& v) {
  const auto comma = v.find(',');
  if (!one_of(v.substr(0, comma), {"input", "output"})) return false;
  if (comma == std::string::npos) return true;
  const std::string n = v.substr(comma + 1);
  return !n.empty() && n.size() < 7 && std::all_of(n.begin(), n.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

void no_empty_attributes(const Context& c, const pugi::xml_node& n) {
  for (const pugi::xml_attribute& a : n.attributes())
    if (!*a.value()) c.error(n, tag(n) + " has an empty " + a.name() + " attribute", ErrorId::AttributeValue);
}

void parse_parameters(const Context& c, const pugi::xml_node& p, MvclKernel& k) {
  c.only_attributes(p, {});
  c.only_children(p, {"Tensor", "Data", "Scalar"});
  std::map<std::string, int> names;
  for (const pugi::xml_node& e : p.children()) {
    if (e.type() != pugi::node_element) continue;
    MvclParameter q;
    q.where = c.where(e);
    const std::string_view kind = e.name();
    no_empty_attributes(c, e);
    if (auto a = c.required(e, "arg-name")) q.arg_name = *a;
    if (auto t = c.required(e, "type")) q.type = *t;
    if (kind == "Tensor") {
      q.kind = MvclParameter::Kind::Tensor;
      c.only_attributes(e, {"arg-name", "type", "port-index", "format", "dim", "size"});
      if (!q.type.empty() && !one_of(q.type, {"input", "output", "input_buffer", "output_buffer", "data"}))
        c.error(e, "<Tensor> type=\"" + q.type + "\" is not input, output, input_buffer, output_buffer or data", ErrorId::AttributeValue);
      q.port_index = c.index(e, "port-index");
      q.format = e.attribute("format").as_string("BFYX");
      if (!one_of(q.format, {"BFYX", "BYXF", "FYX", "YXF", "BF", "ANY"}))
        c.error(e, "<Tensor> format=\"" + q.format + "\" is not BFYX, BYXF, FYX, YXF, BF or ANY", ErrorId::AttributeValue);
      q.dim = e.attribute("dim").value();
      q.size = e.attribute("size").value();
      if (one_of(q.type, {"input_buffer", "output_buffer"})) {
        if (q.size.empty()) c.error(e, "<Tensor> of type " + q.type + " has no size attribute", ErrorId::AttributeValue);
        if (q.dim.empty()) c.error(e, "<Tensor> of type " + q.type + " has no dim attribute", ErrorId::AttributeValue);
      }
    } else if (kind == "Data") {
      q.kind = MvclParameter::Kind::Data;
      c.only_attributes(e, {"arg-name", "type", "source", "dim", "size"});
      if (!q.type.empty() && !one_of(q.type, {"data", "local_data"}))
        c.error(e, "<Data> type=\"" + q.type + "\" is not data or local_data", ErrorId::AttributeValue);
      q.source = e.attribute("source").value();
      q.dim = e.attribute("dim").value();
      q.size = e.attribute("size").value();
      if (q.source.empty() == q.dim.empty()) c.error(e, "<Data> needs exactly one of source and dim", ErrorId::Arity);
    } else {
      q.kind = MvclParameter::Kind::Scalar;
      c.only_attributes(e, {"arg-name", "type", "port-index", "source"});
      if (!q.type.empty() && !one_of(q.type, {"int", "float"})) c.error(e, "<Scalar> type=\"" + q.type + "\" is not int or float", ErrorId::AttributeValue);
      q.port_index = c.index(e, "port-index", false);
      q.source = e.attribute("source").value();
      if (q.source.empty()) c.error(e, "<Scalar> has no source attribute", ErrorId::AttributeValue);
    }
    if (!q.dim.empty() && !legal_dim(q.dim)) c.error(e, tag(e) + " dim=\"" + q.dim + "\" is not input,N or output,N", ErrorId::AttributeValue);
    if (!q.size.empty()) {
      std::string why;
      if (!check_formula_syntax(q.size, true, &why)) c.error(e, tag(e) + " size: " + why, ErrorId::AttributeValue);
    }
    if (!q.arg_name.empty()) {
      auto [it, fresh] = names.emplace(q.arg_name, q.where.line);
      if (!fresh) c.error(e, "arg-name \"" + q.arg_name + "\" is already bound at line " + std::to_string(it->second), ErrorId::DuplicateName);
    }
    k.parameters.push_back(std::move(q));
  }
}

void parse_work_sizes(const Context& c, const pugi::xml_node& w, MvclKernel& k) {
  c.only_attributes(w, {"dim", "global", "local"});
  c.only_children(w, {});
  no_empty_attributes(c, w);
  if (auto d = c.required(w, "dim")) {
    k.dim = *d;
    if (!legal_dim(k.dim)) c.error(w, "<WorkSizes> dim=\"" + k.dim + "\" is not input,N or output,N", ErrorId::AttributeValue);
  }
  auto rules = [&](const char* attr, std::vector<std::string>& out) {
    auto all = c.required(w, attr);
    if (!all) return;
    std::size_t start = 0;
    for (;;) {
      const std::size_t comma = all->find(',', start);
      out.push_back(all->substr(start, comma == std::string::npos ? std::string::npos : comma - start));
      std::string why;
      if (!check_formula_syntax(out.back(), true, &why))
        c.error(w, "<WorkSizes> " + std::string(attr) + " item " + std::to_string(out.size()) + ": " + why, ErrorId::AttributeValue);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (out.size() > 3) c.error(w, "<WorkSizes> " + std::string(attr) + " has more than 3 items", ErrorId::Arity);
  };
  rules("global", k.global);
  rules("local", k.local);
}

// A Kernel element; `outer` is the CustomLayer, where the 2019 layout keeps Parameters/WorkSizes.
MvclKernel parse_kernel(const Context& c, const pugi::xml_node& kn, const pugi::xml_node& outer) {
  MvclKernel k;
  k.where = c.where(kn);
  c.only_attributes(kn, {"entry", "stage", "max-shaves"});
  no_empty_attributes(c, kn);
  if (auto e = c.required(kn, "entry")) k.entry = *e;
  if (auto s = c.index(kn, "stage", false)) k.stage = *s;
  const auto sources = Context::children(kn, "Source");
  if (sources.empty()) c.error(kn, "<Kernel> has no <Source> element", ErrorId::Arity);
  for (const auto& s : sources) {
    c.only_attributes(s, {"filename"});
    c.only_children(s, {});
    auto f = c.required(s, "filename");
    if (!f) continue;
    k.sources.push_back(c.dir / *f);
    if (c.options.require_sources && !std::filesystem::is_regular_file(k.sources.back()))
      c.error(s, "the kernel binary \"" + k.sources.back().string() + "\" does not exist", ErrorId::DanglingReference);
  }
  for (const pugi::xml_node& holder : {kn, outer}) {
    const bool inner = holder == kn;
    const auto params = Context::children(holder, "Parameters");
    const auto works = Context::children(holder, "WorkSizes");
    if (inner && params.empty() && works.empty()) continue;  // 2019 layout: in the CustomLayer
    if (params.size() != 1) c.error(holder, tag(holder) + " needs exactly one <Parameters>, it has " + std::to_string(params.size()), ErrorId::Arity);
    else parse_parameters(c, params.front(), k);
    if (works.size() != 1) c.error(holder, tag(holder) + " needs exactly one <WorkSizes>, it has " + std::to_string(works.size()), ErrorId::Arity);
    else parse_work_sizes(c, works.front(), k);
    break;
  }
  return k;
}

}  // namespace

void parse_mvcl(const Context& c, const pugi::xml_node& n, std::vector<MvclEntry>& out) {
  MvclEntry entry;
  entry.line = c.line(n);
  MvclLayer& layer = entry.layer;
  layer.where = c.where(n);
  c.only_attributes(n, {"name", "type", "version", "stage"});
  no_empty_attributes(c, n);
  if (auto name = c.required(n, "name")) layer.name = *name;
  if (auto v = c.required(n, "version"); v && *v != "1") c.error(n, "<CustomLayer> version=\"" + *v + "\" is not 1", ErrorId::AttributeValue);
  entry.stage = c.index(n, "stage", false);
  const auto kernels = Context::children(n, "Kernel");
  const bool old_layout = n.child("Parameters") || n.child("WorkSizes");
  c.only_children(n, old_layout ? std::initializer_list<const char*>{"Where", "Kernel", "Parameters", "WorkSizes"}
                                 : std::initializer_list<const char*>{"Where", "Kernel"});
  const auto wheres = Context::children(n, "Where");
  for (std::size_t i = 1; i < wheres.size(); ++i) c.error(wheres[i], "a second <Where> in <CustomLayer>", ErrorId::Arity);
  if (!wheres.empty()) {
    c.only_children(wheres.front(), {});
    no_empty_attributes(c, wheres.front());
    for (const pugi::xml_attribute& a : wheres.front().attributes()) layer.where_params[a.name()] = a.value();
  }
  if (kernels.empty()) c.error(n, "<CustomLayer> has no <Kernel> element", ErrorId::Arity);
  if (old_layout && kernels.size() > 1)
    c.error(n, "<CustomLayer> with <Parameters> outside its <Kernel> (the 2019 layout) must have one <Kernel>", ErrorId::Arity);
  for (const auto& kn : kernels) {
    layer.kernels.push_back(parse_kernel(c, kn, n));
    if (entry.stage) layer.kernels.back().stage = *entry.stage;
  }
  if (kernels.size() > 1) {
    std::set<int> stages;
    for (std::size_t i = 0; i < kernels.size(); ++i) {
      if (!kernels[i].attribute("stage")) c.error(kernels[i], "<Kernel> of a multi-kernel layer has no stage attribute", ErrorId::AttributeValue);
      else if (!stages.insert(layer.kernels[i].stage).second) c.error(kernels[i], "<Kernel> stage " + std::to_string(layer.kernels[i].stage) + " repeats", ErrorId::DuplicateName);
    }
  }
  out.push_back(std::move(entry));
}

void merge_mvcl(const Context& c, std::vector<MvclEntry> entries, CustomLayerConfig& out) {
  // Entries of one name and one Where variant form one layer; 2019-layout stages join here.
  std::vector<std::pair<MvclLayer, std::vector<int>>> layers;  // with the line of each kernel's entry
  // (name, Where variant) -> index in `layers`: O(log n) per entry, not a linear search.
  std::map<std::pair<std::string, std::map<std::string, std::string>>, std::size_t> index;
  for (MvclEntry& e : entries) {
    const auto [found, fresh] = index.try_emplace({e.layer.name, e.layer.where_params}, layers.size());
    if (fresh) {
      std::vector<int> lines(e.layer.kernels.size(), e.line);
      layers.emplace_back(std::move(e.layer), std::move(lines));
      continue;
    }
    auto it = layers.begin() + static_cast<std::ptrdiff_t>(found->second);
    // Only staged entries (2019 layout) may share a name and a Where variant, each a new stage.
    const bool staged = e.stage.has_value();
    bool clash = !staged;
    for (const MvclKernel& k : it->first.kernels)
      if (k.stage == (staged ? *e.stage : 0)) clash = true;
    if (clash) {
      const std::string msg = "MVCL layer \"" + e.layer.name + "\" is already defined at line " + std::to_string(it->first.where.line) +
                              " with the same <Where> restrictions" + (staged ? " and stage " + std::to_string(*e.stage) : "");
      if (!c.options.allow_override) {
        c.problems.add(e.line, msg, ErrorId::DuplicateName);
      } else {
        out.warnings.push_back({Issue::Severity::Warning, c.file + ":" + std::to_string(e.line), msg + "; this one replaces it"});
        it->first = std::move(e.layer);
        it->second.assign(it->first.kernels.size(), e.line);
      }
      continue;
    }
    for (MvclKernel& k : e.layer.kernels) {
      it->first.kernels.push_back(std::move(k));
      it->second.push_back(e.line);
    }
  }
  for (auto& entry : layers) {
    MvclLayer& layer = entry.first;  // a named reference: lambdas cannot capture structured bindings in C++20
    std::vector<std::size_t> order(layer.kernels.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return layer.kernels[a].stage < layer.kernels[b].stage; });
    std::vector<MvclKernel> sorted;
    for (std::size_t i : order) sorted.push_back(std::move(layer.kernels[i]));
    layer.kernels = std::move(sorted);
    for (std::size_t i = 0; i < layer.kernels.size(); ++i)
      if (layer.kernels[i].stage != static_cast<int>(i)) {
        c.problems.add(layer.where.line, "MVCL layer \"" + layer.name + "\" has stages that are not numbered 0.." +
                                             std::to_string(layer.kernels.size() - 1), ErrorId::AttributeValue);
        break;
      }
    out.mvcl_layers.push_back(std::move(layer));
  }
}

}  // namespace nnbridge::config::openvino_custom::detail
