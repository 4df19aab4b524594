// nnbridge::diff on hand-built graphs whose differences are known by construction; every
// expected number is computed by hand in the comments (IEEE 754 bit patterns for ULPs).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "nnbridge/diff.h"

using namespace nnbridge;

namespace {

Value tensor(std::string name, std::vector<int64_t> shape) {
  Value v;
  v.name = std::move(name);
  v.type.dtype = DataType::Float32;
  v.type.shape = std::move(shape);
  return v;
}

Value constant(std::string name, std::vector<int64_t> shape, const std::vector<float>& data) {
  Value v = tensor(std::move(name), std::move(shape));
  std::vector<std::byte> bytes(data.size() * 4);
  std::memcpy(bytes.data(), data.data(), bytes.size());
  v.constant = Buffer::owned(std::move(bytes));
  return v;
}

Node node(std::string op, std::string name, std::vector<ValueId> in, std::vector<ValueId> out, AttrMap attrs = {}) {
  Node n;
  n.op = std::move(op);
  n.name = std::move(name);
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  n.attrs = std::move(attrs);
  return n;
}

// x [1,2,3,3] -> Conv(W [1,2,1,1], B [1]) -> LeakyRelu(alpha 0.1) -> Sigmoid -> y [1,1,3,3].
Graph model(std::vector<float> w = {0.25f, 1.0f}) {
  Graph g;
  g.source_format = "json";
  ValueId x = g.add_value(tensor("x", {1, 2, 3, 3}));
  ValueId W = g.add_value(constant("W", {1, 2, 1, 1}, w));
  ValueId B = g.add_value(constant("B", {1}, {0.5f}));
  ValueId c = g.add_value(tensor("c", {1, 1, 3, 3}));
  ValueId l = g.add_value(tensor("l", {1, 1, 3, 3}));
  ValueId y = g.add_value(tensor("y", {1, 1, 3, 3}));
  g.inputs = {x};
  g.outputs = {y};
  g.add_node(node("Conv", "conv", {x, W, B}, {c}, {{"kernel_shape", std::vector<int64_t>{1, 1}}}));
  g.add_node(node("LeakyRelu", "leaky", {c}, {l}, {{"alpha", 0.1}}));
  g.add_node(node("Sigmoid", "sigmoid", {l}, {y}));
  return g;
}

std::vector<Difference> of(const GraphDiff& d, DiffCategory c) {
  std::vector<Difference> out;
  for (const Difference& x : d.differences)
    if (x.category == c) out.push_back(x);
  return out;
}

}  // namespace

TEST_CASE("diff: a graph against itself is the same and every node pairs by name") {
  const Graph g = model();
  const GraphDiff d = diff(g, g);
  CHECK(d.same());
  REQUIRE(d.nodes.size() == 3);
  for (const NodeMatch& m : d.nodes) CHECK(m.by == NodeMatch::By::Name);
  CHECK(d.inputs.size() == 1);
  CHECK(d.outputs.size() == 1);
}

TEST_CASE("diff: one changed attribute is one Attribute difference naming it") {
  Graph b = model();
  b.nodes[1].attrs["alpha"] = 0.2;
  const GraphDiff d = diff(model(), b);
  REQUIRE(d.differences.size() == 1);
  const Difference& x = d.differences[0];
  CHECK(x.category == DiffCategory::Semantic);
  CHECK(x.kind == DiffKind::Attribute);
  CHECK(x.subject == DiffSubject::Node);
  CHECK(x.key == "alpha");
  CHECK(x.a == "0.1");
  CHECK(x.b == "0.2");
  CHECK(x.a_name == "leaky");
  CHECK(x.a_index == 1);
  CHECK(x.message() == "node \"leaky\" (LeakyRelu): attribute alpha: 0.1 vs 0.2");
}

