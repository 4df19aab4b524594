// The built-in armnn format through io: sniffed without an identifier, loaded from disk
// and from memory, constants left in the mapped file. (The reader itself is tested in
// tests/formats/armnn.) Uses the real Arm NN 20.08 files in ../shared/samples/armnn.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <vector>

#include "nnbridge/io.h"
#include "nnbridge/rewrite.h"
#include "support/paths.h"

using namespace nnbridge;
namespace fs = std::filesystem;

TEST_CASE("io armnn: every shared sample is sniffed and loaded as armnn") {
  auto root = test::shared_sample("armnn");
  NNBRIDGE_REQUIRE_SHARED(root);
  int seen = 0;
  for (const auto& entry : fs::directory_iterator(*root)) {
    const fs::path model = entry.path() / "model.armnn";
    if (!fs::exists(model)) continue;
    CAPTURE(model);
    ++seen;
    // Arm NN writes no file identifier: the content alone must say "armnn", so copy the
    // file under a name whose extension says nothing.
    const fs::path anon = test::temp_dir() / "model.data";
    fs::copy_file(model, anon);
    CHECK(detect_format(anon) == "armnn");
    Graph g = load(anon);
    CHECK(g.source_format == "armnn");
    CHECK_FALSE(g.outputs.empty());
    // Constants stay in the mapped file. (A reader may still have to build some, e.g. when
    // it re-lays out depthwise weights, so not every constant has to be a view; and descriptor
    // fields that ONNX takes as inputs, such as Clip's bounds, are constants the reader makes.)
    std::vector<bool> operand(g.values.size(), false);
    for (const Node& n : g.nodes)
      for (const OperandAttribute& o : operand_attributes())
        if (n.op == o.op && o.input < n.inputs.size() && n.inputs[o.input] != kNoValue) operand[n.inputs[o.input]] = true;
    int constants = 0, views = 0;
    for (ValueId id = 0; id < g.values.size(); ++id)
      if (const Value& v = g.values[id]; v.constant && !v.constant->empty() && !operand[id]) {
        ++constants;
        views += v.constant->is_view();
      }
    if (constants > 0) CHECK(views > 0);

    std::ifstream f(model, std::ios::binary);
    std::string bytes{std::istreambuf_iterator<char>(f), {}};
    Graph m = load(std::as_bytes(std::span(bytes.data(), bytes.size())), "");
    CHECK(m.source_format == "armnn");
    CHECK(m.nodes.size() == g.nodes.size());
    CHECK(m.values.size() == g.values.size());
  }
  CHECK(seen == 11);  // the samples README lists eleven networks
}

TEST_CASE("io armnn: a JSON file is not sniffed as armnn, nor an armnn file as JSON") {
  auto model = test::shared_sample("armnn/add_softmax/model.armnn");
  NNBRIDGE_REQUIRE_SHARED(model);
  std::ifstream f(*model, std::ios::binary);
  std::string bytes{std::istreambuf_iterator<char>(f), {}};
  CHECK_FALSE(find_format("json")->sniff(std::as_bytes(std::span(bytes.data(), bytes.size()))));
  std::string json = R"({"format": "nnbridge-ir", "values": []})";
  CHECK_FALSE(find_format("armnn")->sniff(std::as_bytes(std::span(json.data(), json.size()))));
}
