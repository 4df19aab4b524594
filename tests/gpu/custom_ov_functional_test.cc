// OpenVINO custom layers as current OpenVINO writes them, run on opencl: the layers of
// tests/config/openvino_custom/data/functional (our own file of the shape the GPU plugin's
// functional test ships: internal buffers, ANY and YXFB, work sizes X,Y,1 and Y,F,B) and the
// Cosh tutorial's IR port numbering. Expected values are computed here by hand from each
// kernel's formula.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>

#include "custom_layer_util.h"
#include "nnbridge/gpu.h"
#include "support/paths.h"
#include "support/error_id.h"

using namespace nnbridge;
using namespace nnbridge::test::custom;
namespace ovc = nnbridge::config::openvino_custom;

namespace {

std::filesystem::path functional_dir() { return data_dir() / "functional"; }

std::shared_ptr<const ovc::CustomLayerSet> functional_set() {
  static const auto set = ovc::custom_layer_set(std::vector<std::filesystem::path>{functional_dir() / "layers.xml"});
  return set;
}

std::vector<float> iota(std::size_t n, float scale = 1.0f) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i) * scale;
  return v;
}

// A layer over the kernels of scratch.cl with the given buffers.
std::string scratch_layer(const std::string& entry, const std::string& buffers) {
  return "<CustomLayer name=\"" + entry + "\" type=\"SimpleGPU\" version=\"1\"><Kernel entry=\"" + entry + "\"><Source filename=\"" +
         (functional_dir() / "scratch.cl").string() + "\"/></Kernel><Buffers>" + buffers + "</Buffers></CustomLayer>";
}

}  // namespace

TEST_CASE("opencl OpenVINO functional layers: ScaleShift y = x * scale + shift with the Defines' params and defaults") {
  if (!have_opencl()) return;
  const std::vector<int64_t> shape{1, 2, 3, 4};
  std::vector<float> x = iota(24, 0.5f);
  for (float& v : x) v -= 3.0f;
  AttrMap attrs{{"scale", Attr(2.5)}, {"shift", Attr(-1.0)}};
  const std::vector<float> y = run1(one_node("ScaleShift", {shape}, shape, attrs), {x}, functional_set());
  REQUIRE(y.size() == 24);
  for (std::size_t i = 0; i < 24; ++i) CHECK(y[i] == doctest::Approx(x[i] * 2.5 - 1.0).epsilon(1e-6));
  // Without the attributes: the defaults 1.0 and 0.0.
  CHECK(run1(one_node("ScaleShift", {shape}, shape), {x}, functional_set()) == x);
}

TEST_CASE("opencl OpenVINO functional layers: an internal buffer sized by INPUT0_DIMS carries 2x to y = 2x - 1") {
  if (!have_opencl()) return;
  const std::vector<float> x = iota(24, 0.25f);
  const std::vector<float> y = run1(one_node("ScratchTwice", {{1, 2, 3, 4}}, {1, 2, 3, 4}), {x}, functional_set());
  REQUIRE(y.size() == 24);
  for (std::size_t i = 0; i < 24; ++i) CHECK(y[i] == 2 * x[i] - 1);
  // INPUT0_DIMS[i] reads the graph's shape: a rank-2 input has no INPUT0_DIMS[2].
  CHECK(test::thrown_id([&] { run1(one_node("ScratchTwice", {{6, 4}}, {6, 4}), {x}, functional_set()); }) == ErrorId::DanglingReference);
}

TEST_CASE("opencl OpenVINO functional layers: internal buffers at any argument, each its own, kept across runs") {
  if (!have_opencl()) return;
  const auto pair = set_from(scratch_layer("scratch_pair",
                                           "<Tensor arg-index=\"0\" type=\"internal\" port-index=\"0\" size=\"INPUT0_DIMS[0]*INPUT0_DIMS[1]\"/>"
                                           "<Tensor arg-index=\"1\" type=\"input\" port-index=\"0\"/>"
                                           "<Tensor arg-index=\"2\" type=\"internal\" port-index=\"0\" size=\"12\"/>"
                                           "<Tensor arg-index=\"3\" type=\"output\" port-index=\"0\"/>"));
  const std::vector<float> x{-2, -1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9};
  const std::vector<float> y = run1(one_node("scratch_pair", {{3, 4}}, {3, 4}), {x}, pair);
  REQUIRE(y.size() == 12);
  for (std::size_t i = 0; i < 12; ++i) CHECK(y[i] == (x[i] + 1) * (3 * x[i]));

  // One plan run three times: the buffer starts at zero and keeps its contents between runs.
  const auto sum = set_from(scratch_layer("running_sum",
                                          "<Tensor arg-index=\"0\" type=\"input\" port-index=\"0\"/>"
                                          "<Tensor arg-index=\"1\" type=\"output\" port-index=\"0\"/>"
                                          "<Tensor arg-index=\"2\" type=\"internal\" port-index=\"0\" size=\"INPUT0_DIMS[0]\"/>"));
  gpu::register_backend();
  BackendOptions o;
  o.custom_kernels.push_back(sum);
  const auto plan = find_backend("opencl")->prepare(one_node("running_sum", {{4}}, {4}), o);
  const TensorType t = plan->input_types().at(0).second;
  for (float k : {1.0f, 2.0f, 3.0f}) {
    TensorMap in;
    in["in0"] = HostTensor::from_values<float>(t, std::vector<float>{1, -2, 0.5f, 10});
    const TensorMap out = plan->run(in);
    auto v = out.at("y").values<float>();
    CHECK(std::vector<float>(v.begin(), v.end()) == std::vector<float>{k, -2 * k, 0.5f * k, 10 * k});
  }
}

