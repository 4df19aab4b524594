// fold_shape_arithmetic of nnbridge/rewrite.h: the Shape/Gather/arithmetic/Concat/Slice/Where/
// Transpose/Expand chains exporters emit, evaluated on int constants (the rule's source is stated there).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "nnbridge/axis.h"
#include "nnbridge/error.h"
#include "nnbridge/order.h"
#include "nnbridge/rewrite.h"
#include "rewrite_edit.h"

namespace nnbridge {

using namespace rewrite_detail;

namespace {

// ---- fold_shape_arithmetic --------------------------------------------------------------------

struct IntTensor {
  DataType dtype = DataType::Int64;
  Ints shape;
  Ints data;
};
constexpr std::size_t kMaxFolded = 1024;

std::optional<IntTensor> int_constant(const Graph& g, ValueId v) {
  if (!valid(g, v)) return std::nullopt;
  const Value& val = g.values[v];
  const DataType dt = val.type.dtype;
  if (!val.constant || val.type.unknown_rank || (dt != DataType::Int64 && dt != DataType::Int32 && dt != DataType::Bool))
    return std::nullopt;
  const std::size_t es = dt == DataType::Int64 ? 8 : dt == DataType::Int32 ? 4 : 1;
  const std::size_t n = val.constant->size() / es;
  auto count = val.type.element_count();
  if (!count || std::size_t(*count) != n || n > kMaxFolded) return std::nullopt;
  IntTensor t{dt, val.type.shape, Ints(n)};
  for (std::size_t i = 0; i < n; ++i) {
    if (dt == DataType::Int64) {
      std::memcpy(&t.data[i], val.constant->data() + 8 * i, 8);
    } else if (dt == DataType::Bool) {
      t.data[i] = val.constant->data()[i] != std::byte{0};
    } else {
      int32_t x;
      std::memcpy(&x, val.constant->data() + 4 * i, 4);
      t.data[i] = x;
    }
  }
  return t;
}

Buffer int_bytes(const IntTensor& t) {
  if (t.dtype == DataType::Int64) return bytes_of(t.data);
  if (t.dtype == DataType::Bool) {
    std::vector<uint8_t> v;
    for (int64_t x : t.data) v.push_back(x != 0);
    return bytes_of(v);
  }
  std::vector<int32_t> v(t.data.begin(), t.data.end());
  return bytes_of(v);
}

std::optional<Ints> ints_operand(const Graph& g, const Node& n, std::size_t k, const char* attr) {
  if (k < n.inputs.size() && n.inputs[k] != kNoValue) {
    auto t = int_constant(g, n.inputs[k]);
    if (!t) return std::nullopt;
    return t->data;
  }
  if (const Attr* a = find(n, attr); a && a->is<Ints>()) return a->get<Ints>();
  return Ints{};
}

int64_t binary(const std::string& op, int64_t a, int64_t b, bool& ok) {
  // A result int64 cannot hold (and INT64_MIN / -1) is left unfolded, as a division by 0 is.
  int64_t r = 0;
  if (op == "Add" || op == "Sub" || op == "Mul") {
    const bool overflow = op == "Add"   ? __builtin_add_overflow(a, b, &r)
                          : op == "Sub" ? __builtin_sub_overflow(a, b, &r)
                                        : __builtin_mul_overflow(a, b, &r);
    if (overflow) ok = false;
    return overflow ? 0 : r;
  }
  if (b == 0 || (b == -1 && a == std::numeric_limits<int64_t>::min())) {
    ok = false;
    return 0;
  }
  if (op == "Div") return a / b;  // integer division truncates toward zero (ONNX Div-14)
  // Mod (ONNX Mod-13): fmod 1 is C's fmod, the sign of the dividend (C++ %); fmod 0, for
  // integers, takes the divisor's sign (Python's %).
  const int64_t m = a % b;
  return op == "Mod.fmod" || m == 0 || (m < 0) == (b < 0) ? m : m + b;
}

// The outputs of node n when every input it reads is an int constant (or, for Shape / Size,
// when its input's shape is known); nullopt when the node is not such shape arithmetic.
std::optional<IntTensor> fold_node(const Graph& g, const Node& n) {
  if (n.outputs.size() != 1 || !valid(g, n.outputs[0]) || n.inputs.empty()) return std::nullopt;
  const TensorType& out_type = g.values[n.outputs[0]].type;
  if (n.op == "Shape" || n.op == "Size") {
    const TensorType* x = type_at(g, n, 0);
    if (!x || x->unknown_rank) return std::nullopt;
    for (int64_t d : x->shape)
      if (d < 0) return std::nullopt;
    if (n.op == "Size") {
      int64_t count = 1;
      for (int64_t d : x->shape) count *= d;
      return IntTensor{DataType::Int64, {}, {count}};
    }
    const int64_t r = int64_t(x->shape.size());
    int64_t start = int_or(n, "start", 0), end = int_or(n, "end", r);
    if (start < 0) start += r;
    if (end < 0) end += r;  // ONNX Shape-15: negative counts from the back, then clamped
    start = std::clamp<int64_t>(start, 0, r);
    end = std::clamp<int64_t>(end, 0, r);
    Ints dims(x->shape.begin() + start, x->shape.begin() + std::max(start, end));
    return IntTensor{DataType::Int64, {int64_t(dims.size())}, dims};
  }
  if (n.op == "ConstantOfShape") {
    auto shape = int_constant(g, n.inputs[0]);
    const DataType dt = out_type.dtype;
    if (!shape || shape->shape.size() != 1 || (dt != DataType::Int64 && dt != DataType::Int32)) return std::nullopt;
    int64_t count = 1;
    for (int64_t d : shape->data) {
      if (d < 0 || (d > 0 && count > int64_t(kMaxFolded) / d)) return std::nullopt;
      count *= d;
    }
    const double v = float_or(n, "value", 0.0);
    if (v != std::floor(v)) return std::nullopt;
    return IntTensor{dt, shape->data, Ints(std::size_t(count), int64_t(v))};
  }
  if (n.op == "Where") {
    auto c = int_constant(g, n.inputs[0]);
    auto x = n.inputs.size() == 3 ? int_constant(g, n.inputs[1]) : std::nullopt;
    auto y = n.inputs.size() == 3 ? int_constant(g, n.inputs[2]) : std::nullopt;
    if (!c || !x || !y || c->dtype != DataType::Bool || x->dtype != y->dtype || x->dtype == DataType::Bool)
      return std::nullopt;
    const std::size_t len = std::max({c->data.size(), x->data.size(), y->data.size()});
    IntTensor r{x->dtype, {}, Ints(len)};
    for (const IntTensor* t : {&*c, &*x, &*y}) {
      if (t->data.size() != len && t->data.size() != 1) return std::nullopt;
      if (t->data.size() == len && t->shape.size() >= r.shape.size()) r.shape = t->shape;
    }
    auto at = [&](const IntTensor& t, std::size_t i) { return t.data[t.data.size() == 1 ? 0 : i]; };
    for (std::size_t i = 0; i < len; ++i) r.data[i] = at(*c, i) ? at(*x, i) : at(*y, i);
    return r;
  }
  auto a = int_constant(g, n.inputs[0]);
  if (!a) return std::nullopt;
  if (n.op == "Equal") {
    auto b = n.inputs.size() == 2 ? int_constant(g, n.inputs[1]) : std::nullopt;
    if (!b || a->dtype != b->dtype) return std::nullopt;
    const std::size_t na = a->data.size(), nb = b->data.size();
    if (na != nb && na != 1 && nb != 1) return std::nullopt;
    IntTensor r{DataType::Bool, na >= nb ? a->shape : b->shape, Ints(std::max(na, nb))};
    for (std::size_t i = 0; i < r.data.size(); ++i) r.data[i] = a->data[na == 1 ? 0 : i] == b->data[nb == 1 ? 0 : i];
    return r;
  }
  if (n.op == "Add" || n.op == "Sub" || n.op == "Mul" || n.op == "Div" || n.op == "Mod") {
    auto b = n.inputs.size() == 2 ? int_constant(g, n.inputs[1]) : std::nullopt;
    if (!b || a->dtype != b->dtype) return std::nullopt;
    const std::size_t na = a->data.size(), nb = b->data.size();
    if (na != nb && na != 1 && nb != 1) return std::nullopt;
    IntTensor r{a->dtype, na >= nb ? a->shape : b->shape, Ints(std::max(na, nb))};
    if (a->shape.size() > r.shape.size() || b->shape.size() > r.shape.size()) {
      if (!out_type.fully_known()) return std::nullopt;
      r.shape = out_type.shape;
    }
    bool ok = true;
    for (std::size_t i = 0; i < r.data.size(); ++i)
      r.data[i] = binary(n.op == "Mod" && int_or(n, "fmod", 0) == 1 ? "Mod.fmod" : n.op, a->data[na == 1 ? 0 : i],
                         b->data[nb == 1 ? 0 : i], ok);
    if (!ok) return std::nullopt;
    return r;
  }
  if (n.op == "Gather") {
    auto idx = n.inputs.size() == 2 ? int_constant(g, n.inputs[1]) : std::nullopt;
    if (!idx || a->shape.size() != 1 || int_or(n, "axis", 0) != 0) return std::nullopt;
    const int64_t len = a->shape[0];
    IntTensor r{a->dtype, idx->shape, {}};
    for (int64_t i : idx->data) {
      if (i < -len || i >= len) return std::nullopt;
      r.data.push_back(a->data[std::size_t(i < 0 ? i + len : i)]);
    }
    return r;
  }
  if (n.op == "Unsqueeze" || n.op == "Squeeze" || n.op == "Flatten" || n.op == "Reshape" || n.op == "Identity") {
    // The same elements in the shape shape inference gave the output.
    if (!out_type.fully_known()) return std::nullopt;
    a->shape = out_type.shape;
    return a;
  }
  if (n.op == "Transpose") {
    // ONNX Transpose-13: output dim i is input dim perm[i]; no perm reverses the dims.
    const std::size_t r = a->shape.size();
    Ints perm(r);
    for (std::size_t i = 0; i < r; ++i) perm[i] = int64_t(r - 1 - i);
    if (const Attr* p = find(n, "perm"); p && p->is<Ints>()) perm = p->get<Ints>();
    if (perm.size() != r) return std::nullopt;
    std::vector<bool> seen(r, false);
    for (int64_t d : perm) {
      if (d < 0 || d >= int64_t(r) || seen[std::size_t(d)]) return std::nullopt;
      seen[std::size_t(d)] = true;
    }
    Ints in_stride(r, 1), out_shape(r);
    for (std::size_t d = r; d-- > 1;) in_stride[d - 1] = in_stride[d] * a->shape[d];
    for (std::size_t i = 0; i < r; ++i) out_shape[i] = a->shape[std::size_t(perm[i])];
    IntTensor t{a->dtype, out_shape, Ints(a->data.size())};
    Ints idx(r, 0);
    for (std::size_t k = 0; k < t.data.size(); ++k) {
      int64_t src = 0;
      for (std::size_t i = 0; i < r; ++i) src += idx[i] * in_stride[std::size_t(perm[i])];
      t.data[k] = a->data[std::size_t(src)];
      for (std::size_t i = r; i-- > 0;) {
        if (++idx[i] < out_shape[i]) break;
        idx[i] = 0;
      }
    }
    return t;
  }
  if (n.op == "Cast") {
    const std::string to = str_or(n, "to", "");
    if (to != "int64" && to != "int32") return std::nullopt;
    a->dtype = to == "int64" ? DataType::Int64 : DataType::Int32;
    return a;
  }
  if (n.op == "Concat") {
    if (a->shape.size() != 1) return std::nullopt;
    IntTensor r{a->dtype, {0}, {}};
    for (ValueId v : n.inputs) {
      auto t = int_constant(g, v);
      if (!t || t->shape.size() != 1 || t->dtype != a->dtype) return std::nullopt;
      r.data.insert(r.data.end(), t->data.begin(), t->data.end());
    }
    if (r.data.size() > kMaxFolded) return std::nullopt;
    r.shape[0] = int64_t(r.data.size());
    return r;
  }
  if (n.op == "Slice") {
    auto starts = ints_operand(g, n, 1, "starts"), ends = ints_operand(g, n, 2, "ends");
    auto axes = ints_operand(g, n, 3, "axes"), steps = ints_operand(g, n, 4, "steps");
    const std::size_t r = a->shape.size(), k = starts ? starts->size() : 0;
    if (!starts || !ends || !axes || !steps || ends->size() != k || (!axes->empty() && axes->size() != k) ||
        (!steps->empty() && steps->size() != k))
      return std::nullopt;
    // ONNX Slice-13 per sliced axis: negative starts / ends count from the back; then with a
    // positive step start and end clamp to [0, len], with a negative one start to [0, len - 1]
    // and end to [-1, len - 1]; the elements are start, start + step, ... short of end.
    Ints first(r, 0), step(r, 1), out_shape = a->shape;
    std::vector<bool> sliced(r, false);
    for (std::size_t j = 0; j < k; ++j) {
      int64_t ax = axes->empty() ? int64_t(j) : (*axes)[j];
      if (ax < 0) ax += int64_t(r);
      const int64_t st = steps->empty() ? 1 : (*steps)[j];
      if (ax < 0 || ax >= int64_t(r) || sliced[std::size_t(ax)] || st == 0) return std::nullopt;
      sliced[std::size_t(ax)] = true;
      const int64_t len = a->shape[std::size_t(ax)];
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
    Ints stride(r, 1);
    for (std::size_t d = r; d-- > 1;) stride[d - 1] = stride[d] * a->shape[d];
    std::size_t total = 1;
    for (int64_t d : out_shape) total *= std::size_t(d);
    IntTensor t{a->dtype, out_shape, Ints(total)};
    Ints idx(r, 0);
    for (std::size_t q = 0; q < total; ++q) {
      int64_t src = 0;
      for (std::size_t d = 0; d < r; ++d) src += (first[d] + idx[d] * step[d]) * stride[d];
      t.data[q] = a->data[std::size_t(src)];
      for (std::size_t d = r; d-- > 0;) {
        if (++idx[d] < out_shape[d]) break;
        idx[d] = 0;
      }
    }
    return t;
  }
  return std::nullopt;
}


// Expand (ONNX Expand-13: X broadcast with `shape`, numpy rules) of a constant X of any
// dtype, output at most 1 MiB: the broadcast constant.
std::optional<std::pair<TensorType, Buffer>> fold_expand(const Graph& g, const Node& n) {
  if (n.op != "Expand" || n.inputs.size() != 2 || !valid(g, n.inputs[0])) return std::nullopt;
  const Value& x = g.values[n.inputs[0]];
  auto shape = int_constant(g, n.inputs[1]);
  if (!x.constant || !x.type.fully_known() || x.type.quantization || !shape || shape->shape.size() != 1)
    return std::nullopt;
  const std::size_t count_in = std::size_t(*x.type.element_count());
  if (count_in == 0) return std::nullopt;
  const std::size_t es = x.constant->size() / count_in;
  const std::size_t r = std::max(x.type.shape.size(), shape->data.size());
  Ints in(r, 1), want(r, 1), out(r);
  std::copy(x.type.shape.begin(), x.type.shape.end(), in.begin() + std::ptrdiff_t(r - x.type.shape.size()));
  std::copy(shape->data.begin(), shape->data.end(), want.begin() + std::ptrdiff_t(r - shape->data.size()));
  std::size_t total = 1;
  for (std::size_t d = 0; d < r; ++d) {
    if (in[d] != want[d] && in[d] != 1 && want[d] != 1) return std::nullopt;
    out[d] = in[d] == 1 ? want[d] : in[d];
    if (out[d] < 0) return std::nullopt;
    total *= std::size_t(out[d]);
    if (total * es > (std::size_t(1) << 20)) return std::nullopt;
  }
  Ints stride(r, 0);
  for (std::size_t d = r, s = 1; d-- > 0;) {
    stride[d] = in[d] == 1 ? 0 : int64_t(s);
    s *= std::size_t(in[d]);
  }
  std::vector<std::byte> bytes(total * es);
  Ints idx(r, 0);
  for (std::size_t k = 0; k < total; ++k) {
    int64_t src = 0;
    for (std::size_t d = 0; d < r; ++d) src += idx[d] * stride[d];
    std::memcpy(bytes.data() + k * es, x.constant->data() + std::size_t(src) * es, es);
    for (std::size_t d = r; d-- > 0;) {
      if (++idx[d] < out[d]) break;
      idx[d] = 0;
    }
  }
  TensorType t = x.type;
  t.shape = out;
  return std::make_pair(t, Buffer::owned(std::move(bytes)));
}


}  // namespace

std::size_t fold_shape_arithmetic(Graph& g) {
  std::vector<std::size_t> order;
  try {
    order = topological_order(g);
  } catch (const Error&) {
    return 0;
  }
  std::vector<bool> drop(g.nodes.size(), false);
  std::vector<bool> is_output(g.values.size(), false);
  for (ValueId v : g.outputs)
    if (valid(g, v)) is_output[v] = true;
  std::size_t folded = 0;
  for (std::size_t i : order) {
    const Node& n = g.nodes[i];
    // A node that does not fold gets its output types now, from inputs that earlier nodes may
    // just have made constants (a Pad whose pads were shape arithmetic): the Shape nodes after it
    // then fold in this same pass, so a chain of such stages (one per block of a transformer)
    // folds in one pass, not one pass per stage.
    if (n.outputs.size() != 1 || !valid(g, n.outputs[0]) || is_output[n.outputs[0]]) {
      infer_node_types(g, i);
      continue;
    }
    if (auto e = fold_expand(g, n)) {
      Value& out = g.values[n.outputs[0]];
      out.type = e->first;
      out.constant = std::move(e->second);
      drop[i] = true;
      ++folded;
      continue;
    }
    auto r = fold_node(g, n);
    if (!r || r->data.size() > kMaxFolded) {
      infer_node_types(g, i);
      continue;
    }
    Value& out = g.values[n.outputs[0]];
    out.type = TensorType{r->dtype, r->shape, false, std::nullopt};
    out.constant = int_bytes(*r);
    drop[i] = true;
    ++folded;
  }
  if (folded) remove_nodes(g, drop);
  return folded;
}

}  // namespace nnbridge
