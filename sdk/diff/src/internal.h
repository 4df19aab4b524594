// Pieces of nnbridge_diff shared between its files (not installed).
#pragma once

#include <cstddef>
#include <vector>

#include "nnbridge/diff.h"
#include "nnbridge/graph.h"

namespace nnbridge::diff_detail {

/// `g` in the normal form nnbridge/diff.h describes (a copy; `g` is not changed).
Graph normal_form(const Graph& g);

/// The pairing of two graphs in normal form.
struct Matching {
  std::vector<std::pair<std::size_t, std::size_t>> inputs, outputs;  ///< positions in Graph::inputs / outputs
  std::vector<NodeMatch> nodes;                                      ///< sorted by NodeMatch::a
  /// For each value of A, the corresponding value of B (kNoValue: none); `b_to_a` the inverse.
  std::vector<ValueId> a_to_b, b_to_a;
};

/// Pairs inputs, nodes and outputs as nnbridge/diff.h "Matching" says.
Matching match(const Graph& a, const Graph& b, bool ignore_names);

/// Whether `name` is format vocabulary (has a dot: `armnn.index`, `vk.name`, `onnx.ir_version`).
inline bool is_namespaced(const std::string& name) { return name.find('.') != std::string::npos; }

}  // namespace nnbridge::diff_detail
