// The pattern rewrites of nnbridge/rewrite.h (rewrite_patterns.cc). Expected constants are worked
// by hand from the ONNX definitions each rewrite cites: integer Div truncates toward zero (Div-14),
// Shape gives the dims, weight layouts are index permutations (OHWI[o][h][w][i] = OIHW[o][i][h][w]),
// a grouped Conv's W and B split into equal consecutive parts along dim 0 (Conv-11).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "nnbridge/rewrite.h"

using namespace nnbridge;

namespace {

using Ints = std::vector<int64_t>;

TensorType f32(Ints shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }
TensorType unknown() {
  TensorType t;
  t.unknown_rank = true;
  return t;
}
template <class T>
Buffer bytes(const std::vector<T>& v) {
  std::vector<std::byte> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return Buffer::owned(std::move(b));
}
ValueId i64(Graph& g, const char* name, const Ints& v, Ints shape) {
  return g.add_value(Value{name, TensorType{DataType::Int64, std::move(shape), false, std::nullopt}, bytes(v), {}});
}
ValueId f32c(Graph& g, const char* name, const std::vector<float>& v, Ints shape) {
  return g.add_value(Value{name, f32(std::move(shape)), bytes(v), {}});
}
ValueId tensor(Graph& g, const char* name, TensorType t = unknown()) { return g.add_value(Value{name, t, {}, {}}); }

Ints i64s(const Value& v) {
  REQUIRE(v.constant);
  REQUIRE(v.type.dtype == DataType::Int64);
  Ints out(v.constant->size() / 8);
  std::memcpy(out.data(), v.constant->data(), v.constant->size());
  return out;
}
std::vector<float> f32s(const Value& v) {
  REQUIRE(v.constant);
  std::vector<float> out(v.constant->size() / 4);
  std::memcpy(out.data(), v.constant->data(), v.constant->size());
  return out;
}
const Node* only(const Graph& g, const char* op) {
  const Node* found = nullptr;
  for (const Node& n : g.nodes)
    if (n.op == op) {
      REQUIRE(found == nullptr);
      found = &n;
    }
  return found;
}
std::size_t count(const Graph& g, const char* op) {
  std::size_t k = 0;
  for (const Node& n : g.nodes) k += n.op == op;
  return k;
}

}  // namespace

TEST_CASE("fold_shape_arithmetic folds an exporter's Shape Gather Div Unsqueeze Concat chain into Reshape's shape") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 8, 4, 4}));
  g.inputs = {x};
  const ValueId s = tensor(g, "s"), c = tensor(g, "c"), h = tensor(g, "h"), hu = tensor(g, "hu"), t = tensor(g, "t");
  const ValueId shape = tensor(g, "shape"), y = tensor(g, "y");
  g.add_node(Node{"Shape", "shape", {x}, {s}, {}});
  g.add_node(Node{"Gather", "gather", {s, i64(g, "one", {1}, {})}, {c}, {{"axis", Attr(int64_t{0})}}});
  g.add_node(Node{"Div", "div", {c, i64(g, "three", {3}, {})}, {h}, {}});  // 8 / 3 = 2 (truncated)
  g.add_node(Node{"Unsqueeze", "unsq", {h, i64(g, "axes", {0}, {1})}, {hu}, {}});
  g.add_node(Node{"Sub", "sub", {i64(g, "m7", {-7}, {1}), i64(g, "two", {2}, {1})}, {t}, {}});  // -9
  g.add_node(Node{"Div", "div2", {t, i64(g, "two2", {2}, {1})}, {tensor(g, "q")}, {}});          // -4, not -5
  g.add_node(Node{"Concat", "concat", {i64(g, "n", {1}, {1}), hu, i64(g, "rest", {-1}, {1}), g.nodes.back().outputs[0]},
                  {shape}, {{"axis", Attr(int64_t{0})}}});
  g.add_node(Node{"Reshape", "reshape", {x, shape}, {y}, {}});
  g.outputs = {y};
  infer_missing_types(g);
  CHECK(fold_shape_arithmetic(g) == 7);
  REQUIRE(g.nodes.size() == 1);
  CHECK(g.nodes[0].op == "Reshape");
  CHECK(i64s(g.values[g.nodes[0].inputs[1]]) == Ints{1, 2, -1, -4});
  CHECK(g.values[g.nodes[0].inputs[0]].name == "x");
  // Every constant only the folded nodes read is gone: x, the folded shape and y remain.
  CHECK(g.values.size() == 3);
}

TEST_CASE("fold_shape_arithmetic leaves a Shape of an unknown dim and a division by zero") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({-1, 4}));
  g.inputs = {x};
  const ValueId s = tensor(g, "s"), d = tensor(g, "d"), y = tensor(g, "y");
  g.add_node(Node{"Shape", "shape", {x}, {s}, {}});
  g.add_node(Node{"Div", "div", {i64(g, "a", {1}, {1}), i64(g, "z", {0}, {1})}, {d}, {}});
  g.add_node(Node{"Reshape", "reshape", {x, s}, {y}, {}});
  g.outputs = {y, d};
  infer_missing_types(g);
  CHECK(fold_shape_arithmetic(g) == 0);
  CHECK(g.nodes.size() == 3);
}

