// The exec floor both backends stand on: the axis rule, broadcast strides, the dtype conversions
// and the shared prepare loop with its fallback list, driven here by two stub backends whose
// kernels are one-line formulas, so every expected value is written by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "nnbridge/axis.h"
#include "nnbridge/error.h"
#include "nnbridge/exec/convert.h"
#include "nnbridge/exec/option_keys.h"
#include "nnbridge/exec/prepare.h"
#include "nnbridge/exec/shape.h"
#include "support/error_id.h"

using namespace nnbridge;

namespace {

// The message (without identifier) of the Error `f` throws, "" when none; `id` gets its identifier.
std::string error_of(const std::function<void()>& f, ErrorId* id = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (id) *id = e.id();
    return e.message();
  }
  return "";
}

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }

// A plan over float32 vectors: each step computes its node's first output from its inputs.
class StubPlan final : public Plan {
 public:
  using Fn = std::function<void(std::span<const float* const>, std::span<float* const>)>;
  struct Step {
    std::vector<ValueId> in, out;
    Fn fn;
  };
  std::vector<TensorType> types;
  std::vector<std::shared_ptr<const exec::FloatConstant>> constants;
  std::vector<Step> steps;
  std::vector<ValueId> graph_in, graph_out;
  std::vector<std::pair<std::string, TensorType>> in_types, out_types;
  std::vector<NodePlacement> nodes;

  const std::vector<NodePlacement>& placement() const override { return nodes; }
  const std::vector<std::pair<std::string, TensorType>>& input_types() const override { return in_types; }
  const std::vector<std::pair<std::string, TensorType>>& output_types() const override { return out_types; }
  TensorMap run(const TensorMap& inputs) const override {
    std::vector<std::vector<float>> v(types.size());
    for (std::size_t k = 0; k < graph_in.size(); ++k) {
      const HostTensor& t = inputs.at(in_types[k].first);
      v[graph_in[k]] = exec::to_float(t.type(), t.bytes().data(), t.element_count());
    }
    for (std::size_t i = 0; i < types.size(); ++i)
      if (constants[i]) v[i].assign(constants[i]->begin(), constants[i]->end());
    for (const Step& s : steps) {
      std::vector<const float*> in;
      std::vector<float*> out;
      for (ValueId id : s.in) in.push_back(id == kNoValue ? nullptr : v[id].data());
      for (ValueId id : s.out) {
        v[id].assign(static_cast<std::size_t>(exec::numel(types[id].shape)), 0.0f);
        out.push_back(v[id].data());
      }
      s.fn(in, out);
    }
    TensorMap result;
    for (std::size_t k = 0; k < graph_out.size(); ++k)
      result[out_types[k].first] = HostTensor::owned(types[graph_out[k]], exec::from_float(types[graph_out[k]], v[graph_out[k]].data(), v[graph_out[k]].size()));
    return result;
  }
};

// A backend that runs the ops in `ops` (Neg: -x, Twice: 2x, Pick: x after reading its axis) through exec::prepare_nodes, and
// remembers the options of its last prepare().
class StubBackend final : public Backend {
 public:
  StubBackend(std::string name, std::set<std::string> ops) : name_(std::move(name)), ops_(std::move(ops)) {}
  std::string name() const override { return name_; }
  mutable BackendOptions seen;

