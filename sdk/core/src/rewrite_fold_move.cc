// The data-movement ops fold_shape_arithmetic (nnbridge/rewrite.h) evaluates on constants:
// Gather, Transpose, Concat, Slice and ScatterND, each as an output shape and, per output
// element, the input element it copies (take(), rewrite_fold_tensor.h).
#include <algorithm>
#include <vector>

#include "rewrite_edit.h"
#include "rewrite_fold_tensor.h"

namespace nnbridge::rewrite_detail {

// ONNX Gather-13 on any axis: out = data.shape[:axis] + indices.shape + data.shape[axis+1:].
std::optional<Folded> fold_gather(const Graph& g, const Node& n, const Folded& a) {
  auto idx = n.inputs.size() == 2 ? int_input(g, n, 1) : std::nullopt;
  const int64_t r = int64_t(a.shape.size());
  int64_t axis = int_or(n, "axis", 0);
  if (axis < 0) axis += r;
  if (!idx || axis < 0 || axis >= r) return std::nullopt;
  const std::size_t ax = std::size_t(axis);
  const int64_t len = a.shape[ax];
  std::size_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < ax; ++d) outer *= std::size_t(a.shape[d]);
  for (std::size_t d = ax + 1; d < a.shape.size(); ++d) inner *= std::size_t(a.shape[d]);
  if (outer * idx->ints.size() * inner > kMaxFolded) return std::nullopt;
  Ints shape(a.shape.begin(), a.shape.begin() + axis);
  shape.insert(shape.end(), idx->shape.begin(), idx->shape.end());
  shape.insert(shape.end(), a.shape.begin() + axis + 1, a.shape.end());
  std::vector<std::size_t> src;
  for (std::size_t o = 0; o < outer; ++o)
    for (int64_t i : idx->ints) {
      if (i < -len || i >= len) return std::nullopt;
      const std::size_t row = std::size_t(i < 0 ? i + len : i);
      for (std::size_t k = 0; k < inner; ++k) src.push_back((o * std::size_t(len) + row) * inner + k);
    }
  return take(a, shape, src);
}

// ONNX Transpose-13: output dim i is input dim perm[i]; no perm reverses the dims.
std::optional<Folded> fold_transpose(const Node& n, const Folded& a) {
  const std::size_t r = a.shape.size();
  Ints perm(r);
  for (std::size_t i = 0; i < r; ++i) perm[i] = int64_t(r - 1 - i);
  if (const Attr* p = find(n, "perm"); p && p->is<Ints>()) perm = p->get<Ints>();
  if (perm.size() != r) return std::nullopt;
  std::vector<bool> seen(r, false);
  for (int64_t d : perm) {
    if (d < 0 || d >= int64_t(r) || seen[std::size_t(d)]) return std::nullopt;
    seen[std::size_t(d)] = true;
  }
  const Ints in_stride = strides_of(a.shape);
  Ints out_shape(r);
  for (std::size_t i = 0; i < r; ++i) out_shape[i] = a.shape[std::size_t(perm[i])];
  std::vector<std::size_t> src(a.size());
  Ints idx(r, 0);
  for (std::size_t k = 0; k < src.size(); ++k) {
    int64_t s = 0;
    for (std::size_t i = 0; i < r; ++i) s += idx[i] * in_stride[std::size_t(perm[i])];
    src[k] = std::size_t(s);
    for (std::size_t i = r; i-- > 0;) {
      if (++idx[i] < out_shape[i]) break;
      idx[i] = 0;
    }
  }
  return take(a, out_shape, src);
}

// ONNX Concat-13 on any axis of inputs of one dtype and rank.
std::optional<Folded> fold_concat(const Graph& g, const Node& n, const Folded& a) {
  const int64_t r = int64_t(a.shape.size());
  int64_t axis = int_or(n, "axis", 0);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) return std::nullopt;
  const std::size_t ax = std::size_t(axis);
  std::vector<Folded> in;
  Ints shape = a.shape;
  shape[ax] = 0;
  for (ValueId v : n.inputs) {
    auto t = folded_constant(g, v);
    if (!t || t->dtype != a.dtype || t->shape.size() != a.shape.size()) return std::nullopt;
    for (std::size_t d = 0; d < a.shape.size(); ++d)
      if (d != ax && t->shape[d] != a.shape[d]) return std::nullopt;
    shape[ax] += t->shape[ax];
    in.push_back(std::move(*t));
  }
  std::size_t outer = 1, inner = 1, total = 0;
  for (std::size_t d = 0; d < ax; ++d) outer *= std::size_t(a.shape[d]);
  for (std::size_t d = ax + 1; d < a.shape.size(); ++d) inner *= std::size_t(a.shape[d]);
  for (const Folded& t : in) total += t.size();
  if (total > kMaxFolded) return std::nullopt;
  Folded out{a.dtype, shape, {}, {}};
  for (std::size_t o = 0; o < outer; ++o)
    for (const Folded& t : in) {
      const std::size_t block = std::size_t(t.shape[ax]) * inner;
      if (t.real()) out.reals.insert(out.reals.end(), t.reals.begin() + std::ptrdiff_t(o * block), t.reals.begin() + std::ptrdiff_t((o + 1) * block));
      else out.ints.insert(out.ints.end(), t.ints.begin() + std::ptrdiff_t(o * block), t.ints.begin() + std::ptrdiff_t((o + 1) * block));
    }
  return out;
}

