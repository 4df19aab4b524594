// featureVersions schemes, new graphs and what the writer refuses.
#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>

#include "armnn/ArmnnSchema_generated.h"
#include "nnbridge/check.h"
#include "layer_zoo.h"
#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"
#include "support/paths.h"
#include "nnbridge/formats/armnn.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

SaveOptions opts(std::initializer_list<std::pair<const std::string, std::string>> kv) {
  SaveOptions o;
  for (auto& [k, v] : kv) o.options[k] = v;
  return o;
}

// The canonical part of a graph: ops, canonical attrs, input/output types and constant bytes.
void check_same_ir(const Graph& a, const Graph& b) {
  std::vector<const Node*> na, nb;
  for (const auto& n : a.nodes) na.push_back(&n);
  for (const auto& n : b.nodes) nb.push_back(&n);
  REQUIRE(na.size() == nb.size());
  for (size_t i = 0; i < na.size(); ++i) {
    CAPTURE(na[i]->name);
    CHECK(na[i]->op == nb[i]->op);
    CHECK(na[i]->name == nb[i]->name);
    for (const auto& [k, v] : na[i]->attrs)
      if (k.find('.') == std::string::npos) CHECK(nb[i]->attrs.at(k) == v);
    REQUIRE(na[i]->inputs.size() == nb[i]->inputs.size());
    for (size_t k = 0; k < na[i]->inputs.size(); ++k) {
      const Value& va = a.values[na[i]->inputs[k]];
      const Value& vb = b.values[nb[i]->inputs[k]];
      CHECK(va.type == vb.type);
      CHECK(va.is_constant() == vb.is_constant());
      if (va.constant && vb.constant) CHECK(*va.constant == *vb.constant);
    }
  }
}

}  // namespace

TEST_CASE("armnn constantTensorsAsInputs: both schemes read into one IR and convert both ways") {
  auto p = test::shared_sample("armnn/conv_relu_fc/model.armnn");
  NNBRIDGE_REQUIRE_SHARED(p);
  Graph g0 = read(*p);
  auto f1 = write(g0, "as_inputs", opts({{"armnn.constantTensorsAsInputs", "1"}}));
  std::string j1 = flatc_json(f1);
  // Scheme 1: the weights and biases live in Constant layers wired to input slots 1 and 2.
  size_t constants = 0;
  for (size_t at = j1.find(R"("layer_type": "ConstantLayer")"); at != std::string::npos;
       at = j1.find(R"("layer_type": "ConstantLayer")", at + 1))
    ++constants;
  CHECK(constants == 4);
  CHECK(j1.find(R"("weights")") == std::string::npos);
  CHECK(j1.find(R"("constantTensorsAsInputs": 1)") != std::string::npos);
  Graph g1 = read(f1);
  for (const auto& issue : check(g1)) CHECK_MESSAGE(issue.severity != Issue::Severity::Error, issue.where << ": " << issue.message);
  check_same_ir(g0, g1);
  // And back: the original file, byte for byte as flatc sees it.
  auto f0 = write(g1, "embedded", opts({{"armnn.constantTensorsAsInputs", "0"}}));
  CHECK(flatc_json(f0) == flatc_json(*p));
}

TEST_CASE("armnn weightsLayoutScheme: depthwise weights convert both ways") {
  auto p = test::shared_sample("armnn/depthwise_batchnorm/model.armnn");
  NNBRIDGE_REQUIRE_SHARED(p);
  Graph g0 = read(*p);
  const Node& dw = g0.nodes[0];
  REQUIRE(dw.op == "Conv");
  CHECK(dw.attrs.at("kernel_layout") == Attr("1HWO"));
  CHECK(dw.attrs.at("group") == Attr(int64_t{3}));
  auto f1 = write(g0, "scheme1", opts({{"armnn.weightsLayoutScheme", "1"}}));
  Graph g1 = read(f1);
  check_same_ir(g0, g1);
  // In scheme 1 the file holds [1, H, W, I*M]: element (h, w, c) of the file equals element
  // (m = 0, i = c, h, w) of the original [M, I, H, W] = [1, 3, 3, 3] weights.
  const Value& w1 = g1.values[g1.nodes[0].inputs[1]];
  CHECK(w1.type.shape == std::vector<int64_t>{1, 3, 3, 3});
  auto orig = file_bytes(*p), conv = file_bytes(f1);
  auto weights = [](const std::vector<uint8_t>& b) {
    const auto* g = flatbuffers::GetRoot<armnnSerializer::SerializedGraph>(b.data());
    const auto* dw = g->layers()->Get(1)->layer_as_DepthwiseConvolution2dLayer();
    REQUIRE(dw);
    REQUIRE(dw->weights());
    const auto* d = dw->weights()->data_as_IntData()->data();
    return std::vector<int32_t>(d->begin(), d->end());
  };
  auto a = weights(orig), b = weights(conv);
  REQUIRE(a.size() == 27);
  REQUIRE(b.size() == 27);
  for (int c = 0; c < 3; ++c)
    for (int h = 0; h < 3; ++h)
      for (int w = 0; w < 3; ++w) CHECK(b[(h * 3 + w) * 3 + c] == a[(c * 3 + h) * 3 + w]);
  CHECK(flatc_json(write(g1, "scheme0", opts({{"armnn.weightsLayoutScheme", "0"}}))) == flatc_json(*p));
}

