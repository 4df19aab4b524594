// Polish from a new-user trial (issue 22), each judged by a rule, not by nnbridge's own output:
// - `info` names the file's own operators beside the canonical ops: per Arm NN layer type and
//   per VkGraph operator name, as many as flatc counts in the file;
// - `formats --verbose` and an unknown -I / -O key list each option with its meaning and default
//   (the defaults the public headers state);
// - output folders follow one rule: the folder an output is named as (run --outputs DIR) is
//   created, the folders above an output never are (convert into a missing folder is exit 3
//   naming the folder, and nothing is created);
// - `run` names the model in an error from prepare ("MODEL: nodes[0]: ...").
#include <doctest/doctest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>
#include <sstream>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

bool has(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return true;
  MESSAGE("\"" << part << "\" not in:\n" << text);
  return false;
}

fs::path golden(const std::string& name) { return source_dir() / "tests/golden/armnn" / name / "model.armnn"; }

/// flatc's JSON of a flatbuffer file against `schema` (--raw-binary: no identifier needed).
std::optional<nlohmann::json> flatc_json(const fs::path& schema, const fs::path& file) {
  const fs::path out = temp_dir();
  RunResult r = run_program({NNBRIDGE_FLATC, "--raw-binary", "--json", "--strict-json", "--defaults-json", "-o",
                             out.string(), schema.string(), "--", file.string()});
  const fs::path json = out / (file.stem().string() + ".json");
  if (r.code != 0 || !fs::exists(json)) return std::nullopt;
  return nlohmann::json::parse(read_file(json));
}

/// info --json's native_ops ({canonical op: {native name: count}}) summed per native name.
std::map<std::string, int> native_counts(const nlohmann::json& info) {
  std::map<std::string, int> out;
  for (const auto& per_op : info.at("native_ops"))
    for (const auto& [name, count] : per_op.items()) out[name] += count.get<int>();
  return out;
}

/// A one-node IR JSON graph x -> op -> y on float32 [2].
void write_one_node(const fs::path& file, const std::string& op) {
  const std::string type = R"({"dtype": "float32", "shape": [2]})";
  write_file(file, R"({"format": "nnbridge-ir", "version": 1, "values": [{"name": "x", "type": )" + type +
                       R"(}, {"name": "y", "type": )" + type + R"(}], "nodes": [{"op": ")" + op +
                       R"(", "name": "n0", "inputs": [0], "outputs": [1]}], "inputs": [0], "outputs": [1]})");
}

/// x.npy holding float32 [2] {1, -1}, by the NumPy format rule (magic, version 1.0, header
/// length, header padded to 128 bytes in all).
void write_x_npy(const fs::path& dir) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }";
  header.resize(128 - 10 - 1, ' ');
  header += '\n';
  std::string npy = std::string("\x93NUMPY\x01\x00", 8) + std::string(1, char(header.size())) + std::string(1, '\0') + header;
  const float v[2] = {1.0f, -1.0f};
  npy.append(reinterpret_cast<const char*>(v), sizeof v);
  fs::create_directories(dir);
  write_file(dir / "x.npy", npy);
}

}  // namespace

TEST_CASE("cli info: each Arm NN layer type beside its canonical op, as many as flatc counts") {
  auto schema = armnn_schema();
  if (!schema) return skip("schemas/armnn/ArmnnSchema.fbs is absent");
  for (const char* name : {"depthwise_nhwc_m1", "conv2d_nhwc_same", "activation_zoo_multi_output", "fully_connected"}) {
    CAPTURE(name);
    const fs::path model = golden(name);
    auto decoded = flatc_json(*schema, model);
    REQUIRE(decoded);
    // Input layers are graph inputs and Constant layers constants, not nodes: only the other
    // layers are operators in the IR.
    std::map<std::string, int> layers;
    for (const auto& l : decoded->at("layers")) {
      std::string type = l.at("layer_type").get<std::string>();
      type = type.substr(0, type.size() - std::string("Layer").size());
      if (type != "Input" && type != "Constant") ++layers[type];
    }
    RunResult r = run_cli({"info", model.string(), "--json"});
    REQUIRE(r.code == 0);
    const auto info = nlohmann::json::parse(r.out);
    CHECK(info.at("native_format") == "armnn");
    CHECK(native_counts(info) == layers);
  }
  // Text: the canonical op, then the layers it was read from. Arm NN's DepthwiseConvolution2d is
  // the canonical Conv (armnn.h: depthwise weights read with kernel_layout "1HWO" and a group);
  // the Output layer an Identity (armnn.h: "Output layer: an `Identity` node").
  RunResult r = run_cli({"info", golden("depthwise_nhwc_m1").string()});
  REQUIRE(r.code == 0);
  CHECK(has(r.out, "ops (canonical <- armnn):\n"));
  CHECK(has(r.out, "  Conv x1  <- DepthwiseConvolution2d x1\n"));
  CHECK(has(r.out, "  Identity x1  <- Output x1\n"));
}

