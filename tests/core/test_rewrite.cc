// The rewrites of nnbridge/rewrite.h. Expected pads come from ONNX's SAME rule worked by hand
// (Conv-11 / MaxPool-12: out = ceil(in / stride), total = (out - 1) * stride + dilation *
// (kernel - 1) + 1 - in); expected types from each op's definition (Relu keeps the type,
// MatMul [1,4] x [4,3] is [1,3]).
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <vector>

#include "nnbridge/error.h"
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

Value constant_i64(const char* name, const Ints& v) {
  std::vector<std::byte> b(v.size() * sizeof(int64_t));
  std::memcpy(b.data(), v.data(), b.size());
  return Value{name, TensorType{DataType::Int64, {int64_t(v.size())}, false, std::nullopt}, Buffer::owned(std::move(b)), {}};
}

const Ints& ints(const Node& n, const char* k) { return n.attrs.at(k).get<Ints>(); }

Ints i64s(const Value& v) {
  REQUIRE(v.constant);
  REQUIRE(v.type.dtype == DataType::Int64);
  Ints out(v.constant->size() / 8);
  std::memcpy(out.data(), v.constant->data(), v.constant->size());
  return out;
}
std::vector<float> f32s(const Value& v) {
  REQUIRE(v.constant);
  REQUIRE(v.type.dtype == DataType::Float32);
  std::vector<float> out(v.constant->size() / 4);
  std::memcpy(out.data(), v.constant->data(), v.constant->size());
  return out;
}

// x [N, C, H, W] -> op -> y (unknown type), with `attrs`.
Graph pool(const char* op, Ints x, AttrMap attrs) {
  Graph g;
  g.inputs = {g.add_value(Value{"x", f32(std::move(x)), {}, {}})};
  g.outputs = {g.add_value(Value{"y", unknown(), {}, {}})};
  g.add_node(Node{op, "p", {0}, {1}, std::move(attrs)});
  return g;
}

}  // namespace

TEST_CASE("infer_missing_types: intermediate values without types get them in topological order") {
  // Listed out of order: the Relu reading t comes first, as a file may store it.
  Graph g;
  ValueId x = g.add_value(Value{"x", f32({1, 4}), {}, {}});
  ValueId t = g.add_value(Value{"t", unknown(), {}, {}});
  ValueId u = g.add_value(Value{"u", unknown(), {}, {}});
  std::vector<float> w(12, 1.0f);
  std::vector<std::byte> wb(w.size() * 4);
  std::memcpy(wb.data(), w.data(), wb.size());
  ValueId wv = g.add_value(Value{"w", f32({4, 3}), Buffer::owned(std::move(wb)), {}});
  // y keeps its declared dtype and gets the dim the file left unknown.
  ValueId y = g.add_value(Value{"y", TensorType{DataType::Float32, {1, -1}, false, std::nullopt}, {}, {}});
  g.add_node(Node{"Relu", "second", {u}, {y}, {}});
  g.add_node(Node{"MatMul", "first", {t, wv}, {u}, {}});
  g.add_node(Node{"Sigmoid", "zeroth", {x}, {t}, {}});
  g.inputs = {x};
  g.outputs = {y};
  CHECK(infer_missing_types(g) == 3);
  CHECK(g.values[t].type == f32({1, 4}));
  CHECK(g.values[u].type == f32({1, 3}));
  CHECK(g.values[y].type == f32({1, 3}));
  CHECK(infer_missing_types(g) == 0);
}

TEST_CASE("infer_missing_types: a failing inference or a cycle changes nothing") {
  Graph g;
  ValueId a = g.add_value(Value{"a", f32({2}), {}, {}});
  ValueId b = g.add_value(Value{"b", f32({3}), {}, {}});
  ValueId c = g.add_value(Value{"c", unknown(), {}, {}});
  g.add_node(Node{"Add", "bad", {a, b}, {c}, {}});  // [2] + [3] does not broadcast
  CHECK(infer_missing_types(g) == 0);
  CHECK(g.values[c].type.unknown_rank);
  Graph cyc;
  ValueId p = cyc.add_value(Value{"p", unknown(), {}, {}});
  cyc.add_node(Node{"Relu", "self", {p}, {p}, {}});
  CHECK(infer_missing_types(cyc) == 0);
}

