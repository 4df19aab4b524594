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

namespace {

// QLinearConv (3x3, pads 1, uint8 X, int8 W per channel, int32 B) -> DequantizeLinear(y_scale,
// y_zero_point) -> Clip(0, 6) -> QuantizeLinear(q_scale, y_zero_point), against ONNX QLinearConv-10
// (the sum of (x - x_zero_point) * (w - w_zero_point) plus B, times the float32 multiplier
// x_scale * w_scale / y_scale, rounded half to even, plus y_zero_point, saturated to uint8)
// and the chain's formulas above, all computed here. Three forms, each on another of the
// QLinearConv's kernels (integer_conv.cc, qlinear.cc): 3 input channels (the int8 GEMM, or the
// float32 GEMM without AVX-512 VNNI), depthwise over 5 channels (the depthwise kernel), and a
// 3-D convolution over 2 depth slices with a 1x3x3 kernel (the direct loops).
enum class ConvKind { Dense, Depthwise, Depth2 };

struct ConvChain {
  float q_scale;
  std::vector<float> want;
  Graph g;
  std::vector<float> x;
  std::vector<int64_t> x_shape;
};

ConvChain conv_chain(float q_scale, ConvKind kind = ConvKind::Dense) {
  const int64_t C = kind == ConvKind::Depthwise ? 5 : 3, M = 5, H = 9, W = 10, D = kind == ConvKind::Depth2 ? 2 : 1;
  const int64_t group = kind == ConvKind::Depthwise ? 5 : 1, cg = C / group, mg = M / group;
  // Depthwise sums have 9 products, not 27: a larger x_scale makes them reach both ends too.
  const float xs = kind == ConvKind::Depthwise ? 0.1f : 0.02f, xz = 128, ys = 0.0625f, yz = 10;
  const std::vector<float> ws{0.011f, 0.007f, 0.013f, 0.005f, 0.009f};
  std::vector<int8_t> w(static_cast<std::size_t>(M * cg * 9));
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(static_cast<int>(i * 37 % 255) - 127);
  const std::vector<int32_t> b{-300, 0, 700, 2500, -2500};
  ConvChain r{q_scale, {}, {}, {}, {}};
  r.x_shape = kind == ConvKind::Depth2 ? std::vector<int64_t>{1, C, D, H, W} : std::vector<int64_t>{1, C, H, W};
  r.x.resize(static_cast<std::size_t>(C * D * H * W));
  for (std::size_t i = 0; i < r.x.size(); ++i) r.x[i] = static_cast<float>((i * 53) % 256);
  for (int64_t m = 0; m < M; ++m)
    for (int64_t d = 0; d < D; ++d)
      for (int64_t oy = 0; oy < H; ++oy)
        for (int64_t ox = 0; ox < W; ++ox) {
          int64_t acc = b[static_cast<std::size_t>(m)];
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t ky = 0; ky < 3; ++ky)
              for (int64_t kx = 0; kx < 3; ++kx) {
                const int64_t iy = oy + ky - 1, ix = ox + kx - 1, c = (m / mg) * cg + ci;
                if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
                acc += static_cast<int64_t>(r.x[static_cast<std::size_t>(((c * D + d) * H + iy) * W + ix)] - xz) *
                       w[static_cast<std::size_t>(((m * cg + ci) * 3 + ky) * 3 + kx)];
              }
          const float xw = xs * ws[static_cast<std::size_t>(m)];
          const double q = std::clamp(std::nearbyint(static_cast<double>(acc) * static_cast<double>(xw / ys)) + yz, 0.0, 255.0);
          const float v = std::min(6.0f, std::max((static_cast<float>(q) - yz) * ys, 0.0f));
          r.want.push_back(std::clamp(std::nearbyint(v / q_scale) + yz, 0.0f, 255.0f));
        }
  std::vector<int64_t> w_shape{M, cg, 3, 3}, y_shape{1, M, H, W}, pads{1, 1, 1, 1};
  if (kind == ConvKind::Depth2) w_shape = {M, cg, 1, 3, 3}, y_shape = {1, M, D, H, W}, pads = {0, 1, 1, 0, 1, 1};
  Graph& g = r.g;
  const ValueId x = g.add_value(Value{"x", typed(DataType::UInt8, r.x_shape), std::nullopt, {}});
  g.inputs.push_back(x);
  auto constant = [&](const std::string& name, TensorType t, Buffer bytes) { return g.add_value(Value{name, std::move(t), std::move(bytes), {}}); };
  const ValueId xs_v = constant("xs", f32({}), one<float>(xs)), xz_v = constant("xz", typed(DataType::UInt8, {}), one<uint8_t>(xz));
  const ValueId ys_v = constant("ys", f32({}), one<float>(ys)), yz_v = constant("yz", typed(DataType::UInt8, {}), one<uint8_t>(yz));
  const ValueId conv_y = g.add_value(Value{"conv_y", typed(DataType::UInt8, y_shape), std::nullopt, {}});
  g.add_node(Node{"QLinearConv", "conv",
                  {x, xs_v, xz_v, constant("w", typed(DataType::Int8, w_shape), bytes_of(w)), constant("ws", f32({M}), bytes_of(ws)),
                   constant("wz", typed(DataType::Int8, {M}), bytes_of(std::vector<int8_t>(M, 0))), ys_v, yz_v,
                   constant("b", typed(DataType::Int32, {M}), bytes_of(b))},
                  {conv_y},
                  {{"pads", Attr(pads)}, {"group", Attr(group)}}});
  const ValueId dq = g.add_value(Value{"dq_out", f32(y_shape), std::nullopt, {}});
  g.add_node(Node{"DequantizeLinear", "dq", {conv_y, ys_v, yz_v}, {dq}, {}});
  const ValueId clip = g.add_value(Value{"clip_out", f32(y_shape), std::nullopt, {}});
  g.add_node(Node{"Clip", "clip", {dq, constant("lo", f32({}), one<float>(0.0f)), constant("hi", f32({}), one<float>(6.0f))}, {clip}, {}});
  const ValueId y = g.add_value(Value{"y", typed(DataType::UInt8, y_shape), std::nullopt, {}});
  g.add_node(Node{"QuantizeLinear", "q", {clip, constant("qs", f32({}), one<float>(q_scale)), yz_v}, {y}, {}});
  g.outputs.push_back(y);
  return r;
}

}  // namespace

