// The aten <-> canonical mapping, one case per table row: an OperatorCall laid out as ExecuTorch's
// VkGraphBuilder does (every schema argument, then the output) reads as the canonical op with
// the attributes worked out by hand from the ATen and ONNX definitions, writes back identically
// (flatc), and a graph with only the canonical node writes the same operator back. Arguments
// that ONNX opset 13+ takes as inputs (slice_copy's start / end, constant_pad_nd's pad, ...) are
// constant inputs of the canonical node; the cases state them in the descriptor form
// (nnbridge/rewrite.h operands_as_attributes: Slice-10's starts / ends, Pad-2's pads / value).
#include <doctest/doctest.h>

#include <cstring>
#include <limits>

#include "nnbridge/check.h"
#include "nnbridge/error.h"
#include "nnbridge/rewrite.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::vk;

namespace {

using Ints = std::vector<int64_t>;

// Builds the `values` and `chain` of a one-operator VkGraph.
struct Call {
  std::vector<std::string> values;
  std::vector<int> args;
  std::vector<int> inputs;

  int add(std::string json) {
    values.push_back(std::move(json));
    return int(values.size()) - 1;
  }
  int tensor(const std::string& dims, const std::string& dtype = "FLOAT32") { return add(tensor_json(dims, -1, -1, dtype)); }
  Call& in(const std::string& dims, const std::string& dtype = "FLOAT32") {
    int id = tensor(dims, dtype);
    inputs.push_back(id);
    args.push_back(id);
    return *this;
  }
  Call& arg(const std::string& type, const std::string& body) {
    args.push_back(add("{\"value_type\": \"" + type + "\", \"value\": {" + body + "}}"));
    return *this;
  }
  Call& i(int64_t v) { return arg("Int", "\"int_val\": " + std::to_string(v)); }
  Call& d(double v) { return arg("Double", "\"double_val\": " + std::to_string(v)); }
  Call& b(bool v) { return arg("Bool", std::string("\"bool_val\": ") + (v ? "true" : "false")); }
  Call& s(const std::string& v) { return arg("String", "\"string_val\": \"" + v + "\""); }
  Call& null() { return arg("Null", ""); }
  Call& ints(const std::string& list) { return arg("IntList", "\"items\": " + list); }
  Call& list_in(std::initializer_list<std::string> dims) {
    std::string items;
    for (const auto& d : dims) {
      int id = tensor(d);
      inputs.push_back(id);
      items += (items.empty() ? "" : ", ") + std::to_string(id);
    }
    return arg("ValueList", "\"items\": [" + items + "]");
  }
  Call& out(const std::string& dims, const std::string& dtype = "FLOAT32") {
    args.push_back(tensor(dims, dtype));
    outputs.push_back(args.back());
    return *this;
  }
  Call& out_list(std::initializer_list<std::string> dims) {
    std::string items;
    for (const auto& d : dims) {
      int id = tensor(d);
      outputs.push_back(id);
      items += (items.empty() ? "" : ", ") + std::to_string(id);
    }
    return arg("ValueList", "\"items\": [" + items + "]");
  }
  std::string json(const std::string& name) const {
    std::string v, a, ins, outs;
    for (const auto& x : values) v += (v.empty() ? "" : ",") + x;
    for (int x : args) a += (a.empty() ? "" : ", ") + std::to_string(x);
    for (int x : inputs) ins += (ins.empty() ? "" : ", ") + std::to_string(x);
    for (int x : outputs) outs += (outs.empty() ? "" : ", ") + std::to_string(x);
    return graph_json(v, "{\"node_id\": 1, \"name\": \"" + name + "\", \"args\": [" + a + "]}", "[" + ins + "]", "[" + outs + "]");
  }
  std::vector<int> outputs;
};

struct Case {
  std::string aten;
  Call call;
  std::string op;  // "" : stays native
  AttrMap attrs;   // expected canonical attributes (hand-derived)
  std::string fresh_aten = {};  // the operator a writer picks for the bare canonical node, if not `aten`
  // Non-empty: the bare canonical node is refused as a form VkGraph cannot express
  // (docs/errors.md: unsupported.302), for the reason this says (an operator ExecuTorch's Vulkan
  // runtime does not register, or a weight it prepacks that is no constant);
  // "rewritten": it is written as other operators (lower.cc).
  std::string fresh_error = {};
};

Attr I(int64_t v) { return Attr(v); }
Attr F(double v) { return Attr(v); }
Attr L(Ints v) { return Attr(std::move(v)); }

std::vector<Case> cases() {
  std::vector<Case> c;
  auto bin = [](const char* dt = "FLOAT32") { return Call{}.in("[2, 3]").in("[2, 3]"); };
  c.push_back({"aten.add.Tensor", bin().i(1).out("[2, 3]"), "Add", {}});
  c.push_back({"aten.add.Tensor", bin().i(2).out("[2, 3]"), "", {}});      // alpha 2: no canonical form
  c.push_back({"aten.sub.Tensor", bin().d(1.0).out("[2, 3]"), "Sub", {}});  // alpha as a Double
  c.push_back({"aten.mul.Tensor", bin().out("[2, 3]"), "Mul", {}});
  c.push_back({"aten.div.Tensor", bin().out("[2, 3]"), "Div", {}});
  c.push_back({"aten.pow.Tensor_Tensor", bin().out("[2, 3]"), "Pow", {}});
  c.push_back({"aten.minimum.default", bin().out("[2, 3]"), "Min", {}});
  // aten.maximum is not registered: a fresh Max is written as where(a >= b, a, b) (test_convert.cc runs it).
  c.push_back({"aten.maximum.default", bin().out("[2, 3]"), "Max", {}, {}, "rewritten"});
  c.push_back({"aten.gt.Tensor", bin().out("[2, 3]", "BOOL"), "Greater", {}});
  c.push_back({"aten.eq.Tensor", bin().out("[2, 3]", "BOOL"), "Equal", {}});
  c.push_back({"aten.where.self", Call{}.in("[2, 3]", "BOOL").in("[2, 3]").in("[2, 3]").out("[2, 3]"), "Where", {}});
  for (auto [aten, op] : {std::pair{"aten.relu.default", "Relu"}, {"aten.sigmoid.default", "Sigmoid"},
                          {"aten.tanh.default", "Tanh"}, {"aten.abs.default", "Abs"}, {"aten.neg.default", "Neg"},
                          {"aten.sqrt.default", "Sqrt"}, {"aten.rsqrt.default", "Rsqrt"}, {"aten.exp.default", "Exp"},
                          {"aten.log.default", "Log"}, {"aten.sin.default", "Sin"}, {"aten.floor.default", "Floor"},
                          {"aten.round.default", "Round"}, {"aten.hardswish.default", "HardSwish"}})
    c.push_back({aten, Call{}.in("[4]").out("[4]"), op, {}, {},
                 std::string(op) == "Log" || std::string(op) == "Floor" ? std::string(aten) + " is not registered" : ""});
  // hardsigmoid: ONNX HardSigmoid with alpha 1/6 and beta 1/2 (PyTorch's relu6(x + 3) / 6).
  c.push_back({"aten.hardsigmoid.default", Call{}.in("[4]").out("[4]"), "HardSigmoid", {{"alpha", F(1.0 / 6.0)}, {"beta", F(0.5)}}});
  c.push_back({"aten.clone.default", Call{}.in("[4]").null().out("[4]"), "Identity", {}});
  c.push_back({"aten.gelu.default", Call{}.in("[4]").s("tanh").out("[4]"), "Gelu", {{"approximate", Attr("tanh")}}});
  c.push_back({"aten.leaky_relu.default", Call{}.in("[4]").d(0.2).out("[4]"), "LeakyRelu", {{"alpha", F(0.2)}}});
  // A writer prefers clamp for Clip (it takes any bounds, infinite ones as Null).
  c.push_back({"aten.hardtanh.default", Call{}.in("[4]").d(0.0).d(6.0).out("[4]"), "Clip", {{"min", F(0)}, {"max", F(6)}},
               "aten.clamp.default"});
  c.push_back({"aten.clamp.default", Call{}.in("[4]").null().d(6.0).out("[4]"), "Clip", {{"max", F(6)}}});
  c.push_back({"aten._softmax.default", Call{}.in("[2, 3]").i(1).b(false).out("[2, 3]"), "Softmax", {{"axis", I(1)}}});
  c.push_back({"aten._softmax.default", Call{}.in("[2, 3]").i(1).b(true).out("[2, 3]"), "", {}});
  c.push_back({"aten._log_softmax.default", Call{}.in("[2, 3]").i(-1).b(false).out("[2, 3]"), "LogSoftmax", {{"axis", I(-1)}}});
  // conv: 8x8, k3, s2, p1 -> floor((8 + 2 - 3) / 2) + 1 = 4.
  c.push_back({"aten.convolution.default",
               Call{}.in("[1, 3, 8, 8]").in("[4, 3, 3, 3]").in("[4]").ints("[2, 2]").ints("[1, 1]").ints("[1, 1]").b(false)
                   .ints("[0, 0]").i(1).out("[1, 4, 4, 4]"),
               "Conv", {{"strides", L({2, 2})}, {"pads", L({1, 1, 1, 1})}, {"dilations", L({1, 1})}, {"group", I(1)}}, {},
               "must be a constant"});
  // transposed: (4 - 1) * 2 - 2 * 1 + 3 + 1 = 8.
  c.push_back({"aten.convolution.default",
               Call{}.in("[1, 4, 4, 4]").in("[4, 2, 3, 3]").null().ints("[2, 2]").ints("[1, 1]").ints("[1, 1]").b(true)
                   .ints("[1, 1]").i(1).out("[1, 2, 8, 8]"),
               "ConvTranspose",
               {{"strides", L({2, 2})}, {"pads", L({1, 1, 1, 1})}, {"dilations", L({1, 1})}, {"output_padding", L({1, 1})},
                {"group", I(1)}}, {}, "must be a constant"});
  c.push_back({"aten.linear.default", Call{}.in("[2, 5]").in("[3, 5]").null().out("[2, 3]"), "MatMul", {{"transB", I(1)}}, {},
               "must be a constant"});
  c.push_back({"aten.linear.default", Call{}.in("[2, 5]").in("[3, 5]").in("[3]").out("[2, 3]"), "Gemm", {{"transB", I(1)}}, {},
               "must be a constant"});
  c.push_back({"aten.linear.default", Call{}.in("[4, 2, 5]").in("[3, 5]").in("[3]").out("[4, 2, 3]"), "", {}});
  c.push_back({"aten.mm.default", Call{}.in("[2, 5]").in("[5, 3]").out("[2, 3]"), "MatMul", {}});
  c.push_back({"aten.bmm.default", Call{}.in("[4, 2, 5]").in("[4, 5, 3]").out("[4, 2, 3]"), "MatMul", {}});
  c.push_back({"aten.addmm.default", Call{}.in("[3]").in("[2, 5]").in("[5, 3]").d(0.5).i(2).out("[2, 3]"), "Gemm",
               {{"alpha", F(2)}, {"beta", F(0.5)}}});
  c.push_back({"aten.native_layer_norm.default",
               Call{}.in("[2, 3, 4]").ints("[4]").in("[4]").in("[4]").d(1e-5).out_list({"[2, 3, 4]", "[2, 3, 1]", "[2, 3, 1]"}),
               "LayerNormalization", {{"axis", I(2)}, {"epsilon", F(1e-5)}}});
  c.push_back({"aten.mean.dim", Call{}.in("[2, 3, 4]").ints("[1]").b(true).null().out("[2, 1, 4]"), "ReduceMean",
               {{"axes", L({1})}, {"keepdims", I(1)}}});
  c.push_back({"aten.sum.dim_IntList", Call{}.in("[2, 3, 4]").ints("[-1]").b(false).null().out("[2, 3]"), "ReduceSum",
               {{"axes", L({-1})}, {"keepdims", I(0)}}});
  c.push_back({"aten.amax.default", Call{}.in("[2, 3, 4]").ints("[0, 2]").b(false).out("[3]"), "ReduceMax",
               {{"axes", L({0, 2})}, {"keepdims", I(0)}}});
  c.push_back({"aten.argmax.default", Call{}.in("[2, 3]").i(1).b(false).out("[2]", "INT64"), "ArgMax",
               {{"axis", I(1)}, {"keepdims", I(0)}}});
  c.push_back({"aten.argmax.default", Call{}.in("[2, 3]").null().b(false).out("[]", "INT64"), "", {}});  // flattened
  c.push_back({"aten.permute_copy.default", Call{}.in("[2, 3, 4]").ints("[0, -1, 1]").out("[2, 4, 3]"), "Transpose",
               {{"perm", L({0, 2, 1})}}});
  c.push_back({"aten.view_copy.default", Call{}.in("[2, 3, 4]").ints("[6, -1]").out("[6, 4]"), "Reshape", {{"shape", L({6, -1})}}});
  c.push_back({"aten.unsqueeze_copy.default", Call{}.in("[2, 3]").i(1).out("[2, 1, 3]"), "Unsqueeze", {{"axes", L({1})}}});
  c.push_back({"aten.squeeze_copy.dims", Call{}.in("[2, 1, 3]").ints("[1]").out("[2, 3]"), "Squeeze", {{"axes", L({1})}}});
  c.push_back({"aten.squeeze_copy.dims", Call{}.in("[2, 1, 3]").ints("[0]").out("[2, 1, 3]"), "", {}});  // dim 0 is 2: ATen skips it
  c.push_back({"aten.cat.default", Call{}.list_in({"[2, 3]", "[2, 5]"}).i(1).out("[2, 8]"), "Concat", {{"axis", I(1)}}});
  c.push_back({"aten.split_with_sizes_copy.default", Call{}.in("[2, 3]").ints("[1, 2]").i(1).out_list({"[2, 1]", "[2, 2]"}),
               "Split", {{"axis", I(1)}, {"split", L({1, 2})}}});
  c.push_back({"aten.slice_copy.Tensor", Call{}.in("[2, 5]").i(1).i(0).null().i(2).out("[2, 3]"), "Slice",
               {{"axes", L({1})}, {"starts", L({0})}, {"ends", L({std::numeric_limits<int64_t>::max()})}, {"steps", L({2})}}});
  // select dim 1, index -1 of [2, 3, 4]: dims 0 and 2 whole (mask 0b101), dim 1 shrunk (0b010).
  c.push_back({"aten.select_copy.int", Call{}.in("[2, 3, 4]").i(1).i(-1).out("[2, 4]"), "StridedSlice",
               {{"begin", L({0, -1, 0})}, {"end", L({0, 0, 0})}, {"strides", L({1, 1, 1})}, {"begin_mask", I(5)},
                {"end_mask", I(5)}, {"shrink_axis_mask", I(2)}}});
  // pad [1, 2] pads the last dim: begin 1, end 2.
  c.push_back({"aten.constant_pad_nd.default", Call{}.in("[1, 2, 3]").ints("[1, 2]").d(0.5).out("[1, 2, 6]"), "Pad",
               {{"pads", L({0, 0, 1, 0, 0, 2})}, {"value", F(0.5)}}});
  c.push_back({"aten.index_select.default", [] {
                 Call x;
                 x.in("[4, 3]").i(0).in("[2]", "INT64").out("[2, 3]");
                 return x;
               }(), "Gather", {{"axis", I(0)}}});
  // A 1-D index: the writer's first choice for Gather is index_select, which computes the same.
  c.push_back({"aten.embedding.default", Call{}.in("[10, 4]").in("[3]", "INT64").i(-1).b(false).b(false).out("[3, 4]"), "Gather", {},
               "aten.index_select.default"});
  c.push_back({"aten.embedding.default", Call{}.in("[10, 4]").in("[2, 3]", "INT64").i(-1).b(false).b(false).out("[2, 3, 4]"),
               "Gather", {}});
  // output_size is H and W of Resize-13's sizes, N and C X's.
  c.push_back({"aten.upsample_nearest2d.vec", Call{}.in("[1, 1, 2, 2]").ints("[4, 4]").null().out("[1, 1, 4, 4]"), "Resize",
               {{"sizes", L({1, 1, 4, 4})}}});
  c.push_back({"aten.max_pool2d.default",
               Call{}.in("[1, 1, 4, 4]").ints("[2, 2]").ints("[2, 2]").ints("[0, 0]").ints("[1, 1]").b(false).out("[1, 1, 2, 2]"),
               "MaxPool", {{"kernel_shape", L({2, 2})}, {"strides", L({2, 2})}, {"pads", L({0, 0, 0, 0})}, {"dilations", L({1, 1})}}});
  // ceil_mode, 5 wide, k2 s2 p0: ceil((5 - 2) / 2) + 1 = 3 windows in ONNX and PyTorch (the last starts at 4 < 5).
  c.push_back({"aten.max_pool2d.default",
               Call{}.in("[1, 1, 5, 5]").ints("[2, 2]").ints("[2, 2]").ints("[0, 0]").ints("[1, 1]").b(true).out("[1, 1, 3, 3]"),
               "MaxPool",
               {{"kernel_shape", L({2, 2})}, {"strides", L({2, 2})}, {"pads", L({0, 0, 0, 0})}, {"dilations", L({1, 1})},
                {"ceil_mode", I(1)}}});
  // ... with p1: ONNX counts ceil((5 + 2 - 2) / 2) + 1 = 4; that last window starts at 3 * 2 - 1 = 5, in the right
  // padding, so PyTorch drops it (3): no canonical form.
  c.push_back({"aten.max_pool2d.default",
               Call{}.in("[1, 1, 5, 5]").ints("[2, 2]").ints("[2, 2]").ints("[1, 1]").ints("[1, 1]").b(true).out("[1, 1, 3, 3]"),
               "", {}});
  c.push_back({"aten.avg_pool2d.default",
               Call{}.in("[1, 1, 5, 5]").ints("[2, 2]").ints("[2, 2]").ints("[0, 0]").b(true).b(true).null().out("[1, 1, 3, 3]"),
               "AveragePool",
               {{"kernel_shape", L({2, 2})}, {"strides", L({2, 2})}, {"pads", L({0, 0, 0, 0})}, {"ceil_mode", I(1)},
                {"count_include_pad", I(1)}}});
  // pixel_shuffle r = 2: DepthToSpace CRD, blocksize 2.
  c.push_back({"aten.pixel_shuffle.default", Call{}.in("[1, 8, 2, 3]").i(2).out("[1, 2, 4, 6]"), "DepthToSpace",
               {{"blocksize", I(2)}, {"mode", Attr("CRD")}}});
  c.push_back({"aten.repeat.default", Call{}.in("[2, 3]").ints("[2, 1]").out("[4, 3]"), "Tile", {{"repeats", L({2, 1})}}});
  c.push_back({"aten.repeat.default", Call{}.in("[2, 3]").ints("[2, 1, 1]").out("[2, 2, 3]"), "", {}});  // a new leading dim
  // avg: empty stride is the kernel; padding [1] is both dims.
  c.push_back({"aten.avg_pool2d.default",
               Call{}.in("[1, 1, 6, 6]").ints("[3, 3]").ints("[]").ints("[1]").b(false).b(false).null().out("[1, 1, 2, 2]"),
               "AveragePool",
               {{"kernel_shape", L({3, 3})}, {"strides", L({3, 3})}, {"pads", L({1, 1, 1, 1})}, {"count_include_pad", I(0)}}});
  return c;
}

// The node's attributes with its constant operand inputs as the descriptor form's attributes.
AttrMap descriptor_form(const Graph& g, std::size_t i) {
  Graph d = g;
  operands_as_attributes(d);
  CHECK_FALSE(has_operand_inputs(d.nodes[i]));
  return d.nodes[i].attrs;
}

Graph strip_vk(Graph g) {
  auto strip = [](AttrMap& m) {
    for (auto it = m.begin(); it != m.end();) it = it->first.rfind("vk.", 0) == 0 ? m.erase(it) : std::next(it);
  };
  strip(g.metadata);
  for (auto& v : g.values) strip(v.attrs);
  for (auto& n : g.nodes) strip(n.attrs);
  return g;
}

}  // namespace

