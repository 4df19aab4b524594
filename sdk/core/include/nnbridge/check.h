// The graph checker.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "nnbridge/error.h"
#include "nnbridge/graph.h"

namespace nnbridge {

/// One checker finding.
struct Issue {
  /// Error: the graph is inconsistent (it would not run or write correctly); Warning: it is
  /// consistent but probably not what was meant.
  enum class Severity { Warning, Error };
  Severity severity = Severity::Error;  ///< how bad it is
  std::string where;    ///< e.g. "nodes[3].inputs[1]"
  std::string message;  ///< what is wrong, for people
  /// The stable identifier of an Error finding (docs/errors.md): the one check_or_throw()
  /// throws with it, and a backend's prepare() too when it is an Invalid one
  /// (nnbridge/prepare_check.h); `nnbridge check` prints it. InvalidOther for warnings and for
  /// findings no specific identifier describes (a format's own rules may give none).
  ErrorId id = ErrorId::InvalidOther;
};

/// Checks `g` and returns its findings; never throws.
///
/// Finds dangling value ids, values produced twice, a cycle in the data flow (naming its
/// nodes; the order nodes are stored in is free, see Graph), graph inputs/outputs out of range, arity outside the schema, unknown or
/// mistyped canonical attributes, missing required attributes, constants whose byte size
/// disagrees with their type, and declared output types that disagree with shape inference.
/// Format-native ops (names with a '.') are checked for ids here, and by the rules of the
/// format that owns them when one is registered (register_native_check).
std::vector<Issue> check(const Graph& g);

/// Rules for format-native ops, which core cannot know (e.g. the `gl.*` ops of format afcm):
/// appends its findings to the vector it is given.
using NativeCheck = std::function<void(const Graph&, std::vector<Issue>&)>;

/// Makes check() run `fn`, after the core rules, on every graph that holds an op or a metadata
/// field named "<op_namespace>.*" (e.g. "gl"), or whose source_format is `format` (so that a
/// file of that format with no nodes at all is still judged by its rules). Registering the same
/// namespace again replaces the rules. The format registry (sdk/io) registers FormatHandler::check
/// of each format it holds when it first initialises, so rules are in force once any io call
/// (load, save, find_format) ran. A rule set that throws is reported as one Error finding;
/// check() still never throws.
void register_native_check(std::string op_namespace, NativeCheck fn, std::string format = {});

/// Throws Error(issue.id, message, where) for the first Error-severity finding, if any.
void check_or_throw(const Graph& g);

}  // namespace nnbridge
