// topological_order / find_cycle (nnbridge/order.h): orders and cycles worked out by hand.
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "nnbridge/order.h"

using namespace nnbridge;
using Order = std::vector<std::size_t>;

namespace {

// A graph of `n` values v0..v(n-1) (v0 the graph input) and nodes given as (inputs, outputs).
Graph chain(std::size_t values, const std::vector<std::pair<std::vector<ValueId>, std::vector<ValueId>>>& nodes) {
  Graph g;
  for (std::size_t i = 0; i < values; ++i) g.add_value(Value{"v" + std::to_string(i), {}, std::nullopt, {}});
  for (std::size_t i = 0; i < nodes.size(); ++i)
    g.add_node(Node{"Relu", "n" + std::to_string(i), nodes[i].first, nodes[i].second, {}});
  g.inputs = {0};
  return g;
}

}  // namespace

TEST_CASE("topological_order: an ordered graph keeps its order") {
  Graph g = chain(4, {{{0}, {1}}, {{1}, {2}}, {{1, 2}, {3}}});
  CHECK(topological_order(g) == Order{0, 1, 2});
  CHECK(find_cycle(g).empty());
}

TEST_CASE("topological_order: producers first, file order among ready nodes") {
  // Stored: n0 reads v2 (made by n2), n1 reads v0, n2 reads v1 (made by n1), n3 reads v0.
  // Ready at first: n1, n3 -> n1 (stored first); then n2 and n3 are ready -> n2; then n0, n3
  // -> n0; then n3.
  Graph g = chain(5, {{{2}, {3}}, {{0}, {1}}, {{1}, {2}}, {{0}, {4}}});
  CHECK(topological_order(g) == Order{1, 2, 0, 3});
  // An Arm NN TfLite-parser file: FullyConnected (n0) stored before the Reshape (n1) feeding it,
  // both named alike; names play no part in the order.
  Graph fc = chain(3, {{{1}, {2}}, {{0}, {1}}});
  fc.nodes[0].name = fc.nodes[1].name = "FullyConnected:0:5";
  CHECK(topological_order(fc) == Order{1, 0});
}

TEST_CASE("topological_order: absent, out-of-range and constant inputs add no edge") {
  Graph g = chain(3, {{{kNoValue, 0, 99}, {1}}, {{1, 2}, {}}});
  CHECK(topological_order(g) == Order{0, 1});
}

TEST_CASE("topological_order: a cycle is Error(Invalid) naming a node on it and the cycle") {
  // n0: v0 -> v1 (ahead of the cycle); n1: v1, v3 -> v2; n2: v2 -> v3 (n1 and n2 form the
  // cycle); n3: v3 -> v4 (after it).
  Graph g = chain(5, {{{0}, {1}}, {{1, 3}, {2}}, {{2}, {3}}, {{3}, {4}}});
  Order cycle = find_cycle(g);
  REQUIRE(cycle.size() == 2);
  CHECK(cycle == Order{1, 2});  // told from the node stored first
  try {
    topological_order(g);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::Cycle);
    CHECK(e.where() == "nodes[1]");
    CHECK(e.message().find("nodes[1] 'n1' (Relu)") != std::string::npos);
    CHECK(e.message().find("nodes[2] 'n2' (Relu)") != std::string::npos);
  }
  Graph self = chain(2, {{{1}, {1}}});
  CHECK(find_cycle(self) == Order{0});
  CHECK(describe_cycle(self, find_cycle(self)) == "nodes[0] 'n0' (Relu) -> nodes[0]");
}

TEST_CASE("topological_order: a long chain stored backwards comes out forwards") {
  // 100000 nodes, node k stored at position N-1-k: the order is N-1, N-2, ..., 0 (O(n log n)).
  const std::size_t n = 100000;
  std::vector<std::pair<std::vector<ValueId>, std::vector<ValueId>>> nodes(n);
  for (std::size_t k = 0; k < n; ++k) nodes[n - 1 - k] = {{ValueId(k)}, {ValueId(k + 1)}};
  Graph g = chain(n + 1, nodes);
  Order order = topological_order(g);
  REQUIRE(order.size() == n);
  CHECK(order.front() == n - 1);
  CHECK(order.back() == 0);
}