TEST_CASE("vkgraph ops: each mapping row reads, round-trips and is written back from the canonical node") {
  int n = 0;
  for (const Case& c : cases()) {
    CAPTURE(c.aten);
    CAPTURE(n);
    auto bin = flatc_binary(c.call.json(c.aten), "op" + std::to_string(n++));
    REQUIRE(!bin.empty());
    Graph g = read(bin);
    REQUIRE(g.nodes.size() == 1);
    const Node& node = g.nodes[0];
    CHECK(node.op == (c.op.empty() ? "vk." + c.aten : c.op));
    const AttrMap attrs = descriptor_form(g, 0);
    for (const auto& kv : c.attrs) {
      const auto& k = kv.first;  // not structured bindings: CAPTURE's lambda (clang 14)
      const auto& v = kv.second;
      CAPTURE(k);
      REQUIRE(attrs.count(k));
      CHECK(attrs.at(k) == v);
      // An operand is a constant input of the canonical node, not an attribute.
      if (!node.attrs.count(k)) CHECK(has_operand_inputs(node));
    }
    // A canonical node carries no attribute the case did not expect. (A native node of a known
    // operator whose arguments do not map keeps its ATen scalar arguments under their own names,
    // as vkgraph.h documents.)
    for (const auto& kv : attrs)
      if (const std::string& k = kv.first; !c.op.empty() && k.find('.') == std::string::npos) {
        CAPTURE(k);
        CHECK(c.attrs.count(k));  // no canonical attribute the case did not expect
      }
    for (const auto& issue : check(g)) {
      CAPTURE(issue.message);
      CHECK(issue.severity != Issue::Severity::Error);
    }
    CHECK(flatc_json(write(g, "rt" + std::to_string(n))) == flatc_json(bin));
    if (c.op.empty()) continue;
    // The canonical node alone (no vk.* attributes) writes the same operator.
    Graph fresh = strip_vk(g);
    if (c.fresh_error == "rewritten") {
      CHECK_NOTHROW(write(fresh, "fresh" + std::to_string(n)));
      continue;
    }
    if (!c.fresh_error.empty()) {
      try {
        write(fresh, "fresh" + std::to_string(n));
        FAIL("written");
      } catch (const Error& e) {
        CAPTURE(e.what());
        CHECK(e.id() == ErrorId::NoForm);
      }
      continue;
    }
    Graph back = read(write(fresh, "fresh" + std::to_string(n)));
    REQUIRE(back.nodes.size() == 1);
    CHECK(back.nodes[0].op == c.op);
    CHECK(back.nodes[0].attrs.at("vk.name").get<std::string>() == (c.fresh_aten.empty() ? c.aten : c.fresh_aten));
    CHECK(back.nodes[0].inputs.size() == node.inputs.size());
    CHECK(back.nodes[0].outputs.size() == node.outputs.size());
    const AttrMap back_attrs = descriptor_form(back, 0);
    for (const auto& [k, v] : c.attrs)
      if (!(c.op == "Reshape" && k == "shape")) CHECK(back_attrs.at(k) == v);
  }
}