TEST_CASE("hard_sigmoid_as_activations makes HardSwish of x times HardSigmoid(x) and Affine plus Clip of the rest") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 4}));
  g.inputs = {x};
  const ValueId h = tensor(g, "h", f32({1, 4})), y = tensor(g, "y", f32({1, 4}));
  const ValueId s = tensor(g, "s", f32({1, 4})), z = tensor(g, "z", f32({1, 4}));
  g.add_node(Node{"HardSigmoid", "hs", {x}, {h}, {{"alpha", Attr(double(float(1.0 / 6.0)))}, {"beta", Attr(0.5)}}});
  g.add_node(Node{"Mul", "mul", {h, x}, {y}, {}});
  g.add_node(Node{"HardSigmoid", "gate", {y}, {s}, {{"alpha", Attr(0.2)}, {"beta", Attr(0.5)}}});
  g.add_node(Node{"Mul", "scale", {y, s}, {z}, {}});  // s is HardSigmoid(y), times y: HardSwish only with 1/6
  g.outputs = {z};
  CHECK(hard_sigmoid_as_activations(g) == 2);
  const Node* hswish = only(g, "HardSwish");
  REQUIRE(hswish);
  CHECK(hswish->inputs == std::vector<ValueId>{g.inputs[0]});
  CHECK(g.values[hswish->outputs[0]].name == "y");
  const Node* affine = only(g, "Affine");
  const Node* clip = only(g, "Clip");
  REQUIRE(affine);
  REQUIRE(clip);
  CHECK(affine->attrs.at("alpha").get<double>() == 0.2);
  CHECK(affine->attrs.at("beta").get<double>() == 0.5);
  CHECK(g.values[affine->inputs[0]].name == "y");
  CHECK(clip->inputs[0] == affine->outputs[0]);
  CHECK(f32s(g.values[clip->inputs[1]]) == std::vector<float>{0.0f});
  CHECK(f32s(g.values[clip->inputs[2]]) == std::vector<float>{1.0f});
  CHECK(g.values[clip->outputs[0]].name == "s");
  CHECK(count(g, "HardSigmoid") == 0);
  CHECK(count(g, "Mul") == 1);
}

TEST_CASE("weights_as_oihw permutes OHWI and depthwise 1HWO weights into OIHW") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 2, 1, 2}));
  g.inputs = {x};
  // OHWI [1, 1, 2, 2]: flat (w, i) = (0,0) (0,1) (1,0) (1,1) -> OIHW [1, 2, 1, 2]: (i, w) order.
  const ValueId w = f32c(g, "w", {0, 1, 2, 3}, {1, 1, 2, 2});
  const ValueId dw = f32c(g, "dw", {0, 1, 2, 3}, {1, 1, 2, 2});  // 1HWO: (w, o) -> [O, 1, 1, W]
  const ValueId y = tensor(g, "y"), y2 = tensor(g, "y2");
  g.add_node(Node{"Conv", "conv", {x, w}, {y}, {{"kernel_layout", Attr(std::string("OHWI"))}}});
  g.add_node(Node{"Conv", "dw", {x, dw}, {y2}, {{"kernel_layout", Attr(std::string("1HWO"))}, {"group", Attr(int64_t{2})}}});
  g.outputs = {y, y2};
  CHECK(weights_as_oihw(g) == 2);
  const Value& w2 = g.values[g.nodes[0].inputs[1]];
  CHECK(w2.type.shape == Ints{1, 2, 1, 2});
  CHECK(f32s(w2) == std::vector<float>{0, 2, 1, 3});
  const Value& dw2 = g.values[g.nodes[1].inputs[1]];
  CHECK(dw2.type.shape == Ints{2, 1, 1, 2});
  CHECK(f32s(dw2) == std::vector<float>{0, 2, 1, 3});
  CHECK(!g.nodes[0].attrs.count("kernel_layout"));
  CHECK(g.values.size() == 5);  // the old constants, read by nothing, are gone
}

TEST_CASE("weights_as_oihw moves a per-axis quantization axis with its dim") {
  // Per-axis scales belong to the output channels: 1HWO's axis 3 becomes OIHW's axis 0; MIHW
  // [M, I, H, W] becomes [I * M, 1, H, W], output channel i * M + m taking the scale of its m.
  auto qconst = [](Graph& g, const char* name, Ints shape, std::vector<double> scales, int64_t axis) {
    const std::size_t n = std::size_t(shape[0] * shape[1] * shape[2] * shape[3]);
    std::vector<std::byte> b(n, std::byte{1});
    return g.add_value(Value{name, TensorType{DataType::QSymmS8, std::move(shape), false, Quantization{std::move(scales), {0}, axis}},
                             Buffer::owned(std::move(b)), {}});
  };
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 2, 3, 3}));
  g.inputs = {x};
  const ValueId w1 = qconst(g, "w1", {1, 2, 2, 3}, {0.1, 0.2, 0.3}, 3);    // 1HWO, O = 3
  const ValueId w2 = qconst(g, "w2", {2, 2, 1, 1}, {0.5, 0.25}, 0);         // MIHW, M = 2, I = 2
  const ValueId y1 = tensor(g, "y1"), y2 = tensor(g, "y2");
  g.add_node(Node{"Conv", "a", {x, w1}, {y1}, {{"kernel_layout", Attr(std::string("1HWO"))}}});
  g.add_node(Node{"Conv", "b", {x, w2}, {y2}, {{"kernel_layout", Attr(std::string("MIHW"))}}});
  g.outputs = {y1, y2};
  CHECK(weights_as_oihw(g) == 2);
  const TensorType& t1 = g.values[g.nodes[0].inputs[1]].type;
  CHECK(t1.shape == Ints{3, 1, 2, 2});
  CHECK(t1.quantization->axis == 0);
  CHECK(t1.quantization->scales == std::vector<double>{0.1, 0.2, 0.3});
  const TensorType& t2 = g.values[g.nodes[1].inputs[1]].type;
  CHECK(t2.shape == Ints{4, 1, 1, 1});
  CHECK(t2.quantization->axis == 0);
  CHECK(t2.quantization->scales == std::vector<double>{0.5, 0.25, 0.5, 0.25});
}

