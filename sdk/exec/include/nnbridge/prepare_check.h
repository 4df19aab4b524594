// What every backend's prepare() refuses before it plans anything: the checker's errors.
#pragma once

#include <cstddef>
#include <functional>

#include "nnbridge/graph.h"

namespace nnbridge {

/// Throws Error(Invalid), `where` and message as check() (nnbridge/check.h) gives them, for the
/// first Error-severity finding of `g`: a stride or dilation of 0, a negative pad or
/// kernel_shape, a cycle, a value without data, an attribute of the wrong type, declared shapes
/// that disagree with inference. So a backend never computes from a graph the checker rejects.
/// The identifier is the finding's (Issue::id) when that is an Invalid one, else InvalidOther; a
/// finding about a node starts with the node as the prepare loop names it (exec::node_label:
/// `node 3 "name" (Op): ...`).
/// Findings about node i are left out when `custom(i)` is true: a node an application kernel or
/// an OpenVINO custom layer runs is judged by its author's rules, not the canonical schema.
void refuse_check_errors(const Graph& g, const std::function<bool(std::size_t node)>& custom = {});

}  // namespace nnbridge
