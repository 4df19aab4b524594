// The ONNX forms of nnbridge/rewrite.h (rewrite_onnx_forms.cc): which ONNX operators replace each
// op and with which constants, worked by hand from the definitions the header cites. What each
// computes is checked against Arm NN 20.08 CpuRef's outputs in tests/formats/onnx/test_armnn.cc.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "nnbridge/error.h"
#include "nnbridge/rewrite.h"
#include "nnbridge/strided_slice.h"

using namespace nnbridge;

namespace {

using Ints = std::vector<int64_t>;

TensorType of(DataType d, Ints shape) { return TensorType{d, std::move(shape), false, std::nullopt}; }
TensorType f32(Ints shape) { return of(DataType::Float32, std::move(shape)); }
ValueId tensor(Graph& g, const std::string& name, TensorType t) { return g.add_value(Value{name, std::move(t), {}, {}}); }

std::vector<std::string> ops(const Graph& g) {
  std::vector<std::string> out;
  for (const Node& n : g.nodes) out.push_back(n.op);
  return out;
}
template <class T>
std::vector<T> data(const Value& v) {
  REQUIRE(v.constant);
  std::vector<T> out(v.constant->size() / sizeof(T));
  std::memcpy(out.data(), v.constant->data(), v.constant->size());
  return out;
}

// x -> op -> y with the given types and attributes.
Graph unary(const char* op, TensorType x, TensorType y, AttrMap attrs = {}) {
  Graph g;
  const ValueId xi = tensor(g, "x", std::move(x)), yi = tensor(g, "y", std::move(y));
  g.inputs = {xi};
  g.add_node(Node{op, "n", {xi}, {yi}, std::move(attrs)});
  g.outputs = {yi};
  return g;
}

}  // namespace

TEST_CASE("onnx forms: Square, Rsqrt, ScaledTanh and NotEqual as ONNX operators") {
  Graph sq = unary("Square", f32({3}), f32({3}));
  CHECK(square_as_mul(sq) == 1);
  CHECK(ops(sq) == std::vector<std::string>{"Mul"});
  CHECK(sq.nodes[0].inputs == std::vector<ValueId>{0, 0});

  Graph rs = unary("Rsqrt", f32({3}), f32({3}));
  CHECK(rsqrt_as_reciprocal(rs) == 1);
  CHECK(ops(rs) == std::vector<std::string>{"Sqrt", "Reciprocal"});
  CHECK(rs.nodes[1].outputs == rs.outputs);

  // alpha * tanh(beta * x): Mul by beta, Tanh, Mul by alpha.
  Graph st = unary("ScaledTanh", f32({3}), f32({3}), {{"alpha", Attr(1.7159)}, {"beta", Attr(2.0 / 3.0)}});
  CHECK(scaled_tanh_as_arithmetic(st) == 1);
  CHECK(ops(st) == std::vector<std::string>{"Mul", "Tanh", "Mul"});
  CHECK(data<float>(st.values[st.nodes[0].inputs[1]]) == std::vector<float>{float(2.0 / 3.0)});
  CHECK(data<float>(st.values[st.nodes[2].inputs[1]]) == std::vector<float>{1.7159f});
  Graph st16 = unary("ScaledTanh", of(DataType::Float16, {3}), of(DataType::Float16, {3}));
  CHECK(scaled_tanh_as_arithmetic(st16) == 0);  // float32 constants only

  Graph ne;
  const ValueId a = tensor(ne, "a", f32({2})), b = tensor(ne, "b", f32({2})), y = tensor(ne, "y", of(DataType::Bool, {2}));
  ne.inputs = {a, b};
  ne.add_node(Node{"NotEqual", "ne", {a, b}, {y}, {}});
  ne.outputs = {y};
  CHECK(not_equal_as_not(ne) == 1);
  CHECK(ops(ne) == std::vector<std::string>{"Equal", "Not"});
  CHECK(ne.nodes[0].inputs == std::vector<ValueId>{a, b});
  CHECK(ne.values[ne.nodes[0].outputs[0]].type.dtype == DataType::Bool);

  Graph sd;
  const ValueId p = tensor(sd, "p", f32({2})), q = tensor(sd, "q", f32({1})), z = tensor(sd, "z", f32({2}));
  sd.inputs = {p, q};
  sd.add_node(Node{"SquaredDifference", "sd", {p, q}, {z}, {}});
  sd.outputs = {z};
  CHECK(squared_difference_as_sub_mul(sd) == 1);
  CHECK(ops(sd) == std::vector<std::string>{"Sub", "Mul"});
  CHECK(sd.nodes[0].inputs == std::vector<ValueId>{p, q});
  CHECK(sd.nodes[1].inputs[0] == sd.nodes[1].inputs[1]);
  CHECK(sd.nodes[1].inputs[0] == sd.nodes[0].outputs[0]);
}

