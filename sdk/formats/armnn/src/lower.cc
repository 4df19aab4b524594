// Rewrites before the Arm NN writer maps a graph (the core rewrites of nnbridge/rewrite.h),
// for graphs that say less than an Arm NN file must: value types left to shape inference
// (ONNX models without value_info), Transpose without perm (Arm NN's dimMappings are always
// given), auto_pad (Arm NN has explicit pads only), Reshape's shape and the other operand
// inputs (Tile repeats, Slice starts / ends / axes / steps, Pad pads and constant_value, Split
// split, Clip min / max, ReduceSum axes, Resize sizes: Arm NN's descriptors hold them, so they
// must be constants; operands_as_attributes gives the descriptor form the table's rows read,
// run last); and ops Arm NN has no layer
// for but can compute: Identity (dropped), GlobalAveragePool / GlobalMaxPool (a Pooling2d over
// the plane), Flatten / Squeeze / Unsqueeze (a Reshape). A graph that needs none of them is not
// copied, so a graph read from an Arm NN file is written from itself.
#include <optional>
#include <string>

#include "internal.h"
#include "nnbridge/rewrite.h"

namespace nnbridge::formats::armnn {

namespace {

bool needs_lowering(const Graph& g) {
  for (const Node& n : g.nodes) {
    // A dtype or rank left unknown (an Arm NN file has neither); single unknown dims are kept.
    for (ValueId v : n.outputs)
      if (v < g.values.size() && (g.values[v].type.dtype == DataType::Undefined || g.values[v].type.unknown_rank))
        return true;
    if (n.op == "Transpose" && !n.attrs.count("perm")) return true;
    if (n.op == "Reshape" && n.inputs.size() == 2) return true;
    if (has_operand_inputs(n)) return true;
    if (n.op == "Identity" && !n.attrs.count("armnn.layer")) return true;
    if (n.op == "GlobalAveragePool" || n.op == "GlobalMaxPool" || n.op == "Flatten" || n.op == "Squeeze" ||
        n.op == "Unsqueeze")
      return true;
    if (auto it = n.attrs.find("auto_pad");
        it != n.attrs.end() && it->second.is<std::string>() && it->second.get<std::string>() != "NOTSET")
      return true;
  }
  return false;
}

}  // namespace

std::optional<Graph> lower_for_armnn(const Graph& g) {
  if (!needs_lowering(g)) return std::nullopt;
  Graph out = g;
  infer_missing_types(out);
  drop_identity(out, "armnn.");
  global_pools_as_windows(out);
  shape_ops_as_reshape(out, "armnn.");
  explicit_transpose_perm(out);
  explicit_pads(out);
  reshape_shape_as_attribute(out);
  operands_as_attributes(out);
  require_constant_operands(out, "Arm NN");
  return out;
}

}  // namespace nnbridge::formats::armnn
