// Oracle: hand calculations, written out next to each check, from the ONNX operator definitions
// (Size-13, Expand-13, Shape-15, GatherElements-13, ScatterElements-16, OneHot-11, TopK-11,
// Trilu-14, EyeLike-9, Range-11, CumSum-14, Hardmax-13, NonZero-13, Compress-11, Unique-11,
// NegativeLogLikelihoodLoss-13, SoftmaxCrossEntropyLoss-13) and their examples.
// Kernels of the ONNX indexing, generator and loss ops on the cpu backend, and the shape
// inference of the ops whose output shape depends on constant input values.
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
TensorType i64(std::vector<int64_t> shape) { return typed(DataType::Int64, std::move(shape)); }
TensorType boolean(std::vector<int64_t> shape) { return typed(DataType::Bool, std::move(shape)); }
using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;

HostTensor lt(std::vector<int64_t> shape, std::vector<int64_t> v) {
  return HostTensor::from_values<int64_t>(i64(std::move(shape)), v);
}
Floats iota(int n, float from = 0) {
  Floats v(n);
  for (int i = 0; i < n; ++i) v[i] = from + float(i);
  return v;
}

}  // namespace

TEST_CASE("cpu onnx ops: Size, Shape with start/end, Expand") {
  const HostTensor x = ft({2, 3, 4}, Floats(24, 0));
  // Size: 2 * 3 * 4 = 24.
  CHECK(y_of<int64_t>(run(OneNode("Size").in(f32({2, 3, 4})).done(i64({})), {{"x0", x}})) == Ints{24});
  // Shape-15: start 1 -> [3, 4]; end -1 -> [2, 3]; start -5 clamps to 0 and end 10 to 3 -> all.
  auto shape = [&](AttrMap a, Ints want) {
    auto out = run(OneNode("Shape", std::move(a)).in(f32({2, 3, 4})).done(i64({-1})), {{"x0", x}});
    CHECK(out.at("y0").type().shape == Ints{static_cast<int64_t>(want.size())});
    CHECK(y_of<int64_t>(out) == want);
  };
  shape({{"start", Attr(int64_t{1})}}, {3, 4});
  shape({{"end", Attr(int64_t{-1})}}, {2, 3});
  shape({{"start", Attr(int64_t{-5})}, {"end", Attr(int64_t{10})}}, {2, 3, 4});
  shape({{"start", Attr(int64_t{2})}, {"end", Attr(int64_t{1})}}, {});
  // Expand [3,1] by the constant shape [2,1,6] -> [2,3,6]: row i of each copy is 6 times x[i].
  Graph g = OneNode("Expand").in(f32({3, 1})).constant(i64({3}), Ints{2, 1, 6}).done(f32({-1, -1, -1}));
  auto out = run(g, {{"x0", ft({3, 1}, {1, 2, 3})}});
  CHECK(out.at("y0").type().shape == Ints{2, 3, 6});
  Floats want;
  for (int c = 0; c < 2; ++c)
    for (float v : {1.0f, 2.0f, 3.0f}) want.insert(want.end(), 6, v);
  CHECK(y_of(out) == want);
  // The shape as a graph input, the output declared: a value that does not give it fails the run.
  Graph gi = OneNode("Expand").in(f32({3, 1})).in(i64({2})).done(f32({3, 4}));
  CHECK(y_of(run(gi, {{"x0", ft({3, 1}, {1, 2, 3})}, {"x1", lt({2}, {1, 4})}})) ==
        Floats{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3});
  CHECK(test::thrown_id([&] { run(gi, {{"x0", ft({3, 1}, {1, 2, 3})}, {"x1", lt({2}, {1, 5})}}); }) == ErrorId::Shape);
}

