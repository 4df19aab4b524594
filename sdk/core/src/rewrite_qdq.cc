// Quantized tensors as ONNX's QDQ form (nnbridge/rewrite_qdq.h).
#include "nnbridge/rewrite_qdq.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>

#include "nnbridge/dtype.h"
#include "rewrite_edit.h"

namespace nnbridge {

using namespace rewrite_detail;

namespace {

std::optional<DataType> storage_type(DataType t) {
  switch (t) {
    case DataType::QAsymmU8: return DataType::UInt8;
    case DataType::QAsymmS8:
    case DataType::QSymmS8: return DataType::Int8;
    case DataType::QSymmS16: return DataType::Int16;
    default: return std::nullopt;
  }
}

// A quantized tensor's grid, checked: one scale (per tensor) or one per slice along `axis`.
struct Grid {
  DataType storage = DataType::Undefined;
  std::vector<float> scales;
  std::vector<int64_t> zero_points;  // one per scale
  std::optional<int64_t> axis;       // set when per-axis
  Ints shape;                        // the tensor's shape (rank known when per-axis)
};

std::optional<Grid> grid_of(const TensorType& t) {
  const auto storage = storage_type(t.dtype);
  if (!storage || !t.quantization) return std::nullopt;
  const Quantization& q = *t.quantization;
  const std::size_t n = q.scales.size();
  if (n == 0 || (q.zero_points.size() > 1 && q.zero_points.size() != n)) return std::nullopt;
  Grid g;
  g.storage = *storage;
  g.shape = t.shape;
  const int64_t lo = *storage == DataType::UInt8 ? 0 : *storage == DataType::Int8 ? -128 : -32768;
  const int64_t hi = *storage == DataType::UInt8 ? 255 : *storage == DataType::Int8 ? 127 : 32767;
  for (std::size_t i = 0; i < n; ++i) {
    const float s = static_cast<float>(q.scales[i]);
    if (!(s > 0) || !std::isfinite(s)) return std::nullopt;
    const int64_t z = q.zero_points.empty() ? 0 : q.zero_points.size() == 1 ? q.zero_points[0] : q.zero_points[i];
    if (z < lo || z > hi) return std::nullopt;
    g.scales.push_back(s);
    g.zero_points.push_back(z);
  }
  if (n > 1) {
    if (!q.axis || t.unknown_rank) return std::nullopt;
    const int64_t r = static_cast<int64_t>(t.shape.size()), a = *q.axis < 0 ? *q.axis + r : *q.axis;
    if (a < 0 || a >= r || (t.shape[std::size_t(a)] >= 0 && t.shape[std::size_t(a)] != int64_t(n))) return std::nullopt;
    g.axis = a;
  }
  return g;
}

TensorType float_type(const TensorType& t) { return TensorType{DataType::Float32, t.shape, t.unknown_rank, std::nullopt}; }

// Emits the nodes that convert between a tensor's stored integers and its real values.
class Emitter {
 public:
  Emitter(Graph& g, Names& names) : g_(g), names_(names) {}

  // `base` is taken by value: the graph's values move as nodes are added.
  // DequantizeLinear(q) -> real, or qsymms16's Cast, [Sub], Mul.
  void dequantize(std::vector<Node>& out, std::string base, const Grid& grid, ValueId q, ValueId real) {
    if (grid.storage != DataType::Int16) {
      out.push_back(Node{"DequantizeLinear", base + "_dequantize", {q, scale(base, grid), zero_point(base, grid)}, {real}, axis_attr(grid)});
      return;
    }
    const TensorType t = g_.values[real].type;
    ValueId v = step(out, "Cast", base + "_to_float", {q}, t, {{"to", Attr(std::string("float32"))}});
    if (nonzero_zero_point(grid)) v = step(out, "Sub", base + "_minus_zero_point", {v, broadcast(base + "_zero_point_f", grid, true)}, t, {});
    out.push_back(Node{"Mul", base + "_dequantize", {v, broadcast(base + "_scale", grid, false)}, {real}, {}});
  }

