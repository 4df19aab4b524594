// fold_shape_arithmetic (nnbridge/rewrite.h) on float and bool constants and the ops a Swin
// Transformer's shifted-window mask is built from. Every expected value is worked by hand from
// the ONNX definition the case cites (ScatterND-13 replaces the slices its index tuples name;
// Range-11 counts ceil((limit - start) / delta) elements; Cast-13 truncates floats toward zero;
// float32 cannot hold 2^24 + 1, which rounds to the even neighbour 2^24).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "nnbridge/rewrite.h"

using namespace nnbridge;

namespace {

using Ints = std::vector<int64_t>;

TensorType typed(DataType dt, Ints shape) { return TensorType{dt, std::move(shape), false, std::nullopt}; }
TensorType unknown() {
  TensorType t;
  t.unknown_rank = true;
  return t;
}
template <class T>
Buffer bytes(const std::vector<T>& v) {
  std::vector<std::byte> b(v.size() * sizeof(T));
  if (!b.empty()) std::memcpy(b.data(), v.data(), b.size());
  return Buffer::owned(std::move(b));
}
template <class T>
ValueId constant(Graph& g, const char* name, DataType dt, const std::vector<T>& v, Ints shape) {
  return g.add_value(Value{name, typed(dt, std::move(shape)), bytes(v), {}});
}
ValueId i64(Graph& g, const char* name, const Ints& v, Ints shape) { return constant(g, name, DataType::Int64, v, shape); }
ValueId f32c(Graph& g, const char* name, const std::vector<float>& v, Ints shape) {
  return constant(g, name, DataType::Float32, v, shape);
}
ValueId tensor(Graph& g, const char* name, TensorType t = unknown()) { return g.add_value(Value{name, t, {}, {}}); }

template <class T>
std::vector<T> values_of(const Value& v, DataType dt) {
  REQUIRE(v.constant);
  REQUIRE(v.type.dtype == dt);
  std::vector<T> out(v.constant->size() / sizeof(T));
  std::memcpy(out.data(), v.constant->data(), v.constant->size());
  return out;
}

// The constant input k of the graph's node named `name`.
const Value& input_of(const Graph& g, const char* name, std::size_t k) {
  for (const Node& n : g.nodes)
    if (n.name == name) return g.values.at(n.inputs.at(k));
  FAIL("no node " << name);
  throw 0;
}

}  // namespace

TEST_CASE("fold_shape_arithmetic folds a shifted-window attention mask: ConstantOfShape, ScatterND, Sub, Equal, Not, Where") {
  // torchvision's Swin mask in small: m = zeros(2, 3); m[1, :] = [7, 8, 9] (ScatterND, index
  // tuple [1]); d[i, j, k] = m[i, k] - m[i, j] (Sub of the [2, 1, 3] and [2, 3, 1] views); then
  // masked_fill: -100 where d != 0, else d. Row 0 of m is constant, so d[0] is all 0; d[1] is
  // [[0, 1, 2], [-1, 0, 1], [-2, -1, 0]], whose non-zero entries become -100.
  Graph g;
  const ValueId x = tensor(g, "x", typed(DataType::Float32, {2, 3, 3}));
  g.inputs = {x};
  const ValueId m0 = tensor(g, "m0"), m = tensor(g, "m"), row = tensor(g, "row"), col = tensor(g, "col");
  const ValueId d = tensor(g, "d"), eq = tensor(g, "eq"), ne = tensor(g, "ne"), mask = tensor(g, "mask");
  const ValueId y = tensor(g, "y");
  g.add_node(Node{"ConstantOfShape", "zeros", {i64(g, "shape", {2, 3}, {2})}, {m0}, {{"value", Attr(0.0)}}});
  g.values[m0].type.dtype = DataType::Float32;  // the output dtype ONNX's value tensor states
  g.add_node(Node{"ScatterND", "scatter", {m0, i64(g, "idx", {1}, {1, 1}), f32c(g, "upd", {7, 8, 9}, {1, 3})}, {m}, {}});
  g.add_node(Node{"Reshape", "as_row", {m, i64(g, "s_row", {2, 1, 3}, {3})}, {row}, {}});
  g.add_node(Node{"Reshape", "as_col", {m, i64(g, "s_col", {2, 3, 1}, {3})}, {col}, {}});
  g.add_node(Node{"Sub", "sub", {row, col}, {d}, {}});
  g.add_node(Node{"Equal", "eq", {d, f32c(g, "zero", {0}, {})}, {eq}, {}});
  g.add_node(Node{"Not", "not", {eq}, {ne}, {}});
  g.add_node(Node{"Where", "fill", {ne, f32c(g, "minus100", {-100}, {}), d}, {mask}, {}});
  g.add_node(Node{"Add", "add", {x, mask}, {y}, {}});
  g.outputs = {y};
  infer_missing_types(g);
  CHECK(fold_shape_arithmetic(g) == 8);
  REQUIRE(g.nodes.size() == 1);
  const Value& folded = input_of(g, "add", 1);
  CHECK(folded.type.shape == Ints{2, 3, 3});
  const float o = -100;
  CHECK(values_of<float>(folded, DataType::Float32) ==
        std::vector<float>{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, o, o, o, 0, o, o, o, 0});
}