TEST_CASE("explicit_transpose_perm: ONNX's default is the reversed dims") {
  Graph g = pool("Transpose", {2, 3, 4}, {});
  CHECK(explicit_transpose_perm(g) == 1);
  CHECK(ints(g.nodes[0], "perm") == Ints{2, 1, 0});
  CHECK(explicit_transpose_perm(g) == 0);  // already explicit
  Graph unk = pool("Transpose", {}, {});
  unk.values[0].type = unknown();
  CHECK(explicit_transpose_perm(unk) == 0);
}

TEST_CASE("explicit_pads: SAME_UPPER and SAME_LOWER and VALID as ONNX defines them") {
  // in 5, kernel 2, stride 1: out 5, total 1 -> SAME_UPPER [0 | 1], SAME_LOWER [1 | 0].
  Graph up = pool("MaxPool", {1, 1, 5, 5}, {{"kernel_shape", Ints{2, 2}}, {"auto_pad", "SAME_UPPER"}});
  CHECK(explicit_pads(up) == 1);
  CHECK(ints(up.nodes[0], "pads") == Ints{0, 0, 1, 1});
  CHECK(up.nodes[0].attrs.at("auto_pad").get<std::string>() == "NOTSET");
  Graph low = pool("AveragePool", {1, 1, 5, 5}, {{"kernel_shape", Ints{2, 2}}, {"auto_pad", "SAME_LOWER"}});
  CHECK(explicit_pads(low) == 1);
  CHECK(ints(low.nodes[0], "pads") == Ints{1, 1, 0, 0});
  // in 7, kernel 3, stride 2: out 4, total (4-1)*2 + 3 - 7 = 2 -> [1 | 1]; in 6: out 3, total 1.
  Graph strided = pool("MaxPool", {1, 1, 7, 6}, {{"kernel_shape", Ints{3, 3}}, {"strides", Ints{2, 2}}, {"auto_pad", "SAME_UPPER"}});
  CHECK(explicit_pads(strided) == 1);
  CHECK(ints(strided.nodes[0], "pads") == Ints{1, 0, 1, 1});
  // dilation 2, kernel 3 (extent 5), in 5, stride 1: total 4 -> [2 | 2].
  Graph dil = pool("MaxPool", {1, 1, 5, 5}, {{"kernel_shape", Ints{3, 3}}, {"dilations", Ints{2, 2}}, {"auto_pad", "SAME_UPPER"}});
  CHECK(explicit_pads(dil) == 1);
  CHECK(ints(dil.nodes[0], "pads") == Ints{2, 2, 2, 2});
  Graph valid = pool("MaxPool", {1, 1, 5, 5}, {{"kernel_shape", Ints{2, 2}}, {"auto_pad", "VALID"}, {"pads", Ints{1, 1, 1, 1}}});
  CHECK(explicit_pads(valid) == 1);
  CHECK(ints(valid.nodes[0], "pads") == Ints{0, 0, 0, 0});
  // NHWC (Arm NN's layout): the spatial dims are 1 and 2.
  Graph nhwc = pool("MaxPool", {1, 5, 7, 3},
                    {{"kernel_shape", Ints{2, 3}}, {"strides", Ints{1, 2}}, {"auto_pad", "SAME_UPPER"}, {"data_layout", "NHWC"}});
  CHECK(explicit_pads(nhwc) == 1);
  CHECK(ints(nhwc.nodes[0], "pads") == Ints{0, 1, 1, 1});  // H: total 1; W: out 4, total 6+3-7 = 2
  // An unknown spatial dim leaves the node as it is.
  Graph dyn = pool("MaxPool", {1, 1, -1, 5}, {{"kernel_shape", Ints{2, 2}}, {"auto_pad", "SAME_UPPER"}});
  CHECK(explicit_pads(dyn) == 0);
  CHECK(dyn.nodes[0].attrs.at("auto_pad").get<std::string>() == "SAME_UPPER");
}

