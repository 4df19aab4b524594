// The checker: each finding triggered by a hand-built broken graph.
#include <doctest/doctest.h>

#include <cstring>

#include "nnbridge/check.h"
#include "nnbridge/op_schema.h"
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

TEST_CASE("nodes stored out of topological order are valid, a cycle is an error naming its nodes") {
  // Oracle: the order rule (graph valid when its data flow is acyclic), by hand.
  Graph g = good();
  std::swap(g.nodes[0], g.nodes[1]);  // Add is stored before the Relu that feeds it
  CHECK(check(g).empty());
  Graph c = good();
  c.nodes[0].inputs[0] = 1;  // Relu reads its own output
  CHECK(at(check(c), "nodes[0]") ==
        std::vector<std::string>{"E: is on a cycle of data flow: nodes[0] 'relu' (Relu) -> nodes[0]"});
  Graph two = good();
  two.nodes[0].inputs[0] = 3;  // Relu reads z, which Add makes from Relu's y
  const auto found = at(check(two), "nodes[0]");
  REQUIRE(found.size() == 1);
  CHECK(found[0] == "E: is on a cycle of data flow: nodes[0] 'relu' (Relu) -> nodes[1] 'add' (Add) -> nodes[0]");
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

TEST_CASE("format-native ops are checked for ids only, unknown plain ops warn") {
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
    CHECK(e.id() == ErrorId::DanglingReference);  // value id 99 of a smaller graph
    CHECK(e.where() == "nodes[1].inputs[1]");
  }
}

TEST_CASE("check never throws: random ops, shapes and attribute values") {
  // A fixed-seed generator: the same graphs on every run.
  uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&]() {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return state;
  };
  const int64_t extremes[] = {0, 1, -1, 2, 3, 7, -2, INT64_MAX, INT64_MIN, int64_t{1} << 40};
  auto any_int = [&] { return next() % 3 == 0 ? extremes[next() % 10] : static_cast<int64_t>(next() % 9) - 2; };
  auto schemas = all_schemas();
  int findings = 0;
  for (int round = 0; round < 3000; ++round) {
    const OpSchema* s = schemas[next() % schemas.size()];
    Graph g;
    Node n;
    n.op = s->name;
    int nin = s->min_inputs + static_cast<int>(next() % 3);
    if (s->max_inputs >= 0 && nin > s->max_inputs) nin = s->max_inputs;
    for (int i = 0; i < nin; ++i) {
      TensorType t{next() % 4 == 0 ? DataType::Int64 : DataType::Float32, {}, next() % 17 == 0, std::nullopt};
      if (!t.unknown_rank)
        for (int r = static_cast<int>(next() % 6); r > 0; --r) t.shape.push_back(next() % 9 == 0 ? -1 : any_int() & 15);
      Value v{"in" + std::to_string(i), t, std::nullopt, {}};
      if (t.dtype == DataType::Int64 && t.shape.size() == 1 && t.shape[0] >= 0 && t.shape[0] < 8) {
        std::vector<int64_t> data(t.shape[0]);
        for (auto& d : data) d = any_int();
        std::vector<std::byte> b(data.size() * 8);
        if (!b.empty()) std::memcpy(b.data(), data.data(), b.size());
        v.constant = Buffer::owned(std::move(b));
      }
      ValueId id = g.add_value(v);
      n.inputs.push_back(id);
      if (!v.constant) g.inputs.push_back(id);
    }
    int nout = s->min_outputs + static_cast<int>(next() % 2);
    if (s->max_outputs >= 0 && nout > s->max_outputs) nout = s->max_outputs;
    for (int i = 0; i < nout; ++i) n.outputs.push_back(g.add_value(Value{"out" + std::to_string(i), {}, {}, {}}));
    for (const AttrSpec& a : s->attrs) {
      if (next() % 3 == 0) continue;
      switch (a.type) {
        case AttrType::Int: n.attrs[a.name] = any_int(); break;
        case AttrType::Float: n.attrs[a.name] = static_cast<double>(any_int()); break;
        case AttrType::String: n.attrs[a.name] = next() % 2 ? "NHWC" : "nonsense"; break;
        case AttrType::Ints: {
          std::vector<int64_t> v(next() % 7);
          for (auto& x : v) x = any_int();
          n.attrs[a.name] = v;
          break;
        }
        default: n.attrs[a.name] = std::vector<double>{1.0}; break;
      }
    }
    g.add_node(n);
    g.outputs = n.outputs;
    std::vector<Issue> issues;
    CHECK_NOTHROW(issues = check(g));
    findings += static_cast<int>(issues.size());
  }
  CHECK(findings > 0);  // the generator does produce broken graphs
}