  std::unique_ptr<Plan> prepare(const Graph& g, const BackendOptions& options) const override {
    seen = options;
    auto plan = std::make_unique<StubPlan>();
    struct Builder final : exec::NodeBuilder {
      const StubBackend& b;
      const Graph& g;
      StubPlan& plan;
      Builder(const StubBackend& b, const Graph& g, StubPlan& plan) : b(b), g(g), plan(plan) {}
      bool has_kernel(const Graph& work, std::size_t i) override { return b.ops_.count(work.nodes[i].op) > 0; }
      bool is_custom(const Graph&, std::size_t) override { return false; }
      void build(const Graph&, std::size_t i, const exec::NodeContext& ctx, const std::string&) override {
        const Node& n = g.nodes[i];
        if (ctx.has_attr("axis")) ctx.attr_axis("axis", 0, static_cast<int64_t>(ctx.in[0].shape.size()));
        const float k = n.op == "Neg" ? -1.0f : n.op == "Twice" ? 2.0f : 1.0f;
        const std::size_t count = static_cast<std::size_t>(exec::numel(ctx.out[0].shape));
        plan.steps.push_back({n.inputs, n.outputs, [k, count](std::span<const float* const> in, std::span<float* const> out) {
                                for (std::size_t e = 0; e < count; ++e) out[0][e] = k * in[0][e];
                              }});
      }
      void add_foreign(std::size_t i, std::shared_ptr<const exec::ForeignNode> f) override {
        const Node& n = g.nodes[i];
        plan.steps.push_back({n.inputs, n.outputs, [f](std::span<const float* const> in, std::span<float* const> out) {
                                exec::run_foreign(*f, in, out);
                              }});
      }
    } builder(*this, g, *plan);
    exec::PreparedGraph p = exec::prepare_nodes(g, options, name_, 1, builder);
    for (const Value& v : p.work.values) plan->types.push_back(v.type);
    plan->constants = p.constants;
    plan->nodes = p.placement;
    plan->graph_in = g.inputs;
    plan->graph_out = g.outputs;
    for (ValueId id : g.inputs) plan->in_types.emplace_back(g.values[id].name, plan->types[id]);
    for (ValueId id : g.outputs) plan->out_types.emplace_back(g.values[id].name, plan->types[id]);
    return plan;
  }

 private:
  std::string name_;
  std::set<std::string> ops_;
};

class StubKernels final : public CustomKernelSet {
 public:
  std::string_view backend() const override { return "stub_b"; }
};

// x [2, 2] -> Neg -> Twice -> Neg -> y: y = 2x.
Graph chain() {
  Graph g;
  for (const char* name : {"x", "a", "b", "y"}) g.values.push_back(Value{name, f32({2, 2}), {}, {}});
  g.nodes.push_back(Node{"Neg", "n1", {0}, {1}, {}});
  g.nodes.push_back(Node{"Twice", "t", {1}, {2}, {}});
  g.nodes.push_back(Node{"Neg", "n2", {2}, {3}, {}});
  g.inputs = {0};
  g.outputs = {3};
  return g;
}

}  // namespace

TEST_CASE("normalize_axis: the ONNX range from -r to r-1 and no axis at rank 0") {
  CHECK(normalize_axis(-1, 3) == 2);
  CHECK(normalize_axis(-3, 3) == 0);
  CHECK(normalize_axis(2, 3) == 2);
  // Out of [-r, r-1]: an attribute outside its domain (nnbridge.invalid.404).
  ErrorId id{};
  CHECK_FALSE(error_of([] { normalize_axis(3, 3); }, &id).empty());
  CHECK(id == ErrorId::AttributeValue);
  CHECK_FALSE(error_of([] { normalize_axis(-4, 3, "axes value"); }, &id).empty());
  CHECK(id == ErrorId::AttributeValue);
  CHECK_FALSE(error_of([] { normalize_axis(0, 0); }, &id).empty());
  CHECK(id == ErrorId::AttributeValue);
  CHECK_FALSE(error_of([] { normalize_axis(-1, 0); }, &id).empty());
  CHECK(id == ErrorId::AttributeValue);
}

TEST_CASE("broadcast_strides: ONNX multidirectional broadcasting, by hand") {
  // [3, 1] in [2, 3, 4]: own strides [1, 1]; the missing leading dim and the 1 read with stride 0.
  CHECK(exec::broadcast_strides({3, 1}, {2, 3, 4}) == exec::Shape{0, 1, 0});
  CHECK(exec::broadcast_strides({4}, {2, 3, 4}) == exec::Shape{0, 0, 1});
  CHECK(exec::broadcast_strides({2, 1, 4}, {2, 3, 4}) == exec::Shape{4, 0, 1});
  CHECK(exec::broadcast_strides({}, {2, 3}) == exec::Shape{0, 0});
  // Shapes that do not broadcast (a dim of 2 into 3; a rank above the output's): nnbridge.invalid.403.
  ErrorId id{};
  CHECK_FALSE(error_of([] { exec::broadcast_strides({2}, {2, 3}); }, &id).empty());
  CHECK(id == ErrorId::Shape);
  CHECK_FALSE(error_of([] { exec::broadcast_strides({1, 2, 3}, {2, 3}); }, &id).empty());
  CHECK(id == ErrorId::Shape);
}

