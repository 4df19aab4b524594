// Bounded scale tests (issue 17: every reader and writer O(n log n) in its input): each graph
// format reads a file of N repeated elements, writes it in the same format and reads that back,
// and the count read back must be N. Oracle: the generator's own N; the files come from
// bench/scale_gen.py, which builds them from the formats' facts (flatc -b against the schemas in
// schemas/, struct-packed headers, JSON text), never through nnbridge. No time is asserted:
// ctest's TIMEOUT on these tests (tests/io/CMakeLists.txt) is the guard against a quadratic
// regression (a quadratic reader takes minutes at these sizes; linear ones about a second).
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

#include "nnbridge/graph.h"
#include "nnbridge/io.h"
#include "scale_files.h"

using namespace nnbridge;
namespace fs = std::filesystem;

namespace {

std::size_t count_op(const Graph& g, std::string_view op) {
  std::size_t n = 0;
  for (const auto& node : g.nodes) n += node.op == op;
  return n;
}

std::size_t count_constants(const Graph& g) {
  std::size_t n = 0;
  for (const auto& v : g.values) n += v.is_constant();
  return n;
}

/// Reads `file`, writes it beside itself as out<extension> (same format), reads that back.
Graph round_trip(const fs::path& file) {
  const Graph g = load(file);
  const std::string name = file.filename().string();
  const fs::path out = file.parent_path() / ("out" + name.substr(name.find('.')));
  save(g, out);
  return load(out);
}

}  // namespace

TEST_CASE("scale armnn: 30000 Activation layers read, written and read back") {
  const std::size_t n = 30000;
  const Graph g = round_trip(test::scale_file("armnn", n));
  CHECK(count_op(g, "Relu") == n);
  CHECK(g.nodes.size() == n + 1);  // and the Output layer's Identity
}

TEST_CASE("scale armnn-json: 20000 Activation layers read, written and read back") {
  const std::size_t n = 20000;
  const Graph g = round_trip(test::scale_file("armnn-json", n));
  CHECK(g.source_format == "armnn-json");
  CHECK(count_op(g, "Relu") == n);
}

TEST_CASE("scale vkgraph: 50000 OperatorCalls read, written and read back") {
  const std::size_t n = 50000;
  const Graph g = round_trip(test::scale_file("vkgraph", n));
  CHECK(count_op(g, "Relu") == n);
  CHECK(g.nodes.size() == n);
}

TEST_CASE("scale vkdelegate: 50000 OperatorCalls read, written and read back") {
  const std::size_t n = 50000;
  const Graph g = round_trip(test::scale_file("vkdelegate", n));
  CHECK(count_op(g, "Relu") == n);
}

TEST_CASE("scale pte: 20000 add nodes with their named-data constants read, written and read back") {
  const std::size_t n = 20000;
  const Graph g = round_trip(test::scale_file("pte", n));
  CHECK(count_op(g, "Add") == n);
  CHECK(count_constants(g) == n);  // every key resolved from the .pte's own named data
}

TEST_CASE("scale ptd: 50000 named-data entries read, written and read back") {
  const std::size_t n = 50000;
  const Graph g = round_trip(test::scale_file("ptd", n));
  CHECK(count_constants(g) == n);
  // The generator's entry i holds the floats i + k/16, k = 0..11: the last entry still does.
  const auto last = g.find_value("w" + std::to_string(n - 1));
  REQUIRE(last.has_value());
  const auto& c = g.values[*last].constant;
  REQUIRE(c.has_value());
  REQUIRE(c->size() == 48);
  float f[12];
  std::memcpy(f, c->data(), sizeof f);
  CHECK(f[0] == static_cast<float>(n - 1));
  CHECK(f[11] == static_cast<float>(n - 1) + 11.0f / 16);
}

TEST_CASE("scale afcm: 50000 objects in one program read, written and read back") {
  const std::size_t n = 50000;
  const Graph g = round_trip(test::scale_file("afcm-objects", n));
  REQUIRE(g.nodes.size() == 1);
  CHECK(g.nodes[0].inputs.size() == n);
  CHECK(count_constants(g) == n / 2);  // the even objects are ObjectData
}

TEST_CASE("scale afcm: 20000 programs read, written and read back") {
  const std::size_t n = 20000;
  const Graph g = round_trip(test::scale_file("afcm-programs", n));
  CHECK(count_op(g, "gl.Program") == n);
}

TEST_CASE("scale json: 30000 nodes read, written and read back") {
  const std::size_t n = 30000;
  const Graph g = round_trip(test::scale_file("json-nodes", n));
  CHECK(count_op(g, "Relu") == n);
  CHECK(g.values.size() == n + 1);
}

TEST_CASE("scale json: 100000 metadata keys read, written and read back") {
  const std::size_t n = 100000;
  const Graph g = round_trip(test::scale_file("json-metadata", n));
  CHECK(g.metadata.size() == n);
}
