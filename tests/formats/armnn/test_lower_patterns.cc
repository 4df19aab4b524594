// The Arm NN writer's pattern rewrites on a graph from another format (sdk/formats/armnn/src/lower.cc):
// what flatc, the independent decoder, reads in the written file.
#include <doctest/doctest.h>

#include <cstring>

#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }

}  // namespace

TEST_CASE("armnn writer: Sqrt as an Activation layer and a scalar operand at the other's rank") {
  // y = sqrt(x + 1) as an ONNX export writes it: a rank-0 constant, no value types.
  Graph g;
  const ValueId x = g.add_value(Value{"x", f32({1, 4}), std::nullopt, {}});
  float one = 1.0f;
  std::vector<std::byte> b(4);
  std::memcpy(b.data(), &one, 4);
  const ValueId c = g.add_value(Value{"one", f32({}), Buffer::owned(std::move(b)), {}});
  const ValueId s = g.add_value(Value{"s", TensorType{}, std::nullopt, {}});
  const ValueId y = g.add_value(Value{"y", TensorType{}, std::nullopt, {}});
  g.add_node(Node{"Add", "add", {x, c}, {s}, {}});
  g.add_node(Node{"Sqrt", "sqrt", {s}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y};
  const auto out = write(g, "lower_sqrt_rank");
  const std::string json = flatc_json(out);
  CHECK(json.find("\"ActivationLayer\"") != std::string::npos);
  CHECK(json.find("\"activationFunction\": \"Sqrt\"") != std::string::npos);
  CHECK(json.find("ElementwiseUnaryLayer") == std::string::npos);
  const Graph back = read(out);
  const Value* k = value_named(back, "one_rank2");
  REQUIRE(k);
  CHECK(k->type.shape == std::vector<int64_t>{1, 1});
}

TEST_CASE("armnn writer: x times HardSigmoid(x) as one HardSwish activation") {
  Graph g;
  const ValueId x = g.add_value(Value{"x", f32({1, 4}), std::nullopt, {}});
  const ValueId h = g.add_value(Value{"h", TensorType{}, std::nullopt, {}});
  const ValueId y = g.add_value(Value{"y", TensorType{}, std::nullopt, {}});
  g.add_node(Node{"HardSigmoid", "hs", {x}, {h}, {{"alpha", Attr(double(float(1.0 / 6.0)))}, {"beta", Attr(0.5)}}});
  g.add_node(Node{"Mul", "mul", {x, h}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y};
  const std::string json = flatc_json(write(g, "lower_hardswish"));
  CHECK(json.find("\"activationFunction\": \"HardSwish\"") != std::string::npos);
  CHECK(json.find("MultiplicationLayer") == std::string::npos);
}