TEST_CASE("explicit_pads: Conv takes the kernel from W (OIHW) when kernel_shape is absent") {
  Graph g = pool("Conv", {1, 2, 5, 5}, {{"auto_pad", "SAME_LOWER"}});
  std::vector<std::byte> wb(4 * 2 * 2 * 2 * 4);
  ValueId w = g.add_value(Value{"w", f32({4, 2, 2, 2}), Buffer::owned(std::move(wb)), {}});
  g.nodes[0].inputs.push_back(w);
  CHECK(explicit_pads(g) == 1);
  CHECK(ints(g.nodes[0], "pads") == Ints{1, 1, 0, 0});
}

TEST_CASE("reshape_shape_as_attribute: the constant input becomes the shape attribute") {
  Graph g = pool("Reshape", {2, 3, 4}, {});
  ValueId s = g.add_value(constant_i64("s", {0, -1}));
  g.nodes[0].inputs.push_back(s);
  // Output type unknown: the constant with 0 resolved from the input (ONNX Reshape-14).
  Graph a = g;
  CHECK(reshape_shape_as_attribute(a) == 1);
  CHECK(a.nodes[0].inputs.size() == 1);
  CHECK(ints(a.nodes[0], "shape") == Ints{2, -1});
  // Output known: its shape.
  Graph b = g;
  b.values[1].type = f32({2, 12});
  CHECK(reshape_shape_as_attribute(b) == 1);
  CHECK(ints(b.nodes[0], "shape") == Ints{2, 12});
  // A shape that is not a constant stays an input.
  Graph c = g;
  c.values[s].constant.reset();
  CHECK(reshape_shape_as_attribute(c) == 0);
  CHECK(c.nodes[0].inputs.size() == 2);
}

TEST_CASE("operands_as_attributes: constant operand inputs become the descriptor form's attributes") {
  Graph g = pool("Tile", {2, 3}, {});
  ValueId r = g.add_value(constant_i64("r", {2, 1}));
  g.nodes[0].inputs.push_back(r);
  CHECK(operands_as_attributes(g) == 1);
  CHECK(g.nodes[0].inputs.size() == 1);
  CHECK(ints(g.nodes[0], "repeats") == Ints{2, 1});
  CHECK(g.values.size() == 2);  // the constant nothing reads any more is gone
  CHECK(operands_as_attributes(g) == 0);
  // Slice-13 with axes left out: starts / ends / steps as Slice-10's attributes; a constant that
  // another node still reads stays.
  Graph s = pool("Slice", {4, 6}, {});
  const ValueId st = s.add_value(constant_i64("st", {1})), en = s.add_value(constant_i64("en", {3}));
  const ValueId sp = s.add_value(constant_i64("sp", {2}));
  s.nodes[0].inputs = {0, st, en, kNoValue, sp};
  s.add_node(Node{"Relu", "other", {en}, {s.add_value(Value{"z", unknown(), {}, {}})}, {}});
  CHECK(has_operand_inputs(s.nodes[0]));
  CHECK(operands_as_attributes(s) == 1);
  CHECK(s.nodes[0].inputs == std::vector<ValueId>{0});
  CHECK(ints(s.nodes[0], "starts") == Ints{1});
  CHECK(ints(s.nodes[0], "ends") == Ints{3});
  CHECK(ints(s.nodes[0], "steps") == Ints{2});
  CHECK(s.nodes[0].attrs.count("axes") == 0);
  REQUIRE(s.values.size() == 4);  // x, y, en (read by Relu), z
  CHECK(s.values[s.nodes[1].inputs[0]].name == "en");
  CHECK(s.values[s.nodes[1].outputs[0]].name == "z");
  // Resize scales whose products with X's shape are whole: the sizes (4 * 1.5 = 6).
  Graph rz = pool("Resize", {1, 1, 4, 4}, {});
  std::vector<float> sc{1, 1, 1.5f, 2};
  std::vector<std::byte> sb(16);
  std::memcpy(sb.data(), sc.data(), 16);
  const ValueId scales = rz.add_value(Value{"scales", f32({4}), Buffer::owned(std::move(sb)), {}});
  rz.nodes[0].inputs = {0, kNoValue, scales};
  CHECK(operands_as_attributes(rz) == 1);
  CHECK(ints(rz.nodes[0], "sizes") == Ints{1, 1, 6, 8});
  CHECK(rz.nodes[0].attrs.count("scales") == 0);
  // An operand that is not a constant stays an input, and a writer refuses it naming the node.
  Graph v = pool("Unsqueeze", {3}, {});
  v.nodes[0].inputs.push_back(v.add_value(Value{"axes", TensorType{DataType::Int64, {1}, false, std::nullopt}, {}, {}}));
  CHECK(operands_as_attributes(v) == 0);
  CHECK(v.nodes[0].inputs.size() == 2);
  auto refusal = [](const Graph& graph) {
    try {
      require_constant_operands(graph, "Arm NN");
    } catch (const Error& e) {
      return e;
    }
    FAIL("accepted");
    return Error(ErrorId::IoOther, "unreachable");
  };
  const Error ev = refusal(v);
  CHECK(ev.id() == ErrorId::NoForm);
  CHECK(ev.message().find("node 'p' (Unsqueeze): input 1 `axes`") == 0);  // names the node and the input
  // A Reshape whose shape is computed (here a graph input): reshape_shape_as_attribute leaves it,
  // and it is refused the same way, naming the node and the value.
  Graph rg;
  const ValueId rx = rg.add_value(Value{"x", f32({2, 3}), {}, {}});
  const ValueId rs = rg.add_value(Value{"dims", TensorType{DataType::Int64, {2}, false, std::nullopt}, {}, {}});
  const ValueId ry = rg.add_value(Value{"y", f32({-1, -1}), {}, {}});
  rg.add_node(Node{"Reshape", "flat", {rx, rs}, {ry}, {}});
  rg.inputs = {rx, rs};
  rg.outputs = {ry};
  CHECK(reshape_shape_as_attribute(rg) == 0);
  const Error er = refusal(rg);
  CHECK(er.id() == ErrorId::NoForm);
  CHECK(er.message().find("node 'flat' (Reshape): input 1 `shape` ('dims')") == 0);
}

