// tanh_as_scaled_tanh and reciprocal_sqrt_as_rsqrt of nnbridge/rewrite.h: ONNX's unary forms as
// the ones Arm NN has (its Activation TanH, its ElementwiseUnary Rsqrt).
#include <vector>

#include "nnbridge/rewrite.h"
#include "rewrite_edit.h"

namespace nnbridge {

using namespace rewrite_detail;

std::size_t tanh_as_scaled_tanh(Graph& g) {
  std::size_t changed = 0;
  for (Node& n : g.nodes) {
    if (n.op != "Tanh" || n.inputs.size() != 1 || n.outputs.size() != 1) continue;
    // ONNX Tanh-13: tanh(X) = 1 * tanh(1 * X), ScaledTanh with alpha = beta = 1.
    n.op = "ScaledTanh";
    n.attrs["alpha"] = Attr(1.0);
    n.attrs["beta"] = Attr(1.0);
    ++changed;
  }
  return changed;
}

std::size_t reciprocal_sqrt_as_rsqrt(Graph& g) {
  std::size_t changed = 0;
  const std::vector<long> producer = producers(g);
  const std::vector<int> readers = reader_counts(g);
  std::vector<bool> drop(g.nodes.size(), false);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    if (n.op != "Reciprocal" || n.inputs.size() != 1 || !valid(g, n.inputs[0])) continue;
    const long p = producer[n.inputs[0]];
    if (p < 0 || drop[std::size_t(p)] || readers[n.inputs[0]] != 1) continue;
    const Node& root = g.nodes[std::size_t(p)];
    if (root.op != "Sqrt" || root.inputs.size() != 1) continue;
    // ONNX Reciprocal-13 of Sqrt-13: 1 / sqrt(X), Rsqrt's definition; the Sqrt had no other reader.
    n.op = "Rsqrt";
    n.inputs[0] = root.inputs[0];
    drop[std::size_t(p)] = true;
    ++changed;
  }
  if (changed) remove_nodes(g, drop);
  return changed;
}

}  // namespace nnbridge
