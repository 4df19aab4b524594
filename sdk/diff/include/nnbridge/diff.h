// Semantic diff of two graphs (`nnbridge diff A B`, Python nnbridge.diff).
//
// What "same" means. Two graphs are compared after both are brought to one normal form, so
// that what a conversion rewrites without changing the computation is not a difference:
// - the format-neutral rewrites writers apply (nnbridge/rewrite.h, docs/architecture.md
//   "Fidelity rules" 5): value types left to shape inference filled in, Transpose's default
//   perm, auto_pad as pads, pads that differ at the two ends of a dim as an explicit Pad,
//   Identity nodes dropped, global pools as one window, Flatten / Squeeze / Unsqueeze and a
//   constant Reshape shape as Reshape's `shape` attribute;
// - absent optional inputs at the end of a node's inputs removed (ONNX IR: trailing optional
//   inputs may be left out), and so are a last input that is the constant ONNX means by its
//   absence: Pad's constant_value 0 (Pad-13), Slice's steps all 1 (Slice-13);
// - a Conv / ConvTranspose whose W is a constant in another `kernel_layout` (Arm NN's OHWI, 1HWO,
//   MIHW) gets W permuted into the schema's default (OIHW; IOHW for ConvTranspose): depthwise
//   [M, I, H, W] becomes [I * M, 1, H, W], output channel i * M + m as ONNX groups order them;
// - a Conv / ConvTranspose without `kernel_shape` gets W's spatial dims (ONNX Conv-11: "If not
//   present, should be inferred from input W"), by its `kernel_layout`;
// - absent `strides` / `dilations` of a windowed op (one whose schema has them) are 1 and absent
//   `pads` (auto_pad NOTSET) 0 per spatial dim, as ONNX Conv-11 / MaxPool-12 define them.
// A rewrite that cannot apply to a graph (a type it needs unknown) leaves it as it is.
// Format-specific lowering that adds or replaces nodes (the VkGraph writer's Transposes around
// NHWC ops, its folded BatchNormalization, Arm NN activations as Mul / Add) is not undone: those
// graphs differ, node by node.
//
// Differences fall in three categories (DiffCategory); every reported difference makes the
// graphs differ (GraphDiff::same() false, CLI exit 1):
// - Semantic: what the graph computes. An input, output or node without a counterpart; a
//   node's canonical op; its canonical attributes (names without a dot) compared with the op
//   schema's defaults applied (nnbridge/op_schema.h: an absent attribute equals its default),
//   floats compared as float32 (the precision ONNX's AttributeProto and Arm NN's descriptors
//   store them in, and kernels compute in);
//   how its inputs are wired; the dtype, shape and quantization of graph inputs, graph outputs,
//   node outputs and constants; constant values (largest absolute difference in real values,
//   quantized types dequantized, and largest ULP distance: nnbridge::compare_outputs(),
//   nnbridge/exec.h, the rule `validate` uses). Constants equal as numbers (+0 and -0, NaNs of
//   any payload) are the same. A constant whose data was not loaded compares by its
//   `external_data.key`. For a format-native op (its name has a dot: `armnn.StandIn`, `vk.*`,
//   `gl.Program`) the namespaced attributes are its only description and are semantic too.
// - Name: the names of graph inputs, graph outputs and nodes (the interface callers bind by
//   name: `run --inputs DIR` reads DIR/<input name>.npy). Names of intermediate values and
//   constants are not compared. DiffOptions::ignore_names leaves names out of the matching and
//   of the report.
// - Metadata: format vocabulary: Graph::source_format, graph metadata, and namespaced
//   attributes (`armnn.*`, `vk.*`, `onnx.*`, ...) of canonical nodes and of values. A file
//   converted to another format differs in all of these by construction;
//   DiffOptions::ignore_metadata neither compares nor reports them.
//
// Matching, O(n log n) in the number of nodes and input slots. Graph inputs: by name, then the
// rest by position. Nodes: by name (non-empty names unique in both graphs), then the rest by
// topology: nodes are visited in A's topological order, and a node whose inputs all correspond
// to B values is paired with an unpaired B node of the same op reading the corresponding values
// (found through a hashed signature, not a pairwise search; absent inputs and constants are
// left out of it); then, in a second pass, with a node of another op when neither op has an
// unpaired node left on the other side (a swapped op is an Op difference, but a node the other
// graph wraps in new nodes is not paired with one of those). Paired nodes' outputs correspond
// slot by slot. Graph outputs: by name, then by the correspondence of the value, then by
// position. With ignore_names the name steps are skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge {

