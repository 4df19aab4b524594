// An Arm NN Pad's padValue for a quantized output is a stored integer (Arm NN 20.08 CpuRef's
// Pad.cpp quantizes it at scale 1, offset 0: rounded half away from zero, saturated; run through
// Debian's Arm NN 20.08 with this file's network, padValue 3.7, 3.5, 2.5, 300 and -3 filled
// QAsymmU8 storage with 4, 4, 3, 255 and 0); the canonical Pad's constant_value is the real value
// it stands for, scale * (q - zero_point), and the writer turns it back. Values by hand.
#include <doctest/doctest.h>

#include <cstring>
#include <span>
#include <nlohmann/json.hpp>
#include <string>

#include "nnbridge/graph.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

// x [2, 3] -> Pad (padList [1, 1, 0, 2]) -> y [4, 5], both `dtype` with scale 0.5 and offset 10
// (the layout Arm NN 20.08's serializer writes, as flatc reads it back).
std::string pad_json(const std::string& dtype, const std::string& pad_value) {
  const std::string info = R"("dataType": ")" + dtype + R"(", "quantizationScale": 0.5, "quantizationOffset": 10)";
  return R"({"layers": [
    {"layer_type": "InputLayer", "layer": {"base": {"base": {"layerName": "x", "layerType": "Input",
      "outputSlots": [{"tensorInfo": {"dimensions": [2, 3], )" + info + R"(}}]}}}},
    {"layer_type": "PadLayer", "layer": {"base": {"index": 1, "layerName": "pad", "layerType": "Pad",
      "inputSlots": [{"connection": {"sourceLayerIndex": 0, "outputSlotIndex": 0}}],
      "outputSlots": [{"tensorInfo": {"dimensions": [4, 5], )" + info + R"(}}]},
      "descriptor": {"padList": [1, 1, 0, 2])" + (pad_value.empty() ? "" : ", \"padValue\": " + pad_value) + R"(}}},
    {"layer_type": "OutputLayer", "layer": {"base": {"base": {"index": 2, "layerName": "y", "layerType": "Output",
      "inputSlots": [{"connection": {"sourceLayerIndex": 1, "outputSlotIndex": 0}}]}}}}],
    "inputIds": [0], "outputIds": [0], "featureVersions": {"bindingIdsScheme": 1}})";
}

float constant_value(const Graph& g) {
  const Node* pad = node_named(g, "pad");
  REQUIRE(pad);
  REQUIRE(pad->inputs.size() == 3);
  const Value& v = g.values[pad->inputs[2]];
  REQUIRE(v.constant);
  REQUIRE(v.type.dtype == DataType::Float32);
  float f = 0;
  std::memcpy(&f, v.constant->data(), 4);
  return f;
}

double written_pad_value(const Graph& g, const std::string& stem) {
  const auto j = nlohmann::json::parse(flatc_json(write(g, stem)));
  for (const auto& l : j["layers"])
    if (l["layer_type"] == "PadLayer") return l["layer"]["descriptor"]["padValue"].get<double>();
  FAIL("no PadLayer written");
  return 0;
}

}  // namespace

TEST_CASE("armnn Pad: a quantized output's padValue is a stored integer, read as its real value") {
  // q = 3: 0.5 * (3 - 10) = -3.5; written back as 3.
  Graph g = read(flatc_binary(pad_json("QAsymmU8", "3.0"), "pad_q3"));
  CHECK(constant_value(g) == -3.5f);
  CHECK(written_pad_value(g, "pad_q3_back") == 3.0);
  // padValue absent (0), as Arm NN writes a default Pad: 0.5 * (0 - 10) = -5.
  g = read(flatc_binary(pad_json("QAsymmU8", ""), "pad_q0"));
  CHECK(constant_value(g) == -5.0f);
  CHECK(written_pad_value(g, "pad_q0_back") == 0.0);
  // 3.7 rounds to 4: 0.5 * (4 - 10) = -3; 2.5 rounds away from zero to 3: -3.5; 300 saturates
  // to 255: 0.5 * (255 - 10) = 122.5; -3 to 0: -5.
  CHECK(constant_value(read(flatc_binary(pad_json("QAsymmU8", "3.7"), "pad_q37"))) == -3.0f);
  CHECK(constant_value(read(flatc_binary(pad_json("QAsymmU8", "2.5"), "pad_q25"))) == -3.5f);
  CHECK(constant_value(read(flatc_binary(pad_json("QAsymmU8", "300"), "pad_q300"))) == 122.5f);
  CHECK(constant_value(read(flatc_binary(pad_json("QAsymmU8", "-3"), "pad_qm3"))) == -5.0f);
  // int8 storage: q = -20 gives 0.5 * (-20 - 10) = -15.
  CHECK(constant_value(read(flatc_binary(pad_json("QAsymmS8", "-20"), "pad_s8"))) == -15.0f);
}

TEST_CASE("armnn Pad: a float output's padValue is the value itself, and a real value is stored back") {
  CHECK(constant_value(read(flatc_binary(pad_json("Float32", "2.5"), "pad_f"))) == 2.5f);
  // A canonical Pad on a quantized output padding with the real value 1.0 (scale 0.5, offset 10)
  // is written as the stored integer 1.0 / 0.5 + 10 = 12.
  Graph g = read(flatc_binary(pad_json("QAsymmU8", "3.0"), "pad_real"));
  const Node* pad = node_named(g, "pad");
  REQUIRE(pad);
  Value& v = g.values[pad->inputs[2]];
  const float one = 1.0f;
  v.constant = Buffer::copy_of(std::as_bytes(std::span<const float>(&one, 1)));
  CHECK(written_pad_value(g, "pad_real_back") == 12.0);
}
