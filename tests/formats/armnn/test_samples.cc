// Every shared Arm NN sample (written by Arm NN 20.08 or by Arm NN's own test fixtures) reads,
// passes check(), and writes back to a file that flatc decodes to the same JSON.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "nnbridge/check.h"
#include "nnbridge/error.h"
#include "nnbridge/json.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;
namespace fs = std::filesystem;

namespace {

std::vector<fs::path> sample_files() {
  std::vector<fs::path> out;
  if (auto dir = test::shared_sample("armnn"))
    for (const auto& e : fs::directory_iterator(*dir))
      if (fs::exists(e.path() / "model.armnn")) out.push_back(e.path() / "model.armnn");
  if (auto dir = test::shared_sample("armnn_upstream_compat"))
    for (const auto& e : fs::directory_iterator(*dir))
      if (e.path().extension() == ".armnn") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string label(const fs::path& p) {
  return p.filename() == "model.armnn" ? p.parent_path().filename().string() : p.stem().string();
}

void check_clean(const Graph& g, const std::string& what) {
  for (const auto& issue : check(g)) {
    INFO(what << ": " << issue.where << ": " << issue.message);
    CHECK(issue.severity != Issue::Severity::Error);
  }
}

}  // namespace

TEST_CASE("armnn samples: read, check, write back, flatc decodes identically") {
  auto files = sample_files();
  if (files.empty()) {
    nnbridge::test::skip("../shared/samples is not present");
    return;
  }
  CHECK(files.size() == 14);
  for (const auto& f : files) {
    std::string name = label(f);
    CAPTURE(name);
    Graph g = read(f);
    CHECK(g.source_format == "armnn");
    check_clean(g, name);
    auto out = write(g, name);
    std::string a = flatc_json(f), b = flatc_json(out);
    REQUIRE(!a.empty());
    CHECK(a == b);
    // Determinism: writing the same graph twice gives the same bytes.
    CHECK(file_bytes(write(g, name + "_again")) == file_bytes(out));
    // Real files carry no identifier, and the round-trip keeps it that way.
    auto bytes = file_bytes(out);
    CHECK(std::string(bytes.begin() + 4, bytes.begin() + 8) != "ARMN");
  }
}

TEST_CASE("armnn samples: constants are views into the mapped file") {
  auto p = test::shared_sample("armnn/conv_relu_fc/model.armnn");
  NNBRIDGE_REQUIRE_SHARED(p);
  Graph g = read(*p);
  int constants = 0;
  for (const auto& v : g.values)
    if (v.constant) {
      ++constants;
      CHECK(v.constant->is_view());
    }
  CHECK(constants == 4);  // conv weights, conv bias, fc weights, fc bias
}

TEST_CASE("armnn sample add_softmax: ops, names and shapes") {
  auto p = test::shared_sample("armnn/add_softmax/model.armnn");
  NNBRIDGE_REQUIRE_SHARED(p);
  Graph g = read(*p);
  // flatc's decoding of the file: Input a, Input b [2,5], Addition, Softmax, Output probs.
  REQUIRE(g.inputs.size() == 2);
  CHECK(g.values[g.inputs[0]].name == "a");
  CHECK(g.values[g.inputs[1]].name == "b");
  CHECK(g.values[g.inputs[0]].type.shape == std::vector<int64_t>{2, 5});
  CHECK(g.values[g.inputs[0]].type.dtype == DataType::Float32);
  REQUIRE(g.outputs.size() == 1);
  CHECK(g.values[g.outputs[0]].name == "probs");
  REQUIRE(g.nodes.size() == 3);
  CHECK(g.nodes[0].op == "Add");
  CHECK(g.nodes[1].op == "Softmax");
  CHECK(g.nodes[2].op == "Identity");
  CHECK(g.metadata.at("armnn.fileIdentifier") == Attr(false));
  CHECK(g.metadata.at("armnn.bindingIdsScheme") == Attr(int64_t{1}));
  // Float32 tensors from Arm NN carry scale 0.0, which is what the writer derives: no residue.
  CHECK(g.values[g.inputs[0]].attrs.count("armnn.tensorInfo.quantizationScale") == 0);
}

TEST_CASE("armnn sample permute_transpose_mean: Permute and Transpose read the same vector oppositely") {
  auto p = test::shared_sample("armnn/permute_transpose_mean/model.armnn");
  NNBRIDGE_REQUIRE_SHARED(p);
  Graph g = read(*p);
  const Node* perm = node_named(g, "permute");
  const Node* tr = node_named(g, "transpose");
  REQUIRE(perm);
  REQUIRE(tr);
  // Both store dimMappings [2, 0, 1] on a [2, 3, 4] input. Permute sends input dim i to output
  // dim m[i]: output [3, 4, 2], i.e. ONNX perm [1, 2, 0]. Transpose takes input dim m[i]: [4, 2, 3].
  CHECK(perm->op == "Transpose");
  CHECK(perm->attrs.at("perm") == Attr(std::vector<int64_t>{1, 2, 0}));
  CHECK(perm->attrs.at("armnn.layer") == Attr("Permute"));
  CHECK(g.values[perm->outputs[0]].type.shape == std::vector<int64_t>{3, 4, 2});
  CHECK(tr->op == "Transpose");
  CHECK(tr->attrs.at("perm") == Attr(std::vector<int64_t>{2, 0, 1}));
  CHECK(g.values[tr->outputs[0]].type.shape == std::vector<int64_t>{4, 2, 3});
  const Node* mean = node_named(g, "mean");  // the Mean layer comes before the Output layer "mean"
  REQUIRE(mean);
  CHECK(mean->op == "ReduceMean");
  CHECK(mean->attrs.at("axes") == Attr(std::vector<int64_t>{1}));
  CHECK(mean->attrs.at("keepdims") == Attr(int64_t{1}));
  // Outputs are addressed by the Output layers' names.
  REQUIRE(g.outputs.size() == 2);
  CHECK(g.values[g.outputs[0]].name == "permuted");
  CHECK(g.values[g.outputs[1]].name == "mean");
  CHECK(g.values[g.outputs[1]].type.shape == std::vector<int64_t>{4, 1, 3});
}

TEST_CASE("armnn upstream compat: defaults of absent fields") {
  auto l2 = test::shared_sample("armnn_upstream_compat/l2normalization_backcompat.armnn");
  NNBRIDGE_REQUIRE_SHARED(l2);
  Graph g = read(*l2);
  const Node* n = nullptr;
  for (const auto& x : g.nodes)
    if (x.op == "LpNormalization") n = &x;
  REQUIRE(n);
  CHECK(n->attrs.at("epsilon").get<double>() == double(1e-12f));  // schema default when eps is absent
  CHECK(n->attrs.at("p") == Attr(int64_t{2}));
  CHECK(g.metadata.at("armnn.featureVersions") == Attr(false));

  Graph m = read(*test::shared_sample("armnn_upstream_compat/merger_backcompat.armnn"));
  const Node* merger = nullptr;
  for (const auto& x : m.nodes)
    if (x.op == "Concat") merger = &x;
  REQUIRE(merger);
  CHECK(merger->attrs.at("armnn.layer") == Attr("Merger"));

  Graph pd = read(*test::shared_sample("armnn_upstream_compat/pad_backcompat.armnn"));
  const Node* pad = nullptr;
  for (const auto& x : pd.nodes)
    if (x.op == "Pad") pad = &x;
  REQUIRE(pad);
  REQUIRE(pad->inputs.size() == 3);  // Pad-13: padValue is constant_value (input 2), a float32 0
  const Value& value = pd.values[pad->inputs[2]];
  REQUIRE(value.constant);
  CHECK(value.type.dtype == DataType::Float32);
  float v = -1;
  std::memcpy(&v, value.constant->data(), 4);
  CHECK(v == 0.0f);
  CHECK(pad->attrs.at("mode") == Attr("constant"));
}

TEST_CASE("armnn samples: .armnn -> IR JSON -> .armnn decodes identically") {
  auto files = sample_files();
  if (files.empty()) return;
  for (const auto& f : files) {
    std::string name = label(f);
    CAPTURE(name);
    Graph g = read(f);
    Graph back = from_json(to_json(g));
    CHECK(flatc_json(write(back, name + "_via_json")) == flatc_json(f));
  }
}
