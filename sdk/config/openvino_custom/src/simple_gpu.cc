// One `type="SimpleGPU"` CustomLayer element (OpenVINO intel_gpu custom_layer.cpp rules, made
// strict: every problem is reported with its line, nothing is silently ignored).
#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>

#include "internal.h"

namespace nnbridge::config::openvino_custom::detail {

namespace {

std::optional<TensorFormat> gpu_format(std::string_view s) {
  // custom_layer.cpp FormatFromString: the upper-case or the all-lower-case spelling.
  static const std::map<std::string_view, TensorFormat> names = {
      {"BFYX", TensorFormat::BFYX}, {"bfyx", TensorFormat::BFYX}, {"BYXF", TensorFormat::BYXF}, {"byxf", TensorFormat::BYXF},
      {"FYXB", TensorFormat::FYXB}, {"fyxb", TensorFormat::FYXB}, {"YXFB", TensorFormat::YXFB}, {"yxfb", TensorFormat::YXFB},
      {"ANY", TensorFormat::ANY},   {"any", TensorFormat::ANY}};
  auto it = names.find(s);
  if (it == names.end()) return std::nullopt;
  return it->second;
}

// A `<Node>` that must appear exactly once (`optional`: at most once); returns it or an empty node.
pugi::xml_node single(const Context& c, const pugi::xml_node& parent, const char* name, bool optional) {
  auto all = Context::children(parent, name);
  if (all.empty()) {
    if (!optional) c.error(parent, tag(parent) + " has no <" + name + "> element", ErrorId::Arity);
    return {};
  }
  for (std::size_t i = 1; i < all.size(); ++i) c.error(all[i], "a second <" + std::string(name) + "> in " + tag(parent), ErrorId::Arity);
  return all.front();
}

void parse_kernel(const Context& c, const pugi::xml_node& k, SimpleGpuLayer& layer) {
  c.only_attributes(k, {"entry"});
  c.only_children(k, {"Source", "Define"});
  if (auto e = c.required(k, "entry")) layer.entry = *e;
  const auto sources = Context::children(k, "Source");
  if (sources.empty()) c.error(k, "<Kernel> has no <Source> element", ErrorId::Arity);
  for (const auto& s : sources) {
    c.only_attributes(s, {"filename"});
    c.only_children(s, {});
    auto name = c.required(s, "filename");
    if (!name) continue;
    const std::filesystem::path path = c.dir / *name;
    layer.sources.push_back(path);
    if (!c.options.require_sources) continue;
    try {
      layer.source_text += "\n// Custom Layer Kernel " + path.string() + "\n\n" +
                           read_custom_layer_file(path, c.options.max_file_bytes, "kernel source");
    } catch (const Error& e) {
      // A problem of the file, listed with the layer's: a missing source is a filename that refers
      // to nothing; an unreadable one (a device, over the size limit) has no finer identifier.
      c.error(s, e.message(), e.id() == ErrorId::IoOpen ? ErrorId::DanglingReference : ErrorId::InvalidOther);
    }
  }
  for (const auto& d : Context::children(k, "Define")) {
    c.only_attributes(d, {"name", "param", "type", "default"});
    c.only_children(d, {});
    Define def;
    def.where = c.where(d);
    if (auto n = c.required(d, "name")) def.name = *n;
    def.param = d.attribute("param").value();
    def.type = d.attribute("type").value();
    def.default_value = d.attribute("default").value();
    if (!def.type.empty() && def.type != "int" && def.type != "float" && def.type != "int[]" && def.type != "float[]")
      c.error(d, "<Define> type=\"" + def.type + "\" is not int, float, int[] or float[]", ErrorId::AttributeValue);
    if (d.attribute("param") && def.param.empty()) c.error(d, "<Define> has an empty param attribute", ErrorId::AttributeValue);
    layer.defines.push_back(std::move(def));
  }
}

void parse_buffers(const Context& c, const pugi::xml_node& b, SimpleGpuLayer& layer) {
  c.only_attributes(b, {});
  c.only_children(b, {"Tensor", "Data"});
  std::map<int, int> args;  // arg-index -> line of its first binding
  auto claim = [&](const pugi::xml_node& n, int arg) {
    auto [it, fresh] = args.emplace(arg, c.line(n));
    if (!fresh) c.error(n, "arg-index " + std::to_string(arg) + " is already bound at line " + std::to_string(it->second), ErrorId::DuplicateName);
  };
  const auto tensors = Context::children(b, "Tensor");
  if (tensors.empty()) c.error(b, "<Buffers> has no <Tensor> element", ErrorId::Arity);
  for (const auto& t : tensors) {
    c.only_attributes(t, {"arg-index", "type", "port-index", "format", "size"});
    c.only_children(t, {});
    TensorBinding tb;
    tb.where = c.where(t);
    auto arg = c.index(t, "arg-index");
    auto port = c.index(t, "port-index");  // required on every Tensor, internal ones too (custom_layer.cpp)
    auto type = c.required(t, "type");
    bool ok = arg && port && type;
    if (type && *type == "input") tb.type = TensorBinding::Direction::Input;
    else if (type && *type == "output") tb.type = TensorBinding::Direction::Output;
    else if (type && *type == "internal") tb.type = TensorBinding::Direction::Internal;
    else if (type) ok = false, c.error(t, "<Tensor> type=\"" + *type + "\" is not input, output or internal", ErrorId::AttributeValue);
    const pugi::xml_attribute size = t.attribute("size");
    if (ok && tb.type == TensorBinding::Direction::Internal) {
      tb.size = size.value();
      std::string why;
      if (!size) c.error(t, "<Tensor type=\"internal\"> has no size attribute (its element count)", ErrorId::AttributeValue);
      else if (!is_legal_internal_size(tb.size, &why)) c.error(t, "<Tensor type=\"internal\"> " + why, ErrorId::AttributeValue);
    } else if (ok && size) {
      c.error(t, "<Tensor> size= applies to type=\"internal\" only", ErrorId::AttributeValue);
    }
    if (const pugi::xml_attribute f = t.attribute("format")) {
      if (auto fmt = gpu_format(f.value())) tb.format = *fmt;
      else c.error(t, "<Tensor> format=\"" + std::string(f.value()) + "\" is not BFYX, BYXF, FYXB, YXFB or ANY (or in lower case)", ErrorId::AttributeValue);
    }
    if (!ok) continue;
    tb.arg_index = *arg;
    tb.port_index = *port;
    claim(t, *arg);
    layer.tensors.push_back(tb);
  }
  for (const auto& d : Context::children(b, "Data")) {
    c.only_attributes(d, {"arg-index", "name"});
    c.only_children(d, {});
    DataBinding db;
    db.where = c.where(d);
    auto arg = c.index(d, "arg-index");
    auto name = c.required(d, "name");
    if (!arg || !name) continue;
    db.arg_index = *arg;
    db.name = *name;
    claim(d, *arg);
    layer.data.push_back(db);
  }
  // Every kernel argument must be bound: a SimpleGPU kernel has no other kind of argument.
  int expect = 0;
  for (const auto& [arg, line] : args) {
    if (arg != expect) {
      c.problems.add(c.line(b), "kernel argument " + std::to_string(expect) + " is bound by no <Tensor> or <Data> (arg-index values must be 0.." +
                                    std::to_string(args.size() - 1) + ")", ErrorId::Arity);
      break;
    }
    ++expect;
  }
  if (!tensors.empty() && std::none_of(layer.tensors.begin(), layer.tensors.end(),
                                       [](const TensorBinding& t) { return t.type == TensorBinding::Direction::Output; }))
    c.error(b, "<Buffers> binds no output <Tensor>", ErrorId::Arity);
}

void parse_work_sizes(const Context& c, const pugi::xml_node& w, SimpleGpuLayer& layer) {
  c.only_attributes(w, {"global", "local", "dim"});
  c.only_children(w, {});
  if (const pugi::xml_attribute d = w.attribute("dim")) {
    const std::string v = d.value();
    if (v == "output") {
      layer.dim = {false, 0};
    } else if (v == "input") {
      layer.dim = {true, 0};
    } else if (v.rfind("input,", 0) == 0 && v.size() > 6 && v.size() <= 12 &&
               std::all_of(v.begin() + 6, v.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
      layer.dim = {true, std::stoi(v.substr(6))};
    } else {
      c.error(w, "<WorkSizes> dim=\"" + v + "\" is not output, input or input,N (N a non-negative integer)", ErrorId::AttributeValue);
    }
  }
  auto rules = [&](const char* attr, std::vector<std::string>& out) {
    const pugi::xml_attribute a = w.attribute(attr);
    if (!a) return;
    const std::string all = a.value();
    if (all.empty()) return;  // local="": the OpenCL runtime chooses (the documented default)
    std::size_t start = 0;
    for (;;) {
      const std::size_t comma = all.find(',', start);
      const std::string rule = all.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      std::string why;
      if (!check_formula_syntax(rule, false, &why))
        c.error(w, "<WorkSizes> " + std::string(attr) + " item " + std::to_string(out.size() + 1) + ": " + why, ErrorId::AttributeValue);
      out.push_back(rule);
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    if (out.size() > 3) c.error(w, "<WorkSizes> " + std::string(attr) + " has " + std::to_string(out.size()) + " items; OpenCL takes at most 3", ErrorId::Arity);
  };
  rules("global", layer.global);
  rules("local", layer.local);
  if (!layer.local.empty() && !layer.global.empty() && layer.local.size() != layer.global.size())
    c.error(w, "<WorkSizes> local has " + std::to_string(layer.local.size()) + " items, global " + std::to_string(layer.global.size()) +
                   "; OpenCL needs the same number", ErrorId::Arity);
  if (!layer.local.empty() && layer.global.empty() && layer.local.size() != 1)
    c.error(w, "<WorkSizes> local has " + std::to_string(layer.local.size()) + " items; the default global (B*F*Y*X) has 1", ErrorId::Arity);
}

}  // namespace

void parse_simple_gpu(const Context& c, const pugi::xml_node& n, CustomLayerConfig& out) {
  SimpleGpuLayer layer;
  layer.where = c.where(n);
  c.only_attributes(n, {"name", "type", "version"});
  c.only_children(n, {"Kernel", "Buffers", "CompilerOptions", "WorkSizes"});
  if (auto name = c.required(n, "name")) layer.name = *name;
  if (auto v = c.required(n, "version"); v && *v != "1") c.error(n, "<CustomLayer> version=\"" + *v + "\" is not 1", ErrorId::AttributeValue);
  if (auto k = single(c, n, "Kernel", false)) parse_kernel(c, k, layer);
  if (auto b = single(c, n, "Buffers", false)) parse_buffers(c, b, layer);
  if (auto o = single(c, n, "CompilerOptions", true)) {
    c.only_attributes(o, {"options"});
    c.only_children(o, {});
    if (!o.attribute("options")) c.error(o, "<CompilerOptions> has no options attribute", ErrorId::AttributeValue);
    layer.compiler_options = o.attribute("options").value();
  }
  if (auto w = single(c, n, "WorkSizes", true)) parse_work_sizes(c, w, layer);
  out.gpu_layers.push_back(std::move(layer));
}

}  // namespace nnbridge::config::openvino_custom::detail
