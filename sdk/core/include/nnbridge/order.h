// Node order: a stable topological order of a graph whose nodes are stored in any order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge {

/// The order rule of the IR: a graph is valid when its data flow is acyclic, whatever order its
/// nodes are stored in. `Graph::nodes` keeps the source file's order (Arm NN files written
/// through Arm NN's TfLite parser store a FullyConnected before the Reshape that feeds it), so
/// reading and writing a format keeps it; whoever needs producers before consumers (the
/// backends, the VkGraph writer) asks for this order.
///
/// Returns the indices of `g.nodes` in a stable topological order: a node comes after the
/// producers of its inputs, and among nodes ready at the same time the one stored first comes
/// first (Kahn's algorithm with a min-heap; a graph stored in topological order gives
/// 0, 1, 2, ...). O((N + E) log N) for N nodes and E input slots. A value's producer is the first
/// node listing it as an output (Graph::producers); absent (kNoValue) and out-of-range ids,
/// graph inputs and constants add no edge (check() reports the bad ones).
/// Throws Error(Invalid), where = "nodes[i]", naming a node on a cycle and the cycle.
std::vector<std::size_t> topological_order(const Graph& g);

/// The nodes of one cycle of `g`'s data flow, each producing a value the next one reads (and
/// the last one feeding the first), or empty when the data flow is acyclic. Never throws Error.
std::vector<std::size_t> find_cycle(const Graph& g);

/// "nodes[3] 'conv1' (Conv) -> nodes[5] 'add' (Add) -> nodes[3]": a cycle, for messages.
std::string describe_cycle(const Graph& g, const std::vector<std::size_t>& cycle);

}  // namespace nnbridge
