// Format armnn-json: flatc's JSON of a SerializedGraph.
//
// Oracle: flatc itself. `flatc -b` compiles the same text (its output is the reference
// binary), and `flatc --json` decodes binaries, so "the same" always means what flatc says,
// never what nnbridge wrote before.
#include <doctest/doctest.h>

#include <cstring>

#include <fstream>
#include <sstream>

#include "nnbridge/error.h"
#include "nnbridge/formats/armnn.h"
#include "nnbridge/io.h"
#include "nnbridge/json.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;
namespace fs = std::filesystem;

namespace {

fs::path write_text(const std::string& text, const std::string& name) {
  fs::path p = nnbridge::test::temp_dir() / name;
  std::ofstream(p, std::ios::binary) << text;
  return p;
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

// A hand-written network in flatc's non-strict JSON, as Arm NN's deserializer tests write it:
// unquoted keys, enum values by name, trailing commas, a comment, a quantized tensor whose
// scale has more digits than flatc's printer keeps.
const char* kNonStrict = R"(// Input -> Activation(BoundedReLu) -> Output
{
  inputIds: [0],
  outputIds: [0],
  layers: [
    {
      layer_type: InputLayer,
      layer: { base: { layerBindingId: 0, base: {
        index: 0, layerName: "dense/input", layerType: Input,
        outputSlots: [ { index: 0, tensorInfo: { dimensions: [ 1, 4 ], dataType: Float32, } } ],
      } } },
    },
    {
      layer_type: "ActivationLayer",
      layer: {
        base: { index: 1, layerName: "dense/Relu6", layerType: Activation,
          inputSlots: [ { index: 0, connection: { sourceLayerIndex: 0, outputSlotIndex: 0 } } ],
          outputSlots: [ { index: 0, tensorInfo: { dimensions: [ 1, 4 ], dataType: Float32 } } ] },
        descriptor: { activationFunction: BoundedReLu, a: 6.0, b: 0.0000001 },
      },
    },
    {
      layer_type: OutputLayer,
      layer: { base: { layerBindingId: 0, base: {
        index: 2, layerName: "dense/Softmax", layerType: Output,
        inputSlots: [ { index: 0, connection: { sourceLayerIndex: 1, outputSlotIndex: 0 } } ],
      } } },
    },
  ],
  featureVersions: { bindingIdsScheme: 1, },
}
)";

}  // namespace

TEST_CASE("armnn-json: non-strict flatc JSON reads to the same IR as flatc -b of it") {
  fs::path json = write_text(kNonStrict, "relu6.armnn.json");
  auto bin = flatc_binary(kNonStrict, "relu6");
  REQUIRE(!bin.empty());
  CHECK(detect_format(json) == "armnn-json");
  Graph from_json = load(json);
  Graph from_bin = load(bin);
  CHECK(from_json.source_format == "armnn-json");
  from_json.source_format = from_bin.source_format;
  CHECK(to_json(from_json) == to_json(from_bin));
  const Node* act = node_named(from_json, "dense/Relu6");
  REQUIRE(act);
  CHECK(act->op == "Clip");
}

TEST_CASE("armnn-json: IR -> armnn-json -> flatc -b holds what the armnn writer writes") {
  Graph g = load(write_text(kNonStrict, "in.armnn.json"));
  fs::path out = nnbridge::test::temp_dir() / "out.armnn.json";
  save(g, out);  // the format from the double extension
  const std::string text = read_text(out);
  auto rebuilt = flatc_binary(text, "rebuilt");
  REQUIRE_MESSAGE(!rebuilt.empty(), text);
  auto direct = write(g, "direct");
  // (flatc lays tables out in its own order, so the bytes differ; their content may not.)
  CHECK(flatc_json(rebuilt) == flatc_json(direct));
  Graph back = load(rebuilt), again = load(direct);
  CHECK(to_json(back) == to_json(again));
  // The tiny float is written exactly (flatc 2.0.8's own printer would write 0.0).
  CHECK(text.find("1e-07") != std::string::npos);
  Graph r = load(rebuilt);
  const Node* relu6 = node_named(r, "dense/Relu6");
  REQUIRE(relu6);
  REQUIRE(relu6->inputs.size() == 3);  // Clip-13: min is input 1, a float32 scalar
  const Value& lo = r.values[relu6->inputs[1]];
  REQUIRE(lo.constant);
  REQUIRE(lo.type.dtype == DataType::Float32);
  float min = 0;
  std::memcpy(&min, lo.constant->data(), 4);
  CHECK(min == 1e-7f);
}

TEST_CASE("armnn-json: the real Arm NN samples round-trip armnn -> armnn-json -> armnn identically under flatc") {
  std::vector<fs::path> files;
  if (auto dir = nnbridge::test::shared_sample("armnn"))
    for (const auto& e : fs::directory_iterator(*dir))
      if (fs::exists(e.path() / "model.armnn")) files.push_back(e.path() / "model.armnn");
  for (const auto& e : fs::directory_iterator(nnbridge::test::source_dir() / "tests/golden/armnn"))
    if (fs::exists(e.path() / "model.armnn")) files.push_back(e.path() / "model.armnn");
  REQUIRE(!files.empty());
  for (const auto& f : files) {
    std::string name = f.parent_path().filename().string();
    CAPTURE(name);
    Graph g = load(f);
    fs::path js = nnbridge::test::temp_dir() / (name + ".armnn.json");
    save(g, js);
    Graph back = load(js);
    fs::path again = nnbridge::test::temp_dir() / (name + ".armnn");
    save(back, again);
    std::string a = flatc_json(f), b = flatc_json(again);
    REQUIRE(!a.empty());
    CHECK(a == b);
    // flatc prints 6 decimals; the IR compares every float exactly. Only the identifier
    // (JSON cannot say "none") and the source format may differ.
    back.source_format = g.source_format;
    back.metadata["armnn.fileIdentifier"] = g.metadata.at("armnn.fileIdentifier");
    CHECK(to_json(back) == to_json(g));
  }
}

