// The reader's shortcuts past the schema-driven field walk: output TensorInfos read field by
// field when they hold nothing unusual, descriptors of scalars compared by their bytes against
// layers already mapped, layer indices looked up in a vector. Each must give what the rules of
// the walk give (tensor_info.h: "derive and diff"), checked on files flatc compiles from JSON.
//
// Oracle: the expected attributes are derived by hand from those rules and ArmnnSchema.fbs
// (TensorInfo.quantizationScale defaults to 1.0, so a file that leaves it out differs from what
// the writer derives for float32, 0); a round trip is "the same under flatc --json".
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "nnbridge/error.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

std::string activation(int64_t index, const std::string& name, int64_t from, const std::string& descriptor,
                       const std::string& info_extra) {
  return R"({"layer_type": "ActivationLayer", "layer": {"base": {"index": )" + std::to_string(index) +
         R"(, "layerName": ")" + name + R"(", "layerType": "Activation", "inputSlots": [{"index": 0, "connection":
     {"sourceLayerIndex": )" + std::to_string(from) + R"(, "outputSlotIndex": 0}}], "outputSlots": [{"index": 0,
     "tensorInfo": {"dimensions": [1, 4], "dataType": "Float32")" + info_extra + R"(}}]}, "descriptor": )" + descriptor +
         "}}";
}

std::string input(int64_t index) {
  return R"({"layer_type": "InputLayer", "layer": {"base": {"base": {"index": )" + std::to_string(index) +
         R"(, "layerName": "x", "layerType": "Input", "inputSlots": [], "outputSlots": [{"index": 0,
     "tensorInfo": {"dimensions": [1, 4], "dataType": "Float32", "quantizationScale": 0.0}}]}, "layerBindingId": 0}}})";
}

std::string output(int64_t index, int64_t from) {
  return R"({"layer_type": "OutputLayer", "layer": {"base": {"base": {"index": )" + std::to_string(index) +
         R"(, "layerName": "y", "layerType": "Output", "inputSlots": [{"index": 0, "connection":
     {"sourceLayerIndex": )" + std::to_string(from) + R"(, "outputSlotIndex": 0}}], "outputSlots": []},
     "layerBindingId": 0}}})";
}

const char* kRelu = R"({"activationFunction": "ReLu"})";

// A SerializedGraph of `layers` (one input, one output, binding ids as indices) compiled by flatc.
std::filesystem::path compile(const std::string& layers, const std::string& stem) {
  return flatc_binary(R"({"layers": [)" + layers + R"(], "inputIds": [0], "outputIds": [0],
      "featureVersions": {"bindingIdsScheme": 1}})",
                      stem);
}

const Attr* attr(const AttrMap& m, const std::string& k) {
  auto it = m.find(k);
  return it == m.end() ? nullptr : &it->second;
}

}  // namespace

TEST_CASE("armnn output TensorInfo: scale and offset a float32 tensor should not have are kept, others add nothing") {
  // r1 leaves quantizationScale out (flatc: the schema default 1.0); r2 gives offset 7; r3 gives
  // scale 0 as Arm NN's serializer does; r4 a NaN scale.
  const std::string layers =
      input(0) + ",\n" + activation(1, "r1", 0, kRelu, "") + ",\n" +
      activation(2, "r2", 1, kRelu, R"(, "quantizationScale": 0.0, "quantizationOffset": 7)") + ",\n" +
      activation(3, "r3", 2, kRelu, R"(, "quantizationScale": 0.0)") + ",\n" +
      activation(4, "r4", 3, kRelu, R"(, "quantizationScale": nan)") + ",\n" + output(5, 4);
  const auto bin = compile(layers, "tensor_info_residuals");
  const Graph g = read(bin);

  const Value* r1 = value_named(g, "r1");
  REQUIRE(r1);
  CHECK(r1->type.dtype == DataType::Float32);
  CHECK(r1->type.shape == std::vector<int64_t>{1, 4});
  CHECK(!r1->type.quantization);
  REQUIRE(r1->attrs.size() == 1);
  REQUIRE(attr(r1->attrs, "armnn.tensorInfo.quantizationScale"));
  CHECK(attr(r1->attrs, "armnn.tensorInfo.quantizationScale")->get<double>() == 1.0);

  const Value* r2 = value_named(g, "r2");
  REQUIRE(r2);
  REQUIRE(r2->attrs.size() == 1);
  REQUIRE(attr(r2->attrs, "armnn.tensorInfo.quantizationOffset"));
  CHECK(attr(r2->attrs, "armnn.tensorInfo.quantizationOffset")->get<int64_t>() == 7);

  const Value* r3 = value_named(g, "r3");
  REQUIRE(r3);
  CHECK(r3->attrs.empty());
  CHECK(value_named(g, "x")->attrs.count("armnn.tensorInfo.quantizationScale") == 0);

  const Value* r4 = value_named(g, "r4");
  REQUIRE(r4);
  REQUIRE(attr(r4->attrs, "armnn.tensorInfo.quantizationScale"));
  CHECK(std::isnan(attr(r4->attrs, "armnn.tensorInfo.quantizationScale")->get<double>()));

  // Written back, every field is what the file had.
  CHECK(flatc_json(write(g, "tensor_info_residuals_out")) == flatc_json(bin));
}