TEST_CASE("fold_shape_arithmetic folds Range, Gather on axis 1, Concat on axis 1 and Cast") {
  Graph g;
  const ValueId x = tensor(g, "x", typed(DataType::Float32, {2, 4}));
  g.inputs = {x};
  // Range(0, 5, 2) = [0, 2, 4]; Range(1, 2, 0.25) in float32 = [1, 1.25, 1.5, 1.75].
  const ValueId r_int = tensor(g, "r_int"), r_float = tensor(g, "r_float");
  g.add_node(Node{"Range", "range_int", {i64(g, "s", {0}, {}), i64(g, "l", {5}, {}), i64(g, "dl", {2}, {})}, {r_int}, {}});
  g.add_node(Node{"Range", "range_float", {f32c(g, "fs", {1}, {}), f32c(g, "fl", {2}, {}), f32c(g, "fd", {0.25f}, {})}, {r_float}, {}});
  // Gather([[10, 11, 12], [13, 14, 15]], [2, 0], axis 1) = [[12, 10], [15, 13]], then Concat
  // on axis 1 with [[1, 2], [3, 4]]: [[12, 10, 1, 2], [15, 13, 3, 4]].
  const ValueId gathered = tensor(g, "gathered"), joined = tensor(g, "joined");
  g.add_node(Node{"Gather", "gather",
                  {f32c(g, "table", {10, 11, 12, 13, 14, 15}, {2, 3}), i64(g, "which", {2, 0}, {2})},
                  {gathered}, {{"axis", Attr(int64_t(1))}}});
  g.add_node(Node{"Concat", "concat", {gathered, f32c(g, "more", {1, 2, 3, 4}, {2, 2})}, {joined}, {{"axis", Attr(int64_t(1))}}});
  // Cast [-1.5, 2.7] to int64 = [-1, 2]; Cast 2^24 + 1 to float32 = 2^24.
  const ValueId truncated = tensor(g, "truncated"), rounded = tensor(g, "rounded");
  g.add_node(Node{"Cast", "to_int", {f32c(g, "halves", {-1.5f, 2.7f}, {2})}, {truncated}, {{"to", Attr(std::string("int64"))}}});
  g.add_node(Node{"Cast", "to_float", {i64(g, "big", {16777217}, {1})}, {rounded}, {{"to", Attr(std::string("float32"))}}});
  const ValueId y = tensor(g, "y"), a = tensor(g, "a"), b = tensor(g, "b"), c = tensor(g, "c"), e = tensor(g, "e");
  g.add_node(Node{"Add", "use_joined", {x, joined}, {y}, {}});
  g.add_node(Node{"Identity", "use_r_int", {r_int}, {a}, {}});
  g.add_node(Node{"Identity", "use_r_float", {r_float}, {b}, {}});
  g.add_node(Node{"Identity", "use_truncated", {truncated}, {c}, {}});
  g.add_node(Node{"Identity", "use_rounded", {rounded}, {e}, {}});
  g.outputs = {y, a, b, c, e};
  infer_missing_types(g);
  CHECK(fold_shape_arithmetic(g) == 6);
  CHECK(values_of<int64_t>(input_of(g, "use_r_int", 0), DataType::Int64) == Ints{0, 2, 4});
  CHECK(values_of<float>(input_of(g, "use_r_float", 0), DataType::Float32) == std::vector<float>{1, 1.25f, 1.5f, 1.75f});
  const Value& j = input_of(g, "use_joined", 1);
  CHECK(j.type.shape == Ints{2, 4});
  CHECK(values_of<float>(j, DataType::Float32) == std::vector<float>{12, 10, 1, 2, 15, 13, 3, 4});
  CHECK(values_of<int64_t>(input_of(g, "use_truncated", 0), DataType::Int64) == Ints{-1, 2});
  CHECK(values_of<float>(input_of(g, "use_rounded", 0), DataType::Float32) == std::vector<float>{16777216.0f});
}

TEST_CASE("fold_shape_arithmetic leaves what ONNX leaves undefined and a float Identity unfolded") {
  Graph g;
  const ValueId p = tensor(g, "p"), q = tensor(g, "q"), r = tensor(g, "r"), s = tensor(g, "s");
  // ScatterND whose two index tuples name one row (ScatterND-13: the order is undefined).
  g.add_node(Node{"ScatterND", "twice",
                  {f32c(g, "data", {0, 0, 0, 0}, {2, 2}), i64(g, "dup", {1, 1}, {2, 1}), f32c(g, "u", {1, 2, 3, 4}, {2, 2})},
                  {p}, {}});
  // A float32 3e9 cast to int32, which cannot hold it (Cast-13 leaves it undefined).
  g.add_node(Node{"Cast", "narrow", {f32c(g, "huge", {3e9f}, {1})}, {q}, {{"to", Attr(std::string("int32"))}}});
  // Mod of floats (this pass folds integer Mod only).
  g.add_node(Node{"Mod", "fmod", {f32c(g, "a", {5.5f}, {1}), f32c(g, "b", {2}, {1})}, {r}, {{"fmod", Attr(int64_t(1))}}});
  // An Identity of a float constant is drop_identity's: folding it would copy the data.
  g.add_node(Node{"Identity", "alias", {f32c(g, "w", {1, 2}, {2})}, {s}, {}});
  const ValueId o1 = tensor(g, "o1"), o2 = tensor(g, "o2"), o3 = tensor(g, "o3"), o4 = tensor(g, "o4");
  g.add_node(Node{"Neg", "n1", {p}, {o1}, {}});
  g.add_node(Node{"Neg", "n2", {q}, {o2}, {}});
  g.add_node(Node{"Neg", "n3", {r}, {o3}, {}});
  g.add_node(Node{"Neg", "n4", {s}, {o4}, {}});
  g.outputs = {o1, o2, o3, o4};
  infer_missing_types(g);
  CHECK(fold_shape_arithmetic(g) == 0);
  CHECK(g.nodes.size() == 8);
}