TEST_CASE("attributes_as_operands: descriptor attributes become constant inputs, and back") {
  // Pad-2 form -> Pad-13: pads int64 [4], value a scalar of X's type (0.5 is exact in float32);
  // Clip with only max: min left out as kNoValue; Slice-10 form with starts / ends / axes.
  Graph g;
  const ValueId x = g.add_value(Value{"x", f32({2, 3}), {}, {}});
  const ValueId p = g.add_value(Value{"p", f32({3, 5}), {}, {}});
  const ValueId c = g.add_value(Value{"c", f32({3, 5}), {}, {}});
  const ValueId s = g.add_value(Value{"s", f32({3, 2}), {}, {}});
  g.add_node(Node{"Pad", "pad", {x}, {p}, {{"pads", Ints{0, 1, 1, 1}}, {"value", 0.5}, {"mode", "constant"}}});
  g.add_node(Node{"Clip", "", {p}, {c}, {{"max", 6.0}}});
  g.add_node(Node{"Slice", "cut", {c}, {s}, {{"starts", Ints{1}}, {"ends", Ints{3}}, {"axes", Ints{1}}}});
  g.inputs = {x};
  g.outputs = {s};
  const Graph before = g;
  CHECK(attributes_as_operands(g) == 3);
  REQUIRE(g.nodes[0].inputs.size() == 3);
  CHECK(g.values[g.nodes[0].inputs[1]].name == "pad.pads");
  CHECK(i64s(g.values[g.nodes[0].inputs[1]]) == Ints{0, 1, 1, 1});
  CHECK(g.values[g.nodes[0].inputs[2]].name == "pad.constant_value");
  CHECK(f32s(g.values[g.nodes[0].inputs[2]]) == std::vector<float>{0.5f});
  CHECK(g.nodes[0].attrs.count("pads") == 0);
  CHECK(g.nodes[0].attrs.at("mode") == Attr("constant"));
  REQUIRE(g.nodes[1].inputs.size() == 3);
  CHECK(g.nodes[1].inputs[1] == kNoValue);
  CHECK(g.values[g.nodes[1].inputs[2]].name == "c.max");  // no node name: the output's
  REQUIRE(g.nodes[2].inputs.size() == 4);
  CHECK(i64s(g.values[g.nodes[2].inputs[3]]) == Ints{1});
  // A value that cannot be float32 exactly (0.1) is float64, as is any value for a float64 X.
  Graph d = before;
  d.nodes[1].attrs["max"] = Attr(0.1);
  attributes_as_operands(d);
  CHECK(d.values[d.nodes[1].inputs[2]].type.dtype == DataType::Float64);
  // The writers' direction restores the graph (the new constants removed again).
  CHECK(operands_as_attributes(g) == 3);
  CHECK(g.values.size() == before.values.size());
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    CHECK(g.nodes[i].inputs == before.nodes[i].inputs);
    CHECK(g.nodes[i].attrs == before.nodes[i].attrs);
  }
}

