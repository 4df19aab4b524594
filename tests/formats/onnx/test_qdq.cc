// quantized_as_qdq (nnbridge/rewrite_qdq.h): quantized tensors as ONNX DequantizeLinear /
// QuantizeLinear nodes. Small graphs whose outputs are worked by hand from ONNX
// QuantizeLinear-13 / DequantizeLinear-13 (y = saturate(round_half_even(x / scale) + zero_point),
// x = (q - zero_point) * scale); the rewritten graph is written as ONNX, passes python3-onnx's
// full check, and computes those values on cpu when read back.
#include <doctest/doctest.h>

#include <cstring>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "nnbridge/io.h"
#include "nnbridge/rewrite_qdq.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
namespace fs = std::filesystem;
namespace ox = nnbridge::test::onnx;

namespace {

using Ints = std::vector<int64_t>;

TensorType quant(DataType d, Ints shape, std::vector<double> scales, std::vector<int64_t> zps, std::optional<int64_t> axis = {}) {
  return TensorType{d, std::move(shape), false, Quantization{std::move(scales), std::move(zps), axis}};
}
template <class T>
Buffer bytes(const std::vector<T>& v) {
  std::vector<std::byte> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return Buffer::owned(std::move(b));
}
std::vector<std::string> ops(const Graph& g) {
  std::vector<std::string> out;
  for (const Node& n : g.nodes) out.push_back(n.op);
  return out;
}
template <class T>
HostTensor host(TensorType t, const std::vector<T>& v) {
  return HostTensor::from_values<T>(std::move(t), std::span<const T>(v));
}
bool any_quantized(const Graph& g) {
  for (const Value& v : g.values)
    if (is_quantized(v.type.dtype)) return true;
  return false;
}

// Writes `g` as ONNX (the writer applies quantized_as_qdq), checks it, reads it back and runs it.
TensorMap through_onnx(const Graph& g, const TensorMap& inputs, const std::string& file) {
  const fs::path written = test::temp_dir() / file;
  save(g, written);
  CHECK(ox::full_check(written) == "");
  Graph back = load(written);
  CHECK(!any_quantized(back));
  cpu_ref::register_backend();
  return find_backend("cpu")->prepare(back, {})->run(inputs);
}

}  // namespace

TEST_CASE("qdq: Add of a quantized input and a quantized constant, requantized (ties to even)") {
  NNBRIDGE_REQUIRE_ONNX();
  Graph g;
  const ValueId x = g.add_value(Value{"x", quant(DataType::QAsymmU8, {1, 4}, {0.5}, {10}), {}, {}});
  const ValueId c = g.add_value(Value{"c", quant(DataType::QAsymmU8, {1, 4}, {0.25}, {0}), bytes<uint8_t>({2, 2, 1, 4}), {}});
  const ValueId y = g.add_value(Value{"y", quant(DataType::QAsymmU8, {1, 4}, {0.5}, {10}), {}, {}});
  g.inputs = {x};
  g.outputs = {y};
  g.add_node(Node{"Add", "add", {x, c}, {y}, {}});

  Graph r = g;
  CHECK(quantized_as_qdq(r) == 3);
  CHECK(!any_quantized(r));
  CHECK(r.values[x].type.dtype == DataType::UInt8);
  CHECK(r.values[c].type.dtype == DataType::UInt8);
  CHECK(r.values[y].type.dtype == DataType::UInt8);
  CHECK(r.values[x].name == "x");
  CHECK(ops(r) == std::vector<std::string>{"DequantizeLinear", "DequantizeLinear", "Add", "QuantizeLinear"});

  // x = (q - 10) * 0.5 = [0, 1, 1, 5]; c = 0.25 q = [0.5, 0.5, 0.25, 1]; sum = [0.5, 1.5, 1.25, 6];
  // / 0.5 = [1, 3, 2.5, 12]; 2.5 rounds to 2 (half to even); + 10.
  const TensorMap out = through_onnx(g, {{"x", host<uint8_t>(TensorType{DataType::UInt8, {1, 4}, false, {}}, {10, 12, 12, 20})}},
                                     "qdq_add.onnx");
  CHECK(out.at("y").dtype() == DataType::UInt8);
  CHECK(out.at("y").to_double() == std::vector<double>{11, 13, 12, 22});
}

