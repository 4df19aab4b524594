// Hand-checked vectors for the rules the issue calls tricky: softmax beta and axis, u8/s8
// requantization rounding (half away from zero, as Arm NN armnn::Quantize), broadcasting.
// Expected values are written out by hand or computed from the textbook formula.
#include <doctest/doctest.h>

#include <cmath>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"

using namespace nnbridge;

namespace {

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }

// A graph with one node `op` from inputs of `in_types` to one output of `out_type`.
Graph one_node(const std::string& op, std::vector<TensorType> in_types, TensorType out_type, AttrMap attrs = {}) {
  Graph g;
  Node n{op, "n", {}, {}, std::move(attrs)};
  for (std::size_t i = 0; i < in_types.size(); ++i) {
    ValueId id = g.add_value(Value{"x" + std::to_string(i), in_types[i], std::nullopt, {}});
    g.inputs.push_back(id);
    n.inputs.push_back(id);
  }
  ValueId y = g.add_value(Value{"y", std::move(out_type), std::nullopt, {}});
  n.outputs.push_back(y);
  g.outputs.push_back(y);
  g.add_node(std::move(n));
  return g;
}

TensorMap run(const Graph& g, TensorMap inputs) {
  cpu_ref::register_backend();
  return find_backend("cpu")->prepare(g, {})->run(inputs);
}

// Output "y" copied out of the map (the map owns the bytes).
template <class T>
std::vector<T> y_of(const TensorMap& m) {
  auto v = m.at("y").values<T>();
  return std::vector<T>(v.begin(), v.end());
}

}  // namespace

TEST_CASE("softmax: beta scales the input, axis selects the normalized dim") {
  // x = [[0, 1], [2, 4]]; axis 0, beta 0.5 -> column j: exp(0.5*x_ij) / sum_i exp(0.5*x_ij).
  Graph g = one_node("Softmax", {f32({2, 2})}, f32({2, 2}), {{"axis", Attr(int64_t{0})}, {"beta", Attr(0.5)}});
  auto y = y_of<float>(run(g, {{"x0", HostTensor::from_values<float>(f32({2, 2}), std::vector<float>{0, 1, 2, 4})}}));
  const double c0 = 1.0 / (1.0 + std::exp(1.0));        // exp(0) / (exp(0) + exp(1))
  const double c1 = 1.0 / (1.0 + std::exp(1.5));        // exp(0.5) / (exp(0.5) + exp(2))
  CHECK(y[0] == doctest::Approx(c0));
  CHECK(y[2] == doctest::Approx(1.0 - c0));
  CHECK(y[1] == doctest::Approx(c1));
  CHECK(y[3] == doctest::Approx(1.0 - c1));

  // Default axis -1, beta 1: rows; [1, 1] -> [0.5, 0.5].
  Graph g2 = one_node("Softmax", {f32({1, 2})}, f32({1, 2}));
  auto y2 = y_of<float>(run(g2, {{"x0", HostTensor::from_values<float>(f32({1, 2}), std::vector<float>{1, 1})}}));
  CHECK(y2[0] == doctest::Approx(0.5));
  // LogSoftmax of [0, 0] with beta 2: log(0.5).
  Graph g3 = one_node("LogSoftmax", {f32({2})}, f32({2}), {{"beta", Attr(2.0)}});
  auto y3 = y_of<float>(run(g3, {{"x0", HostTensor::from_values<float>(f32({2}), std::vector<float>{0, 0})}}));
  CHECK(y3[1] == doctest::Approx(std::log(0.5)));
}

