// Plan::run_profiled on the cpu backend (nnbridge/exec.h): one NodeTime per step in run order,
// fused nodes inside their step's, outputs as run() computes them (by hand from the ONNX
// definitions of Relu-14 and Add-14); plans that do not time their steps say so.
#include <doctest/doctest.h>

#include <cmath>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "support/error_id.h"

using namespace nnbridge;

namespace {

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }
std::shared_ptr<const Backend> cpu() {
  cpu_ref::register_backend();
  return find_backend("cpu");
}

}  // namespace

TEST_CASE("cpu: run_profiled times each step in run order and computes what run() computes") {
  // x -> Relu ("r") -> Add with a constant ("a") -> Neg ("n"): three steps; none fuses (the
  // backend folds a Relu only into a Conv before it).
  Graph g;
  const ValueId x = g.add_value(Value{"x", f32({2, 2}), std::nullopt, {}});
  const std::vector<float> k{10, 20, 30, 40};
  const ValueId c = g.add_value(Value{"k", f32({2, 2}), Buffer::copy_of(std::as_bytes(std::span<const float>(k))), {}});
  const ValueId r = g.add_value(Value{"relu", f32({2, 2}), std::nullopt, {}});
  const ValueId s = g.add_value(Value{"sum", f32({2, 2}), std::nullopt, {}});
  const ValueId y = g.add_value(Value{"y", f32({2, 2}), std::nullopt, {}});
  g.inputs = {x};
  g.outputs = {y};
  g.add_node(Node{"Relu", "r", {x}, {r}, {}});
  g.add_node(Node{"Add", "a", {r, c}, {s}, {}});
  g.add_node(Node{"Neg", "n/with:odd names", {s}, {y}, {}});
  const auto plan = cpu()->prepare(g, {});
  const TensorMap in{{"x", HostTensor::from_values<float>(f32({2, 2}), std::vector<float>{-1, 2, -3, 4})}};
  std::vector<NodeTime> times(5);  // replaced, not appended to
  const TensorMap out = plan->run_profiled(in, times);
  const auto v = out.at("y").values<float>();
  // -(max(x, 0) + k): -(0 + 10), -(2 + 20), -(0 + 30), -(4 + 40).
  CHECK(std::vector<float>(v.begin(), v.end()) == std::vector<float>{-10, -22, -30, -44});
  REQUIRE(times.size() == 3);
  const std::vector<std::pair<std::size_t, std::string>> want{{0, "Relu"}, {1, "Add"}, {2, "Neg"}};
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(times[i].node == want[i].first);
    CHECK(times[i].op == want[i].second);
    CHECK(times[i].name == g.nodes[want[i].first].name);
    CHECK(times[i].backend == "cpu");
    CHECK(std::isfinite(times[i].ms));
    CHECK(times[i].ms >= 0);
  }
  // Bad inputs are refused as run() refuses them.
  CHECK(test::thrown_id([&] { plan->run_profiled({}, times); }) == ErrorId::MissingInput);
}

TEST_CASE("cpu: run_profiled leaves out a Relu folded into its Conv, whose step times both") {
  // Conv 1x1 with weight 2 on [1, 1, 1, 2], then Relu, then Neg: two steps, the Relu inside the
  // Conv's (NodePlacement::fused_into), so the second step is node 2.
  Graph g;
  const ValueId x = g.add_value(Value{"x", f32({1, 1, 1, 2}), std::nullopt, {}});
  const std::vector<float> w{2};
  const ValueId wv = g.add_value(Value{"w", f32({1, 1, 1, 1}), Buffer::copy_of(std::as_bytes(std::span<const float>(w))), {}});
  const ValueId c = g.add_value(Value{"c", f32({1, 1, 1, 2}), std::nullopt, {}});
  const ValueId r = g.add_value(Value{"r", f32({1, 1, 1, 2}), std::nullopt, {}});
  const ValueId y = g.add_value(Value{"y", f32({1, 1, 1, 2}), std::nullopt, {}});
  g.inputs = {x};
  g.outputs = {y};
  g.add_node(Node{"Conv", "conv", {x, wv}, {c}, {}});
  g.add_node(Node{"Relu", "relu", {c}, {r}, {}});
  g.add_node(Node{"Neg", "neg", {r}, {y}, {}});
  const auto plan = cpu()->prepare(g, {});
  REQUIRE(plan->placement().size() == 3);
  CHECK(plan->placement()[1].fused_into == "conv");
  std::vector<NodeTime> times;
  const TensorMap out = plan->run_profiled({{"x", HostTensor::from_values<float>(f32({1, 1, 1, 2}), std::vector<float>{-1.5f, 3})}}, times);
  const auto v = out.at("y").values<float>();
  CHECK(std::vector<float>(v.begin(), v.end()) == std::vector<float>{-0.0f, -6});  // -max(2 * -1.5, 0), -max(2 * 3, 0)
  REQUIRE(times.size() == 2);
  CHECK(times[0].node == 0);
  CHECK(times[0].op == "Conv");
  CHECK(times[1].node == 2);
  CHECK(times[1].name == "neg");
  CHECK(times[1].op == "Neg");
}

TEST_CASE("cpu: an input-bound plan does not time its steps: Error(Feature)") {
  // A Reshape whose shape is a graph input: the plan prepares (and computes) at each run.
  Graph g;
  const ValueId x = g.add_value(Value{"x", f32({2, 3}), std::nullopt, {}});
  const ValueId shape = g.add_value(Value{"shape", TensorType{DataType::Int64, {2}, false, std::nullopt}, std::nullopt, {}});
  const ValueId y = g.add_value(Value{"y", f32({-1, -1}), std::nullopt, {}});
  g.inputs = {x, shape};
  g.outputs = {y};
  g.add_node(Node{"Reshape", "reshape", {x, shape}, {y}, {}});
  const auto plan = cpu()->prepare(g, {});
  std::vector<NodeTime> times;
  const TensorMap in{{"x", HostTensor::from_values<float>(f32({2, 3}), std::vector<float>{0, 1, 2, 3, 4, 5})},
                     {"shape", HostTensor::from_values<int64_t>(TensorType{DataType::Int64, {2}, false, std::nullopt}, std::vector<int64_t>{3, 2})}};
  CHECK(test::thrown_id([&] { plan->run_profiled(in, times); }) == ErrorId::Feature);
  CHECK(plan->run(in).at("y").shape() == std::vector<int64_t>{3, 2});
}