TEST_CASE("conv_transpose_weights_as_oihw permutes ONNX's [C_in, C_out, kH, kW] to [C_out, C_in, kH, kW]") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 2, 1, 1}));
  g.inputs = {x};
  // IOHW [2, 3, 1, 1]: element (i, o) = 10 i + o -> OIHW [3, 2, 1, 1]: (o, i) order.
  const ValueId w = f32c(g, "w", {0, 1, 2, 10, 11, 12}, {2, 3, 1, 1});
  const ValueId y = tensor(g, "y");
  g.add_node(Node{"ConvTranspose", "deconv", {x, w}, {y}, {}});
  g.outputs = {y};
  CHECK(conv_transpose_weights_as_oihw(g) == 1);
  const Value& w2 = g.values[g.nodes[0].inputs[1]];
  CHECK(w2.type.shape == Ints{3, 2, 1, 1});
  CHECK(f32s(w2) == std::vector<float>{0, 10, 1, 11, 2, 12});
  CHECK(g.nodes[0].attrs.at("kernel_layout").get<std::string>() == "OIHW");
  CHECK(conv_transpose_weights_as_oihw(g) == 0);  // stated layouts are left

  Graph grouped;
  const ValueId gx = tensor(grouped, "x", f32({1, 2, 1, 1}));
  const ValueId gw = f32c(grouped, "w", {0, 1}, {2, 1, 1, 1});
  const ValueId gy = tensor(grouped, "y");
  grouped.inputs = {gx};
  grouped.add_node(Node{"ConvTranspose", "deconv", {gx, gw}, {gy}, {{"group", Attr(int64_t{2})}}});
  grouped.outputs = {gy};
  CHECK(conv_transpose_weights_as_oihw(grouped) == 0);
}

TEST_CASE("grouped_conv_as_split splits X W and B into the groups and concatenates") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 4, 3, 3}));
  g.inputs = {x};
  const ValueId w = f32c(g, "w", {0, 1, 2, 3, 4, 5, 6, 7}, {4, 2, 1, 1});
  const ValueId b = f32c(g, "b", {10, 11, 12, 13}, {4});
  const ValueId y = tensor(g, "y");
  g.add_node(Node{"Conv", "conv", {x, w, b}, {y}, {{"group", Attr(int64_t{2})}}});
  g.outputs = {y};
  infer_missing_types(g);
  CHECK(grouped_conv_as_split(g) == 1);
  const Node* split = only(g, "Split");
  const Node* concat = only(g, "Concat");
  REQUIRE(split);
  REQUIRE(concat);
  CHECK(split->inputs[0] == g.inputs[0]);
  CHECK(i64s(g.values[split->inputs[1]]) == Ints{2, 2});
  CHECK(g.values[concat->outputs[0]].name == "y");
  REQUIRE(count(g, "Conv") == 2);
  std::vector<const Node*> convs;
  for (const Node& n : g.nodes)
    if (n.op == "Conv") convs.push_back(&n);
  CHECK(convs[0]->inputs[0] == split->outputs[0]);
  CHECK(convs[1]->inputs[0] == split->outputs[1]);
  CHECK(convs[0]->attrs.at("group").get<int64_t>() == 1);
  CHECK(f32s(g.values[convs[0]->inputs[1]]) == std::vector<float>{0, 1, 2, 3});
  CHECK(f32s(g.values[convs[1]->inputs[1]]) == std::vector<float>{4, 5, 6, 7});
  CHECK(f32s(g.values[convs[0]->inputs[2]]) == std::vector<float>{10, 11});
  CHECK(f32s(g.values[convs[1]->inputs[2]]) == std::vector<float>{12, 13});
  CHECK(g.values[convs[0]->inputs[1]].type.shape == Ints{2, 2, 1, 1});
  CHECK(g.values[convs[1]->outputs[0]].type.shape == Ints{1, 2, 3, 3});
  CHECK(concat->inputs == std::vector<ValueId>{convs[0]->outputs[0], convs[1]->outputs[0]});
}