TEST_CASE("cpu onnx ops: GatherElements and ScatterElements") {
  // ONNX GatherElements example 1: data [[1,2],[3,4]], axis 1, indices [[0,0],[1,0]] -> [[1,1],[4,3]].
  Graph g = OneNode("GatherElements", {{"axis", Attr(int64_t{1})}}).in(f32({2, 2})).in(i64({2, 2})).done(f32({2, 2}));
  CHECK(y_of(run(g, {{"x0", ft({2, 2}, {1, 2, 3, 4})}, {"x1", lt({2, 2}, {0, 0, 1, 0})}})) == Floats{1, 1, 4, 3});
  // Example 2: data 1..9 as [3,3], axis 0, indices [[1,2,0],[2,0,0]] -> [[4,8,3],[7,2,3]]; -2 is 1.
  Graph g0 = OneNode("GatherElements").in(f32({3, 3})).in(i64({2, 3})).done(f32({-1, -1}));
  CHECK(y_of(run(g0, {{"x0", ft({3, 3}, iota(9, 1))}, {"x1", lt({2, 3}, {-2, 2, 0, 2, 0, 0})}})) == Floats{4, 8, 3, 7, 2, 3});
  CHECK(test::thrown_id([&] { run(g0, {{"x0", ft({3, 3}, iota(9, 1))}, {"x1", lt({2, 3}, {3, 2, 0, 2, 0, 0})}}); }) == ErrorId::DanglingReference);
  // ScatterElements example: data [[1,2,3,4,5]], axis 1, indices [[1,3]], updates [[1.1,2.1]]
  // -> [[1,1.1,3,2.1,5]].
  auto scatter = [](const char* red) {
    return OneNode("ScatterElements", {{"axis", Attr(int64_t{1})}, {"reduction", Attr(red)}})
        .in(f32({1, 5})).in(i64({1, 2})).in(f32({1, 2})).done(f32({1, 5}));
  };
  TensorMap in{{"x0", ft({1, 5}, {1, 2, 3, 4, 5})}, {"x1", lt({1, 2}, {1, 3})}, {"x2", ft({1, 2}, {1.1f, 2.1f})}};
  CHECK(y_of(run(scatter("none"), in)) == Floats{1, 1.1f, 3, 2.1f, 5});
  // Duplicate index 1 with add: 2 + 1.1 + 2.1 = 5.2; with mul: 2 * 1.1 * 2.1 = 4.62.
  TensorMap dup{{"x0", ft({1, 5}, {1, 2, 3, 4, 5})}, {"x1", lt({1, 2}, {1, 1})}, {"x2", ft({1, 2}, {1.1f, 2.1f})}};
  CHECK(y_of(run(scatter("add"), dup))[1] == doctest::Approx(5.2f));
  CHECK(y_of(run(scatter("mul"), dup))[1] == doctest::Approx(4.62f));
  // Negative index -1 is position 4 (ONNX example with negative indices).
  TensorMap neg{{"x0", ft({1, 5}, {1, 2, 3, 4, 5})}, {"x1", lt({1, 2}, {1, -3})}, {"x2", ft({1, 2}, {1.1f, 2.1f})}};
  CHECK(y_of(run(scatter("none"), neg)) == Floats{1, 1.1f, 2.1f, 4, 5});
}