TEST_CASE("diff: an absent attribute equals its schema default") {
  // ONNX LeakyRelu-16: alpha defaults to 0.01; Conv: group 1, strides / dilations 1, pads 0.
  Graph a = model(), b = model();
  a.nodes[1].attrs.erase("alpha");
  b.nodes[1].attrs["alpha"] = 0.01;
  b.nodes[0].attrs["group"] = int64_t{1};
  b.nodes[0].attrs["strides"] = std::vector<int64_t>{1, 1};
  b.nodes[0].attrs["pads"] = std::vector<int64_t>{0, 0, 0, 0};
  CHECK(diff(a, b).same());
  b.nodes[1].attrs["alpha"] = 0.02;
  const GraphDiff d = diff(a, b);
  REQUIRE(d.differences.size() == 1);
  CHECK(d.differences[0].a == "0.01");
}

TEST_CASE("diff: one changed constant gives its element count, max abs diff and max ULP distance") {
  // W[0]: 0.25f (0x3E800000) -> 0.5f (0x3F000000): |d| = 0.25, 0x00800000 = 8388608 ULP.
  // W[1]: 1.0f (0x3F800000) -> 1 + 2^-22 (0x3F800002): |d| = 2^-22, 2 ULP.
  const float next2 = 1.0f + 1.0f / 4194304.0f;
  const GraphDiff d = diff(model({0.25f, 1.0f}), model({0.5f, next2}));
  REQUIRE(d.differences.size() == 1);
  const Difference& x = d.differences[0];
  CHECK(x.kind == DiffKind::Constant);
  CHECK(x.place == "inputs[1]");
  CHECK(x.a == "W");
  CHECK(x.elements == 2);
  CHECK(x.elements_differing == 2);
  CHECK(x.first_index == 0);
  CHECK(x.first_a == 0.25);
  CHECK(x.first_b == 0.5);
  CHECK(x.max_abs_diff == 0.25);
  CHECK(x.max_ulp == 8388608u);
  // Only the small change: 2 ULP, 2^-22 = 2.384185791015625e-07.
  const GraphDiff small = diff(model({0.25f, 1.0f}), model({0.25f, next2}));
  REQUIRE(small.differences.size() == 1);
  CHECK(small.differences[0].max_ulp == 2u);
  CHECK(small.differences[0].max_abs_diff == 2.384185791015625e-07);
  CHECK(small.differences[0].first_index == 1);
  // +0 and -0 are equal numbers: no difference, though the bytes differ.
  CHECK(diff(model({0.0f, 1.0f}), model({-0.0f, 1.0f})).same());
}

TEST_CASE("diff: renamed nodes and values pair by topology") {
  Graph b = model();
  const char* names[] = {"n0", "n1", "n2"};
  for (std::size_t i = 0; i < 3; ++i) b.nodes[i].name = names[i];
  for (Value& v : b.values) v.name += "_renamed";
  // Stored in reverse order: pairing follows the data flow, not the storage order.
  std::swap(b.nodes[0], b.nodes[2]);
  const GraphDiff d = diff(model(), b);
  REQUIRE(d.nodes.size() == 3);
  for (const NodeMatch& m : d.nodes) CHECK(m.by == NodeMatch::By::Topology);
  CHECK(d.nodes[0].b == 2);  // conv is B's node 2 after the swap
  CHECK(d.nodes[2].b == 0);
  // Semantically the same: only names differ (3 nodes, the input and the output).
  CHECK(of(d, DiffCategory::Semantic).empty());
  CHECK(of(d, DiffCategory::Name).size() == 5);
  CHECK(diff(model(), b, {.ignore_names = true}).same());
}

