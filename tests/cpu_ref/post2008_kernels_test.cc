// Oracle: hand calculations, written out next to each check, from the ONNX operator definitions
// (Tile-13, GatherND-13, ScatterND-18, Shape-1, Conv-11, MaxPool-12 / AveragePool-19), PyTorch's
// torch.add(a, b, alpha=k) = a + k*b, and Arm NN's reference workloads where Arm NN defines the
// rule (ReverseV2Impl.cpp, RefChannelShuffleWorkload.cpp, ScatterNd.cpp, Pooling3d.cpp, Conv3dImpl.cpp).
// Kernels of the layers newer than Arm NN 20.08 (Tile, ReverseV2, ChannelShuffle, Shape, GatherND,
// ScatterND, Conv / pools on rank 5), the Rank output declared [1], and aten.add/sub with alpha.
#include <doctest/doctest.h>

#include <cmath>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "one_node.h"
#include "support/error_id.h"

using namespace nnbridge;

namespace {

using test::f32;
using test::ft;
using test::OneNode;
using test::run;
using test::typed;
using test::y_of;
TensorType i32(std::vector<int64_t> shape) { return typed(DataType::Int32, std::move(shape)); }
HostTensor it(std::vector<int64_t> shape, std::vector<int32_t> v) {
  return HostTensor::from_values<int32_t>(i32(std::move(shape)), v);
}
std::vector<float> iota(int n, float from = 1) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = from + float(i);
  return v;
}
using Ints = std::vector<int64_t>;

}  // namespace

TEST_CASE("cpu post-20.08: Tile repeats each dim (attribute or constant input)") {
  // [[1,2],[3,4]] tiled [1,2] -> [[1,2,1,2],[3,4,3,4]].
  Graph g = OneNode("Tile", {{"repeats", Attr(Ints{1, 2})}}).in(f32({2, 2})).done(f32({2, 4}));
  CHECK(y_of(run(g, {{"x0", ft({2, 2}, {1, 2, 3, 4})}})) == std::vector<float>{1, 2, 1, 2, 3, 4, 3, 4});
  // ONNX Tile-13's repeats input (Int64 constant [2, 1]) -> [[1,2],[3,4],[1,2],[3,4]].
  Graph g2 = OneNode("Tile").in(f32({2, 2})).constant(typed(DataType::Int64, {2}), std::vector<int64_t>{2, 1}).done(f32({4, 2}));
  CHECK(y_of(run(g2, {{"x0", ft({2, 2}, {1, 2, 3, 4})}})) == std::vector<float>{1, 2, 3, 4, 1, 2, 3, 4});
}

