// Fields current Arm NN added to old tables: InputSlot.isOverridden/overriddenTensorInfo and
// ViewsDescriptor.hasAxis/axis (upstream src/armnnSerializer/ArmnnSchema.fbs).
//
// Oracle: flatc compiles the hand-written JSON and decodes what nnbridge writes back (a
// round-trip is "the same under flatc --json"); computed values are hand sums of the inputs.
#include <doctest/doctest.h>

#include <cstring>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "nnbridge/io.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

std::string input_layer(int index, const std::string& name, const std::string& dims) {
  return R"({"layer_type": "InputLayer", "layer": {"base": {"base": {"index": )" + std::to_string(index) +
         R"(, "layerName": ")" + name + R"(", "layerType": "Input", "inputSlots": [], "outputSlots": [{"index": 0,
     "tensorInfo": {"dimensions": )" + dims + R"(, "dataType": 1}}]}, "layerBindingId": )" + std::to_string(index) + "}}}";
}
std::string output_layer(int index, int binding, const std::string& name, int from, int slot) {
  return R"({"layer_type": "OutputLayer", "layer": {"base": {"base": {"index": )" + std::to_string(index) +
         R"(, "layerName": ")" + name + R"(", "layerType": "Output", "inputSlots": [{"index": 0, "connection":
     {"sourceLayerIndex": )" + std::to_string(from) + R"(, "outputSlotIndex": )" + std::to_string(slot) +
         R"(}}], "outputSlots": []}, "layerBindingId": )" + std::to_string(binding) + "}}}";
}
std::string graph(const std::string& layers, const std::string& in_ids, const std::string& out_ids) {
  return R"({"layers": [)" + layers + R"(], "inputIds": )" + in_ids + R"(, "outputIds": )" + out_ids +
         R"(, "featureVersions": {"bindingIdsScheme": 1}})";
}

// a [2, 2] + b [4], slot 1 overridden as [2, 2] (`override_type`: its dataType; -1: no TensorInfo).
std::string add_with_override(int override_type) {
  std::string info = override_type < 0 ? "" : R"(, "overriddenTensorInfo": {"dimensions": [2, 2], "dataType": )" +
                                                  std::to_string(override_type) + "}";
  std::string add = R"({"layer_type": "AdditionLayer", "layer": {"base": {"index": 2, "layerName": "add",
    "layerType": "Addition", "inputSlots": [
      {"index": 0, "connection": {"sourceLayerIndex": 0, "outputSlotIndex": 0}},
      {"index": 1, "connection": {"sourceLayerIndex": 1, "outputSlotIndex": 0}, "isOverridden": true)" +
                    info + R"(}],
    "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [2, 2], "dataType": 1}}]}}})";
  return graph(input_layer(0, "a", "[2, 2]") + ",\n" + input_layer(1, "b", "[4]") + ",\n" + add + ",\n" +
                   output_layer(3, 0, "y", 2, 0),
               "[0, 1]", "[0]");
}

std::vector<double> run(const Graph& g, const TensorMap& feed, const std::string& out) {
  cpu_ref::register_backend();
  return find_backend("cpu")->prepare(g, {})->run(feed).at(out).to_double();
}

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }
HostTensor tensor(std::vector<int64_t> shape, std::vector<float> v) {
  return HostTensor::from_values<float>(f32(std::move(shape)), v);
}

// a Splitter of x [2, 4] into two [2, 2] views along dimension 1, with hasAxis/axis.
std::string splitter(const std::string& axis_fields) {
  std::string sp = R"({"layer_type": "SplitterLayer", "layer": {"base": {"index": 1, "layerName": "split",
    "layerType": "Splitter", "inputSlots": [{"index": 0, "connection": {"sourceLayerIndex": 0, "outputSlotIndex": 0}}],
    "outputSlots": [{"index": 0, "tensorInfo": {"dimensions": [2, 2], "dataType": 1}},
                    {"index": 1, "tensorInfo": {"dimensions": [2, 2], "dataType": 1}}]},
    "descriptor": {"origins": {"concatAxis": 0, "numViews": 2, "numDimensions": 2,
                               "viewOrigins": [{"data": [0, 0]}, {"data": [0, 2]}]},
                   "viewSizes": [{"data": [2, 2]}, {"data": [2, 2]}])" +
                   axis_fields + "}}}";
  return graph(input_layer(0, "x", "[2, 4]") + ",\n" + sp + ",\n" + output_layer(2, 0, "y0", 1, 0) + ",\n" +
                   output_layer(3, 1, "y1", 1, 1),
               "[0]", "[0, 1]");
}

}  // namespace

