// transpose_rank_reduced, slice_steps_as_strided_slice and nonnegative_axes on Concat
// (nnbridge/rewrite.h): the forms Arm NN needs for a Swin Transformer. Expected shapes and
// permutations are worked by hand from ONNX Transpose-13 (output dim k is input dim perm[k]) and
// Slice-13 (negative starts count from the back, then clamp to [0, dim]).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "nnbridge/rewrite.h"

using namespace nnbridge;

namespace {

using Ints = std::vector<int64_t>;

TensorType f32(Ints shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }
ValueId i64(Graph& g, const char* name, const Ints& v) {
  std::vector<std::byte> b(v.size() * 8);
  std::memcpy(b.data(), v.data(), b.size());
  return g.add_value(Value{name, TensorType{DataType::Int64, {int64_t(v.size())}, false, std::nullopt},
                           Buffer::owned(std::move(b)), {}});
}
ValueId tensor(Graph& g, const char* name, TensorType t) { return g.add_value(Value{name, t, {}, {}}); }
const Node& node(const Graph& g, const char* name) {
  for (const Node& n : g.nodes)
    if (n.name == name) return n;
  FAIL("no node " << name);
  throw 0;
}
bool has_value(const Graph& g, const char* name) {
  for (const Value& v : g.values)
    if (v.name == name) return true;
  return false;
}

}  // namespace

TEST_CASE("transpose_rank_reduced: a Swin window partition's rank-6 Transpose between its Reshapes") {
  // x [1, 4, 4, 2] -> Reshape [1, 2, 2, 2, 2, 2] -> Transpose [0, 1, 3, 2, 4, 5] -> Reshape
  // [4, 2, 2, 2]. Dim 0 (size 1) drops; input dims 4, 5 follow each other in perm: one dim of 4.
  // Left: [2, 2, 2, 4] with perm [0, 2, 1, 3], whose output is [2, 2, 2, 4].
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 4, 4, 2}));
  const ValueId a = tensor(g, "a", f32({1, 2, 2, 2, 2, 2})), b = tensor(g, "b", f32({1, 2, 2, 2, 2, 2}));
  const ValueId y = tensor(g, "y", f32({4, 2, 2, 2}));
  g.inputs = {x};
  g.add_node(Node{"Reshape", "view", {x, i64(g, "six", {1, 2, 2, 2, 2, 2})}, {a}, {}});
  g.add_node(Node{"Transpose", "permute", {a}, {b}, {{"perm", Attr(Ints{0, 1, 3, 2, 4, 5})}}});
  g.add_node(Node{"Reshape", "windows", {b, i64(g, "four", {-1, 2, 2, 2})}, {y}, {}});
  g.outputs = {y};
  CHECK(transpose_rank_reduced(g, 5) == 1);
  REQUIRE(g.nodes.size() == 3);
  CHECK(node(g, "view").inputs.size() == 1);
  CHECK(node(g, "view").attrs.at("shape").get<Ints>() == Ints{2, 2, 2, 4});
  CHECK(node(g, "permute").attrs.at("perm").get<Ints>() == Ints{0, 2, 1, 3});
  CHECK(g.values[node(g, "permute").outputs[0]].type.shape == Ints{2, 2, 2, 4});
  CHECK(node(g, "windows").attrs.at("shape").get<Ints>() == Ints{4, 2, 2, 2});
  CHECK(g.values[node(g, "windows").outputs[0]].name == "y");
  CHECK_FALSE(has_value(g, "six"));  // the shape constants nothing reads any more
  CHECK_FALSE(has_value(g, "four"));
}