TEST_CASE("grouped_conv_as_split leaves depthwise and ungrouped convolutions") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 4, 3, 3}));
  g.inputs = {x};
  const ValueId y = tensor(g, "y"), y2 = tensor(g, "y2");
  g.add_node(Node{"Conv", "dw", {x, f32c(g, "w", std::vector<float>(4, 1.0f), {4, 1, 1, 1})}, {y}, {{"group", Attr(int64_t{4})}}});
  g.add_node(Node{"Conv", "c", {x, f32c(g, "w2", std::vector<float>(4, 1.0f), {1, 4, 1, 1})}, {y2}, {}});
  g.outputs = {y, y2};
  infer_missing_types(g);
  CHECK(grouped_conv_as_split(g) == 0);
}

TEST_CASE("erf_gelu_as_gelu makes one Gelu of PyTorch's erf form") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({2, 3}));
  g.inputs = {x};
  const ValueId d = tensor(g, "d"), e = tensor(g, "e"), a = tensor(g, "a"), m = tensor(g, "m"), y = tensor(g, "y");
  g.add_node(Node{"Div", "div", {x, f32c(g, "sqrt2", {float(std::sqrt(2.0))}, {})}, {d}, {}});
  g.add_node(Node{"Erf", "erf", {d}, {e}, {}});
  g.add_node(Node{"Add", "add", {e, f32c(g, "one", {1.0f}, {})}, {a}, {}});
  g.add_node(Node{"Mul", "mul", {x, a}, {m}, {}});
  g.add_node(Node{"Mul", "half", {m, f32c(g, "h", {0.5f}, {})}, {y}, {}});
  g.outputs = {y};
  CHECK(erf_gelu_as_gelu(g) == 1);
  REQUIRE(g.nodes.size() == 1);
  CHECK(g.nodes[0].op == "Gelu");
  CHECK(g.nodes[0].attrs.at("approximate").get<std::string>() == "none");
  CHECK(g.values[g.nodes[0].inputs[0]].name == "x");
  CHECK(g.values[g.nodes[0].outputs[0]].name == "y");
  CHECK(g.values.size() == 2);
}

TEST_CASE("erf_gelu_as_gelu leaves a chain with another constant or an intermediate read elsewhere") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({2, 3}));
  g.inputs = {x};
  const ValueId d = tensor(g, "d"), e = tensor(g, "e"), a = tensor(g, "a"), m = tensor(g, "m"), y = tensor(g, "y");
  g.add_node(Node{"Div", "div", {x, f32c(g, "two", {2.0f}, {})}, {d}, {}});  // not sqrt 2
  g.add_node(Node{"Erf", "erf", {d}, {e}, {}});
  g.add_node(Node{"Add", "add", {e, f32c(g, "one", {1.0f}, {})}, {a}, {}});
  g.add_node(Node{"Mul", "mul", {x, a}, {m}, {}});
  g.add_node(Node{"Mul", "half", {m, f32c(g, "h", {0.5f}, {})}, {y}, {}});
  g.outputs = {y};
  CHECK(erf_gelu_as_gelu(g) == 0);
  CHECK(g.nodes.size() == 5);
}

TEST_CASE("square_pow_as_mul makes x times x of Pow by 2 only") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({3}));
  g.inputs = {x};
  const ValueId y = tensor(g, "y"), z = tensor(g, "z");
  g.add_node(Node{"Pow", "sq", {x, f32c(g, "two", {2.0f}, {})}, {y}, {}});
  g.add_node(Node{"Pow", "cube", {x, f32c(g, "three", {3.0f}, {})}, {z}, {}});
  g.outputs = {y, z};
  CHECK(square_pow_as_mul(g) == 1);
  CHECK(g.nodes[0].op == "Mul");
  CHECK(g.nodes[0].inputs == std::vector<ValueId>{g.inputs[0], g.inputs[0]});
  CHECK(g.nodes[1].op == "Pow");
  CHECK(g.values.size() == 4);  // x, y, z and the exponent 3
}

TEST_CASE("matmul_as_gemm makes a fully connected Gemm between two Reshapes") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 2, 3, 4}));
  g.inputs = {x};
  const ValueId w = f32c(g, "w", std::vector<float>(20, 0.5f), {4, 5});
  const ValueId y = tensor(g, "y");
  g.add_node(Node{"MatMul", "mm", {x, w}, {y}, {}});
  g.outputs = {y};
  infer_missing_types(g);
  CHECK(matmul_as_gemm(g) == 1);
  const Node* gemm = only(g, "Gemm");
  REQUIRE(gemm);
  REQUIRE(count(g, "Reshape") == 2);
  CHECK(g.values[gemm->inputs[0]].type.shape == Ints{6, 4});
  CHECK(gemm->inputs[1] == w);
  CHECK(gemm->attrs.at("transB").get<int64_t>() == 0);
  CHECK(g.values[gemm->outputs[0]].type.shape == Ints{6, 5});
  for (const Node& n : g.nodes)
    if (n.op == "Reshape" && n.outputs[0] == y) CHECK(n.attrs.at("shape").get<Ints>() == Ints{1, 2, 3, 5});
}

TEST_CASE("matmul_as_gemm leaves a product of two computed tensors") {
  Graph g;
  const ValueId a = tensor(g, "a", f32({2, 3, 4})), b = tensor(g, "b", f32({2, 4, 5}));
  g.inputs = {a, b};
  const ValueId y = tensor(g, "y");
  g.add_node(Node{"MatMul", "mm", {a, b}, {y}, {}});
  g.outputs = {y};
  infer_missing_types(g);
  CHECK(matmul_as_gemm(g) == 0);
  CHECK(g.nodes[0].op == "MatMul");
}