TEST_CASE("exec conversions: requantisation rounds half away from zero, float16 ties away from zero") {
  TensorType q{DataType::QAsymmU8, {3}, false, Quantization{{0.5}, {10}, std::nullopt}};
  // 2.25 / 0.5 = 4.5 -> 5 (+10 = 15); -2.25 / 0.5 = -4.5 -> -5 (+10 = 5); 200 / 0.5 + 10 clamps to 255.
  const float v[] = {2.25f, -2.25f, 200.0f};
  auto b = exec::from_float(q, v, 3);
  CHECK(std::to_integer<int>(b[0]) == 15);
  CHECK(std::to_integer<int>(b[1]) == 5);
  CHECK(std::to_integer<int>(b[2]) == 255);
  auto back = exec::to_float(q, b.data(), 3);
  CHECK(back[0] == 2.5f);  // 0.5 * (15 - 10)
  CHECK(back[1] == -2.5f);
  // 1 + 2^-11 lies halfway between the binary16 values 1 (0x3C00) and 1 + 2^-10 (0x3C01).
  TensorType h{DataType::Float16, {1}, false, std::nullopt};
  const float tie = 1.0f + std::ldexp(1.0f, -11);
  auto hb = exec::from_float(h, &tie, 1);
  uint16_t bits;
  std::memcpy(&bits, hb.data(), 2);
  CHECK(bits == 0x3C01);
}

TEST_CASE("exec conversions: unsigned types truncate toward zero and saturate at their range (ONNX UINT16/32/64)") {
  // 7.9 -> 7; -3 -> 0 (below the range); 70000 -> 65535 for uint16; 1e20 -> 2^64 - 1 for uint64,
  // whose maximum rounds up to 2^64 as a float: saturated before the cast, never wrapped.
  const float v[] = {7.9f, -3.0f, 70000.0f, 1e20f};
  auto u16 = exec::from_float(TensorType{DataType::UInt16, {4}, false, std::nullopt}, v, 4);
  uint16_t a[4];
  std::memcpy(a, u16.data(), sizeof a);
  CHECK(a[0] == 7);
  CHECK(a[1] == 0);
  CHECK(a[2] == 65535);
  CHECK(a[3] == 65535);
  auto u64 = exec::from_float(TensorType{DataType::UInt64, {4}, false, std::nullopt}, v, 4);
  uint64_t b[4];
  std::memcpy(b, u64.data(), sizeof b);
  CHECK(b[2] == 70000u);
  CHECK(b[3] == std::numeric_limits<uint64_t>::max());
  // And back: uint32 4294967295 is 2^32 - 1, which float32 rounds to 2^32.
  const uint32_t big = 4294967295u;
  auto f = exec::to_float(TensorType{DataType::UInt32, {1}, false, std::nullopt}, reinterpret_cast<const std::byte*>(&big), 1);
  CHECK(f[0] == 4294967296.0f);
}

TEST_CASE("exec conversions: int8, uint8 and int16 without parameters truncate toward zero, saturate, and store NaN as 0") {
  // The rule of store_one (convert.cc): trunc, then saturate to the type's range; NaN gives 0.
  // Nine values repeated five times (45 elements: whole vectors and a tail), by hand for each type.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  const std::vector<float> base{-2.7f, 2.7f, nan, inf, -inf, 300.0f, -300.0f, 127.9f, -128.9f};
  const std::vector<int> s8{-2, 2, 0, 127, -128, 127, -128, 127, -128};
  const std::vector<int> u8{0, 2, 0, 255, 0, 255, 0, 127, 0};
  const std::vector<int> s16{-2, 2, 0, 32767, -32768, 300, -300, 127, -128};
  std::vector<float> v;
  for (int r = 0; r < 5; ++r) v.insert(v.end(), base.begin(), base.end());
  auto b8 = exec::from_float(TensorType{DataType::Int8, {45}, false, std::nullopt}, v.data(), v.size());
  auto bu = exec::from_float(TensorType{DataType::UInt8, {45}, false, std::nullopt}, v.data(), v.size());
  auto b16 = exec::from_float(TensorType{DataType::Int16, {45}, false, std::nullopt}, v.data(), v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    CAPTURE(i);
    int16_t h;
    std::memcpy(&h, b16.data() + 2 * i, 2);
    CHECK(static_cast<int>(static_cast<int8_t>(std::to_integer<uint8_t>(b8[i]))) == s8[i % 9]);
    CHECK(std::to_integer<int>(bu[i]) == u8[i % 9]);
    CHECK(int{h} == s16[i % 9]);
  }
}