TEST_CASE("drop_identity: readers read the input and a graph output keeps its name through the producer") {
  // x -> Relu -> a -> Identity -> b -> Sigmoid -> c -> Identity -> y (graph output).
  Graph g;
  ValueId x = g.add_value(Value{"x", f32({2}), {}, {}});
  ValueId a = g.add_value(Value{"a", f32({2}), {}, {}});
  ValueId b = g.add_value(Value{"b", f32({2}), {}, {}});
  ValueId c = g.add_value(Value{"c", f32({2}), {}, {}});
  ValueId y = g.add_value(Value{"y", f32({2}), {}, {}});
  g.add_node(Node{"Relu", "r", {x}, {a}, {}});
  g.add_node(Node{"Identity", "i1", {a}, {b}, {}});
  g.add_node(Node{"Sigmoid", "s", {b}, {c}, {}});
  g.add_node(Node{"Identity", "i2", {c}, {y}, {}});
  g.inputs = {x};
  g.outputs = {y};
  CHECK(drop_identity(g) == 2);
  REQUIRE(g.nodes.size() == 2);
  CHECK(g.nodes[1].op == "Sigmoid");
  CHECK(g.nodes[1].inputs == std::vector<ValueId>{a});
  CHECK(g.nodes[1].outputs == std::vector<ValueId>{y});
  CHECK(g.outputs == std::vector<ValueId>{y});
  // An Identity of a graph input into a graph output has no producer to write it: it stays;
  // so does one carrying the kept namespace.
  Graph h;
  ValueId hx = h.add_value(Value{"x", f32({2}), {}, {}});
  ValueId hy = h.add_value(Value{"y", f32({2}), {}, {}});
  ValueId hz = h.add_value(Value{"z", f32({2}), {}, {}});
  h.add_node(Node{"Identity", "pass", {hx}, {hy}, {}});
  h.add_node(Node{"Identity", "out", {hx}, {hz}, {{"armnn.layer", "Output"}}});
  h.inputs = {hx};
  h.outputs = {hy, hz};
  CHECK(drop_identity(h, "armnn.") == 0);
  CHECK(h.nodes.size() == 2);
}

TEST_CASE("global_pools_as_windows: one window over the whole plane") {
  Graph g = pool("GlobalAveragePool", {1, 3, 7, 5}, {});
  CHECK(global_pools_as_windows(g) == 1);
  CHECK(g.nodes[0].op == "AveragePool");
  CHECK(ints(g.nodes[0], "kernel_shape") == Ints{7, 5});
  CHECK(ints(g.nodes[0], "strides") == Ints{1, 1});
  CHECK(ints(g.nodes[0], "pads") == Ints{0, 0, 0, 0});
  Graph m = pool("GlobalMaxPool", {1, 3, 4}, {});
  CHECK(global_pools_as_windows(m) == 1);
  CHECK(m.nodes[0].op == "MaxPool");
  CHECK(ints(m.nodes[0], "kernel_shape") == Ints{4});
  Graph dyn = pool("GlobalAveragePool", {1, 3, -1, 5}, {});
  CHECK(global_pools_as_windows(dyn) == 0);
}