TEST_CASE("onnx forms: Stack as Unsqueeze of each input and Concat, the axis unchanged") {
  for (int64_t axis : {1, -2}) {  // both name dim 1 of the rank-3 output
    CAPTURE(axis);
    Graph g;
    const ValueId a = tensor(g, "a", f32({2, 3})), b = tensor(g, "b", f32({2, 3})), y = tensor(g, "y", f32({2, 2, 3}));
    g.inputs = {a, b};
    g.add_node(Node{"Stack", "stack", {a, b}, {y}, {{"axis", Attr(axis)}}});
    g.outputs = {y};
    CHECK(stack_as_concat(g) == 1);
    CHECK(ops(g) == std::vector<std::string>{"Unsqueeze", "Unsqueeze", "Concat"});
    CHECK(data<int64_t>(g.values[g.nodes[0].inputs[1]]) == Ints{axis});
    CHECK(g.values[g.nodes[0].outputs[0]].type.shape == Ints{2, 1, 3});
    CHECK(g.nodes[2].attrs.at("axis") == Attr(axis));
    CHECK(g.nodes[2].outputs == std::vector<ValueId>{y});
  }
}

TEST_CASE("onnx forms: Int32 ArgMax and Fill shapes go through int64, as ONNX requires") {
  Graph am = unary("ArgMax", f32({2, 3}), of(DataType::Int32, {2}), {{"axis", Attr(int64_t{1})}});
  CHECK(arg_index_as_int64(am) == 1);
  CHECK(ops(am) == std::vector<std::string>{"ArgMax", "Cast"});
  CHECK(am.values[am.nodes[0].outputs[0]].type == of(DataType::Int64, {2}));
  CHECK(am.nodes[1].attrs.at("to") == Attr("int32"));
  CHECK(am.nodes[1].outputs == am.outputs);
  Graph am64 = unary("ArgMax", f32({2, 3}), of(DataType::Int64, {2}));
  CHECK(arg_index_as_int64(am64) == 0);

  Graph fill = unary("ConstantOfShape", of(DataType::Int32, {2}), f32({2, 3}), {{"value", Attr(1.5)}});
  CHECK(shape_input_as_int64(fill) == 1);
  CHECK(ops(fill) == std::vector<std::string>{"Cast", "ConstantOfShape"});
  CHECK(fill.nodes[0].attrs.at("to") == Attr("int64"));
  CHECK(fill.values[fill.nodes[1].inputs[0]].type == of(DataType::Int64, {2}));
}

TEST_CASE("onnx forms: InstanceNormalization's scalar gamma and beta become [C] inputs") {
  Graph g = unary("InstanceNormalization", f32({1, 3, 4, 4}), f32({1, 3, 4, 4}),
                  {{"gamma", Attr(2.0)}, {"beta", Attr(-0.5)}, {"epsilon", Attr(1e-3)}});
  CHECK(instance_norm_scale_inputs(g) == 1);
  REQUIRE(g.nodes[0].inputs.size() == 3);
  CHECK(data<float>(g.values[g.nodes[0].inputs[1]]) == std::vector<float>{2, 2, 2});
  CHECK(data<float>(g.values[g.nodes[0].inputs[2]]) == std::vector<float>{-0.5f, -0.5f, -0.5f});
  CHECK(g.nodes[0].attrs.count("gamma") == 0);
  CHECK(g.nodes[0].attrs.at("epsilon") == Attr(1e-3));
  Graph nhwc = unary("InstanceNormalization", f32({1, 4, 4, 3}), f32({1, 4, 4, 3}), {{"data_layout", Attr("NHWC")}});
  CHECK(instance_norm_scale_inputs(nhwc) == 0);  // nhwc_as_nchw first
}

