// Pictures of a graph: the Graphviz DOT text of a Graph and its rendering (SVG, PNG, PDF)
// through Graphviz's own libraries (cgraph builds the graph, gvc lays it out with `dot` and
// renders it). `nnbridge draw` and Python's Graph.to_dot() / Graph._repr_svg_() use these.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge {

/// How a graph is drawn.
struct DrawOptions {
  /// The file's own vocabulary instead of canonical ops, where the IR keeps it: Arm NN layer
  /// types (`Convolution2d`, `DepthwiseConvolution2d`: the layer the armnn writer writes the node
  /// as, nnbridge/formats/armnn.h layer_type_name), VkGraph operator names (`vk.name`, e.g.
  /// `aten.convolution.default`), `Program` for a TFLite GL compiled-model program, and a
  /// format-native op without its prefix (`StandIn` for `armnn.StandIn`). The canonical op is
  /// then shown under it when it differs. Graphs of other formats show canonical ops either way.
  bool native = false;
  /// The most boxes (nodes plus graph inputs, drawn_node_count) a drawing may hold; 0: no limit.
  /// Graphviz's layout time grows faster than linearly with size.
  std::size_t max_nodes = 2000;
  /// Graphviz's rankdir: "TB" (top to bottom, the default), "LR", "BT" or "RL".
  std::string rankdir = "TB";
  /// How many levels of name scopes are boxed: nodes whose names share a '/'-separated prefix
  /// (PyTorch's "/layer1/layer1.0/conv1/Conv", TensorFlow's "MobilenetV1/Conv2d_0/Relu6": every
  /// part but the last is a scope) are drawn inside a Graphviz cluster labelled with the scope's
  /// own part ("layer1.0"), nested as the names nest. A scope holding a single node is no box.
  /// -1: every level; 0: no boxes; N: the outermost N levels.
  int scopes = -1;
};

/// The picture formats render() writes, by file extension (without the dot): "svg", "png",
/// "pdf", and "dot" / "gv" (the DOT text of to_dot, not laid out).
std::vector<std::string> draw_formats();
/// The draw format of `path`'s extension (case-insensitive; "gv" gives "dot"), or "" when the
/// extension is none of draw_formats().
std::string draw_format_of(const std::filesystem::path& path);

/// The boxes a drawing of `g` holds: one per graph input and one per node. Constants are not
/// boxes: each is a note in the label of every node that reads it.
std::size_t drawn_node_count(const Graph& g);

/// The graph as Graphviz DOT text (a `digraph`), built with Graphviz's cgraph library:
/// - a graph input is an ellipse labelled with its name, dtype and shape;
/// - a node is a box labelled with its op (bold), its name when it has one, its canonical
///   attributes (names without a dot) other than those equal to the op schema's default (a list
///   of more than 8 items shows its first and last 4 and its length, text is cut at 40
///   characters, bytes show their size; at most 8 attributes, then "+N more attributes"), and
///   one note per constant input ("<name> float32 [64, 3, 3, 3]", the name without the node's
///   name before it, with the values when it has at most 8 elements, floats to 4 significant digits; at most 6 notes, then "+N more constants"): constant data is never drawn
///   beyond that (a TFLite GL `gl.Program` shows its shader_index and number_workgroups);
/// - a node that produces a graph output has a thick border, a green fill, and a line per output
///   ("output <name>  <type>"); a graph input that is also a graph output says so; a node whose
///   op has no canonical schema (a format-native op) is filled orange;
/// - an edge goes from the producer of each non-constant node input (a node or a graph input) to
///   the node, labelled with the tensor's dtype and shape ("float32 [1, 8, 8, 1]"; what the file
///   leaves unknown, as PyTorch's ONNX exports do for inner tensors, is filled by op-schema shape
///   inference first, nnbridge/rewrite.h infer_missing_types; "?" for a dimension still
///   unknown, "[*]" for an unknown rank; a per-tensor quantized type adds its scale and
///   zero point). An input that nothing produces and that is no graph input is a note
///   ("<name> (no producer)").
/// - nodes that share a name scope are boxed in a cluster `cluster_<k>` (DrawOptions::scopes),
///   clusters nested as the scopes are; graph inputs stay outside every box. The IR has no
///   graph-valued attributes (control flow is refused by the readers): scopes are the only
///   subgraphs a file has.
/// Throws Error(Unsupported) naming max_nodes when drawn_node_count(g) exceeds
/// options.max_nodes (when not 0), Error(Invalid) for a rankdir other than TB, LR, BT, RL, for
/// scopes below -1 and for a value id outside `g.values`.
std::string to_dot(const Graph& g, const DrawOptions& options = {});

/// The drawing laid out by Graphviz's `dot` engine and rendered as `format` ("svg", "png",
/// "pdf"; "dot" returns to_dot's text): the file's bytes. Throws as to_dot, and
/// Error(Unsupported) for another format or one this Graphviz installation cannot render
/// (a plugin missing), with Graphviz's own message.
std::string render_bytes(const Graph& g, std::string_view format, const DrawOptions& options = {});

/// Renders the drawing into `path`, in the format of its extension (draw_format_of); writes a
/// temporary file beside it and renames it (write_file_atomic), so a failure leaves no partial
/// file and an existing one untouched. Throws Error(Unsupported) naming the file for an unknown
/// extension, Error(Io) naming the file when it cannot be written, and as render_bytes.
void render(const Graph& g, const std::filesystem::path& path, const DrawOptions& options = {});

}  // namespace nnbridge
