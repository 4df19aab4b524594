// Plans for graphs whose shapes or kernel operands depend on the values of graph inputs.
//
// A backend plans shapes, memory and kernels once, before any input is seen (nnbridge/exec.h).
// Some graphs cannot be planned that way: an ONNX Reshape whose shape is computed from a graph
// input, a Slice whose starts are a graph input, a NonZero whose output length is the number of
// non-zero input elements. ONNX defines these shapes at run time; ONNX Runtime allocates them
// while it runs. The reference backends instead plan the graph again for each run with every graph
// input bound as a constant, so each of those values is known when its consumer is prepared
// (and the prepare loop's constant folding, nnbridge/exec/prepare.h, carries them through shape
// arithmetic). Correct for every such graph; each run pays a prepare.
#pragma once

#include <memory>

#include "nnbridge/exec.h"

namespace nnbridge::exec {

/// A plan that, on each run(inputs), copies `g` with every graph input turned into a constant
/// holding the given tensor (a dim the graph leaves -1, such as an exported dynamic batch, takes
/// the tensor's), prepares that graph on `backend` with `options` and runs it.
/// input_types() are `g`'s declared input types; output_types() are the declared output types
/// (a dim the values decide is -1); placement() is the first run's (empty before it). run() throws
/// what prepare or run of the bound graph throws, and Error(Invalid) for a missing, extra,
/// mis-shaped or mis-typed input (as every plan does). A backend's prepare() returns one when the
/// static prepare throws NeedsValue (nnbridge/exec/node_context.h; also for a graph input with a
/// -1 dim) and `g` has inputs.
std::unique_ptr<Plan> input_bound_plan(std::shared_ptr<const Backend> backend, const Graph& g,
                                       const BackendOptions& options);

}  // namespace nnbridge::exec
