// The graph checker.
#pragma once

#include <string>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge {

struct Issue {
  enum class Severity { Warning, Error };
  Severity severity = Severity::Error;
  std::string where;    ///< e.g. "nodes[3].inputs[1]"
  std::string message;
};

/// Checks `g` and returns its findings; never throws.
///
/// Finds dangling value ids, values produced twice, nodes out of topological order or
/// cycles, graph inputs/outputs out of range, arity outside the schema, unknown or
/// mistyped canonical attributes, missing required attributes, constants whose byte size
/// disagrees with their type, and declared output types that disagree with shape inference.
/// Format-native ops (names with a '.') are checked for ids only.
std::vector<Issue> check(const Graph& g);

/// Throws Error(Invalid) with the first Error-severity finding, if any.
void check_or_throw(const Graph& g);

}  // namespace nnbridge
