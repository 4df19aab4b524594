// The folded-constant helpers of rewrite_fold_tensor.h.
#include "rewrite_fold_tensor.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include "rewrite_edit.h"

namespace nnbridge::rewrite_detail {

bool foldable_dtype(DataType dt) {
  return dt == DataType::Int64 || dt == DataType::Int32 || dt == DataType::Bool || dt == DataType::Float32 ||
         dt == DataType::Float64;
}

std::optional<Folded> folded_constant(const Graph& g, ValueId v) {
  if (!valid(g, v)) return std::nullopt;
  const Value& val = g.values[v];
  const DataType dt = val.type.dtype;
  if (!val.constant || val.type.unknown_rank || val.type.quantization || !foldable_dtype(dt)) return std::nullopt;
  const std::size_t es = dt == DataType::Int64 || dt == DataType::Float64 ? 8 : dt == DataType::Bool ? 1 : 4;
  const std::size_t n = val.constant->size() / es;
  auto count = val.type.element_count();
  if (!count || std::size_t(*count) != n || val.constant->size() != n * es || n > kMaxFolded) return std::nullopt;
  Folded t;
  t.dtype = dt;
  t.shape = val.type.shape;
  const std::byte* p = val.constant->data();
  if (t.real()) t.reals.resize(n);
  else t.ints.resize(n);
  for (std::size_t i = 0; i < n; ++i, p += es) {
    switch (dt) {
      case DataType::Int64: std::memcpy(&t.ints[i], p, 8); break;
      case DataType::Int32: {
        int32_t x;
        std::memcpy(&x, p, 4);
        t.ints[i] = x;
        break;
      }
      case DataType::Bool: t.ints[i] = *p != std::byte{0}; break;
      case DataType::Float32: {
        float x;
        std::memcpy(&x, p, 4);
        t.reals[i] = x;
        break;
      }
      default: std::memcpy(&t.reals[i], p, 8); break;  // Float64
    }
  }
  return t;
}

std::optional<Ints> ints_operand(const Graph& g, const Node& n, std::size_t k, const char* attr) {
  if (k < n.inputs.size() && n.inputs[k] != kNoValue) {
    auto t = folded_constant(g, n.inputs[k]);
    if (!t || t->real()) return std::nullopt;
    return t->ints;
  }
  if (const Attr* a = find(n, attr); a && a->is<Ints>()) return a->get<Ints>();
  return Ints{};
}

// The int constant input k of n, or nullopt.
std::optional<Folded> int_input(const Graph& g, const Node& n, std::size_t k) {
  if (k >= n.inputs.size()) return std::nullopt;
  auto t = folded_constant(g, n.inputs[k]);
  if (!t || t->real()) return std::nullopt;
  return t;
}

Buffer folded_bytes(const Folded& t) {
  switch (t.dtype) {
    case DataType::Int64: return bytes_of(t.ints);
    case DataType::Int32: return bytes_of(std::vector<int32_t>(t.ints.begin(), t.ints.end()));
    case DataType::Bool: {
      std::vector<uint8_t> v;
      v.reserve(t.ints.size());
      for (int64_t x : t.ints) v.push_back(x != 0);
      return bytes_of(v);
    }
    case DataType::Float32: return bytes_of(std::vector<float>(t.reals.begin(), t.reals.end()));
    default: return bytes_of(t.reals);  // Float64
  }
}

Folded take(const Folded& t, Ints shape, const std::vector<std::size_t>& src) {
  Folded r;
  r.dtype = t.dtype;
  r.shape = std::move(shape);
  if (t.real()) {
    r.reals.reserve(src.size());
    for (std::size_t s : src) r.reals.push_back(t.reals[s]);
  } else {
    r.ints.reserve(src.size());
    for (std::size_t s : src) r.ints.push_back(t.ints[s]);
  }
  return r;
}

Ints strides_of(const Ints& shape) {
  Ints s(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

std::optional<Broadcast> broadcast(const std::vector<const Ints*>& shapes) {
  std::size_t r = 0;
  for (const Ints* s : shapes) r = std::max(r, s->size());
  Broadcast b;
  b.shape.assign(r, 1);
  std::vector<Ints> padded;
  for (const Ints* s : shapes) {
    Ints p(r, 1);
    std::copy(s->begin(), s->end(), p.begin() + std::ptrdiff_t(r - s->size()));
    for (std::size_t d = 0; d < r; ++d) {
      if (p[d] < 0) return std::nullopt;
      if (p[d] == b.shape[d] || p[d] == 1) continue;
      if (b.shape[d] != 1) return std::nullopt;
      b.shape[d] = p[d];
    }
    padded.push_back(std::move(p));
  }
  std::size_t total = 1;
  for (int64_t d : b.shape) {
    total *= std::size_t(d);
    if (total > kMaxFolded) return std::nullopt;
  }
  for (const Ints& p : padded) {
    // A dim of 1 against a longer output dim reads its one element: stride 0.
    Ints stride = strides_of(p);
    for (std::size_t d = 0; d < r; ++d)
      if (p[d] == 1) stride[d] = 0;
    std::vector<std::size_t> src(total);
    Ints idx(r, 0);
    for (std::size_t k = 0; k < total; ++k) {
      int64_t s = 0;
      for (std::size_t d = 0; d < r; ++d) s += idx[d] * stride[d];
      src[k] = std::size_t(s);
      for (std::size_t d = r; d-- > 0;) {
        if (++idx[d] < b.shape[d]) break;
        idx[d] = 0;
      }
    }
    b.src.push_back(std::move(src));
  }
  return b;
}

}  // namespace nnbridge::rewrite_detail
