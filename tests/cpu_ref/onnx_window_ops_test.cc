// Oracle: hand calculations, written out next to each check, from the ONNX operator definitions
// (Conv-11, ConvTranspose-11, MaxPool-12, AveragePool-11: output sizes, auto_pad SAME_UPPER /
// SAME_LOWER, the Indices output).
// Conv, ConvTranspose and the pools on 1-D and 3-D inputs, auto_pad and MaxPool's Indices; the
// whole-plane average (GlobalAveragePool) against its double sum.
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "one_node.h"

using namespace nnbridge;
using namespace nnbridge::test;

namespace {
using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;
}  // namespace

TEST_CASE("cpu onnx window ops: 1-D Conv runs as 2-D") {
  // y[i] = x[i-1] - x[i+1] with zero padding on x = 1..5: [0-2, 1-3, 2-4, 3-5, 4-0]; stride 2
  // keeps i = 0, 2, 4: [-2, -2, 4].
  Graph g = OneNode("Conv", {{"pads", Attr(Ints{1, 1})}, {"strides", Attr(Ints{2})}})
                .in(f32({1, 1, 5}))
                .constant(f32({1, 1, 3}), Floats{1, 0, -1})
                .done(f32({1, 1, 3}));
  CHECK(y_of(run(g, {{"x0", ft({1, 1, 5}, {1, 2, 3, 4, 5})}})) == Floats{-2, -2, 4});
}

TEST_CASE("cpu onnx window ops: 3-D Conv with auto_pad SAME_UPPER / SAME_LOWER") {
  // X and W all ones [2,2,2]; SAME keeps 2 per dim: total pad (2-1)*1 + 2 - 2 = 1 per dim.
  // SAME_UPPER pads at the end: y[0,0,0] sums all 8 inputs, y[1,1,1] only x[1,1,1] = 1,
  // y[0,1,1] the 2 of z = 0..1, y[1,0,0] the 4 of z = 1. SAME_LOWER mirrors it.
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    Graph g = OneNode("Conv", {{"auto_pad", Attr(mode)}})
                  .in(f32({1, 1, 2, 2, 2}))
                  .constant(f32({1, 1, 2, 2, 2}), Floats(8, 1.0f))
                  .done(f32({1, 1, 2, 2, 2}));
    const Floats y = y_of(run(g, {{"x0", ft({1, 1, 2, 2, 2}, Floats(8, 1.0f))}}));
    if (std::string(mode) == "SAME_UPPER") CHECK(y == Floats{8, 4, 4, 2, 4, 2, 2, 1});
    else CHECK(y == Floats{1, 2, 2, 4, 2, 4, 4, 8});
  }
}

TEST_CASE("cpu onnx window ops: 1-D MaxPool with SAME_UPPER and Indices") {
  // x = [3,1,4,1,5], kernel 3, stride 2: out ceil(5/2) = 3, total pad (3-1)*2 + 3 - 5 = 2 -> 1, 1.
  // Windows [-1..1] -> 3 at 0, [1..3] -> 4 at 2, [3..5] -> 5 at 4.
  Graph g = OneNode("MaxPool", {{"kernel_shape", Attr(Ints{3})}, {"strides", Attr(Ints{2})}, {"auto_pad", Attr("SAME_UPPER")}})
                .in(f32({1, 1, 5}))
                .done({f32({1, 1, 3}), typed(DataType::Int64, {1, 1, 3})});
  const TensorMap r = run(g, {{"x0", ft({1, 1, 5}, {3, 1, 4, 1, 5})}});
  CHECK(y_of(r, 0) == Floats{3, 4, 5});
  CHECK(y_of<int64_t>(r, 1) == std::vector<int64_t>{0, 2, 4});
}