TEST_CASE("cpu plan: a chain after a QLinearConv runs inside it: a clamp as its saturation range, a requantization on each block") {
  // y_scale 1/16: DequantizeLinear then QuantizeLinear with the same scale and zero point give
  // back every integer, so the chain is min(max(q, 10), 10 + 6 * 16): the conv's saturation
  // range. A QuantizeLinear to another scale (0.05) is a real requantization: the conv runs the
  // chain on each block of its outputs. Either way the chain's nodes are fused into the conv.
  for (const ConvKind kind : {ConvKind::Dense, ConvKind::Depthwise, ConvKind::Depth2})
    for (const float q_scale : {0.0625f, 0.05f}) {
      CAPTURE(static_cast<int>(kind));
      CAPTURE(q_scale);
      const ConvChain c = conv_chain(q_scale, kind);
      REQUIRE(std::count(c.want.begin(), c.want.end(), 10.0f) > 0);  // the case reaches both ends of the Clip
      if (q_scale == 0.0625f) REQUIRE(std::count(c.want.begin(), c.want.end(), 106.0f) > 0);
      cpu_ref::register_backend();
      for (int threads : {1, 2}) {
        CAPTURE(threads);
        BackendOptions o;
        o.threads = threads;
        const auto plan = find_backend("cpu")->prepare(c.g, o);
        for (const NodePlacement& p : plan->placement())
          if (p.name != "conv") CHECK(p.fused_into == "conv");
        const TensorMap out = plan->run({{"x", HostTensor::from_values<uint8_t>(typed(DataType::UInt8, c.x_shape), std::vector<uint8_t>(c.x.begin(), c.x.end()))}});
        const auto got = out.at("y").to_double();
        REQUIRE(got.size() == c.want.size());
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < got.size(); ++i) wrong += got[i] != c.want[i];
        CHECK(wrong == 0);
      }
    }
}
