// Oracle: ONNX Conv-11 with the rounding the cpu backend documents for NCHW convolutions on its
// AVX-512 GEMM (sgemm_nn.h, docs/api.md): per output, acc = std::fma(W, X, acc) over the taps
// (ci, ky, kx) in that order from 0, a tap in the padding reading 0, then + B[o], then a folded
// Relu as std::max(0, y); with a residual Add folded in (backend.cc), + R[o][p] between the bias and
// the Relu (the Add node's own float addition). NCHW convolutions read their patches as shifted rows of a padded input,
// split into the phases of the strides, instead of an im2col matrix (conv.cc, im2col.h); with
// constant W in one group and K = C * kh * kw >= 256 they multiply with the channels across the
// vector lanes instead (indirect.h). The cases say which path they take (each comment gives the
// grid against the outputs, or the channel strips) and must give exactly those bits, on 1 and 2
// threads.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>

#include "kernels/im2col.h"
#include "kernels/conv.h"
#include "sgemm/indirect.h"
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
  int64_t sh = 1, sw = 1;
  std::vector<int> threads{1, 2};
  bool indirect = false;  // the case takes the channels-across-lanes product (indirect.h)
  int residual = 0;       // 1: the Conv's output goes to Add(y, R), 2: to Add(R, y); R a graph input
};