TEST_CASE("cpu onnx ops: OneHot and TopK") {
  // indices [0, -1, 7, 1], depth 3 (constant), values [0, 5], axis -1 -> [4, 3]:
  // 0 -> [5,0,0]; -1 -> index 2 -> [0,0,5]; 7 outside [-3, 2] -> all off; 1 -> [0,5,0].
  Graph g = OneNode("OneHot").in(f32({4})).constant(f32({}), Floats{3}).in(f32({2})).done(f32({-1, -1}));
  auto out = run(g, {{"x0", ft({4}, {0, -1, 7, 1})}, {"x2", ft({2}, {0, 5})}});
  CHECK(out.at("y0").type().shape == Ints{4, 3});
  CHECK(y_of(out) == Floats{5, 0, 0, 0, 0, 5, 0, 0, 0, 0, 5, 0});
  // axis 0: [3, 2] with indices [1, 0]: row d holds on where the index is d.
  Graph g0 = OneNode("OneHot", {{"axis", Attr(int64_t{0})}}).in(f32({2})).constant(f32({}), Floats{3}).in(f32({2})).done(f32({3, 2}));
  CHECK(y_of(run(g0, {{"x0", ft({2}, {1, 0})}, {"x2", ft({2}, {0, 1})}})) == Floats{0, 1, 1, 0, 0, 0});
  // TopK, K 2 along the last axis of [[1,3,3,2],[4,0,4,4]]: largest -> values [[3,3],[4,4]],
  // indices [[1,2],[0,2]] (ties: the lower index first); smallest -> [[1,2],[0,4]], [[0,3],[1,0]].
  auto topk = [](int64_t largest) {
    return OneNode("TopK", {{"largest", Attr(largest)}}).in(f32({2, 4})).constant(i64({1}), Ints{2})
        .done({f32({-1, -1}), i64({-1, -1})});
  };
  const HostTensor x = ft({2, 4}, {1, 3, 3, 2, 4, 0, 4, 4});
  auto big = run(topk(1), {{"x0", x}});
  CHECK(big.at("y0").type().shape == Ints{2, 2});
  CHECK(y_of(big, 0) == Floats{3, 3, 4, 4});
  CHECK(y_of<int64_t>(big, 1) == Ints{1, 2, 0, 2});
  auto small = run(topk(0), {{"x0", x}});
  CHECK(y_of(small, 0) == Floats{1, 2, 0, 4});
  CHECK(y_of<int64_t>(small, 1) == Ints{0, 3, 1, 0});
}

TEST_CASE("cpu onnx ops: Trilu, EyeLike, Range") {
  // 3x3 of 1..9; upper with k 1 keeps j - i >= 1: [[0,2,3],[0,0,6],[0,0,0]].
  Graph up = OneNode("Trilu").in(f32({3, 3})).in(i64({})).done(f32({3, 3}));
  CHECK(y_of(run(up, {{"x0", ft({3, 3}, iota(9, 1))}, {"x1", lt({}, {1})}})) == Floats{0, 2, 3, 0, 0, 6, 0, 0, 0});
  // lower, no k (0): j - i <= 0: [[1,0,0],[4,5,0],[7,8,9]].
  Graph lo = OneNode("Trilu", {{"upper", Attr(int64_t{0})}}).in(f32({3, 3})).done(f32({3, 3}));
  CHECK(y_of(run(lo, {{"x0", ft({3, 3}, iota(9, 1))}})) == Floats{1, 0, 0, 4, 5, 0, 7, 8, 9});
  // EyeLike [2,3] with k -1: one at (1, 0) only; dtype int64 from the attribute.
  Graph eye = OneNode("EyeLike", {{"k", Attr(int64_t{-1})}, {"dtype", Attr("int64")}}).in(f32({2, 3})).done(typed(DataType::Undefined, {2, 3}));
  auto e = run(eye, {{"x0", ft({2, 3}, Floats(6, 7))}});
  CHECK(e.at("y0").type().dtype == DataType::Int64);
  CHECK(y_of<int64_t>(e) == Ints{0, 0, 0, 1, 0, 0});
  // Range(10, 4, -3): ceil((4 - 10) / -3) = 2 elements [10, 7]; constant inputs give the length.
  Graph r = OneNode("Range").constant(i64({}), Ints{10}).constant(i64({}), Ints{4}).constant(i64({}), Ints{-3}).done(i64({-1}));
  auto ro = run(r);
  CHECK(ro.at("y0").type().shape == Ints{2});
  CHECK(y_of<int64_t>(ro) == Ints{10, 7});
  // Inputs bound at run time, output declared [3]: 1, 1.5, 2 (limit 2.5, delta 0.5); other values fail.
  Graph rf = OneNode("Range").in(f32({})).in(f32({})).in(f32({})).done(f32({3}));
  CHECK(y_of(run(rf, {{"x0", ft({}, {1})}, {"x1", ft({}, {2.5f})}, {"x2", ft({}, {0.5f})}})) == Floats{1, 1.5f, 2});
  CHECK(test::thrown_id([&] { run(rf, {{"x0", ft({}, {1})}, {"x1", ft({}, {9})}, {"x2", ft({}, {0.5f})}}); }) == ErrorId::Shape);
}