TEST_CASE("onnx forms: LpNormalization's epsilon and LpPool's mean as arithmetic") {
  // x / sqrt(max(sum x^2 over axis 1, 1e-12)), the axis kept.
  Graph n = unary("LpNormalization", f32({1, 3, 2}), f32({1, 3, 2}), {{"axis", Attr(int64_t{1})}, {"epsilon", Attr(1e-12)}});
  CHECK(lp_normalization_epsilon_as_arithmetic(n) == 1);
  CHECK(ops(n) == std::vector<std::string>{"Mul", "ReduceSum", "Max", "Sqrt", "Div"});
  CHECK(data<int64_t>(n.values[n.nodes[1].inputs[1]]) == Ints{1});
  CHECK(n.nodes[1].attrs.at("keepdims") == Attr(int64_t{1}));
  CHECK(n.values[n.nodes[1].outputs[0]].type.shape == Ints{1, 1, 2});
  CHECK(data<float>(n.values[n.nodes[2].inputs[1]]) == std::vector<float>{1e-12f});
  Graph no_eps = unary("LpNormalization", f32({1, 3}), f32({1, 3}));
  CHECK(lp_normalization_epsilon_as_arithmetic(no_eps) == 0);  // ONNX LpNormalization itself

  // sqrt(AveragePool(x * x)) with the window, pads and divisor rule kept.
  const AttrMap window = {{"kernel_shape", Attr(Ints{2, 2})}, {"strides", Attr(Ints{2, 2})},
                          {"pads", Attr(Ints{1, 1, 1, 1})}, {"count_include_pad", Attr(int64_t{0})}};
  AttrMap lp = window;
  lp["p"] = Attr(int64_t{2});
  lp["mean"] = Attr(int64_t{1});
  Graph pool = unary("LpPool", f32({1, 1, 4, 4}), f32({1, 1, 3, 3}), lp);
  CHECK(lp_pool_mean_as_average(pool) == 1);
  CHECK(ops(pool) == std::vector<std::string>{"Mul", "AveragePool", "Sqrt"});
  CHECK(pool.nodes[1].attrs == window);
  lp["mean"] = Attr(int64_t{0});
  Graph onnx_lp = unary("LpPool", f32({1, 1, 4, 4}), f32({1, 1, 3, 3}), lp);
  CHECK(lp_pool_mean_as_average(onnx_lp) == 0);  // ONNX LpPool itself
}

TEST_CASE("nhwc_as_nchw: an NHWC Resize gets its sizes in NCHW order, between Transposes") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 4, 4, 3})), y = tensor(g, "y", f32({1, 8, 8, 3}));
  const Ints sizes = {1, 8, 8, 3};
  std::vector<std::byte> b(32);
  std::memcpy(b.data(), sizes.data(), 32);
  const ValueId s = g.add_value(Value{"sizes", of(DataType::Int64, {4}), Buffer::owned(std::move(b)), {}});
  g.inputs = {x};
  g.add_node(Node{"Resize", "resize", {x, kNoValue, kNoValue, s}, {y}, {{"data_layout", Attr("NHWC")}}});
  g.outputs = {y};
  CHECK(nhwc_as_nchw(g) == 1);
  CHECK(ops(g) == std::vector<std::string>{"Transpose", "Resize", "Transpose"});
  CHECK(data<int64_t>(g.values[g.nodes[1].inputs[3]]) == Ints{1, 3, 8, 8});
  CHECK(data<int64_t>(g.values[s]) == sizes);  // the original constant is left as it was
  CHECK(g.nodes[1].attrs.at("data_layout") == Attr("NCHW"));
  // A non-constant sizes input cannot be permuted: the node is left for the writer to refuse.
  Graph dynamic;
  const ValueId dx = tensor(dynamic, "x", f32({1, 4, 4, 3})), dy = tensor(dynamic, "y", f32({1, 8, 8, 3}));
  const ValueId ds = tensor(dynamic, "sizes", of(DataType::Int64, {4}));
  dynamic.inputs = {dx, ds};
  dynamic.add_node(Node{"Resize", "resize", {dx, kNoValue, kNoValue, ds}, {dy}, {{"data_layout", Attr("NHWC")}}});
  dynamic.outputs = {dy};
  CHECK(nhwc_as_nchw(dynamic) == 0);
}

