// nnbridge/draw.h: pictures of graphs rendered by Graphviz. The judges are independent of
// nnbridge's reading: hand-made graphs whose structure the test states, and flatc's JSON of the
// bundled Arm NN and AFCM files (layers, connections, tensor infos, layer types) for the number
// of boxes and edges in the SVG, their shape labels and the --native layer names.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "nnbridge/draw.h"
#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "support/error_id.h"
#include "support/flatc.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++n;
  return n;
}

/// The text of every <text> element of an SVG, with Graphviz's character references undone.
std::vector<std::string> svg_texts(const std::string& svg) {
  std::vector<std::string> out;
  for (std::size_t p = svg.find("<text"); p != std::string::npos; p = svg.find("<text", p + 5)) {
    const std::size_t start = svg.find('>', p) + 1, end = svg.find("</text>", start);
    std::string t = svg.substr(start, end - start), u;
    for (std::size_t i = 0; i < t.size(); ++i) {
      if (t[i] == '&') {
        const std::size_t semi = t.find(';', i);
        const std::string ent = t.substr(i + 1, semi - i - 1);
        if (ent == "amp") u += '&';
        else if (ent == "lt") u += '<';
        else if (ent == "gt") u += '>';
        else if (ent == "quot") u += '"';
        else if (ent == "#160") u += ' ';
        else if (ent[0] == '#') u += static_cast<char>(std::stoi(ent.substr(1)));
        i = semi;
      } else {
        u += t[i];
      }
    }
    out.push_back(u);
  }
  return out;
}

bool has_text(const std::vector<std::string>& texts, const std::string& s) {
  return std::find(texts.begin(), texts.end(), s) != texts.end();
}
bool has_text_starting(const std::vector<std::string>& texts, const std::string& prefix) {
  return std::any_of(texts.begin(), texts.end(), [&](const std::string& t) { return t.rfind(prefix, 0) == 0; });
}

Buffer floats(std::vector<float> v) {
  std::vector<std::byte> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return Buffer::owned(std::move(b));
}

/// x [1, 3, 8, 8] -> Conv "conv1" (W "conv.weight" [4, 3, 3, 3], B "conv1.bias" [4] = 0.5 -1 2 0,
/// 3x3, pads 1) -> Relu -> y [1, 4, 8, 8].
Graph conv_relu() {
  Graph g;
  auto f32 = [](std::vector<int64_t> s) { return TensorType{DataType::Float32, std::move(s)}; };
  ValueId x = g.add_value({"x", f32({1, 3, 8, 8})});
  ValueId w = g.add_value({"conv.weight", f32({4, 3, 3, 3}), floats(std::vector<float>(108, 0.25f))});
  ValueId b = g.add_value({"conv1.bias", f32({4}), floats({0.5f, -1.f, 2.f, 0.f})});
  ValueId h = g.add_value({"h", f32({1, 4, 8, 8})});
  ValueId y = g.add_value({"y", f32({1, 4, 8, 8})});
  g.add_node({"Conv", "conv1", {x, w, b}, {h}, {{"kernel_shape", std::vector<int64_t>{3, 3}}, {"pads", std::vector<int64_t>{1, 1, 1, 1}}}});
  g.add_node({"Relu", "relu1", {h}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y};
  return g;
}

}  // namespace

TEST_CASE("draw: a hand-made Conv and Relu graph: two nodes and one input as boxes") {
  const Graph g = conv_relu();
  CHECK(drawn_node_count(g) == 3);
  const std::string svg = render_bytes(g, "svg");
  CHECK(svg.find("<svg") != std::string::npos);
  CHECK(count_of(svg, "class=\"node\"") == 3);
  CHECK(count_of(svg, "class=\"edge\"") == 2);  // x -> Conv, Conv -> Relu; the constants are notes
  const auto texts = svg_texts(svg);
  CHECK(has_text(texts, "Conv"));
  CHECK(has_text(texts, "Relu"));
  CHECK(has_text(texts, "conv1"));
  CHECK(has_text(texts, "kernel_shape=[3, 3]"));
  CHECK(has_text(texts, "pads=[1, 1, 1, 1]"));
  CHECK(has_text(texts, "conv.weight float32 [4, 3, 3, 3]"));  // 108 elements: the type only; not named after conv1
  CHECK(has_text(texts, "bias float32 [4] = [0.5, -1, 2, 0]"));  // "conv1.bias" read by conv1
  CHECK(has_text(texts, "float32 [1, 3, 8, 8]"));  // the edge x -> Conv
  CHECK(has_text(texts, "float32 [1, 4, 8, 8]"));  // the edge Conv -> Relu
  CHECK(has_text_starting(texts, " y  float32 [1, 4, 8, 8]"));  // the graph output, on Relu
}

