// resolve_output_types(): how both backends settle a node's output types from inference and
// the file's declaration. Every expected type below is worked out by hand from the rule in
// nnbridge/op_schema.h; Relu's inference is "the input's type" (ONNX Relu).
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"

using namespace nnbridge;

namespace {

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }

// x -> Relu -> y, with y declared as `declared`.
Graph relu(const TensorType& x, const TensorType& declared) {
  Graph g;
  g.values.push_back(Value{"x", x, {}, {}});
  g.values.push_back(Value{"y", declared, {}, {}});
  g.nodes.push_back(Node{"Relu", "r", {0}, {1}, {}});
  g.inputs = {0};
  g.outputs = {1};
  return g;
}

TensorType resolved(Graph g, const std::optional<std::vector<TensorType>>& inferred, const std::string& error = {}) {
  resolve_output_types(g, 0, inferred, error, "node 0 \"r\"", "nodes[0]");
  return g.values[1].type;
}

std::optional<Error> failure(const Graph& g, const std::optional<std::vector<TensorType>>& inferred,
                             const std::string& error = {}) {
  try {
    resolved(g, inferred, error);
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

}  // namespace

TEST_CASE("resolve_output_types: unknown declared dims and an unknown rank come from inference") {
  const Graph g = relu(f32({2, 3}), f32({-1, 3}));
  CHECK(resolved(g, std::vector{f32({2, 3})}) == f32({2, 3}));
  const Graph unranked = relu(f32({2, 3}), TensorType{DataType::Undefined, {}, true, std::nullopt});
  CHECK(resolved(unranked, std::vector{f32({2, 3})}) == f32({2, 3}));
}

TEST_CASE("resolve_output_types: inference's unknown dims come from the declaration") {
  const Graph g = relu(f32({-1, 3}), f32({4, 3}));
  CHECK(resolved(g, std::vector{f32({-1, 3})}) == f32({4, 3}));
  // Inference that knows nothing about the rank takes the declared shape whole.
  CHECK(resolved(g, std::vector{TensorType{DataType::Float32, {}, true, std::nullopt}}) == f32({4, 3}));
}

TEST_CASE("resolve_output_types: the declared dtype and quantization win") {
  TensorType declared{DataType::Int8, {2, 3}, false, Quantization{{0.5}, {3}, std::nullopt}};
  const Graph g = relu(f32({2, 3}), declared);
  const TensorType t = resolved(g, std::vector{f32({2, 3})});
  CHECK(t.dtype == DataType::Int8);
  REQUIRE(t.quantization);
  CHECK(t.quantization->scales == std::vector<double>{0.5});
}

TEST_CASE("resolve_output_types: a known dim or a full rank that disagrees is Invalid, naming both") {
  auto e = failure(relu(f32({2, 3}), f32({2, 4})), std::vector{f32({2, 3})});
  REQUIRE(e);
  CHECK(e->id() == ErrorId::Shape);
  CHECK(e->where() == "nodes[0]");
  auto r = failure(relu(f32({2, 3}), f32({6})), std::vector{f32({2, 3})});
  REQUIRE(r);
  CHECK(r->id() == ErrorId::Shape);
  CHECK(r->where() == "nodes[0]");
}

TEST_CASE("resolve_output_types: a type that stays unknown is Unsupported, or Invalid with the inference error") {
  const Graph g = relu(f32({2, 3}), f32({-1, 3}));
  auto none = failure(g, std::nullopt);
  REQUIRE(none);
  CHECK(none->id() == ErrorId::UnsupportedOther);
  CHECK(none->where() == "nodes[0]");
  auto bad = failure(g, std::nullopt, "axis 5 is out of range");
  REQUIRE(bad);
  CHECK(bad->id() == ErrorId::InvalidOther);
  CHECK(std::string(bad->what()).find("axis 5 is out of range") != std::string::npos);  // the inference error, passed on
  // Declared fully: no inference needed.
  CHECK(resolved(relu(f32({2, 3}), f32({2, 3})), std::nullopt) == f32({2, 3}));
}