TEST_CASE("prepare_nodes: a node without a kernel runs on the fallback list's backend, with the caller's whole options") {
  auto a = std::make_shared<StubBackend>("stub_a", std::set<std::string>{"Neg"});
  auto b = std::make_shared<StubBackend>("stub_b", std::set<std::string>{"Twice", "Neg"});
  register_backend(a);
  register_backend(b);
  BackendOptions o;
  o.threads = 5;
  o.extensions = {"libsome_extension.so"};
  o.custom_kernels.push_back(std::make_shared<StubKernels>());
  o.options["stub_b.flag"] = "1";
  o.fallback = {"stub_a", "stub_b"};  // its own name is skipped
  auto plan = a->prepare(chain(), o);
  // What stub_b got for node 1: everything the caller gave, and the rest of the list (none).
  CHECK(b->seen.threads == 5);
  CHECK(b->seen.extensions == std::vector<std::string>{"libsome_extension.so"});
  REQUIRE(b->seen.custom_kernels.size() == 1);
  CHECK(b->seen.custom_kernels[0]->backend() == "stub_b");
  CHECK(b->seen.options.at("stub_b.flag") == "1");
  CHECK(b->seen.fallback.empty());
  const auto& nodes = plan->placement();
  REQUIRE(nodes.size() == 3);
  CHECK(nodes[0].backend == "stub_a");
  CHECK(nodes[1].backend == "stub_b");
  CHECK(nodes[1].name == "t");
  CHECK(nodes[1].op == "Twice");
  CHECK(nodes[2].backend == "stub_a");
  const auto counts = backend_counts(*plan);
  REQUIRE(counts.size() == 2);
  CHECK(counts[0] == std::pair<std::string, std::size_t>{"stub_a", 2});
  CHECK(counts[1] == std::pair<std::string, std::size_t>{"stub_b", 1});
  // y = -(2 * -x) = 2x, by hand.
  TensorMap in;
  in["x"] = HostTensor::from_values<float>(f32({2, 2}), std::vector<float>{1.0f, -2.0f, 0.25f, 3.0f});
  // The returned map is kept: values() is a view into its tensor's bytes.
  const TensorMap out = plan->run(in);
  auto y = out.at("y").values<float>();
  CHECK(std::vector<float>(y.begin(), y.end()) == std::vector<float>{2.0f, -4.0f, 0.5f, 6.0f});
}

TEST_CASE("check_option_keys: a key of this backend it does not know, or of no backend, is refused") {
  const auto id_of = [](std::map<std::string, std::string, std::less<>> keys, bool registry) -> std::optional<ErrorId> {
    BackendOptions o;
    o.options = std::move(keys);
    try {
      if (registry) exec::check_option_backends(o);
      else exec::check_option_keys(o, "stub_k", {"device", "fallback"});
    } catch (const Error& e) {
      return e.id();
    }
    return std::nullopt;
  };
  // What a backend checks: its own keys, and that every key has a prefix.
  CHECK(id_of({{"stub_k.device", "0"}, {"stub_k.fallback", "cpu"}}, false) == std::nullopt);
  CHECK(id_of({{"stub_k.devices", "0"}}, false) == ErrorId::UnknownOption);  // misspelt
  CHECK(id_of({{"stub_k", "0"}}, false) == ErrorId::UnknownOption);          // no '.': no backend
  CHECK(id_of({{".device", "0"}}, false) == ErrorId::UnknownOption);
  // Another backend's key is that backend's to check (validate() and fallback share options),
  // registered or not.
  CHECK(id_of({{"stub_other.anything", "1"}}, false) == std::nullopt);
  CHECK(id_of({{"no_such_backend.device", "0"}}, false) == std::nullopt);
  // What an entry point checks: every prefix names a registered backend.
  register_backend(std::make_shared<StubBackend>("stub_k", std::set<std::string>{}));
  CHECK(id_of({{"stub_k.anything", "1"}}, true) == std::nullopt);
  CHECK(id_of({{"no_such_backend.device", "0"}}, true) == ErrorId::UnknownOption);
  CHECK(id_of({{"device", "0"}}, true) == ErrorId::UnknownOption);
  BackendOptions o;
  o.options["stub_k.colour"] = "red";
  CHECK_THROWS_WITH_AS(exec::check_option_keys(o, "stub_k", {"device", "fallback"}),
                       doctest::Contains("stub_k.device, stub_k.fallback"), Error);
  CHECK_THROWS_WITH_AS(exec::check_option_keys(o, "stub_k", {}), doctest::Contains("has no options"), Error);
}

