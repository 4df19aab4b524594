// slice_steps_as_strided_slice of nnbridge/rewrite.h: ONNX's Slice with steps as TensorFlow's
// StridedSlice (for formats whose Slice takes no steps).
#include <algorithm>
#include <vector>

#include "nnbridge/rewrite.h"
#include "rewrite_edit.h"
#include "rewrite_fold_tensor.h"

namespace nnbridge {

using namespace rewrite_detail;

std::size_t slice_steps_as_strided_slice(Graph& g) {
  std::size_t changed = 0;
  for (Node& n : g.nodes) {
    if (n.op != "Slice" || n.inputs.size() < 5 || n.outputs.size() != 1) continue;
    const TensorType* xt = type_at(g, n, 0);
    if (!xt || !xt->fully_known()) continue;
    auto starts = ints_operand(g, n, 1, "starts"), ends = ints_operand(g, n, 2, "ends"), axes = ints_operand(g, n, 3, "axes"),
         steps = ints_operand(g, n, 4, "steps");
    const std::size_t k = starts ? starts->size() : 0, r = xt->shape.size();
    if (!starts || !ends || !axes || !steps || ends->size() != k || (!axes->empty() && axes->size() != k) ||
        steps->size() != k || std::all_of(steps->begin(), steps->end(), [](int64_t s) { return s == 1; }))
      continue;
    // ONNX Slice-13 resolved per dim with the input's dims: a negative start / end counts from
    // the back, then both clamp to [0, dim] (positive steps only here). TensorFlow's StridedSlice
    // (Arm NN StridedSlice) takes those begin / end / strides, one entry per input dim, unclamped
    // and unmasked: the same elements.
    Ints begin(r, 0), end = xt->shape, strides(r, 1);
    std::vector<bool> seen(r, false);
    bool ok = true;
    for (std::size_t j = 0; j < k && ok; ++j) {
      int64_t ax = axes->empty() ? int64_t(j) : (*axes)[j];
      if (ax < 0) ax += int64_t(r);
      ok = ax >= 0 && ax < int64_t(r) && !seen[std::size_t(ax)] && (*steps)[j] > 0;
      if (!ok) break;
      seen[std::size_t(ax)] = true;
      const int64_t len = xt->shape[std::size_t(ax)];
      int64_t b = (*starts)[j], e = (*ends)[j];
      if (b < 0) b += len;
      if (e < 0) e += len;
      begin[std::size_t(ax)] = std::clamp<int64_t>(b, 0, len);
      end[std::size_t(ax)] = std::clamp<int64_t>(e, 0, len);
      strides[std::size_t(ax)] = (*steps)[j];
    }
    if (!ok) continue;
    n.op = "StridedSlice";
    n.inputs.resize(1);
    n.attrs = {{"begin", Attr(begin)}, {"end", Attr(end)}, {"strides", Attr(strides)}};
    ++changed;
  }
  if (changed) remove_nodes(g, std::vector<bool>(g.nodes.size(), false));  // the operand constants
  return changed;
}

}  // namespace nnbridge