TEST_CASE("vkgraph ops: a view_copy from scratch states the output shape, and a changed attribute makes new arguments") {
  auto bin = flatc_binary(Call{}.in("[2, 3, 4]").ints("[6, -1]").out("[6, 4]").json("aten.view_copy.default"), "view");
  Graph g = read(bin);
  Graph back = read(write(strip_vk(g), "view_fresh"));
  CHECK(back.nodes[0].attrs.at("shape") == L({6, 4}));
  // Editing a canonical attribute: the kept args no longer say it, so the writer appends new ones.
  auto sm = flatc_binary(Call{}.in("[2, 3]").i(1).b(false).out("[2, 3]").json("aten._softmax.default"), "sm");
  Graph s = read(sm);
  s.nodes[0].attrs["axis"] = Attr(int64_t{0});
  Graph s2 = read(write(s, "sm_edit"));
  CHECK(s2.nodes[0].attrs.at("axis") == I(0));
  CHECK(s2.nodes[0].attrs.at("vk.args").get<Ints>() == Ints{0, 4, 2, 3});  // new Int 0 appended, the old Int 1 orphaned
}

TEST_CASE("vkgraph ops: what VkGraph cannot express is an error naming the node") {
  Graph g;
  TensorType t{DataType::Float32, {1, 4, 4, 3}, false, std::nullopt};
  g.add_value(Value{"x", t, std::nullopt, {}});
  g.add_value(Value{"y", t, std::nullopt, {}});
  g.inputs = {0};
  g.outputs = {1};
  g.add_node(Node{"LRN", "my_lrn", {0}, {1}, {{"size", Attr(int64_t{3})}}});
  try {
    write(g, "lrn");
    FAIL("written");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::NoForm);
    CHECK(e.message().find("my_lrn") != std::string::npos);
  }
  // Weights in an Arm NN layout are permuted once, which needs them constant.
  g.add_value(Value{"w", TensorType{DataType::Float32, {2, 1, 1, 3}, false, std::nullopt}, std::nullopt, {}});
  g.inputs = {0, 2};
  g.nodes[0] = Node{"Conv", "conv_ohwi", {0, 2}, {1}, {{"kernel_layout", Attr("OHWI")}}};
  CHECK_THROWS_WITH_AS(write(g, "ohwi", true), doctest::Contains("'conv_ohwi'"), Error);
}

