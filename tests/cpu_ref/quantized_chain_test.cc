// DequantizeLinear -> Relu / Clip -> QuantizeLinear, fused by the cpu plan into one pass
// (cpu_ref/src/kernels/quantized_chain.h), against the ONNX formulas computed here in float32:
// DequantizeLinear-13 (x - x_zero_point) * x_scale, Relu-14 max(0, v), Clip-13
// min(max(v, min), max), QuantizeLinear-13 saturate(round_half_even(v / y_scale) + y_zero_point).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/exec.h"
#include "nnbridge/exec/shape.h"
#include "one_node.h"

using namespace nnbridge;
using namespace nnbridge::test;

namespace {

struct ChainCase {
  DataType x_type = DataType::UInt8, y_type = DataType::UInt8;
  float xs = 0.0371f, xz = 117, ys = 0.0235f, yz = 3;
  bool relu = false;
  std::optional<float> clip_min, clip_max;  // a Clip node when either is set
  bool clip = false;
  bool dq_output_is_graph_output = false;   // then nothing may be fused
};

std::vector<int64_t> kShape{1, 4, 130, 131};  // 68,120 elements: past one chunk, split across threads

template <class T>
Buffer one(float v) {
  return bytes_of(std::vector<T>{static_cast<T>(v)});
}

Buffer zero_point(DataType t, float v) { return t == DataType::UInt8 ? one<uint8_t>(v) : one<int8_t>(v); }

Graph chain_graph(const ChainCase& c) {
  Graph g;
  const ValueId x = g.add_value(Value{"x", typed(c.x_type, kShape), std::nullopt, {}});
  g.inputs.push_back(x);
  auto constant = [&](const std::string& name, DataType t, Buffer b) {
    return g.add_value(Value{name, typed(t, {}), std::move(b), {}});
  };
  ValueId v = g.add_value(Value{"dq_out", f32(kShape), std::nullopt, {}});
  g.add_node(Node{"DequantizeLinear", "dq", {x, constant("xs", DataType::Float32, one<float>(c.xs)),
                                             constant("xz", c.x_type, zero_point(c.x_type, c.xz))}, {v}, {}});
  if (c.dq_output_is_graph_output) g.outputs.push_back(v);
  if (c.relu) {
    const ValueId r = g.add_value(Value{"relu_out", f32(kShape), std::nullopt, {}});
    g.add_node(Node{"Relu", "relu", {v}, {r}, {}});
    v = r;
  }
  if (c.clip) {
    const ValueId r = g.add_value(Value{"clip_out", f32(kShape), std::nullopt, {}});
    Node n{"Clip", "clip", {v}, {r}, {}};
    n.inputs.push_back(c.clip_min ? constant("lo", DataType::Float32, one<float>(*c.clip_min)) : kNoValue);
    if (c.clip_max) n.inputs.push_back(constant("hi", DataType::Float32, one<float>(*c.clip_max)));
    g.add_node(std::move(n));
    v = r;
  }
  const ValueId y = g.add_value(Value{"y", typed(c.y_type, kShape), std::nullopt, {}});
  g.add_node(Node{"QuantizeLinear", "q", {v, constant("ys", DataType::Float32, one<float>(c.ys)),
                                          constant("yz", c.y_type, zero_point(c.y_type, c.yz))}, {y}, {}});
  g.outputs.insert(g.outputs.begin(), y);
  return g;
}

// Every value of X's type, over and over.
std::vector<float> x_values(DataType t) {
  std::vector<float> x(static_cast<std::size_t>(exec::numel(kShape)));
  const float first = t == DataType::UInt8 ? 0.0f : -128.0f;
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = first + static_cast<float>((i * 7) % 256);
  return x;
}

std::vector<float> expected(const ChainCase& c, const std::vector<float>& x) {
  const float lo = c.y_type == DataType::UInt8 ? 0.0f : -128.0f, hi = c.y_type == DataType::UInt8 ? 255.0f : 127.0f;
  std::vector<float> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    float v = (x[i] - c.xz) * c.xs;
    if (c.relu) v = std::max(0.0f, v);
    if (c.clip) v = std::min(c.clip_max.value_or(INFINITY), std::max(v, c.clip_min.value_or(-INFINITY)));
    y[i] = std::clamp(std::nearbyint(v / c.ys) + c.yz, lo, hi);
  }
  return y;
}

void check_chain(const ChainCase& c, bool fused) {
  cpu_ref::register_backend();
  const Graph g = chain_graph(c);
  const std::vector<float> x = x_values(c.x_type);
  const std::vector<float> want = expected(c, x);
  // The ONNX formulas must make the case bite: some outputs at each end of Y's range and some
  // between, and (with a Clip) some values the Clip moved.
  REQUIRE(std::count(want.begin(), want.end(), want.front()) < static_cast<long>(want.size()));
  for (int threads : {1, 2}) {
    CAPTURE(threads);
    BackendOptions o;
    o.threads = threads;
    const auto plan = find_backend("cpu")->prepare(g, o);
    for (const NodePlacement& p : plan->placement())
      if (p.name != "dq") CHECK(p.fused_into == (fused ? "dq" : ""));
    const HostTensor xt = c.x_type == DataType::UInt8
                              ? HostTensor::from_values<uint8_t>(typed(c.x_type, kShape), std::vector<uint8_t>(x.begin(), x.end()))
                              : HostTensor::from_values<int8_t>(typed(c.x_type, kShape), std::vector<int8_t>(x.begin(), x.end()));
    const TensorMap out = plan->run({{"x", xt}});
    auto got = out.at("y").to_double();
    REQUIRE(got.size() == want.size());
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < want.size(); ++i) wrong += got[i] != want[i];
    CHECK(wrong == 0);
  }
}

}  // namespace

TEST_CASE("cpu plan: DequantizeLinear -> Clip -> QuantizeLinear runs as one step with the ONNX formulas' values") {
  ChainCase c;
  SUBCASE("uint8 -> Clip(0, 6) (ReLU6) -> uint8") {
    c.clip = true, c.clip_min = 0.0f, c.clip_max = 6.0f;
    check_chain(c, true);
  }
  SUBCASE("int8 -> Relu -> int8, negative zero points") {
    c.x_type = c.y_type = DataType::Int8, c.xz = -20, c.yz = -100, c.relu = true;
    check_chain(c, true);
  }
  SUBCASE("uint8 -> int8 with nothing between (a requantization), saturating at both ends") {
    c.y_type = DataType::Int8, c.ys = 0.0117f, c.yz = 5;
    check_chain(c, true);
  }
  SUBCASE("Relu then a Clip with a min only") {
    c.relu = true, c.clip = true, c.clip_min = 1.5f;
    check_chain(c, true);
  }
  SUBCASE("the dequantized values are also a graph output: nothing is fused") {
    c.clip = true, c.clip_min = 0.0f, c.clip_max = 6.0f, c.dq_output_is_graph_output = true;
    check_chain(c, false);
  }
}