TEST_CASE("cpu onnx ops: CumSum and Hardmax") {
  // [[1,2,3],[4,5,6]] along axis 1: [[1,3,6],[4,9,15]]; exclusive [[0,1,3],[0,4,9]];
  // reverse [[6,5,3],[15,11,6]]; along axis 0 (given as -2): [[1,2,3],[5,7,9]].
  auto cum = [](AttrMap a) { return OneNode("CumSum", std::move(a)).in(f32({2, 3})).in(i64({})).done(f32({2, 3})); };
  const HostTensor x = ft({2, 3}, iota(6, 1));
  CHECK(y_of(run(cum({}), {{"x0", x}, {"x1", lt({}, {1})}})) == Floats{1, 3, 6, 4, 9, 15});
  CHECK(y_of(run(cum({{"exclusive", Attr(int64_t{1})}}), {{"x0", x}, {"x1", lt({}, {1})}})) == Floats{0, 1, 3, 0, 4, 9});
  CHECK(y_of(run(cum({{"reverse", Attr(int64_t{1})}}), {{"x0", x}, {"x1", lt({}, {1})}})) == Floats{6, 5, 3, 15, 11, 6});
  CHECK(y_of(run(cum({}), {{"x0", x}, {"x1", lt({}, {-2})}})) == Floats{1, 2, 3, 5, 7, 9});
  CHECK(test::thrown_id([&] { run(cum({}), {{"x0", x}, {"x1", lt({}, {2})}}); }) == ErrorId::AttributeValue);
  // Hardmax along the last axis of [[3,1,3],[0,2,1]]: the first largest -> [[1,0,0],[0,1,0]].
  Graph h = OneNode("Hardmax").in(f32({2, 3})).done(f32({2, 3}));
  CHECK(y_of(run(h, {{"x0", ft({2, 3}, {3, 1, 3, 0, 2, 1})}})) == Floats{1, 0, 0, 0, 1, 0});
}