TEST_CASE("vkgraph ops: what ATen takes in another form is rewritten with explicit nodes") {
  TensorType nhwc{DataType::Float32, {1, 4, 4, 3}, false, std::nullopt};
  Graph g;
  g.add_value(Value{"x", nhwc, std::nullopt, {}});
  g.add_value(Value{"y", TensorType{DataType::Float32, {1, 2, 2, 3}, false, std::nullopt}, std::nullopt, {}});
  g.inputs = {0};
  g.outputs = {1};
  g.add_node(Node{"MaxPool", "pool", {0}, {1},
                  {{"kernel_shape", L({2, 2})}, {"strides", L({2, 2})}, {"data_layout", Attr("NHWC")}}});
  Graph back = read(write(g, "nhwc_pool"));
  REQUIRE(back.nodes.size() == 3);
  CHECK(back.nodes[0].op == "Transpose");
  CHECK(back.nodes[0].attrs.at("perm") == L({0, 3, 1, 2}));
  CHECK(back.nodes[1].op == "MaxPool");
  CHECK(back.values[back.nodes[1].inputs[0]].type.shape == Ints{1, 3, 4, 4});
  CHECK(back.values[back.nodes[1].outputs[0]].type.shape == Ints{1, 3, 2, 2});
  CHECK(back.nodes[2].op == "Transpose");
  CHECK(back.nodes[2].attrs.at("perm") == L({0, 2, 3, 1}));
  CHECK(back.values[back.outputs[0]].type.shape == Ints{1, 2, 2, 3});

  // Softmax with beta 2: a Mul by the constant 2 first (delegate: the constant has data).
  Graph s;
  TensorType t{DataType::Float32, {2, 3}, false, std::nullopt};
  s.add_value(Value{"x", t, std::nullopt, {}});
  s.add_value(Value{"y", t, std::nullopt, {}});
  s.inputs = {0};
  s.outputs = {1};
  s.add_node(Node{"Softmax", "sm", {0}, {1}, {{"beta", Attr(2.0)}}});
  Graph sb = read(write(s, "beta", true), true);
  REQUIRE(sb.nodes.size() == 2);
  CHECK(sb.nodes[0].op == "Mul");
  const Value& c = sb.values[sb.nodes[0].inputs[1]];
  REQUIRE(c.constant);
  float beta = 0;
  std::memcpy(&beta, c.constant->data(), 4);
  CHECK(beta == 2.0f);
  CHECK(sb.nodes[1].op == "Softmax");
  CHECK(!sb.nodes[1].attrs.count("beta"));
}