TEST_CASE("cli info: each VkGraph operator name beside its canonical op, as many as flatc counts") {
  const fs::path dir = temp_dir();
  const fs::path vk = dir / "m.vkgraph";
  RunResult c = run_cli({"convert", golden("conv2d_nhwc_same").string(), vk.string(), "-O", "vkgraph.constants=external"});
  REQUIRE(c.code == 0);
  auto decoded = flatc_json(source_dir() / "schemas/vkgraph/schema.fbs", vk);
  REQUIRE(decoded);
  std::map<std::string, int> operators;
  for (const auto& call : decoded->at("chain")) ++operators[call.at("name").get<std::string>()];
  REQUIRE(operators.count("aten.convolution.default") == 1);
  RunResult r = run_cli({"info", vk.string(), "--json"});
  REQUIRE(r.code == 0);
  const auto info = nlohmann::json::parse(r.out);
  CHECK(info.at("native_format") == "vkgraph");
  CHECK(native_counts(info) == operators);
  // The table vkgraph.h names (src/ops.cc) maps aten.convolution.default to Conv.
  CHECK(info.at("native_ops").at("Conv").at("aten.convolution.default") == 1);
}

TEST_CASE("cli info: a format without operators of its own shows the ops alone") {
  const fs::path dir = temp_dir();
  write_one_node(dir / "m.json", "Relu");
  RunResult r = run_cli({"info", (dir / "m.json").string()});
  REQUIRE(r.code == 0);
  CHECK(has(r.out, "ops:\n  Relu x1\n"));
  CHECK(r.out.find("<-") == std::string::npos);
  r = run_cli({"info", (dir / "m.json").string(), "--json"});
  REQUIRE(r.code == 0);
  CHECK_FALSE(nlohmann::json::parse(r.out).contains("native_ops"));
}

TEST_CASE("cli formats --verbose: every option of every format with its meaning, defaults as the headers state") {
  RunResult r = run_cli({"formats", "--verbose"});
  REQUIRE(r.code == 0);
  // Defaults stated in the public headers: VerifierLimits (nnbridge/format.h), armnn.h,
  // nnbridge/json.h (JsonWriteOptions::inline_limit), onnx.h, pte.h.
  CHECK(has(r.out, "    armnn.max_depth\n        "));
  CHECK(has(r.out, "(default: 64)\n"));
  CHECK(has(r.out, "(default: 100000000)\n"));
  CHECK(has(r.out, "(default: 2147483647)\n"));
  CHECK(has(r.out, "    armnn.layout\n"));
  CHECK(has(r.out, "(default: released"));
  CHECK(has(r.out, "    json.inline_limit\n"));
  CHECK(has(r.out, "(default: 4096)\n"));
  CHECK(has(r.out, "    onnx.max_nodes\n"));
  CHECK(has(r.out, "(default: 10000000)\n"));
  CHECK(has(r.out, "    pte.method\n"));
  CHECK(has(r.out, "(default: forward"));
  CHECK(has(r.out, "  writer options (-O key=value):\n"));
  CHECK(has(r.out, "  reader options (-I key=value):\n"));
  // Every option line (4 spaces, then format.key) is followed by its meaning (8 spaces).
  std::istringstream lines(r.out);
  std::string line, prev;
  std::set<std::string> options;
  const std::regex option_line(R"(^    [a-z-]+\.[A-Za-z_]+$)");
  bool prev_option = false;
  while (std::getline(lines, line)) {
    if (prev_option) {
      CAPTURE(prev);
      CHECK(line.rfind("        ", 0) == 0);
      CHECK(line.size() > 12);
    }
    prev_option = std::regex_match(line, option_line);
    if (prev_option) options.insert(line.substr(4));
    prev = line;
  }
  // The options the public headers list (armnn.h, vkgraph.h, afcm.h, pte.h, onnx.h, nnbridge/io.h's
  // json format), each once.
  std::set<std::string> want;
  for (const char* f : {"armnn", "armnn-json", "afcm", "vkgraph", "vkdelegate", "pte", "ptd"})
    for (const char* k : {"max_depth", "max_tables", "max_size"}) want.insert(std::string(f) + "." + k);
  for (const char* k : {"armnn.layout", "armnn.bindingIdsScheme", "armnn.weightsLayoutScheme", "armnn.constantTensorsAsInputs",
                        "armnn.fileIdentifier", "armnn-json.bindingIdsScheme", "armnn-json.weightsLayoutScheme",
                        "armnn-json.constantTensorsAsInputs", "vkgraph.named_data", "vkgraph.constants",
                        "vkdelegate.named_data", "vkdelegate.embed_named_data", "pte.method", "pte.named_data",
                        "pte.overwrite_ptd", "onnx.max_size", "onnx.max_nodes", "onnx.max_tensors", "onnx.external_data",
                        "onnx.external_data_threshold", "onnx.external_data_location", "onnx.overwrite_external_data",
                        "json.inline_limit", "json.indent", "json.overwrite_sidecar"})
    want.insert(k);
  for (const std::string& k : want) {
    CAPTURE(k);
    CHECK(options.count(k) == 1);
  }
}

