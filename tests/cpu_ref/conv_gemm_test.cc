// Oracle: ONNX Conv-11 with the rounding the cpu backend documents for NCHW convolutions on its
// AVX-512 GEMM (sgemm_nn.h, docs/api.md): per output, acc = std::fma(W, X, acc) over the taps
// (ci, ky, kx) in that order from 0, a tap in the padding reading 0, then + B[o], then a folded
// Relu as std::max(0, y). Stride-1 convolutions read their patches as shifted rows of a padded
// input instead of an im2col matrix (conv.cc, im2col.h); these cases take that path (each comment
// gives the grid against the outputs) and must give exactly those bits, on 1 and 2 threads.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/im2col.h"
#include "one_node.h"
#include "sgemm/sgemm.h"
#include "test_numbers.h"

using namespace nnbridge;
using namespace nnbridge::test;

namespace {

struct Case {
  int64_t n, c, m, h, w, kh, kw, group;
  std::vector<int64_t> pads;  // top, left, bottom, right
  int64_t dh = 1, dw = 1;
  bool relu = false;
  int64_t block_rows = 0;  // the output rows of a block when the convolution is split by rows (0: whole)
  std::vector<int> threads{1, 2};
};

void check(const Case& t) {
  const int64_t oh = (t.h + t.pads[0] + t.pads[2] - t.dh * (t.kh - 1) - 1) + 1;
  const int64_t ow = (t.w + t.pads[1] + t.pads[3] - t.dw * (t.kw - 1) - 1) + 1;
  // The case is one the shifted-rows path takes, in the blocks of rows conv.cc makes of it
  // (otherwise it would test the im2col path, which gives the same bits).
  cpu_ref::ConvGeom geom{};
  geom.ow = ow, geom.kw = t.kw, geom.dw = t.dw;
  REQUIRE(cpu_ref::shifted_grid_pays(geom, t.block_rows ? t.block_rows : oh));
  const int64_t cg = t.c / t.group, mg = t.m / t.group;
  const auto x = numbers(static_cast<std::size_t>(t.n * t.c * t.h * t.w), 1);
  const auto w = numbers(static_cast<std::size_t>(t.m * cg * t.kh * t.kw), 2);
  const auto b = numbers(static_cast<std::size_t>(t.m), 3);
  std::vector<float> want(static_cast<std::size_t>(t.n * t.m * oh * ow));
  for (int64_t n = 0; n < t.n; ++n)
    for (int64_t o = 0; o < t.m; ++o)
      for (int64_t oy = 0; oy < oh; ++oy)
        for (int64_t ox = 0; ox < ow; ++ox) {
          float acc = 0.0f;
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t ky = 0; ky < t.kh; ++ky)
              for (int64_t kx = 0; kx < t.kw; ++kx) {
                const int64_t iy = oy - t.pads[0] + ky * t.dh, ix = ox - t.pads[1] + kx * t.dw;
                const int64_t c = (o / mg) * cg + ci;
                const float xv = iy >= 0 && iy < t.h && ix >= 0 && ix < t.w ? x[static_cast<std::size_t>(((n * t.c + c) * t.h + iy) * t.w + ix)] : 0.0f;
                acc = std::fma(w[static_cast<std::size_t>(((o * cg + ci) * t.kh + ky) * t.kw + kx)], xv, acc);
              }
          float y = acc + b[static_cast<std::size_t>(o)];
          if (t.relu) y = std::max(0.0f, y);
          want[static_cast<std::size_t>(((n * t.m + o) * oh + oy) * ow + ox)] = y;
        }
  REQUIRE(std::count_if(want.begin(), want.end(), [](float v) { return v > 0; }) > 0);
  if (t.relu) REQUIRE(std::count(want.begin(), want.end(), 0.0f) > 0);

