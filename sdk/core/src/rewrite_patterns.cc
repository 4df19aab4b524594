// The pattern rewrites of nnbridge/rewrite.h (exporters' decomposed activations, grouped
// convolutions, weight layouts, MatMul by a constant); each rule's source is stated there.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <optional>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "nnbridge/axis.h"
#include "nnbridge/error.h"
#include "nnbridge/order.h"
#include "nnbridge/rewrite.h"
#include "rewrite_edit.h"

namespace nnbridge {

using namespace rewrite_detail;

namespace {

// ---- helpers for the pattern rewrites ---------------------------------------------------------

// The single float value of a constant (float32/float64, one element), if it is one.
std::optional<double> scalar_of(const Graph& g, ValueId v) {
  if (!valid(g, v) || !g.values[v].constant) return std::nullopt;
  const Value& val = g.values[v];
  auto count = val.type.element_count();
  if (!count || *count != 1) return std::nullopt;
  if (val.type.dtype == DataType::Float32 && val.constant->size() == 4) {
    float x;
    std::memcpy(&x, val.constant->data(), 4);
    return x;
  }
  if (val.type.dtype == DataType::Float64 && val.constant->size() == 8) {
    double x;
    std::memcpy(&x, val.constant->data(), 8);
    return x;
  }
  return std::nullopt;
}

// For a binary node with one constant scalar operand: the other input and the scalar.
std::optional<std::pair<ValueId, double>> with_scalar(const Graph& g, const Node& n) {
  if (n.inputs.size() != 2) return std::nullopt;
  if (auto s = scalar_of(g, n.inputs[1])) return std::make_pair(n.inputs[0], *s);
  if (auto s = scalar_of(g, n.inputs[0])) return std::make_pair(n.inputs[1], *s);
  return std::nullopt;
}

bool near(double a, double b, double rel = 1e-6) { return std::abs(a - b) <= rel * std::max(1.0, std::abs(b)); }

// Element order of `in` (shape `shape`, `elem` bytes each) with output dim i = input dim perm[i].
Buffer permute_bytes(const Buffer& in, const Ints& shape, const Ints& perm, std::size_t elem) {
  const std::size_t r = shape.size();
  Ints out_shape(r), strides(r, 1);
  for (std::size_t i = r; i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  for (std::size_t i = 0; i < r; ++i) out_shape[i] = shape[std::size_t(perm[i])];
  int64_t total = 1;
  for (int64_t d : shape) total *= d;
  std::vector<std::byte> out(in.size());
  Ints idx(r, 0);
  for (int64_t k = 0; k < total; ++k) {
    int64_t src = 0;
    for (std::size_t i = 0; i < r; ++i) src += idx[i] * strides[std::size_t(perm[i])];
    std::memcpy(out.data() + k * elem, in.data() + src * elem, elem);
    for (std::size_t d = r; d-- > 0;) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return Buffer::owned(std::move(out));
}

}  // namespace

std::size_t hard_sigmoid_as_activations(Graph& g) {
  const std::size_t count = g.nodes.size();
  std::vector<int> readers = reader_counts(g);
  std::vector<long> prod = producers(g);
  std::vector<bool> drop(count, false);
  std::size_t changed = 0;
  // x * HardSigmoid(x) with HardSwish's constants (alpha 1/6, beta 1/2; ONNX HardSwish-14's
  // definition) is HardSwish(x).
  for (std::size_t i = 0; i < count; ++i) {
    Node& mul = g.nodes[i];
    if (mul.op != "Mul" || mul.inputs.size() != 2 || mul.outputs.size() != 1) continue;
    for (int side = 0; side < 2; ++side) {
      const ValueId h = mul.inputs[std::size_t(side)], x = mul.inputs[std::size_t(1 - side)];
      if (!valid(g, h) || prod[h] < 0 || readers[h] != 1) continue;
      const Node& hs = g.nodes[std::size_t(prod[h])];
      if (hs.op != "HardSigmoid" || hs.inputs.size() != 1 || hs.inputs[0] != x || drop[std::size_t(prod[h])]) continue;
      if (!near(float_or(hs, "alpha", 0.2), 1.0 / 6.0) || !near(float_or(hs, "beta", 0.5), 0.5)) continue;
      drop[std::size_t(prod[h])] = true;
      mul.op = "HardSwish";
      mul.inputs = {x};
      mul.attrs.clear();
      ++changed;
      break;
    }
  }
  // The rest: Affine (alpha * X + beta) then Clip to [0, 1] (ONNX HardSigmoid-6).
  Names names(g);
  for (std::size_t i = 0; i < count; ++i) {
    if (drop[i] || g.nodes[i].op != "HardSigmoid" || g.nodes[i].inputs.size() != 1 || g.nodes[i].outputs.size() != 1)
      continue;
    const TensorType* x = type_at(g, g.nodes[i], 0);
    if (!x || x->dtype != DataType::Float32) continue;
    const double alpha = float_or(g.nodes[i], "alpha", 0.2), beta = float_or(g.nodes[i], "beta", 0.5);
    const std::string name = g.nodes[i].name;
    const ValueId lin = add_tensor(g, names, name.empty() ? "hard_sigmoid_linear" : name + "_linear", *x);
    const ValueId lo = add_f32(g, names, name + ".min", {0.0f}, {});
    const ValueId hi = add_f32(g, names, name + ".max", {1.0f}, {});
    Node clip{"Clip", name.empty() ? std::string() : name + "_clip", {lin, lo, hi}, g.nodes[i].outputs, {}};
    Node& n = g.nodes[i];
    n.op = "Affine";
    n.attrs = {{"alpha", Attr(alpha)}, {"beta", Attr(beta)}};
    n.outputs = {lin};
    g.add_node(std::move(clip));
    ++changed;
  }
  drop.resize(g.nodes.size(), false);
  if (changed) remove_nodes(g, drop);
  return changed;
}

std::size_t weights_as_oihw(Graph& g) {
  std::size_t changed = 0;
  Names names(g);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    if ((n.op != "Conv" && n.op != "ConvTranspose") || n.inputs.size() < 2 || !valid(g, n.inputs[1])) continue;
    const Attr* kl = find(n, "kernel_layout");
    if (!kl || !kl->is<std::string>()) continue;
    const std::string layout = kl->get<std::string>();
    const Value& w = g.values[n.inputs[1]];
    if (!w.constant || w.type.unknown_rank || w.type.shape.size() != 4 || !w.type.fully_known()) continue;
    const Ints s = w.type.shape;
    Ints perm, shape;
    if (n.op == "Conv" && layout == "OHWI") perm = {0, 3, 1, 2};
    else if (n.op == "Conv" && layout == "1HWO") perm = {3, 0, 1, 2};  // [1, H, W, C*M] -> [C*M, 1, H, W]
    else if (n.op == "Conv" && layout == "MIHW") perm = {1, 0, 2, 3}, shape = {s[1] * s[0], 1, s[2], s[3]};
    else if (n.op == "ConvTranspose" && layout == "OHWI") perm = {3, 0, 1, 2};
    else if (n.op == "ConvTranspose" && layout == "OIHW") perm = {1, 0, 2, 3};
    else continue;
    Ints out_shape(4);
    for (std::size_t d = 0; d < 4; ++d) out_shape[d] = s[std::size_t(perm[d])];
    if (shape.empty()) shape = out_shape;
    const std::size_t es = w.constant->size() / std::size_t(*w.type.element_count());
    Buffer data = permute_bytes(*w.constant, s, perm, es);
    TensorType t = w.type;
    t.shape = shape;
    if (t.quantization && t.quantization->axis) {  // per-axis weights: the axis moves with its dim
      Quantization& q = *t.quantization;
      const int64_t old_axis = *q.axis < 0 ? *q.axis + 4 : *q.axis;
      if (shape == out_shape) {
        for (int64_t d = 0; d < 4; ++d)
          if (perm[std::size_t(d)] == old_axis) q.axis = d;
      } else {
        // MIHW -> [I * M, 1, H, W]: output channel i * M + m takes the scale of its m (axis 0) or
        // its i (axis 1).
        const int64_t m = s[0], in = s[1];
        if ((old_axis != 0 && old_axis != 1) || int64_t(q.scales.size()) != s[std::size_t(old_axis)]) continue;
        auto spread = [&](const auto& per) {
          std::decay_t<decltype(per)> r;
          for (int64_t i = 0; i < in; ++i)
            for (int64_t j = 0; j < m; ++j) r.push_back(per[std::size_t(old_axis == 0 ? j : i)]);
          return r;
        };
        q.scales = spread(q.scales);
        if (q.zero_points.size() > 1) q.zero_points = spread(q.zero_points);
        q.axis = 0;
      }
    }
    const ValueId nw = g.add_value(Value{names.unique(w.name + "_oihw"), t, std::move(data), {}});
    g.nodes[i].inputs[1] = nw;
    g.nodes[i].attrs.erase("kernel_layout");
    ++changed;
  }
  if (changed) remove_nodes(g, std::vector<bool>(g.nodes.size(), false));
  return changed;
}

std::size_t conv_transpose_weights_as_oihw(Graph& g) {
  std::size_t changed = 0;
  Names names(g);
  for (Node& n : g.nodes) {
    if (n.op != "ConvTranspose" || find(n, "kernel_layout") || int_or(n, "group", 1) != 1 ||
        str_or(n, "data_layout", "NCHW") != "NCHW" || n.inputs.size() < 2 || !valid(g, n.inputs[1]))
      continue;
    const Value& w = g.values[n.inputs[1]];
    if (!w.constant || !w.type.fully_known() || w.type.shape.size() != 4) continue;
    const Ints s = w.type.shape, perm{1, 0, 2, 3};
    TensorType t = w.type;
    t.shape = {s[1], s[0], s[2], s[3]};
    if (t.quantization && t.quantization->axis) {  // the axis moves with its dim
      const int64_t a = *t.quantization->axis < 0 ? *t.quantization->axis + 4 : *t.quantization->axis;
      t.quantization->axis = a == 0 ? 1 : a == 1 ? 0 : a;
    }
    const std::size_t es = w.constant->size() / std::size_t(*w.type.element_count());
    Buffer data = permute_bytes(*w.constant, s, perm, es);
    const std::string name = names.unique(w.name + "_oihw");
    n.inputs[1] = g.add_value(Value{name, t, std::move(data), {}});
    n.attrs["kernel_layout"] = Attr(std::string("OIHW"));
    ++changed;
  }
  if (changed) remove_nodes(g, std::vector<bool>(g.nodes.size(), false));
  return changed;
}

std::size_t grouped_conv_as_split(Graph& g) {
  std::size_t changed = 0;
  const std::size_t count = g.nodes.size();
  Names names(g);
  std::vector<bool> drop(count, false);
  for (std::size_t i = 0; i < count; ++i) {
    const Node& n = g.nodes[i];
    const int64_t group = int_or(n, "group", 1);
    if (n.op != "Conv" || group <= 1 || n.inputs.size() < 2 || n.outputs.size() != 1 || find(n, "kernel_layout") ||
        str_or(n, "data_layout", "NCHW") != "NCHW")
      continue;
    const TensorType* x = type_at(g, n, 0);
    if (!x || !x->fully_known() || x->shape.size() < 3 || x->quantization) continue;
    const int64_t c = x->shape[1];
    if (group == c || c % group != 0) continue;  // depthwise: the formats have a layer for it
    const Value& w = g.values[n.inputs[1]];
    if (!w.constant || !w.type.fully_known() || w.type.shape.empty() || w.type.shape[0] % group != 0) continue;
    const Value* b = n.inputs.size() > 2 && valid(g, n.inputs[2]) ? &g.values[n.inputs[2]] : nullptr;
    if (b && (!b->constant || !b->type.fully_known())) continue;
    const TensorType y = g.values[n.outputs[0]].type;
    if (!y.fully_known()) continue;
    const int64_t per_in = c / group, per_out = w.type.shape[0] / group;
    const std::size_t w_bytes = w.constant->size() / std::size_t(group);
    const std::size_t b_bytes = b ? b->constant->size() / std::size_t(group) : 0;
    const Node conv = n;  // g.nodes grows below
    const std::string base = conv.name.empty() ? g.values[conv.outputs[0]].name : conv.name;
    // Split X along channels into `group` equal parts (ONNX Split-13 with `split` as input 1).
    std::vector<ValueId> parts, outs;
    TensorType part = *x;
    part.shape[1] = per_in;
    for (int64_t k = 0; k < group; ++k) parts.push_back(add_tensor(g, names, base + "_x" + std::to_string(k), part));
    const ValueId split_sizes = g.add_value(Value{names.unique(base + ".split"),
                                                  TensorType{DataType::Int64, {group}, false, std::nullopt},
                                                  bytes_of(Ints(std::size_t(group), per_in)), {}});
    g.add_node(Node{"Split", base + "_split", {conv.inputs[0], split_sizes}, parts, {{"axis", Attr(int64_t{1})}}});
    TensorType y_part = y;
    y_part.shape[1] = per_out;
    for (int64_t k = 0; k < group; ++k) {
      const Value& wv = g.values[conv.inputs[1]];
      TensorType wt = wv.type;
      wt.shape[0] = per_out;
      const ValueId wk = g.add_value(Value{names.unique(wv.name + "_g" + std::to_string(k)), wt,
                                           Buffer::copy_of({wv.constant->data() + std::size_t(k) * w_bytes, w_bytes}), {}});
      std::vector<ValueId> ins{parts[std::size_t(k)], wk};
      if (b) {
        const Value& bv = g.values[conv.inputs[2]];
        TensorType bt = bv.type;
        bt.shape[0] = per_out;
        ins.push_back(g.add_value(Value{names.unique(bv.name + "_g" + std::to_string(k)), bt,
                                        Buffer::copy_of({bv.constant->data() + std::size_t(k) * b_bytes, b_bytes}), {}}));
      }
      outs.push_back(add_tensor(g, names, base + "_y" + std::to_string(k), y_part));
      AttrMap attrs = conv.attrs;
      attrs["group"] = Attr(int64_t{1});
      g.add_node(Node{"Conv", base + "_g" + std::to_string(k), std::move(ins), {outs.back()}, std::move(attrs)});
    }
    g.add_node(Node{"Concat", base + "_concat", outs, conv.outputs, {{"axis", Attr(int64_t{1})}}});
    drop[i] = true;
    ++changed;
  }
  drop.resize(g.nodes.size(), false);
  if (changed) remove_nodes(g, drop);
  return changed;
}

std::size_t erf_gelu_as_gelu(Graph& g) {
  // PyTorch's export of GELU (approximate 'none'): Div(x, sqrt 2) -> Erf -> Add(1) -> Mul(x) ->
  // Mul(0.5), i.e. 0.5 * x * (1 + erf(x / sqrt 2)), the definition of ONNX Gelu-20.
  std::vector<int> readers = reader_counts(g);
  std::vector<long> prod = producers(g);
  std::vector<bool> drop(g.nodes.size(), false);
  std::size_t changed = 0;
  auto single = [&](ValueId v, const char* op) -> long {
    if (!valid(g, v) || prod[v] < 0 || readers[v] != 1 || drop[std::size_t(prod[v])]) return -1;
    return g.nodes[std::size_t(prod[v])].op == op ? prod[v] : -1;
  };
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    Node& last = g.nodes[i];
    if (last.op != "Mul" || last.outputs.size() != 1) continue;
    auto half = with_scalar(g, last);
    if (!half || !near(half->second, 0.5)) continue;
    const long m = single(half->first, "Mul");
    if (m < 0 || g.nodes[std::size_t(m)].inputs.size() != 2) continue;
    const Node& mul = g.nodes[std::size_t(m)];
    for (int side = 0; side < 2; ++side) {
      const ValueId x = mul.inputs[std::size_t(side)];
      const long a = single(mul.inputs[std::size_t(1 - side)], "Add");
      if (a < 0) continue;
      auto one = with_scalar(g, g.nodes[std::size_t(a)]);
      if (!one || !near(one->second, 1.0)) continue;
      const long e = single(one->first, "Erf");
      if (e < 0) continue;
      const long d = single(g.nodes[std::size_t(e)].inputs[0], "Div");
      if (d < 0) continue;
      auto root2 = with_scalar(g, g.nodes[std::size_t(d)]);
      if (!root2 || root2->first != x || g.nodes[std::size_t(d)].inputs[0] != x || !near(root2->second, std::sqrt(2.0)))
        continue;
      for (long k : {m, a, e, d}) drop[std::size_t(k)] = true;
      last.op = "Gelu";
      last.inputs = {x};
      last.attrs = {{"approximate", Attr(std::string("none"))}};
      ++changed;
      break;
    }
  }
  if (changed) remove_nodes(g, drop);
  return changed;
}

std::size_t square_pow_as_mul(Graph& g) {
  std::size_t changed = 0;
  for (Node& n : g.nodes) {
    if (n.op != "Pow" || n.inputs.size() != 2) continue;
    auto e = scalar_of(g, n.inputs[1]);
    if (!e || *e != 2.0) continue;
    n.op = "Mul";  // x^2 = x * x exactly in floating point (one rounding either way)
    n.inputs[1] = n.inputs[0];
    ++changed;
  }
  if (changed) remove_nodes(g, std::vector<bool>(g.nodes.size(), false));
  return changed;
}

std::size_t matmul_as_gemm(Graph& g) {
  std::size_t changed = 0;
  const std::size_t count = g.nodes.size();
  Names names(g);
  for (std::size_t i = 0; i < count; ++i) {
    const Node& n = g.nodes[i];
    if (n.op != "MatMul" || n.inputs.size() != 2 || n.outputs.size() != 1) continue;
    const TensorType* a = type_at(g, n, 0);
    const Value* b = valid(g, n.inputs[1]) ? &g.values[n.inputs[1]] : nullptr;
    const TensorType y = g.values[n.outputs[0]].type;
    if (!a || !b || !b->constant || !a->fully_known() || !y.fully_known() || a->shape.size() < 2 ||
        b->type.shape.size() != 2 || a->quantization || b->type.quantization)
      continue;
    const int64_t k = a->shape.back(), nn = b->type.shape[1];
    int64_t m = 1;
    for (std::size_t d = 0; d + 1 < a->shape.size(); ++d) m *= a->shape[d];
    const Node mm = n;
    const std::string base = mm.name.empty() ? g.values[mm.outputs[0]].name : mm.name;
    ValueId a2 = mm.inputs[0];
    if (a->shape.size() != 2) {
      TensorType t = *a;
      t.shape = {m, k};
      a2 = add_tensor(g, names, base + "_a2d", t);
      g.add_node(Node{"Reshape", base + "_reshape_a", {mm.inputs[0]}, {a2}, {{"shape", Attr(Ints{m, k})}}});
    }
    Node& gemm = g.nodes[i];
    gemm.op = "Gemm";
    gemm.attrs = {{"transA", Attr(int64_t{0})}, {"transB", Attr(int64_t{0})}, {"alpha", Attr(1.0)}, {"beta", Attr(1.0)}};
    gemm.inputs = {a2, mm.inputs[1]};
    if (y.shape.size() != 2) {
      TensorType t = y;
      t.shape = {m, nn};
      const ValueId p = add_tensor(g, names, base + "_2d", t);
      g.nodes[i].outputs = {p};
      g.add_node(Node{"Reshape", base + "_reshape_y", {p}, mm.outputs, {{"shape", Attr(y.shape)}}});
    }
    ++changed;
  }
  return changed;
}

std::size_t layer_norm_decomposed(Graph& g) {
  std::size_t changed = 0;
  const std::size_t count = g.nodes.size();
  Names names(g);
  std::vector<int> readers = reader_counts(g);
  for (std::size_t i = 0; i < count; ++i) {
    const Node& n = g.nodes[i];
    if (n.op != "LayerNormalization" || n.inputs.size() < 2 || n.outputs.empty()) continue;
    bool extra = false;  // Mean / InvStdDev read by something: keep the node
    for (std::size_t k = 1; k < n.outputs.size(); ++k) extra = extra || (valid(g, n.outputs[k]) && readers[n.outputs[k]]);
    const TensorType* x = type_at(g, n, 0);
    if (extra || !x || x->unknown_rank || x->dtype != DataType::Float32 || x->quantization) continue;
    const int64_t r = int64_t(x->shape.size());
    int64_t axis = int_or(n, "axis", -1);
    if (axis < 0) axis += r;
    if (axis < 0 || axis >= r) continue;
    Ints axes;
    for (int64_t d = axis; d < r; ++d) axes.push_back(d);
    TensorType reduced = *x;
    for (int64_t d = axis; d < r; ++d) reduced.shape[std::size_t(d)] = 1;
    const TensorType full = *x;
    const Node ln = n;
    const std::string base = ln.name.empty() ? g.values[ln.outputs[0]].name : ln.name;
    auto value = [&](const char* suffix, const TensorType& t) { return add_tensor(g, names, base + suffix, t); };
    const AttrMap reduce{{"axes", Attr(axes)}, {"keepdims", Attr(int64_t{1})}};
    const ValueId mean = value("_mean", reduced), d = value("_centered", full), sq = value("_squared", full);
    const ValueId var = value("_variance", reduced), ve = value("_variance_eps", reduced), sd = value("_stddev", reduced);
    const ValueId nrm = value("_normalized", full);
    const ValueId eps = add_f32(g, names, base + ".epsilon", {float(float_or(ln, "epsilon", 1e-5))}, {});
    const bool bias = ln.inputs.size() > 2 && valid(g, ln.inputs[2]);
    const ValueId scaled = bias ? value("_scaled", full) : ln.outputs[0];
    // (X - mean) / sqrt(var + epsilon) * Scale + B over dims [axis, rank) (ONNX LayerNormalization-17).
    g.nodes[i] = Node{"ReduceMean", base + "_mean", {ln.inputs[0]}, {mean}, reduce};
    g.add_node(Node{"Sub", base + "_sub", {ln.inputs[0], mean}, {d}, {}});
    g.add_node(Node{"Mul", base + "_square", {d, d}, {sq}, {}});
    g.add_node(Node{"ReduceMean", base + "_var", {sq}, {var}, reduce});
    g.add_node(Node{"Add", base + "_add_eps", {var, eps}, {ve}, {}});
    g.add_node(Node{"Sqrt", base + "_sqrt", {ve}, {sd}, {}});
    g.add_node(Node{"Div", base + "_div", {d, sd}, {nrm}, {}});
    g.add_node(Node{"Mul", base + "_scale", {nrm, ln.inputs[1]}, {scaled}, {}});
    if (bias) g.add_node(Node{"Add", base + "_bias", {scaled, ln.inputs[2]}, {ln.outputs[0]}, {}});
    ++changed;
  }
  if (changed) remove_nodes(g, std::vector<bool>(g.nodes.size(), false));
  return changed;
}

std::size_t affine_as_mul_add(Graph& g) {
  std::size_t changed = 0;
  const std::size_t count = g.nodes.size();
  Names names(g);
  for (std::size_t i = 0; i < count; ++i) {
    const Node& n = g.nodes[i];
    if (n.op != "Affine" || n.inputs.size() != 1 || n.outputs.size() != 1) continue;
    const TensorType* x = type_at(g, n, 0);
    if (!x || x->dtype != DataType::Float32 || x->quantization) continue;
    const TensorType xt = *x;
    const Node affine = n;
    const std::string base = affine.name.empty() ? g.values[affine.outputs[0]].name : affine.name;
    const ValueId a = add_f32(g, names, base + ".alpha", {float(float_or(affine, "alpha", 1.0))}, {});
    const ValueId b = add_f32(g, names, base + ".beta", {float(float_or(affine, "beta", 0.0))}, {});
    const ValueId scaled = add_tensor(g, names, base + "_scaled", xt);
    // alpha * X + beta (the experimental ONNX Affine-1), two ops of ONNX opset 17.
    g.nodes[i] = Node{"Mul", base + "_mul", {affine.inputs[0], a}, {scaled}, {}};
    g.add_node(Node{"Add", base, {scaled, b}, affine.outputs, {}});
    ++changed;
  }
  return changed;
}

std::size_t nonnegative_axes(Graph& g) {
  std::size_t changed = 0;
  for (Node& n : g.nodes) {
    if (n.op == "Concat" || n.op == "Split") {
      // ONNX Concat-13 / Split-13: axis in [-r, r - 1], negative counting from the back.
      auto it = n.attrs.find("axis");
      const TensorType* x = type_at(g, n, 0);
      if (it == n.attrs.end() || !it->second.is<int64_t>() || !x || x->unknown_rank) continue;
      const int64_t a = it->second.get<int64_t>(), r = int64_t(x->shape.size());
      if (a >= 0 || a < -r) continue;
      it->second = Attr(a + r);
      ++changed;
      continue;
    }
    if (n.op.rfind("Reduce", 0) != 0) continue;
    auto it = n.attrs.find("axes");
    const TensorType* x = type_at(g, n, 0);
    if (it == n.attrs.end() || !it->second.is<Ints>() || !x || x->unknown_rank) continue;
    Ints axes = it->second.get<Ints>();
    const int64_t r = int64_t(x->shape.size());
    bool neg = false;
    for (int64_t& a : axes)
      if (a < 0 && a >= -r) {
        a += r;  // ONNX Reduce*-13: a negative axis counts from the back, range [-r, r - 1]
        neg = true;
      }
    if (!neg) continue;
    it->second = Attr(axes);
    ++changed;
  }
  return changed;
}

namespace {
bool broadcasting_binary(const std::string& op) {
  static const char* const ops[] = {"Add", "Sub", "Mul", "Div", "Max", "Min", "Pow", "SquaredDifference",
                                    "Equal", "Greater", "GreaterOrEqual", "Less", "LessOrEqual", "And", "Or",
                                    "Xor", "PRelu", "Mod"};
  for (const char* o : ops)
    if (op == o) return true;
  return false;
}
}  // namespace

bool has_rank_mismatch(const Graph& g, const Node& n) {
  if (!broadcasting_binary(n.op) || n.inputs.size() != 2) return false;
  const TensorType* a = type_at(g, n, 0);
  const TensorType* b = type_at(g, n, 1);
  return a && b && !a->unknown_rank && !b->unknown_rank && a->shape.size() != b->shape.size();
}

std::size_t same_rank_operands(Graph& g) {
  std::size_t changed = 0;
  const std::size_t count = g.nodes.size();
  Names names(g);
  for (std::size_t i = 0; i < count; ++i) {
    if (!has_rank_mismatch(g, g.nodes[i])) continue;
    const std::size_t low = type_at(g, g.nodes[i], 0)->shape.size() < type_at(g, g.nodes[i], 1)->shape.size() ? 0 : 1;
    const std::size_t rank = type_at(g, g.nodes[i], 1 - low)->shape.size();
    const ValueId v = g.nodes[i].inputs[low];
    const Value src = g.values[v];
    Ints shape(rank - src.type.shape.size(), 1);
    shape.insert(shape.end(), src.type.shape.begin(), src.type.shape.end());
    TensorType t = src.type;
    t.shape = shape;  // numpy broadcasting aligns from the last dim: leading 1s change nothing
    if (src.constant) {
      g.nodes[i].inputs[low] = g.add_value(Value{names.unique(src.name + "_rank" + std::to_string(rank)), t, src.constant, {}});
    } else {
      if (!src.type.fully_known()) continue;
      const ValueId r = add_tensor(g, names, src.name + "_rank" + std::to_string(rank), t);
      const std::string name = g.nodes[i].name;
      g.nodes[i].inputs[low] = r;
      g.add_node(Node{"Reshape", (name.empty() ? src.name : name) + "_reshape" + std::to_string(low), {v}, {r},
                      {{"shape", Attr(shape)}}});
    }
    ++changed;
  }
  if (changed) remove_nodes(g, std::vector<bool>(g.nodes.size(), false));
  return changed;
}

std::size_t scalar_gather_as_reshape(Graph& g) {
  std::size_t changed = 0;
  const std::size_t count = g.nodes.size();
  Names names(g);
  for (std::size_t i = 0; i < count; ++i) {
    const Node& n = g.nodes[i];
    if (n.op != "Gather" || n.inputs.size() != 2 || n.outputs.size() != 1 || !valid(g, n.inputs[1])) continue;
    const Value& idx = g.values[n.inputs[1]];
    const TensorType* x = type_at(g, n, 0);
    const TensorType y = g.values[n.outputs[0]].type;
    if (!idx.constant || idx.type.unknown_rank || !idx.type.shape.empty() || !x || x->unknown_rank || !y.fully_known())
      continue;
    const int64_t r = int64_t(x->shape.size());
    int64_t axis = int_or(n, "axis", 0);
    if (axis < 0) axis += r;
    if (axis < 0 || axis >= r) continue;
    // ONNX Gather-13: output shape = X's dims before axis, the indices' dims, X's dims after axis;
    // a [1] index gives the same elements with a 1 at `axis`.
    TensorType mid = y;
    mid.shape.insert(mid.shape.begin() + axis, 1);
    TensorType it = idx.type;
    it.shape = {1};
    const Value index{names.unique(idx.name + "_1d"), it, idx.constant, {}};
    const std::string base = n.name.empty() ? g.values[n.outputs[0]].name : n.name;
    const ValueId nidx = g.add_value(index);
    const ValueId m = add_tensor(g, names, base + "_kept", mid);
    const std::vector<ValueId> outs = g.nodes[i].outputs;
    g.nodes[i].inputs[1] = nidx;
    g.nodes[i].outputs = {m};
    g.add_node(Node{"Reshape", base + "_reshape", {m}, outs, {{"shape", Attr(y.shape)}}});
    ++changed;
  }
  if (changed) remove_nodes(g, std::vector<bool>(g.nodes.size(), false));
  return changed;
}

namespace {
// Resize's scales (input 2) and sizes (input 3) list X's dims in X's order: in NCHW order for X
// transposed from NHWC. False (nothing changed) unless each present one is a constant of 4
// elements and roi (input 1) is absent or empty.
bool resize_operands_as_nchw(Graph& g, Names& names, Node& n) {
  auto present = [&](std::size_t k) { return k < n.inputs.size() && valid(g, n.inputs[k]); };
  if (present(1) && (!g.values[n.inputs[1]].constant || g.values[n.inputs[1]].constant->size() != 0)) return false;
  for (std::size_t k : {2, 3}) {
    if (!present(k)) continue;
    const Value& v = g.values[n.inputs[k]];
    const std::size_t width = v.type.dtype == DataType::Float32 ? 4 : v.type.dtype == DataType::Int64 ? 8 : 0;
    if (!v.constant || width == 0 || v.constant->size() != 4 * width) return false;
  }
  for (std::size_t k : {2, 3}) {
    if (!present(k)) continue;
    Value v = g.values[n.inputs[k]];
    const std::size_t width = v.constant->size() / 4;
    std::vector<std::byte> b(v.constant->size());
    const std::size_t from[4] = {0, 3, 1, 2};
    for (std::size_t d = 0; d < 4; ++d) std::memcpy(b.data() + d * width, v.constant->data() + from[d] * width, width);
    v.name = names.unique(n.name + (k == 2 ? "_scales_nchw" : "_sizes_nchw"));
    v.constant = Buffer::owned(std::move(b));
    v.attrs.clear();
    n.inputs[k] = g.add_value(std::move(v));
  }
  return true;
}
}  // namespace

std::size_t nhwc_as_nchw(Graph& g) {
  static const std::set<std::string> ops{"Conv",           "ConvTranspose", "MaxPool",     "AveragePool",
                                         "LpPool",         "GlobalAveragePool", "GlobalMaxPool", "BatchNormalization",
                                         "InstanceNormalization", "LRN",   "DepthToSpace", "SpaceToDepth", "Resize"};
  auto rank4 = [&](ValueId v) {
    return valid(g, v) && !g.values[v].type.unknown_rank && g.values[v].type.shape.size() == 4;
  };
  auto nchw = [](TensorType t) {
    t.shape = {t.shape[0], t.shape[3], t.shape[1], t.shape[2]};
    return t;
  };
  std::size_t changed = 0;
  Names names(g);
  std::vector<Node> out;
  out.reserve(g.nodes.size());
  for (Node& n : g.nodes) {
    const Attr* layout = find(n, "data_layout");
    if (!ops.count(n.op) || !layout || !layout->is<std::string>() || layout->get<std::string>() != "NHWC" ||
        n.inputs.empty() || n.outputs.size() != 1 || !rank4(n.inputs[0]) || !rank4(n.outputs[0])) {
      out.push_back(std::move(n));
      continue;
    }
    if (n.op == "Resize" && !resize_operands_as_nchw(g, names, n)) {
      out.push_back(std::move(n));
      continue;
    }
    const TensorType x = nchw(g.values[n.inputs[0]].type), y = nchw(g.values[n.outputs[0]].type);
    const ValueId x_nchw = add_tensor(g, names, n.name + "_nchw_in", x);
    const ValueId y_nchw = add_tensor(g, names, n.name + "_nchw_out", y);
    const ValueId y_nhwc = n.outputs[0];
    const std::string name = n.name;
    out.push_back(Node{"Transpose", name + "_to_nchw", {n.inputs[0]}, {x_nchw}, {{"perm", Attr(Ints{0, 3, 1, 2})}}});
    n.inputs[0] = x_nchw;
    n.outputs[0] = y_nchw;
    n.attrs["data_layout"] = Attr(std::string("NCHW"));
    out.push_back(std::move(n));
    out.push_back(Node{"Transpose", name + "_to_nhwc", {y_nchw}, {y_nhwc}, {{"perm", Attr(Ints{0, 2, 3, 1})}}});
    ++changed;
  }
  g.nodes = std::move(out);
  return changed;
}

std::size_t gemm_input_as_matrix(Graph& g) {
  std::size_t changed = 0;
  Names names(g);
  std::vector<Node> out;
  out.reserve(g.nodes.size());
  for (Node& n : g.nodes) {
    const TensorType* a = type_at(g, n, 0);
    const TensorType* b = type_at(g, n, 1);
    if (n.op != "Gemm" || int_or(n, "transA", 0) != 0 || !a || !b || a->unknown_rank || a->shape.size() <= 2 ||
        b->unknown_rank || b->shape.size() != 2) {
      out.push_back(std::move(n));
      continue;
    }
    const int64_t k = int_or(n, "transB", 0) ? b->shape[1] : b->shape[0];
    const auto count = a->element_count();
    if (!count || k <= 0 || *count % k) {
      out.push_back(std::move(n));
      continue;
    }
    TensorType flat_type = *a;
    flat_type.shape = {*count / k, k};
    const ValueId shape = g.add_value(Value{names.unique(n.name + "_matrix_shape"),
                                            TensorType{DataType::Int64, {2}, false, std::nullopt},
                                            bytes_of(Ints{*count / k, k}), {}});
    const ValueId flat = add_tensor(g, names, n.name + "_matrix", flat_type);
    out.push_back(Node{"Reshape", n.name + "_to_matrix", {n.inputs[0], shape}, {flat}, {}});
    n.inputs[0] = flat;
    out.push_back(std::move(n));
    ++changed;
  }
  g.nodes = std::move(out);
  return changed;
}

std::size_t gelu_as_arithmetic(Graph& g) {
  std::size_t changed = 0;
  Names names(g);
  std::vector<Node> out;
  out.reserve(g.nodes.size());
  for (Node& n : g.nodes) {
    const TensorType* xt = type_at(g, n, 0);
    const std::string approx = str_or(n, "approximate", "none");
    if (n.op != "Gelu" || !xt || xt->dtype != DataType::Float32 || n.outputs.size() != 1 ||
        (approx != "none" && approx != "tanh")) {
      out.push_back(std::move(n));
      continue;
    }
    const TensorType t = *xt;  // a copy: adding values moves the vector
    const ValueId x = n.inputs[0], y = n.outputs[0];
    const std::string& base = n.name;
    auto scalar = [&](const char* what, float v) { return add_f32(g, names, base + "_" + what, {v}, {}); };
    auto step = [&](const char* op, const char* what, std::vector<ValueId> in) {
      const ValueId v = add_tensor(g, names, base + "_" + what, t);
      out.push_back(Node{op, base + "_" + what, std::move(in), {v}, {}});
      return v;
    };
    ValueId inner;
    if (approx == "none") {
      inner = step("Erf", "erf", {step("Mul", "scaled", {x, scalar("inv_sqrt2", float(1.0 / std::sqrt(2.0)))})});
    } else {
      const ValueId cube = step("Mul", "cube", {step("Mul", "square", {x, x}), x});
      const ValueId sum = step("Add", "sum", {x, step("Mul", "cubic", {cube, scalar("k", 0.044715f)})});
      inner = step("Tanh", "tanh", {step("Mul", "scaled", {sum, scalar("sqrt_2_pi", float(std::sqrt(2.0 / std::numbers::pi)))})});
    }
    const ValueId half_x = step("Mul", "half_x", {x, scalar("half", 0.5f)});
    const ValueId one_plus = step("Add", "one_plus", {inner, scalar("one", 1.0f)});
    out.push_back(Node{"Mul", base, {half_x, one_plus}, {y}, {}});
    ++changed;
  }
  g.nodes = std::move(out);
  return changed;
}

}  // namespace nnbridge