TEST_CASE("cli: an unknown -I / -O key lists the format's options with their meanings") {
  const fs::path dir = temp_dir();
  const fs::path model = golden("depthwise_nhwc_m1");
  RunResult r = run_cli({"convert", model.string(), (dir / "out.armnn").string(), "-O", "armnn.nosuch=1"});
  CHECK(r.code == 3);
  CHECK(has(r.err, "the armnn writer has no option 'armnn.nosuch'"));
  CHECK(has(r.err, "\n  armnn.bindingIdsScheme: "));
  CHECK(has(r.err, "\n  armnn.fileIdentifier: "));
  CHECK_FALSE(fs::exists(dir / "out.armnn"));
  r = run_cli({"info", model.string(), "-I", "armnn.nosuch=1"});
  CHECK(r.code == 3);
  CHECK(has(r.err, "the armnn reader has no option 'armnn.nosuch'"));
  CHECK(has(r.err, "\n  armnn.layout: "));
  CHECK(has(r.err, "\n  armnn.max_depth: "));
  // Another format's key: refused, with this format's options.
  r = run_cli({"info", model.string(), "-I", "onnx.max_nodes=1"});
  CHECK(r.code == 3);
  CHECK(has(r.err, "does not belong to format 'armnn'"));
  CHECK(has(r.err, "\n  armnn.layout: "));
}

TEST_CASE("cli output folders: the folder named is created, the folders above an output never are") {
  const fs::path dir = temp_dir();
  const fs::path model = golden("depthwise_nhwc_m1");
  // convert into a folder that does not exist: exit 3 naming the folder; nothing created.
  const fs::path missing = dir / "missing";
  RunResult r = run_cli({"convert", model.string(), (missing / "m.json").string()});
  CHECK(r.code == 3);
  CHECK(has(r.err, "the folder " + missing.string() + " does not exist"));
  CHECK_FALSE(fs::exists(missing));

  write_one_node(dir / "m.json", "Relu");
  write_x_npy(dir / "in");
  // run --outputs under a missing folder: the same rule, exit 3 naming the folder.
  r = run_cli({"run", (dir / "m.json").string(), "--inputs", (dir / "in").string(), "--outputs", (missing / "out").string()});
  CHECK(r.code == 3);
  CHECK(has(r.err, "cannot create the --outputs folder: the folder " + missing.string() + " does not exist"));
  CHECK_FALSE(fs::exists(missing));
  // run --outputs naming a new folder in an existing one: created, y.npy written.
  r = run_cli({"run", (dir / "m.json").string(), "--inputs", (dir / "in").string(), "--outputs", (dir / "out").string()});
  CHECK(r.code == 0);
  CHECK(fs::exists(dir / "out" / "y.npy"));
}

TEST_CASE("cli run: an error from prepare names the model file and the node") {
  const fs::path dir = temp_dir();
  write_one_node(dir / "m.json", "NoSuchOp");
  write_x_npy(dir / "in");
  RunResult r = run_cli({"run", (dir / "m.json").string(), "--inputs", (dir / "in").string(), "--outputs", (dir / "out").string()});
  CHECK(r.code == 3);
  // No kernel for the op on cpu: nnbridge.unsupported.306, then the file and the node.
  CHECK(has(r.err, "nnbridge: error: [nnbridge.unsupported.306] " + (dir / "m.json").string() + ": nodes[0]: "));
  CHECK(has(r.err, "NoSuchOp"));
  CHECK_FALSE(fs::exists(dir / "out"));  // nothing written, not even the folder
}