TEST_CASE("layer_norm_decomposed writes the mean and variance over the last axes") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({2, 3, 4}));
  g.inputs = {x};
  const ValueId scale = f32c(g, "scale", std::vector<float>(4, 2.0f), {4});
  const ValueId bias = f32c(g, "bias", std::vector<float>(4, 1.0f), {4});
  const ValueId y = tensor(g, "y", f32({2, 3, 4}));
  g.add_node(Node{"LayerNormalization", "ln", {x, scale, bias}, {y}, {{"axis", Attr(int64_t{-1})}, {"epsilon", Attr(1e-6)}}});
  g.outputs = {y};
  CHECK(layer_norm_decomposed(g) == 1);
  CHECK(count(g, "LayerNormalization") == 0);
  CHECK(count(g, "ReduceMean") == 2);
  CHECK(count(g, "Sqrt") == 1);
  for (const Node& n : g.nodes) {
    if (n.op == "ReduceMean") {
      CHECK(n.attrs.at("axes").get<Ints>() == Ints{2});
      CHECK(g.values[n.outputs[0]].type.shape == Ints{2, 3, 1});
    }
    if (n.op == "Add" && n.outputs[0] == y) CHECK(n.inputs[1] == bias);
    if (n.op == "Add" && n.outputs[0] != y) CHECK(f32s(g.values[n.inputs[1]]) == std::vector<float>{float(1e-6)});
  }
}

TEST_CASE("fold_shape_arithmetic folds ConstantOfShape Equal Where and the Expand of a constant token") {
  // ViT's class token: Expand(token, Where(Equal(s, -1), ConstantOfShape(3) = 1s, s)) with
  // s = [3, -1, -1]: -1 entries become 1, so the token [1, 1, 2] is broadcast to [3, 1, 2].
  Graph g;
  const ValueId x = tensor(g, "x", f32({3, 1, 2}));
  g.inputs = {x};
  const ValueId ones = tensor(g, "ones", TensorType{DataType::Int64, {3}, false, std::nullopt});
  const ValueId eq = tensor(g, "eq"), shape = tensor(g, "shape"), big = tensor(g, "big"), y = tensor(g, "y");
  g.add_node(Node{"ConstantOfShape", "cos", {i64(g, "three", {3}, {1})}, {ones}, {{"value", Attr(1.0)}}});
  const ValueId s = i64(g, "s", {3, -1, -1}, {3});
  g.add_node(Node{"Equal", "eq", {s, i64(g, "m1", {-1}, {})}, {eq}, {}});
  g.add_node(Node{"Where", "where", {eq, ones, s}, {shape}, {}});
  g.add_node(Node{"Expand", "expand", {f32c(g, "token", {5, 6}, {1, 1, 2}), shape}, {big}, {}});
  g.add_node(Node{"Add", "add", {big, x}, {y}, {}});
  g.outputs = {y};
  infer_missing_types(g);
  CHECK(fold_shape_arithmetic(g) == 4);
  REQUIRE(g.nodes.size() == 1);
  const Value& token = g.values[g.nodes[0].inputs[0]];
  CHECK(token.type.shape == Ints{3, 1, 2});
  CHECK(f32s(token) == std::vector<float>{5, 6, 5, 6, 5, 6});
}

TEST_CASE("fold_shape_arithmetic folds a Transpose of an int constant (swin_t's pads: Reshape, Transpose, Reshape)") {
  // PyTorch's F.pad export: pads [[0, 1], [2, 3], [4, 5]] (begin, end per dim) transposed by
  // perm [1, 0] to [[0, 2, 4], [1, 3, 5]], then flattened: ONNX's begins-then-ends order.
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 2, 3}));
  g.inputs = {x};
  const ValueId t = tensor(g, "t"), flat = tensor(g, "flat"), y = tensor(g, "y");
  g.add_node(Node{"Transpose", "tr", {i64(g, "pairs", {0, 1, 2, 3, 4, 5}, {3, 2})}, {t}, {{"perm", Attr(Ints{1, 0})}}});
  g.add_node(Node{"Reshape", "rs", {t, i64(g, "m1", {-1}, {1})}, {flat}, {}});
  g.add_node(Node{"Pad", "pad", {x, flat}, {y}, {}});
  g.outputs = {y};
  infer_missing_types(g);
  CHECK(fold_shape_arithmetic(g) == 2);
  REQUIRE(g.nodes.size() == 1);
  CHECK(i64s(g.values[g.nodes[0].inputs[1]]) == Ints{0, 2, 4, 1, 3, 5});

  // Rank 3 without perm: the dims reversed, out[k][j][i] = in[i][j][k].
  Graph h;
  const ValueId u = tensor(h, "u");
  h.add_node(Node{"Transpose", "tr", {i64(h, "c", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, {2, 3, 2})}, {u}, {}});
  const ValueId z = tensor(h, "z");
  h.add_node(Node{"Identity", "keep", {u}, {z}, {}});
  h.outputs = {z};
  infer_missing_types(h);
  CHECK(fold_shape_arithmetic(h) == 1);
  const Value& folded = h.values[h.nodes.at(0).inputs[0]];
  CHECK(folded.type.shape == Ints{2, 3, 2});
  // in[i][j][k] = 6i + 2j + k; out[k][j][i] listed in row-major order of (k, j, i).
  CHECK(i64s(folded) == Ints{0, 6, 2, 8, 4, 10, 1, 7, 3, 9, 5, 11});
}