  // QuantizeLinear(real) -> q, or qsymms16's Div, Round, [Add], Clip, Cast.
  void quantize(std::vector<Node>& out, std::string base, const Grid& grid, ValueId real, ValueId q) {
    if (grid.storage != DataType::Int16) {
      out.push_back(Node{"QuantizeLinear", base + "_quantize", {real, scale(base, grid), zero_point(base, grid)}, {q}, axis_attr(grid)});
      return;
    }
    const TensorType t = g_.values[real].type;
    ValueId v = step(out, "Div", base + "_scaled", {real, broadcast(base + "_scale", grid, false)}, t, {});
    v = step(out, "Round", base + "_rounded", {v}, t, {});
    if (nonzero_zero_point(grid)) v = step(out, "Add", base + "_plus_zero_point", {v, broadcast(base + "_zero_point_f", grid, true)}, t, {});
    const ValueId lo = add_f32(g_, names_, base + "_min", {-32768.0f}, {});
    const ValueId hi = add_f32(g_, names_, base + "_max", {32767.0f}, {});
    v = step(out, "Clip", base + "_saturated", {v, lo, hi}, t, {});
    out.push_back(Node{"Cast", base + "_quantize", {v}, {q}, {{"to", Attr(std::string("int16"))}}});
  }

 private:
  ValueId step(std::vector<Node>& out, const char* op, const std::string& name, std::vector<ValueId> in, const TensorType& t,
               AttrMap attrs) {
    const ValueId v = add_tensor(g_, names_, name, t);
    out.push_back(Node{op, name, std::move(in), {v}, std::move(attrs)});
    return v;
  }
  static bool nonzero_zero_point(const Grid& grid) {
    for (int64_t z : grid.zero_points)
      if (z != 0) return true;
    return false;
  }
  static AttrMap axis_attr(const Grid& grid) {
    if (!grid.axis) return {};
    return {{"axis", Attr(*grid.axis)}};
  }
  Ints param_shape(const Grid& grid) const { return grid.axis ? Ints{int64_t(grid.scales.size())} : Ints{}; }
  ValueId scale(const std::string& base, const Grid& grid) {
    return add_f32(g_, names_, base + "_scale", grid.axis ? grid.scales : std::vector<float>{grid.scales[0]}, param_shape(grid));
  }
  ValueId zero_point(const std::string& base, const Grid& grid) {
    const std::size_t n = grid.axis ? grid.zero_points.size() : 1;
    Buffer data;
    if (grid.storage == DataType::UInt8) {
      std::vector<uint8_t> z;
      for (std::size_t i = 0; i < n; ++i) z.push_back(static_cast<uint8_t>(grid.zero_points[i]));
      data = bytes_of(z);
    } else {
      std::vector<int8_t> z;
      for (std::size_t i = 0; i < n; ++i) z.push_back(static_cast<int8_t>(grid.zero_points[i]));
      data = bytes_of(z);
    }
    return g_.add_value(Value{names_.unique(base + "_zero_point"), TensorType{grid.storage, param_shape(grid), false, std::nullopt},
                              std::move(data), {}});
  }
  // The scales (or zero points, as float32) shaped to broadcast against the tensor: a scalar,
  // or the count at `axis` and 1 elsewhere.
  ValueId broadcast(const std::string& name, const Grid& grid, bool zero_points) {
    std::vector<float> v;
    for (std::size_t i = 0; i < (grid.axis ? grid.scales.size() : 1); ++i)
      v.push_back(zero_points ? static_cast<float>(grid.zero_points[i]) : grid.scales[i]);
    Ints shape;
    if (grid.axis) {
      shape.assign(grid.shape.size(), 1);
      shape[std::size_t(*grid.axis)] = int64_t(grid.scales.size());
    }
    return add_f32(g_, names_, name, v, shape);
  }