void check(const Case& t) {
  const int64_t oh = (t.h + t.pads[0] + t.pads[2] - t.dh * (t.kh - 1) - 1) / t.sh + 1;
  const int64_t ow = (t.w + t.pads[1] + t.pads[3] - t.dw * (t.kw - 1) - 1) / t.sw + 1;
  const int64_t cg = t.c / t.group, mg = t.m / t.group;
  // The case is one the path it names takes (conv.cc): the channels-across-lanes product, or the
  // shifted rows in the blocks of rows conv.cc makes of it (otherwise it would test the im2col
  // path, which gives the same bits).
  cpu_ref::ConvGeom geom{};
  geom.n = t.n, geom.c = t.c, geom.h = t.h, geom.w = t.w, geom.m = t.m, geom.oh = oh, geom.ow = ow;
  geom.kh = t.kh, geom.kw = t.kw, geom.sh = t.sh, geom.sw = t.sw, geom.dh = t.dh, geom.dw = t.dw;
  geom.pt = t.pads[0], geom.pl = t.pads[1], geom.group = t.group;
  REQUIRE(cpu_ref::indirect_pays(geom) == t.indirect);
  if (!t.indirect) REQUIRE(cpu_ref::shifted_grid_pays(geom, t.block_rows ? t.block_rows : oh));
  const auto x = numbers(static_cast<std::size_t>(t.n * t.c * t.h * t.w), 1);
  const auto w = numbers(static_cast<std::size_t>(t.m * cg * t.kh * t.kw), 2);
  const auto b = numbers(static_cast<std::size_t>(t.m), 3);
  const auto r = numbers(static_cast<std::size_t>(t.n * t.m * oh * ow), 4);
  std::vector<float> want(static_cast<std::size_t>(t.n * t.m * oh * ow));
  for (int64_t n = 0; n < t.n; ++n)
    for (int64_t o = 0; o < t.m; ++o)
      for (int64_t oy = 0; oy < oh; ++oy)
        for (int64_t ox = 0; ox < ow; ++ox) {
          float acc = 0.0f;
          for (int64_t ci = 0; ci < cg; ++ci)
            for (int64_t ky = 0; ky < t.kh; ++ky)
              for (int64_t kx = 0; kx < t.kw; ++kx) {
                const int64_t iy = oy * t.sh - t.pads[0] + ky * t.dh, ix = ox * t.sw - t.pads[1] + kx * t.dw;
                const int64_t c = (o / mg) * cg + ci;
                const float xv = iy >= 0 && iy < t.h && ix >= 0 && ix < t.w ? x[static_cast<std::size_t>(((n * t.c + c) * t.h + iy) * t.w + ix)] : 0.0f;
                acc = std::fma(w[static_cast<std::size_t>(((o * cg + ci) * t.kh + ky) * t.kw + kx)], xv, acc);
              }
          const std::size_t at = static_cast<std::size_t>(((n * t.m + o) * oh + oy) * ow + ox);
          float y = acc + b[static_cast<std::size_t>(o)];
          if (t.residual) y = y + r[at];
          if (t.relu) y = std::max(0.0f, y);
          want[at] = y;
        }
  REQUIRE(std::count_if(want.begin(), want.end(), [](float v) { return v > 0; }) > 0);
  if (t.relu) REQUIRE(std::count(want.begin(), want.end(), 0.0f) > 0);

  Graph g = OneNode("Conv", {{"kernel_shape", Attr(std::vector<int64_t>{t.kh, t.kw})},
                             {"pads", Attr(t.pads)},
                             {"dilations", Attr(std::vector<int64_t>{t.dh, t.dw})},
                             {"strides", Attr(std::vector<int64_t>{t.sh, t.sw})},
                             {"group", Attr(t.group)}})
                .in(f32({t.n, t.c, t.h, t.w}))
                .constant(f32({t.m, cg, t.kh, t.kw}), w)
                .constant(f32({t.m}), b)
                .done(f32({t.n, t.m, oh, ow}));
  if (t.residual) {  // y0 becomes the Conv's output, read by an Add with graph input R
    const ValueId conv = g.outputs[0];
    const ValueId rv = g.add_value(Value{"r", f32({t.n, t.m, oh, ow}), std::nullopt, {}});
    g.inputs.push_back(rv);
    const ValueId y = g.add_value(Value{"add_y", f32({t.n, t.m, oh, ow}), std::nullopt, {}});
    g.add_node(Node{"Add", "add", t.residual == 1 ? std::vector<ValueId>{conv, rv} : std::vector<ValueId>{rv, conv}, {y}, {}});
    g.outputs = {y};
  }
  if (t.relu) {  // the last output becomes the Relu's input; the Relu writes the graph output
    const ValueId before = g.outputs[0];
    const ValueId y = g.add_value(Value{"relu_y", f32({t.n, t.m, oh, ow}), std::nullopt, {}});
    g.add_node(Node{"Relu", "relu", {before}, {y}, {}});
    g.outputs = {y};
  }
  cpu_ref::register_backend();
  for (int threads : t.threads) {
    CAPTURE(threads);
    BackendOptions opt;
    opt.threads = threads;
    const auto plan = find_backend("cpu")->prepare(g, opt);
    for (const NodePlacement& p : plan->placement())
      CHECK(p.fused_into == (p.name == "n" ? "" : "n"));  // the Add and the Relu run as the Conv's epilogue
    TensorMap in{{"x0", HostTensor::from_values<float>(f32({t.n, t.c, t.h, t.w}), x)}};
    if (t.residual) in.emplace("r", HostTensor::from_values<float>(f32({t.n, t.m, oh, ow}), r));
    const TensorMap out = plan->run(in);
    const auto got = out.at(t.relu ? "relu_y" : t.residual ? "add_y" : "y0").values<float>();
    REQUIRE(got.size() == want.size());
    int64_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i) wrong += std::bit_cast<uint32_t>(got[i]) != std::bit_cast<uint32_t>(want[i]);
    CHECK(wrong == 0);
  }
}

}  // namespace