struct DiffOptions {
  /// Match by topology and position only, and do not report names (DiffCategory::Name).
  bool ignore_names = false;
  /// Do not compare or report format vocabulary (DiffCategory::Metadata).
  bool ignore_metadata = false;
};

/// The category of a difference (see the file comment for the rule).
enum class DiffCategory { Semantic, Name, Metadata };

/// What differs. The JSON and Python spellings are in to_string().
enum class DiffKind {
  OnlyInA,    ///< a graph input, graph output or node of A without a counterpart in B
  OnlyInB,    ///< the same for B
  Name,       ///< a paired graph input, graph output or node named differently
  Op,         ///< paired nodes with different ops
  Attribute,  ///< a canonical attribute (key) of paired nodes, schema defaults applied
  Arity,      ///< paired nodes with different input or output counts (key "inputs" / "outputs")
  Wiring,     ///< an input slot fed by values that do not correspond, or a graph output computed elsewhere
  Type,       ///< dtype, shape or quantization (key) of corresponding values
  Constant,   ///< constant values of the same type that differ (see the statistics)
  Metadata,   ///< format vocabulary: source_format, graph metadata, a namespaced attribute (key)
};

/// What a difference is about.
enum class DiffSubject { Graph, Input, Output, Node };

std::string_view to_string(DiffCategory c);  ///< "semantic", "name", "metadata"
std::string_view to_string(DiffKind k);      ///< "only_in_a", "only_in_b", "name", "op", "attribute", "arity", "wiring", "type", "constant", "metadata"
std::string_view to_string(DiffSubject s);   ///< "graph", "input", "output", "node"

/// One difference.
struct Difference {
  DiffCategory category = DiffCategory::Semantic;
  DiffKind kind = DiffKind::OnlyInA;
  DiffSubject subject = DiffSubject::Graph;
  /// The subject's index in each graph (position in Graph::inputs / Graph::outputs, index in
  /// Graph::nodes), unset on a side without it (and for DiffSubject::Graph).
  std::optional<std::size_t> a_index, b_index;
  std::string a_name, b_name;  ///< the subject's name in each graph (a node's name, an input's value name)
  std::string a_op, b_op;      ///< a node's op in each graph (node subjects only)
  /// Which part of a node: "inputs[i]" or "outputs[i]"; empty for the subject itself.
  std::string place;
  /// An attribute or metadata name; for Type "dtype", "shape" or "quantization"; for Arity
  /// "inputs" or "outputs"; empty otherwise.
  std::string key;
  /// Each side's value as text: an attribute as JSON (absent: "(absent)"), a dtype name, a
  /// shape "[1, 3, -1]", a count, a value's name for Wiring and Constant. Empty when unused.
  /// For Wiring, where both sides' values have the same name, each also names the node that
  /// makes it: `conv (made by node "conv_to_nhwc", Transpose)`.
  std::string a, b;
  // Constant only (kind Constant): over the elements of two constants of the same type.
  std::int64_t elements = 0;            ///< elements in each constant
  std::int64_t elements_differing = 0;  ///< elements not equal as numbers (NaN equals NaN)
  /// Index (C order) of the first differing element, and each side's value there.
  std::int64_t first_index = -1;
  double first_a = 0, first_b = 0;
  double max_abs_diff = 0;  ///< largest |a - b| in real values (a NaN against a number: inf)
  /// Largest distance in units in the last place (nnbridge::ulp_distance: float types in their
  /// own units, integer and quantized types in storage integers; kUlpNaNMismatch for a NaN
  /// against a number).
  std::uint64_t max_ulp = 0;

