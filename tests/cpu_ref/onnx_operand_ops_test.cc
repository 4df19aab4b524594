// Oracle: hand calculations, written out next to each check, from the ONNX operator definitions
// (Slice-13, Pad-13, Split-13, Clip-13, ReduceSum-13, Resize-13) whose opset-13 operands are
// inputs: constant inputs here, read by the kernels at prepare.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "nnbridge/error.h"
#include "one_node.h"

using namespace nnbridge;
using namespace nnbridge::test;

namespace {
using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;

TensorType i64(int64_t n) { return typed(DataType::Int64, {n}); }

void close(const Floats& got, const Floats& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-6));
}
}  // namespace

TEST_CASE("cpu onnx operand ops: Slice with starts / ends / axes / steps inputs") {
  // x = 0..9, start -1 (index 9) to INT64_MIN ("to the start", clamped to -1) by -3: 9, 6, 3, 0.
  Graph g = OneNode("Slice")
                .in(f32({10}))
                .constant(i64(1), Ints{-1})
                .constant(i64(1), Ints{std::numeric_limits<int64_t>::min()})
                .constant(i64(1), Ints{0})
                .constant(i64(1), Ints{-3})
                .done(f32({4}));
  CHECK(y_of(run(g, {{"x0", ft({10}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})}})) == Floats{9, 6, 3, 0});
  // x [2, 5] = 0..9, axis -1 from 1 to INT64_MAX (the end), steps left out: columns 1..4.
  Graph h = OneNode("Slice")
                .in(f32({2, 5}))
                .constant(i64(1), Ints{1})
                .constant(i64(1), Ints{std::numeric_limits<int64_t>::max()})
                .constant(i64(1), Ints{-1})
                .done(f32({2, 4}));
  CHECK(y_of(run(h, {{"x0", ft({2, 5}, {0, 1, 2, 3, 4, 5, 6, 7, 8, 9})}})) == Floats{1, 2, 3, 4, 6, 7, 8, 9});
}

TEST_CASE("cpu onnx operand ops: Pad with pads and constant_value inputs, negative pads remove") {
  // x = [[1, 2, 3], [4, 5, 6]], pads [0, -1 | 1, 0]: column 0 removed, a row of 9 appended:
  // [[2, 3], [5, 6], [9, 9]].
  Graph g = OneNode("Pad", {{"mode", Attr("constant")}})
                .in(f32({2, 3}))
                .constant(i64(4), Ints{0, -1, 1, 0})
                .constant(f32({}), Floats{9})
                .done(f32({3, 2}));
  CHECK(y_of(run(g, {{"x0", ft({2, 3}, {1, 2, 3, 4, 5, 6})}})) == Floats{2, 3, 5, 6, 9, 9});
  // reflect by 2 on [1, 2, 3] (numpy.pad's reflect): 3, 2 | 1, 2, 3 | 2, 1.
  Graph r = OneNode("Pad", {{"mode", Attr("reflect")}}).in(f32({3})).constant(i64(2), Ints{2, 2}).done(f32({7}));
  CHECK(y_of(run(r, {{"x0", ft({3}, {1, 2, 3})}})) == Floats{3, 2, 1, 2, 3, 2, 1});
}

TEST_CASE("cpu onnx operand ops: Split sizes and Clip bounds as inputs") {
  // split [2, 3] of 0..4: [0, 1] and [2, 3, 4].
  Graph s = OneNode("Split").in(f32({5})).constant(i64(2), Ints{2, 3}).done({f32({2}), f32({3})});
  const TensorMap out = run(s, {{"x0", ft({5}, {0, 1, 2, 3, 4})}});
  CHECK(y_of(out, 0) == Floats{0, 1});
  CHECK(y_of(out, 1) == Floats{2, 3, 4});
  // min left out (no lower bound), max 1: [-2, 0.5, 3] -> [-2, 0.5, 1].
  Graph c = OneNode("Clip").in(f32({3})).absent().constant(f32({}), Floats{1}).done(f32({3}));
  CHECK(y_of(run(c, {{"x0", ft({3}, {-2, 0.5f, 3})}})) == Floats{-2, 0.5f, 1});
}

TEST_CASE("cpu onnx operand ops: ReduceSum's axes input and noop_with_empty_axes") {
  const HostTensor x = ft({2, 3}, {1, 2, 3, 4, 5, 6});
  // No axes: every dim, 1 + ... + 6 = 21.
  Graph all = OneNode("ReduceSum", {{"keepdims", Attr(int64_t{0})}}).in(f32({2, 3})).done(f32({}));
  CHECK(y_of(run(all, {{"x0", x}})) == Floats{21});
  // Axes [1], keepdims: row sums 6 and 15.
  Graph rows = OneNode("ReduceSum").in(f32({2, 3})).constant(i64(1), Ints{1}).done(f32({2, 1}));
  CHECK(y_of(run(rows, {{"x0", x}})) == Floats{6, 15});
  // Empty axes with noop_with_empty_axes 1: the input itself.
  Graph noop = OneNode("ReduceSum", {{"noop_with_empty_axes", Attr(int64_t{1})}})
                   .in(f32({2, 3}))
                   .constant(i64(0), Ints{})
                   .done(f32({2, 3}));
  CHECK(y_of(run(noop, {{"x0", x}})) == Floats{1, 2, 3, 4, 5, 6});
}

