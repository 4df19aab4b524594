// opencl ONNX RNN (ops_rnn.cc, rnn.cl) and the integer products (ops_qlinear.cc, qlinear.cl) on
// small cases worked out by hand next to each check; each result is also compared with the cpu
// backend's.
#include <optional>

#include <doctest/doctest.h>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/gpu.h"
#include "support/paths.h"
#include "have_opencl.h"

using namespace nnbridge;
using Shape = std::vector<int64_t>;

namespace {

TensorType typed(DataType t, Shape s) { return TensorType{t, std::move(s), false, std::nullopt}; }
TensorType f32(Shape s) { return typed(DataType::Float32, std::move(s)); }

// One node `op` over graph inputs x0, x1, ... (types `in`; nullopt: the input left out) with
// outputs y0, y1, ... (types `out`).
Graph one_node(const std::string& op, const std::vector<std::optional<TensorType>>& in, const std::vector<TensorType>& out,
               AttrMap attrs = {}) {
  Graph g;
  Node n{op, "n", {}, {}, std::move(attrs)};
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (!in[i]) {
      n.inputs.push_back(kNoValue);
      continue;
    }
    g.values.push_back(Value{"x" + std::to_string(i), *in[i], {}, {}});
    g.inputs.push_back(static_cast<ValueId>(g.values.size() - 1));
    n.inputs.push_back(g.inputs.back());
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    g.values.push_back(Value{"y" + std::to_string(i), out[i], {}, {}});
    g.outputs.push_back(static_cast<ValueId>(g.values.size() - 1));
    n.outputs.push_back(g.outputs.back());
  }
  g.nodes.push_back(std::move(n));
  return g;
}

template <class T>
HostTensor tensor(const TensorType& t, const std::vector<T>& v) {
  return HostTensor::from_values<T>(t, std::span<const T>(v));
}

template <class T>
std::vector<T> output(const TensorMap& m, const std::string& name) {
  auto v = m.at(name).values<T>();
  return {v.begin(), v.end()};
}

}  // namespace

TEST_CASE("opencl RNN bidirectional with a linear activation, and sequence_lens refused past S") {
  if (!test::have_opencl()) return;
  // S 2, batch 1, input 1, hidden 1; W = [2] and R = [0.5] in both directions, no bias, Affine
  // (alpha 1, beta 0: h = pre). X = [1, 3].
  // forward: h0 = 2*1 = 2, h1 = 2*3 + 0.5*2 = 7; reverse (t = 1 first): 2*3 = 6, then 2*1 + 0.5*6 = 5.
  // Y [S, D, B, H] = [t0: 2, 5; t1: 7, 6]; Y_h [D, B, H] = [7, 5].
  const AttrMap attrs{{"direction", Attr(std::string("bidirectional"))},
                      {"activations", Attr(std::vector<std::string>{"Affine"})},
                      {"hidden_size", Attr(int64_t{1})}};
  const Graph g = one_node("RNN", {f32({2, 1, 1}), f32({2, 1, 1}), f32({2, 1, 1})}, {f32({2, 2, 1, 1}), f32({2, 1, 1})}, attrs);
  TensorMap in;
  in["x0"] = tensor<float>(f32({2, 1, 1}), {1, 3});
  in["x1"] = tensor<float>(f32({2, 1, 1}), {2, 2});
  in["x2"] = tensor<float>(f32({2, 1, 1}), {0.5f, 0.5f});
  const TensorMap got = gpu::backend()->prepare(g, {})->run(in);
  CHECK(output<float>(got, "y0") == std::vector<float>{2, 5, 7, 6});
  CHECK(output<float>(got, "y1") == std::vector<float>{7, 5});
  const TensorMap want = cpu_ref::backend()->prepare(g, {})->run(in);
  CHECK(output<float>(got, "y0") == output<float>(want, "y0"));

  // Forward only with sequence_lens [1]: one step, h = 2, Y's step 1 zero; a length of 3 > S = 2 is refused.
  const AttrMap fwd{{"activations", Attr(std::vector<std::string>{"Affine"})}};
  const Graph gl = one_node("RNN", {f32({2, 1, 1}), f32({1, 1, 1}), f32({1, 1, 1}), std::nullopt, typed(DataType::Int32, {1})},
                            {f32({2, 1, 1, 1}), f32({1, 1, 1})}, fwd);
  TensorMap inl;
  inl["x0"] = in["x0"];
  inl["x1"] = tensor<float>(f32({1, 1, 1}), {2});
  inl["x2"] = tensor<float>(f32({1, 1, 1}), {0.5f});
  inl["x4"] = tensor<int32_t>(typed(DataType::Int32, {1}), {1});
  auto plan = gpu::backend()->prepare(gl, {});
  const TensorMap one = plan->run(inl);
  CHECK(output<float>(one, "y0") == std::vector<float>{2, 0});
  CHECK(output<float>(one, "y1") == std::vector<float>{2});
  inl["x4"] = tensor<int32_t>(typed(DataType::Int32, {1}), {3});
  try {
    plan->run(inl);
    FAIL("a sequence length past S ran");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Invalid);
    CHECK(std::string(e.what()).find("sequence_lens[0]") != std::string::npos);
  }
}