TEST_CASE("armnn descriptors: layers whose scalar fields differ in one value never share a mapping") {
  // Equal descriptors (r1, r3) may reuse a mapping; r2 differs only in b, r4 only in the
  // function, r5 only in a's bits (-0.0 against 0.0 compares equal as a value: either mapping
  // is right). Expected, by the Activation rows: ReLu -> Relu with nothing left over; a field
  // Relu does not express stays as `armnn.descriptor.<field>`; Sigmoid -> Sigmoid.
  const std::string layers = input(0) + ",\n" + activation(1, "r1", 0, kRelu, "") + ",\n" +
                             activation(2, "r2", 1, R"({"activationFunction": "ReLu", "b": 2.0})", "") + ",\n" +
                             activation(3, "r3", 2, kRelu, "") + ",\n" +
                             activation(4, "r4", 3, R"({"activationFunction": "Sigmoid"})", "") + ",\n" +
                             activation(5, "r5", 4, R"({"activationFunction": "ReLu", "a": -0.0})", "") + ",\n" +
                             activation(6, "r6", 5, R"({"activationFunction": "ReLu", "b": 2.0})", "") + ",\n" +
                             output(7, 6);
  const auto bin = compile(layers, "descriptor_memo");
  const Graph g = read(bin);
  auto check_node = [&](const std::string& name, const std::string& op, std::optional<double> b) {
    INFO(name);
    const Node* n = node_named(g, name);
    REQUIRE(n);
    CHECK(n->op == op);
    const Attr* residual = attr(n->attrs, "armnn.descriptor.b");
    CHECK(bool(residual) == bool(b));
    if (residual && b) CHECK(residual->get<double>() == *b);
    CHECK(attr(n->attrs, "armnn.descriptor.a") == nullptr);
  };
  check_node("r1", "Relu", std::nullopt);
  check_node("r2", "Relu", 2.0);
  check_node("r3", "Relu", std::nullopt);
  check_node("r4", "Sigmoid", std::nullopt);
  check_node("r5", "Relu", std::nullopt);
  check_node("r6", "Relu", 2.0);
  // The identity of each layer is its own, whatever mapping it shares: here the writer's order
  // and numbering (below), so none of them carries it.
  CHECK(attr(node_named(g, "r3")->attrs, "armnn.position") == nullptr);
  CHECK(attr(node_named(g, "r6")->attrs, "armnn.index") == nullptr);
}

// Layer names and LayerBase.index of a written file, in `layers` order.
std::vector<std::pair<std::string, int64_t>> layer_identities(const std::filesystem::path& file) {
  std::vector<std::pair<std::string, int64_t>> out;
  const auto doc = nlohmann::json::parse(flatc_json(file));
  for (const auto& l : doc.at("layers")) {
    const auto& base = l.at("layer").at("base");
    const auto& b = base.contains("base") ? base.at("base") : base;
    out.emplace_back(b.value("layerName", std::string()), b.value("index", int64_t{0}));
  }
  return out;
}

