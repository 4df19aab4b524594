// Oracle: hand calculations from the ONNX operator definitions (Shape-15, Gather-13, Concat-13,
// Reshape-14): shapes that values decide, planned by constant folding at prepare or by binding the
// graph inputs at run time (nnbridge/exec/input_bound.h), on the cpu backend.
#include <doctest/doctest.h>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec/input_bound.h"
#include "support/error_id.h"

using namespace nnbridge;

namespace {

TensorType typed(DataType dt, std::vector<int64_t> shape) { return TensorType{dt, std::move(shape), false, std::nullopt}; }
TensorType f32(std::vector<int64_t> shape) { return typed(DataType::Float32, std::move(shape)); }
TensorType i64(std::vector<int64_t> shape) { return typed(DataType::Int64, std::move(shape)); }
using Ints = std::vector<int64_t>;

ValueId value(Graph& g, std::string name, TensorType t, std::optional<Ints> data = std::nullopt) {
  std::optional<Buffer> b;
  if (data) b = Buffer::copy_of(std::as_bytes(std::span<const int64_t>(*data)));
  return g.add_value(Value{std::move(name), std::move(t), std::move(b), {}});
}
void node(Graph& g, std::string op, std::vector<ValueId> in, std::vector<ValueId> out, AttrMap attrs = {}) {
  g.add_node(Node{op, op + std::to_string(g.nodes.size()), std::move(in), std::move(out), std::move(attrs)});
}
std::shared_ptr<const Backend> cpu() {
  cpu_ref::register_backend();
  return find_backend("cpu");
}
HostTensor x23() {
  return HostTensor::from_values<float>(f32({2, 3}), std::vector<float>{0, 1, 2, 3, 4, 5});
}

}  // namespace

TEST_CASE("cpu: shape arithmetic on a known input shape folds at prepare (Shape -> Gather -> Concat -> Reshape)") {
  // x [2,3]; s = Shape(x) = [2,3]; d = Gather(s, [1]) = [3]; t = Concat(d, [-1]) = [3,-1];
  // y = Reshape(x, t) has shape [3, 2] (6 elements / 3).
  Graph g;
  ValueId x = value(g, "x", f32({2, 3}));
  g.inputs.push_back(x);
  ValueId s = value(g, "s", i64({-1}));
  ValueId one = value(g, "one", i64({1}), Ints{1});
  ValueId d = value(g, "d", i64({-1}));
  ValueId m1 = value(g, "m1", i64({1}), Ints{-1});
  ValueId t = value(g, "t", i64({-1}));
  ValueId y = value(g, "y", typed(DataType::Float32, {-1, -1}));
  g.outputs.push_back(y);
  node(g, "Shape", {x}, {s});
  node(g, "Gather", {s, one}, {d}, {{"axis", Attr(int64_t{0})}});
  node(g, "Concat", {d, m1}, {t}, {{"axis", Attr(int64_t{0})}});
  node(g, "Reshape", {x, t}, {y});
  auto plan = cpu()->prepare(g, {});
  // Planned statically: the output shape is known before any run.
  REQUIRE(plan->output_types().size() == 1);
  CHECK(plan->output_types()[0].second.shape == Ints{3, 2});
  const TensorMap out = plan->run({{"x", x23()}});
  CHECK(out.at("y").shape() == Ints{3, 2});
  auto v = out.at("y").values<float>();
  CHECK(std::vector<float>(v.begin(), v.end()) == std::vector<float>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("cpu: a Reshape whose shape is a graph input is planned per run with the inputs bound") {
  Graph g;
  ValueId x = value(g, "x", f32({2, 3}));
  ValueId shape = value(g, "shape", i64({2}));
  g.inputs = {x, shape};
  ValueId y = value(g, "y", typed(DataType::Float32, {-1, -1}));
  g.outputs.push_back(y);
  node(g, "Reshape", {x, shape}, {y});
  auto plan = cpu()->prepare(g, {});
  // Nothing about y's dims is known before the values are.
  CHECK(plan->output_types()[0].second.shape == Ints{-1, -1});
  auto run = [&](Ints dims) {
    return plan->run({{"x", x23()}, {"shape", HostTensor::from_values<int64_t>(i64({2}), dims)}}).at("y");
  };
  // ONNX Reshape-14: [3, 2], then [6, -1] -> [6, 1], then [0, -1] (0 copies dim 0: 2) -> [2, 3].
  CHECK(run({3, 2}).shape() == Ints{3, 2});
  CHECK(run({6, -1}).shape() == Ints{6, 1});
  const HostTensor same = run({0, -1});
  CHECK(same.shape() == Ints{2, 3});
  auto v = same.values<float>();
  CHECK(std::vector<float>(v.begin(), v.end()) == std::vector<float>{0, 1, 2, 3, 4, 5});
  // A shape that does not hold 6 elements fails at run time, naming the node.
  CHECK_THROWS_WITH_AS(run({4, 2}), doctest::Contains("Reshape"), Error);
  // The inputs are still checked as every plan checks them.
  CHECK(test::thrown_id([&] { plan->run({{"x", x23()}}); }) == ErrorId::MissingInput);
}

TEST_CASE("cpu: an unresolvable output of a graph without inputs is still an error at prepare") {
  // A constant shape [3] for 2 elements is refused at prepare: nothing is left to run time.
  Graph g;
  ValueId x = value(g, "x", i64({2}), Ints{1, 2});
  ValueId s = value(g, "s", i64({1}), Ints{3});
  ValueId y = value(g, "y", typed(DataType::Int64, {-1}));
  g.outputs.push_back(y);
  node(g, "Reshape", {x, s}, {y});
  CHECK_THROWS_AS(cpu()->prepare(g, {}), Error);
}

TEST_CASE("cpu: a graph input with a dynamic dim (an exported batch size) takes each run's tensor's shape") {
  Graph g;
  ValueId x = value(g, "x", f32({-1, 3}));
  g.inputs.push_back(x);
  ValueId y = value(g, "y", f32({-1, 3}));
  g.outputs.push_back(y);
  node(g, "Relu", {x}, {y});
  auto plan = cpu()->prepare(g, {});
  CHECK(plan->input_types()[0].second.shape == Ints{-1, 3});
  // Relu by hand: max(x, 0), on a batch of 2 and then of 1.
  auto two = plan->run({{"x", HostTensor::from_values<float>(f32({2, 3}), std::vector<float>{-1, 2, -3, 4, -5, 6})}}).at("y");
  CHECK(two.shape() == Ints{2, 3});
  auto v = two.values<float>();
  CHECK(std::vector<float>(v.begin(), v.end()) == std::vector<float>{0, 2, 0, 4, 0, 6});
  auto one = plan->run({{"x", HostTensor::from_values<float>(f32({1, 3}), std::vector<float>{7, -8, 9})}}).at("y");
  auto w = one.values<float>();
  CHECK(std::vector<float>(w.begin(), w.end()) == std::vector<float>{7, 0, 9});
  // The fixed dim still has to match.
  CHECK(test::thrown_id([&] { plan->run({{"x", HostTensor::from_values<float>(f32({1, 2}), std::vector<float>{1, 2})}}); }) == ErrorId::Shape);
}
