// A Constant layer whose output slot feeds nothing: the reader keeps it as a constant Value
// without a node, and the writer must write it back as a Constant layer (only a layer carries
// a constant's data in a SerializedGraph), not drop it.
#include <doctest/doctest.h>

#include <cstring>

#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

// Input "in" [1, 2] float32 straight to Output "out", and Constant "dangling" [2] float32 holding
// 1.0f, 2.0f (IEEE 754 bit patterns 0x3F800000 = 1065353216, 0x40000000 = 1073741824, stored as
// IntData words the way Arm NN stores float32) whose output slot no InputSlot names.
const char* kJson = R"({"layers": [
  {"layer_type": "InputLayer", "layer": {"base": {"base": {"index": 0, "layerName": "in", "layerType": "Input",
    "inputSlots": [], "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [1, 2], "dataType": "Float32"}}]},
    "layerBindingId": 0}}},
  {"layer_type": "ConstantLayer", "layer": {"base": {"index": 1, "layerName": "dangling", "layerType": "Constant",
    "inputSlots": [], "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [2], "dataType": "Float32"}}]},
    "input": {"info": {"dimensions": [2], "dataType": "Float32"}, "data_type": "IntData",
              "data": {"data": [1065353216, 1073741824]}}}},
  {"layer_type": "OutputLayer", "layer": {"base": {"base": {"index": 2, "layerName": "out", "layerType": "Output",
    "inputSlots": [{"index": 0, "connection": {"sourceLayerIndex": 0, "outputSlotIndex": 0}}], "outputSlots": []},
    "layerBindingId": 0}}}],
  "inputIds": [0], "outputIds": [0], "featureVersions": {"bindingIdsScheme": 1}})";

std::vector<float> floats_of(const Value& v) {
  REQUIRE(v.constant);
  REQUIRE(v.constant->size() == 8);
  std::vector<float> f(2);
  std::memcpy(f.data(), v.constant->data(), 8);
  return f;
}

}  // namespace

TEST_CASE("armnn: a Constant layer that feeds nothing is written back with its data") {
  const auto file = flatc_binary(kJson, "unused_constant");
  REQUIRE(!file.empty());
  const Graph g = read(file);
  const Value* c = value_named(g, "dangling");
  REQUIRE(c);
  CHECK(floats_of(*c) == std::vector<float>{1.0f, 2.0f});

  const auto out = write(g, "unused_constant_out");
  const Graph back = read(out);
  const Value* again = value_named(back, "dangling");
  REQUIRE(again);
  CHECK(floats_of(*again) == std::vector<float>{1.0f, 2.0f});
  // flatc, the peer, sees the layer at its place with the same words.
  const std::string json = flatc_json(out);
  CHECK(json.find("\"ConstantLayer\"") != std::string::npos);
  CHECK(json.find("\"dangling\"") != std::string::npos);
  CHECK(json.find("1073741824") != std::string::npos);
}