TEST_CASE("qdq: Gemm with per-axis qsymms8 weights and Arm NN's Int32 bias (scale = X scale * W scale)") {
  NNBRIDGE_REQUIRE_ONNX();
  Graph g;
  const ValueId a = g.add_value(Value{"a", quant(DataType::QAsymmU8, {1, 2}, {0.5}, {0}), {}, {}});
  const ValueId w = g.add_value(
      Value{"w", quant(DataType::QSymmS8, {2, 2}, {0.1, 0.2}, {0}, 0), bytes<int8_t>({10, 20, 5, -5}), {}});
  const ValueId b = g.add_value(Value{"b", TensorType{DataType::Int32, {2}, false, {}}, bytes<int32_t>({10, -5}), {}});
  const ValueId y = g.add_value(Value{"y", quant(DataType::QAsymmU8, {1, 2}, {0.5}, {20}), {}, {}});
  g.inputs = {a};
  g.outputs = {y};
  g.add_node(Node{"Gemm", "fc", {a, w, b}, {y}, {{"transB", Attr(int64_t{1})}}});

  Graph r = g;
  quantized_as_qdq(r);
  // The bias goes through its own DequantizeLinear with scales 0.5 * [0.1, 0.2] on axis 0.
  int bias_dq = 0;
  for (const Node& n : r.nodes)
    if (n.op == "DequantizeLinear" && n.inputs[0] == b) {
      ++bias_dq;
      CHECK(n.attrs.at("axis").get<int64_t>() == 0);
      std::vector<float> s(2);
      std::memcpy(s.data(), r.values[n.inputs[1]].constant->data(), 8);
      CHECK(s[0] == doctest::Approx(0.05));
      CHECK(s[1] == doctest::Approx(0.1));
    }
  CHECK(bias_dq == 1);

  // a = [1, 2]; W rows [1, 2] and [1, -1]; bias [0.5, -0.5]; y = [5.5, -1.5] / 0.5 + 20 = [31, 17].
  const TensorMap out = through_onnx(g, {{"a", host<uint8_t>(TensorType{DataType::UInt8, {1, 2}, false, {}}, {2, 4})}},
                                     "qdq_gemm.onnx");
  CHECK(out.at("y").to_double() == std::vector<double>{31, 17});
}

TEST_CASE("qdq: Arm NN Quantize / Dequantize take the scale and zero point, qsymms16 as Cast arithmetic") {
  NNBRIDGE_REQUIRE_ONNX();
  Graph g;
  const TensorType f{DataType::Float32, {3}, false, {}};
  const ValueId x = g.add_value(Value{"x", f, {}, {}});
  const ValueId q = g.add_value(Value{"q", quant(DataType::QAsymmS8, {3}, {0.1}, {-5}), {}, {}});
  const ValueId d = g.add_value(Value{"d", f, {}, {}});
  const ValueId s = g.add_value(Value{"s", quant(DataType::QSymmS16, {3}, {0.25}, {}), {}, {}});
  g.inputs = {x};
  g.outputs = {q, d, s};
  g.add_node(Node{"QuantizeLinear", "quantize", {x}, {q}, {}});
  g.add_node(Node{"DequantizeLinear", "dequantize", {q}, {d}, {}});
  g.add_node(Node{"Relu", "relu", {d}, {s}, {}});

  Graph r = g;
  quantized_as_qdq(r);
  // No QuantizeLinear for int16 (uint8 / int8 only before opset 21): Div, Round, Clip, Cast.
  CHECK(ops(r) == std::vector<std::string>{"QuantizeLinear", "DequantizeLinear", "Relu", "Div", "Round", "Clip", "Cast"});
  CHECK(r.nodes[0].inputs.size() == 3);
  CHECK(r.nodes[1].inputs[0] == q);

  // q = round([0.3, -1.25, 100] / 0.1) - 5 saturated to int8 = [-2, -17 (-12.5 to even -12), 127];
  // d = (q + 5) * 0.1 = [0.3, -1.2, 13.2]; s = relu(d) / 0.25 = [1.2, 0, 52.8] -> [1, 0, 53].
  const TensorMap out = through_onnx(g, {{"x", host<float>(f, {0.3f, -1.25f, 100.0f})}}, "qdq_quantize.onnx");
  CHECK(out.at("q").dtype() == DataType::Int8);
  CHECK(out.at("q").to_double() == std::vector<double>{-2, -17, 127});
  const auto dv = out.at("d").to_double();
  CHECK(dv[0] == doctest::Approx(0.3));
  CHECK(dv[1] == doctest::Approx(-1.2));
  CHECK(dv[2] == doctest::Approx(13.2));
  CHECK(out.at("s").dtype() == DataType::Int16);
  CHECK(out.at("s").to_double() == std::vector<double>{1, 0, 53});
}

TEST_CASE("qdq: a tensor without usable quantization is left for the writer to refuse by name") {
  Graph g;
  const ValueId x = g.add_value(Value{"x", quant(DataType::QAsymmU8, {2}, {0.0}, {0}), {}, {}});
  const ValueId y = g.add_value(Value{"y", quant(DataType::QAsymmU8, {2}, {0.5}, {300}), {}, {}});
  g.inputs = {x};
  g.outputs = {y};
  g.add_node(Node{"Relu", "relu", {x}, {y}, {}});
  CHECK(quantized_as_qdq(g) == 0);  // scale 0; zero point 300 outside uint8
  CHECK(g.values[x].type.dtype == DataType::QAsymmU8);
  const fs::path dir = test::temp_dir();
  try {
    save(g, dir / "qdq_refused.onnx");
    FAIL("saved");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("value 'x' has the quantized dtype qasymmu8") != std::string::npos);
  }
  CHECK(!fs::exists(dir / "qdq_refused.onnx"));
}
