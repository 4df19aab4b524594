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

// y = x + c, all qasymmu8: x an input (scale 0.5, zero point 10), c a constant [2, 2, 1, 4]
// (scale 0.25), y (scale 0.5, zero point 10); values 0, 1, 2 in that order.
Graph quantized_add() {
  Graph g;
  const ValueId x = g.add_value(Value{"x", quant(DataType::QAsymmU8, {1, 4}, {0.5}, {10}), {}, {}});
  const ValueId c = g.add_value(Value{"c", quant(DataType::QAsymmU8, {1, 4}, {0.25}, {0}), bytes<uint8_t>({2, 2, 1, 4}), {}});
  const ValueId y = g.add_value(Value{"y", quant(DataType::QAsymmU8, {1, 4}, {0.5}, {10}), {}, {}});
  g.inputs = {x};
  g.outputs = {y};
  g.add_node(Node{"Add", "add", {x, c}, {y}, {}});
  return g;
}

}  // namespace

TEST_CASE("qdq: Add of a quantized input and a quantized constant, requantized (ties to even)") {
  NNBRIDGE_REQUIRE_ONNX();
  const Graph g = quantized_add();
  const ValueId x = 0, c = 1, y = 2;

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

TEST_CASE("qdq: qdq_as_quantized folds an ONNX QDQ graph back into quantized tensors") {
  // The Add graph of the first case, written as ONNX and read back: DQ(x), DQ(c), Add, Q(y).
  NNBRIDGE_REQUIRE_ONNX();
  const Graph g = quantized_add();
  const ValueId x = 0, c = 1, y = 2;
  const fs::path written = test::temp_dir() / "qdq_fold.onnx";
  save(g, written);
  Graph back = load(written);
  CHECK(qdq_as_quantized(back) == 3);
  CHECK(ops(back) == std::vector<std::string>{"Add"});
  REQUIRE(back.nodes[0].inputs.size() == 2);
  const TensorType& xt = back.values[back.nodes[0].inputs[0]].type;
  const TensorType& ct = back.values[back.nodes[0].inputs[1]].type;
  const TensorType& yt = back.values[back.nodes[0].outputs[0]].type;
  CHECK(xt == g.values[x].type);
  CHECK(ct == g.values[c].type);
  CHECK(yt == g.values[y].type);
  CHECK(back.values[back.nodes[0].inputs[1]].constant->size() == 4);
  CHECK(back.values.size() == 3);  // the scale and zero-point constants are gone

  // A stored tensor whose two readers disagree on its scale keeps its nodes.
  Graph two = load(written);
  for (Node& n : two.nodes)
    if (n.op == "DequantizeLinear" && two.values[n.inputs[0]].name == "x") {
      Node other = n;
      other.name = "other";
      other.inputs[1] = two.add_value(Value{"s2", TensorType{DataType::Float32, {}, false, {}}, bytes<float>({0.75f}), {}});
      other.outputs = {two.add_value(Value{"x_other", TensorType{DataType::Float32, {1, 4}, false, {}}, {}, {}})};
      two.outputs.push_back(other.outputs[0]);
      two.add_node(std::move(other));
      break;
    }
  qdq_as_quantized(two);
  for (ValueId v : two.inputs) CHECK(two.values[v].type.dtype == DataType::UInt8);
}

TEST_CASE("qdq: a requantizing QuantizeLinear after a Reshape stays (Arm NN's Reshape copies bytes)") {
  // ONNX: x (uint8, scale 1) -> DequantizeLinear -> Reshape -> QuantizeLinear (scale 2) -> y.
  // Folding the Q into the Reshape would make Arm NN copy x's bytes into y's grid unchanged.
  Graph g;
  const TensorType u8{DataType::UInt8, {2, 2}, false, {}};
  const ValueId x = g.add_value(Value{"x", u8, {}, {}});
  const ValueId s1 = g.add_value(Value{"s1", TensorType{DataType::Float32, {}, false, {}}, bytes<float>({1.0f}), {}});
  const ValueId s2 = g.add_value(Value{"s2", TensorType{DataType::Float32, {}, false, {}}, bytes<float>({2.0f}), {}});
  const ValueId z = g.add_value(Value{"z", TensorType{DataType::UInt8, {}, false, {}}, bytes<uint8_t>({0}), {}});
  const ValueId shape = g.add_value(Value{"shape", TensorType{DataType::Int64, {1}, false, {}}, bytes<int64_t>({4}), {}});
  const ValueId xf = g.add_value(Value{"xf", TensorType{DataType::Float32, {2, 2}, false, {}}, {}, {}});
  const ValueId r = g.add_value(Value{"r", TensorType{DataType::Float32, {4}, false, {}}, {}, {}});
  const ValueId y = g.add_value(Value{"y", TensorType{DataType::UInt8, {4}, false, {}}, {}, {}});
  g.inputs = {x};
  g.outputs = {y};
  g.add_node(Node{"DequantizeLinear", "dq", {x, s1, z}, {xf}, {}});
  g.add_node(Node{"Reshape", "reshape", {xf, shape}, {r}, {}});
  g.add_node(Node{"QuantizeLinear", "q", {r, s2, z}, {y}, {}});
  CHECK(qdq_as_quantized(g) == 3);  // x, y and the Reshape's output (x's grid)
  CHECK(ops(g) == std::vector<std::string>{"Reshape", "QuantizeLinear"});
  CHECK(g.nodes[1].inputs.size() == 1);
  CHECK(g.values[g.nodes[0].outputs[0]].type.quantization->scales == std::vector<double>{1.0});
  CHECK(g.values[g.outputs[0]].type.quantization->scales == std::vector<double>{2.0});
}
