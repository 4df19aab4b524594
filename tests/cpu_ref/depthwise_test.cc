// The NCHW depthwise convolution's vector kernels (depthwise.cc): the plane kernel (simd.h
// DepthwisePlane, on AVX-512 with stride 1 or 2 from register-aligned padded rows) and
// depthwise_lanes (kernels/depthwise_lanes.h, 16 channels across the lanes on small planes),
// against the rounding both document, written here as the ONNX Conv-11 tap loop: per output
// y = B[c], then for every tap (ky, kx) in that order y = y + x * w in float32 (a multiply, then
// an add; a tap in the padding reads 0), then the clamp min(max(y, lo), hi) with a NaN giving lo.
// Compared bit for bit (any NaN matching any NaN: which payload survives two NaN operands is not
// part of the rounding).
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/depthwise_lanes.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "nnbridge/graph.h"
#include "test_numbers.h"

using namespace nnbridge;
using nnbridge::test::numbers;

namespace {

bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }

// One depthwise geometry: C channels of h x w, a k x k kernel, stride s, dilation d, pads.
struct Geo {
  int64_t c, h, w, k, s, d, pt, pl, pb, pr;
  int64_t oh() const { return (h + pt + pb - d * (k - 1) - 1) / s + 1; }
  int64_t ow() const { return (w + pl + pr - d * (k - 1) - 1) / s + 1; }
};

// The tap loop over n images of C planes; w as [C][k][k].
std::vector<float> tap_loop(const Geo& g, int64_t n, const std::vector<float>& x, const std::vector<float>& w,
                            const std::vector<float>& b, bool clamp, float lo, float hi) {
  const int64_t oh = g.oh(), ow = g.ow();
  std::vector<float> y(static_cast<std::size_t>(n * g.c * oh * ow));
  for (int64_t q = 0; q < n * g.c; ++q) {
    const int64_t c = q % g.c;
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox) {
        float acc = b[static_cast<std::size_t>(c)];
        for (int64_t ky = 0; ky < g.k; ++ky)
          for (int64_t kx = 0; kx < g.k; ++kx) {
            const int64_t iy = oy * g.s - g.pt + ky * g.d, ix = ox * g.s - g.pl + kx * g.d;
            const float v = iy >= 0 && iy < g.h && ix >= 0 && ix < g.w ? x[static_cast<std::size_t>((q * g.h + iy) * g.w + ix)] : 0.0f;
            const float p = v * w[static_cast<std::size_t>((c * g.k + ky) * g.k + kx)];
            acc = acc + p;
          }
        if (clamp) {  // MAXPS(y, lo) is y > lo ? y : lo (NaN and -0 against +0 give lo), MINPS likewise
          acc = acc > lo ? acc : lo;
          acc = acc < hi ? acc : hi;
        }
        y[static_cast<std::size_t>((q * oh + oy) * ow + ox)] = acc;
      }
  }
  return y;
}

// Values of [-4, 4]; with `specials`, every 29th input NaN, +inf, -0 or -inf; one weight +inf
// (0 * inf in the padding is NaN).
struct Operands {
  std::vector<float> x, w, b;
};
Operands operands(const Geo& g, int64_t n, bool specials) {
  Operands o{numbers(static_cast<std::size_t>(n * g.c * g.h * g.w), 31, specials ? 29 : 0),
             numbers(static_cast<std::size_t>(g.c * g.k * g.k), 32), numbers(static_cast<std::size_t>(g.c), 33)};
  if (specials) o.w[static_cast<std::size_t>(g.k * g.k + 1)] = INFINITY;  // channel 1, tap (0, 1)
  return o;
}

int mismatches(const std::vector<float>& y, const std::vector<float>& e) {
  int bad = 0;
  for (std::size_t i = 0; i < e.size(); ++i) bad += !same(y[i], e[i]);
  return bad;
}

const std::vector<Geo> kGeos = {
    {16, 7, 7, 3, 1, 1, 1, 1, 1, 1},    // mobilenet_v2's 7 x 7
    {16, 7, 7, 5, 1, 1, 2, 2, 2, 2},    // mnasnet0_5's 7 x 7, 5 x 5
    {16, 14, 14, 5, 2, 1, 2, 2, 2, 2},  // 14 -> 7, stride 2
    {16, 14, 14, 3, 1, 1, 1, 1, 1, 1},
    {16, 28, 28, 5, 1, 1, 2, 2, 2, 2},  // past one register of positions per row
    {16, 15, 13, 3, 2, 1, 0, 1, 1, 0},  // odd sizes, stride 2, pads on one side each
    {16, 9, 11, 3, 1, 2, 2, 1, 2, 3},   // dilation 2, asymmetric pads
    {16, 8, 8, 3, 1, 1, 0, 0, 0, 0},    // no padding
    {16, 9, 1, 3, 1, 1, 1, 1, 1, 1},    // one column
    {16, 6, 5, 3, 1, 1, 3, 3, 3, 3},    // pads past the kernel's reach (whole padding rows)
};

}  // namespace