TEST_CASE("fold_shape_arithmetic folds torch's F.pad pads chain: Reshape, Slice with step -1, Transpose, Reshape") {
  // F.pad(x, [0, 1, 2, 3, 4, 5]) lists (begin, end) pairs from the last dim; the export reverses
  // the pairs (Slice starts -1, ends INT64_MIN + 1, step -1: ONNX Slice-13 clamps end to -1, so
  // all 3 rows) and transposes them into ONNX's begins-then-ends order for dims 0, 1, 2:
  // [[0, 1], [2, 3], [4, 5]] -> [[4, 5], [2, 3], [0, 1]] -> [[4, 2, 0], [5, 3, 1]].
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 2, 3}));
  g.inputs = {x};
  const ValueId pairs = tensor(g, "pairs"), rev = tensor(g, "rev"), t = tensor(g, "t"), flat = tensor(g, "flat"),
                y = tensor(g, "y");
  g.add_node(Node{"Reshape", "rs0", {i64(g, "list", {0, 1, 2, 3, 4, 5}, {6}), i64(g, "s0", {-1, 2}, {2})}, {pairs}, {}});
  g.add_node(Node{"Slice", "rev", {pairs, i64(g, "b", {-1}, {1}), i64(g, "e", {INT64_MIN + 1}, {1}), i64(g, "ax", {0}, {1}),
                                   i64(g, "st", {-1}, {1})},
                  {rev}, {}});
  g.add_node(Node{"Transpose", "tr", {rev}, {t}, {{"perm", Attr(Ints{1, 0})}}});
  g.add_node(Node{"Reshape", "rs1", {t, i64(g, "m1", {-1}, {1})}, {flat}, {}});
  g.add_node(Node{"Pad", "pad", {x, flat}, {y}, {}});
  g.outputs = {y};
  infer_missing_types(g);
  CHECK(fold_shape_arithmetic(g) == 4);
  REQUIRE(g.nodes.size() == 1);
  CHECK(i64s(g.values[g.nodes[0].inputs[1]]) == Ints{4, 2, 0, 5, 3, 1});
}

TEST_CASE("fold_shape_arithmetic: Slice on a second axis with step 2, and an empty slice") {
  // [[0, 1, 2, 3], [4, 5, 6, 7]] sliced on axis -1 from 1 with step 2: [[1, 3], [5, 7]];
  // starts 3, ends 1 with step 1 on axis 0 of a 1-D tensor: nothing.
  Graph g;
  const ValueId a = tensor(g, "a"), b = tensor(g, "b"), ya = tensor(g, "ya"), yb = tensor(g, "yb");
  g.add_node(Node{"Slice", "s", {i64(g, "m", {0, 1, 2, 3, 4, 5, 6, 7}, {2, 4}), i64(g, "b1", {1}, {1}), i64(g, "e1", {100}, {1}),
                                 i64(g, "a1", {-1}, {1}), i64(g, "st", {2}, {1})},
                  {a}, {}});
  g.add_node(Node{"Slice", "s2", {i64(g, "v", {9, 8, 7, 6}, {4}), i64(g, "b2", {3}, {1}), i64(g, "e2", {1}, {1})}, {b}, {}});
  g.add_node(Node{"Identity", "ka", {a}, {ya}, {}});
  g.add_node(Node{"Identity", "kb", {b}, {yb}, {}});
  g.outputs = {ya, yb};
  infer_missing_types(g);
  CHECK(fold_shape_arithmetic(g) == 2);
  REQUIRE(g.nodes.size() == 2);
  const Value& fa = g.values[g.nodes[0].inputs[0]];
  CHECK(fa.type.shape == Ints{2, 2});
  CHECK(i64s(fa) == Ints{1, 3, 5, 7});
  const Value& fb = g.values[g.nodes[1].inputs[0]];
  CHECK(fb.type.shape == Ints{0});
}

TEST_CASE("fold_shape_arithmetic folds Mod with the divisor's sign (fmod 0) or the dividend's (fmod 1) and leaves overflow") {
  // ONNX Mod-13: -7 mod 3 = 2 and 7 mod -3 = -2 (Python's %); with fmod 1: -7 fmod 3 = -1,
  // 7 fmod -3 = 1 (C's fmod). INT64_MIN / -1 and INT64_MAX + 1 do not fit int64: left as nodes.
  Graph g;
  const ValueId m = tensor(g, "m"), f = tensor(g, "f"), d = tensor(g, "d"), o = tensor(g, "o");
  const ValueId a = i64(g, "a", {-7, 7}, {2}), b = i64(g, "b", {3, -3}, {2});
  g.add_node(Node{"Mod", "mod", {a, b}, {m}, {}});
  g.add_node(Node{"Mod", "fmod", {a, b}, {f}, {{"fmod", Attr(int64_t{1})}}});
  g.add_node(Node{"Div", "div", {i64(g, "min", {INT64_MIN}, {1}), i64(g, "m1", {-1}, {1})}, {d}, {}});
  g.add_node(Node{"Add", "add", {i64(g, "max", {INT64_MAX}, {1}), i64(g, "one", {1}, {1})}, {o}, {}});
  std::vector<ValueId> outs;
  for (ValueId v : {m, f, d, o}) {
    outs.push_back(tensor(g, "out"));
    g.add_node(Node{"Identity", "", {v}, {outs.back()}, {}});
  }
  g.outputs = outs;
  infer_missing_types(g);
  CHECK(fold_shape_arithmetic(g) == 2);
  CHECK(count(g, "Div") == 1);
  CHECK(count(g, "Add") == 1);
  CHECK(count(g, "Mod") == 0);
  REQUIRE(g.nodes.size() == 6);  // Div, Add and the four Identity nodes, in their order
  CHECK(i64s(g.values[g.nodes[2].inputs[0]]) == Ints{2, -2});
  CHECK(i64s(g.values[g.nodes[3].inputs[0]]) == Ints{-1, 1});
}

