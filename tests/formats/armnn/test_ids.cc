// Arm NN identity fields at the edges of their schema types (ArmnnSchema.fbs: LayerBindingId and
// inputIds/outputIds are int32, FeatureCompatibilityVersions fields uint32): check() and the
// writer refuse what does not fit or does not resolve, and the extremes that do fit round-trip.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <limits>
#include <string>

#include "nnbridge/check.h"
#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

constexpr int64_t kMin = std::numeric_limits<int32_t>::min();
constexpr int64_t kMax = std::numeric_limits<int32_t>::max();

// x -> Relu -> y, the input's and the output's binding ids as given.
Graph relu(int64_t in_id, int64_t out_id) {
  Graph g;
  Value x;
  x.name = "x";
  x.type.dtype = DataType::Float32;
  x.type.shape = {1, 4};
  x.attrs["armnn.layerBindingId"] = Attr(in_id);
  ValueId xi = g.add_value(x);
  Value y = x;
  y.name = "y";
  y.attrs.clear();
  ValueId yi = g.add_value(y);
  Value z = y;
  z.name = "z";
  ValueId zi = g.add_value(z);
  Node r;
  r.op = "Relu";
  r.name = "relu";
  r.inputs = {xi};
  r.outputs = {yi};
  g.add_node(r);
  Node out;
  out.op = "Identity";
  out.name = "z";
  out.inputs = {yi};
  out.outputs = {zi};
  out.attrs["armnn.layer"] = Attr("Output");
  out.attrs["armnn.layerBindingId"] = Attr(out_id);
  g.add_node(out);
  g.inputs = {xi};
  g.outputs = {zi};
  return g;
}

// The first Error finding's place, or "" when check() finds no error. Arm NN's rules join check()
// once the format registry has started (check.h), as in every program that reads or writes files.
std::string first_error(const Graph& g) {
  (void)find_format("armnn");
  for (const Issue& i : check(g))
    if (i.severity == Issue::Severity::Error) return i.where + ": " + i.message;
  return {};
}

}  // namespace

TEST_CASE("armnn ids: INT32_MIN and INT32_MAX binding ids are legal and round-trip") {
  Graph g = relu(kMin, kMax);
  CHECK(first_error(g).empty());
  auto f = write(g, "ids_extremes");
  std::string j = flatc_json(f);
  // flatc prints what the file holds: the two ids as int32 and the same values in inputIds/outputIds.
  CHECK(j.find("\"layerBindingId\": -2147483648") != std::string::npos);
  CHECK(j.find("\"layerBindingId\": 2147483647") != std::string::npos);
  CHECK(j.find("\"inputIds\": [\n    -2147483648\n  ]") != std::string::npos);
  CHECK(j.find("\"outputIds\": [\n    2147483647\n  ]") != std::string::npos);
  Graph back = read(f);
  CHECK(back.values[back.inputs[0]].attrs.at("armnn.layerBindingId") == Attr(kMin));
}

TEST_CASE("armnn ids: a binding id outside int32 is a check error and the writer refuses it") {
  for (int64_t bad : {kMax + 1, kMin - 1, int64_t(1) << 40}) {
    CAPTURE(bad);
    Graph g = relu(bad, 0);
    // check() judges Arm NN's fields in graphs that come from Arm NN (or hold armnn.* metadata or ops).
    CHECK(first_error(g).empty());
    g.source_format = "armnn";
    std::string e = first_error(g);
    CHECK(e.find("values[0].attrs.armnn.layerBindingId") == 0);
    CHECK(e.find(std::to_string(bad) + " does not fit") != std::string::npos);
    g.source_format.clear();  // the writer refuses it whatever the graph's origin
    auto path = test::temp_dir() / "ids_bad.armnn";
    std::filesystem::remove(path);
    try {
      save(g, path);
      FAIL("written");
    } catch (const Error& err) {
      CHECK(err.id() == ErrorId::Narrowing);  // LayerBindingId is an int (ArmnnSchema.fbs)
      CHECK(err.where() == "values[0].attrs.armnn.layerBindingId");
    }
    CHECK(!std::filesystem::exists(path));
    Graph o = relu(0, bad);
    o.source_format = "armnn";
    CHECK(first_error(o).find("nodes[1].attrs.armnn.layerBindingId") == 0);
  }
}

TEST_CASE("armnn ids: inputIds/outputIds must fit int32 and name a binding id (bindingIdsScheme 1)") {
  Graph g = relu(5, 7);
  g.metadata["armnn.inputIds"] = Attr(std::vector<int64_t>{kMin});
  CHECK(first_error(g).find("metadata.armnn.inputIds[0]: -2147483648 names no input") == 0);
  CHECK_THROWS_AS(save(g, test::temp_dir() / "ids_unresolved.armnn"), Error);
  g.metadata["armnn.inputIds"] = Attr(std::vector<int64_t>{5});
  g.metadata["armnn.outputIds"] = Attr(std::vector<int64_t>{kMax + 1});
  CHECK(first_error(g).find("metadata.armnn.outputIds[0]: 2147483648 does not fit") == 0);
  g.metadata["armnn.outputIds"] = Attr(std::vector<int64_t>{7});
  CHECK(first_error(g).empty());
  g.metadata["armnn.bindingIdsScheme"] = Attr(int64_t(1) << 32);
  CHECK(first_error(g).find("metadata.armnn.bindingIdsScheme: 4294967296 does not fit") == 0);
}

TEST_CASE("armnn: the writer refuses a cyclic data flow, which the reader refuses too, and writes nothing") {
  // x -> Relu -> y -> Add(y, w) -> w: the Add feeds itself. Arm NN runs layers in topological
  // order (armnn::Graph::TopologicalSort); a loop has none.
  Graph g = relu(0, 1);
  Value w = g.values[1];
  w.name = "w";
  const ValueId wi = g.add_value(w);
  Node add;
  add.op = "Add";
  add.name = "loop";
  add.inputs = {1, wi};
  add.outputs = {wi};
  g.add_node(add);
  const auto path = test::temp_dir() / "cycle.armnn";
  std::filesystem::remove(path);
  try {
    save(g, path);
    FAIL("written");
  } catch (const Error& err) {
    CHECK(err.id() == ErrorId::Cycle);
    CHECK(err.where() == "nodes[2]");
    CHECK(std::string(err.what()).find("'loop' (Add) -> nodes[2]") != std::string::npos);
  }
  CHECK(!std::filesystem::exists(path));
  // The reader's side: tests/fuzz/regressions/armnn/merge-layer-feeding-itself.armnn (a Merge
  // layer whose input slot is connected to its own output) is refused naming the layer.
  try {
    (void)load(test::source_dir() / "tests/fuzz/regressions/armnn/merge-layer-feeding-itself.armnn");
    FAIL("read");
  } catch (const Error& err) {
    CHECK(err.id() == ErrorId::Cycle);
    CHECK(err.where() == "layers");
    CHECK(std::string(err.what()).find("'merge' (armnn.Merge) -> nodes[0]") != std::string::npos);
  }
}