TEST_CASE("requantize: round half away from zero, then clamp (Arm NN armnn::Quantize)") {
  // QAsymmU8 scale 1 zero point 10: q = round(x) + 10.
  TensorType u8{DataType::QAsymmU8, {6}, false, Quantization{{1.0}, {10}, std::nullopt}};
  Graph g = one_node("QuantizeLinear", {f32({6})}, u8);
  auto y = y_of<uint8_t>(run(g, {{"x0", HostTensor::from_values<float>(f32({6}), std::vector<float>{0.5f, -0.5f, 2.5f, 1.5f, 300.0f, -20.0f})}}));
  // 0.5 -> 1 (banker's rounding would give 0), -0.5 -> -1, 2.5 -> 3 (banker's: 2), 1.5 -> 2,
  // 300 -> 310 clamped to 255, -20 -> -10 clamped to 0.
  CHECK(std::vector<int>(y.begin(), y.end()) == std::vector<int>{11, 9, 13, 12, 255, 0});

  // A quantized Add: inputs dequantized, summed in float, requantized.
  // scale 0.5, zp 0 (QAsymmS8): 1 + 2 = 3 -> 1.5 real... written out: a = [1, 3] -> [0.5, 1.5],
  // b = [0, 0] -> 0; output scale 2: 0.5/2 = 0.25 -> 0, 1.5/2 = 0.75 -> 1.
  TensorType s8a{DataType::QAsymmS8, {2}, false, Quantization{{0.5}, {0}, std::nullopt}};
  TensorType s8o{DataType::QAsymmS8, {2}, false, Quantization{{2.0}, {0}, std::nullopt}};
  Graph g2 = one_node("Add", {s8a, s8a}, s8o);
  auto y2 = y_of<int8_t>(run(g2, {{"x0", HostTensor::from_values<int8_t>(s8a, std::vector<int8_t>{1, 3})},
                     {"x1", HostTensor::from_values<int8_t>(s8a, std::vector<int8_t>{0, 0})}}));
  CHECK(y2[0] == 0);
  CHECK(y2[1] == 1);
  // 2 steps of 0.5 = 1.0 real; output scale 2 -> 0.5 -> rounds away from zero to 1; -1.0 -> -1.
  auto y3 = y_of<int8_t>(run(g2, {{"x0", HostTensor::from_values<int8_t>(s8a, std::vector<int8_t>{2, -2})},
                     {"x1", HostTensor::from_values<int8_t>(s8a, std::vector<int8_t>{0, 0})}}));
  CHECK(y3[0] == 1);
  CHECK(y3[1] == -1);
}

TEST_CASE("broadcasting: [2,1,3] + [1,4,1] -> [2,4,3]") {
  Graph g = one_node("Add", {f32({2, 1, 3}), f32({1, 4, 1})}, f32({2, 4, 3}));
  std::vector<float> a{0, 1, 2, 10, 20, 30}, b{100, 200, 300, 400};
  auto y = y_of<float>(run(g, {{"x0", HostTensor::from_values<float>(f32({2, 1, 3}), a)},
                   {"x1", HostTensor::from_values<float>(f32({1, 4, 1}), b)}}));
  REQUIRE(y.size() == 24);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 4; ++j)
      for (int k = 0; k < 3; ++k) CHECK(y[(i * 4 + j) * 3 + k] == a[i * 3 + k] + b[j]);
  // Ranks differ: [3] - [2,1] -> [2,3] (NumPy aligns at the right).
  Graph g2 = one_node("Sub", {f32({3}), f32({2, 1})}, f32({2, 3}));
  auto y2 = y_of<float>(run(g2, {{"x0", HostTensor::from_values<float>(f32({3}), std::vector<float>{1, 2, 3})},
                     {"x1", HostTensor::from_values<float>(f32({2, 1}), std::vector<float>{1, 10})}}));
  CHECK(std::vector<float>(y2.begin(), y2.end()) == std::vector<float>{0, 1, 2, -9, -8, -7});
}

