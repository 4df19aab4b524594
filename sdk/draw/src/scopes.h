// Name scopes of a drawing (scopes.cc): nodes whose names share a '/'-separated prefix
// ("/layer1/layer1.0/conv1/Conv" from PyTorch, "MobilenetV1/Conv2d_0/Relu6" from TensorFlow) are
// drawn inside nested Graphviz clusters, one per scope.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge::draw_detail {

/// The scopes of a node name: its '/'-separated parts but the last, empty parts dropped
/// ("/layer1/layer1.0/conv1/Conv" -> layer1, layer1.0, conv1; "Relu" and "/Relu" -> none).
std::vector<std::string> scope_path(std::string_view name);

inline constexpr std::size_t kNoScope = static_cast<std::size_t>(-1);

/// One box around nodes: a scope that holds at least two nodes (a scope of one node is no box).
struct Scope {
  std::string label;   ///< its own part of the path ("layer1.0")
  std::size_t parent;  ///< index of the enclosing scope, or kNoScope at the top
  std::size_t depth;   ///< 1 at the top
  std::size_t nodes;   ///< nodes inside it, at any depth
};

/// The scopes of `g`'s nodes, at most `max_depth` levels deep (negative: every level; 0: none),
/// in the order their first node appears in g.nodes (a parent before its children), and per
/// node the innermost scope it is drawn in (kNoScope: none).
struct ScopeTree {
  std::vector<Scope> scopes;
  std::vector<std::size_t> node_scope;
};
ScopeTree scope_tree(const Graph& g, long max_depth);

}  // namespace nnbridge::draw_detail