TEST_CASE("transpose_rank_reduced adds Reshapes where the Transpose's neighbours are not Reshapes") {
  // x [2, 1, 3, 2] with perm [2, 3, 0, 1] under a limit of 2: dims 2, 3 merge (size 6), dim 1
  // drops, dim 0 stays: [2, 6] with perm [1, 0] gives [6, 2], reshaped back to [3, 2, 2, 1].
  Graph g;
  const ValueId x = tensor(g, "x", f32({2, 1, 3, 2})), y = tensor(g, "y", f32({3, 2, 2, 1}));
  g.inputs = {x};
  g.add_node(Node{"Transpose", "t", {x}, {y}, {{"perm", Attr(Ints{2, 3, 0, 1})}}});
  g.outputs = {y};
  CHECK(transpose_rank_reduced(g, 2) == 1);
  REQUIRE(g.nodes.size() == 3);
  CHECK(node(g, "t_merge").attrs.at("shape").get<Ints>() == Ints{2, 6});
  CHECK(node(g, "t").attrs.at("perm").get<Ints>() == Ints{1, 0});
  CHECK(g.values[node(g, "t").outputs[0]].type.shape == Ints{6, 2});
  CHECK(node(g, "t_split").attrs.at("shape").get<Ints>() == Ints{3, 2, 2, 1});
  CHECK(g.values[node(g, "t_split").outputs[0]].name == "y");
  // Nothing to merge: perm [3, 2, 1, 0] of [2, 2, 2, 2] (no two dims in order) keeps 4 dims, over a limit of 3.
  Graph h;
  const ValueId p = tensor(h, "p", f32({2, 2, 2, 2})), q = tensor(h, "q", f32({2, 2, 2, 2}));
  h.inputs = {p};
  h.add_node(Node{"Transpose", "t", {p}, {q}, {{"perm", Attr(Ints{3, 2, 1, 0})}}});
  h.outputs = {q};
  CHECK(transpose_rank_reduced(h, 3) == 0);
}

TEST_CASE("slice_steps_as_strided_slice: patch merging's x[:, 1::2, 0::2, :]") {
  // x [1, 5, 4, 3]; axes [1, -2], starts [-4, 0], ends [INT64_MAX, 4], steps [2, 2]: dim 1 from
  // 5 - 4 = 1 to 5 (clamped), dim 2 from 0 to 4: begin [0, 1, 0, 0], end [1, 5, 4, 3], strides
  // [1, 2, 2, 1].
  Graph g;
  const ValueId x = tensor(g, "x", f32({1, 5, 4, 3})), y = tensor(g, "y", f32({1, 2, 2, 3}));
  g.inputs = {x};
  const int64_t big = std::numeric_limits<int64_t>::max();
  g.add_node(Node{"Slice", "s",
                  {x, i64(g, "starts", {-4, 0}), i64(g, "ends", {big, 4}), i64(g, "axes", {1, -2}), i64(g, "steps", {2, 2})},
                  {y}, {}});
  g.outputs = {y};
  CHECK(slice_steps_as_strided_slice(g) == 1);
  REQUIRE(g.nodes.size() == 1);
  const Node& n = g.nodes[0];
  CHECK(n.op == "StridedSlice");
  CHECK(n.inputs.size() == 1);
  CHECK(n.attrs.at("begin").get<Ints>() == Ints{0, 1, 0, 0});
  CHECK(n.attrs.at("end").get<Ints>() == Ints{1, 5, 4, 3});
  CHECK(n.attrs.at("strides").get<Ints>() == Ints{1, 2, 2, 1});
  CHECK_FALSE(has_value(g, "steps"));
  // Unit steps stay a Slice (Arm NN has Slice); a negative step is left as it is.
  Graph h;
  const ValueId p = tensor(h, "p", f32({4})), q = tensor(h, "q", f32({2})), r = tensor(h, "r", f32({2}));
  h.inputs = {p};
  h.add_node(Node{"Slice", "unit", {p, i64(h, "b", {0}), i64(h, "e", {2}), i64(h, "a", {0}), i64(h, "one", {1})}, {q}, {}});
  h.add_node(Node{"Slice", "back", {p, i64(h, "b2", {3}), i64(h, "e2", {0}), i64(h, "a2", {0}), i64(h, "m2", {-2})}, {r}, {}});
  h.outputs = {q, r};
  CHECK(slice_steps_as_strided_slice(h) == 0);
}

TEST_CASE("nonnegative_axes counts a Concat's negative axis from the back") {
  Graph g;
  const ValueId a = tensor(g, "a", f32({1, 2, 3})), b = tensor(g, "b", f32({1, 2, 3})), y = tensor(g, "y", f32({1, 2, 6}));
  g.inputs = {a, b};
  g.add_node(Node{"Concat", "c", {a, b}, {y}, {{"axis", Attr(int64_t(-1))}}});
  g.outputs = {y};
  CHECK(nonnegative_axes(g) == 1);
  CHECK(g.nodes[0].attrs.at("axis").get<int64_t>() == 2);
  CHECK(nonnegative_axes(g) == 0);
}