TEST_CASE("cpu onnx window ops: 2-D MaxPool Indices count batch and channel") {
  // X [2,1,2,2] = 0..7, kernel 2: the maximum of each image is its last element, flat index
  // (n*1 + 0)*4 + 3 = 3 and 7.
  Graph g = OneNode("MaxPool", {{"kernel_shape", Attr(Ints{2, 2})}})
                .in(f32({2, 1, 2, 2}))
                .done({f32({2, 1, 1, 1}), typed(DataType::Int64, {2, 1, 1, 1})});
  const TensorMap r = run(g, {{"x0", ft({2, 1, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7})}});
  CHECK(y_of(r, 0) == Floats{3, 7});
  CHECK(y_of<int64_t>(r, 1) == std::vector<int64_t>{3, 7});
}

TEST_CASE("cpu onnx window ops: 3-D AveragePool with SAME_LOWER excludes the padding") {
  // x = [1,2,3] along W, kernel 2: total pad (3-1) + 2 - 3 = 1. SAME_LOWER pads the front:
  // windows [-1,0] -> 1 (one tap), [0,1] -> 1.5, [1,2] -> 2.5. SAME_UPPER: 1.5, 2.5, 3.
  for (const char* mode : {"SAME_LOWER", "SAME_UPPER"}) {
    Graph g = OneNode("AveragePool", {{"kernel_shape", Attr(Ints{1, 1, 2})}, {"auto_pad", Attr(mode)}})
                  .in(f32({1, 1, 1, 1, 3}))
                  .done(f32({1, 1, 1, 1, 3}));
    const Floats y = y_of(run(g, {{"x0", ft({1, 1, 1, 1, 3}, {1, 2, 3})}}));
    CHECK(y == (std::string(mode) == "SAME_LOWER" ? Floats{1, 1.5f, 2.5f} : Floats{1.5f, 2.5f, 3}));
  }
}

TEST_CASE("cpu onnx window ops: 1-D ConvTranspose, auto_pad SAME") {
  // x = [1,2,3], W = [1,1,1] (IOHW [1,1,3]), stride 2: the full output (3-1)*2 + 3 = 7 is
  // [1, 1, 1+2, 2, 2+3, 3, 3]. SAME keeps 3*2 = 6, total pad 1: SAME_UPPER drops the last,
  // SAME_LOWER the first.
  for (const char* mode : {"SAME_UPPER", "SAME_LOWER"}) {
    Graph g = OneNode("ConvTranspose", {{"strides", Attr(Ints{2})}, {"auto_pad", Attr(mode)}})
                  .in(f32({1, 1, 3}))
                  .constant(f32({1, 1, 3}), Floats{1, 1, 1})
                  .done(f32({1, 1, 6}));
    const Floats y = y_of(run(g, {{"x0", ft({1, 1, 3}, {1, 2, 3})}}));
    CHECK(y == (std::string(mode) == "SAME_UPPER" ? Floats{1, 1, 3, 2, 5, 3} : Floats{1, 3, 2, 5, 3, 3}));
  }
}

TEST_CASE("cpu onnx window ops: 3-D ConvTranspose") {
  // x = [1,2] along W, W = [1,10]: y = [1*1, 1*10 + 2*1, 2*10] = [1, 12, 20], plus bias 0.5.
  Graph g = OneNode("ConvTranspose")
                .in(f32({1, 1, 1, 1, 2}))
                .constant(f32({1, 1, 1, 1, 2}), Floats{1, 10})
                .constant(f32({1}), Floats{0.5f})
                .done(f32({1, 1, 1, 1, 3}));
  CHECK(y_of(run(g, {{"x0", ft({1, 1, 1, 1, 2}, {1, 2})}})) == Floats{1.5f, 12.5f, 20.5f});
}

