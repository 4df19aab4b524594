// slice_steps_as_strided_slice of nnbridge/rewrite.h: ONNX's Slice with steps as TensorFlow's
// StridedSlice (for formats whose Slice takes no steps).
#include <algorithm>
#include <optional>
#include <vector>

#include "nnbridge/rewrite.h"
#include "rewrite_edit.h"

namespace nnbridge {

using namespace rewrite_detail;

namespace {

// Slice operand k as ints: a constant int64 / int32 input, or absent (empty).
std::optional<Ints> operand(const Graph& g, const Node& n, std::size_t k) {
  if (k >= n.inputs.size() || n.inputs[k] == kNoValue) return Ints{};
  const Value& v = g.values.at(n.inputs[k]);
  if (!v.constant || v.type.shape.size() != 1) return std::nullopt;
  Ints out;
  const std::size_t count = v.type.dtype == DataType::Int64 ? v.constant->size() / 8 : v.constant->size() / 4;
  for (std::size_t i = 0; i < count; ++i) {
    if (v.type.dtype == DataType::Int64) {
      int64_t x;
      std::memcpy(&x, v.constant->data() + 8 * i, 8);
      out.push_back(x);
    } else if (v.type.dtype == DataType::Int32) {
      int32_t x;
      std::memcpy(&x, v.constant->data() + 4 * i, 4);
      out.push_back(x);
    } else {
      return std::nullopt;
    }
  }
  return out;
}

}  // namespace

std::size_t slice_steps_as_strided_slice(Graph& g) {
  std::size_t changed = 0;
  for (Node& n : g.nodes) {
    if (n.op != "Slice" || n.inputs.size() < 5 || n.outputs.size() != 1) continue;
    const TensorType* xt = type_at(g, n, 0);
    if (!xt || !xt->fully_known()) continue;
    auto starts = operand(g, n, 1), ends = operand(g, n, 2), axes = operand(g, n, 3), steps = operand(g, n, 4);
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
