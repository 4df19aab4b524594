// The generated malformed corpus (malformed_corpus.h) through the CLI: every input exits 3 with
// a message naming the file, never a signal, and a failed command leaves no output. The inputs
// mutated are real files: the bundled Arm NN models (written by Arm NN 20.08), their VkGraph /
// delegate / IR JSON conversions, a flatc-compiled TFLite GL model, the models' .npy inputs, and
// TFLite settings in three forms. malformed_test.cc covers the Arm NN models from ../shared too.
#include <doctest/doctest.h>

#include <map>

#include "malformed_corpus.h"
#include "process.h"
#include "support/flatc.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;
using corpus::Malformed;

namespace {

struct Runner {
  fs::path dir = temp_dir();
  int cases = 0;

  // Writes each mutation to case<k><ext> and runs `command` (with IN and OUT substituted);
  // `outputs` lists what must not exist afterwards (OUT, or a folder that must stay empty).
  void run(const std::string& source, const std::vector<Malformed>& corpus, const std::string& ext,
           const std::vector<std::string>& command, const fs::path& out, const fs::path& in_path = {}) {
    for (const Malformed& m : corpus) {
      const fs::path in = in_path.empty() ? dir / ("case" + std::to_string(cases) + ext) : in_path;
      write_file(in, m.bytes);
      std::vector<std::string> args;
      for (const std::string& a : command) args.push_back(a == "IN" ? in.string() : a == "OUT" ? out.string() : a);
      RunResult r = run_cli(args);
      CAPTURE(source);
      CAPTURE(m.name);
      CHECK(r.signal == 0);
      CHECK(r.code == 3);
      CHECK(r.err.find("nnbridge: error: ") != std::string::npos);
      CHECK(r.err.find(in.string()) != std::string::npos);
      if (fs::is_directory(out)) {
        CHECK(fs::is_empty(out));
        for (const auto& e : fs::directory_iterator(out)) fs::remove_all(e.path());
      } else {
        CHECK_FALSE(fs::exists(out));
        fs::remove(out);  // so that one failure does not fail every later case
      }
      ++cases;
    }
  }
};

// A real input made by a tool: the nnbridge CLI's conversion of a real file, or flatc.
std::string converted(const fs::path& from, const fs::path& to, const std::vector<std::string>& extra = {}) {
  std::vector<std::string> args{"convert", from.string(), to.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  RunResult r = run_cli(args);
  return r.code == 0 ? read_file(to) : std::string();
}

// A small TFLite GL compiled model: one program with a constant buffer and a referenced texture.
constexpr const char* kAfcmJson = R"({
  "parameters": {"dynamic_batch": false},
  "shaders": ["void main() { }"],
  "programs": [{
    "objects": [
      {"access": "READ", "binding": 0, "data_type": "FLOAT32", "type": "BUFFER", "size_type": "Uint1",
       "size": {"x": 2}, "object_type": "ObjectData", "object": {"data": [0, 0, 128, 63, 0, 0, 0, 64]}},
      {"access": "WRITE", "binding": 1, "data_type": "FLOAT32", "type": "TEXTURE", "size_type": "Uint3",
       "size": {"x": 1, "y": 2, "z": 3}, "object_type": "ObjectRef", "object": {"global_id": 7}}],
    "number_workgroups": {"x": 1, "y": 2, "z": 3},
    "workgroup_size": {"x": 4, "y": 1, "z": 1},
    "shader_index": 0}]
})";

}  // namespace