TEST_CASE("shape_ops_as_reshape: Flatten and Squeeze and Unsqueeze become Reshape to the output's shape") {
  Graph f = pool("Flatten", {2, 3, 4}, {{"axis", int64_t{1}}});
  f.values[1].type = f32({2, 12});
  CHECK(shape_ops_as_reshape(f) == 1);
  CHECK(f.nodes[0].op == "Reshape");
  CHECK(ints(f.nodes[0], "shape") == Ints{2, 12});
  CHECK_FALSE(f.nodes[0].attrs.count("axis"));
  Graph u = pool("Unsqueeze", {3}, {});
  ValueId axes = u.add_value(constant_i64("axes", {0}));
  u.nodes[0].inputs.push_back(axes);
  u.values[1].type = f32({1, 3});
  CHECK(shape_ops_as_reshape(u) == 1);
  CHECK(u.nodes[0].inputs.size() == 1);
  CHECK(ints(u.nodes[0], "shape") == Ints{1, 3});
  Graph unknown_out = pool("Squeeze", {1, 3}, {});
  CHECK(shape_ops_as_reshape(unknown_out) == 0);  // y's type unknown
  Graph zero = pool("Squeeze", {1, 0}, {});
  zero.values[1].type = f32({0});
  CHECK(shape_ops_as_reshape(zero) == 1);
  CHECK(zero.nodes[0].attrs.at("allowzero") == Attr(int64_t{1}));
}

TEST_CASE("asymmetric_pads_as_pad: an explicit Pad in front with the value a padded window sees") {
  // MaxPool pads [H 0 | 1, W 1 | 2]: Pad [0, 0, 0, 1, 0, 0, 1, 2] with -inf, then no pads.
  Graph g = pool("MaxPool", {1, 2, 5, 5}, {{"kernel_shape", Ints{2, 2}}, {"pads", Ints{0, 1, 1, 2}}});
  CHECK(asymmetric_pads_as_pad(g) == 1);
  REQUIRE(g.nodes.size() == 2);
  const Node& pad = g.nodes[1];
  CHECK(pad.op == "Pad");
  // Pad-13: pads and constant_value as constant inputs (int64 [8], a float32 scalar as X).
  REQUIRE(pad.inputs.size() == 3);
  CHECK(pad.inputs[0] == 0);
  CHECK(i64s(g.values[pad.inputs[1]]) == Ints{0, 0, 0, 1, 0, 0, 1, 2});
  CHECK(g.values[pad.inputs[2]].type == f32({}));
  CHECK(f32s(g.values[pad.inputs[2]]) == std::vector<float>{-std::numeric_limits<float>::infinity()});
  CHECK(pad.attrs.count("pads") == 0);
  CHECK(g.nodes[0].inputs[0] == pad.outputs[0]);
  CHECK(g.values[pad.outputs[0]].type == f32({1, 2, 6, 8}));
  CHECK(ints(g.nodes[0], "pads") == Ints{0, 0, 0, 0});
  // Symmetric pads, and AveragePool excluding the padding from its divisor, stay as they are.
  Graph sym = pool("Conv", {1, 2, 5, 5}, {{"kernel_shape", Ints{3, 3}}, {"pads", Ints{1, 1, 1, 1}}});
  CHECK(asymmetric_pads_as_pad(sym) == 0);
  Graph excl = pool("AveragePool", {1, 2, 5, 5}, {{"kernel_shape", Ints{2, 2}}, {"pads", Ints{0, 0, 1, 1}}});
  CHECK(asymmetric_pads_as_pad(excl) == 0);
  Graph incl = pool("AveragePool", {1, 2, 5, 5},
                    {{"kernel_shape", Ints{2, 2}}, {"pads", Ints{0, 0, 1, 1}}, {"count_include_pad", int64_t{1}}});
  CHECK(asymmetric_pads_as_pad(incl) == 1);
  CHECK(f32s(incl.values[incl.nodes[1].inputs[2]]) == std::vector<float>{0.0f});
}