TEST_CASE("diff: a swapped op is an Op difference whether paired by name or by topology") {
  Graph b = model();
  b.nodes[2].op = "Tanh";
  GraphDiff d = diff(model(), b);
  REQUIRE(d.differences.size() == 1);
  CHECK(d.differences[0].kind == DiffKind::Op);
  CHECK(d.differences[0].a == "Sigmoid");
  CHECK(d.differences[0].b == "Tanh");
  // Without names the second topology pass pairs it (same inputs, any op).
  for (Node& n : b.nodes) n.name.clear();
  d = diff(model(), b, {.ignore_names = true});
  REQUIRE(d.differences.size() == 1);
  CHECK(d.differences[0].kind == DiffKind::Op);
  CHECK(d.nodes.size() == 3);
}

TEST_CASE("diff: an extra node is only in B and rewires its consumer") {
  Graph b = model();
  ValueId r = b.add_value(tensor("r", {1, 1, 3, 3}));
  b.add_node(node("Relu", "relu", {3}, {r}));
  b.nodes[1].inputs[0] = r;  // leaky now reads relu's output
  const GraphDiff d = diff(model(), b);
  std::vector<DiffKind> kinds;
  for (const Difference& x : d.differences) kinds.push_back(x.kind);
  CHECK(kinds == std::vector<DiffKind>{DiffKind::Wiring, DiffKind::OnlyInB});
  CHECK(d.differences[0].a == "c");
  CHECK(d.differences[0].b == "r");
  CHECK(d.differences[1].b_name == "relu");
}

TEST_CASE("diff: a node put in between whose output keeps the name says which node makes each side's value") {
  // As a converter does: conv's output renamed, a Relu in between writes the name "c".
  Graph b = model();
  b.values[3].name = "c_pre";
  ValueId r = b.add_value(tensor("c", {1, 1, 3, 3}));
  b.add_node(node("Relu", "between", {3}, {r}));
  b.nodes[1].inputs[0] = r;
  const GraphDiff d = diff(model(), b);
  const Difference* w = nullptr;
  for (const Difference& x : d.differences)
    if (x.kind == DiffKind::Wiring) w = &x;
  REQUIRE(w != nullptr);
  CHECK(w->a == "c (made by node \"conv\", Conv)");
  CHECK(w->b == "c (made by node \"between\", Relu)");
  CHECK(w->message() == "node \"leaky\" (LeakyRelu) inputs[0]: reads c (made by node \"conv\", Conv) vs c (made by node \"between\", Relu)");
}

TEST_CASE("diff: a changed dtype or shape of a graph input is a Type difference") {
  Graph b = model();
  b.values[0].type.shape = {2, 2, 3, 3};
  const GraphDiff d = diff(model(), b);
  REQUIRE(!d.differences.empty());
  CHECK(d.differences[0].kind == DiffKind::Type);
  CHECK(d.differences[0].subject == DiffSubject::Input);
  CHECK(d.differences[0].key == "shape");
  CHECK(d.differences[0].a == "[1, 2, 3, 3]");
  CHECK(d.differences[0].b == "[2, 2, 3, 3]");
}

TEST_CASE("diff: format vocabulary is Metadata and ignore_metadata leaves it out") {
  Graph b = model();
  b.source_format = "armnn";
  b.metadata["armnn.bindingIdsScheme"] = int64_t{1};
  b.nodes[0].attrs["armnn.index"] = int64_t{1};
  b.values[0].attrs["armnn.layerBindingId"] = int64_t{0};
  const GraphDiff d = diff(model(), b);
  CHECK(d.differences.size() == 4);
  CHECK(of(d, DiffCategory::Metadata).size() == 4);
  CHECK(!d.same());
  CHECK(diff(model(), b, {.ignore_metadata = true}).same());
  // On a format-native op the namespaced attributes are its meaning: semantic.
  Graph na = model(), nb = model();
  na.nodes[2].op = nb.nodes[2].op = "vk.custom";
  na.nodes[2].attrs["vk.k"] = int64_t{1};
  nb.nodes[2].attrs["vk.k"] = int64_t{2};
  const GraphDiff dn = diff(na, nb, {.ignore_metadata = true});
  REQUIRE(dn.differences.size() == 1);
  CHECK(dn.differences[0].category == DiffCategory::Semantic);
  CHECK(dn.differences[0].kind == DiffKind::Attribute);
}