TEST_CASE("cpu depthwise_lanes: 16 channels across the lanes give the tap loop's bits") {
  if (!cpu_ref::depthwise_lanes_available()) {
    MESSAGE("skipped: depthwise_lanes needs the AVX-512 build of sgemm, not chosen on this CPU");
    return;
  }
  for (const Geo& g : kGeos)
    for (const int64_t channels : {int64_t{16}, int64_t{5}, int64_t{1}})
      for (const int clamp : {0, 1, 2})
        for (const bool specials : {false, true}) {
          CAPTURE(g.h);
          CAPTURE(g.w);
          CAPTURE(g.k);
          CAPTURE(g.s);
          CAPTURE(channels);
          CAPTURE(clamp);
          CAPTURE(specials);
          const Operands o = operands(g, 1, specials);
          const float lo = clamp == 1 ? 0.0f : -1.5f, hi = clamp == 1 ? 6.0f : 2.25f;
          const std::vector<float> e = tap_loop(g, 1, o.x, o.w, o.b, clamp > 0, lo, hi);
          const int64_t plane = g.oh() * g.ow();
          const std::vector<float> packed = cpu_ref::pack_depthwise_lanes(o.w.data(), g.c, g.k * g.k);
          std::vector<float> y(static_cast<std::size_t>(16 * plane), 77.0f);  // 77: not written
          cpu_ref::DepthwiseLanesArgs a;
          a.x = o.x.data(), a.y = y.data(), a.channels = channels;
          a.h = g.h, a.w = g.w, a.oh = g.oh(), a.ow = g.ow(), a.kh = g.k, a.kw = g.k, a.sh = g.s, a.sw = g.s, a.dh = g.d,
          a.dw = g.d, a.pt = g.pt, a.pl = g.pl;
          a.weights = packed.data(), a.bias = o.b.data();
          a.clamp = clamp > 0, a.lo = lo, a.hi = hi;
          cpu_ref::depthwise_lanes(a);
          const std::size_t written = static_cast<std::size_t>(channels * plane);
          CHECK(mismatches(std::vector<float>(y.begin(), y.begin() + written), std::vector<float>(e.begin(), e.begin() + written)) == 0);
          CHECK(std::all_of(y.begin() + written, y.end(), [](float v) { return v == 77.0f; }));
        }
}

TEST_CASE("cpu depthwise_lanes_pays: small outputs, 5 x 5 up to 28 wide at stride 1, a bounded padded buffer") {
  // (ow, sw, taps, hp * wp): mobilenet_v2's 7 x 7 and 14 -> 7, mnasnet0_5's 28 x 28 5 x 5; not
  // 56 x 56, 28 x 28 3 x 3, 28 x 28 5 x 5 at stride 2, nor a 3 x 3 kernel dilated by 40 on a
  // 90 x 90 plane (10 x 10 outputs, 8100 padded positions: 518 KiB a thread).
  CHECK(cpu_ref::depthwise_lanes_pays(7, 1, 9, 9 * 9));
  CHECK(cpu_ref::depthwise_lanes_pays(7, 2, 25, 17 * 17));
  CHECK(cpu_ref::depthwise_lanes_pays(28, 1, 25, 32 * 32));
  CHECK_FALSE(cpu_ref::depthwise_lanes_pays(56, 1, 9, 58 * 58));
  CHECK_FALSE(cpu_ref::depthwise_lanes_pays(28, 1, 9, 30 * 30));
  CHECK_FALSE(cpu_ref::depthwise_lanes_pays(28, 2, 25, 59 * 59));
  CHECK(cpu_ref::depthwise_lanes_pays(10, 1, 9, 40 * 40));
  CHECK_FALSE(cpu_ref::depthwise_lanes_pays(10, 1, 9, 90 * 90));
}

TEST_CASE("cpu depthwise_lanes: refuses 0 or more than 16 channels and empty outputs") {
  if (!cpu_ref::depthwise_lanes_available()) return;
  cpu_ref::DepthwiseLanesArgs a;
  a.h = a.w = a.oh = a.ow = a.kh = a.kw = 1;
  a.channels = 17;
  CHECK_THROWS_AS(cpu_ref::depthwise_lanes(a), Error);
  a.channels = 0;
  CHECK_THROWS_AS(cpu_ref::depthwise_lanes(a), Error);
  a.channels = 1, a.ow = 0;
  CHECK_THROWS_AS(cpu_ref::depthwise_lanes(a), Error);
}

