// A stable topological order of the nodes (nnbridge/order.h).
#include "nnbridge/order.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <queue>

#include "nnbridge/error.h"

namespace nnbridge {

namespace {

struct Ordering {
  std::vector<std::size_t> order;  // every node when acyclic
  std::vector<std::size_t> cycle;  // one cycle otherwise
};

Ordering order_nodes(const Graph& g) {
  const std::size_t n = g.nodes.size();
  const std::vector<std::size_t> producer = g.producers();
  // Edges producer -> consumer, one per input slot, as compressed rows.
  std::vector<std::size_t> indegree(n, 0), first(n + 1, 0);
  auto source_of = [&](ValueId v) { return v != kNoValue && v < producer.size() ? producer[v] : SIZE_MAX; };
  for (std::size_t i = 0; i < n; ++i)
    for (ValueId v : g.nodes[i].inputs)
      if (std::size_t p = source_of(v); p != SIZE_MAX) ++first[p + 1], ++indegree[i];
  for (std::size_t i = 0; i < n; ++i) first[i + 1] += first[i];
  std::vector<std::size_t> consumers(first[n]), fill(first.begin(), first.end() - 1);
  for (std::size_t i = 0; i < n; ++i)
    for (ValueId v : g.nodes[i].inputs)
      if (std::size_t p = source_of(v); p != SIZE_MAX) consumers[fill[p]++] = i;

  Ordering out;
  out.order.reserve(n);
  std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> ready;
  for (std::size_t i = 0; i < n; ++i)
    if (indegree[i] == 0) ready.push(i);
  while (!ready.empty()) {
    const std::size_t i = ready.top();
    ready.pop();
    out.order.push_back(i);
    for (std::size_t k = first[i]; k < first[i + 1]; ++k)
      if (--indegree[consumers[k]] == 0) ready.push(consumers[k]);
  }
  if (out.order.size() == n) return out;
  // Every node left has a producer that is also left: walking from one to such a producer
  // must come back to a node already walked, and the walk from there on is a cycle.
  std::vector<std::size_t> step(n, SIZE_MAX), walk;
  std::size_t at = 0;
  while (indegree[at] == 0) ++at;
  while (step[at] == SIZE_MAX) {
    step[at] = walk.size();
    walk.push_back(at);
    for (ValueId v : g.nodes[at].inputs)
      if (std::size_t p = source_of(v); p != SIZE_MAX && indegree[p] > 0) {
        at = p;
        break;
      }
  }
  // The walk went from consumer to producer: reversed, each node feeds the next.
  out.cycle.assign(walk.rbegin(), walk.rend() - static_cast<std::ptrdiff_t>(step[at]));
  // Told from the node stored first, so that the message does not depend on the walk.
  std::rotate(out.cycle.begin(), std::min_element(out.cycle.begin(), out.cycle.end()), out.cycle.end());
  return out;
}

}  // namespace

std::vector<std::size_t> topological_order(const Graph& g) {
  Ordering o = order_nodes(g);
  if (!o.cycle.empty())
    throw Error(ErrorId::Cycle, "the data flow has a cycle: " + describe_cycle(g, o.cycle), {},
                "nodes[" + std::to_string(o.cycle.front()) + "]");
  return std::move(o.order);
}

std::vector<std::size_t> find_cycle(const Graph& g) { return order_nodes(g).cycle; }

std::string describe_cycle(const Graph& g, const std::vector<std::size_t>& cycle) {
  std::string s;
  auto node = [&](std::size_t i) {
    std::string d = "nodes[" + std::to_string(i) + "]";
    if (i < g.nodes.size()) {
      if (!g.nodes[i].name.empty()) d += " '" + g.nodes[i].name + "'";
      d += " (" + g.nodes[i].op + ")";
    }
    return d;
  };
  for (std::size_t i : cycle) s += node(i) + " -> ";
  return cycle.empty() ? s : s + "nodes[" + std::to_string(cycle.front()) + "]";
}

}  // namespace nnbridge