TEST_CASE("opencl MatMulInteger / QLinearMatMul: zero points subtracted, requantized and saturated") {
  if (!test::have_opencl()) return;
  // A [1, 2] = [10, 20], zero point 10 -> [0, 10]; B [2, 2] = [[3, 255], [5, 255]], zero point 1 ->
  // [[2, 254], [4, 254]]. Sums: 0*2 + 10*4 = 40, 0*254 + 10*254 = 2540.
  const TensorType u8a = typed(DataType::UInt8, {1, 2}), u8b = typed(DataType::UInt8, {2, 2});
  const TensorType u8s = typed(DataType::UInt8, {}), fs = f32({});
  TensorMap in;
  in["x0"] = tensor<uint8_t>(u8a, {10, 20});
  in["x2"] = tensor<uint8_t>(u8s, {10});
  in["x3"] = tensor<uint8_t>(u8b, {3, 255, 5, 255});
  in["x5"] = tensor<uint8_t>(u8s, {1});
  in["x1"] = tensor<float>(fs, {0.5f});
  in["x4"] = tensor<float>(fs, {0.25f});
  in["x6"] = tensor<float>(fs, {0.1f});
  in["x7"] = tensor<uint8_t>(u8s, {100});
  // MatMulInteger (A, B, a_zero_point, b_zero_point): the sums as int32.
  TensorMap mi;
  mi["x0"] = in["x0"];
  mi["x1"] = in["x3"];
  mi["x2"] = in["x2"];
  mi["x3"] = in["x5"];
  const Graph gi = one_node("MatMulInteger", {u8a, u8b, u8s, u8s}, {typed(DataType::Int32, {1, 2})});
  const TensorMap yi = gpu::backend()->prepare(gi, {})->run(mi);
  CHECK(output<int32_t>(yi, "y0") == std::vector<int32_t>{40, 2540});
  // QLinearMatMul: 40 * 0.5 * 0.25 / 0.1 = 50, + 100 = 150; 2540 * 0.125 / 0.1 = 3175, + 100
  // saturates to uint8's 255.
  const Graph gq = one_node("QLinearMatMul", {u8a, fs, u8s, u8b, fs, u8s, fs, u8s}, {typed(DataType::UInt8, {1, 2})});
  const TensorMap yq = gpu::backend()->prepare(gq, {})->run(in);
  CHECK(output<uint8_t>(yq, "y0") == std::vector<uint8_t>{150, 255});
  CHECK(output<uint8_t>(yq, "y0") == output<uint8_t>(cpu_ref::backend()->prepare(gq, {})->run(in), "y0"));
}

TEST_CASE("opencl ConvInteger 1-D with SAME_UPPER padding") {
  if (!test::have_opencl()) return;
  // X int8 [1, 1, 4] = [1, 2, 3, 4], x zero point 1 -> [0, 1, 2, 3]; W [1, 1, 2] = [1, -1]; auto_pad
  // SAME_UPPER, stride 1: total pad 1, 0 at the beginning and 1 at the end -> x padded [0, 1, 2, 3, 0].
  // y[i] = x[i] - x[i + 1]: 0 - 1, 1 - 2, 2 - 3, 3 - 0 = [-1, -1, -1, 3].
  const TensorType xt = typed(DataType::Int8, {1, 1, 4}), wt = typed(DataType::Int8, {1, 1, 2}), zt = typed(DataType::Int8, {});
  const Graph g = one_node("ConvInteger", {xt, wt, zt}, {typed(DataType::Int32, {1, 1, 4})},
                           {{"auto_pad", Attr(std::string("SAME_UPPER"))}});
  TensorMap in;
  in["x0"] = tensor<int8_t>(xt, {1, 2, 3, 4});
  in["x1"] = tensor<int8_t>(wt, {1, -1});
  in["x2"] = tensor<int8_t>(zt, {1});
  const TensorMap y = gpu::backend()->prepare(g, {})->run(in);
  CHECK(output<int32_t>(y, "y0") == std::vector<int32_t>{-1, -1, -1, 3});
  CHECK(output<int32_t>(y, "y0") == output<int32_t>(cpu_ref::backend()->prepare(g, {})->run(in), "y0"));
}