TEST_CASE("onnx forms: StridedSlice as Slice with resolved indices, shrunk dims squeezed") {
  // x [4, 5][1:3, -1:0:-2]: rows 1, 2; columns 4, 2 (-1 is 4, stepping by -2 down to before 0).
  Graph g = unary("StridedSlice", f32({4, 5}), f32({2, 2}),
                  {{"begin", Attr(Ints{1, -1})}, {"end", Attr(Ints{3, 0})}, {"strides", Attr(Ints{1, -2})}});
  CHECK(strided_slice_as_slice(g) == 1);
  REQUIRE(ops(g) == std::vector<std::string>{"Slice"});
  const auto operand = [&](const Graph& h, std::size_t node, std::size_t k) { return data<int64_t>(h.values[h.nodes[node].inputs[k]]); };
  CHECK(operand(g, 0, 1) == Ints{1, 4});
  CHECK(operand(g, 0, 2) == Ints{3, 0});
  CHECK(operand(g, 0, 3) == Ints{0, 1});
  CHECK(operand(g, 0, 4) == Ints{1, -2});
  // x[-1, ::-1]: row 3 taken and dropped; the masked end of a negative stride is before element 0,
  // which Slice only keeps as INT64_MIN (-1 would mean the last element).
  Graph s = unary("StridedSlice", f32({4, 5}), f32({5}),
                  {{"begin", Attr(Ints{-1, 0})}, {"end", Attr(Ints{0, 0})}, {"strides", Attr(Ints{1, -1})},
                   {"begin_mask", Attr(int64_t{2})}, {"end_mask", Attr(int64_t{2})}, {"shrink_axis_mask", Attr(int64_t{1})}});
  CHECK(strided_slice_as_slice(s) == 1);
  REQUIRE(ops(s) == std::vector<std::string>{"Slice", "Squeeze"});
  CHECK(operand(s, 0, 1) == Ints{3, 4});
  CHECK(operand(s, 0, 2) == Ints{4, std::numeric_limits<int64_t>::min()});
  CHECK(operand(s, 0, 4) == Ints{1, -1});
  CHECK(s.values[s.nodes[0].outputs[0]].type.shape == Ints{1, 5});
  CHECK(operand(s, 1, 1) == Ints{0});
  // ellipsis_mask has no Slice form here: left for the writer to refuse.
  Graph e = unary("StridedSlice", f32({4, 5}), f32({4, 5}),
                  {{"begin", Attr(Ints{0})}, {"end", Attr(Ints{1})}, {"ellipsis_mask", Attr(int64_t{1})}});
  CHECK(strided_slice_as_slice(e) == 0);
}

TEST_CASE("onnx forms: SpaceToBatchND and BatchToSpaceND as TensorFlow's reshapes") {
  // NHWC [1, 3, 4, 1], block 2 x 2, pads top 1: padded [1, 4, 4, 1] -> [1, 2, 2, 2, 2, 1] ->
  // blocks first [2, 2, 1, 2, 2, 1] -> [4, 2, 2, 1].
  Graph s2b = unary("SpaceToBatchND", f32({1, 3, 4, 1}), f32({4, 2, 2, 1}),
                    {{"block_shape", Attr(Ints{2, 2})}, {"pads", Attr(Ints{1, 0, 0, 0})}, {"data_layout", Attr("NHWC")}});
  CHECK(space_batch_as_reshapes(s2b) == 1);
  REQUIRE(ops(s2b) == std::vector<std::string>{"Pad", "Reshape", "Transpose", "Reshape"});
  CHECK(data<int64_t>(s2b.values[s2b.nodes[0].inputs[1]]) == Ints{0, 1, 0, 0, 0, 0, 0, 0});
  CHECK(data<int64_t>(s2b.values[s2b.nodes[1].inputs[1]]) == Ints{1, 2, 2, 2, 2, 1});
  CHECK(s2b.nodes[2].attrs.at("perm") == Attr(Ints{2, 4, 0, 1, 3, 5}));
  CHECK(data<int64_t>(s2b.values[s2b.nodes[3].inputs[1]]) == Ints{4, 2, 2, 1});
  CHECK(s2b.nodes[3].outputs == s2b.outputs);

  // NCHW [4, 1, 2, 2], block 2 x 2, crops bottom 1 and right 1: [2, 2, 1, 1, 2, 2] -> blocks
  // inside [1, 1, 2, 2, 2, 2] -> [1, 1, 4, 4] -> rows and columns 0..2.
  Graph b2s = unary("BatchToSpaceND", f32({4, 1, 2, 2}), f32({1, 1, 3, 3}),
                    {{"block_shape", Attr(Ints{2, 2})}, {"crops", Attr(Ints{0, 1, 0, 1})}});
  CHECK(space_batch_as_reshapes(b2s) == 1);
  REQUIRE(ops(b2s) == std::vector<std::string>{"Reshape", "Transpose", "Reshape", "Slice"});
  CHECK(data<int64_t>(b2s.values[b2s.nodes[0].inputs[1]]) == Ints{2, 2, 1, 1, 2, 2});
  CHECK(b2s.nodes[1].attrs.at("perm") == Attr(Ints{2, 3, 4, 0, 5, 1}));
  CHECK(data<int64_t>(b2s.values[b2s.nodes[2].inputs[1]]) == Ints{1, 1, 4, 4});
  CHECK(data<int64_t>(b2s.values[b2s.nodes[3].inputs[1]]) == Ints{0, 0});
  CHECK(data<int64_t>(b2s.values[b2s.nodes[3].inputs[2]]) == Ints{3, 3});
  CHECK(data<int64_t>(b2s.values[b2s.nodes[3].inputs[3]]) == Ints{2, 3});
  // A batch the blocks do not divide is left for the checker.
  Graph odd = unary("BatchToSpaceND", f32({3, 1, 2, 2}), f32({1, 1, 4, 4}),
                    {{"block_shape", Attr(Ints{2, 2})}, {"crops", Attr(Ints{0, 0, 0, 0})}});
  CHECK(space_batch_as_reshapes(odd) == 0);
}

