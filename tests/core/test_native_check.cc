// register_native_check: check() runs a format's rules on graphs holding its native ops, only
// those, after the core rules, and turns a rule set that throws into a finding.
#include <doctest/doctest.h>

#include <stdexcept>

#include "nnbridge/check.h"

using namespace nnbridge;

namespace {

Graph graph_with(const std::string& op) {
  Graph g;
  Node n;
  n.op = op;
  g.add_node(n);
  return g;
}

}  // namespace

TEST_CASE("check: native rules run on graphs holding their namespace's ops, after the core rules") {
  int calls = 0;
  register_native_check("nctest", [&](const Graph& g, std::vector<Issue>& issues) {
    ++calls;
    issues.push_back({Issue::Severity::Warning, "nodes[0]", "seen " + std::to_string(issues.size())});
  });
  Graph g = graph_with("nctest.Thing");
  g.nodes[0].inputs = {7};  // a core finding: value id out of range
  auto issues = check(g);
  CHECK(calls == 1);
  REQUIRE(issues.size() == 2);
  CHECK(issues[0].severity == Issue::Severity::Error);  // the core's, first
  CHECK(issues[1].message == "seen 1");
  // Not for other namespaces, nor for canonical ops, nor for a namespace-less dot.
  check(graph_with("other.Thing"));
  check(graph_with("Relu"));
  check(graph_with(".Thing"));
  CHECK(calls == 1);
  // Registering the namespace again replaces the rules.
  register_native_check("nctest", [&](const Graph&, std::vector<Issue>&) { calls += 10; });
  check(graph_with("nctest.Thing"));
  CHECK(calls == 11);
}

TEST_CASE("check: native rules also run for the namespace's metadata and for graphs read from the format") {
  int calls = 0;
  register_native_check("ncmeta", [&](const Graph&, std::vector<Issue>&) { ++calls; }, "ncformat");
  Graph g;  // no nodes at all
  check(g);
  CHECK(calls == 0);
  g.metadata["ncmeta.flag"] = Attr(true);
  check(g);
  CHECK(calls == 1);
  Graph h;
  h.source_format = "ncformat";
  check(h);
  CHECK(calls == 2);
  h.source_format = "other";
  check(h);
  CHECK(calls == 2);
}

TEST_CASE("check: native rules that throw become one error finding, check() itself never throws") {
  register_native_check("ncthrow", [](const Graph&, std::vector<Issue>&) { throw std::runtime_error("boom"); });
  std::vector<Issue> issues;
  CHECK_NOTHROW(issues = check(graph_with("ncthrow.X")));
  REQUIRE(issues.size() == 1);
  CHECK(issues[0].severity == Issue::Severity::Error);
  CHECK(issues[0].message.find("boom") != std::string::npos);
}