TEST_CASE("cpu pack_depthwise_lanes: blocks of [taps][16], channel o at lane o % 16, 0 past c") {
  const std::vector<float> w = numbers(20 * 9, 5);
  const std::vector<float> p = cpu_ref::pack_depthwise_lanes(w.data(), 20, 9);
  REQUIRE(p.size() == 2 * 9 * 16);
  for (int64_t o = 0; o < 32; ++o)
    for (int64_t t = 0; t < 9; ++t) {
      const float got = p[static_cast<std::size_t>(((o / 16) * 9 + t) * 16 + o % 16)];
      CHECK(std::bit_cast<uint32_t>(got) == std::bit_cast<uint32_t>(o < 20 ? w[static_cast<std::size_t>(o * 9 + t)] : 0.0f));
    }
}

namespace {

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }
Buffer bytes(const std::vector<float>& v) { return Buffer::copy_of(std::as_bytes(std::span<const float>(v))); }

// Conv (group = C, W [C, 1, k, k], B) on x [n, C, h, w], then a Relu when asked; output "y".
Graph depthwise_graph(const Geo& g, int64_t n, const Operands& o, bool relu) {
  Graph gr;
  const ValueId x = gr.add_value(Value{"x", f32({n, g.c, g.h, g.w}), std::nullopt, {}});
  gr.inputs.push_back(x);
  const ValueId w = gr.add_value(Value{"w", f32({g.c, 1, g.k, g.k}), bytes(o.w), {}});
  const ValueId b = gr.add_value(Value{"b", f32({g.c}), bytes(o.b), {}});
  const ValueId conv = gr.add_value(Value{relu ? "conv" : "y", f32({n, g.c, g.oh(), g.ow()}), std::nullopt, {}});
  gr.add_node(Node{"Conv", "conv", {x, w, b}, {conv},
                   {{"kernel_shape", Attr(std::vector<int64_t>{g.k, g.k})},
                    {"pads", Attr(std::vector<int64_t>{g.pt, g.pl, g.pb, g.pr})},
                    {"strides", Attr(std::vector<int64_t>{g.s, g.s})},
                    {"dilations", Attr(std::vector<int64_t>{g.d, g.d})},
                    {"group", Attr(g.c)}}});
  ValueId out = conv;
  if (relu) {
    out = gr.add_value(Value{"y", f32({n, g.c, g.oh(), g.ow()}), std::nullopt, {}});
    gr.add_node(Node{"Relu", "relu", {conv}, {out}, {}});
  }
  gr.outputs.push_back(out);
  return gr;
}

std::vector<float> run(const Graph& g, const std::vector<float>& x, int threads) {
  BackendOptions opt;
  opt.threads = threads;
  const TensorMap out =
      find_backend("cpu")->prepare(g, opt)->run({{"x", HostTensor::from_values<float>(g.values[g.inputs[0]].type, x)}});
  const auto y = out.at("y").values<float>();
  return std::vector<float>(y.begin(), y.end());
}

}  // namespace

