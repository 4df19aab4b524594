// `nnbridge info FILE [--json]`: what a file holds, without its constant data: inputs, outputs,
// the canonical ops with the file's own operator names beside them (FormatHandler::native_op)
// and the metadata.
#include <charconv>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "nnbridge/attr_text.h"
#include "commands.h"
#include "nnbridge/dtype.h"
#include "nnbridge/io.h"
#include "model_io.h"

namespace nnbridge::cli {
namespace {

struct InfoArgs {
  std::string file, from;
  std::vector<std::string> reader_options;
  bool json = false;
};

nlohmann::json tensor_json(const Graph& g, ValueId id) {
  nlohmann::json t;
  if (id >= g.values.size()) return {{"id", id}, {"error", "dangling value id"}};
  const Value& v = g.values[id];
  t["name"] = v.name;
  t["dtype"] = std::string(to_string(v.type.dtype));
  if (v.type.unknown_rank) t["shape"] = nullptr;
  else t["shape"] = v.type.shape;
  if (v.type.quantization) {
    t["scales"] = v.type.quantization->scales;
    t["zero_points"] = v.type.quantization->zero_points;
    if (v.type.quantization->axis) t["axis"] = *v.type.quantization->axis;
  }
  return t;
}

/// Shortest text that reads back to the same number; scales that are float32 values (as in
/// Arm NN files) print as float32 ("0.05", not "0.05000000074505806").
std::string number_text(double d) {
  char buf[64];
  const float f = static_cast<float>(d);
  auto r = static_cast<double>(f) == d ? std::to_chars(buf, buf + sizeof buf, f) : std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, r.ptr);
}

std::string tensor_line(const Graph& g, ValueId id) {
  if (id >= g.values.size()) return "<dangling value id " + std::to_string(id) + ">";
  const Value& v = g.values[id];
  std::string s = v.name + "  " + std::string(to_string(v.type.dtype)) + " " + shape_text(v.type);
  if (const auto& q = v.type.quantization) {
    if (q->scales.size() == 1) s += "  scale=" + number_text(q->scales[0]);
    else s += "  scales=" + std::to_string(q->scales.size());
    if (q->zero_points.size() == 1) s += " zero_point=" + std::to_string(q->zero_points[0]);
    if (q->axis) s += " axis=" + std::to_string(*q->axis);
  }
  return s;
}

int run_info(const InfoArgs& a) {
  LoadOptions lo;
  if (!a.from.empty()) lo.format = resolve_format_name(a.from);
  lo.options = key_values(a.reader_options);
  Graph g = load_model(a.file, lo);  // a phase line on a terminal for a large file
  // The format the file was read as; a JSON file records the format its graph first came from.
  const std::string format = lo.format.empty() ? detect_format(a.file) : lo.format;

  std::size_t constants = 0, constant_bytes = 0;
  std::vector<std::string> unloaded;  // keys of constants whose bytes live elsewhere (kExternalDataKey)
  for (const Value& v : g.values) {
    if (v.constant) {
      ++constants;
      constant_bytes += v.constant->size();
    }
    if (auto k = v.attrs.find(kExternalDataKey); !v.constant && k != v.attrs.end() && k->second.is<std::string>())
      unloaded.push_back(k->second.get<std::string>());
  }
  std::string hint;
  if (auto h = g.metadata.find(kExternalDataHint); h != g.metadata.end() && h->second.is<std::string>())
    hint = h->second.get<std::string>();
  std::map<std::string, std::size_t> ops;
  for (const Node& n : g.nodes) ++ops[n.op];
  // The file's own vocabulary (Arm NN layer types, VkGraph operator names, ONNX op_types) per
  // canonical op, from the handler of the format the graph was first read from (a JSON file
  // keeps the attributes that name them). Nodes the reader added have no native name.
  std::map<std::string, std::map<std::string, std::size_t>> native;
  bool native_differs = false;
  const FormatHandler* origin = find_format(g.source_format.empty() ? format : g.source_format);
  if (origin && origin->native_op)
    for (const Node& n : g.nodes)
      if (std::string name = origin->native_op(n); !name.empty()) {
        native_differs = native_differs || name != n.op;
        ++native[n.op][name];
      }

  if (a.json) {
    nlohmann::json j;
    j["file"] = a.file;
    j["format"] = format;
    j["source_format"] = g.source_format;
    j["nodes"] = g.nodes.size();
    j["values"] = g.values.size();
    j["constants"] = constants;
    j["constant_bytes"] = constant_bytes;
    if (!unloaded.empty()) {
      j["external_data"] = {{"keys", unloaded}, {"hint", hint}};
    }
    j["inputs"] = nlohmann::json::array();
    for (ValueId id : g.inputs) j["inputs"].push_back(tensor_json(g, id));
    j["outputs"] = nlohmann::json::array();
    for (ValueId id : g.outputs) j["outputs"].push_back(tensor_json(g, id));
    j["ops"] = ops;
    if (!native.empty()) {
      j["native_format"] = origin->name;
      j["native_ops"] = native;
    }
    j["metadata"] = nlohmann::json::object();
    for (const auto& [k, v] : g.metadata)
      j["metadata"][k] = v.is<Bytes>() ? nlohmann::json{{"bytes", v.get<Bytes>().data.size()}} : nlohmann::json::parse(attr_text(v));
    std::cout << j.dump(2) << "\n";
    return kOk;
  }

  std::cout << a.file << ": " << format;
  if (g.source_format != format && !g.source_format.empty()) std::cout << " (from " << g.source_format << ")";
  std::cout << ", " << g.nodes.size() << " nodes, " << g.values.size()
            << " values (" << constants << " constants, " << constant_bytes << " bytes)\n";
  if (!unloaded.empty())
    std::cout << unloaded.size() << " constants without data: named data not loaded" << (hint.empty() ? "" : " (" + hint + ")")
              << "\n";
  std::cout << "inputs:\n";
  for (ValueId id : g.inputs) std::cout << "  " << tensor_line(g, id) << "\n";
  std::cout << "outputs:\n";
  for (ValueId id : g.outputs) std::cout << "  " << tensor_line(g, id) << "\n";
  // "Conv x76 <- Convolution2d x55, DepthwiseConvolution2d x21": each canonical op with the
  // file's own operators it was read from.
  // An op read from operators of its own name only (ONNX's Relu) shows none.
  std::cout << (native_differs ? "ops (canonical <- " + origin->name + "):" : std::string("ops:")) << "\n";
  for (const auto& [op, count] : ops) {
    std::cout << "  " << op << " x" << count;
    auto it = native.find(op);
    if (it != native.end() && !(it->second.size() == 1 && it->second.begin()->first == op)) {
      std::string from;
      for (const auto& [name, k] : it->second) from += (from.empty() ? "" : ", ") + name + " x" + std::to_string(k);
      std::cout << "  <- " << from;
    }
    std::cout << "\n";
  }
  if (!g.metadata.empty()) {
    std::cout << "metadata:\n";
    for (const auto& [k, v] : g.metadata) std::cout << "  " << k << " = " << attr_summary(v) << "\n";
  }
  return kOk;
}

}  // namespace

void add_info(CLI::App& app, Action& action) {
  auto args = std::make_shared<InfoArgs>();
  auto* sub = app.add_subcommand("info", "Show a file's format, inputs, outputs, op counts and metadata");
  sub->add_option("FILE", args->file, "The graph file")->required();
  sub->add_flag("--json", args->json, "Print the summary as JSON");
  sub->add_option("--from", args->from, "Read as this format (name or extension) instead of sniffing")
      ->check(check_format_name);
  sub->add_option("-I,--reader-option", args->reader_options, "A reader option key=value, e.g. armnn.layout=seed")
      ->check(check_key_value);
  sub->callback([&action, args] { action = [args] { return run_info(*args); }; });
}

}  // namespace nnbridge::cli
