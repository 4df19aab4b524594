// The project's golden corpus (tests/golden/armnn, written by Arm NN 20.08): every layer type
// that has a canonical op in the list reads as that op, never as the native fallback.
#include <doctest/doctest.h>

#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "nnbridge/error.h"
#include "support/paths.h"
#include "util.h"

namespace fs = std::filesystem;
using namespace nnbridge;

namespace {
// Layer types kept as format-native ops by design (no exact canonical equivalent), per the
// Arm NN format's header. Normalization maps to LRN only for Across/LocalBrightness.
const std::set<std::string> kNative = {"Lstm", "QLstm", "QuantizedLstm", "UnidirectionalSequenceLstm",
                                       "DetectionPostProcess", "StandIn", "Merge", "Switch", "Normalization"};
}  // namespace

TEST_CASE("armnn golden corpus: mapped layer types read as canonical ops") {
  const fs::path root = test::source_dir() / "tests" / "golden" / "armnn";
  int cases = 0;
  for (const auto& e : fs::directory_iterator(root)) {
    if (!fs::exists(e.path() / "case.json")) continue;
    nlohmann::json c = nlohmann::json::parse(std::ifstream(e.path() / "case.json"));
    std::set<std::string> types(c["layer_types"].begin(), c["layer_types"].end());
    bool all_mapped = true;
    for (const auto& t : types) all_mapped = all_mapped && !kNative.count(t);
    CAPTURE(e.path().filename().string());
    Graph g = test::armnn::read(e.path() / "model.armnn");
    ++cases;
    if (!all_mapped) continue;
    for (const auto& n : g.nodes) {
      CAPTURE(n.name);
      CHECK_MESSAGE(n.op.rfind("armnn.", 0) != 0, "native op " << n.op);
    }
  }
  CHECK(cases >= 100);
}

TEST_CASE("armnn golden corpus: max pooling with Arm NN's default padding method is MaxPool") {
  // maxpool_nhwc: Pooling2d Max 2x2 stride 2, paddingMethod Exclude (Arm NN's default).
  Graph g = test::armnn::read(test::source_dir() / "tests/golden/armnn/maxpool_nhwc/model.armnn");
  const Node* pool = test::armnn::node_named(g, "pool");
  REQUIRE(pool);
  CHECK(pool->op == "MaxPool");
  CHECK(pool->attrs.at("kernel_shape").get<std::vector<int64_t>>() == std::vector<int64_t>{2, 2});
  CHECK(pool->attrs.at("strides").get<std::vector<int64_t>>() == std::vector<int64_t>{2, 2});
  CHECK(pool->attrs.at("data_layout").get<std::string>() == "NHWC");
}

TEST_CASE("armnn golden corpus: L2 pooling is LpPool p = 2 averaging the squares") {
  // Arm NN's L2 pooling is sqrt(mean(x^2)) (Compute Library / RefPooling2d), not ONNX's sqrt(sum):
  // the IR says so with mean = 1, and a sum-form LpPool cannot be written as an Arm NN layer.
  Graph g = test::armnn::read(test::source_dir() / "tests/golden/armnn/l2pool_nhwc/model.armnn");
  const Node* pool = nullptr;
  for (const auto& n : g.nodes)
    if (n.op == "LpPool") pool = &n;
  REQUIRE(pool);
  CHECK(pool->attrs.at("p").get<int64_t>() == 2);
  CHECK(pool->attrs.at("mean").get<int64_t>() == 1);
  Graph sum_form = g;
  for (auto& n : sum_form.nodes)
    if (n.op == "LpPool") n.attrs["mean"] = Attr(int64_t{0});
  CHECK_THROWS_AS(test::armnn::write(sum_form, "l2_sum_form"), Error);
}