TEST_CASE("armnn layer identity: kept only where the writer would not derive it") {
  // Arm NN's serializer numbers layers 0, 1, 2, ... in the order it stores them, Input layers
  // first: the writer derives both (writer.cc plan()), so no layer carries armnn.index or
  // armnn.position, and the file round-trips.
  const std::string chain = input(0) + ",\n" + activation(1, "r1", 0, kRelu, "") + ",\n" +
                            activation(2, "r2", 1, kRelu, "") + ",\n" + output(3, 2);
  const auto natural = compile(chain, "identity_natural");
  Graph g = read(natural);
  for (const Node& n : g.nodes) {
    CHECK(attr(n.attrs, "armnn.index") == nullptr);
    CHECK(attr(n.attrs, "armnn.position") == nullptr);
  }
  for (const Value& v : g.values) CHECK(attr(v.attrs, "armnn.position") == nullptr);
  CHECK(flatc_json(write(g, "identity_natural_out")) == flatc_json(natural));
  // A node added in the IR goes where its place in the node list puts it, and the numbering
  // follows the order: r1, new, r2.
  REQUIRE(node_named(g, "r2"));
  const ValueId r1_out = node_named(g, "r2")->inputs[0];
  const ValueId added = g.add_value(Value{"added", g.values[r1_out].type, std::nullopt, {}});
  g.nodes.insert(g.nodes.begin() + 1, Node{"Relu", "added", {r1_out}, {added}, {}});
  for (Node& n : g.nodes)
    if (n.name == "r2") n.inputs[0] = added;
  CHECK(layer_identities(write(g, "identity_natural_added")) ==
        std::vector<std::pair<std::string, int64_t>>{{"x", 0}, {"r1", 1}, {"added", 2}, {"r2", 3}, {"y", 4}});

  // Indices not 0, 1, 2, ... in order (LayerBase.index is any uint), or an Input layer stored
  // after the layer reading it (not where the writer puts Input layers): every layer keeps
  // both, and the file round-trips.
  struct Case {
    std::string layers, stem;
    std::vector<std::pair<std::string, int64_t>> want;  // layer name -> armnn.index, in `layers` order
  };
  const Case cases[] = {
      {input(0) + ",\n" + activation(5, "r1", 0, kRelu, "") + ",\n" + output(2, 5), "identity_sparse",
       {{"x", 0}, {"r1", 5}, {"y", 2}}},
      {activation(0, "r1", 1, kRelu, "") + ",\n" + input(1) + ",\n" + output(2, 0), "identity_input_late",
       {{"r1", 0}, {"x", 1}, {"y", 2}}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.stem);
    const auto bin = compile(c.layers, c.stem);
    const Graph h = read(bin);
    for (std::size_t i = 0; i < c.want.size(); ++i) {
      const std::string& name = c.want[i].first;
      CAPTURE(name);
      const Node* n = node_named(h, name);
      const AttrMap& a = n ? n->attrs : value_named(h, name)->attrs;
      REQUIRE(attr(a, "armnn.position"));
      CHECK(attr(a, "armnn.position")->get<int64_t>() == int64_t(i));
      CHECK(attr(a, "armnn.index")->get<int64_t>() == c.want[i].second);
    }
    CHECK(flatc_json(write(h, c.stem + "_out")) == flatc_json(bin));
  }
}

TEST_CASE("armnn layer indices far past the layer count resolve, and a repeated one is named") {
  // LayerBase.index is any uint; Arm NN's serializer numbers 0, 1, 2, ... but a file may not.
  const std::string layers = input(4000000000u) + ",\n" + activation(7, "r1", 4000000000u, kRelu, "") + ",\n" +
                             activation(123456, "r2", 7, kRelu, "") + ",\n" + output(4294967295u, 123456);
  const auto bin = compile(layers, "sparse_indices");
  const Graph g = read(bin);
  const Node* r2 = node_named(g, "r2");
  REQUIRE(r2);
  REQUIRE(r2->inputs.size() == 1);
  CHECK(g.values[r2->inputs[0]].name == "r1");
  CHECK(attr(node_named(g, "r1")->attrs, "armnn.index")->get<int64_t>() == 7);
  CHECK(flatc_json(write(g, "sparse_indices_out")) == flatc_json(bin));

  // A layer added in the IR (no armnn.index) gets an index no other layer has: with UINT32_MAX
  // taken there is none above the largest: the smallest unused ones, 0 and 1 (its Output layer).
  Graph h = g;
  const ValueId extra = h.add_value(Value{"extra", h.values[r2->outputs[0]].type, std::nullopt, {}});
  h.add_node(Node{"Relu", "extra", {r2->outputs[0]}, {extra}, {}});
  h.outputs.push_back(extra);
  const auto doc = nlohmann::json::parse(flatc_json(write(h, "sparse_indices_added")));
  std::vector<int64_t> indices;
  for (const auto& l : doc.at("layers")) {
    const auto& base = l.at("layer").at("base");
    indices.push_back(base.contains("base") ? base.at("base").value("index", int64_t{0}) : base.value("index", int64_t{0}));
  }
  std::sort(indices.begin(), indices.end());
  CHECK(indices == std::vector<int64_t>{0, 1, 7, 123456, 4000000000, 4294967295});

  const std::string dup = input(0) + ",\n" + activation(123456, "r1", 0, kRelu, "") + ",\n" +
                          activation(123456, "r2", 123456, kRelu, "") + ",\n" + output(3, 123456);
  const auto dup_bin = compile(dup, "repeated_sparse_index");
  try {
    read(dup_bin);
    FAIL("a repeated index was accepted");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::DuplicateName);
    CHECK(std::string(e.what()).find("index 123456 is also the index of layers[1]") != std::string::npos);
    CHECK(std::string(e.what()).find("layers[2].layer.base.index") != std::string::npos);
  }
}
