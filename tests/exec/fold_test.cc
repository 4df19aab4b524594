// Constant folding in the shared prepare loop (nnbridge/exec/prepare.h), driven by a builder
// that records what the loop asks of it; the folded values are one-line formulas (-x) written
// out by hand.
#include <doctest/doctest.h>

#include <cstring>
#include <set>
#include <span>

#include "nnbridge/error.h"
#include "nnbridge/exec/prepare.h"
#include "nnbridge/exec/shape.h"

using namespace nnbridge;

namespace {

TensorType typed(DataType d, std::vector<int64_t> shape) { return TensorType{d, std::move(shape), false, std::nullopt}; }

template <class T>
Buffer bytes(const std::vector<T>& v) {
  return Buffer::copy_of(std::as_bytes(std::span<const T>(v)));
}

// Every node has a kernel; evaluate() computes -x, except on a node named "bad", where it throws.
struct Recorder final : exec::NodeBuilder {
  std::set<std::string> built, evaluated;
  std::vector<const exec::FloatConstant*> add_constants;  // what the Add's build() saw
  bool has_kernel(const Graph&, std::size_t) override { return true; }
  bool is_custom(const Graph&, std::size_t) override { return false; }
  void build(const Graph& work, std::size_t i, const exec::NodeContext& ctx, const std::string&) override {
    built.insert(work.nodes[i].name);
    if (work.nodes[i].op == "Add") add_constants = ctx.constants;
  }
  bool evaluate(const Graph& work, std::size_t i, const exec::NodeContext& ctx, std::span<const float* const> in,
                std::span<float* const> out) override {
    evaluated.insert(work.nodes[i].name);
    if (work.nodes[i].name == "bad") throw Error(ErrorId::Feature, "refused");
    for (int64_t k = 0; k < exec::numel(ctx.out[0].shape); ++k) out[0][k] = -in[0][k];
    return true;
  }
  void add_foreign(std::size_t, std::shared_ptr<const exec::ForeignNode>) override {}
};

}  // namespace

TEST_CASE("prepare_nodes folds small integer results on the builder and turns an Identity of a constant into that constant") {
  Graph g;
  const ValueId ci = g.add_value(Value{"ci", typed(DataType::Int64, {2}), bytes(std::vector<int64_t>{3, -5}), {}});
  const ValueId neg = g.add_value(Value{"neg", typed(DataType::Int64, {2}), std::nullopt, {}});
  const ValueId cb = g.add_value(Value{"cb", typed(DataType::Int64, {1}), bytes(std::vector<int64_t>{7}), {}});
  const ValueId bad = g.add_value(Value{"bad_out", typed(DataType::Int64, {1}), std::nullopt, {}});
  const ValueId cf = g.add_value(Value{"cf", typed(DataType::Float32, {3}), bytes(std::vector<float>{1, 2, 3}), {}});
  const ValueId id = g.add_value(Value{"id", typed(DataType::Float32, {3}), std::nullopt, {}});
  const ValueId x = g.add_value(Value{"x", typed(DataType::Float32, {3}), std::nullopt, {}});
  const ValueId y = g.add_value(Value{"y", typed(DataType::Float32, {3}), std::nullopt, {}});
  g.add_node(Node{"Neg", "neg", {ci}, {neg}, {}});
  g.add_node(Node{"Neg", "bad", {cb}, {bad}, {}});
  g.add_node(Node{"Identity", "id", {cf}, {id}, {}});
  g.add_node(Node{"Add", "add", {x, id}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y};

  Recorder r;
  const exec::PreparedGraph p = exec::prepare_nodes(g, {}, "stub", 1, r);
  // Neg of a constant with a small int64 result: run once on the builder, its result a constant.
  CHECK(r.evaluated.count("neg") == 1);
  CHECK(r.built.count("neg") == 0);
  REQUIRE(p.work.values[neg].constant);
  std::vector<int64_t> got(2);
  std::memcpy(got.data(), p.work.values[neg].constant->data(), 16);
  CHECK(got == std::vector<int64_t>{-3, 5});
  REQUIRE(p.constants[neg]);
  CHECK(std::vector<float>(p.constants[neg]->begin(), p.constants[neg]->end()) == std::vector<float>{-3, 5});
  // A builder's error leaves the node to build(), where its own error would name it.
  CHECK(r.evaluated.count("bad") == 1);
  CHECK(r.built.count("bad") == 1);
  CHECK(!p.work.values[bad].constant);
  // Identity of a float constant (not folded by size or dtype rules): that constant itself,
  // its bytes and its float32 view shared, never built or run.
  CHECK(r.evaluated.count("id") == 0);
  CHECK(r.built.count("id") == 0);
  REQUIRE(p.work.values[id].constant);
  CHECK(p.work.values[id].constant->data() == g.values[cf].constant->data());
  CHECK(p.constants[id] == p.constants[cf]);
  REQUIRE(r.add_constants.size() == 2);
  CHECK(r.add_constants[1] == p.constants[cf].get());
  CHECK(r.built.count("add") == 1);
}

TEST_CASE("prepare_nodes keeps an Identity that writes a graph output as a step") {
  Graph g;
  const ValueId cf = g.add_value(Value{"cf", typed(DataType::Float32, {2}), bytes(std::vector<float>{1, 2}), {}});
  const ValueId id = g.add_value(Value{"id", typed(DataType::Float32, {2}), std::nullopt, {}});
  const ValueId x = g.add_value(Value{"x", typed(DataType::Float32, {2}), std::nullopt, {}});
  const ValueId y = g.add_value(Value{"y", typed(DataType::Float32, {2}), std::nullopt, {}});
  g.add_node(Node{"Identity", "id", {cf}, {id}, {}});
  g.add_node(Node{"Add", "add", {x, id}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y, id};
  Recorder r;
  const exec::PreparedGraph p = exec::prepare_nodes(g, {}, "stub", 1, r);
  CHECK(r.built.count("id") == 1);
  CHECK(!p.work.values[id].constant);
}