TEST_CASE("cpu onnx ops: NonZero, Compress and Unique infer their shapes from constant inputs") {
  // NonZero of [[1,0],[1,1]]: non-zero at (0,0), (1,0), (1,1) -> [[0,1,1],[0,0,1]].
  Graph nz = OneNode("NonZero").constant(boolean({2, 2}), std::vector<uint8_t>{1, 0, 1, 1}).done(i64({-1, -1}));
  auto z = run(nz);
  CHECK(z.at("y0").type().shape == Ints{2, 3});
  CHECK(y_of<int64_t>(z) == Ints{0, 1, 1, 0, 0, 1});
  // Compress [[1,2],[3,4],[5,6]] along axis 0 with condition [0,1,1] -> [[3,4],[5,6]]; without
  // axis the flattened input with [0,1,0,0,1] -> [2, 5].
  Graph c0 = OneNode("Compress", {{"axis", Attr(int64_t{0})}}).in(f32({3, 2}))
                 .constant(boolean({3}), std::vector<uint8_t>{0, 1, 1}).done(f32({-1, -1}));
  auto co = run(c0, {{"x0", ft({3, 2}, iota(6, 1))}});
  CHECK(co.at("y0").type().shape == Ints{2, 2});
  CHECK(y_of(co) == Floats{3, 4, 5, 6});
  Graph cf = OneNode("Compress").in(f32({3, 2})).constant(boolean({5}), std::vector<uint8_t>{0, 1, 0, 0, 1}).done(f32({-1}));
  CHECK(y_of(run(cf, {{"x0", ft({3, 2}, iota(6, 1))}})) == Floats{2, 5});
  // Unique of [2,1,1,3,4,3] (ONNX example): sorted Y [1,2,3,4], indices [1,0,3,4], inverse
  // [1,0,0,2,3,2], counts [2,1,2,1]; not sorted Y [2,1,3,4], indices [0,1,3,4], inverse
  // [0,1,1,2,3,2], counts [1,2,2,1].
  auto unique = [](int64_t sorted) {
    return OneNode("Unique", {{"sorted", Attr(sorted)}}).constant(f32({6}), Floats{2, 1, 1, 3, 4, 3})
        .done({f32({-1}), i64({-1}), i64({-1}), i64({-1})});
  };
  auto us = run(unique(1));
  CHECK(us.at("y0").type().shape == Ints{4});
  CHECK(y_of(us, 0) == Floats{1, 2, 3, 4});
  CHECK(y_of<int64_t>(us, 1) == Ints{1, 0, 3, 4});
  CHECK(y_of<int64_t>(us, 2) == Ints{1, 0, 0, 2, 3, 2});
  CHECK(y_of<int64_t>(us, 3) == Ints{2, 1, 2, 1});
  auto un = run(unique(0));
  CHECK(y_of(un, 0) == Floats{2, 1, 3, 4});
  CHECK(y_of<int64_t>(un, 1) == Ints{0, 1, 3, 4});
  CHECK(y_of<int64_t>(un, 2) == Ints{0, 1, 1, 2, 3, 2});
  CHECK(y_of<int64_t>(un, 3) == Ints{1, 2, 2, 1});
  // Unique rows (axis 0) of [[1,0,0],[1,0,0],[2,3,4]] -> Y [[1,0,0],[2,3,4]], counts [2, 1].
  Graph ua = OneNode("Unique", {{"axis", Attr(int64_t{0})}}).constant(f32({3, 3}), Floats{1, 0, 0, 1, 0, 0, 2, 3, 4})
                 .done({f32({-1, -1}), i64({-1}), i64({-1}), i64({-1})});
  auto uo = run(ua);
  CHECK(uo.at("y0").type().shape == Ints{2, 3});
  CHECK(y_of(uo, 0) == Floats{1, 0, 0, 2, 3, 4});
  CHECK(y_of<int64_t>(uo, 2) == Ints{0, 0, 1});
  CHECK(y_of<int64_t>(uo, 3) == Ints{2, 1});
  // NonZero of a graph input, output declared [2, 3]: other values fail the run.
  Graph nzi = OneNode("NonZero").in(f32({2, 2})).done(i64({2, 3}));
  CHECK(y_of<int64_t>(run(nzi, {{"x0", ft({2, 2}, {0, 5, 6, 7})}})) == Ints{0, 1, 1, 1, 0, 1});
  CHECK(test::thrown_id([&] { run(nzi, {{"x0", ft({2, 2}, {0, 0, 6, 7})}}); }) == ErrorId::Shape);
}