TEST_CASE("armnn InputSlot override: the slot's type is the overridden one, computes and round-trips") {
  auto bin = flatc_binary(add_with_override(1), "override");
  REQUIRE(!bin.empty());
  Graph g = load(bin);
  const Node* ov = node_named(g, "add:inputSlots[1]");
  REQUIRE(ov);
  CHECK(ov->op == "Reshape");
  CHECK(ov->attrs.at("shape") == Attr(std::vector<int64_t>{2, 2}));
  CHECK(g.values[ov->outputs[0]].type == f32({2, 2}));
  // [[1, 2], [3, 4]] + [10, 20, 30, 40] seen as [[10, 20], [30, 40]].
  auto y = run(g, {{"a", tensor({2, 2}, {1, 2, 3, 4})}, {"b", tensor({4}, {10, 20, 30, 40})}}, "y");
  CHECK(y == std::vector<double>{11, 22, 33, 44});
  auto out = write(g, "override_back");
  const std::string a = flatc_json(bin), b = flatc_json(out);
  REQUIRE(!a.empty());
  CHECK(a == b);
  CHECK(b.find(R"("isOverridden": true)") != std::string::npos);
}

TEST_CASE("armnn InputSlot override of the element type reads as armnn.InputSlotOverride and round-trips") {
  auto bin = flatc_binary(add_with_override(3), "override_type");  // Signed32 over Float32 bytes
  REQUIRE(!bin.empty());
  Graph g = load(bin);
  const Node* ov = node_named(g, "add:inputSlots[1]");
  REQUIRE(ov);
  CHECK(ov->op == "armnn.InputSlotOverride");
  CHECK(g.values[ov->outputs[0]].type.dtype == DataType::Int32);
  CHECK(flatc_json(write(g, "override_type_back")) == flatc_json(bin));
}

TEST_CASE("armnn InputSlot override without a TensorInfo is Error(Malformed) naming the slot") {
  auto bin = flatc_binary(add_with_override(-1), "override_missing");
  REQUIRE(!bin.empty());
  try {
    load(bin);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::MalformedOther);  // a table the flag requires is absent
    CHECK(e.where() == "layers[2].layer.base.inputSlots[1].overriddenTensorInfo");
  }
}

TEST_CASE("armnn Splitter hasAxis/axis: splits on the axis, round-trips, and a disagreeing axis stays native") {
  auto bin = flatc_binary(splitter(R"(, "hasAxis": true, "axis": -1)"), "split_axis");
  REQUIRE(!bin.empty());
  Graph g = load(bin);
  const Node* sp = node_named(g, "split");
  REQUIRE(sp);
  CHECK(sp->op == "Split");
  CHECK(sp->attrs.at("axis") == Attr(int64_t(1)));
  REQUIRE(sp->inputs.size() == 2);  // Split-13: the view sizes are the split input
  std::vector<int64_t> split(2);
  REQUIRE(g.values[sp->inputs[1]].constant);
  std::memcpy(split.data(), g.values[sp->inputs[1]].constant->data(), 16);
  CHECK(split == std::vector<int64_t>{2, 2});
  auto x = tensor({2, 4}, {0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(run(g, {{"x", x}}, "y1") == std::vector<double>{2, 3, 6, 7});
  const std::string back = flatc_json(write(g, "split_axis_back"));
  CHECK(back == flatc_json(bin));
  CHECK(back.find(R"("hasAxis": true)") != std::string::npos);
  CHECK(back.find(R"("axis": -1)") != std::string::npos);
  // Views cut dimension 1; an axis of 0 contradicts them: the layer keeps its own fields.
  auto odd = flatc_binary(splitter(R"(, "hasAxis": true, "axis": 0)"), "split_odd");
  Graph g2 = load(odd);
  CHECK(node_named(g2, "split")->op == "armnn.Splitter");
  CHECK(flatc_json(write(g2, "split_odd_back")) == flatc_json(odd));
}