TEST_CASE("armnn writer: a new graph gets the identifier and schemes both Arm NN versions load") {
  Graph g;
  Value x;
  x.name = "x";
  x.type.dtype = DataType::Float32;
  x.type.shape = {1, 4};
  ValueId xi = g.add_value(x);
  Value y = x;
  y.name = "y";
  ValueId yi = g.add_value(y);
  Node relu;
  relu.op = "Relu";
  relu.name = "relu";
  relu.inputs = {xi};
  relu.outputs = {yi};
  g.add_node(relu);
  g.inputs = {xi};
  g.outputs = {yi};
  auto f = write(g, "new");
  auto bytes = file_bytes(f);
  CHECK(std::string(bytes.begin() + 4, bytes.begin() + 8) == "ARMN");
  std::string j = flatc_json(f);
  CHECK(j.find(R"("bindingIdsScheme": 1)") != std::string::npos);
  CHECK(j.find(R"("weightsLayoutScheme": 0)") != std::string::npos);
  CHECK(j.find(R"("constantTensorsAsInputs": 0)") != std::string::npos);
  CHECK(j.find(R"("activationFunction": "ReLu")") != std::string::npos);
  CHECK(j.find(R"("layerName": "y")") != std::string::npos);  // the Output layer takes the output's name
  Graph back = read(f);
  REQUIRE(back.nodes.size() == 2);
  CHECK(back.nodes[0].op == "Relu");
  CHECK(back.values[back.outputs[0]].name == "y");
  CHECK(back.values[back.inputs[0]].name == "x");
}

TEST_CASE("armnn writer: an op Arm NN cannot express is an error naming the node") {
  Graph g;
  Value x;
  x.name = "x";
  x.type.dtype = DataType::Float32;
  x.type.shape = {2};
  ValueId xi = g.add_value(x);
  x.name = "y";
  ValueId yi = g.add_value(x);
  Node n;
  n.op = "Einsum";
  n.name = "the_einsum";
  n.inputs = {xi};
  n.outputs = {yi};
  g.add_node(n);
  g.inputs = {xi};
  g.outputs = {yi};
  auto path = test::temp_dir() / "refused.armnn";
  try {
    write(g, "refused");
    FAIL("written");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::NoForm);
    CHECK(std::string(e.what()).find("the_einsum") != std::string::npos);
  }
  CHECK(!std::filesystem::exists(path));
  // A canonical op with attributes Arm NN cannot hold is refused too (ArgMax keeps the axis).
  g.nodes[0].op = "ArgMax";
  g.nodes[0].attrs["keepdims"] = Attr(int64_t{1});
  CHECK_THROWS_AS(write(g, "argmax"), Error);
}

TEST_CASE("armnn sniff: with and without the identifier") {
  auto handler = nnbridge::formats::armnn::format_handler();
  if (auto p = test::shared_sample("armnn/add_softmax/model.armnn")) {
    auto b = file_bytes(*p);  // Arm NN writes no identifier
    CHECK(handler.sniff(std::as_bytes(std::span<const uint8_t>(b))));
  }
  std::vector<uint8_t> junk(64, 0x5a);
  CHECK_FALSE(handler.sniff(std::as_bytes(std::span<const uint8_t>(junk))));
  std::vector<uint8_t> tagged = {8, 0, 0, 0, 'A', 'R', 'M', 'N'};
  CHECK(handler.sniff(std::as_bytes(std::span<const uint8_t>(tagged))));
  CHECK(handler.name == "armnn");
  CHECK(handler.extensions == std::vector<std::string>{"armnn"});
}