TEST_CASE("armnn-json: text flatc refuses is Error(Malformed) with its line and column") {
  const std::string bad = "{\n  layers: [\n    { layer_type: NoSuchLayer }\n  ]\n}\n";
  fs::path p = write_text(bad, "bad.armnn.json");
  try {
    load(p, LoadOptions{.format = "armnn-json"});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::Syntax);
    CHECK(e.file() == p.string());
    CHECK(e.where().rfind("line 3, column ", 0) == 0);
    CHECK(std::string(e.what()).find("warning") == std::string::npos);  // only the parser's error
  }
  CHECK(flatc_binary(bad, "bad").empty());  // flatc refuses it too
  // A message quoting 300,000 characters of the file (an unknown enum value) is split without
  // std::regex, whose matcher recursed per character and overflowed the stack (fuzz_armnn_json).
  const std::string huge = "{\n  layers: [\n    { layer_type: " + std::string(300000, 'Q') + " }\n  ]\n}\n";
  try {
    load(write_text(huge, "huge.armnn.json"), LoadOptions{.format = "armnn-json"});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::Syntax);
    CHECK(e.where().rfind("line 3, column ", 0) == 0);
  }
  // Over the size bound: refused before parsing, naming the option.
  try {
    LoadOptions o{.format = "armnn-json"};
    o.options["armnn-json.max_size"] = "8";
    load(write_text(kNonStrict, "big.armnn.json"), o);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoTooLarge);
    CHECK(std::string(e.what()).find("armnn-json.max_size") != std::string::npos);
  }
}

TEST_CASE("armnn-json: nnbridge's own IR JSON is not claimed") {
  Graph g = load(write_text(kNonStrict, "x.armnn.json"));
  fs::path ir = nnbridge::test::temp_dir() / "ir.json";
  save(g, ir);
  CHECK(detect_format(ir) == "json");
}

TEST_CASE("armnn-json: Arm NN's fixture style (slots Arm NN never reads, absent vectors) reads and round-trips") {
  // As Arm NN's deserializer tests write networks: an Input layer listing an input slot wired
  // to itself, a Constant layer without inputSlots, an Output layer with an output slot, the
  // union's `data_type` key and bare enum identifiers.
  const std::string fixture = R"({
    inputIds: [0], outputIds: [3],
    layers: [
      { layer_type: "InputLayer", layer: { base: { layerBindingId: 0, base: {
          index: 0, layerName: "InputLayer", layerType: "Input",
          inputSlots: [{ index: 0, connection: { sourceLayerIndex: 0, outputSlotIndex: 0 } }],
          outputSlots: [{ index: 0, tensorInfo: { dimensions: [ 2 ], dataType: Float32 } }] } } } },
      { layer_type: "ConstantLayer", layer: {
          base: { index: 1, layerName: "ConstantLayer", layerType: "Constant",
                  outputSlots: [{ index: 0, tensorInfo: { dimensions: [ 2 ], dataType: Float32 } }] },
          input: { info: { dimensions: [ 2 ], dataType: Float32 }, data_type: IntData,
                   data: { data: [ 1077936128, 1082130432 ] } } } },
      { layer_type: "AdditionLayer", layer: { base: { index: 2, layerName: "add", layerType: "Addition",
          inputSlots: [{ index: 0, connection: { sourceLayerIndex: 0, outputSlotIndex: 0 } },
                       { index: 1, connection: { sourceLayerIndex: 1, outputSlotIndex: 0 } }],
          outputSlots: [{ index: 0, tensorInfo: { dimensions: [ 2 ], dataType: Float32 } }] } } },
      { layer_type: "OutputLayer", layer: { base: { layerBindingId: 0, base: {
          index: 3, layerName: "OutputLayer", layerType: "Output",
          inputSlots: [{ index: 0, connection: { sourceLayerIndex: 2, outputSlotIndex: 0 } }],
          outputSlots: [{ index: 0, tensorInfo: { dimensions: [ 2 ], dataType: Float32 } }] } } } },
    ],
    featureVersions: { weightsLayoutScheme: 1, }
  })";
  fs::path p = write_text(fixture, "fixture.armnn.json");
  Graph g = load(p);
  REQUIRE(g.inputs.size() == 1);
  REQUIRE(g.outputs.size() == 1);
  CHECK(g.values[g.inputs[0]].name == "InputLayer");
  CHECK(g.values[g.outputs[0]].name == "OutputLayer");
  auto ref = flatc_binary(fixture, "fixture");
  REQUIRE(!ref.empty());
  fs::path back = nnbridge::test::temp_dir() / "fixture_back.armnn";
  save(g, back);
  CHECK(flatc_json(back) == flatc_json(ref));
  fs::path back_json = nnbridge::test::temp_dir() / "fixture_back.armnn.json";
  save(g, back_json);
  CHECK(flatc_json(flatc_binary(read_text(back_json), "fixture_again")) == flatc_json(ref));
}
