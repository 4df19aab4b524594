// `nnbridge diff` on a golden Arm NN model (written by Arm NN 20.08's serializer) against the
// files the CLI converts it to, and against a copy with one constant edited by hand in the
// .armnn bytes; flatc's decoding of the model is the independent source of the edited value.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

const fs::path kModel = "tests/golden/armnn/conv2d_nchw_stride2/model.armnn";

fs::path model() { return source_dir() / kModel; }

fs::path converted(const std::string& ext) {
  const fs::path out = temp_dir() / ("model." + ext);
  const RunResult r = run_cli({"convert", model().string(), out.string()});
  REQUIRE_MESSAGE(r.code == 0, r.err);
  return out;
}

}  // namespace

TEST_CASE("diff cli: a golden armnn model and its vkdelegate conversion compute the same") {
  const fs::path vk = converted("vkdelegate");
  // The payload renames inputs/outputs (input_0, output_0) and nodes, and has its own vocabulary.
  RunResult r = run_cli({"diff", model().string(), vk.string(), "--ignore-metadata", "--ignore-names"});
  CHECK_MESSAGE(r.code == 0, (r.out + r.err));
  CHECK(r.out.find("same") != std::string::npos);
  // Without the flags: the names and the format vocabulary are differences (exit 1), each under
  // its heading, and nothing semantic.
  r = run_cli({"diff", model().string(), vk.string(), "--json"});
  CHECK(r.code == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["same"] == false);
  CHECK(j["counts"]["semantic"] == 0);
  CHECK(j["counts"]["name"].get<int>() >= 2);  // x vs input_0, y vs output_0
  CHECK(j["counts"]["metadata"].get<int>() > 0);
  CHECK(j["a"]["format"] == "armnn");
  CHECK(j["b"]["format"] == "vkdelegate");
}

TEST_CASE("diff cli: a golden armnn model and its onnx conversion compute the same") {
  const fs::path onnx = converted("onnx");
  const RunResult r = run_cli({"diff", model().string(), onnx.string(), "--ignore-metadata"});
  CHECK_MESSAGE(r.code == 0, (r.out + r.err));
}

TEST_CASE("diff cli: the text header names each file's format and the one its graph came from") {
  // An IR JSON file of an Arm NN graph is a json file whose graph came from armnn (as `info`
  // says); --json keeps each graph's source_format (nnbridge/diff.h).
  const fs::path json = converted("json");
  RunResult r = run_cli({"diff", model().string(), json.string()});
  CHECK_MESSAGE(r.code == 0, (r.out + r.err));
  CHECK(r.out.find("A: " + model().string() + " (armnn, ") != std::string::npos);
  CHECK(r.out.find("B: " + json.string() + " (json from armnn, ") != std::string::npos);
  r = run_cli({"diff", model().string(), json.string(), "--json"});
  CHECK(nlohmann::json::parse(r.out)["b"]["format"] == "armnn");
}

TEST_CASE("diff cli: one constant edited by hand in the armnn bytes is named with its statistics") {
  // flatc gives the Convolution2d layer's weights as the int32 bit patterns Arm NN stores.
  const auto decoded = flatc_decode(model());
  if (!decoded) {
    skip("flatc or the Arm NN schema is not available");
    return;
  }
  std::vector<uint32_t> bits;
  const auto doc = nlohmann::json::parse(*decoded);
  for (const auto& layer : doc["layers"])
    if (layer["layer_type"] == "Convolution2dLayer")
      for (const auto& v : layer["layer"]["weights"]["data"]["data"]) bits.push_back(static_cast<uint32_t>(v.get<int64_t>()));
  REQUIRE(bits.size() >= 3);
  // Find the first three weights in the file and flip the sign of the first.
  std::string bytes = read_file(model());
  std::string needle(12, '\0');
  std::memcpy(needle.data(), bits.data(), 12);
  const std::size_t at = bytes.find(needle);
  REQUIRE(at != std::string::npos);
  REQUIRE(bytes.find(needle, at + 1) == std::string::npos);
  bytes[at + 3] = static_cast<char>(bytes[at + 3] ^ 0x80);
  const fs::path edited = temp_dir() / "edited.armnn";
  write_file(edited, bytes);
  // w -> -w: |d| = 2|w|; on the ordered-integer line -w and w are 2 * (bits & 0x7fffffff) apart.
  const float w = std::bit_cast<float>(bits[0]);
  const double abs_diff = 2.0 * std::fabs(static_cast<double>(w));
  const uint64_t ulp = 2ull * (bits[0] & 0x7fffffffu);

  RunResult r = run_cli({"diff", model().string(), edited.string()});
  CHECK(r.code == 1);
  CHECK(r.out.find("semantic (1):") != std::string::npos);
  CHECK(r.out.find("node \"conv\" (Conv) inputs[1]: constant") != std::string::npos);
  CHECK(r.out.find("1 of 54 elements differ (first at 0") != std::string::npos);
  CHECK(r.out.find("max ULP " + std::to_string(ulp)) != std::string::npos);

  r = run_cli({"diff", model().string(), edited.string(), "--json"});
  CHECK(r.code == 1);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["differences"].size() == 1);
  const auto& x = j["differences"][0];
  CHECK(x["kind"] == "constant");
  CHECK(x["a_name"] == "conv");
  CHECK(x["place"] == "inputs[1]");
  CHECK(x["elements"] == 54);  // W [3, 2, 3, 3]
  CHECK(x["elements_differing"] == 1);
  CHECK(x["first_index"] == 0);
  CHECK(x["max_abs_diff"].get<double>() == abs_diff);
  CHECK(x["max_ulp"].get<uint64_t>() == ulp);
  // The vkdelegate conversion of the original against the edited armnn: the same one difference.
  r = run_cli({"diff", converted("vkdelegate").string(), edited.string(), "--ignore-metadata", "--ignore-names", "--json"});
  CHECK(r.code == 1);
  CHECK(nlohmann::json::parse(r.out)["counts"]["semantic"] == 1);
}

TEST_CASE("diff cli: a file that cannot be read exits 3 naming it") {
  const fs::path missing = temp_dir() / "missing.armnn";
  RunResult r = run_cli({"diff", model().string(), missing.string()});
  CHECK(r.code == 3);
  CHECK(r.err.find("missing.armnn") != std::string::npos);
  const fs::path junk = temp_dir() / "junk.armnn";
  write_file(junk, "not a graph at all");
  r = run_cli({"diff", junk.string(), model().string()});
  CHECK(r.code == 3);
  CHECK(r.err.find("junk.armnn") != std::string::npos);
  CHECK(r.out.empty());
  r = run_cli({"diff", model().string()});
  CHECK(r.code == 2);
}
