// Reading a custom-layer XML file: the document rules (every top-level element is one
// CustomLayer; OpenVINO intel_gpu custom_layer.cpp LoadFromFile), dispatch by type, duplicate
// names, and merging several files.
#include <fstream>
#include <sstream>
#include <system_error>
#include <unordered_map>

#include "internal.h"

namespace nnbridge::config::openvino_custom {

using detail::Context;
using detail::Lines;
using detail::Problems;

const SimpleGpuLayer* CustomLayerConfig::find(std::string_view name) const {
  for (const SimpleGpuLayer& l : gpu_layers)
    if (l.name == name) return &l;
  return nullptr;
}

CustomLayerSet::CustomLayerSet(CustomLayerConfig config) : config_(std::move(config)) {
  for (std::size_t i = 0; i < config_.gpu_layers.size(); ++i) index_.emplace(config_.gpu_layers[i].name, i);
}

const SimpleGpuLayer* CustomLayerSet::find(std::string_view name) const {
  const auto it = index_.find(name);
  return it == index_.end() ? nullptr : &config_.gpu_layers[it->second];
}

namespace {

/// Where each layer of `into.gpu_layers` is, by name: a file of n layers is added in O(n), not
/// O(n^2) (a linear search per layer took a minute for 100k layers).
class GpuLayerAdder {
 public:
  explicit GpuLayerAdder(CustomLayerConfig& into) : into_(into) {
    for (std::size_t i = 0; i < into.gpu_layers.size(); ++i) index_.emplace(into.gpu_layers[i].name, i);
  }

  /// Adds `layer` by the duplicate rule; returns the refusal (without its location).
  std::optional<std::string> add(SimpleGpuLayer layer, bool allow_override) {
    const auto [it, fresh] = index_.emplace(layer.name, into_.gpu_layers.size());
    if (fresh) {
      into_.gpu_layers.push_back(std::move(layer));
      return std::nullopt;
    }
    SimpleGpuLayer& old = into_.gpu_layers[it->second];
    const std::string msg = "custom layer \"" + layer.name + "\" is already defined at " + old.where.text();
    if (!allow_override) return msg + " (allow_override / --allow-override lets a later definition replace it)";
    into_.warnings.push_back({Issue::Severity::Warning, layer.where.text(), msg + "; this definition replaces it"});
    old = std::move(layer);
    return std::nullopt;
  }