TEST_CASE("armnn constantTensorsAsInputs = 1 written by hand: weights from a Constant layer") {
  // x [1, 8] -> FullyConnected(weights from Constant "w" [8, 2]) -> out; written against the
  // released schema by hand, as current Arm NN lays it out.
  const char* json = R"({"layers": [
    {"layer_type": "InputLayer", "layer": {"base": {"base": {"index": 0, "layerName": "x", "layerType": "Input",
      "inputSlots": [], "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [1, 8], "dataType": "Float32"}}]},
      "layerBindingId": 0}}},
    {"layer_type": "ConstantLayer", "layer": {"base": {"index": 1, "layerName": "w", "layerType": "Constant",
      "inputSlots": [], "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [8, 2], "dataType": "Float32",
      "isConstant": true}}]},
      "input": {"info": {"dimensions": [8, 2], "dataType": "Float32", "isConstant": true}, "data_type": "IntData",
                "data": {"data": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]}}}},
    {"layer_type": "FullyConnectedLayer", "layer": {"base": {"index": 2, "layerName": "fc", "layerType": "FullyConnected",
      "inputSlots": [{"index": 0, "connection": {"sourceLayerIndex": 0, "outputSlotIndex": 0}},
                     {"index": 1, "connection": {"sourceLayerIndex": 1, "outputSlotIndex": 0}}],
      "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [1, 2], "dataType": "Float32"}}]},
      "descriptor": {"biasEnabled": false, "constantWeights": true}}},
    {"layer_type": "OutputLayer", "layer": {"base": {"base": {"index": 3, "layerName": "out", "layerType": "Output",
      "inputSlots": [{"index": 0, "connection": {"sourceLayerIndex": 2, "outputSlotIndex": 0}}], "outputSlots": []},
      "layerBindingId": 0}}}],
    "inputIds": [0], "outputIds": [0],
    "featureVersions": {"bindingIdsScheme": 1, "weightsLayoutScheme": 1, "constantTensorsAsInputs": 1}})";
  auto bin = flatc_binary(json, "fc_scheme1");
  REQUIRE(!bin.empty());
  Graph g = read(bin);
  const Node* fc = node_named(g, "fc");
  REQUIRE(fc);
  CHECK(fc->op == "Gemm");
  REQUIRE(fc->inputs.size() == 2);
  const Value& w = g.values[fc->inputs[1]];
  CHECK(w.name == "w");
  CHECK(w.is_constant());
  CHECK(w.type.shape == std::vector<int64_t>{8, 2});
  int32_t first = 0;
  std::memcpy(&first, w.constant->data(), 4);
  CHECK(first == 1);
  for (const auto& issue : check(g)) CHECK_MESSAGE(issue.severity != Issue::Severity::Error, issue.where << ": " << issue.message);
  CHECK(flatc_json(write(g, "fc_scheme1_again")) == flatc_json(bin));
  // Written with weights inside the layer, the Constant layer disappears into FullyConnected.weights.
  std::string j0 = flatc_json(write(g, "fc_scheme0", opts({{"armnn.constantTensorsAsInputs", "0"}})));
  CHECK(j0.find(R"("layer_type": "ConstantLayer")") == std::string::npos);
  CHECK(j0.find(R"("weights": {)") != std::string::npos);
}

namespace {
// The number flatc prints after `"key": ` in its JSON of a written file.
double json_number(const std::string& json, const std::string& key) {
  auto at = json.find("\"" + key + "\": ");
  REQUIRE(at != std::string::npos);
  return std::strtod(json.c_str() + at + key.size() + 4, nullptr);
}
}  // namespace

TEST_CASE("armnn L2Normalization eps: absent in the file is the schema's 1e-12, explicit on the node") {
  // ArmnnSchema.fbs: L2NormalizationDescriptor.eps:float = 1e-12. The field is float32.
  ZooCase c{"L2NormalizationLayer", R"("descriptor": {"dataLayout": "NHWC"})", 1, 1, "LpNormalization", {}};
  auto bin = flatc_binary(zoo_json(c), "l2norm_no_eps");
  REQUIRE(!bin.empty());
  Graph g = read(bin);
  const Node* n = nullptr;
  for (const auto& x : g.nodes)
    if (x.op == "LpNormalization") n = &x;
  REQUIRE(n);
  REQUIRE(n->attrs.count("epsilon"));
  CHECK(n->attrs.at("epsilon") == Attr(double(float(1e-12))));
  // Writing it back keeps 1e-12; a node without epsilon means the registry's default.
  CHECK(json_number(flatc_json(write(g, "l2norm_eps_back")), "eps") == doctest::Approx(1e-12).epsilon(1e-6));
  Graph g2 = g;
  for (auto& x : g2.nodes)
    if (x.op == "LpNormalization") x.attrs.erase("epsilon");
  const auto* spec = find_schema("LpNormalization")->find_attr("epsilon");
  REQUIRE(spec);
  REQUIRE(spec->default_value);
  CHECK(json_number(flatc_json(write(g2, "l2norm_eps_default")), "eps") == spec->default_value->get<double>());
}

TEST_CASE("armnn writer: absent attributes take the core registry's defaults") {
  // Activation TanH is ScaledTanh (a * tanh(b * x)); without beta the registry's default applies.
  ZooCase c{"ActivationLayer", R"("descriptor": {"activationFunction": "TanH", "a": 2.0, "b": 0.5})", 1, 1,
            "ScaledTanh", {}};
  auto bin = flatc_binary(zoo_json(c), "tanh_defaults");
  REQUIRE(!bin.empty());
  Graph g = read(bin);
  for (auto& x : g.nodes)
    if (x.op == "ScaledTanh") x.attrs.erase("beta");
  const auto* beta = find_schema("ScaledTanh")->find_attr("beta");
  REQUIRE(beta);
  REQUIRE(beta->default_value);
  std::string j = flatc_json(write(g, "tanh_defaults_out"));
  CHECK(json_number(j, "a") == 2.0);
  CHECK(json_number(j, "b") == beta->default_value->get<double>());
}
