// OpenVINO SimpleGPU custom layers on the opencl backend: kernels written for these tests from
// the operators' definitions (tests/config/openvino_custom/data/*.cl) run for nodes whose op,
// Arm NN StandIn name or VkGraph operator name is the layer's, and match values computed here by
// hand or from the operators' formulas.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>

#include "custom_layer_util.h"
#include "nnbridge/io.h"
#include "support/paths.h"
#include "support/error_id.h"

using namespace nnbridge;
using namespace nnbridge::test::custom;
namespace ovc = nnbridge::config::openvino_custom;

TEST_CASE("opencl custom layer: GRN = x / sqrt(sum over channels of x^2 + bias), by op name and as vk.GRN") {
  if (!have_opencl()) return;
  const std::vector<int64_t> shape{2, 3, 2, 2};
  std::vector<float> x(24);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i % 7) - 3) * 0.5f + 0.25f;
  for (const char* op : {"GRN", "vk.GRN"})
    for (double bias : {0.5, -1.0}) {
      AttrMap attrs;
      if (bias > 0) attrs["bias"] = Attr(bias);
      const double b = bias > 0 ? bias : 1.0;  // the layer's default: 1.0f
      const std::vector<float> y = run1(one_node(op, {shape}, shape, attrs), {x}, layers_set());
      REQUIRE(y.size() == x.size());
      for (int64_t n = 0; n < 2; ++n)
        for (int64_t h = 0; h < 2; ++h)
          for (int64_t w = 0; w < 2; ++w) {
            double sum = 0;
            for (int64_t c = 0; c < 3; ++c) sum += std::pow(x[((n * 3 + c) * 2 + h) * 2 + w], 2);
            for (int64_t c = 0; c < 3; ++c) {
              const std::size_t i = ((n * 3 + c) * 2 + h) * 2 + w;
              CHECK(y[i] == doctest::Approx(x[i] / std::sqrt(sum + b)).epsilon(1e-5));
            }
          }
    }
}

TEST_CASE("opencl custom layer: ReLU with negative_slope, each layout on each side") {
  if (!have_opencl()) return;
  const std::vector<int64_t> shape{2, 3, 2, 4};
  std::vector<float> x(48);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i) - 20.0f;
  AttrMap attrs;
  attrs["negative_slope"] = Attr(0.125);
  auto expect = [&](const std::vector<float>& y) {
    REQUIRE(y.size() == x.size());
    for (std::size_t i = 0; i < x.size(); ++i) CHECK(y[i] == (x[i] < 0 ? x[i] * 0.125f : x[i]));
  };
  expect(run1(one_node("ReLU", {shape}, shape, attrs), {x}, layers_set()));
  // Each layout once on each side (every pair would build 25 programs).
  const std::pair<const char*, const char*> pairs[] = {
      {"BYXF", "FYXB"}, {"FYXB", "YXFB"}, {"YXFB", "BYXF"}, {"any", "BFYX"}, {"bfyx", "ANY"}};
  for (const auto& [in, out] : pairs) {
      const auto& in_ = in;  // CAPTURE cannot name a structured binding (clang 14)
      CAPTURE(in_);
      const auto& out_ = out;  // CAPTURE cannot name a structured binding (clang 14)
      CAPTURE(out_);
      const std::string xml = std::string("<CustomLayer name=\"ReLU\" type=\"SimpleGPU\" version=\"1\">\n") +
                              "<Kernel entry=\"example_relu_kernel\"><Source filename=\"" + (data_dir() / "relu.cl").string() + "\"/>" +
                              "<Define name=\"neg_slope\" type=\"float\" param=\"negative_slope\" default=\"0.0\"/></Kernel>\n" +
                              "<Buffers><Tensor arg-index=\"0\" type=\"input\" port-index=\"0\" format=\"" + in + "\"/>" +
                              "<Tensor arg-index=\"1\" type=\"output\" port-index=\"0\" format=\"" + out + "\"/></Buffers>\n" +
                              "<WorkSizes global=\"X,Y,B*F\"/></CustomLayer>\n";
      expect(run1(one_node("ReLU", {shape}, shape, attrs), {x}, set_from(xml)));
    }
}