TEST_CASE("diff: the normal form drops an Identity in front of the output and fills kernel_shape from W") {
  Graph a = model();
  // A: sigmoid writes s, an Identity copies it to the graph output y (Arm NN's Output layer).
  ValueId s = a.add_value(tensor("s", {1, 1, 3, 3}));
  a.nodes[2].outputs = {s};
  a.add_node(node("Identity", "y", {s}, {5}));
  // B: no kernel_shape (ONNX: inferred from W's spatial dims [1, 1]).
  Graph b = model();
  b.nodes[0].attrs.erase("kernel_shape");
  CHECK(diff(a, b).same());
}

TEST_CASE("diff: constant weights in another kernel_layout compare in the default one") {
  // Depthwise, 2 channels, M = 1, a 1x2 kernel. 1HWO [1, 1, 2, 2] holds W[0, 0, w, o] at 2w + o:
  // data {1, 2, 3, 4} is o=0: (w0 1, w1 3), o=1: (w0 2, w1 4), i.e. OIHW [2, 1, 1, 2] {1, 3, 2, 4}.
  auto depthwise = [](const char* layout, std::vector<int64_t> wshape, std::vector<float> w) {
    Graph g;
    ValueId x = g.add_value(tensor("x", {1, 2, 1, 3}));
    ValueId W = g.add_value(constant("W", std::move(wshape), w));
    ValueId y = g.add_value(tensor("y", {1, 2, 1, 2}));
    g.inputs = {x};
    g.outputs = {y};
    g.add_node(node("Conv", "dw", {x, W}, {y}, {{"group", int64_t{2}}, {"kernel_layout", layout}}));
    return g;
  };
  const Graph a = depthwise("1HWO", {1, 1, 2, 2}, {1, 2, 3, 4});
  CHECK(diff(a, depthwise("OIHW", {2, 1, 1, 2}, {1, 3, 2, 4})).same());
  const GraphDiff d = diff(a, depthwise("OIHW", {2, 1, 1, 2}, {1, 2, 3, 4}));
  REQUIRE(d.differences.size() == 1);
  CHECK(d.differences[0].kind == DiffKind::Constant);
  CHECK(d.differences[0].elements_differing == 2);
  CHECK(d.differences[0].first_index == 1);  // 3 vs 2
  CHECK(d.differences[0].first_a == 3.0);
}

TEST_CASE("diff: a Pad value given as 0 equals one left out and pairs by topology") {
  // ONNX Pad-13: constant_value is 0 when absent; Arm NN's reader spells it out.
  auto pad = [](std::optional<float> value) {
    Graph g;
    ValueId x = g.add_value(tensor("x", {1, 2}));
    Value pads = tensor("pads", {4});
    pads.type.dtype = DataType::Int64;
    const int64_t p[] = {0, 1, 0, 1};
    std::vector<std::byte> bytes(sizeof p);
    std::memcpy(bytes.data(), p, sizeof p);
    pads.constant = Buffer::owned(std::move(bytes));
    ValueId pv = g.add_value(std::move(pads));
    ValueId y = g.add_value(tensor("y", {1, 4}));
    std::vector<ValueId> in{x, pv};
    if (value) in.push_back(g.add_value(constant("value", {}, {*value})));
    g.inputs = {x};
    g.outputs = {y};
    g.add_node(node("Pad", value ? "p" : "", in, {y}));
    return g;
  };
  CHECK(diff(pad(std::nullopt), pad(0.0f), {.ignore_names = true}).same());
  const GraphDiff d = diff(pad(std::nullopt), pad(1.0f), {.ignore_names = true});
  REQUIRE(d.differences.size() == 1);
  CHECK(d.differences[0].kind == DiffKind::Arity);
  CHECK(d.differences[0].a == "2");
  CHECK(d.differences[0].b == "3");
}