  Graph g = OneNode("Conv", {{"kernel_shape", Attr(std::vector<int64_t>{t.kh, t.kw})},
                             {"pads", Attr(t.pads)},
                             {"dilations", Attr(std::vector<int64_t>{t.dh, t.dw})},
                             {"group", Attr(t.group)}})
                .in(f32({t.n, t.c, t.h, t.w}))
                .constant(f32({t.m, cg, t.kh, t.kw}), w)
                .constant(f32({t.m}), b)
                .done(f32({t.n, t.m, oh, ow}));
  if (t.relu) {  // y0 becomes the Conv's output, read by a Relu that writes the graph output
    const ValueId conv = g.outputs[0];
    const ValueId y = g.add_value(Value{"relu_y", f32({t.n, t.m, oh, ow}), std::nullopt, {}});
    g.add_node(Node{"Relu", "relu", {conv}, {y}, {}});
    g.outputs = {y};
  }
  cpu_ref::register_backend();
  for (int threads : t.threads) {
    CAPTURE(threads);
    BackendOptions opt;
    opt.threads = threads;
    const auto plan = find_backend("cpu")->prepare(g, opt);
    if (t.relu) CHECK(plan->placement().back().fused_into == "n");
    const TensorMap out = plan->run({{"x0", HostTensor::from_values<float>(f32({t.n, t.c, t.h, t.w}), x)}});
    const auto got = out.at(t.relu ? "relu_y" : "y0").values<float>();
    REQUIRE(got.size() == want.size());
    int64_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i) wrong += std::bit_cast<uint32_t>(got[i]) != std::bit_cast<uint32_t>(want[i]);
    CHECK(wrong == 0);
  }
}

}  // namespace

TEST_CASE("cpu Conv NCHW stride 1: which blocks of output rows read shifted rows (shifted_grid_pays)") {
  // By hand: wp = ow + (kw - 1) dw columns per row; the grid drops the last row's wp - ow.
  auto pays = [](int64_t ow, int64_t kw, int64_t dw, int64_t rows) {
    cpu_ref::ConvGeom g{};
    g.ow = ow, g.kw = kw, g.dw = dw;
    return cpu_ref::shifted_grid_pays(g, rows);
  };
  CHECK(pays(7, 3, 1, 7));       // 7 x 9 - 2 = 61 columns, 4 vectors; 49 outputs, 4 vectors
  CHECK_FALSE(pays(13, 3, 1, 13));  // 193 columns, 13 vectors; 169 outputs, 11: 104 > 99
  CHECK(pays(56, 3, 1, 10));     // 578 columns, 37 vectors; 560 outputs, 35: 296 <= 315
  CHECK_FALSE(pays(7, 3, 1, 1));    // 7 columns: fewer than 16
  CHECK(pays(20, 3, 4, 1));      // wp 28, one row: the grid is the 20 outputs themselves
  CHECK_FALSE(pays(16, 5, 4, 2));   // wp 32, grid 48 (3 vectors) against 32 outputs (2): 24 > 18
}

TEST_CASE("cpu Conv NCHW stride 1 on the AVX-512 GEMM: shifted rows of the padded input give the fma chain's bits") {
  if (!cpu_ref::sgemm_b_rows_available()) {
    MESSAGE("skipped: the AVX-512 GEMM does not run here (the bound every build meets: parallel_test.cc)");
    return;
  }
  // 2 images, 10 output channels (a 6-row block and a tail of 4): grid 20 x 19 - 2 = 378 columns
  // (24 vectors) against 340 outputs (22).
  SUBCASE("3x3, pads 1, 2 images") { check({2, 6, 10, 20, 17, 3, 3, 1, {1, 1, 1, 1}}); }
  // A 3 x 5 kernel, dilation 2 down, asymmetric pads, padding rows wholly outside at the bottom:
  // ow 29, grid 14 x 33 - 4 = 458 (29 vectors) against 406 (26).
  SUBCASE("3x5, dilation (2, 1), pads (0, 2, 2, 1)") { check({1, 4, 6, 16, 30, 3, 5, 1, {0, 2, 2, 1}, 2, 1}); }
  // 2 groups, each its own product on its own input channels: 310 (20) against 288 (18).
  SUBCASE("3x3, 2 groups") { check({1, 8, 12, 12, 24, 3, 3, 2, {1, 1, 1, 1}}); }
  // 18 M multiply-adds on 2 threads: two blocks of 20 output rows, each padding its own input
  // rows (838 columns, 53 vectors, against 800, 50).
  SUBCASE("3x3 on 40 x 40, rows split across threads") { check({1, 32, 40, 40, 40, 3, 3, 1, {1, 1, 1, 1}, 1, 1, false, 20}); }
  // A 7 x 7 output: 7 x 9 - 2 = 61 columns against 49, both 4 vectors; 128 channels split in
  // blocks on 2 threads.
  SUBCASE("3x3 on 7 x 7, channel blocks") { check({1, 24, 128, 7, 7, 3, 3, 1, {1, 1, 1, 1}}); }
  // A Relu folded into the Conv, applied as the GEMM stores the grid.
  SUBCASE("3x3 with a folded Relu") { check({1, 6, 10, 20, 17, 3, 3, 1, {1, 1, 1, 1}, 1, 1, true}); }
}
