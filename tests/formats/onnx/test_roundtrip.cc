// Read -> write losslessness: opset-17 models built by python3-onnx's onnx.helper
// (make_models.py) are read and written by nnbridge, and python3-onnx decodes the written file to
// the same ModelProto (MessageToDict, compare.py) that onnx.checker.check_model(full_check=True)
// accepts. The IR's JSON form in between loses nothing either.
#include <doctest/doctest.h>

#include <algorithm>

#include "nnbridge/io.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
namespace fs = std::filesystem;
namespace ox = nnbridge::test::onnx;

namespace {

std::vector<fs::path> lossless_models() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(ox::models() / "lossless")) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("onnx round-trip: every opset-17 model is written back field by field") {
  NNBRIDGE_REQUIRE_ONNX();
  const auto files = lossless_models();
  CHECK(files.size() >= 6);
  const fs::path out = test::temp_dir();
  for (const fs::path& f : files) {
    CAPTURE(f.filename().string());
    Graph g = load(f);
    CHECK(g.source_format == "onnx");
    const fs::path written = out / f.filename();
    save(g, written);
    CHECK(ox::same_model(f, written) == "");
  }
}

TEST_CASE("onnx round-trip: through the IR's JSON form too") {
  NNBRIDGE_REQUIRE_ONNX();
  const fs::path out = test::temp_dir();
  for (const fs::path& f : lossless_models()) {
    CAPTURE(f.filename().string());
    const fs::path json = out / (f.stem().string() + ".json");
    save(load(f), json);
    const fs::path written = out / f.filename();
    save(load(json), written);
    CHECK(ox::same_model(f, written) == "");
  }
}

TEST_CASE("onnx round-trip: operands that opset 13 made inputs stay inputs of the canonical ops") {
  NNBRIDGE_REQUIRE_ONNX();
  // operands.onnx (make_models.py): Squeeze(x, ax0 = [0]), Slice(.., st = [1], en = [3], sax = [2],
  // ssteps = [1]) with int32 indices, Pad(pads, pv = 0.5), Split(split = [1, 5]), Resize(scales
  // [1, 1, 2, 2]) on x [1, 2, 4, 4], Cast to DOUBLE, ConstantOfShape(value = int32 6).
  Graph g = load(ox::models() / "lossless/operands.onnx");
  auto node = [&](const std::string& op) -> const Node& {
    auto it = std::find_if(g.nodes.begin(), g.nodes.end(), [&](const Node& n) { return n.op == op; });
    REQUIRE(it != g.nodes.end());
    return *it;
  };
  auto names = [&](const Node& n) {
    std::vector<std::string> out;
    for (ValueId v : n.inputs) out.push_back(v == kNoValue ? "" : g.values[v].name);
    return out;
  };
  using Names = std::vector<std::string>;
  CHECK(names(node("Squeeze")) == Names{"x", "ax0"});
  CHECK(node("Squeeze").attrs.count("axes") == 0);
  CHECK(names(node("Slice")) == Names{"us", "st", "en", "sax", "ssteps"});
  CHECK(names(node("Pad")) == Names{"sl", "pads", "pv"});
  CHECK(names(node("Split")) == Names{"rs", "split"});
  CHECK(node("Cast").attrs.at("to").get<std::string>() == "float64");
  CHECK(node("ConstantOfShape").attrs.at("value").get<double>() == 6.0);
  CHECK(g.values[node("ConstantOfShape").outputs[0]].type.dtype == DataType::Int32);
  // Resize: roi left out, scales an input; ONNX's defaults set and named.
  const Node* resize = nullptr;
  for (const Node& n : g.nodes)
    if (n.op == "Resize" && n.attrs.count("onnx.implied")) resize = &n;
  REQUIRE(resize);
  CHECK(names(*resize) == Names{"x", "", "scales"});
  CHECK(resize->attrs.at("coordinate_transformation_mode").get<std::string>() == "half_pixel");
  CHECK(resize->attrs.at("nearest_mode").get<std::string>() == "round_prefer_floor");
}

TEST_CASE("onnx round-trip: an initializer listed in graph.input is the constant, not an input") {
  NNBRIDGE_REQUIRE_ONNX();
  Graph g = load(ox::models() / "lossless/initializer_input.onnx");
  REQUIRE(g.inputs.size() == 1);
  CHECK(g.values[g.inputs[0]].name == "x");
  auto bias = g.find_value("bias");
  REQUIRE(bias);
  CHECK(g.values[*bias].is_constant());
  CHECK(g.values[*bias].attrs.at("onnx.input_index").get<int64_t>() == 1);
}

TEST_CASE("onnx round-trip: ops without a canonical form stay native, in their domain (variadic Max and Mean are canonical)") {
  NNBRIDGE_REQUIRE_ONNX();
  Graph g = load(ox::models() / "lossless/native.onnx");
  REQUIRE(g.nodes.size() == 3);
  CHECK(g.nodes[0].op == "onnx.Scale");
  CHECK(g.nodes[0].attrs.at("onnx.domain").get<std::string>() == "org.nnbridge.custom");
  CHECK(g.nodes[0].attrs.at("onnx.tensor_attr.table").is<Bytes>());
  CHECK(g.nodes[1].op == "Max");  // three inputs: Max-13 is variadic, as the canonical Max
  CHECK(g.nodes[1].inputs.size() == 3);
  CHECK(g.nodes[2].op == "Mean");
}