TEST_CASE("gather_before_transpose: q, k, v from a rank-5 permuted projection") {
  // x [2, 3, 4, 5, 6], perm [2, 0, 3, 1, 4] -> [4, 2, 5, 3, 6]; Gather index 1 on axis 0 picks
  // input dim perm[0] = 2: Gather(x, 1, axis 2) -> [2, 3, 5, 6], then the remaining dims [0, 3,
  // 1, 4] renumbered past the dropped 2 -> perm [0, 2, 1, 3] -> [2, 5, 3, 6].
  Graph g;
  const ValueId x = tensor(g, "x", f32({2, 3, 4, 5, 6})), t = tensor(g, "t", f32({4, 2, 5, 3, 6}));
  const ValueId q = tensor(g, "q", f32({2, 5, 3, 6})), k = tensor(g, "k", f32({2, 5, 3, 6}));
  g.inputs = {x};
  g.add_node(Node{"Transpose", "permute", {x}, {t}, {{"perm", Attr(Ints{2, 0, 3, 1, 4})}}});
  auto scalar = [&](const char* name, int64_t v) {
    std::vector<std::byte> b(8);
    std::memcpy(b.data(), &v, 8);
    return g.add_value(Value{name, TensorType{DataType::Int64, {}, false, std::nullopt}, Buffer::owned(std::move(b)), {}});
  };
  g.add_node(Node{"Gather", "q", {t, scalar("zero", 0)}, {q}, {}});
  g.add_node(Node{"Gather", "k", {t, scalar("one", 1)}, {k}, {{"axis", Attr(int64_t(0))}}});
  g.outputs = {q, k};
  CHECK(gather_before_transpose(g, 4) == 1);
  REQUIRE(g.nodes.size() == 4);
  CHECK_FALSE(has_value(g, "t"));
  const Node& gk = node(g, "k");
  CHECK(g.values[gk.inputs[0]].name == "x");
  CHECK(gk.attrs.at("axis").get<int64_t>() == 2);
  CHECK(g.values[gk.outputs[0]].type.shape == Ints{2, 3, 5, 6});
  CHECK(node(g, "k_transpose").attrs.at("perm").get<Ints>() == Ints{0, 2, 1, 3});
  CHECK(g.values[node(g, "k_transpose").outputs[0]].name == "k");
  // A Transpose read by anything else stays.
  Graph h;
  const ValueId a = tensor(h, "a", f32({1, 2, 1, 2, 2})), b = tensor(h, "b", f32({2, 1, 1, 2, 2}));
  h.inputs = {a};
  h.add_node(Node{"Transpose", "t", {a}, {b}, {{"perm", Attr(Ints{1, 0, 2, 3, 4})}}});
  h.outputs = {b};
  CHECK(gather_before_transpose(h, 4) == 0);
}

TEST_CASE("gather_of_split_as_slice: an index of a split dim is a range of the unsplit one") {
  // Y [2, 3, 12] reshaped to X [2, 3, 3, 2, 2] (dim 2 split into 3 x 2 x 2); Gather index -1
  // (= 2) on axis 2 is Y[:, :, 8:12] reshaped to [2, 3, 2, 2].
  Graph g;
  const ValueId y = tensor(g, "y", f32({2, 3, 12})), xr = tensor(g, "x", f32({2, 3, 3, 2, 2}));
  const ValueId out = tensor(g, "out", f32({2, 3, 2, 2}));
  g.inputs = {y};
  g.add_node(Node{"Reshape", "split", {y}, {xr}, {{"shape", Attr(Ints{2, 3, 3, 2, 2})}}});
  std::vector<std::byte> b(8);
  const int64_t minus_one = -1;
  std::memcpy(b.data(), &minus_one, 8);
  const ValueId idx = g.add_value(Value{"last", TensorType{DataType::Int64, {}, false, std::nullopt}, Buffer::owned(std::move(b)), {}});
  g.add_node(Node{"Gather", "v", {xr, idx}, {out}, {{"axis", Attr(int64_t(2))}}});
  g.outputs = {out};
  CHECK(gather_of_split_as_slice(g, 4) == 1);
  REQUIRE(g.nodes.size() == 2);
  const Node& s = node(g, "v_slice");
  CHECK(s.op == "Slice");
  CHECK(g.values[s.inputs[0]].name == "y");
  auto ints = [&](ValueId v) {
    Ints out_v(g.values[v].constant->size() / 8);
    std::memcpy(out_v.data(), g.values[v].constant->data(), g.values[v].constant->size());
    return out_v;
  };
  CHECK(ints(s.inputs[1]) == Ints{8});
  CHECK(ints(s.inputs[2]) == Ints{12});
  CHECK(ints(s.inputs[3]) == Ints{2});
  CHECK(g.values[s.outputs[0]].type.shape == Ints{2, 3, 4});
  CHECK(node(g, "v").op == "Reshape");
  CHECK(node(g, "v").attrs.at("shape").get<Ints>() == Ints{2, 3, 2, 2});
  CHECK_FALSE(has_value(g, "x"));  // the rank-5 Reshape had no other reader
}

