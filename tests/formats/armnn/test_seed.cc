// The pre-release seed layout: read and written only under armnn.layout=seed, and detected
// (not misread) without it.
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

// Written by hand against the seed schema (tests/formats/armnn/data/ArmnnSeedSchema.fbs):
// a + b -> softmax -> output "probs". Seed LayerType: Addition 0, Input 1, Output 3, Softmax 4.
const char* kSeedJson = R"({
  "layers": [
    {"layer_type": "InputLayer", "layer": {"base": {"base": {"index": 0, "layerName": "a", "layerType": "Input",
      "inputSlots": [], "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [2, 3], "dataType": "Float32"}}]},
      "layerBindingId": 0}}},
    {"layer_type": "InputLayer", "layer": {"base": {"base": {"index": 1, "layerName": "b", "layerType": "Input",
      "inputSlots": [], "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [2, 3], "dataType": "Float32"}}]},
      "layerBindingId": 1}}},
    {"layer_type": "AdditionLayer", "layer": {"base": {"index": 2, "layerName": "add", "layerType": "Addition",
      "inputSlots": [{"index": 0, "connection": {"sourceLayerIndex": 0, "outputSlotIndex": 0}},
                     {"index": 1, "connection": {"sourceLayerIndex": 1, "outputSlotIndex": 0}}],
      "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [2, 3], "dataType": "Float32"}}]}}},
    {"layer_type": "SoftmaxLayer", "layer": {"base": {"index": 3, "layerName": "softmax", "layerType": "Softmax",
      "inputSlots": [{"index": 0, "connection": {"sourceLayerIndex": 2, "outputSlotIndex": 0}}],
      "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [2, 3], "dataType": "Float32"}}]},
      "descriptor": {"beta": 1.0}}},
    {"layer_type": "OutputLayer", "layer": {"base": {"base": {"index": 4, "layerName": "probs", "layerType": "Output",
      "inputSlots": [{"index": 0, "connection": {"sourceLayerIndex": 3, "outputSlotIndex": 0}}], "outputSlots": []},
      "layerBindingId": 0}}}
  ],
  "inputIds": [0, 1],
  "outputIds": [4]
})";

LoadOptions seed_load() {
  LoadOptions o;
  o.options["armnn.layout"] = "seed";
  return o;
}

}  // namespace

TEST_CASE("armnn seed layout: rejected without the option") {
  auto bin = flatc_binary(kSeedJson, "seed", seed_schema());
  REQUIRE(!bin.empty());
  try {
    read(bin);
    FAIL("a seed-layout file was read as the released layout");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::Version);
    CHECK(e.where() == "layers[0].layer_type");
    CHECK(std::string(e.what()).find("armnn.layout=seed") != std::string::npos);
  }
}

TEST_CASE("armnn seed layout: read and written with armnn.layout=seed") {
  auto bin = flatc_binary(kSeedJson, "seed", seed_schema());
  Graph g = read(bin, seed_load());
  REQUIRE(g.nodes.size() == 3);
  CHECK(g.nodes[0].op == "Add");
  CHECK(g.nodes[1].op == "Softmax");
  CHECK(g.nodes[1].attrs.at("beta") == Attr(1.0));
  CHECK(g.nodes[1].attrs.at("axis") == Attr(int64_t{-1}));  // the seed has no axis: released default
  CHECK(g.nodes[2].op == "Identity");
  CHECK(g.values[g.outputs[0]].name == "probs");
  // Written back in the seed layout, flatc (with the seed schema) sees the same network.
  SaveOptions so;
  so.options["armnn.layout"] = "seed";
  auto out = write(g, "seed_again", so);
  CHECK(flatc_json(bin, seed_schema()) == flatc_json(out, seed_schema()));
  // Written in the released layout, the tags and layerType values are the released ones.
  std::string released = flatc_json(write(g, "seed_released"), schema());
  CHECK(released.find(R"("layer_type": "SoftmaxLayer")") != std::string::npos);
  CHECK(released.find(R"("layerType": "Softmax")") != std::string::npos);
  CHECK(read(write(g, "seed_released2")).nodes[1].op == "Softmax");
}

TEST_CASE("armnn seed layout: a released file is not read as seed") {
  auto bin = flatc_binary(R"({"layers": [{"layer_type": "ActivationLayer", "layer": {"base": {"index": 0,
      "layerName": "x", "layerType": "Activation", "inputSlots": [], "outputSlots": []}}}]})",
                          "released_one");
  try {
    read(bin, seed_load());
    FAIL("a released file was read as the seed layout");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::Version);
  }
}
