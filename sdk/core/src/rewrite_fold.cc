// fold_shape_arithmetic of nnbridge/rewrite.h: the Shape/Gather/arithmetic/Concat/Slice/Where/
// Transpose/Expand/ScatterND/Range chains exporters emit, evaluated on small int, bool and float
// constants (each op's rule and its ONNX source are stated beside it and in the header).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "nnbridge/axis.h"
#include "nnbridge/dtype.h"
#include "nnbridge/error.h"
#include "nnbridge/order.h"
#include "nnbridge/rewrite.h"
#include "rewrite_edit.h"
#include "rewrite_fold_tensor.h"

namespace nnbridge {

using namespace rewrite_detail;

namespace {

// ---- fold_shape_arithmetic --------------------------------------------------------------------

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

// Add / Sub / Mul / Div of two floats in the dtype's arithmetic (IEEE 754, round to nearest: a
// float32 result is the float32 operation's, as a backend computes it).
double binary_real(const std::string& op, DataType dt, double a, double b) {
  if (dt == DataType::Float32) {
    const float x = float(a), y = float(b);
    return op == "Add" ? x + y : op == "Sub" ? x - y : op == "Mul" ? x * y : x / y;
  }
  return op == "Add" ? a + b : op == "Sub" ? a - b : op == "Mul" ? a * b : a / b;
}

bool fits(DataType dt, int64_t x) {
  return dt != DataType::Int32 || (x >= std::numeric_limits<int32_t>::min() && x <= std::numeric_limits<int32_t>::max());
}

std::optional<Folded> fold_shape(const Node& n, const TensorType* x) {
  if (!x || x->unknown_rank) return std::nullopt;
  for (int64_t d : x->shape)
    if (d < 0) return std::nullopt;
  if (n.op == "Size") {
    int64_t count = 1;
    for (int64_t d : x->shape) count *= d;
    return Folded{DataType::Int64, {}, {count}, {}};
  }
  const int64_t r = int64_t(x->shape.size());
  int64_t start = int_or(n, "start", 0), end = int_or(n, "end", r);
  if (start < 0) start += r;
  if (end < 0) end += r;  // ONNX Shape-15: negative counts from the back, then clamped
  start = std::clamp<int64_t>(start, 0, r);
  end = std::clamp<int64_t>(end, 0, r);
  Ints dims(x->shape.begin() + start, x->shape.begin() + std::max(start, end));
  return Folded{DataType::Int64, {int64_t(dims.size())}, dims, {}};
}

// ONNX ConstantOfShape-9: `value` (default float32 0) repeated over the shape input.
std::optional<Folded> fold_constant_of_shape(const Graph& g, const Node& n, DataType dt) {
  auto shape = int_input(g, n, 0);
  if (dt == DataType::Undefined) dt = DataType::Float32;
  if (!shape || shape->shape.size() != 1 || !foldable_dtype(dt)) return std::nullopt;
  std::size_t count = 1;
  for (int64_t d : shape->ints) {
    if (d < 0 || (d > 0 && count > kMaxFolded / std::size_t(d))) return std::nullopt;
    count *= std::size_t(d);
  }
  const double v = float_or(n, "value", 0.0);
  Folded t{dt, shape->ints, {}, {}};
  if (t.real()) {
    t.reals.assign(count, dt == DataType::Float32 ? double(float(v)) : v);
  } else {
    if (v != std::floor(v) || !fits(dt, int64_t(v))) return std::nullopt;
    t.ints.assign(count, dt == DataType::Bool ? int64_t(v != 0) : int64_t(v));
  }
  return t;
}

// Where-16, Not-1, Equal-13, Add / Sub / Mul / Div-14, Mod-13: elementwise with numpy broadcasting.
std::optional<Folded> fold_elementwise(const Graph& g, const Node& n) {
  std::vector<Folded> in;
  for (std::size_t k = 0; k < n.inputs.size(); ++k) {
    auto t = folded_constant(g, n.inputs[k]);
    if (!t) return std::nullopt;
    in.push_back(std::move(*t));
  }
  const std::size_t want = n.op == "Where" ? 3 : n.op == "Not" ? 1 : 2;
  if (in.size() != want) return std::nullopt;
  std::vector<const Ints*> shapes;
  for (const Folded& t : in) shapes.push_back(&t.shape);
  auto b = broadcast(shapes);
  if (!b) return std::nullopt;
  const std::size_t total = b->src.empty() ? 0 : b->src[0].size();
  if (n.op == "Not") {
    if (in[0].dtype != DataType::Bool) return std::nullopt;
    Folded r{DataType::Bool, b->shape, Ints(total), {}};
    for (std::size_t i = 0; i < total; ++i) r.ints[i] = !in[0].ints[b->src[0][i]];
    return r;
  }
  if (n.op == "Where") {
    const Folded &c = in[0], &x = in[1], &y = in[2];
    if (c.dtype != DataType::Bool || x.dtype != y.dtype) return std::nullopt;
    Folded r{x.dtype, b->shape, {}, {}};
    for (std::size_t i = 0; i < total; ++i) {
      const bool take_x = c.ints[b->src[0][i]] != 0;
      if (x.real()) r.reals.push_back(take_x ? x.reals[b->src[1][i]] : y.reals[b->src[2][i]]);
      else r.ints.push_back(take_x ? x.ints[b->src[1][i]] : y.ints[b->src[2][i]]);
    }
    return r;
  }
  const Folded &x = in[0], &y = in[1];
  if (x.dtype != y.dtype) return std::nullopt;
  const auto &sx = b->src[0], &sy = b->src[1];
  if (n.op == "Equal") {
    Folded r{DataType::Bool, b->shape, Ints(total), {}};
    for (std::size_t i = 0; i < total; ++i)
      r.ints[i] = x.real() ? x.reals[sx[i]] == y.reals[sy[i]] : x.ints[sx[i]] == y.ints[sy[i]];
    return r;
  }
  if (x.dtype == DataType::Bool) return std::nullopt;
  Folded r{x.dtype, b->shape, {}, {}};
  if (x.real()) {
    if (n.op == "Mod") return std::nullopt;
    for (std::size_t i = 0; i < total; ++i) r.reals.push_back(binary_real(n.op, x.dtype, x.reals[sx[i]], y.reals[sy[i]]));
    return r;
  }
  const std::string op = n.op == "Mod" && int_or(n, "fmod", 0) == 1 ? "Mod.fmod" : n.op;
  bool ok = true;
  for (std::size_t i = 0; i < total && ok; ++i) {
    r.ints.push_back(binary(op, x.ints[sx[i]], y.ints[sy[i]], ok));
    ok = ok && fits(x.dtype, r.ints.back());
  }
  if (!ok) return std::nullopt;
  return r;
}

// ONNX Cast-13 between int64 / int32 / bool / float32 / float64: float to integer truncates
// toward zero (C++ and numpy's astype); a value the target cannot hold (or NaN, infinity) is
// left unfolded, since ONNX leaves it undefined. To bool: x != 0.
std::optional<Folded> fold_cast(const Node& n, const Folded& a) {
  const auto to = parse_data_type(str_or(n, "to", ""));
  if (!to || !foldable_dtype(*to)) return std::nullopt;
  Folded r{*to, a.shape, {}, {}};
  const std::size_t count = a.size();
  for (std::size_t i = 0; i < count; ++i) {
    if (r.real()) {
      const double x = a.real() ? a.reals[i] : double(a.ints[i]);
      // int64 to float32 rounds once, to nearest (not through double).
      r.reals.push_back(*to == DataType::Float64 ? x : a.real() ? double(float(x)) : double(float(a.ints[i])));
    } else if (*to == DataType::Bool) {
      r.ints.push_back(a.real() ? a.reals[i] != 0 : a.ints[i] != 0);
    } else if (a.real()) {
      const double x = std::trunc(a.reals[i]);
      if (!std::isfinite(x) || x < -9.2233720368547758e18 || x >= 9.2233720368547758e18 || !fits(*to, int64_t(x)))
        return std::nullopt;
      r.ints.push_back(int64_t(x));
    } else {
      if (!fits(*to, a.ints[i])) return std::nullopt;
      r.ints.push_back(a.ints[i]);
    }
  }
  return r;
}

// ONNX Range-11: max(ceil((limit - start) / delta), 0) elements start, start + delta, ...; the
// float forms by repeated addition in the dtype, as the operator's function body states.
std::optional<Folded> fold_range(const Graph& g, const Node& n) {
  std::vector<Folded> in;
  for (std::size_t k = 0; k < 3 && n.inputs.size() == 3; ++k) {
    auto t = folded_constant(g, n.inputs[k]);
    if (!t || t->size() != 1 || t->dtype == DataType::Bool || (k > 0 && t->dtype != in[0].dtype)) return std::nullopt;
    in.push_back(std::move(*t));
  }
  if (in.size() != 3) return std::nullopt;
  Folded r{in[0].dtype, {0}, {}, {}};
  if (r.real()) {
    const bool f32 = r.dtype == DataType::Float32;
    const double start = in[0].reals[0], limit = in[1].reals[0], delta = in[2].reals[0];
    const double span = f32 ? double((float(limit) - float(start)) / float(delta)) : (limit - start) / delta;
    if (delta == 0 || !std::isfinite(span) || std::ceil(span) > double(kMaxFolded)) return std::nullopt;
    const std::size_t count = span > 0 ? std::size_t(std::ceil(span)) : 0;
    double v = start;
    for (std::size_t i = 0; i < count; ++i, v = f32 ? double(float(v) + float(delta)) : v + delta) r.reals.push_back(v);
  } else {
    const int64_t start = in[0].ints[0], limit = in[1].ints[0], delta = in[2].ints[0];
    if (delta == 0) return std::nullopt;
    const long double span = ((long double)limit - (long double)start) / (long double)delta;
    if (span > (long double)kMaxFolded) return std::nullopt;
    const int64_t count = span > 0 ? int64_t(std::ceil(span)) : 0;
    for (int64_t i = 0; i < count; ++i) r.ints.push_back(start + i * delta);
  }
  r.shape[0] = int64_t(r.size());
  return r;
}

// The outputs of node n when every input it reads is a constant of a foldable dtype (or, for
// Shape / Size, when its input's shape is known); nullopt when the node is not one this folds.
std::optional<Folded> fold_node(const Graph& g, const Node& n) {
  if (n.outputs.size() != 1 || !valid(g, n.outputs[0]) || n.inputs.empty()) return std::nullopt;
  const TensorType& out_type = g.values[n.outputs[0]].type;
  if (n.op == "Shape" || n.op == "Size") return fold_shape(n, type_at(g, n, 0));
  if (n.op == "ConstantOfShape") return fold_constant_of_shape(g, n, out_type.dtype);
  if (n.op == "Range") return fold_range(g, n);
  if (n.op == "Where" || n.op == "Not" || n.op == "Equal" || n.op == "Add" || n.op == "Sub" || n.op == "Mul" ||
      n.op == "Div" || n.op == "Mod")
    return fold_elementwise(g, n);
  auto a = folded_constant(g, n.inputs[0]);
  if (!a) return std::nullopt;
  if (n.op == "Gather") return fold_gather(g, n, *a);
  if (n.op == "Unsqueeze" || n.op == "Squeeze" || n.op == "Flatten" || n.op == "Reshape" ||
      (n.op == "Identity" && !a->real())) {
    // The same elements in the shape shape inference gave the output. (An Identity of a float
    // constant, a shared weight say, is left to drop_identity: folding it would copy the data.)
    if (!out_type.fully_known() || out_type.element_count() != int64_t(a->size())) return std::nullopt;
    a->shape = out_type.shape;
    return a;
  }
  if (n.op == "Transpose") return fold_transpose(n, *a);
  if (n.op == "Cast") return fold_cast(n, *a);
  if (n.op == "Concat") return fold_concat(g, n, *a);
  if (n.op == "Slice") return fold_slice(g, n, *a);
  if (n.op == "ScatterND") return fold_scatter_nd(g, n, *a);
  return std::nullopt;
}


// Expand (ONNX Expand-13: X broadcast with `shape`, numpy rules) of a constant X of any
// dtype, output at most 1 MiB: the broadcast constant.
std::optional<std::pair<TensorType, Buffer>> fold_expand(const Graph& g, const Node& n) {
  if (n.op != "Expand" || n.inputs.size() != 2 || !valid(g, n.inputs[0])) return std::nullopt;
  const Value& x = g.values[n.inputs[0]];
  auto shape = int_input(g, n, 1);
  if (!x.constant || !x.type.fully_known() || x.type.quantization || !shape || shape->shape.size() != 1)
    return std::nullopt;
  const std::size_t count_in = std::size_t(*x.type.element_count());
  if (count_in == 0) return std::nullopt;
  const std::size_t es = x.constant->size() / count_in;
  const std::size_t r = std::max(x.type.shape.size(), shape->ints.size());
  Ints in(r, 1), want(r, 1), out(r);
  std::copy(x.type.shape.begin(), x.type.shape.end(), in.begin() + std::ptrdiff_t(r - x.type.shape.size()));
  std::copy(shape->ints.begin(), shape->ints.end(), want.begin() + std::ptrdiff_t(r - shape->ints.size()));
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
    // Each node gets its missing output types now, from inputs that earlier nodes may just have
    // made constants (a Pad whose pads were shape arithmetic, a Reshape of a folded mask): the
    // Shape nodes after it then fold in this same pass, so a chain of such stages (one per block
    // of a transformer) folds in one pass, not one pass per stage.
    infer_node_types(g, i);
    if (n.outputs.size() != 1 || !valid(g, n.outputs[0]) || is_output[n.outputs[0]]) continue;
    if (auto e = fold_expand(g, n)) {
      Value& out = g.values[n.outputs[0]];
      out.type = e->first;
      out.constant = std::move(e->second);
      drop[i] = true;
      ++folded;
      continue;
    }
    auto r = fold_node(g, n);
    if (!r || r->size() > kMaxFolded) continue;
    Value& out = g.values[n.outputs[0]];
    out.type = TensorType{r->dtype, r->shape, false, std::nullopt};
    out.constant = folded_bytes(*r);
    drop[i] = true;
    ++folded;
  }
  if (folded) remove_nodes(g, drop);
  return folded;
}

}  // namespace nnbridge