TEST_CASE("prepare_nodes: errors name the node") {
  auto a = std::make_shared<StubBackend>("stub_a", std::set<std::string>{"Neg"});
  ErrorId id{};
  // No fallback: the op without a kernel is nnbridge.unsupported.306 (a feature the backend
  // does not implement), naming op, node and backend.
  std::string msg = error_of([&] { a->prepare(chain(), {}); }, &id);
  CHECK(id == ErrorId::Feature);
  CHECK(msg.find("Twice (node 1 \"t\")") != std::string::npos);
  CHECK(msg.find("stub_a") != std::string::npos);
  // An unregistered fallback backend is an option value outside its domain, naming it.
  BackendOptions o;
  o.fallback = {"stub_nowhere"};
  msg = error_of([&] { a->prepare(chain(), o); }, &id);
  CHECK(id == ErrorId::OptionValue);
  CHECK(msg.find("\"stub_nowhere\"") != std::string::npos);
  // An axis out of ONNX's range, read through the node context: the message names the node.
  // (Pick has no schema, so the checker leaves its attributes alone.)
  auto p = std::make_shared<StubBackend>("stub_p", std::set<std::string>{"Pick"});
  Graph g = chain();
  g.nodes.resize(1);
  g.nodes[0] = Node{"Pick", "pick", {0}, {3}, {{"axis", Attr(int64_t{2})}}};
  msg = error_of([&] { p->prepare(g, {}); }, &id);
  CHECK(id == ErrorId::AttributeValue);
  CHECK(msg.rfind("node 0 \"pick\" (Pick): ", 0) == 0);
  g.nodes[0].attrs["axis"] = Attr(int64_t{-2});
  CHECK(error_of([&] { p->prepare(g, {}); }).empty());
}

TEST_CASE("prepare_nodes: the checker's findings about a node name it as the loop's own errors do") {
  // Conv X [1, 3, 4, 4], W [2, 4, 1, 1]: ONNX's Conv takes W as [M, C / group, kH, kW], so W's
  // 4 input channels do not fit X's 3 (a shape error, docs/errors.md 403). The checker finds it
  // before any kernel is built; the error names the node (index, name and op) once, in the
  // loop's form, at where = "nodes[0]".
  auto b = std::make_shared<StubBackend>("stub_conv", std::set<std::string>{"Conv"});
  Graph g;
  g.values.push_back(Value{"x", f32({1, 3, 4, 4}), {}, {}});
  g.values.push_back(Value{"w", f32({2, 4, 1, 1}), Buffer::owned(std::vector<std::byte>(2 * 4 * sizeof(float))), {}});
  g.values.push_back(Value{"y", f32({1, 2, 4, 4}), {}, {}});
  g.nodes.push_back(Node{"Conv", "conv1", {0, 1}, {2}, {}});
  g.inputs = {0};
  g.outputs = {2};
  auto e = test::thrown([&] { b->prepare(g, {}); });
  REQUIRE(e);
  const std::string what = e->what();
  CAPTURE(what);
  CHECK(e->id() == ErrorId::Shape);
  CHECK(e->where() == "nodes[0]");
  CHECK(e->message().rfind("node 0 \"conv1\" (Conv): ", 0) == 0);
  CHECK(e->message().find("(Conv): Conv:") == std::string::npos);
  CHECK(e->message().find("channels") != std::string::npos);
  // A finding about no node (a graph output out of range) keeps its place and names no node.
  g.outputs = {7};
  e = test::thrown([&] { b->prepare(g, {}); });
  REQUIRE(e);
  CHECK(e->code() == ErrorCode::Invalid);
  CHECK(e->where() == "outputs[0]");
  CHECK(e->message().find("node 0") == std::string::npos);
}