TEST_CASE("resolve_strided_slice: TensorFlow's index rules, by hand") {
  // [5][-1:0:-2] takes 4, 2; [5][7:9] is empty (both clamp to 5); dims past the entries whole.
  auto r = resolve_strided_slice({5, 3}, {-1}, {0}, {-2}, 0, 0, 0);
  REQUIRE(r.size() == 2);
  CHECK((r[0].begin == 4 && r[0].end == 0 && r[0].step == -2 && r[0].count == 2 && !r[0].shrink));
  CHECK((r[1].begin == 0 && r[1].end == 3 && r[1].step == 1 && r[1].count == 3));
  r = resolve_strided_slice({5}, {7}, {9}, {1}, 0, 0, 0);
  CHECK((r[0].count == 0 && r[0].begin == 0 && r[0].end == 0));
  // begin_mask with a negative stride starts at the last element, end_mask runs past the first.
  r = resolve_strided_slice({5}, {0}, {0}, {-1}, 1, 1, 0);
  CHECK((r[0].begin == 4 && r[0].end == -1 && r[0].count == 5));
  // shrink: one index, counted from the end when negative.
  r = resolve_strided_slice({5}, {-2}, {0}, {3}, 0, 0, 1);
  CHECK((r[0].begin == 3 && r[0].end == 4 && r[0].step == 1 && r[0].count == 1 && r[0].shrink));
  const auto id_of = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return e.id();
    }
    return ErrorId::InvalidOther;
  };
  CHECK(id_of([] { resolve_strided_slice({5}, {0}, {5}, {0}, 0, 0, 0); }) == ErrorId::AttributeValue);
  CHECK(id_of([] { resolve_strided_slice({5}, {5}, {0}, {1}, 0, 0, 1); }) == ErrorId::AttributeValue);
  CHECK(id_of([] { resolve_strided_slice({5}, {0, 0}, {1, 1}, {1, 1}, 0, 0, 0); }) == ErrorId::Shape);
}

TEST_CASE("onnx forms: Softmax and LogSoftmax with beta as Mul by beta first") {
  // Arm NN Softmax: exp(beta * (x - max)) / sum = softmax(beta * x).
  Graph g = unary("Softmax", f32({2, 3}), f32({2, 3}), {{"beta", Attr(2.0)}, {"axis", Attr(int64_t{1})}});
  CHECK(softmax_beta_as_mul(g) == 1);
  CHECK(ops(g) == std::vector<std::string>{"Mul", "Softmax"});
  CHECK(g.nodes[0].inputs[0] == g.inputs[0]);
  CHECK(data<float>(g.values[g.nodes[0].inputs[1]]) == std::vector<float>{2.0f});
  CHECK(g.nodes[1].inputs[0] == g.nodes[0].outputs[0]);
  CHECK(!g.nodes[1].attrs.count("beta"));
  CHECK(g.nodes[1].attrs.at("axis").get<int64_t>() == 1);
  CHECK(g.nodes[1].outputs == g.outputs);

  Graph one = unary("LogSoftmax", f32({3}), f32({3}), {{"beta", Attr(1.0)}});
  CHECK(softmax_beta_as_mul(one) == 0);
  Graph quant = unary("Softmax", TensorType{DataType::QAsymmU8, {3}, false, Quantization{{0.1}, {0}, {}}}, f32({3}), {{"beta", Attr(2.0)}});
  CHECK(softmax_beta_as_mul(quant) == 0);  // float32 only: quantized tensors become QDQ first
}