TEST_CASE("cpu onnx ops: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss") {
  // input [N=2, C=3] log-probabilities, target [2, 0], weight [1, 2, 3]:
  // none -> [-3 * x[0][2], -1 * x[1][0]] = [-3 * -0.5, -1 * -2] = [1.5, 2];
  // sum 3.5; mean 3.5 / (3 + 1) = 0.875.
  const HostTensor x = ft({2, 3}, {-1, -1, -0.5f, -2, -1, -1});
  const HostTensor t = lt({2}, {2, 0});
  const HostTensor w = ft({3}, {1, 2, 3});
  auto nll = [](const char* red) {
    return OneNode("NegativeLogLikelihoodLoss", {{"reduction", Attr(red)}}).in(f32({2, 3})).in(i64({2})).in(f32({3}))
        .done(f32({-1}));
  };
  CHECK(y_of(run(nll("none"), {{"x0", x}, {"x1", t}, {"x2", w}})) == Floats{1.5f, 2});
  auto scalar = [](const char* red) {
    return OneNode("NegativeLogLikelihoodLoss", {{"reduction", Attr(red)}}).in(f32({2, 3})).in(i64({2})).in(f32({3}))
        .done(f32({}));
  };
  CHECK(y_of(run(scalar("sum"), {{"x0", x}, {"x1", t}, {"x2", w}})) == Floats{3.5f});
  CHECK(y_of(run(scalar("mean"), {{"x0", x}, {"x1", t}, {"x2", w}})) == Floats{0.875f});
  // ignore_index 2, no weight, mean: only sample 1 counts: 2 / 1 = 2.
  Graph ii = OneNode("NegativeLogLikelihoodLoss", {{"ignore_index", Attr(int64_t{2})}}).in(f32({2, 3})).in(i64({2})).done(f32({}));
  CHECK(y_of(run(ii, {{"x0", x}, {"x1", t}})) == Floats{2});
  // A target outside [0, C) that is not ignore_index fails the run.
  CHECK(test::thrown_id([&] { run(ii, {{"x0", x}, {"x1", lt({2}, {3, 0})}}); }) == ErrorId::DanglingReference);
  // SCE of scores [[0, ln 3]] (C = 2) against label 1: softmax [1/4, 3/4], log_prob
  // [ln 1/4, ln 3/4], loss (mean of one) -ln(3/4).
  Graph sce = OneNode("SoftmaxCrossEntropyLoss").in(f32({1, 2})).in(i64({1})).done({f32({}), f32({1, 2})});
  auto s = run(sce, {{"x0", ft({1, 2}, {0, std::log(3.0f)})}, {"x1", lt({1}, {1})}});
  CHECK(y_of(s, 0)[0] == doctest::Approx(-std::log(0.75)));
  CHECK(y_of(s, 1)[0] == doctest::Approx(std::log(0.25)));
  CHECK(y_of(s, 1)[1] == doctest::Approx(std::log(0.75)));
}

TEST_CASE("cpu onnx ops: ReverseSequence, MeanVarianceNormalization, BitShift") {
  // time_axis 0, batch_axis 1, x [4 steps, 2 batch] = [[0,1],[2,3],[4,5],[6,7]], lens [3, 1]:
  // batch 0 (0,2,4,6) -> (4,2,0,6); batch 1 (1,3,5,7) unchanged.
  Graph rs = OneNode("ReverseSequence").in(f32({4, 2})).in(i64({2})).done(f32({4, 2}));
  CHECK(y_of(run(rs, {{"x0", ft({4, 2}, iota(8))}, {"x1", lt({2}, {3, 1})}})) == Floats{4, 1, 2, 3, 0, 5, 6, 7});
  CHECK(test::thrown_id([&] { run(rs, {{"x0", ft({4, 2}, iota(8))}, {"x1", lt({2}, {5, 1})}}); }) == ErrorId::Shape);
  // MVN over axis 1 of [[1,3],[2,2]]: row 0 mean 2, deviation 1 -> [-1, 1] (up to the 1e-9);
  // row 1 deviation 0 -> [0, 0].
  Graph mvn = OneNode("MeanVarianceNormalization", {{"axes", Attr(Ints{1})}}).in(f32({2, 2})).done(f32({2, 2}));
  auto m = y_of(run(mvn, {{"x0", ft({2, 2}, {1, 3, 2, 2})}}));
  CHECK(m[0] == doctest::Approx(-1.0f));
  CHECK(m[1] == doctest::Approx(1.0f));
  CHECK(m[2] == 0.0f);
  CHECK(m[3] == 0.0f);
  // uint8 shifts: 16 << [1, 4, 8] = [32, 0 (256 leaves the byte), 0]; 16 >> [1, 4, 8] = [8, 1, 0].
  auto shift = [](const char* dir) {
    return OneNode("BitShift", {{"direction", Attr(dir)}}).in(typed(DataType::UInt8, {})).in(typed(DataType::UInt8, {3}))
        .done(typed(DataType::UInt8, {3}));
  };
  TensorMap in{{"x0", HostTensor::from_values<uint8_t>(typed(DataType::UInt8, {}), std::vector<uint8_t>{16})},
               {"x1", HostTensor::from_values<uint8_t>(typed(DataType::UInt8, {3}), std::vector<uint8_t>{1, 4, 8})}};
  CHECK(y_of<uint8_t>(run(shift("LEFT"), in)) == std::vector<uint8_t>{32, 0, 0});
  CHECK(y_of<uint8_t>(run(shift("RIGHT"), in)) == std::vector<uint8_t>{8, 1, 0});
}