TEST_CASE("cpu Conv NCHW: which convolutions put channels across the lanes (indirect_pays)") {
  // By hand: one group, K = C kh kw >= 256; a direct 1x1 one only where 16 ceil(P / 16) lanes
  // hold P outputs at less than 90%, from K = 96.
  auto pays = [](int64_t c, int64_t hw, int64_t k, int64_t stride, int64_t group = 1) {
    cpu_ref::ConvGeom g{};
    const int64_t pad = k / 2, o = (hw + 2 * pad - k) / stride + 1;
    g.n = 1, g.c = c, g.h = hw, g.w = hw, g.m = 64, g.oh = o, g.ow = o, g.kh = k, g.kw = k, g.sh = stride, g.sw = stride;
    g.dh = g.dw = 1, g.pt = g.pl = pad, g.group = group;
    return cpu_ref::indirect_pays(g);
  };
  CHECK(pays(29, 14, 3, 1));         // K = 261
  CHECK_FALSE(pays(28, 14, 3, 1));   // K = 252
  CHECK_FALSE(pays(64, 14, 3, 1, 2));  // two groups
  CHECK(pays(256, 7, 1, 1));         // direct, 49 of 64 lanes
  CHECK(pays(96, 7, 1, 1));          // direct on 7 x 7 from K = 96
  CHECK_FALSE(pays(95, 7, 1, 1));
  CHECK_FALSE(pays(96, 14, 1, 2));   // 1x1 stride 2 (not direct): K = 96 < 256
  CHECK_FALSE(pays(256, 14, 1, 1));  // direct, 196 of 208
  CHECK_FALSE(pays(256, 13, 1, 1));  // direct, 169 of 176
  CHECK(pays(256, 14, 1, 2));        // 1x1 stride 2: not direct (a staged copy), K = 256
  CHECK(pays(256, 3, 1, 1));         // direct, 9 of 16 lanes
  CHECK_FALSE(pays(256, 4, 1, 1));   // direct, 16 of 16
}

TEST_CASE("cpu Conv NCHW: which blocks of output rows read shifted rows (shifted_grid_pays)") {
  // By hand: wp = ow + (kw - 1) dw / sw columns per row; the grid drops the last row's wp - ow.
  auto pays = [](int64_t ow, int64_t kw, int64_t dw, int64_t rows, int64_t sw = 1) {
    cpu_ref::ConvGeom g{};
    g.ow = ow, g.kw = kw, g.dw = dw, g.sw = sw;
    return cpu_ref::shifted_grid_pays(g, rows);
  };
  CHECK(pays(7, 3, 1, 7));       // 7 x 9 - 2 = 61 columns, 4 vectors; 49 outputs, 4 vectors
  CHECK_FALSE(pays(13, 3, 1, 13));  // 193 columns, 13 vectors; 169 outputs, 11: 104 > 99
  CHECK(pays(56, 3, 1, 10));     // 578 columns, 37 vectors; 560 outputs, 35: 296 <= 315
  CHECK_FALSE(pays(7, 3, 1, 1));    // 7 columns: fewer than 16
  CHECK(pays(20, 3, 4, 1));      // wp 28, one row: the grid is the 20 outputs themselves
  CHECK_FALSE(pays(16, 5, 4, 2));   // wp 32, grid 48 (3 vectors) against 32 outputs (2): 24 > 18
  CHECK(pays(28, 3, 1, 28, 2));  // stride 2: wp 29, 811 columns (51 vectors) against 784 (49)
  CHECK(pays(7, 3, 1, 7, 2));    // wp 8, 55 columns against 49, both 4 vectors
  CHECK_FALSE(pays(20, 7, 1, 20, 2));  // wp 23, 457 columns (29 vectors) against 400 (25): 232 > 225
  CHECK(pays(32, 7, 1, 32, 2));  // wp 35, 1117 columns (70 vectors) against 1024 (64)
}

