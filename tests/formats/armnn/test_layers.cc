// One hand-written network per Arm NN layer type (compiled by flatc, an independent peer):
// each reads as the expected op with hand-computed attributes, and writes back to a file
// flatc decodes to exactly the same JSON.
#include <doctest/doctest.h>

#include <set>

#include "layer_zoo.h"
#include "nnbridge/error.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

TEST_CASE("armnn layer zoo covers every union member") {
  std::set<std::string> covered = {"InputLayer", "OutputLayer"};
  for (const auto& c : zoo()) covered.insert(c.layer);
  CHECK(covered.size() == 73);
}

TEST_CASE("armnn layer zoo: op mapping and lossless round-trip") {
  for (const auto& c : zoo()) {
    CAPTURE(c.layer);
    auto bin = flatc_binary(zoo_json(c), c.layer);
    REQUIRE(!bin.empty());
    Graph g = read(bin);
    if (c.op.empty()) {
      CHECK(g.nodes.size() == size_t(c.outputs));  // only the Output identities
      const Value* v = value_named(g, "the_layer");
      REQUIRE(v);
      CHECK(v->is_constant());
      CHECK(v->constant->size() == 32);
    } else {
      const Node* n = node_named(g, "the_layer");
      REQUIRE(n);
      CHECK(n->op == c.op);
      CHECK(n->outputs.size() == size_t(c.outputs));
      if (c.expect) c.expect(g, *n);
    }
    CHECK(g.metadata.at("armnn.fileIdentifier") == Attr(true));
    auto out = write(g, c.layer);
    std::string a = flatc_json(bin), b = flatc_json(out);
    REQUIRE(!a.empty());
    CHECK(a == b);
  }
}