TEST_CASE("draw: to_dot is DOT text with rankdir and HTML labels") {
  const Graph g = conv_relu();
  DrawOptions o;
  o.rankdir = "LR";
  const std::string dot = to_dot(g, o);
  CHECK(dot.rfind("digraph", 0) == 0);
  CHECK(dot.find("rankdir=LR") != std::string::npos);
  CHECK(dot.find("<B>Conv</B>") != std::string::npos);
  o.rankdir = "XY";
  CHECK_THROWS_WITH_AS(to_dot(g, o), doctest::Contains("rankdir \"XY\""), Error);
  CHECK(test::thrown_id([&] { to_dot(g, o); }) == ErrorId::OptionValue);
  CHECK(test::thrown_id([&] { render_bytes(g, "jpeg"); }) == ErrorId::UnknownFormat);
  CHECK(test::thrown_id([&] { render(g, "picture.jpeg"); }) == ErrorId::UnknownFormat);
}

TEST_CASE("draw: nodes sharing a name scope are boxed in nested clusters") {
  // TensorFlow-style names: enc holds 4 nodes, enc/block1 2 of them; enc/block2 and the unscoped
  // "head" hold one each, which is no box. So: 2 clusters, 1 at one level, none at 0.
  Graph g;
  const auto f32 = [](std::vector<int64_t> s) { return TensorType{DataType::Float32, std::move(s)}; };
  ValueId prev = g.add_value({"x", f32({1, 4})});
  g.inputs = {prev};
  for (const char* name : {"enc/block1/conv", "enc/block1/relu", "enc/block2/conv", "enc/out", "head"}) {
    const ValueId out = g.add_value({std::string(name) + ":0", f32({1, 4})});
    g.add_node({"Relu", name, {prev}, {out}, {}});
    prev = out;
  }
  g.outputs = {prev};
  const std::string dot = to_dot(g);
  CHECK(count_of(dot, "subgraph cluster_") == 2);
  CHECK(dot.find("label=<enc>") != std::string::npos);
  CHECK(dot.find("label=<block1>") != std::string::npos);
  CHECK(dot.find("label=<block2>") == std::string::npos);
  // block1 nests inside enc, and holds nodes 0 and 1.
  const std::size_t enc = dot.find("subgraph cluster_0"), block1 = dot.find("subgraph cluster_1");
  REQUIRE(enc != std::string::npos);
  REQUIRE(block1 != std::string::npos);
  CHECK(enc < block1);
  const std::string inner = dot.substr(block1, dot.find('}', block1) - block1);
  CHECK(inner.find("node0") != std::string::npos);
  CHECK(inner.find("node1") != std::string::npos);
  CHECK(inner.find("node2") == std::string::npos);
  const std::string svg = render_bytes(g, "svg");
  CHECK(count_of(svg, "class=\"cluster\"") == 2);
  CHECK(count_of(svg, "class=\"node\"") == 6);
  const auto texts = svg_texts(svg);
  CHECK(has_text(texts, "enc"));
  CHECK(has_text(texts, "block1"));
  DrawOptions o;
  o.scopes = 1;
  CHECK(count_of(to_dot(g, o), "subgraph cluster_") == 1);
  o.scopes = 0;
  CHECK(to_dot(g, o).find("subgraph") == std::string::npos);
  o.scopes = -2;
  CHECK_THROWS_WITH_AS(to_dot(g, o), doctest::Contains("scopes = -2"), Error);
  CHECK(test::thrown_id([&] { to_dot(g, o); }) == ErrorId::OptionValue);
}