TEST_CASE("cpu onnx operand ops: Resize-13 modes") {
  const HostTensor x4 = ft({4}, {1, 2, 3, 4});
  // cubic, half_pixel, a = -0.75, scales [2] on [1, 2, 3, 4]. Output 0: x_original = 0.5 / 2 -
  // 0.5 = -0.25, so L = -1, r = 0.75 and the taps -2, -1, 0, 1 read 1, 1, 1, 2 (edge). Keys'
  // weights for r = 0.75: w3 = ((a * 1.25 - 5a) * 1.25 + 8a) * 1.25 - 4a = -0.10546875 (the
  // others sum to 1 - w3), so y0 = 1 + w3 = 0.89453125. Output 1: x_original = 0.25, taps
  // -1, 0, 1, 2 read 1, 1, 2, 3 with weights -0.10546875, 0.87890625, 0.26171875,
  // -0.03515625: y1 = 0.7734375 + 0.5234375 - 0.10546875 = 1.19140625.
  Graph cubic = OneNode("Resize", {{"mode", Attr("cubic")}, {"coordinate_transformation_mode", Attr("half_pixel")}})
                    .in(f32({4}))
                    .absent()
                    .constant(f32({1}), Floats{2})
                    .done(f32({8}));
  const Floats y = y_of(run(cubic, {{"x0", x4}}));
  REQUIRE(y.size() == 8);
  CHECK(y[0] == doctest::Approx(0.89453125));
  CHECK(y[1] == doctest::Approx(1.19140625));
  // nearest, asymmetric, round_prefer_ceil, sizes [5] of [1, 2, 3]: x_original = 3x / 5 = 0,
  // 0.6, 1.2, 1.8, 2.4 -> 0, 1 (0.6 rounds up), 1, 2, 2.
  Graph nearest = OneNode("Resize", {{"mode", Attr("nearest")}, {"nearest_mode", Attr("round_prefer_ceil")}})
                      .in(f32({3}))
                      .absent()
                      .absent()
                      .constant(i64(1), Ints{5})
                      .done(f32({5}));
  CHECK(y_of(run(nearest, {{"x0", ft({3}, {1, 2, 3})}})) == Floats{1, 2, 2, 3, 3});
  // tf_crop_and_resize, linear, roi [0.4, 1.2], sizes [3] of [1, 2, 3, 4]: x_original =
  // 0.4 * 3 + x * 0.8 * 3 / 2 = 1.2, 2.4, 3.6; the last is beyond 3: extrapolation_value 10.
  Graph crop = OneNode("Resize", {{"mode", Attr("linear")},
                                  {"coordinate_transformation_mode", Attr("tf_crop_and_resize")},
                                  {"extrapolation_value", Attr(10.0)}})
                   .in(f32({4}))
                   .constant(f32({2}), Floats{0.4f, 1.2f})
                   .absent()
                   .constant(i64(1), Ints{3})
                   .done(f32({3}));
  close(y_of(run(crop, {{"x0", x4}})), Floats{2.2f, 3.4f, 10});
  // linear, align_corners on 2-D [[1, 2], [3, 4]] to [3, 3]: the centre is the mean 2.5.
  Graph bilinear = OneNode("Resize", {{"mode", Attr("linear")}, {"coordinate_transformation_mode", Attr("align_corners")}})
                       .in(f32({2, 2}))
                       .absent()
                       .absent()
                       .constant(i64(2), Ints{3, 3})
                       .done(f32({3, 3}));
  close(y_of(run(bilinear, {{"x0", ft({2, 2}, {1, 2, 3, 4})}})), Floats{1, 1.5f, 2, 2, 2.5f, 3, 3, 3.5f, 4});
}

TEST_CASE("cpu onnx operand ops: an empty constant where one value is read is a clear error naming the node") {
  // Dropout-13's ratio is a scalar; an empty one used to escape as std::out_of_range.
  Graph g = OneNode("Dropout").in(f32({2})).constant(f32({0}), std::vector<float>{}).done(f32({2}));
  cpu_ref::register_backend();
  try {
    (void)find_backend("cpu")->prepare(g, {});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.what()).find("\"n\"") != std::string::npos);
    CHECK(std::string(e.what()).find("holds 0 values") != std::string::npos);
  }
}