TEST_CASE("affine_as_mul_add writes alpha times x plus beta") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({2}));
  g.inputs = {x};
  const ValueId y = tensor(g, "y", f32({2}));
  g.add_node(Node{"Affine", "lin", {x}, {y}, {{"alpha", Attr(0.25)}, {"beta", Attr(-3.0)}}});
  g.outputs = {y};
  CHECK(affine_as_mul_add(g) == 1);
  REQUIRE(g.nodes.size() == 2);
  CHECK(g.nodes[0].op == "Mul");
  CHECK(g.nodes[0].inputs[0] == x);
  CHECK(f32s(g.values[g.nodes[0].inputs[1]]) == std::vector<float>{0.25f});
  CHECK(g.nodes[1].op == "Add");
  CHECK(g.nodes[1].inputs[0] == g.nodes[0].outputs[0]);
  CHECK(f32s(g.values[g.nodes[1].inputs[1]]) == std::vector<float>{-3.0f});
  CHECK(g.nodes[1].outputs[0] == y);
}

TEST_CASE("nonnegative_axes counts negative reduce axes from the back") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 3, 4, 5}));
  g.inputs = {x};
  const ValueId y = tensor(g, "y"), z = tensor(g, "z");
  g.add_node(Node{"ReduceMean", "m", {x}, {y}, {{"axes", Attr(Ints{-1, 1})}, {"keepdims", Attr(int64_t{1})}}});
  g.add_node(Node{"ReduceMax", "k", {x}, {z}, {{"axes", Attr(Ints{2})}}});
  g.outputs = {y, z};
  CHECK(nonnegative_axes(g) == 1);
  CHECK(g.nodes[0].attrs.at("axes").get<Ints>() == Ints{3, 1});
  CHECK(g.nodes[1].attrs.at("axes").get<Ints>() == Ints{2});
}

TEST_CASE("same_rank_operands gives a scalar constant and a lower-rank tensor leading 1s") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 3, 2, 2}));
  const ValueId s = tensor(g, "s", f32({3, 1, 1}));
  g.inputs = {x, s};
  const ValueId y = tensor(g, "y", f32({1, 3, 2, 2})), z = tensor(g, "z", f32({1, 3, 2, 2}));
  g.add_node(Node{"Add", "add", {f32c(g, "eps", {0.5f}, {}), x}, {y}, {}});
  g.add_node(Node{"Mul", "mul", {y, s}, {z}, {}});
  g.outputs = {z};
  CHECK(has_rank_mismatch(g, g.nodes[0]));
  CHECK(same_rank_operands(g) == 2);
  const Value& eps = g.values[g.nodes[0].inputs[0]];
  CHECK(eps.type.shape == Ints{1, 1, 1, 1});
  CHECK(f32s(eps) == std::vector<float>{0.5f});
  const Node* reshape = only(g, "Reshape");
  REQUIRE(reshape);
  CHECK(g.values[reshape->inputs[0]].name == "s");
  CHECK(reshape->attrs.at("shape").get<Ints>() == Ints{1, 3, 1, 1});
  CHECK(g.nodes[1].inputs[1] == reshape->outputs[0]);
  CHECK(!has_rank_mismatch(g, g.nodes[0]));
}

TEST_CASE("scalar_gather_as_reshape gathers by a one-element index and reshapes the axis away") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 197, 8}));
  g.inputs = {x};
  const ValueId y = tensor(g, "y", f32({1, 8}));
  g.add_node(Node{"Gather", "cls", {x, i64(g, "zero", {0}, {})}, {y}, {{"axis", Attr(int64_t{1})}}});
  g.outputs = {y};
  CHECK(scalar_gather_as_reshape(g) == 1);
  REQUIRE(g.nodes.size() == 2);
  const Value& idx = g.values[g.nodes[0].inputs[1]];
  CHECK(idx.type.shape == Ints{1});
  CHECK(i64s(idx) == Ints{0});
  CHECK(g.values[g.nodes[0].outputs[0]].type.shape == Ints{1, 1, 8});
  CHECK(g.nodes[1].op == "Reshape");
  CHECK(g.nodes[1].attrs.at("shape").get<Ints>() == Ints{1, 8});
  CHECK(g.values[g.nodes[1].outputs[0]].name == "y");
}