 private:
  CustomLayerConfig& into_;
  std::unordered_map<std::string, std::size_t> index_;
};

}  // namespace

CustomLayerConfig parse_custom_layers(std::string_view xml, const std::filesystem::path& file, const LoadCustomLayersOptions& options) {
  const std::string label = file.string();
  pugi::xml_document doc;
  const pugi::xml_parse_result r =
      doc.load_buffer(xml.data(), xml.size(), pugi::parse_default | pugi::parse_fragment | pugi::parse_doctype, pugi::encoding_utf8);
  // parse_fragment keeps text between the top-level elements, so that it can be reported.
  const Lines lines(xml);
  if (!r)
    throw Error(ErrorId::Syntax, label + ":" + std::to_string(lines.line_of(r.offset)) + ": not well-formed XML: " + r.description(),
                label);
  for (pugi::xml_node n = doc.first_child(); n; n = n.next_sibling())
    if (n.type() == pugi::node_doctype)
      throw Error(ErrorId::MalformedOther, label + ":" + std::to_string(lines.line_of(n.offset_debug())) +
                      ": a DOCTYPE is not allowed (entity declarations are refused; custom-layer files have none)",
                  label);
  Problems problems(label);
  std::filesystem::path dir = file.parent_path();
  if (dir.empty()) dir = ".";
  const Context c{problems, lines, label, dir, options};
  CustomLayerConfig out;
  CustomLayerConfig single;  // the file's own layers before the duplicate rule
  std::vector<detail::MvclEntry> mvcl;
  bool any = false;
  for (pugi::xml_node n = doc.first_child(); n; n = n.next_sibling()) {
    if (n.type() == pugi::node_pcdata || n.type() == pugi::node_cdata) {
      const std::string_view text = n.value();
      const std::size_t first = text.find_first_not_of(" \t\r\n");
      problems.add(lines.line_of(n.offset_debug() + static_cast<std::ptrdiff_t>(first == std::string_view::npos ? 0 : first)),
                   "text outside any element", ErrorId::InvalidOther);
      continue;
    }
    if (n.type() != pugi::node_element) continue;
    any = true;
    if (std::string_view(n.name()) != "CustomLayer") {
      c.error(n, "top-level element " + detail::tag(n) + " is not <CustomLayer> (a custom-layer file is a sequence of <CustomLayer> elements)", ErrorId::InvalidOther);
      continue;
    }
    const std::string type = n.attribute("type").value();
    if (type == "SimpleGPU") detail::parse_simple_gpu(c, n, single);
    else if (type == "MVCL") detail::parse_mvcl(c, n, mvcl);
    else c.error(n, "<CustomLayer> type=\"" + type + "\" is not SimpleGPU (GPU) or MVCL (MYRIAD)", ErrorId::AttributeValue);
  }
  if (!any) problems.add(1, "the file holds no <CustomLayer> element", ErrorId::Arity);
  GpuLayerAdder adder(out);
  for (SimpleGpuLayer& l : single.gpu_layers) {
    const int line = l.where.line;
    if (auto refused = adder.add(std::move(l), options.allow_override)) problems.add(line, *refused, ErrorId::DuplicateName);
  }
  detail::merge_mvcl(c, std::move(mvcl), out);
  problems.throw_if_any();
  return out;
}

std::string read_custom_layer_file(const std::filesystem::path& path, std::uint64_t max_bytes, std::string_view what) {
  const std::string name = std::string(what) + " \"" + path.string() + "\"";
  const auto fail = [&](ErrorId id, const std::string& why) { throw Error(id, why, path.string()); };
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (!std::filesystem::exists(status)) fail(ErrorId::IoOpen, "cannot open the " + name);
  if (!std::filesystem::is_regular_file(status)) fail(ErrorId::IoNotRegular, "the " + name + " is not a regular file (a device, FIFO or directory is refused)");
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) fail(ErrorId::IoRead, "cannot read the " + name + " (" + ec.message() + ")");
  if (size > max_bytes)
    fail(ErrorId::IoTooLarge, "the " + name + " has " + std::to_string(size) + " bytes, over the limit of " + std::to_string(max_bytes) +
         " (LoadCustomLayersOptions::max_file_bytes)");
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(ErrorId::IoOpen, "cannot open the " + name);
  std::string text(static_cast<std::size_t>(size), '\0');
  // Read at most the size seen above: a file that grows meanwhile is cut there, never unbounded.
  in.read(text.data(), static_cast<std::streamsize>(size));
  if (in.bad()) fail(ErrorId::IoRead, "cannot read the " + name);
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

CustomLayerConfig load_custom_layers(const std::filesystem::path& xml, const LoadCustomLayersOptions& options) {
  return parse_custom_layers(read_custom_layer_file(xml, options.max_file_bytes, "custom-layer file"), xml, options);
}

void merge_custom_layers(CustomLayerConfig& into, CustomLayerConfig more, const LoadCustomLayersOptions& options) {
  std::vector<std::string> problems;
  GpuLayerAdder adder(into);
  for (SimpleGpuLayer& l : more.gpu_layers) {
    const std::string where = l.where.text();
    if (auto refused = adder.add(std::move(l), options.allow_override)) problems.push_back(where + ": " + *refused);
  }
  for (MvclLayer& l : more.mvcl_layers) into.mvcl_layers.push_back(std::move(l));
  for (Issue& w : more.warnings) into.warnings.push_back(std::move(w));
  if (problems.empty()) return;
  std::string msg = std::to_string(problems.size()) + (problems.size() == 1 ? " problem" : " problems") + " merging custom-layer files:";
  for (const std::string& p : problems) msg += "\n  " + p;
  throw Error(ErrorId::DuplicateName, msg);
}

std::shared_ptr<const CustomLayerSet> custom_layer_set(std::span<const std::filesystem::path> xml_files,
                                                       const LoadCustomLayersOptions& options) {
  CustomLayerConfig all;
  for (const auto& f : xml_files) merge_custom_layers(all, load_custom_layers(f, options), options);
  return std::make_shared<const CustomLayerSet>(std::move(all));
}

}  // namespace nnbridge::config::openvino_custom