TEST_CASE("opencl custom layer: a layer named after a canonical op replaces the built-in kernel") {
  if (!have_opencl()) return;
  const std::string xml = std::string("<CustomLayer name=\"Relu\" type=\"SimpleGPU\" version=\"1\">") +
                          "<Kernel entry=\"example_relu_kernel\"><Source filename=\"" + (data_dir() / "relu.cl").string() + "\"/>" +
                          "<Define name=\"neg_slope\" default=\"0.5f\"/></Kernel>" +
                          "<Buffers><Tensor arg-index=\"0\" type=\"input\" port-index=\"0\"/>" +
                          "<Tensor arg-index=\"1\" type=\"output\" port-index=\"0\"/></Buffers>" +
                          "<WorkSizes global=\"X,Y,B*F\"/></CustomLayer>";
  const std::vector<float> x{-4, -1, 0, 2, 3, -6};
  // The built-in Relu gives 0 for negatives; the custom layer halves them.
  CHECK(run1(one_node("Relu", {{2, 3}}, {2, 3}), {x}, nullptr) == std::vector<float>{0, 0, 0, 2, 3, 0});
  CHECK(run1(one_node("Relu", {{2, 3}}, {2, 3}), {x}, set_from(xml)) == std::vector<float>{-2, -0.5f, 0, 2, 3, -3});
}

TEST_CASE("opencl custom layer: Tile repeats along the axis (hand values)") {
  if (!have_opencl()) return;
  const std::vector<float> x{1, 2, 3, 4};  // [1, 2, 1, 2]
  AttrMap a1{{"axis", Attr(int64_t{1})}, {"tiles", Attr(int64_t{2})}};
  CHECK(run1(one_node("Tile", {{1, 2, 1, 2}}, {1, 4, 1, 2}, a1), {x}, layers_set()) == std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4});
  AttrMap a3{{"axis", Attr(int64_t{3})}, {"tiles", Attr(int64_t{3})}};
  CHECK(run1(one_node("Tile", {{1, 2, 1, 2}}, {1, 2, 1, 6}, a3), {x}, layers_set()) ==
        std::vector<float>{1, 2, 1, 2, 1, 2, 3, 4, 3, 4, 3, 4});
  // `tiles` has no default in the layer: a node without it cannot be compiled.
  CHECK(test::thrown_id([&] { run1(one_node("Tile", {{1, 2, 1, 2}}, {1, 4, 1, 2}), {x}, layers_set()); }) == ErrorId::AttributeValue);
}

TEST_CASE("opencl custom layer: CTCGreedyDecoder (hand values)") {
  if (!have_opencl()) return;
  // T=4 steps, N=1, C=3 classes (2 = blank); arg-max per step: 0, 0, 2, 1.
  const std::vector<float> data{0.9f, 0.05f, 0.05f, 0.6f, 0.3f, 0.1f, 0.1f, 0.2f, 0.7f, 0.2f, 0.5f, 0.3f};
  const std::vector<float> all{1, 1, 1, 1}, first_two{1, 1, 0, 0};
  auto node = [](std::optional<int64_t> merge) {
    AttrMap a;
    if (merge) a["ctc_merge_repeated"] = Attr(*merge);
    return one_node("CTCGreedyDecoder", {{4, 1, 3}, {4, 1}}, {1, 4, 1, 1}, a);
  };
  CHECK(run1(node(std::nullopt), {data, all}, layers_set()) == std::vector<float>{0, 1, -1, -1});  // default: merge
  CHECK(run1(node(0), {data, all}, layers_set()) == std::vector<float>{0, 0, 1, -1});
  CHECK(run1(node(1), {data, first_two}, layers_set()) == std::vector<float>{0, -1, -1, -1});
}

TEST_CASE("opencl custom layer: the Arm NN StandIn layer of examples/extension, by its layer name") {
  if (!have_opencl()) return;
  const auto model = test::source_dir() / "examples/extension/scaled_tanh.armnn";
  REQUIRE(std::filesystem::exists(model));
  const Graph g = load(model);
  REQUIRE(std::count_if(g.nodes.begin(), g.nodes.end(), [](const Node& n) { return n.op == "armnn.StandIn"; }) == 1);
  std::vector<float> x{-3, -1, -0.5f, 0, 0.25f, 1, 2, 4};
  const std::vector<float> y = run1(g, {x}, layers_set());
  REQUIRE(y.size() == 8);
  for (std::size_t i = 0; i < 8; ++i) CHECK(y[i] == doctest::Approx(1.7159 * std::tanh(2.0 * x[i] / 3.0)).epsilon(1e-5));
  // Without the custom layers the opencl backend has no kernel for it.
  CHECK(test::thrown_id([&] { run1(g, {x}, nullptr); }) == ErrorId::Feature);
}