std::optional<Folded> fold_slice(const Graph& g, const Node& n, const Folded& a) {
  auto starts = ints_operand(g, n, 1, "starts"), ends = ints_operand(g, n, 2, "ends");
  auto axes = ints_operand(g, n, 3, "axes"), steps = ints_operand(g, n, 4, "steps");
  const std::size_t r = a.shape.size(), k = starts ? starts->size() : 0;
  if (!starts || !ends || !axes || !steps || ends->size() != k || (!axes->empty() && axes->size() != k) ||
      (!steps->empty() && steps->size() != k))
    return std::nullopt;
  // ONNX Slice-13 per sliced axis: negative starts / ends count from the back; then with a
  // positive step start and end clamp to [0, len], with a negative one start to [0, len - 1]
  // and end to [-1, len - 1]; the elements are start, start + step, ... short of end.
  Ints first(r, 0), step(r, 1), out_shape = a.shape;
  std::vector<bool> sliced(r, false);
  for (std::size_t j = 0; j < k; ++j) {
    int64_t ax = axes->empty() ? int64_t(j) : (*axes)[j];
    if (ax < 0) ax += int64_t(r);
    const int64_t st = steps->empty() ? 1 : (*steps)[j];
    if (ax < 0 || ax >= int64_t(r) || sliced[std::size_t(ax)] || st == 0) return std::nullopt;
    sliced[std::size_t(ax)] = true;
    const int64_t len = a.shape[std::size_t(ax)];
    int64_t b = (*starts)[j], e = (*ends)[j];
    if (b < 0) b += len;
    if (e < 0) e += len;
    int64_t count;
    if (st > 0) {
      b = std::clamp<int64_t>(b, 0, len);
      e = std::clamp<int64_t>(e, 0, len);
      count = e > b ? (e - b + st - 1) / st : 0;
    } else {
      b = std::clamp<int64_t>(b, 0, len - 1);
      e = std::clamp<int64_t>(e, -1, len - 1);
      count = b > e ? (b - e - st - 1) / -st : 0;
    }
    first[std::size_t(ax)] = b;
    step[std::size_t(ax)] = st;
    out_shape[std::size_t(ax)] = count;
  }
  const Ints stride = strides_of(a.shape);
  std::size_t total = 1;
  for (int64_t d : out_shape) total *= std::size_t(d);
  std::vector<std::size_t> src(total);
  Ints idx(r, 0);
  for (std::size_t q = 0; q < total; ++q) {
    int64_t s = 0;
    for (std::size_t d = 0; d < r; ++d) s += (first[d] + idx[d] * step[d]) * stride[d];
    src[q] = std::size_t(s);
    for (std::size_t d = r; d-- > 0;) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return take(a, out_shape, src);
}

// ONNX ScatterND-13 (reduction none): data with the slices the index tuples name replaced by
// updates; a negative index counts from the back (as ONNX Runtime reads it); out of range, or two
// tuples naming one slice (ONNX leaves the order undefined), is left unfolded.
std::optional<Folded> fold_scatter_nd(const Graph& g, const Node& n, const Folded& data) {
  auto idx = n.inputs.size() == 3 ? int_input(g, n, 1) : std::nullopt;
  auto upd = n.inputs.size() == 3 ? folded_constant(g, n.inputs[2]) : std::nullopt;
  if (!idx || !upd || upd->dtype != data.dtype || idx->shape.empty() || str_or(n, "reduction", "none") != "none")
    return std::nullopt;
  const std::size_t k = std::size_t(idx->shape.back()), r = data.shape.size();
  if (k < 1 || k > r) return std::nullopt;
  Ints want(idx->shape.begin(), idx->shape.end() - 1);
  want.insert(want.end(), data.shape.begin() + std::ptrdiff_t(k), data.shape.end());
  if (upd->shape != want) return std::nullopt;
  const Ints stride = strides_of(data.shape);
  const std::size_t block = r == k ? 1 : std::size_t(stride[k - 1]);
  Folded out = data;
  std::vector<bool> written(data.size() / std::max<std::size_t>(block, 1) + 1, false);
  for (std::size_t t = 0; t * k < idx->ints.size(); ++t) {
    int64_t offset = 0;
    for (std::size_t j = 0; j < k; ++j) {
      int64_t i = idx->ints[t * k + j];
      const int64_t len = data.shape[j];
      if (i < -len || i >= len) return std::nullopt;
      offset += (i < 0 ? i + len : i) * stride[j];
    }
    const std::size_t at = std::size_t(offset);
    if (block == 0) continue;
    if (written[at / block]) return std::nullopt;
    written[at / block] = true;
    for (std::size_t e = 0; e < block; ++e) {
      if (out.real()) out.reals[at + e] = upd->reals[t * block + e];
      else out.ints[at + e] = upd->ints[t * block + e];
    }
  }
  return out;
}

}  // namespace nnbridge::rewrite_detail