TEST_CASE("cpu onnx ops: Det and Einsum") {
  // det [[1,2],[3,4]] = 1*4 - 2*3 = -2; det [[0,1],[1,0]] = -1 (a row swap); det of
  // [[2,0,0],[0,3,0],[0,0,4]] = 24.
  Graph d2 = OneNode("Det").in(f32({2, 2, 2})).done(f32({-1}));
  auto dv = y_of(run(d2, {{"x0", ft({2, 2, 2}, {1, 2, 3, 4, 0, 1, 1, 0})}}));
  CHECK(dv[0] == doctest::Approx(-2.0f));
  CHECK(dv[1] == doctest::Approx(-1.0f));
  Graph d3 = OneNode("Det").in(f32({3, 3})).done(f32({}));
  CHECK(y_of(run(d3, {{"x0", ft({3, 3}, {2, 0, 0, 0, 3, 0, 0, 0, 4})}}))[0] == doctest::Approx(24.0f));
  // "ij,jk->ik": [[1,2]] x [[3],[4]] = [[11]]; implicit "ij,jk" is the same.
  auto mm = [](const char* eq) {
    return OneNode("Einsum", {{"equation", Attr(eq)}}).in(f32({1, 2})).in(f32({2, 1})).done(f32({-1, -1}));
  };
  TensorMap ab{{"x0", ft({1, 2}, {1, 2})}, {"x1", ft({2, 1}, {3, 4})}};
  CHECK(y_of(run(mm("ij,jk->ik"), ab)) == Floats{11});
  CHECK(y_of(run(mm("ij, jk"), ab)) == Floats{11});
  // "ij->ji" transposes [[1,2,3],[4,5,6]]; "ij->i" sums rows [6, 15]; "ii" is the trace 1 + 5 = 6
  // of [[1,2],[4,5]]; "...ii->...i" takes each diagonal.
  auto one = [](const char* eq, std::vector<int64_t> in, std::vector<int64_t> out) {
    return OneNode("Einsum", {{"equation", Attr(eq)}}).in(f32(std::move(in))).done(f32(std::move(out)));
  };
  const HostTensor x = ft({2, 3}, iota(6, 1));
  auto t = run(one("ij->ji", {2, 3}, {-1, -1}), {{"x0", x}});
  CHECK(t.at("y0").type().shape == Ints{3, 2});
  CHECK(y_of(t) == Floats{1, 4, 2, 5, 3, 6});
  CHECK(y_of(run(one("ij->i", {2, 3}, {-1}), {{"x0", x}})) == Floats{6, 15});
  CHECK(y_of(run(one("ii", {2, 2}, {}), {{"x0", ft({2, 2}, {1, 2, 4, 5})}})) == Floats{6});
  CHECK(y_of(run(one("...ii->...i", {2, 2, 2}, {-1, -1}), {{"x0", ft({2, 2, 2}, iota(8))}})) == Floats{0, 3, 4, 7});
  // Batch matmul with a broadcast batch: [1,1,2] x [3,2,1] by "...ij,...jk->...ik" -> [3,1,1]:
  // row [1, 2] against columns [0,1], [2,3], [4,5] -> 2, 8, 14.
  Graph bm = OneNode("Einsum", {{"equation", Attr("...ij,...jk->...ik")}}).in(f32({1, 1, 2})).in(f32({3, 2, 1})).done(f32({-1, -1, -1}));
  auto b = run(bm, {{"x0", ft({1, 1, 2}, {1, 2})}, {"x1", ft({3, 2, 1}, iota(6))}});
  CHECK(b.at("y0").type().shape == Ints{3, 1, 1});
  CHECK(y_of(b) == Floats{2, 8, 14});
  // A label the output names but no input has is refused.
  CHECK_THROWS_AS(run(one("ij->k", {2, 3}, {-1}), {{"x0", x}}), Error);
}