TEST_CASE("fold_shape_arithmetic folds a chain that reads the shape of a Pad padded by the chain before, in one pass") {
  // Swin Transformer's form: a Pad whose pads are shape arithmetic, then shape arithmetic on the
  // Pad's output. x [2, 3]; pads = [0, 0, 0, Shape(x)[1] - 2] = [0, 0, 0, 1] (ONNX Pad-13: begin
  // values, then end values) -> y [2, 4]; shape = [Shape(y)[1], -1] = [4, -1] -> Reshape.
  Graph g;
  const ValueId x = tensor(g, "x", f32({2, 3}));
  g.inputs = {x};
  const ValueId s1 = tensor(g, "s1"), d1 = tensor(g, "d1"), p = tensor(g, "p"), pads = tensor(g, "pads"), y = tensor(g, "y");
  const ValueId s2 = tensor(g, "s2"), d2 = tensor(g, "d2"), shape = tensor(g, "shape"), z = tensor(g, "z");
  g.add_node(Node{"Shape", "shape1", {x}, {s1}, {}});
  g.add_node(Node{"Gather", "gather1", {s1, i64(g, "i1", {1}, {1})}, {d1}, {{"axis", Attr(int64_t{0})}}});
  g.add_node(Node{"Sub", "sub", {d1, i64(g, "two", {2}, {1})}, {p}, {}});
  g.add_node(Node{"Concat", "concat1", {i64(g, "zeros", {0, 0, 0}, {3}), p}, {pads}, {{"axis", Attr(int64_t{0})}}});
  g.add_node(Node{"Pad", "pad", {x, pads}, {y}, {}});
  g.add_node(Node{"Shape", "shape2", {y}, {s2}, {}});
  g.add_node(Node{"Gather", "gather2", {s2, i64(g, "i2", {1}, {1})}, {d2}, {{"axis", Attr(int64_t{0})}}});
  g.add_node(Node{"Concat", "concat2", {d2, i64(g, "rest", {-1}, {1})}, {shape}, {{"axis", Attr(int64_t{0})}}});
  g.add_node(Node{"Reshape", "reshape", {y, shape}, {z}, {}});
  g.outputs = {z};
  infer_missing_types(g);  // y's shape is unknown here: the pads are not constants yet
  CHECK(fold_shape_arithmetic(g) == 7);
  REQUIRE(g.nodes.size() == 2);
  CHECK(g.nodes[0].op == "Pad");
  CHECK(i64s(g.values[g.nodes[0].inputs[1]]) == Ints{0, 0, 0, 1});
  CHECK(g.values[g.nodes[0].outputs[0]].type.shape == Ints{2, 4});
  CHECK(g.nodes[1].op == "Reshape");
  CHECK(i64s(g.values[g.nodes[1].inputs[1]]) == Ints{4, -1});
}

TEST_CASE("inference_dropout_as_identity: Dropout that computes its input becomes Identity, a random one stays") {
  // ONNX Dropout-13: output = data when training_mode is false (absent: false) or ratio is 0.
  auto dropout = [](std::vector<std::pair<const char*, Value>> operands, bool mask_read) {
    Graph g;
    const ValueId x = tensor(g, "x", f32({4}));
    g.inputs = {x};
    std::vector<ValueId> in{x};
    for (auto& [name, v] : operands) {
      v.name = name;
      in.push_back(v.name.empty() ? kNoValue : g.add_value(v));
    }
    const ValueId y = tensor(g, "y", f32({4})), mask = tensor(g, "mask");
    g.add_node(Node{"Dropout", "drop", in, {y, mask}, {}});
    g.outputs = {y};
    if (mask_read) g.outputs.push_back(mask);
    const std::size_t changed = inference_dropout_as_identity(g);
    return std::make_pair(changed, g);
  };
  auto ratio = [](float r) { return Value{"", f32({}), bytes(std::vector<float>{r}), {}}; };
  auto training = [](bool t) {
    return Value{"", TensorType{DataType::Bool, {}, false, std::nullopt}, bytes(std::vector<uint8_t>{uint8_t(t)}), {}};
  };
  // PyTorch's export of p = 0 in training mode: ratio 0, training_mode true -> Identity(x) -> y.
  auto [n1, g1] = dropout({{"ratio", ratio(0)}, {"training", training(true)}}, false);
  CHECK(n1 == 1);
  REQUIRE(g1.nodes.size() == 1);
  CHECK(g1.nodes[0].op == "Identity");
  CHECK(g1.nodes[0].inputs == std::vector<ValueId>{0});
  CHECK(g1.nodes[0].outputs.size() == 1);
  CHECK(drop_identity(g1) == 0);  // y is a graph output read from the graph input x: the Identity stays
  // No operands (inference): Identity.
  CHECK(dropout({}, false).first == 1);
  // ratio 0.5 in training mode draws random numbers: it stays. So does one whose mask is read.
  CHECK(dropout({{"ratio", ratio(0.5f)}, {"training", training(true)}}, false).first == 0);
  CHECK(dropout({}, true).first == 0);
  // training_mode false with ratio 0.5: Identity.
  CHECK(dropout({{"ratio", ratio(0.5f)}, {"training", training(false)}}, false).first == 1);
}