TEST_CASE("opencl OpenVINO functional layers: global X,Y,1 and Y,F,B dispatch over the dims they name") {
  if (!have_opencl()) return;
  // [1, 1, 3, 4]: X = 4 columns, Y = 3 rows.
  const std::vector<float> y = run1(one_node("RowColumn", {{1, 1, 3, 4}}, {1, 1, 3, 4}), {std::vector<float>(12, 0.0f)}, functional_set());
  REQUIRE(y.size() == 12);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c) CHECK(y[r * 4 + c] == r * 100 + c);
  // Rank 3 [2, 3, 4]: B = 2, F = 3, Y = 4 from the front.
  const std::vector<float> z = run1(one_node("RowColumn3D", {{2, 3, 4}}, {2, 3, 4}), {std::vector<float>(24, 0.0f)}, functional_set());
  REQUIRE(z.size() == 24);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) CHECK(z[(i * 3 + j) * 4 + k] == i * 1000 + j * 100 + k);
}

TEST_CASE("opencl OpenVINO functional layers: two inputs, also from one producer, each with its own layout") {
  if (!have_opencl()) return;
  const std::vector<int64_t> shape{2, 2, 2, 3};
  const std::vector<float> a = iota(24), b = iota(24, 10.0f);
  const std::vector<float> sum = run1(one_node("PairSum", {shape, shape}, shape), {a, b}, functional_set());
  for (std::size_t i = 0; i < 24; ++i) CHECK(sum[i] == 11.0f * static_cast<float>(i));
  // Port 1 arrives as YXFB and the output is declared YXFB: the copy comes back as input 1.
  CHECK(run1(one_node("SecondInput", {shape, shape}, shape), {a, b}, functional_set()) == b);
  // Both ports read one value (BFYX for port 0, YXFB for port 1).
  for (const char* op : {"PairSum", "SecondInput"}) {
    Graph g = one_node(op, {shape}, shape);
    g.nodes[0].inputs.push_back(g.nodes[0].inputs[0]);
    const std::vector<float> y = run1(g, {a}, functional_set());
    for (std::size_t i = 0; i < 24; ++i) CHECK(y[i] == (std::string(op) == "PairSum" ? 2.0f : 1.0f) * a[i]);
  }
}

TEST_CASE("opencl OpenVINO functional layers: an ANY output takes input 0's layout (YXFB here) and comes back in order") {
  if (!have_opencl()) return;
  // B = 2 and F = 2 make YXFB and BFYX orders differ; the flat kernel adds 0.5 in YXFB order,
  // so only an output read as YXFB gives x + 0.5 at every (b, f, y, x).
  const std::vector<int64_t> shape{2, 2, 2, 3};
  const std::vector<float> x = iota(24);
  const std::vector<float> y = run1(one_node("YxfbHalfUp", {shape}, shape), {x}, functional_set());
  REQUIRE(y.size() == 24);
  for (std::size_t i = 0; i < 24; ++i) CHECK(y[i] == x[i] + 0.5f);
  // An ANY output after an ANY (so BFYX) input, at two shapes.
  for (const std::vector<int64_t>& s : {std::vector<int64_t>{1, 2, 3, 4}, std::vector<int64_t>{1, 2, 5, 2}}) {
    const std::vector<float> v = iota(static_cast<std::size_t>(s[0] * s[1] * s[2] * s[3]));
    const std::vector<float> w = run1(one_node("PlusOneAny", {s}, s), {v}, functional_set());
    REQUIRE(w.size() == v.size());
    for (std::size_t i = 0; i < v.size(); ++i) CHECK(w[i] == v[i] + 1);
  }
}

TEST_CASE("opencl OpenVINO functional layers: the Cosh tutorial's output port-index 1 is its IR output port") {
  if (!have_opencl()) return;
  const auto set = ovc::custom_layer_set(std::vector<std::filesystem::path>{functional_dir() / "cosh.xml"});
  const std::vector<float> x{-2, -0.5f, 0, 0.25f, 1, 3};
  const std::vector<float> y = run1(one_node("cosh", {{2, 3}}, {2, 3}), {x}, set);
  REQUIRE(y.size() == 6);
  for (std::size_t i = 0; i < 6; ++i) CHECK(y[i] == doctest::Approx((std::exp(x[i]) + std::exp(-x[i])) / 2).epsilon(1e-5));
  // With two inputs, port-index 1 is neither output 1 nor the IR output port (2): refused.
  CHECK(test::thrown_id([&] { run1(one_node("cosh", {{2, 3}, {2, 3}}, {2, 3}), {x, x}, set); }) == ErrorId::DanglingReference);
}

TEST_CASE("opencl: the no-kernel message names the custom layer that would run the node and the fallback") {
  if (!have_opencl()) return;
  gpu::register_backend();
  Graph g = one_node("vk.my_op", {{2}}, {2});
  try {
    find_backend("opencl")->prepare(g, {});
    FAIL("prepared a node without a kernel");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::Feature);
    CHECK(std::string(e.message()).find("no kernel for op vk.my_op") != std::string::npos);
    CHECK(std::string(e.message()).find("an OpenVINO custom layer named \"my_op\" runs it: --custom-layers FILE.xml") != std::string::npos);
    CHECK(std::string(e.message()).find("opencl.fallback=cpu") != std::string::npos);
  }
}
