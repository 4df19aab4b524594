// `nnbridge draw`: the real binary in a child process, judged by exit code, messages, the files it
// leaves, and the picture's boxes against the known structure of the bundled examples
// (examples/models/README.md) and flatc's JSON of them.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using nnbridge::test::read_file;
using nnbridge::test::run_cli;

namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++n;
  return n;
}

fs::path example(const std::string& name) { return nnbridge::test::source_dir() / "examples" / "models" / name; }

/// Layers of an Arm NN file that are not Constant layers, from flatc's JSON (the boxes of a drawing).
std::size_t non_constant_layers(const fs::path& armnn) {
  auto json = nnbridge::test::flatc_decode(armnn);
  REQUIRE(json);
  const nlohmann::json j = nlohmann::json::parse(*json);
  std::size_t n = 0;
  for (const auto& l : j.at("layers")) n += l.at("layer_type") != "ConstantLayer";
  return n;
}

std::size_t files_in(const fs::path& dir) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

}  // namespace

TEST_CASE("draw: each example model as SVG has one box per non-Constant layer") {
  const fs::path dir = nnbridge::test::temp_dir();
  for (const std::string name : {"conv_relu_fc.armnn", "add_softmax.armnn", "quant_add_relu.armnn"}) {
    CAPTURE(name);
    const fs::path out = dir / (name + ".svg");
    auto r = run_cli({"draw", example(name).string(), "-o", out.string()});
    REQUIRE(r.code == 0);
    CHECK(r.err.empty());
    const std::string svg = read_file(out);
    CHECK(count_of(svg, "class=\"node\"") == non_constant_layers(example(name)));
  }
  // README: add_softmax is a [1,8] + b [1,8] -> Addition -> Softmax -> probs: 2 inputs, Add,
  // Softmax, the Output layer.
  const std::string svg = read_file(dir / "add_softmax.armnn.svg");
  CHECK(count_of(svg, "class=\"node\"") == 5);
  CHECK(count_of(svg, "class=\"edge\"") == 4);
  CHECK(svg.find(">Add<") != std::string::npos);
  CHECK(svg.find(">Softmax<") != std::string::npos);
  CHECK(svg.find(">float32 [1, 8]<") != std::string::npos);
}

TEST_CASE("draw: --native names Arm NN layer types and --rankdir reaches Graphviz") {
  const fs::path out = nnbridge::test::temp_dir() / "m.dot";
  auto r = run_cli({"draw", example("conv_relu_fc.armnn").string(), "-o", out.string(), "--native", "--rankdir", "LR"});
  REQUIRE(r.code == 0);
  const std::string dot = read_file(out);
  CHECK(dot.rfind("digraph", 0) == 0);
  CHECK(dot.find("rankdir=LR") != std::string::npos);
  for (const std::string layer : {"Convolution2d", "Activation", "Pooling2d", "FullyConnected", "Softmax", "Output"}) {
    CAPTURE(layer);
    CHECK(dot.find(std::string("<B>") + layer + "</B>") != std::string::npos);
  }
  r = run_cli({"draw", example("conv_relu_fc.armnn").string(), "-o", out.string(), "--rankdir", "UP"});
  CHECK(r.code == 2);
}

TEST_CASE("draw: PNG and PDF by extension") {
  const fs::path dir = nnbridge::test::temp_dir();
  REQUIRE(run_cli({"draw", example("conv_relu_fc.armnn").string(), "-o", (dir / "m.png").string()}).code == 0);
  CHECK(read_file(dir / "m.png").compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  REQUIRE(run_cli({"draw", example("conv_relu_fc.armnn").string(), "-o", (dir / "m.PDF").string()}).code == 0);
  CHECK(read_file(dir / "m.PDF").rfind("%PDF-", 0) == 0);
}

TEST_CASE("draw: an unknown extension is a usage error found before the model is read") {
  const fs::path dir = nnbridge::test::temp_dir();
  auto r = run_cli({"draw", (dir / "absent.armnn").string(), "-o", (dir / "m.jpeg").string()});
  CHECK(r.code == 2);
  CHECK(r.err.find("m.jpeg") != std::string::npos);
  CHECK(r.err.find(".svg, .png, .pdf or .dot") != std::string::npos);
  CHECK(files_in(dir) == 0);
}

TEST_CASE("draw: an output that cannot be written names the file and leaves nothing") {
  const fs::path dir = nnbridge::test::temp_dir();
  const fs::path out = dir / "no_such_folder" / "m.svg";
  auto r = run_cli({"draw", example("add_softmax.armnn").string(), "-o", out.string()});
  CHECK(r.code == 3);
  CHECK(r.err.find(out.string()) != std::string::npos);
  CHECK(files_in(dir) == 0);
}

TEST_CASE("draw: more boxes than --max-nodes says how many and which option, and writes nothing") {
  const fs::path dir = nnbridge::test::temp_dir();
  const fs::path out = dir / "m.svg";
  // conv_relu_fc: the input, Conv, Relu, MaxPool, FullyConnected, Softmax, Output: 7 boxes.
  auto r = run_cli({"draw", example("conv_relu_fc.armnn").string(), "-o", out.string(), "--max-nodes", "6"});
  CHECK(r.code == 3);
  CHECK(r.err.find("7 boxes") != std::string::npos);
  CHECK(r.err.find("--max-nodes 6") != std::string::npos);
  CHECK(files_in(dir) == 0);
  CHECK(run_cli({"draw", example("conv_relu_fc.armnn").string(), "-o", out.string(), "--max-nodes", "7"}).code == 0);
  CHECK(run_cli({"draw", example("conv_relu_fc.armnn").string(), "-o", out.string(), "--max-nodes", "0"}).code == 0);
}

TEST_CASE("draw: a malformed model is bad input naming the file") {
  const fs::path dir = nnbridge::test::temp_dir();
  nnbridge::test::write_file(dir / "bad.armnn", "not a flatbuffer at all");
  auto r = run_cli({"draw", (dir / "bad.armnn").string(), "-o", (dir / "m.svg").string()});
  CHECK(r.code == 3);
  CHECK(r.err.find("bad.armnn") != std::string::npos);
  CHECK_FALSE(fs::exists(dir / "m.svg"));
}