TEST_CASE("plan: bad inputs and unsupported ops are errors naming them") {
  Graph g = one_node("Relu", {f32({2})}, f32({2}));
  cpu_ref::register_backend();
  auto plan = find_backend("cpu")->prepare(g, {});
  CHECK_THROWS_WITH_AS(plan->run({}), doctest::Contains("x0"), Error);
  CHECK_THROWS_WITH_AS(plan->run({{"x0", HostTensor::from_values<float>(f32({3}), std::vector<float>{1, 2, 3})}}),
                       doctest::Contains("x0"), Error);
  CHECK_THROWS_WITH_AS(plan->run({{"x0", HostTensor::from_values<float>(f32({2}), std::vector<float>{1, 2})},
                                  {"zz", HostTensor::from_values<float>(f32({2}), std::vector<float>{1, 2})}}),
                       doctest::Contains("zz"), Error);
  // The same plan runs many times.
  for (int i = 0; i < 3; ++i) {
    auto y = y_of<float>(plan->run({{"x0", HostTensor::from_values<float>(f32({2}), std::vector<float>{-1, 2})}}));
    CHECK(y[0] == 0.0f);
    CHECK(y[1] == 2.0f);
  }
  Graph bad = one_node("armnn.StandIn", {f32({2})}, f32({2}));
  try {
    find_backend("cpu")->prepare(bad, {});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Unsupported);
    CHECK(std::string(e.what()).find("armnn.StandIn") != std::string::npos);
  }
}

TEST_CASE("conv: im2col + GEMM equals the direct sum, on 1 and on 3 threads") {
  // Y[o][y][x] = B[o] + sum_{c,ky,kx} X[c][y*s - p + ky][x*s - p + kx] * W[o][c][ky][kx] (ONNX Conv),
  // large enough (> 2^20 multiply-adds) for the kernel to split rows across threads.
  const int C = 8, M = 16, H = 32, Wd = 32, K = 3, S = 1, P = 1;
  const int OH = (H + 2 * P - K) / S + 1, OW = (Wd + 2 * P - K) / S + 1;
  std::vector<float> x(C * H * Wd), w(M * C * K * K), b(M);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(static_cast<int>(i * 37 % 101) - 50) / 50.0f;
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<float>(static_cast<int>(i * 53 % 89) - 44) / 44.0f;
  for (int o = 0; o < M; ++o) b[o] = static_cast<float>(o) * 0.1f;
  Graph g;
  ValueId xi = g.add_value(Value{"x", f32({1, C, H, Wd}), std::nullopt, {}});
  auto bytes = [](const std::vector<float>& v) {
    return Buffer::copy_of(std::as_bytes(std::span<const float>(v)));
  };
  ValueId wi = g.add_value(Value{"w", f32({M, C, K, K}), bytes(w), {}});
  ValueId bi = g.add_value(Value{"b", f32({M}), bytes(b), {}});
  ValueId yi = g.add_value(Value{"y", f32({1, M, OH, OW}), std::nullopt, {}});
  g.inputs = {xi};
  g.outputs = {yi};
  g.add_node(Node{"Conv", "conv", {xi, wi, bi}, {yi},
                  {{"kernel_shape", Attr(std::vector<int64_t>{K, K})},
                   {"pads", Attr(std::vector<int64_t>{P, P, P, P})},
                   {"strides", Attr(std::vector<int64_t>{S, S})}}});
  std::vector<double> expect(M * OH * OW);
  for (int o = 0; o < M; ++o)
    for (int yy = 0; yy < OH; ++yy)
      for (int xx = 0; xx < OW; ++xx) {
        double acc = b[o];
        for (int c = 0; c < C; ++c)
          for (int ky = 0; ky < K; ++ky)
            for (int kx = 0; kx < K; ++kx) {
              int iy = yy * S - P + ky, ix = xx * S - P + kx;
              if (iy < 0 || iy >= H || ix < 0 || ix >= Wd) continue;
              acc += double(x[(c * H + iy) * Wd + ix]) * w[((o * C + c) * K + ky) * K + kx];
            }
        expect[(o * OH + yy) * OW + xx] = acc;
      }
  cpu_ref::register_backend();
  for (int threads : {1, 3}) {
    CAPTURE(threads);
    BackendOptions opt;
    opt.threads = threads;
    auto y = y_of<float>(find_backend("cpu")->prepare(g, opt)->run({{"x", HostTensor::from_values<float>(f32({1, C, H, Wd}), x)}}));
    REQUIRE(y.size() == expect.size());
    double worst = 0;
    for (std::size_t i = 0; i < y.size(); ++i) worst = std::max(worst, std::fabs(y[i] - expect[i]));
    CHECK(worst < 1e-4);
  }
}