  /// One line for people, e.g. `node "conv" (Conv) inputs[1] "conv.weights": constant: 1 of
  /// 54 elements differ (first [3]: 0.25 vs 0.5), max abs 0.25, max ULP 8388608`.
  std::string message() const;
};

/// A pair of nodes that correspond, and how they were paired.
struct NodeMatch {
  std::size_t a = 0, b = 0;  ///< indices in Graph::nodes of each graph
  enum class By { Name, Topology } by = By::Name;
};

/// The result of diff().
struct GraphDiff {
  DiffOptions options;
  /// Paired graph inputs and outputs (positions in Graph::inputs / Graph::outputs of each).
  std::vector<std::pair<std::size_t, std::size_t>> inputs, outputs;
  std::vector<NodeMatch> nodes;  ///< in A's node order
  /// Node counts of the two graphs in normal form (what was compared).
  std::size_t a_nodes = 0, b_nodes = 0;
  std::string a_format, b_format;  ///< each graph's source_format
  /// Every difference: graph-level first, then graph inputs, nodes in A's order, graph outputs,
  /// then what exists only in B. Deterministic for the same two graphs.
  std::vector<Difference> differences;

  /// True when nothing is reported (names and metadata count unless the options ignore them).
  bool same() const { return differences.empty(); }
  /// The number of differences of category `c`.
  std::size_t count(DiffCategory c) const;
};

/// Compares `a` with `b` (see the file comment). Neither graph is changed; the comparison is
/// of copies in normal form. Throws Error only for a graph whose ids are out of range (the
/// checker's findings: a node input or graph output past Graph::values); a graph with a cycle
/// is compared in its stored node order.
GraphDiff diff(const Graph& a, const Graph& b, const DiffOptions& options = {});

/// The report as text for a terminal: a summary of what was paired, then each category's
/// differences under its heading ("semantic", "names", "format vocabulary"), one per line.
/// `a_label` / `b_label` name the two graphs (file names). `a_file_format` / `b_file_format`,
/// when given, are the formats of the files themselves: where one differs from its graph's
/// source_format (an IR JSON of an Arm NN graph), the header says both ("json from armnn"), as
/// `nnbridge info` does.
std::string to_text(const GraphDiff& d, std::string_view a_label = "A", std::string_view b_label = "B",
                    std::string_view a_file_format = {}, std::string_view b_file_format = {});

/// The report as JSON (stable, version 1; docs/api.md "Semantic diff"):
///   {"format": "nnbridge-diff", "version": 1, "same": false,
///    "a": {"file": <a_label>, "format": "armnn", "nodes": 2},  "b": {...},
///    "options": {"ignore_names": false, "ignore_metadata": false},
///    "counts": {"semantic": 1, "name": 0, "metadata": 0},
///    "matches": {"inputs": [[0, 0]], "outputs": [[0, 0]],
///                "nodes": [{"a": 0, "b": 0, "by": "name"|"topology"}]},
///    "differences": [{"category": "semantic", "kind": "constant", "subject": "node",
///        "a_index": 0, "b_index": 0, "a_name": "conv", "b_name": "conv", "a_op": "Conv", "b_op": "Conv",
///        "place": "inputs[1]", "key": "", "a": "conv.weights", "b": "conv.weights",
///        "elements": 54, "elements_differing": 1, "first_index": 3, "first_a": 0.25, "first_b": 0.5,
///        "max_abs_diff": 0.25, "max_ulp": 8388608, "message": "..."}]}
/// Keys always present in a difference: category, kind, subject, place, key, a, b, message;
/// a_index / b_index / a_name / b_name / a_op / b_op only for a side that has the subject
/// (a_op / b_op for nodes); the constant statistics only for kind "constant". Non-finite
/// numbers are written as the strings "inf" / "nan". `indent` -1 writes one line.
std::string to_json(const GraphDiff& d, std::string_view a_label = "A", std::string_view b_label = "B", int indent = 2);

}  // namespace nnbridge