  Graph& g_;
  Names& names_;
};

bool reads_storage(const Node& n) { return n.op == "Cast"; }
bool arm_quantize(const Node& n) { return n.op == "QuantizeLinear" && n.inputs.size() == 1 && n.outputs.size() == 1; }
bool arm_dequantize(const Node& n) { return n.op == "DequantizeLinear" && n.inputs.size() == 1 && n.outputs.size() == 1; }

// Arm NN's quantized Convolution2d / TransposeConvolution2d / FullyConnected bias: Int32 with
// scale = X scale * W scale (per output channel when W is per-axis), zero point 0
// (armnn::Convolution2dLayer / FullyConnectedLayer validation; the reference workloads decode
// it with that scale). The scales, or nullopt when the node has no such bias.
std::optional<std::vector<float>> implied_bias_scales(const Graph& g, const Node& n, const std::vector<std::optional<Grid>>& grids) {
  if ((n.op != "Conv" && n.op != "ConvTranspose" && n.op != "Gemm") || n.inputs.size() < 3) return std::nullopt;
  const ValueId x = n.inputs[0], w = n.inputs[1], b = n.inputs[2];
  if (!valid(g, x) || !valid(g, w) || !valid(g, b) || !grids[x] || !grids[w]) return std::nullopt;
  const TensorType& bt = g.values[b].type;
  if (bt.dtype != DataType::Int32 || (bt.quantization && !bt.quantization->scales.empty())) return std::nullopt;
  const auto count = bt.element_count();
  if (!count || *count <= 0 || bt.shape.size() != 1) return std::nullopt;
  const Grid& wg = *grids[w];
  std::vector<float> s(static_cast<std::size_t>(*count));
  for (std::size_t o = 0; o < s.size(); ++o)
    s[o] = static_cast<float>(double(grids[x]->scales[0]) * (wg.scales.size() == s.size() ? wg.scales[o] : wg.scales[0]));
  return s;
}

bool x_typed_scalars(const Graph& g, const Node& n, const std::vector<std::optional<Grid>>& grids) {
  return (n.op == "Pad" || n.op == "Clip") && !n.inputs.empty() && valid(g, n.inputs[0]) && n.inputs[0] < grids.size() &&
         grids[n.inputs[0]];
}

}  // namespace

std::size_t quantized_as_qdq(Graph& g) {
  const std::size_t nv = g.values.size();
  std::vector<std::optional<Grid>> grids(nv);
  std::size_t count = 0;
  for (ValueId v = 0; v < nv; ++v)
    if ((grids[v] = grid_of(g.values[v].type))) ++count;
  if (count == 0) return 0;

  // Which tensors some node reads as real values (everything but Cast and Arm NN Dequantize).
  std::vector<bool> read_real(nv, false);
  for (const Node& n : g.nodes) {
    if (reads_storage(n) || arm_dequantize(n)) continue;
    for (ValueId v : n.inputs)
      if (valid(g, v) && v < nv && grids[v]) read_real[v] = true;
  }

  Names names(g);
  Emitter emit(g, names);
  std::vector<ValueId> real(nv, kNoValue);
  for (ValueId v = 0; v < nv; ++v)
    if (grids[v] && read_real[v]) real[v] = add_tensor(g, names, g.values[v].name + "_dequantized", float_type(g.values[v].type));

  std::vector<Node> out;
  out.reserve(g.nodes.size() * 2);
  std::vector<bool> produced(nv, false);
  for (const Node& n : g.nodes)
    for (ValueId v : n.outputs)
      if (valid(g, v) && v < nv) produced[v] = true;
  // Graph inputs and constants: dequantized before every node.
  for (ValueId v = 0; v < nv; ++v)
    if (grids[v] && !produced[v] && real[v] != kNoValue) emit.dequantize(out, g.values[v].name, *grids[v], v, real[v]);

  std::vector<Node> nodes = std::move(g.nodes);
  g.nodes.clear();
  for (Node& n : nodes) {
    if (const auto bias = implied_bias_scales(g, n, grids)) {
      const ValueId b = n.inputs[2];
      Grid bg;
      bg.storage = DataType::Int32;
      bg.scales = *bias;
      bg.zero_points.assign(bias->size(), 0);
      bg.axis = 0;
      const ValueId fb = add_tensor(g, names, g.values[b].name + "_dequantized", float_type(g.values[b].type));
      const std::string base = names.unique(n.name + "_bias");
      const ValueId sc = add_f32(g, names, base + "_scale", bg.scales, {int64_t(bg.scales.size())});
      const ValueId zp = g.add_value(Value{names.unique(base + "_zero_point"), TensorType{DataType::Int32, {int64_t(bg.scales.size())}, false, std::nullopt},
                                           bytes_of(std::vector<int32_t>(bg.scales.size(), 0)), {}});
      out.push_back(Node{"DequantizeLinear", base + "_dequantize", {b, sc, zp}, {fb}, {{"axis", Attr(int64_t{0})}}});
      n.inputs[2] = fb;
    }
    if (arm_dequantize(n) && valid(g, n.inputs[0]) && n.inputs[0] < nv && grids[n.inputs[0]]) {
      const ValueId q = n.inputs[0];
      emit.dequantize(out, n.name, *grids[q], q, n.outputs[0]);
      continue;
    }
    if (x_typed_scalars(g, n, grids)) {
      // Pad's constant_value and Clip's bounds have X's type; a quantized X's real values are
      // held as float64 scalars (exact), the float32 computation takes them rounded to float32.
      for (std::size_t k = 1; k < n.inputs.size(); ++k) {
        const ValueId c = n.inputs[k];
        if (!valid(g, c) || !g.values[c].constant || g.values[c].type.dtype != DataType::Float64 || g.values[c].constant->size() != 8) continue;
        double x;
        std::memcpy(&x, g.values[c].constant->data(), 8);
        n.inputs[k] = add_f32(g, names, g.values[c].name + "_f32", {static_cast<float>(x)}, g.values[c].type.shape);
      }
    }
    if (!reads_storage(n))
      for (ValueId& v : n.inputs)
        if (valid(g, v) && v < nv && grids[v]) v = real[v];
    if (arm_quantize(n) && valid(g, n.outputs[0]) && n.outputs[0] < nv && grids[n.outputs[0]]) {
      const ValueId q = n.outputs[0];
      emit.quantize(out, n.name, *grids[q], n.inputs[0], q);
      if (real[q] != kNoValue) emit.dequantize(out, g.values[q].name, *grids[q], q, real[q]);
      continue;
    }
    if (reads_storage(n)) {
      for (ValueId q : n.outputs)
        if (valid(g, q) && q < nv && grids[q]) n.attrs["to"] = Attr(std::string(to_string(grids[q]->storage)));
      std::vector<ValueId> outs = n.outputs;
      out.push_back(std::move(n));
      for (ValueId q : outs)
        if (valid(g, q) && q < nv && grids[q] && real[q] != kNoValue) emit.dequantize(out, g.values[q].name, *grids[q], q, real[q]);
      continue;
    }
    std::vector<std::pair<ValueId, ValueId>> results;  // (computed real value, stored tensor)
    for (ValueId& v : n.outputs)
      if (valid(g, v) && v < nv && grids[v]) {
        const ValueId r = add_tensor(g, names, g.values[v].name + "_real", float_type(g.values[v].type));
        results.emplace_back(r, v);
        v = r;
      }
    out.push_back(std::move(n));
    for (auto [r, q] : results) {
      emit.quantize(out, g.values[q].name, *grids[q], r, q);
      if (real[q] != kNoValue) emit.dequantize(out, g.values[q].name, *grids[q], q, real[q]);
    }
  }
  g.nodes = std::move(out);
  for (ValueId v = 0; v < nv; ++v)
    if (grids[v]) {
      g.values[v].type.dtype = grids[v]->storage;
      g.values[v].type.quantization.reset();
    }
  return count;
}

}  // namespace nnbridge
