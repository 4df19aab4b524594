// The checker: each finding triggered by a hand-built broken graph.
#include <doctest/doctest.h>

#include "nnbridge/check.h"
#include "nnbridge/error.h"

using namespace nnbridge;
using Ints = std::vector<int64_t>;

namespace {

TensorType f32(std::vector<int64_t> s) { return TensorType{DataType::Float32, std::move(s), false, std::nullopt}; }

Value val(std::string name, TensorType t) { return Value{std::move(name), std::move(t), std::nullopt, {}}; }

// x [1,4] -> Relu -> y [1,4] -> Add(y, c) -> z [1,4]; c a constant [4].
Graph good() {
  Graph g;
  ValueId x = g.add_value(val("x", f32({1, 4})));
  ValueId y = g.add_value(val("y", f32({1, 4})));
  Value c = val("c", f32({4}));
  c.constant = Buffer::owned(std::vector<std::byte>(16));
  ValueId cid = g.add_value(c);
  ValueId z = g.add_value(val("z", f32({1, 4})));
  g.add_node({"Relu", "relu", {x}, {y}, {}});
  g.add_node({"Add", "add", {y, cid}, {z}, {}});
  g.inputs = {x};
  g.outputs = {z};
  return g;
}

// The findings at `where`, as "E: message" / "W: message".
std::vector<std::string> at(const std::vector<Issue>& issues, const std::string& where) {
  std::vector<std::string> out;
  for (const Issue& i : issues)
    if (i.where == where) out.push_back((i.severity == Issue::Severity::Error ? "E: " : "W: ") + i.message);
  return out;
}

bool has_error_at(const Graph& g, const std::string& where) {
  for (const Issue& i : check(g))
    if (i.where == where && i.severity == Issue::Severity::Error) return true;
  return false;
}

}  // namespace

TEST_CASE("a correct graph has no findings") {
  auto issues = check(good());
  for (const Issue& i : issues) MESSAGE(i.where << ": " << i.message);
  CHECK(issues.empty());
  CHECK_NOTHROW(check_or_throw(good()));
}

TEST_CASE("dangling and out-of-range ids") {
  Graph g = good();
  g.nodes[1].inputs[1] = 99;
  CHECK(has_error_at(g, "nodes[1].inputs[1]"));
  g = good();
  g.nodes[0].outputs[0] = 42;
  CHECK(has_error_at(g, "nodes[0].outputs[0]"));
  g = good();
  g.inputs = {7};
  CHECK(has_error_at(g, "inputs[0]"));
  g = good();
  g.outputs = {7};
  CHECK(has_error_at(g, "outputs[0]"));
  g = good();
  g.inputs.clear();  // x now comes from nowhere
  CHECK(has_error_at(g, "nodes[0].inputs[0]"));
}

TEST_CASE("a value produced twice") {
  Graph g = good();
  g.nodes[1].outputs[0] = 1;  // y again
  CHECK(has_error_at(g, "nodes[1].outputs[0]"));
}

TEST_CASE("nodes out of topological order and cycles") {
  Graph g = good();
  std::swap(g.nodes[0], g.nodes[1]);  // Add reads y before Relu makes it
  CHECK(has_error_at(g, "nodes[0].inputs[0]"));
  Graph c = good();
  c.nodes[0].inputs[0] = 1;  // Relu reads its own output
  CHECK(has_error_at(c, "nodes[0].inputs[0]"));
}

TEST_CASE("arity outside the schema") {
  Graph g = good();
  g.nodes[0].inputs.push_back(0);  // Relu takes 1
  CHECK(has_error_at(g, "nodes[0].inputs"));
  g = good();
  g.nodes[1].outputs.push_back(g.add_value(val("extra", f32({1, 4}))));
  CHECK(has_error_at(g, "nodes[1].outputs"));
}

TEST_CASE("a required input may not be absent") {
  Graph g = good();
  g.nodes[1].inputs[1] = kNoValue;  // Add needs B
  CHECK(has_error_at(g, "nodes[1].inputs[1]"));
}

TEST_CASE("unknown, mistyped and missing attributes") {
  Graph g = good();
  g.nodes[0].attrs["alpha"] = 0.5;  // Relu has no alpha
  CHECK(has_error_at(g, "nodes[0].attrs.alpha"));
  g.nodes[0].attrs.clear();
  g.nodes[0].attrs["armnn.whatever"] = int64_t{3};  // namespaced fields are kept, not checked
  CHECK(check(g).empty());

  Graph s;
  ValueId x = s.add_value(val("x", f32({2, 3})));
  ValueId y = s.add_value(val("y", f32({2, 3})));
  s.add_node({"Softmax", "", {x}, {y}, {{"axis", 1.0}}});  // axis is an int
  s.inputs = {x};
  s.outputs = {y};
  CHECK(has_error_at(s, "nodes[0].attrs.axis"));
  s.nodes[0].attrs = {};
  CHECK(check(s).empty());
  s.nodes[0].op = "Concat";  // axis required
  CHECK(has_error_at(s, "nodes[0].attrs.axis"));
}

TEST_CASE("constant byte size must match its type") {
  Graph g = good();
  g.values[2].constant = Buffer::owned(std::vector<std::byte>(12));
  auto f = at(check(g), "values[2].constant");
  REQUIRE(f.size() == 1);
  CHECK(f[0] == "E: holds 12 bytes, but float32[4] needs 16");
}

TEST_CASE("declared output types are compared with inference") {
  Graph g = good();
  g.values[3].type = f32({1, 5});  // Add of [1,4] and [4] gives [1,4]
  CHECK(has_error_at(g, "nodes[1].outputs[0]"));
  g.values[3].type = f32({-1, 4});  // unknown dims are fine
  CHECK(check(g).empty());
  g.values[3].type = TensorType{DataType::Int32, {1, 4}, false, std::nullopt};
  CHECK(has_error_at(g, "nodes[1].outputs[0]"));
  g.values[3].type = f32({1, 4, 1});  // rank mismatch
  CHECK(has_error_at(g, "nodes[1].outputs[0]"));
}

TEST_CASE("inference failures are reported at the node") {
  Graph g = good();
  g.values[2].type = f32({3});
  g.values[2].constant = Buffer::owned(std::vector<std::byte>(12));
  CHECK(has_error_at(g, "nodes[1]"));  // [1,4] + [3] does not broadcast
}

TEST_CASE("format-native ops are checked for ids only; unknown plain ops warn") {
  Graph g = good();
  g.nodes[0].op = "armnn.StandIn";
  g.nodes[0].attrs["anything"] = "goes";
  g.nodes[0].inputs.push_back(0);
  CHECK(check(g).empty());
  g.nodes[0].inputs.push_back(77);
  CHECK(has_error_at(g, "nodes[0].inputs[2]"));

  Graph u = good();
  u.nodes[0].op = "FancyNewOp";
  auto f = at(check(u), "nodes[0].op");
  REQUIRE(f.size() == 1);
  CHECK(f[0].rfind("W: ", 0) == 0);
  CHECK_NOTHROW(check_or_throw(u));
}

TEST_CASE("check_or_throw throws Error(Invalid) with the place") {
  Graph g = good();
  g.nodes[1].inputs[1] = 99;
  try {
    check_or_throw(g);
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Invalid);
    CHECK(e.where() == "nodes[1].inputs[1]");
  }
}