TEST_CASE("draw: edges of values the file leaves untyped carry the inferred type") {
  // As PyTorch's exports: only the graph input and output are typed. Relu keeps its input's
  // type and Transpose perm [1, 0] swaps the dims (ONNX Relu-14, Transpose-13), so the inner
  // edges are float32 [2, 3] and float32 [3, 2].
  Graph g;
  const ValueId x = g.add_value({"x", TensorType{DataType::Float32, {2, 3}}});
  const TensorType unknown{DataType::Undefined, {}, true};  // nothing known, not even the rank
  const ValueId r = g.add_value({"r", unknown});
  const ValueId t = g.add_value({"t", unknown});
  const ValueId y = g.add_value({"y", TensorType{DataType::Float32, {3, 2}}});
  g.inputs = {x};
  g.add_node({"Relu", "relu", {x}, {r}, {}});
  g.add_node({"Transpose", "transpose", {r}, {t}, {{"perm", std::vector<int64_t>{1, 0}}}});
  g.add_node({"Relu", "relu2", {t}, {y}, {}});
  g.outputs = {y};
  const std::string dot = to_dot(g);
  CHECK(dot.find("label=\"float32 [2, 3]\"") != std::string::npos);
  CHECK(dot.find("label=\"float32 [3, 2]\"") != std::string::npos);
  CHECK(dot.find("label=\"?") == std::string::npos);
  CHECK(g.values[r].type == unknown);  // the caller's graph is not changed
}

TEST_CASE("draw: the DOT text is the same on every call, clusters in the order of their first node") {
  // Graphviz's default ID discipline orders subgraphs by the address of their name string, so the
  // cluster order changed from call to call; 40 scopes of 2 nodes each, drawn 20 times.
  Graph g;
  const auto f32 = [](std::vector<int64_t> s) { return TensorType{DataType::Float32, std::move(s)}; };
  ValueId prev = g.add_value({"x", f32({1, 4})});
  g.inputs = {prev};
  for (int k = 0; k < 40; ++k)
    for (const char* leaf : {"a", "b"}) {
      const std::string name = "s" + std::to_string(k) + "/" + leaf;
      const ValueId out = g.add_value({name + ":0", f32({1, 4})});
      g.add_node({"Relu", name, {prev}, {out}, {}});
      prev = out;
    }
  g.outputs = {prev};
  const std::string first = to_dot(g);
  REQUIRE(count_of(first, "subgraph cluster_") == 40);
  std::size_t at = 0;
  for (int k = 0; k < 40; ++k) {  // cluster_k holds nodes 2k and 2k+1 and comes k-th
    const std::size_t here = first.find("subgraph cluster_" + std::to_string(k) + " ");
    REQUIRE(here != std::string::npos);
    CHECK(here >= at);
    at = here;
    const std::string body = first.substr(here, first.find('}', here) - here);
    CHECK(body.find("label=<s" + std::to_string(k) + ">") != std::string::npos);
    CHECK(body.find("node" + std::to_string(2 * k) + "\t[") != std::string::npos);
    CHECK(body.find("node" + std::to_string(2 * k + 1) + "\t[") != std::string::npos);
  }
  for (int i = 0; i < 20; ++i) {
    std::vector<std::string> noise(static_cast<std::size_t>(i) * 7, std::string(40, 'x'));  // other heap states
    CHECK(to_dot(g) == first);
  }
}

TEST_CASE("draw: PNG and PDF come out as such files") {
  const Graph g = conv_relu();
  const std::string png = render_bytes(g, "png");
  REQUIRE(png.size() > 8);
  CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  const std::string pdf = render_bytes(g, "pdf");
  CHECK(pdf.rfind("%PDF-", 0) == 0);
  CHECK_THROWS_WITH_AS(render_bytes(g, "bmp"), doctest::Contains("svg, png, pdf, dot"), Error);
}

TEST_CASE("draw: max_nodes refuses a larger graph and 0 lifts the limit") {
  Graph g;
  ValueId prev = g.add_value({"x", {DataType::Float32, {4}}});
  g.inputs = {prev};
  for (int i = 0; i < 30; ++i) {
    ValueId next = g.add_value({"t" + std::to_string(i), {DataType::Float32, {4}}});
    g.add_node({"Relu", "", {prev}, {next}, {}});
    prev = next;
  }
  DrawOptions o;
  o.max_nodes = 30;
  try {
    to_dot(g, o);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Unsupported);
    CHECK(std::string(e.what()).find("31 boxes") != std::string::npos);
    CHECK(std::string(e.what()).find("max_nodes = 30") != std::string::npos);
  }
  o.max_nodes = 0;
  CHECK_NOTHROW(to_dot(g, o));
  o.max_nodes = 31;
  CHECK_NOTHROW(to_dot(g, o));
}

