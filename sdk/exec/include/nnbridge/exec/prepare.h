// The prepare loop both backends share: graph checks, float32 constants, a stable topological
// order, each node's output types (resolve_output_types), its node context, and the choice of
// which backend runs it, with fallback as an ordered list of backends.
//
// A backend implements NodeBuilder for its own plan and calls prepare_nodes() once per prepare();
// what differs between backends (kernels, custom kernels or layers, how tensors are stored,
// the memory plan) stays in the builder.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/exec.h"
#include "nnbridge/exec/node_context.h"

namespace nnbridge::exec {

/// A node that another backend of the fallback list runs: that backend's plan of a graph of the
/// node alone (its inputs and outputs named "v<id>" after the value ids of the outer graph; its
/// constant inputs constants there too), and how the outer node's slots map onto it.
struct ForeignNode {
  std::string backend;                       ///< the backend that runs it ("cpu")
  std::shared_ptr<const Plan> plan;          ///< prepared with the caller's full BackendOptions
  struct Port {
    std::string name;    ///< the sub-graph's input or output name
    std::size_t slot;    ///< index into the node's inputs (first occurrence) or outputs
    TensorType type;     ///< resolved type
  };
  std::vector<Port> inputs;   ///< the node's non-constant inputs, each value once
  std::vector<Port> outputs;  ///< every output of the node
};

/// Runs `f` on float32 host buffers in the node's slot order (what both backends hold between
/// nodes): `in[slot]` for each input port, `out[slot]` for each output port, each of the port
/// type's element count. Converts to and from the ports' dtypes with to_float/from_float
/// (nnbridge/exec/convert.h). Throws what the foreign plan's run() throws.
void run_foreign(const ForeignNode& f, std::span<const float* const> in, std::span<float* const> out);

/// What the shared loop asks of the backend whose plan it builds.
class NodeBuilder {
 public:
  virtual ~NodeBuilder() = default;
  /// Whether this backend has a kernel for node `i` of `work` (the input types resolved).
  virtual bool has_kernel(const Graph& work, std::size_t i) = 0;
  /// Whether node `i` of `g` runs a custom kernel or layer of this backend: check() findings about
  /// it are then not refused (its attributes are the kernel author's). Ids are in range.
  virtual bool is_custom(const Graph& g, std::size_t i) = 0;
  /// How node i's output types are found (has_kernel(i) is true): `own` false for the op
  /// schema's inference (infer_types) merged with what the file declares; `own` true for this
  /// backend's own rule (a custom kernel's shape function), `types` its result or nullopt for the
  /// declared types. An error from an own rule is the node's error.
  struct Shapes {
    bool own = false;
    std::optional<std::vector<TensorType>> types;
  };
  virtual Shapes shapes(const Graph& work, std::size_t i) {
    (void)work, (void)i;
    return {};
  }
  /// Builds the step for node `i` (types of `work` resolved) from `ctx`. Error(Unsupported) (a
  /// form the kernel does not implement) and Error(Backend) (a kernel that fails to build) hand
  /// the node to the fallback list when it is not empty; every other error is the node's.
  virtual void build(const Graph& work, std::size_t i, const NodeContext& ctx, const std::string& label) = 0;
  /// Constant folding without a plan of its own: runs node `i` (types of `work` resolved, every
  /// output type fully known) once, now, on float32 buffers in slot order: `in[k]` input k's
  /// elements (nullptr for an absent input), `out[k]` output k's, zeroed, of its element count.
  /// Leaves the outputs rounded to their dtypes (round_trip). Returns false where this builder
  /// does not (the default); the loop then folds through a one-node plan of the backend. An
  /// Error leaves the node to build(), where its error names the node.
  virtual bool evaluate(const Graph& work, std::size_t i, const NodeContext& ctx, std::span<const float* const> in,
                        std::span<float* const> out) {
    (void)work, (void)i, (void)ctx, (void)in, (void)out;
    return false;
  }
  /// Node `i` runs on another backend: the builder adds a step that runs `f` (run_foreign).
  virtual void add_foreign(std::size_t i, std::shared_ptr<const ForeignNode> f) = 0;
  /// Appended to the "no kernel for op" error (which custom kernels exist, how to fall back).
  virtual std::string no_kernel_note(const Graph& work, std::size_t i) {
    (void)work, (void)i;
    return {};
  }
};

/// What prepare_nodes() leaves to the backend.
struct PreparedGraph {
  Graph work;  ///< the graph with every value's type resolved (constants shared, not copied)
  /// Per value: the float32 contents of a constant (FloatConstant: a view of float32 bytes,
  /// else converted with to_float), else null.
  std::vector<std::shared_ptr<const FloatConstant>> constants;
  /// The nodes in the order their steps were built (a stable topological order), with the
  /// backend that runs each.
  std::vector<NodePlacement> placement;
};

/// The backends of `options.fallback` other than `self`, in order, found with find_backend().
/// Throws Error(Invalid) naming an unregistered one.
std::vector<std::shared_ptr<const Backend>> fallback_backends(const BackendOptions& options, std::string_view self);

/// The loop: refuses check() errors (except on custom nodes), checks graph inputs (known types)
/// and outputs (in range), converts constants, then for each node in topological_order(g):
/// checks its ids and that each input has data (a graph input, a constant with data, an earlier
/// node's output; an external-data constant's key is named), picks the backend (this one when
/// has_kernel(), else the fallback backends in order), resolves the output types, and builds
/// the step: build() on this backend, or a ForeignNode prepared by the first fallback backend
/// that accepts the one-node graph, with `options` whole (custom kernels, extensions, threads,
/// namespaced options) and `fallback` set to the backends after it. Errors name the node
/// (`node 3 "name" (Op)`, where = "nodes[3]"). `threads` is what NodeContext::threads carries.
/// A node whose inputs are all constants (or a Shape / Size / Rank of a known type) with small
/// integer or bool outputs that are not graph outputs is run at prepare (NodeBuilder::evaluate)
/// and its outputs become constants (all such nodes with BackendOptions::fold_all_constants); an
/// Identity of a constant that is not a graph output becomes that constant, whatever its size. A node that needs the value
/// of a non-constant input, an output type left unknown behind one, or a graph input with a -1 dim
/// throws NeedsValue (nnbridge/exec/node_context.h), which the backends answer with an input-bound
/// plan (nnbridge/exec/input_bound.h).
/// Finally every graph output must have a fully known type (Error(Unsupported) otherwise).
PreparedGraph prepare_nodes(const Graph& g, const BackendOptions& options, std::string_view self, int threads,
                            NodeBuilder& builder);

/// "node 3 \"name\" (Op)": how errors name a node.
std::string node_label(const Graph& g, std::size_t i);

}  // namespace nnbridge::exec