TEST_CASE("diff: float attributes compare as float32") {
  // 0.3 as a double and as the nearest float32 (0.300000011920928955078125) are one attribute.
  Graph a = model(), b = model();
  a.nodes[1].attrs["alpha"] = 0.3;
  b.nodes[1].attrs["alpha"] = static_cast<double>(0.3f);
  CHECK(diff(a, b).same());
  b.nodes[1].attrs["alpha"] = static_cast<double>(std::nextafter(0.3f, 1.0f));
  CHECK(!diff(a, b).same());
}

TEST_CASE("diff: a node wrapped in new nodes is not paired with one of them") {
  // B wraps the Sigmoid between two Neg nodes: Sigmoid must not pair with the first Neg.
  Graph b = model();
  ValueId n1 = b.add_value(tensor("n1", {1, 1, 3, 3}));
  ValueId s = b.add_value(tensor("s", {1, 1, 3, 3}));
  b.nodes[2].inputs = {n1};
  b.nodes[2].outputs = {s};
  b.add_node(node("Neg", "", {2 + 2}, {n1}));
  b.add_node(node("Neg", "", {s}, {5}));
  for (Node& n : b.nodes) n.name.clear();
  const GraphDiff d = diff(model(), b, {.ignore_names = true});
  std::vector<DiffKind> kinds;
  for (const Difference& x : d.differences)
    if (x.kind != DiffKind::Wiring) kinds.push_back(x.kind);
  CHECK(kinds == std::vector<DiffKind>{DiffKind::OnlyInA, DiffKind::OnlyInB, DiffKind::OnlyInB, DiffKind::OnlyInB});
  CHECK(d.nodes.size() == 2);
}

TEST_CASE("diff: pairing a 20000-node chain renamed is by topology and stays fast") {
  // An O(n^2) pairing would take minutes here; the hashed signature pairs it in one pass.
  auto chain = [](const std::string& prefix) {
    Graph g;
    ValueId v = g.add_value(tensor(prefix + "in", {4}));
    g.inputs = {v};
    for (int i = 0; i < 20000; ++i) {
      ValueId o = g.add_value(tensor(prefix + std::to_string(i), {4}));
      g.add_node(node(i % 2 ? "Relu" : "Neg", prefix + "n" + std::to_string(i), {v}, {o}));
      v = o;
    }
    g.outputs = {v};
    return g;
  };
  const GraphDiff d = diff(chain("a"), chain("b"), {.ignore_names = true});
  CHECK(d.same());
  CHECK(d.nodes.size() == 20000);
}

TEST_CASE("diff: the JSON form has the documented keys") {
  Graph b = model({0.5f, 1.0f});
  const auto j = nlohmann::json::parse(to_json(diff(model(), b), "a.json", "b.json"));
  CHECK(j["format"] == "nnbridge-diff");
  CHECK(j["version"] == 1);
  CHECK(j["same"] == false);
  CHECK(j["a"]["file"] == "a.json");
  CHECK(j["counts"]["semantic"] == 1);
  CHECK(j["matches"]["nodes"].size() == 3);
  CHECK(j["matches"]["nodes"][0]["by"] == "name");
  REQUIRE(j["differences"].size() == 1);
  const auto& x = j["differences"][0];
  CHECK(x["kind"] == "constant");
  CHECK(x["category"] == "semantic");
  CHECK(x["subject"] == "node");
  CHECK(x["a_name"] == "conv");
  CHECK(x["a_op"] == "Conv");
  CHECK(x["place"] == "inputs[1]");
  CHECK(x["max_abs_diff"] == 0.25);
  CHECK(x["max_ulp"] == 8388608);
  CHECK(x["elements_differing"] == 1);
  const std::string text = to_text(diff(model(), b), "a.json", "b.json");
  CHECK(text.find("semantic (1):") != std::string::npos);
  CHECK(text.find("max ULP 8388608") != std::string::npos);
}
