// opencl elementwise kernels on paths the ONNX backend cases do not reach: variadic Sum / Mean /
// Max / Min broadcasting three inputs of different shapes, Where broadcasting all three, integer
// Mod's sign rules and its refusal of a zero divisor, BitShift losing bits past uint8, Cast of a
// quantized input, DynamicQuantizeLinear of an all-zero tensor. Expected values are worked out by
// hand next to each check; each result is also compared with the cpu backend's.
#include <cmath>

#include <doctest/doctest.h>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/gpu.h"
#include "support/paths.h"
#include "have_opencl.h"

using namespace nnbridge;
using Shape = std::vector<int64_t>;

namespace {

TensorType f32(Shape s) { return TensorType{DataType::Float32, std::move(s), false, std::nullopt}; }
TensorType typed(DataType t, Shape s) { return TensorType{t, std::move(s), false, std::nullopt}; }

// One node `op` over graph inputs x0, x1, ... (types `in`) with outputs y0, y1, ... (types `out`).
Graph one_node(const std::string& op, const std::vector<TensorType>& in, const std::vector<TensorType>& out,
               AttrMap attrs = {}) {
  Graph g;
  Node n{op, "n", {}, {}, std::move(attrs)};
  for (std::size_t i = 0; i < in.size(); ++i) {
    g.values.push_back(Value{"x" + std::to_string(i), in[i], {}, {}});
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

// Runs `g` on opencl and on cpu; output y0 (as T) of each.
template <class T>
std::pair<std::vector<T>, std::vector<T>> both(const Graph& g, const TensorMap& in) {
  return {output<T>(gpu::backend()->prepare(g, {})->run(in), "y0"), output<T>(cpu_ref::backend()->prepare(g, {})->run(in), "y0")};
}

// Sum / Mean / Max / Min of a [2,3], b [3], c [2,1] broadcast to [2,3].
std::pair<std::vector<float>, std::vector<float>> fold3(const std::string& op) {
  const Graph g = one_node(op, {f32({2, 3}), f32({3}), f32({2, 1})}, {f32({2, 3})});
  TensorMap in;
  in["x0"] = tensor<float>(f32({2, 3}), {1, 25, 3, 4, 5, 60});
  in["x1"] = tensor<float>(f32({3}), {10, 20, 30});
  in["x2"] = tensor<float>(f32({2, 1}), {2, 50});
  return both<float>(g, in);
}

}  // namespace

TEST_CASE("opencl Sum / Mean / Max / Min: three inputs of different shapes broadcast") {
  if (!test::have_opencl()) return;
  // Row 0 adds b = [10, 20, 30] and c[0] = 2, row 1 b and c[1] = 50:
  // [1+10+2, 25+20+2, 3+30+2, 4+10+50, 5+20+50, 60+30+50].
  auto sum = fold3("Sum");
  CHECK(sum.first == std::vector<float>{13, 47, 35, 64, 75, 140});
  CHECK(sum.first == sum.second);
  // The same sums divided by 3 in float32.
  auto mean = fold3("Mean");
  CHECK(mean.first == std::vector<float>{13.0f / 3, 47.0f / 3, 35.0f / 3, 64.0f / 3, 25, 140.0f / 3});
  CHECK(mean.first == mean.second);
  // Largest of (a, b, c): row 0 max(1,10,2), max(25,20,2), max(3,30,2); row 1 with 50.
  auto mx = fold3("Max");
  CHECK(mx.first == std::vector<float>{10, 25, 30, 50, 50, 60});
  CHECK(mx.first == mx.second);
  auto mn = fold3("Min");
  CHECK(mn.first == std::vector<float>{1, 2, 2, 4, 5, 30});
  CHECK(mn.first == mn.second);
}

TEST_CASE("opencl Mean / Min of one input: the input itself") {
  if (!test::have_opencl()) return;
  TensorMap in;
  in["x0"] = tensor<float>(f32({3}), {-1.5f, 0, 7});
  for (const char* op : {"Mean", "Min"}) {
    auto r = both<float>(one_node(op, {f32({3})}, {f32({3})}), in);
    CHECK(r.first == std::vector<float>{-1.5f, 0, 7});
    CHECK(r.first == r.second);
  }
}

TEST_CASE("opencl Where: condition [2 1] with X [3] and a scalar Y broadcast to [2 3]") {
  if (!test::have_opencl()) return;
  const Graph g = one_node("Where", {typed(DataType::Bool, {2, 1}), f32({3}), f32({})}, {f32({2, 3})});
  TensorMap in;
  in["x0"] = tensor<uint8_t>(typed(DataType::Bool, {2, 1}), {1, 0});
  in["x1"] = tensor<float>(f32({3}), {1, 2, 3});
  in["x2"] = tensor<float>(f32({}), {-1});
  // Row 0: condition true, X; row 1: false, Y everywhere.
  auto r = both<float>(g, in);
  CHECK(r.first == std::vector<float>{1, 2, 3, -1, -1, -1});
  CHECK(r.first == r.second);
}

TEST_CASE("opencl integer Mod: the divisor's sign with fmod 0 and the dividend's with fmod 1. Zero refused") {
  if (!test::have_opencl()) return;
  const TensorType t = typed(DataType::Int32, {5});
  TensorMap in;
  in["x0"] = tensor<int32_t>(t, {-7, 7, -7, 7, 6});
  in["x1"] = tensor<int32_t>(t, {3, -3, -3, 3, 3});
  // fmod 0: a - b * floor(a / b): -7 - 3 * (-3) = 2, 7 - (-3) * (-3) = -2, -7 - (-3) * 2 = -1, 1, 0.
  auto floor_mod = both<int32_t>(one_node("Mod", {t, t}, {t}), in);
  CHECK(floor_mod.first == std::vector<int32_t>{2, -2, -1, 1, 0});
  CHECK(floor_mod.first == floor_mod.second);
  // fmod 1: C's fmod, the sign of a: -1, 1, -1, 1, 0.
  auto c_mod = both<int32_t>(one_node("Mod", {t, t}, {t}, {{"fmod", Attr(int64_t{1})}}), in);
  CHECK(c_mod.first == std::vector<int32_t>{-1, 1, -1, 1, 0});
  CHECK(c_mod.first == c_mod.second);
  in["x1"] = tensor<int32_t>(t, {3, 3, 0, 3, 3});
  try {
    gpu::backend()->prepare(one_node("Mod", {t, t}, {t}), {})->run(in);
    FAIL("a remainder by zero ran");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Invalid);
    CHECK(std::string(e.what()).find("remainder by zero") != std::string::npos);
  }
}

TEST_CASE("opencl BitShift uint8: bits past the width are lost and a shift by 8 empties") {
  if (!test::have_opencl()) return;
  const TensorType t = typed(DataType::UInt8, {3});
  TensorMap in;
  in["x0"] = tensor<uint8_t>(t, {200, 1, 255});
  in["x1"] = tensor<uint8_t>(t, {1, 7, 8});
  // LEFT: 200 << 1 = 400 = 256 + 144 -> 144; 1 << 7 = 128; 255 << 8 -> 0.
  auto left = both<uint8_t>(one_node("BitShift", {t, t}, {t}, {{"direction", Attr(std::string("LEFT"))}}), in);
  CHECK(left.first == std::vector<uint8_t>{144, 128, 0});
  CHECK(left.first == left.second);
  // RIGHT: 200 >> 1 = 100; 1 >> 7 = 0; 255 >> 8 = 0.
  auto right = both<uint8_t>(one_node("BitShift", {t, t}, {t}, {{"direction", Attr(std::string("RIGHT"))}}), in);
  CHECK(right.first == std::vector<uint8_t>{100, 0, 0});
  CHECK(right.first == right.second);
}

TEST_CASE("opencl Cast of a quantized input converts the stored integers") {
  if (!test::have_opencl()) return;
  TensorType q = typed(DataType::QAsymmU8, {3});
  q.quantization = Quantization{{0.5}, {10}, std::nullopt};
  const TensorType i32 = typed(DataType::Int32, {3});
  TensorMap in;
  // Stored 10, 13, 255 stand for (10 - 10) * 0.5 = 0, 1.5, 122.5; Cast gives the stored values.
  in["x0"] = tensor<uint8_t>(q, {10, 13, 255});
  auto r = both<int32_t>(one_node("Cast", {q}, {i32}, {{"to", Attr(std::string("int32"))}}), in);
  CHECK(r.first == std::vector<int32_t>{10, 13, 255});
  CHECK(r.first == r.second);
}

TEST_CASE("opencl DynamicQuantizeLinear: all zeros give scale 0 and zero point 0. A range to uint8") {
  if (!test::have_opencl()) return;
  const Graph g = one_node("DynamicQuantizeLinear", {f32({4})},
                           {typed(DataType::UInt8, {4}), f32({}), typed(DataType::UInt8, {})});
  TensorMap in;
  in["x0"] = tensor<float>(f32({4}), {0, 0, 0, 0});
  const TensorMap out = gpu::backend()->prepare(g, {})->run(in);
  CHECK(output<uint8_t>(out, "y0") == std::vector<uint8_t>{0, 0, 0, 0});
  CHECK(output<float>(out, "y1") == std::vector<float>{0});
  CHECK(output<uint8_t>(out, "y2") == std::vector<uint8_t>{0});
  // x = [-1, 0, 1.55, 0.5]: range [-1, 1.55], scale 2.55 / 255 = 0.01, zero point rint(1 / 0.01) = 100,
  // y = rint(x / 0.01) + 100 clamped: 0, 100, 255 (155 + 100), 150.
  in["x0"] = tensor<float>(f32({4}), {-1, 0, 1.55f, 0.5f});
  const TensorMap out2 = gpu::backend()->prepare(g, {})->run(in);
  CHECK(output<uint8_t>(out2, "y0") == std::vector<uint8_t>{0, 100, 255, 150});
  CHECK(output<uint8_t>(out2, "y2") == std::vector<uint8_t>{100});
  CHECK(output<float>(out2, "y1")[0] == doctest::Approx(0.01).epsilon(1e-6));
}

TEST_CASE("opencl Dropout: training_mode true with a ratio above 0 is refused (random)") {
  if (!test::have_opencl()) return;
  Graph g = one_node("Dropout", {f32({2})}, {f32({2})});
  const TensorType flag = typed(DataType::Bool, {});
  const float ratio = 0.5f;
  const uint8_t training = 1;
  g.values.push_back(Value{"ratio", f32({}), Buffer::copy_of(std::as_bytes(std::span<const float>(&ratio, 1))), {}});
  g.values.push_back(Value{"training", flag, Buffer::copy_of(std::as_bytes(std::span<const uint8_t>(&training, 1))), {}});
  g.nodes[0].inputs = {0, 2, 3};
  try {
    gpu::backend()->prepare(g, {});
    FAIL("a training Dropout was prepared");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Unsupported);
  }
}
