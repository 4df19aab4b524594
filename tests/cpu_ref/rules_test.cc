// Hand-checked vectors for the rules the issue calls tricky: softmax beta and axis, u8/s8
// requantization rounding (half away from zero, as Arm NN armnn::Quantize), broadcasting, and
// float16 / bfloat16 tensors (computed in float32, rounded to the declared type).
// Expected values are written out by hand or computed from the textbook formula.
#include <doctest/doctest.h>

#include <cmath>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "support/error_id.h"

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

TEST_CASE("cpu rules: softmax: beta scales the input, axis selects the normalized dim") {
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

TEST_CASE("cpu rules: requantize: round half away from zero, then clamp (Arm NN armnn::Quantize)") {
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

TEST_CASE("cpu rules: broadcasting: [2,1,3] + [1,4,1] -> [2,4,3]") {
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

TEST_CASE("cpu rules: plan: bad inputs and unsupported ops are errors naming them") {
  Graph g = one_node("Relu", {f32({2})}, f32({2}));
  cpu_ref::register_backend();
  auto plan = find_backend("cpu")->prepare(g, {});
  // x0 missing, x0 of the wrong shape, an input "zz" the graph does not have: each names the input.
  auto missing = test::thrown([&] { plan->run({}); });
  REQUIRE(missing);
  CHECK(missing->id() == ErrorId::MissingInput);
  CHECK(missing->message().find("x0") != std::string::npos);
  auto wrong = test::thrown([&] { plan->run({{"x0", HostTensor::from_values<float>(f32({3}), std::vector<float>{1, 2, 3})}}); });
  REQUIRE(wrong);
  CHECK(wrong->id() == ErrorId::Shape);
  CHECK(wrong->message().find("x0") != std::string::npos);
  auto extra = test::thrown([&] {
    plan->run({{"x0", HostTensor::from_values<float>(f32({2}), std::vector<float>{1, 2})},
               {"zz", HostTensor::from_values<float>(f32({2}), std::vector<float>{1, 2})}});
  });
  REQUIRE(extra);
  CHECK(extra->id() == ErrorId::MissingInput);
  CHECK(extra->message().find("zz") != std::string::npos);
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
    CHECK(e.id() == ErrorId::Feature);  // no kernel for the op: nnbridge.unsupported.306
    CHECK(e.message().find("armnn.StandIn") != std::string::npos);
  }
  // Tensors go in and out by name: a graph output named like a graph input (another value) is
  // refused at prepare, naming both values (a fuzz finding: run() gave one tensor for two outputs).
  Graph twins = one_node("Relu", {f32({2})}, f32({2}));
  twins.values[twins.outputs[0]].name = "x0";
  auto dup = test::thrown([&] { find_backend("cpu")->prepare(twins, {}); });
  REQUIRE(dup);
  CHECK(dup->id() == ErrorId::InvalidOther);
  CHECK(dup->message().find("\"x0\"") != std::string::npos);
  CHECK(dup->where() == "outputs[0]");
}

TEST_CASE("cpu rules: conv: im2col + GEMM equals the direct sum, on 1 and on 3 threads") {
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

TEST_CASE("cpu rules: requantize through an op: QAsymmU8 Add rounds +-0.5 and 2.5 half away from zero") {
  // Inputs scale 0.5, zero point 2: a = [3, 1, 7, 5] -> [0.5, -0.5, 2.5, 1.5]; b = 2 -> 0.
  // Output scale 1, zero point 10: round half away from zero gives [1, -1, 3, 2] + 10
  // (round half to even would give [10, 10, 12, 12]).
  TensorType in{DataType::QAsymmU8, {4}, false, Quantization{{0.5}, {2}, std::nullopt}};
  TensorType out{DataType::QAsymmU8, {4}, false, Quantization{{1.0}, {10}, std::nullopt}};
  Graph g = one_node("Add", {in, in}, out);
  auto y = y_of<uint8_t>(run(g, {{"x0", HostTensor::from_values<uint8_t>(in, std::vector<uint8_t>{3, 1, 7, 5})},
                                 {"x1", HostTensor::from_values<uint8_t>(in, std::vector<uint8_t>{2, 2, 2, 2})}}));
  CHECK(std::vector<int>(y.begin(), y.end()) == std::vector<int>{11, 9, 13, 12});
}

TEST_CASE("cpu rules: broadcasting of equal-rank operands with size-1 dims: [3,1] * [1,2] -> [3,2]") {
  Graph g = one_node("Mul", {f32({3, 1}), f32({1, 2})}, f32({3, 2}));
  auto y = y_of<float>(run(g, {{"x0", HostTensor::from_values<float>(f32({3, 1}), std::vector<float>{1, 2, 3})},
                               {"x1", HostTensor::from_values<float>(f32({1, 2}), std::vector<float>{10, -1})}}));
  CHECK(std::vector<float>(y.begin(), y.end()) == std::vector<float>{10, -1, 20, -2, 30, -3});
}

// float16 and bfloat16 tensors are computed in float32 and rounded to the declared type on
// output. Inputs and expected outputs are written as IEEE bit patterns, worked out by hand:
// binary16 has 10 fraction bits (ulp 2^-10 at 1, 2 at 2048), bfloat16 has 7 (ulp 2^-7 at 1, 2 at
// 256). Ties: float16 rounds them away from zero (the half library Arm NN's Half.hpp uses,
// default round-to-nearest without HALF_ROUND_TIES_TO_EVEN), bfloat16 to even (Arm NN
// BFloat16.hpp, round to nearest even).
namespace {

TensorType typed(DataType t, std::vector<int64_t> shape) { return TensorType{t, std::move(shape), false, std::nullopt}; }

std::vector<uint16_t> run_bits(const Graph& g, DataType t, const std::vector<std::pair<std::vector<int64_t>, std::vector<uint16_t>>>& ins) {
  TensorMap m;
  for (std::size_t i = 0; i < ins.size(); ++i)
    m["x" + std::to_string(i)] = HostTensor::from_values<uint16_t>(typed(t, ins[i].first), ins[i].second);
  auto out = run(g, std::move(m));
  CHECK(out.at("y").dtype() == t);
  return y_of<uint16_t>(out);
}

}  // namespace

TEST_CASE("cpu rules: float16 Add: float32 sum rounded to binary16, ties away from zero, overflow to inf") {
  const auto t = typed(DataType::Float16, {6});
  Graph g = one_node("Add", {t, t}, t);
  // 1 + 2^-11 (tie) -> 1 + 2^-10; -1 - 2^-11 -> -(1 + 2^-10); 2048 + 1 (tie) -> 2050;
  // 2048 + 1.5 -> 2049.5 -> 2050; 0.5 + 0.25 = 0.75 exactly; 65504 + 65504 -> +inf.
  auto y = run_bits(g, DataType::Float16,
                    {{{6}, {0x3C00, 0xBC00, 0x6800, 0x6800, 0x3800, 0x7BFF}},
                     {{6}, {0x1000, 0x9000, 0x3C00, 0x3E00, 0x3400, 0x7BFF}}});
  CHECK(y == std::vector<uint16_t>{0x3C01, 0xBC01, 0x6801, 0x6801, 0x3A00, 0x7C00});
}

TEST_CASE("cpu rules: bfloat16 Add: float32 sum rounded to bfloat16, ties to even") {
  const auto t = typed(DataType::BFloat16, {4});
  Graph g = one_node("Add", {t, t}, t);
  // 1 + 2^-8 (tie, 1 is even) -> 1; 1 + 3*2^-8 (tie between 1 + 2^-7 and 1 + 2^-6) -> 1 + 2^-6;
  // 256 + 1 (tie) -> 256; 256 + 3 (tie between 258 and 260) -> 260.
  auto y = run_bits(g, DataType::BFloat16, {{{4}, {0x3F80, 0x3F80, 0x4380, 0x4380}}, {{4}, {0x3B80, 0x3C40, 0x3F80, 0x4040}}});
  CHECK(y == std::vector<uint16_t>{0x3F80, 0x3F82, 0x4380, 0x4382});
}

TEST_CASE("cpu rules: float16 and bfloat16 Conv: inputs, weights and outputs of the declared type, float32 inside") {
  // X = [a, 1, 1] (NCHW [1, 1, 1, 3]), W = [1, 1] ([1, 1, 1, 2]), B = [0.5]:
  // y = [a + 1 + 0.5, 1 + 1 + 0.5]. float16, a = 2048: 2049.5 -> 2050 (0x6801), 2.5 exact (0x4100).
  // With B = 0 (no bias): 2049 is a tie -> 2050 away from zero. bfloat16, a = 256: 257.5 -> 258
  // (0x4381), 2.5 exact (0x4020); without bias 257 is a tie -> 256 (even, 0x4380).
  struct Case {
    DataType t;
    uint16_t a, one, half, zero;
    std::vector<uint16_t> with_bias, without_bias;
  };
  const Case cases[] = {{DataType::Float16, 0x6800, 0x3C00, 0x3800, 0x0000, {0x6801, 0x4100}, {0x6801, 0x4000}},
                        {DataType::BFloat16, 0x4380, 0x3F80, 0x3F00, 0x0000, {0x4381, 0x4020}, {0x4380, 0x4000}}};
  for (const Case& c : cases) {
    CAPTURE(to_string(c.t));
    for (bool bias : {true, false}) {
      CAPTURE(bias);
      Graph g;
      ValueId x = g.add_value(Value{"x0", typed(c.t, {1, 1, 1, 3}), std::nullopt, {}});
      const std::vector<uint16_t> w{c.one, c.one}, b{bias ? c.half : c.zero};
      ValueId wi = g.add_value(Value{"w", typed(c.t, {1, 1, 1, 2}), Buffer::copy_of(std::as_bytes(std::span<const uint16_t>(w))), {}});
      ValueId bi = g.add_value(Value{"b", typed(c.t, {1}), Buffer::copy_of(std::as_bytes(std::span<const uint16_t>(b))), {}});
      ValueId y = g.add_value(Value{"y", typed(c.t, {1, 1, 1, 2}), std::nullopt, {}});
      g.inputs = {x};
      g.outputs = {y};
      g.add_node(Node{"Conv", "conv", {x, wi, bi}, {y}, {{"kernel_shape", Attr(std::vector<int64_t>{1, 2})}}});
      auto out = run_bits(g, c.t, {{{1, 1, 1, 3}, {c.a, c.one, c.one}}});
      CHECK(out == (bias ? c.with_bias : c.without_bias));
    }
  }
}

// ONNX Conv-11: strides and dilations >= 1, pads >= 0, kernel_shape = W's spatial shape. A
// graph the checker rejects is refused by prepare() (Invalid, naming the node and the
// attribute), never computed into garbage; the same Conv with valid attributes runs.
TEST_CASE("cpu prepare refuses what check calls an error: Conv strides, dilations, pads, kernel_shape") {
  cpu_ref::register_backend();
  auto conv = [](AttrMap attrs, std::vector<int64_t> y) {
    Graph g = one_node("Conv", {f32({1, 1, 5, 5})}, f32(std::move(y)), std::move(attrs));
    std::vector<float> ones(9, 1.0f);
    ValueId w = g.add_value(Value{"w", f32({1, 1, 3, 3}), Buffer::copy_of(std::as_bytes(std::span(ones))), {}});
    g.nodes[0].inputs.push_back(w);
    return g;
  };
  using L = std::vector<int64_t>;
  const std::vector<std::pair<AttrMap, std::string>> bad = {
      {{{"strides", Attr(L{0, 1})}}, "strides"},       {{{"strides", Attr(L{-1, 1})}}, "strides"},
      {{{"dilations", Attr(L{0, 1})}}, "dilations"},   {{{"pads", Attr(L{-1, 0, 0, 0})}}, "pads"},
      {{{"kernel_shape", Attr(L{-3, 3})}}, "kernel_shape"}, {{{"kernel_shape", Attr(L{2, 3})}}, "kernel_shape"},
  };
  for (const auto& [attrs, name] : bad) {
    const auto& name_ = name;  // CAPTURE cannot name a structured binding (clang 14)
    CAPTURE(name_);
    try {
      find_backend("cpu")->prepare(conv(attrs, {1, 1, 3, 3}), {});
      FAIL("prepared");
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::Invalid);
      CHECK(e.where() == "nodes[0]");
      CHECK(e.message().find(name) != std::string::npos);
    }
  }
  // 5x5 ones, 3x3 ones, stride 1, no padding: every output is 9.
  Graph ok = conv({{"strides", Attr(L{1, 1})}, {"kernel_shape", Attr(L{3, 3})}}, {1, 1, 3, 3});
  auto y = y_of<float>(run(ok, {{"x0", HostTensor::from_values<float>(f32({1, 1, 5, 5}), std::vector<float>(25, 1.0f))}}));
  CHECK(y == std::vector<float>(9, 9.0f));
}

// ONNX Div on integers truncates toward zero (7 / 2 = 3, -7 / 2 = -3, 9 / -4 = -2, by hand);
// division by zero and INT_MIN / -1 are undefined there, and refused here at run time.
TEST_CASE("cpu rules: integer Div truncates, and refuses division by zero and overflow") {
  auto i32 = [](std::vector<int64_t> s) { return TensorType{DataType::Int32, std::move(s), false, std::nullopt}; };
  Graph g = one_node("Div", {i32({3}), i32({3})}, i32({3}));
  auto in = [&](std::vector<int32_t> a, std::vector<int32_t> b) {
    return TensorMap{{"x0", HostTensor::from_values<int32_t>(i32({3}), a)}, {"x1", HostTensor::from_values<int32_t>(i32({3}), b)}};
  };
  CHECK(y_of<int32_t>(run(g, in({7, -7, 9}, {2, 2, -4}))) == std::vector<int32_t>{3, -3, -2});
  // Division by zero: no more specific identifier than nnbridge.invalid.400; INT_MIN / -1 does
  // not fit int32: nnbridge.invalid.406 (narrowing). Both name output element 1.
  for (const auto& [a, b, id] : {std::tuple{std::vector<int32_t>{1, 2, 3}, std::vector<int32_t>{1, 0, 1}, ErrorId::InvalidOther},
                                 std::tuple{std::vector<int32_t>{1, INT32_MIN, 3}, std::vector<int32_t>{1, -1, 1}, ErrorId::Narrowing}}) {
    const auto id_ = to_string(id);  // CAPTURE cannot name a structured binding (clang 14)
    CAPTURE(id_);
    try {
      run(g, in(a, b));
      FAIL("ran");
    } catch (const Error& e) {
      CHECK(e.id() == id);
      CHECK(e.message().find("output element 1") != std::string::npos);
    }
  }
}