TEST_CASE("cli malformed corpus: 200+ generated malformed inputs each exit 3 with a message and no output") {
  Runner r;
  const fs::path models = source_dir() / "examples" / "models";
  const std::vector<std::string> names{"add_softmax", "conv_relu_fc", "quant_add_relu"};
  const fs::path out_json = r.dir / "out.json";
  int graphs_converted = 0;
  for (const std::string& name : names) {
    const fs::path model = models / (name + ".armnn");
    REQUIRE(fs::exists(model));
    const std::string bytes = read_file(model);
    r.run(name, corpus::flatbuffer_mutations(bytes), ".armnn", {"convert", "IN", "OUT"}, out_json);
    r.run(name, corpus::armnn_mutations(bytes), ".armnn", {"convert", "IN", "OUT"}, out_json);

    const std::string vk = converted(model, r.dir / (name + ".vkgraph"), {"-O", "vkgraph.constants=external"});
    if (!vk.empty()) {
      r.run(name + ".vkgraph", corpus::flatbuffer_mutations(vk), ".vkgraph", {"convert", "IN", "OUT"}, out_json);
      r.run(name + ".vkgraph", corpus::vkgraph_mutations(vk), ".vkgraph", {"convert", "IN", "OUT"}, out_json);
      ++graphs_converted;
    }
    const std::string payload = converted(model, r.dir / (name + ".vkdelegate"));
    if (!payload.empty())
      r.run(name + ".vkdelegate", corpus::vkdelegate_mutations(payload), ".vkdelegate", {"convert", "IN", "OUT"},
            out_json);

    RunResult dump = run_cli({"dump", model.string()});
    REQUIRE(dump.code == 0);
    r.run(name + ".json", corpus::ir_json_mutations(dump.out), ".json", {"convert", "IN", "OUT"},
          r.dir / "out.armnn");
  }
  CHECK(graphs_converted >= 2);  // the float models convert to VkGraph

  const fs::path afcm = flatc_binary(kAfcmJson, "gl", source_dir() / "schemas" / "afcm" / "compiled_model.fbs");
  REQUIRE_FALSE(afcm.empty());
  const std::string gl = read_file(afcm);
  r.run("gl.flow", corpus::flatbuffer_mutations(gl), ".flow", {"convert", "IN", "OUT"}, out_json);
  r.run("gl.flow", corpus::afcm_mutations(gl), ".flow", {"convert", "IN", "OUT"}, out_json);

  // .npy: add_softmax reads a.npy and b.npy from its inputs folder; a's copy is corrupted.
  const fs::path inputs = r.dir / "inputs", outputs = r.dir / "outputs";
  fs::create_directories(inputs);
  fs::create_directories(outputs);
  fs::copy_file(models / "add_softmax" / "inputs" / "b.npy", inputs / "b.npy");
  r.run("add_softmax/inputs/a.npy", corpus::npy_mutations(read_file(models / "add_softmax" / "inputs" / "a.npy")),
        ".npy",
        {"run", (models / "add_softmax.armnn").string(), "--inputs", inputs.string(), "--outputs", outputs.string()},
        outputs, inputs / "a.npy");

  // TFLite settings: TFLite's own form (fb-json), converted by the CLI into two more.
  const fs::path settings = r.dir / "xnnpack.json";
  write_file(settings, R"({"delegate": "XNNPACK", "xnnpack_settings": {"num_threads": 5, "flags": 1}})");
  const fs::path out_pb = r.dir / "out.pb";
  r.run("xnnpack.json", corpus::settings_json_mutations(read_file(settings)), ".json",
        {"config", "convert", "IN", "OUT"}, out_pb);
  std::map<std::string, std::string> forms;
  for (const char* ext : {".pb", ".fb", ".pb.json"}) {
    const fs::path to = r.dir / (std::string("xnnpack") + ext);
    REQUIRE(run_cli({"config", "convert", settings.string(), to.string()}).code == 0);
    forms[ext] = read_file(to);
  }
  const fs::path out_txt = r.dir / "out.txtpb";
  r.run("xnnpack.pb", corpus::proto_binary_mutations(forms[".pb"]), ".pb", {"config", "convert", "IN", "OUT"}, out_txt);
  r.run("xnnpack.fb", corpus::flatbuffer_mutations(forms[".fb"]), ".fb", {"config", "convert", "IN", "OUT"}, out_txt);
  r.run("xnnpack.pb.json", corpus::settings_json_mutations(forms[".pb.json"]), ".pb.json",
        {"config", "convert", "IN", "OUT"}, out_txt);

  MESSAGE(r.cases << " malformed inputs");
  CHECK(r.cases >= 200);
  fs::remove_all(r.dir);
}