TEST_CASE("cpu parallel: depthwise NCHW strides 1 and 2 give the bits of the tap loop, with a folded Relu") {
  // Every path depthwise.cc picks for NCHW at strides 1 and 2, on 1, 2 and 3 threads, with inputs
  // holding NaN, +-inf and -0 and an infinite weight (0 * inf in the padding is NaN). Stride 2:
  // widths about 16, 32 and 48 columns, kernels 3, 5 and 7, every left pad from 0 to 3, planes
  // tall enough for bands of rows. Stride 1 (on AVX-512 each padded row loaded once, its taps
  // shifted out of aligned registers, 3 x 3 and 5 x 5): widths from 15 (one register) to 113
  // (past four), heights leaving 1 to 3 rows after blocks of 4 and 7 after blocks of 8, pads 0
  // to 2. Outputs up to 14 wide, and 5 x 5 ones up to 28 at stride 1, take depthwise_lanes; of
  // two 3 x 3 kernels dilated by 15 and 40 (10 x 10 outputs), the second's padded buffer is past
  // its bound (depthwise_lanes_pays) and takes the plane kernel.
  cpu_ref::register_backend();
  const std::vector<Geo> cases = {
      // c, h, w, k, s, d, pt, pl, pb, pr
      {5, 9, 16, 3, 2, 1, 1, 1, 1, 1},   {5, 7, 33, 3, 2, 1, 0, 0, 1, 1},    {5, 8, 47, 5, 2, 1, 2, 2, 2, 2},
      {5, 6, 48, 7, 2, 1, 3, 3, 3, 3},   {5, 6, 49, 5, 2, 1, 1, 2, 0, 1},    {5, 5, 97, 3, 2, 1, 1, 3, 1, 0},
      {5, 112, 112, 3, 2, 1, 1, 1, 1, 1}, {5, 61, 30, 5, 2, 1, 2, 1, 2, 2},  {5, 9, 15, 3, 1, 1, 1, 1, 1, 1},
      {5, 6, 17, 3, 1, 1, 1, 1, 1, 1},   {5, 7, 33, 3, 1, 1, 0, 0, 0, 0},    {5, 10, 48, 3, 1, 1, 1, 1, 1, 1},
      {5, 5, 56, 3, 1, 1, 1, 1, 1, 1},   {5, 11, 64, 3, 1, 1, 1, 1, 1, 1},   {5, 3, 113, 3, 1, 1, 1, 1, 1, 1},
      {5, 7, 40, 5, 1, 1, 2, 2, 2, 2},   {5, 9, 57, 5, 1, 1, 2, 2, 2, 2},    {5, 6, 29, 5, 1, 1, 0, 0, 0, 0},
      {5, 60, 30, 3, 1, 1, 1, 1, 1, 1},  {5, 61, 33, 5, 1, 1, 2, 2, 2, 2},   {5, 4, 20, 5, 1, 1, 1, 1, 1, 1},
      {5, 40, 40, 3, 1, 15, 0, 0, 0, 0}, {5, 90, 90, 3, 1, 40, 0, 0, 0, 0},  // dilated: 10 x 10 outputs
  };
  for (const Geo& g : cases)
    for (const bool relu : {false, true}) {
      CAPTURE(g.h);
      CAPTURE(g.w);
      CAPTURE(g.k);
      CAPTURE(g.s);
      CAPTURE(relu);
      const Operands o = operands(g, 1, true);
      const std::vector<float> e = tap_loop(g, 1, o.x, o.w, o.b, relu, 0.0f, INFINITY);
      const Graph gr = depthwise_graph(g, 1, o, relu);
      for (const int threads : {1, 2, 3}) {
        CAPTURE(threads);
        CHECK(mismatches(run(gr, o.x, threads), e) == 0);
      }
    }
}

TEST_CASE("cpu depthwise Conv on small NCHW planes: groups of 16 channels, images, a folded Relu, 1 to 3 threads") {
  // Channel counts that leave a partial group (40 = 16 + 16 + 8, 33, 17), two images, with and
  // without a Relu folded into the kernel's clamp; the bits of the tap loop (then std::max(0, y)).
  cpu_ref::register_backend();
  const std::vector<std::pair<Geo, int64_t>> cases = {
      {{40, 7, 7, 3, 1, 1, 1, 1, 1, 1}, 2},
      {{33, 14, 14, 5, 2, 1, 2, 2, 2, 2}, 1},
      {{17, 28, 28, 5, 1, 1, 2, 2, 2, 2}, 1},
      {{18, 9, 11, 3, 1, 2, 2, 1, 2, 3}, 2},
  };
  for (const auto& gn : cases)
    for (const bool relu : {false, true})
      for (const int threads : {1, 2, 3}) {
        const Geo& g = gn.first;
        const int64_t n = gn.second;
        CAPTURE(g.c);
        CAPTURE(g.h);
        CAPTURE(relu);
        CAPTURE(threads);
        const Operands o = operands(g, n, true);
        std::vector<float> e = tap_loop(g, n, o.x, o.w, o.b, relu, 0.0f, INFINITY);
        CHECK(mismatches(run(depthwise_graph(g, n, o, relu), o.x, threads), e) == 0);
      }
}

TEST_CASE("cpu depthwise Conv on small NCHW planes: a plane of another height with the same padded size reads its own padding") {
  // 7 rows with a bottom pad and 8 rows without give the same 9 x 9 padded buffer: the kernel
  // keeps a thread's buffer padding between calls of one geometry, so the 8-row plane's last row
  // must not be read as the 7-row plane's padding afterwards.
  cpu_ref::register_backend();
  const Geo a{16, 7, 7, 3, 1, 1, 1, 1, 1, 1}, b{16, 8, 7, 3, 1, 1, 1, 1, 0, 1};
  REQUIRE(a.oh() == b.oh());
  const Operands oa = operands(a, 1, false), ob = operands(b, 1, false);
  const Graph ga = depthwise_graph(a, 1, oa, false), gb = depthwise_graph(b, 1, ob, false);
  const std::vector<float> ea = tap_loop(a, 1, oa.x, oa.w, oa.b, false, 0, 0), eb = tap_loop(b, 1, ob.x, ob.w, ob.b, false, 0, 0);
  CHECK(mismatches(run(gb, ob.x, 1), eb) == 0);
  CHECK(mismatches(run(ga, oa.x, 1), ea) == 0);
  CHECK(mismatches(run(gb, ob.x, 1), eb) == 0);
}