TEST_CASE("draw: render writes atomically and names the file on failure") {
  const Graph g = conv_relu();
  const fs::path dir = test::temp_dir();
  render(g, dir / "m.svg");
  CHECK(read_file(dir / "m.svg").find("</svg>") != std::string::npos);
  render(g, dir / "m.DOT");  // the extension in any case
  CHECK(read_file(dir / "m.DOT").rfind("digraph", 0) == 0);
  CHECK_THROWS_WITH_AS(render(g, dir / "m.jpg"), doctest::Contains("m.jpg"), Error);
  CHECK_FALSE(fs::exists(dir / "m.jpg"));
  try {
    render(g, dir / "missing" / "m.svg");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Io);
    CHECK(std::string(e.what()).find("m.svg") != std::string::npos);
  }
  CHECK_FALSE(fs::exists(dir / "missing"));
  // A graph over max_nodes leaves an existing picture as it was.
  const std::string before = read_file(dir / "m.svg");
  DrawOptions o;
  o.max_nodes = 1;
  CHECK_THROWS_AS(render(g, dir / "m.svg", o), Error);
  CHECK(read_file(dir / "m.svg") == before);
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 2);  // no temporaries left
}

TEST_CASE("draw: names that are not UTF-8 or hold markup render as text") {
  Graph g;
  ValueId x = g.add_value({"<b>in\xff\x01", {DataType::Float32, {2}}});
  ValueId y = g.add_value({"out&\"", {DataType::Float32, {2}}});
  g.add_node({"Relu", "</TD>", {x}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y};
  const auto texts = svg_texts(render_bytes(g, "svg"));
  CHECK(has_text(texts, "<b>in??"));
  CHECK(has_text(texts, "</TD>"));
  CHECK(has_text_starting(texts, " out&\""));
}

TEST_CASE("draw: a value id outside the graph is an error naming the place") {
  Graph g = conv_relu();
  g.nodes[1].inputs[0] = 99;
  CHECK_THROWS_WITH_AS(to_dot(g), doctest::Contains("nodes[1].inputs[0]"), Error);
}

TEST_CASE("draw: a 473-node graph with large constants and long lists stays compact") {
  // The shape of an SSD-style network: a chain of convolutions with big weights, long names and
  // long attribute lists; every label line stays short and no constant data is dumped.
  Graph g;
  const auto f32 = [](std::vector<int64_t> s) { return TensorType{DataType::Float32, std::move(s)}; };
  ValueId prev = g.add_value({"image", f32({1, 300, 300, 3})});
  g.inputs = {prev};
  const Buffer big = floats(std::vector<float>(4096, 1.f));
  for (int i = 0; i < 473; ++i) {
    const std::string scope = "FeatureExtractor/MobilenetV1/MobilenetV1/Conv2d_" + std::to_string(i) + "_pointwise";
    ValueId w = g.add_value({scope + "/weights", f32({64, 1, 1, 64}), big});
    ValueId out = g.add_value({scope + "/Relu6", f32({1, 19, 19, 64})});
    g.add_node({"Conv", scope + "/Conv2D", {prev, w}, {out},
                {{"kernel_shape", std::vector<int64_t>{1, 1}}, {"anchors", std::vector<double>(1000, 0.5)},
                 {"armnn.descriptor.padTop", int64_t{0}}}});
    prev = out;
  }
  g.outputs = {prev};
  const std::string dot = to_dot(g);
  std::istringstream lines(dot);
  std::size_t longest = 0;
  for (std::string l; std::getline(lines, l);) longest = std::max(longest, l.size());
  CHECK(dot.find("armnn.descriptor") == std::string::npos);  // format fields are not drawn
  CHECK(dot.find("(1000)") != std::string::npos);           // the long list by its ends and length
  CHECK(dot.size() < 473 * 1000);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string svg = render_bytes(g, "svg");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  MESSAGE("473-node chain: DOT " << dot.size() << " bytes, longest line " << longest << ", SVG " << svg.size()
                                 << " bytes in " << seconds << " s");
  CHECK(count_of(svg, "class=\"node\"") == 474);
  CHECK(count_of(svg, "class=\"edge\"") == 473);
  for (const std::string& t : svg_texts(svg)) CHECK(t.size() <= 80);
}

// ---------------------------------------------------------------------------------------------
// The bundled files, judged by flatc's JSON of them.

namespace {

std::vector<fs::path> armnn_files() {
  std::vector<fs::path> out;
  std::error_code ec;
  const fs::path src = test::source_dir();
  for (const char* dir : {"tests/golden/armnn", "tests/golden/armnn_post2008", "tests/golden/armnn_wild"})
    for (const auto& e : fs::directory_iterator(src / dir, ec))
      if (fs::exists(e.path() / "model.armnn")) out.push_back(e.path() / "model.armnn");
  for (const auto& e : fs::directory_iterator(src / "examples" / "models", ec))
    if (e.path().extension() == ".armnn") out.push_back(e.path());
  if (auto root = test::shared_sample("armnn"))
    for (const auto& e : fs::directory_iterator(*root, ec))
      if (fs::exists(e.path() / "model.armnn")) out.push_back(e.path() / "model.armnn");
  std::sort(out.begin(), out.end());
  return out;
}

const nlohmann::json& base_of(const nlohmann::json& layer) {
  const nlohmann::json& b = layer.at("base");
  return b.contains("base") ? b.at("base") : b;  // Input / Output: BindableLayerBase
}

/// flatc's DataType enum names -> nnbridge's dtype names.
std::string dtype_name(const std::string& armnn) {
  static const std::map<std::string, std::string> names = {
      {"Float16", "float16"},   {"Float32", "float32"},   {"QuantisedAsymm8", "qasymmu8"}, {"QAsymmU8", "qasymmu8"},
      {"Signed32", "int32"},    {"Boolean", "bool"},      {"QuantisedSymm16", "qsymms16"}, {"QSymmS16", "qsymms16"},
      {"QAsymmS8", "qasymms8"}, {"QSymmS8", "qsymms8"},   {"BFloat16", "bfloat16"},        {"Signed64", "int64"}};
  auto it = names.find(armnn);
  return it == names.end() ? "" : it->second;
}

/// What flatc's JSON of an Arm NN file says a drawing holds.
struct Expected {
  std::size_t boxes = 0, edges = 0;
  std::set<std::string> layer_types;  // of the layers drawn as nodes, without "Layer"
  std::set<std::string> edge_labels;  // "float32 [1, 8]" of each connection's source slot
  bool overrides = false;             // an input slot with isOverridden (a node of its own)
};

Expected expected_from_flatc(const nlohmann::json& j) {
  Expected e;
  std::map<int64_t, std::pair<std::string, const nlohmann::json*>> by_index;  // LayerBase.index -> type, base
  for (const auto& l : j.at("layers")) {
    const std::string type = l.at("layer_type").get<std::string>();
    by_index[base_of(l.at("layer")).value("index", int64_t{0})] = {type, &base_of(l.at("layer"))};
  }
  for (const auto& l : j.at("layers")) {
    const std::string type = l.at("layer_type").get<std::string>();
    if (type == "ConstantLayer") continue;
    ++e.boxes;
    if (type == "InputLayer") continue;
    e.layer_types.insert(type.substr(0, type.size() - 5));
    for (const auto& slot : base_of(l.at("layer")).value("inputSlots", nlohmann::json::array())) {
      const auto& conn = slot.at("connection");
      const auto& [src_type, src_base] = by_index.at(conn.value("sourceLayerIndex", int64_t{0}));
      if (src_type == "ConstantLayer") continue;
      ++e.edges;
      if (slot.value("isOverridden", false)) e.overrides = true;
      const auto& info = src_base->at("outputSlots").at(conn.value("outputSlotIndex", std::size_t{0})).at("tensorInfo");
      if (info.value("dimensionality", 1) != 1) continue;  // scalar or unknown-rank tensors: another spelling
      std::string label = dtype_name(info.value("dataType", std::string("Float32"))) + " [";
      const auto dims = info.value("dimensions", std::vector<int64_t>{});
      for (std::size_t k = 0; k < dims.size(); ++k) label += (k ? ", " : "") + std::to_string(dims[k]);
      e.edge_labels.insert(label + "]");
    }
  }
  return e;
}

}  // namespace

TEST_CASE("draw: every bundled Arm NN file has one box per non-Constant layer and one edge per connection") {
  const fs::path schema = test::source_dir() / "schemas" / "armnn" / "ArmnnSchema.fbs";
  const auto files = armnn_files();
  REQUIRE(files.size() > 100);
  std::size_t checked = 0;
  for (const fs::path& file : files) {
    CAPTURE(file);
    const std::string json = test::flatc_json(file, schema);
    REQUIRE_FALSE(json.empty());
    const Expected e = expected_from_flatc(nlohmann::json::parse(json));
    const Graph g = load(file);
    DrawOptions native;
    native.native = true;
    const std::string svg = render_bytes(g, "svg", native);
    const auto texts = svg_texts(svg);
    for (const std::string& t : e.layer_types) {
      CAPTURE(t);
      CHECK(has_text(texts, t));  // the bold title of --native
    }
    if (e.overrides) continue;  // an overridden input slot is a node and an edge more
    CHECK(count_of(svg, "class=\"node\"") == e.boxes);
    CHECK(count_of(svg, "class=\"edge\"") == e.edges);
    for (const std::string& label : e.edge_labels) {
      CAPTURE(label);
      CHECK(has_text_starting(texts, label));
    }
    ++checked;
  }
  MESSAGE(checked << " of " << files.size() << " Arm NN files checked box for box");
  CHECK(checked > 100);
}

TEST_CASE("draw: conv_relu_fc.armnn shows its canonical ops and their attributes") {
  // examples/models/README.md: image [1,8,8,1] NHWC -> Convolution2d 3x3x4 (pad 1, bias) -> ReLU
  // -> MaxPool 2x2 -> FullyConnected 64->10 -> Softmax -> probs.
  const Graph g = load(test::source_dir() / "examples" / "models" / "conv_relu_fc.armnn");
  const auto texts = svg_texts(render_bytes(g, "svg"));
  for (const std::string op : {"Conv", "Relu", "MaxPool", "Softmax"}) {
    CAPTURE(op);
    CHECK(has_text(texts, op));
  }
  CHECK(has_text(texts, "image"));
  CHECK(has_text(texts, "float32 [1, 8, 8, 1]"));
  CHECK(has_text(texts, "kernel_shape=[3, 3]"));
  CHECK(has_text(texts, "pads=[1, 1, 1, 1]"));
  CHECK(has_text(texts, "data_layout=NHWC"));
  CHECK(has_text_starting(texts, "probs"));
}

TEST_CASE("draw: AFCM programs and their global objects, judged by flatc") {
  const fs::path schema = test::source_dir() / "schemas" / "afcm" / "compiled_model.fbs";
  std::error_code ec;
  std::size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(test::source_dir() / "tests" / "golden" / "afcm", ec)) {
    const fs::path file = entry.path() / "model.flow";
    if (!fs::exists(file)) continue;
    CAPTURE(file);
    const nlohmann::json j = nlohmann::json::parse(test::flatc_json(file, schema));
    std::size_t programs = 0, refs = 0;
    std::set<int64_t> ids;
    std::set<std::string> shader_lines;
    for (const auto& p : j.value("programs", nlohmann::json::array())) {
      ++programs;
      shader_lines.insert("shader_index=" + std::to_string(p.value("shader_index", int64_t{0})));
      for (const auto& o : p.value("objects", nlohmann::json::array()))
        if (o.value("object_type", std::string()) == "ObjectRef") {
          ++refs;
          ids.insert(o.at("object").value("global_id", int64_t{0}));
        }
    }
    DrawOptions native;
    native.native = true;
    const std::string svg = render_bytes(load(file), "svg", native);
    CHECK(count_of(svg, "class=\"node\"") == programs + ids.size());
    CHECK(count_of(svg, "class=\"edge\"") == refs);
    const auto texts = svg_texts(svg);
    if (programs) CHECK(has_text(texts, "Program"));
    for (const std::string& line : shader_lines) {
      CAPTURE(line);
      CHECK(has_text(texts, line));
    }
    ++checked;
  }
  CHECK(checked >= 5);
}

TEST_CASE("draw: the VkGraph delegate sample names its operator natively") {
  auto file = test::shared_sample("vkgraph/add_example_delegate.bin");
  NNBRIDGE_REQUIRE_SHARED(file);
  // add_example.json (the sample's flatc JSON): chain [aten.add.Tensor], input 0, a constant
  // operand of 2x3 float32, output 3.
  const Graph g = load(*file);
  DrawOptions native;
  native.native = true;
  const std::string svg = render_bytes(g, "svg", native);
  CHECK(count_of(svg, "class=\"node\"") == 2);
  CHECK(count_of(svg, "class=\"edge\"") == 1);
  const auto texts = svg_texts(svg);
  CHECK(has_text(texts, "aten.add.Tensor"));
  CHECK(has_text(texts, "(Add)"));
  CHECK(has_text(texts, "float32 [2, 3]"));
  CHECK(has_text_starting(texts, "v1 float32 [2, 3] = ["));
  CHECK(has_text(svg_texts(render_bytes(g, "svg")), "Add"));
}
