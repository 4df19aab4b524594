// ONNX's QDQ form folded into quantized tensors (nnbridge/rewrite_qdq.h, qdq_as_quantized).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <set>
#include <string>

#include "nnbridge/rewrite_qdq.h"
#include "rewrite_edit.h"

namespace nnbridge {

using namespace rewrite_detail;

namespace {

bool is_q(const Node& n) { return n.op == "QuantizeLinear"; }
bool is_dq(const Node& n) { return n.op == "DequantizeLinear"; }

// The elements of a constant as doubles: float32, uint8, int8 or int32; nullopt otherwise.
std::optional<std::vector<double>> numbers(const Graph& g, ValueId v) {
  if (!valid(g, v) || !g.values[v].constant) return std::nullopt;
  const Value& c = g.values[v];
  const std::size_t size = element_size(c.type.dtype);
  const auto count = c.type.element_count();
  if (!count || size == 0 || c.constant->size() != std::size_t(*count) * size) return std::nullopt;
  std::vector<double> out(static_cast<std::size_t>(*count));
  const std::byte* p = c.constant->data();
  for (std::size_t i = 0; i < out.size(); ++i) {
    switch (c.type.dtype) {
      case DataType::Float32: { float x; std::memcpy(&x, p + 4 * i, 4); out[i] = x; break; }
      case DataType::UInt8: out[i] = double(std::to_integer<uint8_t>(p[i])); break;
      case DataType::Int8: out[i] = double(static_cast<int8_t>(std::to_integer<uint8_t>(p[i]))); break;
      case DataType::Int32: { int32_t x; std::memcpy(&x, p + 4 * i, 4); out[i] = x; break; }
      default: return std::nullopt;
    }
  }
  return out;
}

// The quantized type a Q / DQ node (inputs: the real or stored tensor, scale, zero point) gives
// its stored tensor `q`, or nullopt when its operands are not constants of ONNX's forms.
std::optional<TensorType> grid_type(const Graph& g, const Node& n, ValueId q) {
  if (n.inputs.size() < 2 || n.inputs.size() > 3 || !valid(g, q)) return std::nullopt;
  const TensorType& t = g.values[q].type;
  if (t.dtype != DataType::UInt8 && t.dtype != DataType::Int8) return std::nullopt;
  const auto scales = numbers(g, n.inputs[1]);
  if (!scales || scales->empty() || g.values[n.inputs[1]].type.dtype != DataType::Float32 || g.values[n.inputs[1]].type.shape.size() > 1)
    return std::nullopt;
  for (double s : *scales)
    if (!(s > 0) || !std::isfinite(s)) return std::nullopt;
  std::vector<double> zps(scales->size(), 0.0);
  if (n.inputs.size() == 3 && valid(g, n.inputs[2])) {
    if (g.values[n.inputs[2]].type.dtype != t.dtype) return std::nullopt;
    const auto z = numbers(g, n.inputs[2]);
    if (!z || z->size() != scales->size()) return std::nullopt;
    zps = *z;
  }
  Quantization qn;
  qn.scales = *scales;
  for (double z : zps) qn.zero_points.push_back(int64_t(z));
  const bool per_axis = g.values[n.inputs[1]].type.shape.size() == 1 && scales->size() > 1;
  TensorType out = t;
  if (per_axis) {
    if (t.unknown_rank) return std::nullopt;
    const int64_t r = int64_t(t.shape.size());
    int64_t axis = int_or(n, "axis", 1);
    if (axis < 0) axis += r;
    if (axis < 0 || axis >= r || (t.shape[std::size_t(axis)] >= 0 && t.shape[std::size_t(axis)] != int64_t(scales->size())))
      return std::nullopt;
    for (double z : zps)
      if (z != 0) return std::nullopt;  // Arm NN's per-axis type is symmetric
    if (t.dtype != DataType::Int8) return std::nullopt;
    qn.axis = axis;
    qn.zero_points = {0};
    out.dtype = DataType::QSymmS8;
  } else {
    qn.scales.resize(1);
    qn.zero_points.resize(1);
    out.dtype = t.dtype == DataType::UInt8 ? DataType::QAsymmU8 : DataType::QAsymmS8;
  }
  out.quantization = qn;
  return out;
}

// Ops that only move values: outputs on their input's grid.
bool moves_values(const std::string& op) {
  static const std::set<std::string, std::less<>> ops = {"Reshape", "Transpose", "Squeeze",     "Unsqueeze",    "Flatten",
                                                         "Identity", "MaxPool",  "Slice",       "Gather",       "Split",
                                                         "Concat",   "DepthToSpace", "SpaceToDepth"};
  return ops.count(op) > 0;
}

TensorType real_type(TensorType t) {
  t.dtype = DataType::Float32;
  t.quantization.reset();
  return t;
}

// What is left mixed (an op with a quantized output and a computed float32 input, or quantized
// inputs and float32 outputs: a layer Arm NN has no form for) computes in float32 between a
// Dequantize of its quantized inputs and a Quantize of its quantized outputs, one-input
// DequantizeLinear / QuantizeLinear (Arm NN's layers). Returns the number of tensors affected.
std::size_t mixed_types_split(Graph& g) {
  Names names(g);
  std::size_t changed = 0;
  std::vector<Node> out;
  out.reserve(g.nodes.size());
  std::vector<Node> nodes = std::move(g.nodes);
  g.nodes.clear();
  for (Node& n : nodes) {
    if (is_q(n) || is_dq(n) || n.op == "Cast" || n.op.find('.') != std::string::npos) {  // and format-native ops
      out.push_back(std::move(n));
      continue;
    }
    bool q_out = false, q_in = false, f_in = false, f_out = !n.outputs.empty();
    for (ValueId v : n.outputs) {
      q_out = q_out || (valid(g, v) && is_quantized(g.values[v].type.dtype));
      f_out = f_out && valid(g, v) && g.values[v].type.dtype == DataType::Float32;
    }
    for (ValueId v : n.inputs) {
      if (!valid(g, v)) continue;
      q_in = q_in || is_quantized(g.values[v].type.dtype);
      f_in = f_in || (g.values[v].type.dtype == DataType::Float32 && !g.values[v].constant);
    }
    std::vector<std::pair<ValueId, ValueId>> requantize;  // (float result, stored tensor)
    if (q_out && f_in) {
      for (ValueId& v : n.outputs)
        if (valid(g, v) && is_quantized(g.values[v].type.dtype)) {
          const ValueId r = add_tensor(g, names, g.values[v].name + "_real", real_type(g.values[v].type));
          requantize.emplace_back(r, v);
          v = r;
          ++changed;
        }
      f_out = std::all_of(n.outputs.begin(), n.outputs.end(),
                          [&](ValueId v) { return valid(g, v) && g.values[v].type.dtype == DataType::Float32; });
    }
    if (q_in && f_out) {
      for (ValueId& v : n.inputs)
        if (valid(g, v) && is_quantized(g.values[v].type.dtype)) {
          const ValueId r = add_tensor(g, names, g.values[v].name + "_dequantized", real_type(g.values[v].type));
          out.push_back(Node{"DequantizeLinear", g.values[r].name, {v}, {r}, {}});
          v = r;
          ++changed;
        }
    }
    out.push_back(std::move(n));
    for (auto [r, q] : requantize) out.push_back(Node{"QuantizeLinear", g.values[q].name + "_quantize", {r}, {q}, {}});
  }
  g.nodes = std::move(out);
  return changed;
}

}  // namespace

std::size_t qdq_as_quantized(Graph& g) {
  const std::size_t nv = g.values.size();
  // 1. The grid of each stored tensor, from every Q / DQ node at it; a disagreement marks it bad.
  std::vector<std::optional<TensorType>> grid(nv);
  std::vector<bool> bad(nv, false);
  auto note = [&](ValueId q, const std::optional<TensorType>& t) {
    if (!valid(g, q) || q >= nv || bad[q]) return;
    if (!t || (grid[q] && !(*grid[q] == *t))) {
      bad[q] = true;
      grid[q].reset();
      return;
    }
    grid[q] = t;
  };
  for (const Node& n : g.nodes) {
    if (is_dq(n) && n.inputs.size() >= 2 && valid(g, n.inputs[0]) && g.values[n.inputs[0]].type.dtype != DataType::Int32)
      note(n.inputs[0], grid_type(g, n, n.inputs[0]));
    if (is_q(n) && n.inputs.size() >= 2 && n.outputs.size() == 1) note(n.outputs[0], grid_type(g, n, n.outputs[0]));
  }
  auto gridded = [&](ValueId v) { return valid(g, v) && v < nv && grid[v].has_value(); };
  if (std::none_of(grid.begin(), grid.end(), [](const auto& t) { return t.has_value(); })) return 0;
  std::vector<long> producer = producers(g);

  // 2. Arm NN's Int32 bias: DequantizeLinear(b, X scale * W scale, 0) -> b.
  // The stored tensor a DQ output reads, through ops that move values (an NHWC op's Transpose),
  // or kNoValue.
  auto dq_source = [&](ValueId v) -> ValueId {
    for (int depth = 0; depth < 8 && valid(g, v) && producer[v] >= 0; ++depth) {
      const Node& p = g.nodes[std::size_t(producer[v])];
      if (is_dq(p)) return gridded(p.inputs[0]) ? p.inputs[0] : kNoValue;
      if (!moves_values(p.op) || p.op == "Concat" || p.inputs.empty()) return kNoValue;
      v = p.inputs[0];
    }
    return kNoValue;
  };
  for (Node& n : g.nodes) {
    if ((n.op != "Conv" && n.op != "ConvTranspose" && n.op != "Gemm") || n.inputs.size() < 3 || !valid(g, n.inputs[2]) ||
        producer[n.inputs[2]] < 0)
      continue;
    const Node& d = g.nodes[std::size_t(producer[n.inputs[2]])];
    const ValueId x = dq_source(n.inputs[0]), w = dq_source(n.inputs[1]);
    if (!is_dq(d) || x == kNoValue || w == kNoValue || d.inputs.size() < 2 || !valid(g, d.inputs[0])) continue;
    const Value& b = g.values[d.inputs[0]];
    const auto scales = numbers(g, d.inputs[1]);
    const auto zps = d.inputs.size() > 2 && valid(g, d.inputs[2]) ? numbers(g, d.inputs[2]) : std::optional<std::vector<double>>(std::vector<double>{});
    if (b.type.dtype != DataType::Int32 || !b.constant || b.type.shape.size() != 1 || !scales || !zps) continue;
    bool ok = true;
    for (double z : *zps) ok = ok && z == 0;
    const auto& xs = grid[x]->quantization->scales;
    const auto& ws = grid[w]->quantization->scales;
    const std::size_t m = std::size_t(b.type.shape[0]);
    if (scales->size() != 1 && scales->size() != m) ok = false;
    for (std::size_t o = 0; ok && o < m; ++o) {
      const double want = xs[0] * (ws.size() == m ? ws[o] : ws[0]);
      const double have = (*scales)[scales->size() == 1 ? 0 : o];
      ok = std::fabs(have - want) <= 1e-6 * want;
    }
    if (ok) n.inputs[2] = d.inputs[0];
  }

  // 3. Quantized types; Q / DQ nodes at a gridded tensor take Arm NN's one-input form.
  std::size_t count = 0;
  for (ValueId v = 0; v < nv; ++v)
    if (grid[v]) {
      g.values[v].type = *grid[v];
      ++count;
    }
  for (Node& n : g.nodes)
    if ((is_dq(n) && !n.inputs.empty() && gridded(n.inputs[0])) || (is_q(n) && n.outputs.size() == 1 && gridded(n.outputs[0]))) {
      n.inputs.resize(1);
      n.attrs.erase("axis");
    }

  // 4. A Q after the only reading of an op's result: the op writes the stored tensor.
  std::vector<int> readers = reader_counts(g);
  std::vector<bool> drop(g.nodes.size(), false);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& q = g.nodes[i];
    if (!is_q(q) || q.inputs.size() != 1 || q.outputs.size() != 1 || !gridded(q.outputs[0])) continue;
    const ValueId r = q.inputs[0];
    if (!valid(g, r) || producer[r] < 0 || readers[r] != 1) continue;
    Node* p = &g.nodes[std::size_t(producer[r])];
    if (is_q(*p) || is_dq(*p) || p->op == "Cast") continue;
    // An op that moves stored bytes (Arm NN's Reshape, Transpose, Slice, ... copy them) cannot
    // requantize: from a tensor of another grid, the Q stays (Arm NN's Quantize layer).
    if (moves_values(p->op) && p->op != "Concat" && p->op != "MaxPool" && !p->inputs.empty()) {
      const ValueId src = dq_source(p->inputs[0]);
      if (src != kNoValue && !(grid[src]->dtype == g.values[q.outputs[0]].type.dtype &&
                               grid[src]->quantization == g.values[q.outputs[0]].type.quantization))
        continue;
    }
    for (ValueId& o : p->outputs)
      if (o == r) o = q.outputs[0];
    drop[i] = true;
    // Rounding commutes with moving values: back through single-reader moves (the Transposes
    // around an NHWC op), the op that computes the values rounds them.
    const TensorType& qt = g.values[q.outputs[0]].type;
    while (moves_values(p->op) && p->op != "Concat" && p->op != "Split" && !p->inputs.empty() && !qt.quantization->axis) {
      const ValueId c = p->inputs[0];
      if (!valid(g, c) || producer[c] < 0 || readers[c] != 1 || g.values[c].type.dtype != DataType::Float32) break;
      Node& before = g.nodes[std::size_t(producer[c])];
      if (is_q(before) || is_dq(before) || before.op == "Cast") break;
      const std::vector<int64_t> shape = g.values[c].type.shape;
      g.values[c].type = qt;
      g.values[c].type.shape = shape;
      ++count;
      p = &before;
    }
  }
  // A DQ that no longer has a reader (a folded bias) goes.
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& d = g.nodes[i];
    if (is_dq(d) && d.outputs.size() == 1 && valid(g, d.outputs[0]) && readers[d.outputs[0]] == 0 &&
        std::find(g.outputs.begin(), g.outputs.end(), d.outputs[0]) == g.outputs.end())
      drop[i] = true;
  }
  // 5. A DQ whose result is no graph output and feeds no Cast: its readers read the stored tensor.
  std::vector<bool> is_output(g.values.size(), false);
  for (ValueId v : g.outputs)
    if (valid(g, v)) is_output[v] = true;
  std::vector<bool> cast_reads(g.values.size(), false);
  for (const Node& n : g.nodes)
    if (n.op == "Cast")
      for (ValueId v : n.inputs)
        if (valid(g, v)) cast_reads[v] = true;
  std::vector<ValueId> replace(g.values.size(), kNoValue);
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& d = g.nodes[i];
    if (drop[i] || !is_dq(d) || d.inputs.size() != 1 || d.outputs.size() != 1 || !gridded(d.inputs[0])) continue;
    const ValueId r = d.outputs[0];
    if (!valid(g, r) || is_output[r] || cast_reads[r]) continue;
    replace[r] = d.inputs[0];
    drop[i] = true;
  }
  for (std::size_t i = 0; i < g.nodes.size(); ++i)
    if (!drop[i])
      for (ValueId& v : g.nodes[i].inputs)
        if (valid(g, v) && replace[v] != kNoValue) v = replace[v];

  // 6. Ops that move values keep their input's grid (in node order, so chains follow).
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    Node& n = g.nodes[i];
    if (drop[i] || !moves_values(n.op) || n.inputs.empty() || !valid(g, n.inputs[0])) continue;
    const TensorType& x = g.values[n.inputs[0]].type;
    if (!is_quantized(x.dtype) || x.quantization->axis) continue;
    bool same = true;
    if (n.op == "Concat")
      for (ValueId v : n.inputs) same = same && valid(g, v) && g.values[v].type.dtype == x.dtype && g.values[v].type.quantization == x.quantization;
    if (!same) continue;
    for (ValueId o : n.outputs)
      if (valid(g, o) && !is_output[o] && g.values[o].type.dtype == DataType::Float32) {
        const std::vector<int64_t> shape = g.values[o].type.shape;
        const bool unknown = g.values[o].type.unknown_rank;
        g.values[o].type = x;
        g.values[o].type.shape = shape;
        g.values[o].type.unknown_rank = unknown;
        ++count;
      }
  }
  remove_nodes(g, drop);
  count += mixed_types_split(g);
  return count;
}

}  // namespace nnbridge