TEST_CASE("cpu onnx window ops: GlobalAveragePool and a whole-plane AveragePool are the plane's sum in double over H * W") {
  // ONNX GlobalAveragePool-1: the mean of each [H, W] plane. The cpu kernel sums the floats in
  // double in row-major order and divides by H * W before rounding to float32 (pool.cc); values
  // with 1/3-steps make the sum's rounding matter. An AveragePool whose kernel is the whole plane
  // (no pads) is the same window. 22 planes: the kernel's groups of 8 planes and the 6 after.
  const int64_t n = 2, c = 11, h = 5, w = 7;
  Floats x(static_cast<std::size_t>(n * c * h * w));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((static_cast<int>(i * 37 % 101) - 50)) / 3.0f + (i % 5 == 0 ? 1e6f : 0.0f);
  Floats want(static_cast<std::size_t>(n * c));
  for (std::size_t q = 0; q < want.size(); ++q) {
    double acc = 0;
    for (int64_t i = 0; i < h * w; ++i) acc += x[q * h * w + static_cast<std::size_t>(i)];
    want[q] = static_cast<float>(acc / double(h * w));
  }
  for (const bool global : {true, false}) {
    CAPTURE(global);
    Graph g = global ? OneNode("GlobalAveragePool").in(f32({n, c, h, w})).done(f32({n, c, 1, 1}))
                     : OneNode("AveragePool", {{"kernel_shape", Attr(Ints{h, w})}}).in(f32({n, c, h, w})).done(f32({n, c, 1, 1}));
    CHECK(y_of(run(g, {{"x0", ft({n, c, h, w}, x)}})) == want);
  }
}

TEST_CASE("cpu plan: MaxPool, Transpose and Concat write every output element (run() does not zero their outputs)") {
  // Run twice on one plan: the second run's output buffer comes back from the first (the plan
  // keeps returned buffers), holding the first run's values, so an element a kernel skipped
  // would show the first run's value instead of the hand-computed second one.
  cpu_ref::register_backend();
  SUBCASE("MaxPool 2x2 stride 2 with a window wholly in the padding (it reads 0)") {
    // x [1, 1, 2, 3], pads (0, 0, 0, 3): windows over columns 0-1, 2-3, 4-5; the last lies in
    // the right padding only.
    Graph g = OneNode("MaxPool", {{"kernel_shape", Attr(Ints{2, 2})}, {"strides", Attr(Ints{2, 2})}, {"pads", Attr(Ints{0, 0, 0, 3})}})
                  .in(f32({1, 1, 2, 3}))
                  .done(f32({1, 1, 1, 3}));
    const auto plan = find_backend("cpu")->prepare(g, {});
    { const auto first = plan->run({{"x0", ft({1, 1, 2, 3}, {9, 9, 9, 9, 9, 9})}}); }
    const auto second = plan->run({{"x0", ft({1, 1, 2, 3}, {1, 5, 2, -3, 4, -7})}});
    CHECK(y_of(second) == Floats{5, 2, 0});
  }
  SUBCASE("Transpose then Concat along the channels") {
    Graph g = OneNode("Transpose", {{"perm", Attr(Ints{0, 2, 1})}}).in(f32({1, 2, 3})).done(f32({1, 3, 2}));
    const auto plan = find_backend("cpu")->prepare(g, {});
    { const auto first = plan->run({{"x0", ft({1, 2, 3}, {9, 9, 9, 9, 9, 9})}}); }
    CHECK(y_of(plan->run({{"x0", ft({1, 2, 3}, {1, 2, 3, 4, 5, 6})}})) == Floats{1, 4, 2, 5, 3, 6});
    Graph c = OneNode("Concat", {{"axis", Attr(int64_t{1})}}).in(f32({1, 1, 2})).in(f32({1, 2, 2})).done(f32({1, 3, 2}));
    const auto cplan = find_backend("cpu")->prepare(c, {});
    { const auto first = cplan->run({{"x0", ft({1, 1, 2}, {9, 9})}, {"x1", ft({1, 2, 2}, {9, 9, 9, 9})}}); }
    CHECK(y_of(cplan->run({{"x0", ft({1, 1, 2}, {1, 2})}, {"x1", ft({1, 2, 2}, {3, 4, 5, 6})}})) == Floats{1, 2, 3, 4, 5, 6});
  }
}
