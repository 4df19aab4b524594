#include "quantized_chain.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace nnbridge::cpu_ref {

namespace {

bool is_8bit(DataType t) { return t == DataType::UInt8 || t == DataType::Int8; }

// The one element of constant v as a float, when v is a constant of one element of dtype `want`.
std::optional<float> scalar(const Graph& work, ValueId v, DataType want) {
  if (v == kNoValue || v >= work.values.size()) return std::nullopt;
  const Value& val = work.values[v];
  if (!val.constant || val.type.dtype != want || val.type.element_count() != 1 || val.constant->size() != element_size(want))
    return std::nullopt;
  const std::byte* p = val.constant->data();
  switch (want) {
    case DataType::Float32: {
      float f;
      std::memcpy(&f, p, sizeof f);
      return f;
    }
    case DataType::UInt8: return static_cast<float>(static_cast<uint8_t>(p[0]));
    case DataType::Int8: return static_cast<float>(static_cast<int8_t>(p[0]));
    default: return std::nullopt;
  }
}

// A declared type that is unknown or says `dtype` and `shape`.
bool agrees(const TensorType& t, DataType dtype, const std::vector<int64_t>& shape) {
  if (t.dtype != DataType::Undefined && t.dtype != dtype) return false;
  if (t.unknown_rank) return true;
  if (t.shape.size() != shape.size()) return false;
  for (std::size_t k = 0; k < shape.size(); ++k)
    if (t.shape[k] >= 0 && t.shape[k] != shape[k]) return false;
  return true;
}

ValueId input_at(const Node& n, std::size_t k) { return k < n.inputs.size() ? n.inputs[k] : kNoValue; }

// Scale and zero point of a DequantizeLinear / QuantizeLinear whose integer side has dtype t.
bool scale_and_zero(const Graph& work, const Node& n, DataType t, float& scale, float& zero) {
  const auto s = scalar(work, input_at(n, 1), DataType::Float32);
  if (!s) return false;
  scale = *s, zero = 0.0f;
  if (input_at(n, 2) == kNoValue) return true;
  const auto z = scalar(work, input_at(n, 2), t);
  if (!z) return false;
  zero = *z;
  return true;
}

}  // namespace

std::optional<QuantizedChain> quantized_chain(const Graph& work, std::size_t dq, const std::vector<int>& readers,
                                              const std::vector<std::size_t>& reader) {
  const Node& d = work.nodes[dq];
  if (d.op != "DequantizeLinear" || d.inputs.empty() || d.outputs.size() != 1) return std::nullopt;
  QuantizedChain c;
  c.input = d.inputs[0];
  const TensorType& xt = work.values[c.input].type;
  if (!is_8bit(xt.dtype) || !xt.fully_known()) return std::nullopt;
  if (!scale_and_zero(work, d, xt.dtype, c.dq_scale, c.dq_zero)) return std::nullopt;
  c.nodes.push_back(dq);
  c.count = *xt.element_count();

  // Follow the only reader of each value: Relu / Clip on float32, then the QuantizeLinear.
  ValueId v = d.outputs[0];
  for (;;) {
    if (v >= readers.size() || readers[v] != 1 || reader[v] >= work.nodes.size()) return std::nullopt;
    // (The types after this node are not resolved yet: the declared ones must agree with the
    // ops' rules, float32 and X's shape, where they say anything.)
    if (!agrees(work.values[v].type, DataType::Float32, xt.shape)) return std::nullopt;
    const std::size_t j = reader[v];
    const Node& n = work.nodes[j];
    if (n.inputs.empty() || n.inputs[0] != v || n.outputs.size() != 1) return std::nullopt;
    if (n.op == "Relu") {
      c.unary.push_back({simd::Unary::Relu, {}});
    } else if (n.op == "Clip") {
      simd::UnaryParams p{-INFINITY, INFINITY};
      for (std::size_t k : {std::size_t{1}, std::size_t{2}}) {
        if (input_at(n, k) == kNoValue) continue;
        const auto b = scalar(work, input_at(n, k), DataType::Float32);
        if (!b) return std::nullopt;
        (k == 1 ? p.a : p.b) = *b;
      }
      c.unary.push_back({simd::Unary::Clip, p});
    } else if (n.op == "QuantizeLinear") {
      c.output = n.outputs[0];
      // QuantizeLinear-13: Y has y_zero_point's type, uint8 without one.
      const ValueId zp = input_at(n, 2);
      const DataType yd = zp == kNoValue || zp >= work.values.size() ? DataType::UInt8 : work.values[zp].type.dtype;
      if (!is_8bit(yd) || !agrees(work.values[c.output].type, yd, xt.shape)) return std::nullopt;
      if (!scale_and_zero(work, n, yd, c.q_scale, c.q_zero)) return std::nullopt;
      c.lo = yd == DataType::UInt8 ? 0.0f : -128.0f, c.hi = yd == DataType::UInt8 ? 255.0f : 127.0f;
      c.nodes.push_back(j);
      return c;
    } else {
      return std::nullopt;
    }
    c.nodes.push_back(j);
    v = n.outputs[0];
  }
}

void run_quantized_chain(const QuantizedChain& c, const float* x, float* y, int64_t n) {
  const simd::Kernels& k = simd::kernels();
  constexpr int64_t kChunk = 512;  // floats: 2 KiB, in L1 from one kernel to the next
  alignas(64) float tmp[kChunk];
  for (int64_t p = 0; p < n; p += kChunk) {
    const std::size_t m = static_cast<std::size_t>(std::min(kChunk, n - p));
    k.dequantize(x + p, tmp, m, c.dq_scale, c.dq_zero);
    for (const QuantizedChain::Unary& u : c.unary) k.unary(u.op, u.p, tmp, tmp, m);
    k.quantize(tmp, y + p, m, c.q_scale, c.q_zero, c.lo, c.hi);
  }
}

Kernel make_quantized_chain(const QuantizedChain& c, int threads) {
  const int t = c.count < (int64_t{1} << 16) ? 1 : threads;
  return [c, t](std::span<const float* const> in, std::span<float* const> out) {
    parallel_ranges(t, c.count, int64_t{1} << 15, [&](int64_t b, int64_t e) { run_quantized_chain(c, in[0] + b, out[0] + b, e - b); }, 16);
  };
}

}  // namespace nnbridge::cpu_ref