TEST_CASE("cpu Conv NCHW on the AVX-512 GEMM: shifted rows of the padded input give the fma chain's bits") {
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
  // 9.2 M multiply-adds on 2 threads: two blocks of 20 output rows, each padding its own input
  // rows (838 columns, 53 vectors, against 800, 50).
  SUBCASE("3x3 on 40 x 40, rows split across threads") { check({1, 16, 40, 40, 40, 3, 3, 1, {1, 1, 1, 1}, 1, 1, false, 20}); }
  // The same with a residual Add and a Relu folded in: each block adds its own rows of R, on 1,
  // 2 and 3 threads (fails when a block reads R at the wrong offset).
  SUBCASE("3x3 on 40 x 40, residual Add and Relu, rows split across threads") {
    Case t{1, 16, 40, 40, 40, 3, 3, 1, {1, 1, 1, 1}, 1, 1, true, 20};
    t.residual = 1;
    t.threads = {1, 2, 3};
    check(t);
  }
  // R the Add's first operand, 2 images, 2 groups, no Relu after.
  SUBCASE("3x3, 2 groups, 2 images, residual Add (R first)") {
    Case t{2, 8, 12, 12, 24, 3, 3, 2, {1, 1, 1, 1}};
    t.residual = 2;
    check(t);
  }
  // A 7 x 7 output: 7 x 9 - 2 = 61 columns against 49, both 4 vectors; 128 channels split in
  // blocks on 2 threads.
  SUBCASE("3x3 on 7 x 7, channel blocks") { check({1, 24, 128, 7, 7, 3, 3, 1, {1, 1, 1, 1}}); }
  // A Relu folded into the Conv, applied as the GEMM stores the grid.
  SUBCASE("3x3 with a folded Relu") { check({1, 6, 10, 20, 17, 3, 3, 1, {1, 1, 1, 1}, 1, 1, true}); }
  // Strides: the padded input split into its phases (by, bx) = (tap offset) mod stride.
  // 3x3 stride 2, pads 1, 56 x 56 -> 28 x 28: four phases, wp 29, 811 columns (51 vectors)
  // against 784 (49); on 2 threads blocks of 14 rows, 405 columns (26) against 392 (25).
  SUBCASE("3x3 stride 2") { check({1, 16, 20, 56, 56, 3, 3, 1, {1, 1, 1, 1}, 1, 1, false, 14, 2, 2}); }
  // 7x7 stride 2, pads 3, 3 input channels (a network's first layer), 64 x 64 -> 32 x 32: wp 35,
  // 1117 columns (70 vectors) against 1024 (64); on 2 threads two blocks of 16 rows, 557 columns
  // (35 vectors) against 512 (32).
  SUBCASE("7x7 stride 2, 3 channels") { check({1, 3, 8, 64, 64, 7, 7, 1, {3, 3, 3, 3}, 1, 1, false, 16, 2, 2}); }
  // 1x1 stride 2, no padding (a downsampling shortcut): one phase, wp = ow = 20, 400 columns.
  SUBCASE("1x1 stride 2") { check({1, 12, 20, 40, 40, 1, 1, 1, {0, 0, 0, 0}, 1, 1, false, 0, 2, 2}); }
  SUBCASE("1x1 stride 2, residual Add and Relu") {
    Case t{1, 12, 20, 40, 40, 1, 1, 1, {0, 0, 0, 0}, 1, 1, true, 0, 2, 2};
    t.residual = 1;
    check(t);
  }
  // Strides (3, 2), dilations (2, 1), pads (1, 0, 2, 1), 30 x 41 -> 10 x 20: tap rows 0, 2, 4
  // fall in phases 0, 2, 1 of 3; wp 21, 209 columns (14 vectors) against 200 (13).
  SUBCASE("3x3 strides (3, 2), dilations (2, 1)") { check({2, 4, 6, 30, 41, 3, 3, 1, {1, 0, 2, 1}, 2, 1, false, 0, 3, 2}); }
  // Threads 3, 4 and 7 on 7- and 13-wide planes (over 2^20 multiply-adds, so the rows are split):
  // evenly, into blocks of at least 16 outputs (7 rows: 3 and 4; 13 rows: 3, 3, 3, 4 or 2, 2, 3,
  // 3, 3), each on sgemm's own kernel; a block of one 7- or 13-wide row went to Eigen's GEMM and
  // changed the bits. K = 1080 and 216 (2 groups; K < 256): not the channels-across-lanes product.
  SUBCASE("3x3 on 7 x 7, 2 groups, threads 3, 4, 7") {
    Case t{1, 240, 40, 7, 7, 3, 3, 2, {1, 1, 1, 1}};
    t.block_rows = 3;
    t.threads = {1, 3, 4, 7};
    check(t);
  }
  SUBCASE("3x3 on 13 x 13, threads 4, 7") {
    Case t{1, 24, 40, 13, 13, 3, 3, 1, {1, 1, 1, 1}};
    t.block_rows = 2;
    t.threads = {1, 4, 7};
    check(t);
  }
  // Stride 2 with dilation 2: every tap offset even, so one phase per dimension; 33 x 33 -> 17 x
  // 17, wp 19, 321 columns (21 vectors) against 289 (19).
  SUBCASE("3x3 stride 2, dilation 2") { check({1, 5, 7, 33, 33, 3, 3, 1, {2, 2, 2, 2}, 2, 2, false, 0, 2, 2}); }
  // 9.2 M multiply-adds on 2 threads: two blocks of 20 output rows, each staging its own rows
  // (819 columns, 52 vectors, against 800, 50).
  SUBCASE("3x3 stride 2, rows split across threads") { check({1, 16, 40, 80, 80, 3, 3, 1, {1, 1, 1, 1}, 1, 1, false, 20, 2, 2}); }
}