TEST_CASE("cpu post-20.08: ReverseV2 reverses the axes its second input names at run time") {
  Graph g = OneNode("ReverseV2").in(f32({2, 3})).in(i32({2})).done(f32({2, 3}));
  const HostTensor x = ft({2, 3}, {0, 1, 2, 3, 4, 5});
  // Axes [1, 1]: the columns, once (Arm NN sets one flag per axis) -> [[2,1,0],[5,4,3]].
  CHECK(y_of(run(g, {{"x0", x}, {"x1", it({2}, {1, 1})}})) == std::vector<float>{2, 1, 0, 5, 4, 3});
  // Axes [-2, 1]: -2 is dim 0 -> both dims -> [[5,4,3],[2,1,0]].
  CHECK(y_of(run(g, {{"x0", x}, {"x1", it({2}, {-2, 1})}})) == std::vector<float>{5, 4, 3, 2, 1, 0});
  // Axis 2 is outside rank 2: the run fails, naming it.
  CHECK(test::thrown_id([&] { run(g, {{"x0", x}, {"x1", it({2}, {2, 0})}}); }) == ErrorId::Execution);
  // No axes: a copy (ReverseV2Impl's empty-axis case).
  Graph g0 = OneNode("ReverseV2").in(f32({2, 3})).in(i32({0})).done(f32({2, 3}));
  CHECK(y_of(run(g0, {{"x0", x}, {"x1", it({0}, {})}})) == std::vector<float>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("cpu post-20.08: ChannelShuffle transposes [group, n/group] of the axis") {
  // 6 channels, group 2 (k = 3): output i*2 + j takes input j*3 + i -> [0,3,1,4,2,5].
  Graph g = OneNode("ChannelShuffle", {{"axis", Attr(int64_t{1})}, {"group", Attr(int64_t{2})}}).in(f32({1, 6})).done(f32({1, 6}));
  CHECK(y_of(run(g, {{"x0", ft({1, 6}, {0, 1, 2, 3, 4, 5})}})) == std::vector<float>{0, 3, 1, 4, 2, 5});
  // Group 3 (k = 2) on an inner axis of [1, 6, 2]: channel order [0,2,4,1,3,5], pairs kept.
  Graph g3 = OneNode("ChannelShuffle", {{"axis", Attr(int64_t{1})}, {"group", Attr(int64_t{3})}}).in(f32({1, 6, 2})).done(f32({1, 6, 2}));
  CHECK(y_of(run(g3, {{"x0", ft({1, 6, 2}, iota(12, 0))}})) ==
        std::vector<float>{0, 1, 4, 5, 8, 9, 2, 3, 6, 7, 10, 11});
}

TEST_CASE("cpu post-20.08: Shape gives the dims, Rank keeps the declared [1]") {
  Graph g = OneNode("Shape").in(f32({2, 3, 4})).done(i32({3}));
  CHECK(y_of<int32_t>(run(g, {{"x0", ft({2, 3, 4}, std::vector<float>(24, 0))}})) == std::vector<int32_t>{2, 3, 4});
  // Arm NN's RankLayer declares its output [1]: the declaration wins over the 0-d inference.
  Graph r = OneNode("Rank").in(f32({2, 3, 4})).done(i32({1}));
  auto out = run(r, {{"x0", ft({2, 3, 4}, std::vector<float>(24, 0))}});
  CHECK(out.at("y0").type().shape == Ints{1});
  CHECK(y_of<int32_t>(out) == std::vector<int32_t>{3});
  // A declared shape that is not one element is still an inconsistency.
  Graph bad = OneNode("Rank").in(f32({2, 3})).done(i32({2}));
  CHECK_THROWS_AS(run(bad, {{"x0", ft({2, 3}, std::vector<float>(6, 0))}}), Error);
}

TEST_CASE("cpu post-20.08: GatherND selects elements or slices, after batch_dims") {
  const HostTensor d = ft({2, 2}, {0, 1, 2, 3});
  // ONNX GatherND example 1: indices [[0,0],[1,1]] -> [0, 3]; -1 counts from the end.
  Graph g = OneNode("GatherND").in(f32({2, 2})).in(i32({2, 2})).done(f32({2}));
  CHECK(y_of(run(g, {{"x0", d}, {"x1", it({2, 2}, {0, 0, -1, -1})}})) == std::vector<float>{0, 3});
  // Example 2: indices [[1],[0]] -> rows [[2,3],[0,1]].
  Graph g2 = OneNode("GatherND").in(f32({2, 2})).in(i32({2, 1})).done(f32({2, 2}));
  CHECK(y_of(run(g2, {{"x0", d}, {"x1", it({2, 1}, {1, 0})}})) == std::vector<float>{2, 3, 0, 1});
  // batch_dims 1 (example 5): data [[[0,1],[2,3]],[[4,5],[6,7]]], indices [[1],[0]] -> [[2,3],[4,5]].
  Graph g3 = OneNode("GatherND", {{"batch_dims", Attr(int64_t{1})}}).in(f32({2, 2, 2})).in(i32({2, 1})).done(f32({2, 2}));
  CHECK(y_of(run(g3, {{"x0", ft({2, 2, 2}, iota(8, 0))}, {"x1", it({2, 1}, {1, 0})}})) == std::vector<float>{2, 3, 4, 5});
  // An index past the dim fails the run.
  CHECK(test::thrown_id([&] { run(g2, {{"x0", d}, {"x1", it({2, 1}, {2, 0})}}); }) == ErrorId::Execution);
}

TEST_CASE("cpu post-20.08: ScatterND reductions, the original-data rule and the shape form") {
  // ONNX ScatterND example 1: data 1..8, indices [[4],[3],[1],[7]], updates [9,10,11,12]
  // -> [1, 11, 3, 10, 9, 6, 7, 12].
  Graph g = OneNode("ScatterND").in(f32({8})).in(i32({4, 1})).in(f32({4})).done(f32({8}));
  CHECK(y_of(run(g, {{"x0", ft({8}, iota(8))}, {"x1", it({4, 1}, {4, 3, 1, 7})}, {"x2", ft({4}, {9, 10, 11, 12})}})) ==
        std::vector<float>{1, 11, 3, 10, 9, 6, 7, 12});
  // reduction none with a repeated index: refused (Arm NN's reference does; ONNX leaves it undefined).
  CHECK(test::thrown_id([&] { run(g, {{"x0", ft({8}, iota(8))}, {"x1", it({4, 1}, {4, 4, 1, 7})}, {"x2", ft({4}, {9, 10, 11, 12})}}); }) == ErrorId::Execution);
  // add, index 1 twice, updates 10 and 20: ONNX accumulates 2 + 10 + 20 = 32; Arm NN combines
  // each update with the original 2, so the last wins: 2 + 20 = 22.
  auto twice = [](const char* combine) {
    return OneNode("ScatterND", {{"reduction", Attr("add")}, {"combine_with", Attr(combine)}})
        .in(f32({4})).in(i32({2, 1})).in(f32({2})).done(f32({4}));
  };
  TensorMap in2{{"x0", ft({4}, {1, 2, 3, 4})}, {"x1", it({2, 1}, {1, 1})}, {"x2", ft({2}, {10, 20})}};
  CHECK(y_of(run(twice("accumulated"), in2)) == std::vector<float>{1, 32, 3, 4});
  CHECK(y_of(run(twice("data"), in2)) == std::vector<float>{1, 22, 3, 4});
  // data_is_shape (Arm NN m_InputEnabled false): input 0 is the constant shape [4], data zeros;
  // sub: 0 - 5, 0 - 7 at 0 and 2 -> [-5, 0, -7, 0].
  Graph gs = OneNode("ScatterND", {{"reduction", Attr("sub")}, {"data_is_shape", Attr(int64_t{1})}, {"combine_with", Attr("data")}})
                 .constant(i32({1}), std::vector<int32_t>{4}).in(i32({2, 1})).in(f32({2})).done(f32({4}));
  CHECK(y_of(run(gs, {{"x1", it({2, 1}, {0, 2})}, {"x2", ft({2}, {5, 7})}})) == std::vector<float>{-5, 0, -7, 0});
  // max / min / mul on slices: data [[1,5],[3,3]], index [[0]] updates [[4,4]].
  auto slice = [](const char* r) {
    return OneNode("ScatterND", {{"reduction", Attr(r)}}).in(f32({2, 2})).in(i32({1, 1})).in(f32({1, 2})).done(f32({2, 2}));
  };
  TensorMap in3{{"x0", ft({2, 2}, {1, 5, 3, 3})}, {"x1", it({1, 1}, {0})}, {"x2", ft({1, 2}, {4, 4})}};
  CHECK(y_of(run(slice("max"), in3)) == std::vector<float>{4, 5, 3, 3});
  CHECK(y_of(run(slice("min"), in3)) == std::vector<float>{1, 4, 3, 3});
  CHECK(y_of(run(slice("mul"), in3)) == std::vector<float>{4, 20, 3, 3});
}

TEST_CASE("cpu post-20.08: Conv on rank 5 (NCDHW with OIHW weights, NDHWC with Arm NN's DHWIO)") {
  // x = 1..8 as [1,1,2,2,2], a 2x2x2 kernel of ones, bias 1: 36 + 1.
  Graph g = OneNode("Conv").in(f32({1, 1, 2, 2, 2})).constant(f32({1, 1, 2, 2, 2}), std::vector<float>(8, 1.0f))
                .constant(f32({1}), std::vector<float>{1}).done(f32({1, 1, 1, 1, 1}));
  CHECK(y_of(run(g, {{"x0", ft({1, 1, 2, 2, 2}, iota(8))}})) == std::vector<float>{37});
  // NDHWC, W [2,2,2,1,2] (D,H,W,I,O): output channel 0 weights 1, channel 1 weights 2 -> [36, 72].
  std::vector<float> w(16);
  for (int i = 0; i < 16; ++i) w[i] = i % 2 == 0 ? 1.0f : 2.0f;
  Graph g2 = OneNode("Conv", {{"data_layout", Attr("NHWC")}, {"kernel_layout", Attr("HWIO")}})
                 .in(f32({1, 2, 2, 2, 1})).constant(f32({2, 2, 2, 1, 2}), w).done(f32({1, 1, 1, 1, 2}));
  CHECK(y_of(run(g2, {{"x0", ft({1, 2, 2, 2, 1}, iota(8))}})) == std::vector<float>{36, 72});
  // pads 1, stride 2, kernel 2 of ones on [2,2,2]: each window holds exactly one input element
  // (window o covers input 2o-1 .. 2o), so the output is the input.
  Graph g3 = OneNode("Conv", {{"pads", Attr(Ints{1, 1, 1, 1, 1, 1})}, {"strides", Attr(Ints{2, 2, 2})}})
                 .in(f32({1, 1, 2, 2, 2})).constant(f32({1, 1, 2, 2, 2}), std::vector<float>(8, 1.0f)).done(f32({1, 1, 2, 2, 2}));
  CHECK(y_of(run(g3, {{"x0", ft({1, 1, 2, 2, 2}, iota(8))}})) == iota(8));
}

TEST_CASE("cpu post-20.08: pooling on rank 5 (Arm NN Pooling3d rules)") {
  const HostTensor x = ft({1, 1, 2, 2, 2}, iota(8));
  AttrMap k2{{"kernel_shape", Attr(Ints{2, 2, 2})}};
  CHECK(y_of(run(OneNode("MaxPool", k2).in(f32({1, 1, 2, 2, 2})).done(f32({1, 1, 1, 1, 1})), {{"x0", x}})) == std::vector<float>{8});
  CHECK(y_of(run(OneNode("AveragePool", k2).in(f32({1, 1, 2, 2, 2})).done(f32({1, 1, 1, 1, 1})), {{"x0", x}})) ==
        std::vector<float>{4.5f});
  // L2 (LpPool p 2, mean 1): sqrt((1 + 4 + ... + 64) / 8) = sqrt(204 / 8).
  AttrMap l2 = k2;
  l2["mean"] = Attr(int64_t{1});
  auto y = y_of(run(OneNode("LpPool", l2).in(f32({1, 1, 2, 2, 2})).done(f32({1, 1, 1, 1, 1})), {{"x0", x}}));
  CHECK(y[0] == doctest::Approx(std::sqrt(204.0 / 8.0)));
  // pads 1, stride 2: each window has one real element of its 8 padded taps. Exclude (Arm NN's
  // default, count_include_pad 0) divides by 1: the input; IgnoreValue divides by 8.
  AttrMap padded{{"kernel_shape", Attr(Ints{2, 2, 2})}, {"pads", Attr(Ints{1, 1, 1, 1, 1, 1})}, {"strides", Attr(Ints{2, 2, 2})}};
  CHECK(y_of(run(OneNode("AveragePool", padded).in(f32({1, 1, 2, 2, 2})).done(f32({1, 1, 2, 2, 2})), {{"x0", x}})) == iota(8));
  padded["count_include_pad"] = Attr(int64_t{1});
  auto yi = y_of(run(OneNode("AveragePool", padded).in(f32({1, 1, 2, 2, 2})).done(f32({1, 1, 2, 2, 2})), {{"x0", x}}));
  for (int i = 0; i < 8; ++i) CHECK(yi[i] == doctest::Approx((i + 1) / 8.0));
  // NDHWC with 2 channels: channel c of x [1,2,1,1,2] = [[1,2],[3,4]] -> max over depth [3, 4].
  Graph gc = OneNode("MaxPool", {{"kernel_shape", Attr(Ints{2, 1, 1})}, {"data_layout", Attr("NHWC")}})
                 .in(f32({1, 2, 1, 1, 2})).done(f32({1, 1, 1, 1, 2}));
  CHECK(y_of(run(gc, {{"x0", ft({1, 2, 1, 1, 2}, {1, 2, 3, 4})}})) == std::vector<float>{3, 4});
}

TEST_CASE("cpu post-20.08: VkGraph aten.add / aten.sub with alpha (torch: self +- alpha * other)") {
  Graph ga = OneNode("vk.aten.add.Tensor", {{"alpha", Attr(2.0)}}).in(f32({2})).in(f32({1})).done(f32({2}));
  // [1, 2] + 2 * [10] (broadcast) = [21, 22].
  CHECK(y_of(run(ga, {{"x0", ft({2}, {1, 2})}, {"x1", ft({1}, {10})}})) == std::vector<float>{21, 22});
  Graph gs = OneNode("vk.aten.sub.Tensor", {{"alpha", Attr(int64_t{3})}}).in(f32({2})).in(f32({2})).done(f32({2}));
  // [1, 2] - 3 * [10, 20] = [-29, -58].
  CHECK(y_of(run(gs, {{"x0", ft({2}, {1, 2})}, {"x1", ft({2}, {10, 20})}})) == std::vector<float>{-29, -58});
}

TEST_CASE("cpu post-20.08: Cast converts stored values (truncation, quantization takes no part)") {
  // Float32 -> Int32 truncates toward zero (Arm NN's Signed32 encoder is a static_cast).
  Graph g = OneNode("Cast").in(f32({4})).done(i32({4}));
  CHECK(y_of<int32_t>(run(g, {{"x0", ft({4}, {-1.7f, 1.7f, 2.5f, -0.2f})}})) == std::vector<int32_t>{-1, 1, 2, 0});
  // QAsymmU8 (scale 0.5, zero point 10) -> Float32: the storage integers 10, 13, 255, not
  // 0.5 * (q - 10) (RefCastWorkload sets scale 1 and offset 0 on both sides).
  TensorType u8{DataType::QAsymmU8, {3}, false, Quantization{{0.5}, {10}, std::nullopt}};
  Graph q = OneNode("Cast").in(u8).done(f32({3}));
  auto out = run(q, {{"x0", HostTensor::from_values<uint8_t>(u8, std::vector<uint8_t>{10, 13, 255})}});
  CHECK(y_of(out) == std::vector<float>{10, 13, 255});
  // Float32 -> QAsymmU8 (scale 0.25, zero point 3): stores the values themselves, 7 and 200.
  TensorType u8o{DataType::QAsymmU8, {2}, false, Quantization{{0.25}, {3}, std::nullopt}};
  Graph qo = OneNode("Cast").in(f32({2})).done(u8o);
  auto out2 = run(qo, {{"x0", ft({2}, {7, 200})}});
  CHECK(y_of<uint8_t>(out2) == std::vector<uint8_t>{7, 200});
}