TEST_CASE("unit_dims_dropped: attention scores plus a mask as [1, windows, heads, N, N]") {
  // s [4, 3, 5, 5] viewed as [1, 4, 3, 5, 5] plus a constant mask [1, 4, 1, 5, 5], viewed back:
  // the output's 1 (dim 0) goes: s's view produces [4, 3, 5, 5], the mask becomes [4, 1, 5, 5]
  // (the same bytes), the Add gives [4, 3, 5, 5] to the view back.
  Graph g;
  const ValueId s = tensor(g, "s", f32({4, 3, 5, 5})), s5 = tensor(g, "s5", f32({1, 4, 3, 5, 5}));
  const ValueId sum = tensor(g, "sum", f32({1, 4, 3, 5, 5})), y = tensor(g, "y", f32({4, 3, 5, 5}));
  std::vector<float> m(100);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = float(i);
  std::vector<std::byte> mb(400);
  std::memcpy(mb.data(), m.data(), 400);
  const ValueId mask = g.add_value(Value{"mask", f32({1, 4, 1, 5, 5}), Buffer::owned(std::move(mb)), {}});
  g.inputs = {s};
  g.add_node(Node{"Reshape", "view", {s}, {s5}, {{"shape", Attr(Ints{1, 4, 3, 5, 5})}}});
  g.add_node(Node{"Add", "add", {s5, mask}, {sum}, {}});
  g.add_node(Node{"Reshape", "back", {sum}, {y}, {{"shape", Attr(Ints{-1, 3, 5, 5})}}});
  g.outputs = {y};
  CHECK(unit_dims_dropped(g, 4) == 1);
  REQUIRE(g.nodes.size() == 3);
  CHECK(node(g, "view").attrs.at("shape").get<Ints>() == Ints{4, 3, 5, 5});
  const Value& narrowed = g.values[node(g, "add").inputs[1]];
  CHECK(narrowed.type.shape == Ints{4, 1, 5, 5});
  REQUIRE(narrowed.constant);
  CHECK(std::memcmp(narrowed.constant->data(), m.data(), 400) == 0);
  CHECK(g.values[node(g, "add").outputs[0]].type.shape == Ints{4, 3, 5, 5});
  CHECK(node(g, "back").attrs.at("shape").get<Ints>() == Ints{4, 3, 5, 5});
  CHECK_FALSE(has_value(g, "mask"));  // the rank-5 constant nothing reads any more
}

TEST_CASE("tanh_as_scaled_tanh and reciprocal_sqrt_as_rsqrt: ONNX's unary forms as Arm NN's") {
  Graph g;
  const ValueId x = tensor(g, "x", f32({3})), t = tensor(g, "t", f32({3})), r = tensor(g, "r", f32({3}));
  const ValueId y = tensor(g, "y", f32({3})), s2 = tensor(g, "s2", f32({3})), z = tensor(g, "z", f32({3}));
  g.inputs = {x};
  g.add_node(Node{"Tanh", "tanh", {x}, {t}, {}});
  g.add_node(Node{"Sqrt", "root", {x}, {r}, {}});
  g.add_node(Node{"Reciprocal", "inv", {r}, {y}, {}});
  // A Sqrt read by another node too stays: its Reciprocal is no Rsqrt of X alone.
  g.add_node(Node{"Sqrt", "root2", {x}, {s2}, {}});
  g.add_node(Node{"Reciprocal", "inv2", {s2}, {z}, {}});
  g.outputs = {t, y, z, s2};
  CHECK(tanh_as_scaled_tanh(g) == 1);
  CHECK(node(g, "tanh").op == "ScaledTanh");
  CHECK(node(g, "tanh").attrs.at("alpha").get<double>() == 1.0);
  CHECK(node(g, "tanh").attrs.at("beta").get<double>() == 1.0);
  CHECK(reciprocal_sqrt_as_rsqrt(g) == 1);
  CHECK(node(g, "inv").op == "Rsqrt");
  CHECK(g.values[node(g, "inv").inputs[0]].name == "x");
  CHECK(node(g, "inv2").op == "Reciprocal");
  CHECK(g.nodes.size() == 4);  // root is gone
}