TEST_CASE("cpu Conv NCHW on the AVX-512 GEMM: channels across the lanes give the fma chain's bits") {
  if (!cpu_ref::indirect_available()) {
    MESSAGE("skipped: the AVX-512 GEMM does not run here (the bound every build meets: parallel_test.cc)");
    return;
  }
  Case t;
  t.indirect = true;
  // 3x3 on 7 x 7, K = 288: 80 channels are five strips of 16 (a group of four and one); on 2
  // threads channel blocks of 48 and 32 (the split rounded to whole strips); 49 positions are
  // eight tiles of 6 and one of 1. With a folded Relu.
  SUBCASE("3x3 on 7 x 7, channel blocks, Relu") {
    t = {1, 32, 80, 7, 7, 3, 3, 1, {1, 1, 1, 1}, 1, 1, true};
    t.indirect = true;
    check(t);
  }
  // The same with a residual Add before the Relu: R added to the sums as they are transposed into
  // Y's planes (the last chunk masked), per channel block on 2 and 3 threads.
  SUBCASE("3x3 on 7 x 7, channel blocks, residual Add and Relu") {
    t = {1, 32, 80, 7, 7, 3, 3, 1, {1, 1, 1, 1}, 1, 1, true};
    t.indirect = true;
    t.residual = 1;
    t.threads = {1, 2, 3};
    check(t);
  }
  // K = 240 x 9 = 2160: two blocks of 1080 whose partial sums wait between them; 20 channels (a
  // strip and 4 lanes of the next), stride 2, asymmetric pads.
  SUBCASE("3x3 stride 2, K past one block, 20 channels") {
    t = {1, 240, 20, 9, 9, 3, 3, 1, {1, 0, 1, 1}, 1, 1, false, 0, 2, 2};
    t.indirect = true;
    check(t);
  }
  // A direct 1x1 convolution (X read in place, tap k at plane k), K = 256, 33 channels, 2
  // images (one per thread on 2 threads), 7 x 7 outputs each (49 of 64 lanes: taken).
  SUBCASE("1x1 direct, 2 images") {
    t = {2, 256, 33, 7, 7, 1, 1, 1, {0, 0, 0, 0}};
    t.indirect = true;
    check(t);
  }
  // A residual Add (R first) with no activation after: 2 images, 33 channels (a partial strip).
  SUBCASE("1x1 direct, 2 images, residual Add (R first)") {
    t = {2, 256, 33, 7, 7, 1, 1, 1, {0, 0, 0, 0}};
    t.indirect = true;
    t.residual = 2;
    check(t);
  }
  // K past one block (partial sums wait between blocks) with R added only after the last.
  SUBCASE("3x3 stride 2, K past one block, residual Add") {
    t = {1, 240, 20, 9, 9, 3, 3, 1, {1, 0, 1, 1}, 1, 1, false, 0, 2, 2};
    t.indirect = true;
    t.residual = 1;
    check(t);
  }
  // A direct 1x1 convolution on 7 x 7 from K = 96 (kIndirectMinKDirect): 40 channels (two
  // strips and 8 lanes of a third).
  SUBCASE("1x1 direct, K = 96") {
    t = {1, 96, 40, 7, 7, 1, 1, 1, {0, 0, 0, 0}};
    t.indirect = true;
    check(t);
  }
  // A 5 x 3 kernel with dilations (2, 1) over 20 input channels (K = 300), 17 output channels.
  SUBCASE("5x3, dilations (2, 1)") {
    t = {1, 20, 17, 15, 12, 5, 3, 1, {2, 1, 2, 1}, 2, 1};
    t.indirect = true;
    check(t);
  }
}
