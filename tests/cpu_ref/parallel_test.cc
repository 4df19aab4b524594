// The CPU backend's threaded and vectorized paths against direct sums written from the ONNX
// definitions (Conv-11, Gemm-13, MatMul), on 1, 2 and 3 threads: NHWC im2col, 1x1 convolutions
// read in place, depthwise convolutions (NHWC and NCHW, strides, asymmetric padding), row- and
// column-split GEMMs, batched MatMul; a Relu or Clip folded into the Conv before it; planes split
// into bands of rows. Then the memory plan: tensors alive at the same time never
// share memory, and one plan runs many times, also from several threads at once.
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <functional>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "kernel.h"
#include "kernels/conv.h"
#include "memory_plan.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec/convert.h"
#include "sgemm/indirect.h"

using namespace nnbridge;

namespace {

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }

std::vector<float> data(std::size_t n, int seed) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i)
    v[i] = static_cast<float>(static_cast<int>((i * 2654435761u + static_cast<unsigned>(seed) * 97u) % 2001u) - 1000) / 1000.0f;
  return v;
}

Buffer bytes(const std::vector<float>& v) { return Buffer::copy_of(std::as_bytes(std::span<const float>(v))); }

// One node `op` with a graph input "x", constant inputs, output "y".
Graph one_node(const std::string& op, TensorType x, std::vector<std::pair<TensorType, std::vector<float>>> consts,
               TensorType y, AttrMap attrs) {
  Graph g;
  Node n{op, "n", {}, {}, std::move(attrs)};
  ValueId xi = g.add_value(Value{"x", std::move(x), std::nullopt, {}});
  g.inputs.push_back(xi);
  n.inputs.push_back(xi);
  for (std::size_t i = 0; i < consts.size(); ++i)
    n.inputs.push_back(g.add_value(Value{"c" + std::to_string(i), consts[i].first, bytes(consts[i].second), {}}));
  ValueId yi = g.add_value(Value{"y", std::move(y), std::nullopt, {}});
  n.outputs.push_back(yi);
  g.outputs.push_back(yi);
  g.add_node(std::move(n));
  return g;
}

// Runs `g` (graph input "x") on 1, 2 and 3 threads: output `out` must be `expect`, bit for bit.
void check_bits(const Graph& g, const std::vector<float>& x, const std::string& out, const std::vector<float>& expect) {
  cpu_ref::register_backend();
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    BackendOptions opt;
    opt.threads = threads;
    const TensorMap result = find_backend("cpu")->prepare(g, opt)->run({{"x", HostTensor::from_values<float>(g.values[g.inputs[0]].type, x)}});
    const auto y = result.at(out).values<float>();
    REQUIRE(y.size() == expect.size());
    CHECK(std::memcmp(y.data(), expect.data(), expect.size() * sizeof(float)) == 0);
  }
}

// Runs `g` on 1 and 3 threads and compares "y" with `expect`.
void check_threads(const Graph& g, const std::vector<float>& x, const std::vector<double>& expect) {
  cpu_ref::register_backend();
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    BackendOptions opt;
    opt.threads = threads;
    auto out = find_backend("cpu")->prepare(g, opt)->run({{"x", HostTensor::from_values<float>(g.values[g.inputs[0]].type, x)}});
    auto y = out.at("y").values<float>();
    REQUIRE(y.size() == expect.size());
    double worst = 0;
    for (std::size_t i = 0; i < y.size(); ++i) worst = std::max(worst, std::fabs(y[i] - expect[i]) / (1.0 + std::fabs(expect[i])));
    CHECK(worst < 1e-5);
  }
}

struct ConvCase {
  int64_t c, m, h, w, k, s, group;
  std::vector<int64_t> pads;  // top, left, bottom, right
  bool nhwc;
  int64_t d = 1;  // dilation, both axes
};

struct ConvSetup {
  Graph g;
  std::vector<float> x;
  std::vector<double> expect;
};

// Y = B + sum over (ci, ky, kx) of X * W (ONNX Conv-11), W as OIHW in the math, stored in the
// layout the case names; depthwise (group = C) with the Arm NN 20.08 MIHW layout [1, C, kh, kw].
ConvSetup conv_setup(const ConvCase& t) {
  const int64_t span = t.d * (t.k - 1) + 1;
  const int64_t oh = (t.h + t.pads[0] + t.pads[2] - span) / t.s + 1, ow = (t.w + t.pads[1] + t.pads[3] - span) / t.s + 1;
  const int64_t cg = t.c / t.group;
  const bool dw = t.group == t.c && t.group > 1;
  const auto x = data(static_cast<std::size_t>(t.c * t.h * t.w), 1), w = data(static_cast<std::size_t>(t.m * cg * t.k * t.k), 2),
             b = data(static_cast<std::size_t>(t.m), 3);
  // W[o][ci][ky][kx] in OIHW order; stored as OHWI for NHWC group convolutions.
  auto W = [&](int64_t o, int64_t ci, int64_t ky, int64_t kx) { return w[static_cast<std::size_t>(((o * cg + ci) * t.k + ky) * t.k + kx)]; };
  std::vector<float> stored(w.size());
  std::string layout = "OIHW";
  std::vector<int64_t> wshape{t.m, cg, t.k, t.k};
  if (dw) {
    layout = "MIHW", wshape = {1, t.c, t.k, t.k}, stored = w;  // [1][C][kh][kw] = OIHW with M = 1
  } else if (t.nhwc) {
    layout = "OHWI", wshape = {t.m, t.k, t.k, cg};
    for (int64_t o = 0; o < t.m; ++o)
      for (int64_t ci = 0; ci < cg; ++ci)
        for (int64_t ky = 0; ky < t.k; ++ky)
          for (int64_t kx = 0; kx < t.k; ++kx) stored[static_cast<std::size_t>(((o * t.k + ky) * t.k + kx) * cg + ci)] = W(o, ci, ky, kx);
  } else {
    stored = w;
  }
  auto X = [&](int64_t c, int64_t y, int64_t xx) {
    return t.nhwc ? x[static_cast<std::size_t>((y * t.w + xx) * t.c + c)] : x[static_cast<std::size_t>((c * t.h + y) * t.w + xx)];
  };
  std::vector<double> expect(static_cast<std::size_t>(t.m * oh * ow));
  const int64_t mg = t.m / t.group;
  for (int64_t o = 0; o < t.m; ++o)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xx = 0; xx < ow; ++xx) {
        double acc = b[o];
        for (int64_t ci = 0; ci < cg; ++ci)
          for (int64_t ky = 0; ky < t.k; ++ky)
            for (int64_t kx = 0; kx < t.k; ++kx) {
              const int64_t iy = y * t.s - t.pads[0] + ky * t.d, ix = xx * t.s - t.pads[1] + kx * t.d;
              if (iy < 0 || iy >= t.h || ix < 0 || ix >= t.w) continue;
              acc += double(X((o / mg) * cg + ci, iy, ix)) * W(o, ci, ky, kx);
            }
        expect[static_cast<std::size_t>(t.nhwc ? (y * ow + xx) * t.m + o : (o * oh + y) * ow + xx)] = acc;
      }
  const auto xs = t.nhwc ? std::vector<int64_t>{1, t.h, t.w, t.c} : std::vector<int64_t>{1, t.c, t.h, t.w};
  const auto ys = t.nhwc ? std::vector<int64_t>{1, oh, ow, t.m} : std::vector<int64_t>{1, t.m, oh, ow};
  Graph g = one_node("Conv", f32(xs), {{f32(wshape), stored}, {f32({t.m}), b}}, f32(ys),
                     {{"kernel_shape", Attr(std::vector<int64_t>{t.k, t.k})},
                      {"pads", Attr(t.pads)},
                      {"strides", Attr(std::vector<int64_t>{t.s, t.s})},
                      {"dilations", Attr(std::vector<int64_t>{t.d, t.d})},
                      {"group", Attr(t.group)},
                      {"kernel_layout", Attr(layout)},
                      {"data_layout", Attr(std::string(t.nhwc ? "NHWC" : "NCHW"))}});
  return {std::move(g), x, std::move(expect)};
}

void conv_case(const ConvCase& t) {
  const ConvSetup s = conv_setup(t);
  check_threads(s.g, s.x, s.expect);
}

}  // namespace

TEST_CASE("cpu parallel: NHWC convolution by im2col, and 1x1 convolutions read in place, split by rows or channels") {
  SUBCASE("3x3 stride 2, NHWC") { conv_case({16, 24, 40, 40, 3, 2, 1, {1, 1, 1, 1}, true}); }
  SUBCASE("1x1 stride 1, NHWC, in place") { conv_case({64, 64, 32, 32, 1, 1, 1, {0, 0, 0, 0}, true}); }
  SUBCASE("1x1 stride 1, NCHW, in place") { conv_case({64, 64, 32, 32, 1, 1, 1, {0, 0, 0, 0}, false}); }
  SUBCASE("3x3, 2 groups, NHWC") { conv_case({16, 32, 30, 30, 3, 1, 2, {1, 1, 1, 1}, true}); }
  // 7x7 pixels, 512 channels: split by output channels rather than rows.
  SUBCASE("1x1 on a small image, NHWC, channel blocks") { conv_case({256, 512, 7, 7, 1, 1, 1, {0, 0, 0, 0}, true}); }
  SUBCASE("1x1 on a small image, NCHW, channel blocks") { conv_case({256, 512, 7, 7, 1, 1, 1, {0, 0, 0, 0}, false}); }
  // 3x3 on 7x7 pixels (49 positions, 128 channels): channel blocks, each building its own patches.
  SUBCASE("3x3 on a small image, NCHW, channel blocks") { conv_case({24, 128, 7, 7, 3, 1, 1, {1, 1, 1, 1}, false}); }
  SUBCASE("3x3 stride 2 on a small image, NHWC, channel blocks") { conv_case({96, 160, 9, 9, 3, 2, 1, {1, 1, 1, 1}, true}); }
}

TEST_CASE("cpu plan: float32 weights at an odd address (an ONNX raw_data left in its file) are packed where they lie") {
  // W as a view one byte into its buffer, as the ONNX reader leaves raw_data: the values are
  // still the convolution's, and where the product packs W into channel strips (indirect.h) it
  // reads the bytes themselves, converting no float32 copy of them (FloatConstant's count).
  const ConvCase t{64, 64, 14, 14, 3, 1, 1, {1, 1, 1, 1}, false};
  ConvSetup s = conv_setup(t);
  Value& w = s.g.values[s.g.nodes[0].inputs[1]];
  auto bytes = std::make_shared<std::vector<std::byte>>(w.constant->size() + 1);
  std::memcpy(bytes->data() + 1, w.constant->data(), w.constant->size());
  w.constant = Buffer::view(bytes, std::span<const std::byte>(bytes->data() + 1, w.constant->size()));
  const std::size_t before = exec::FloatConstant::converted_elements();
  check_threads(s.g, s.x, s.expect);
  cpu_ref::ConvGeom g{1, t.c, t.h, t.w, t.m, t.h, t.w, 3, 3, 1, 1, 1, 1, 1, 1, 1, false, "OIHW", cpu_ref::WLayout::OIHW, {t.m, t.c, 3, 3}};
  if (!cpu_ref::indirect_available() || !cpu_ref::indirect_pays(g)) {
    MESSAGE("skipped the copy count: the channel-strip product does not run here");
    return;
  }
  CHECK(exec::FloatConstant::converted_elements() == before);
}

TEST_CASE("cpu parallel: im2col of strided, dilated and padded windows, taps wholly in the padding") {
  // Pads wider than the kernel (whole rows and columns of taps fall outside the image), stride 3,
  // dilation 2, odd sizes: every tap's input column range is worked out per kx (im2col.cc).
  SUBCASE("NCHW stride 3, pads 4") { conv_case({5, 7, 11, 13, 3, 3, 1, {4, 4, 4, 4}, false}); }
  SUBCASE("NCHW stride 2, dilation 2, asymmetric pads") { conv_case({6, 8, 15, 12, 3, 2, 1, {0, 3, 5, 1}, false, 2}); }
  SUBCASE("NCHW stride 1, dilation 3, 2 groups") { conv_case({4, 6, 9, 10, 3, 1, 2, {2, 2, 2, 2}, false, 3}); }
  SUBCASE("NHWC stride 3, dilation 2, pads 5") { conv_case({5, 7, 11, 13, 3, 3, 1, {5, 0, 5, 2}, true, 2}); }
  SUBCASE("NCHW 1 wide image, 5x5 kernel") { conv_case({3, 4, 9, 1, 5, 1, 1, {2, 2, 2, 2}, false}); }
}

TEST_CASE("cpu parallel: depthwise NCHW stride 2, every left pad parity, odd and even widths") {
  // The stride-2 padded copy sends even and odd input columns to two phases whose start depends
  // on pl's parity (depthwise.cc Padded::fill).
  for (int64_t pl : {0, 1, 2, 3})
    for (int64_t w : {9, 10, 31, 32}) {
      CAPTURE(pl);
      CAPTURE(w);
      conv_case({8, 8, 7, w, 3, 2, 8, {1, pl, 1, 3 - pl % 2}, false});
    }
  SUBCASE("dilation 2") { conv_case({8, 8, 12, 17, 3, 2, 8, {2, 1, 2, 2}, false, 2}); }
}

TEST_CASE("cpu parallel: depthwise convolution, NHWC and NCHW, strides 1 and 2, asymmetric padding") {
  SUBCASE("NHWC stride 1") { conv_case({32, 32, 40, 40, 3, 1, 32, {1, 1, 1, 1}, true}); }
  SUBCASE("NHWC stride 2, pad bottom/right only") { conv_case({48, 48, 41, 41, 3, 2, 48, {0, 0, 1, 1}, true}); }
  SUBCASE("NCHW stride 1") { conv_case({32, 32, 40, 40, 3, 1, 32, {1, 1, 1, 1}, false}); }
  SUBCASE("NCHW stride 2") { conv_case({24, 24, 41, 41, 5, 2, 24, {2, 1, 2, 2}, false}); }
}

TEST_CASE("cpu parallel: depthwise NCHW on planes tall enough to split into bands of rows") {
  // From 14 output rows per thread the planes are split by rows (padded_plane.h plane_bands): each
  // band copies the input rows its windows read. The values are the direct sums, and the bits
  // those of one thread (every output is the same taps in the same order, whichever band has it).
  const std::vector<ConvCase> cases = {
      {24, 24, 90, 20, 3, 1, 24, {1, 1, 1, 1}, false},      // stride 1
      {24, 24, 181, 41, 5, 2, 24, {2, 1, 2, 2}, false},     // stride 2, 5 x 5
      {24, 24, 100, 17, 3, 1, 24, {4, 2, 3, 2}, false, 2},  // dilation 2, pads past the kernel
      {24, 24, 96, 19, 3, 2, 24, {0, 1, 1, 0}, false},      // no top padding, bottom only
  };
  for (const ConvCase& t : cases) {
    CAPTURE(t.h);
    const ConvSetup s = conv_setup(t);
    check_threads(s.g, s.x, s.expect);
    std::vector<std::vector<float>> ys;
    for (int threads : {1, 2, 3}) {
      BackendOptions opt;
      opt.threads = threads;
      auto out = find_backend("cpu")->prepare(s.g, opt)->run({{"x", HostTensor::from_values<float>(s.g.values[s.g.inputs[0]].type, s.x)}});
      const auto y = out.at("y").values<float>();
      ys.emplace_back(y.begin(), y.end());
    }
    CHECK(std::memcmp(ys[0].data(), ys[1].data(), ys[0].size() * sizeof(float)) == 0);
    CHECK(std::memcmp(ys[0].data(), ys[2].data(), ys[0].size() * sizeof(float)) == 0);
  }
}

namespace {

// The conv setup with its output renamed "v" and read by `act` (Relu, or Clip with constant
// min / max) whose output is "y". extra 1: v is a graph output as well; extra 2: v is also read by
// a Neg node (output "z"). Expected y: ONNX Relu-14 max(0, v), Clip-13 min(max, max(min, v)).
ConvSetup with_activation(ConvSetup s, const std::string& act, float lo, float hi, int extra) {
  Graph& g = s.g;
  const ValueId v = g.outputs[0];
  g.values[v].name = "v";
  g.outputs.clear();
  const ValueId y = g.add_value(Value{"y", g.values[v].type, std::nullopt, {}});
  Node n{act, "act", {v}, {y}, {}};
  if (act == "Clip") {
    n.inputs.push_back(g.add_value(Value{"lo", f32({}), bytes({lo}), {}}));
    n.inputs.push_back(g.add_value(Value{"hi", f32({}), bytes({hi}), {}}));
  }
  g.add_node(std::move(n));
  g.outputs.push_back(y);
  if (extra == 1) g.outputs.push_back(v);
  if (extra == 2) {
    const ValueId z = g.add_value(Value{"z", g.values[v].type, std::nullopt, {}});
    g.add_node(Node{"Neg", "neg", {v}, {z}, {}});
    g.outputs.push_back(z);
  }
  for (double& e : s.expect) e = act == "Relu" ? std::max(0.0, e) : std::min<double>(hi, std::max<double>(lo, e));
  return s;
}

// The node the cpu plan of g says computes node "act" (empty when it runs on its own).
std::string fused_into(const Graph& g) {
  cpu_ref::register_backend();
  const auto plan = find_backend("cpu")->prepare(g, {});
  for (const NodePlacement& p : plan->placement())
    if (p.name == "act") return p.fused_into;
  FAIL("no placement for node act");
  return {};
}

}  // namespace

TEST_CASE("cpu plan: a Relu or Clip after a Conv becomes the Conv's epilogue only when nothing else reads the Conv") {
  const std::vector<ConvCase> convs = {
      {8, 16, 12, 12, 3, 1, 1, {1, 1, 1, 1}, false},  // im2col + GEMM, NCHW
      {8, 16, 12, 12, 1, 1, 1, {0, 0, 0, 0}, true},   // 1x1 read in place, NHWC
      {8, 8, 13, 13, 3, 2, 8, {1, 1, 1, 1}, false},   // depthwise NCHW plane
      {8, 8, 13, 13, 3, 1, 8, {1, 1, 1, 1}, true},    // depthwise NHWC rows
  };
  for (std::size_t i = 0; i < convs.size(); ++i)
    for (const char* act : {"Relu", "Clip"})
      for (int extra : {0, 1, 2}) {
        CAPTURE(i);
        CAPTURE(act);
        CAPTURE(extra);
        const ConvSetup s = with_activation(conv_setup(convs[i]), act, -0.25f, 0.5f, extra);
        CHECK(fused_into(s.g) == (extra == 0 ? "n" : ""));
        check_threads(s.g, s.x, s.expect);
      }
}

TEST_CASE("cpu parallel: NCHW MaxPool in registers gives the bits of the tap loop, NaN, -0 and empty windows included") {
  // ONNX MaxPool-12 over the taps inside the image, in (ky, kx) order, `if (v > acc) acc = v`
  // from -inf (a NaN never wins; of +0 and -0 the first seen stays); a window with no tap inside
  // the image gives 0 (Arm NN Pooling2d). Strides 1 and 2 take the vector path, 3 the scalar one.
  struct Case {
    int64_t h, w, k, s, d, pt, pl, pb, pr;
    bool ceil;
  };
  const std::vector<Case> cases = {
      {9, 37, 3, 2, 1, 1, 1, 1, 1, false}, {8, 8, 3, 2, 1, 0, 0, 0, 0, true},   {10, 21, 3, 1, 1, 1, 1, 1, 1, false},
      {11, 19, 3, 2, 2, 2, 1, 2, 2, false}, {6, 7, 2, 2, 1, 3, 3, 3, 3, false}, {9, 40, 3, 3, 1, 1, 1, 1, 1, false},
      {7, 75, 3, 2, 1, 1, 1, 1, 1, false}, {6, 50, 5, 1, 1, 2, 2, 2, 2, false}, {5, 64, 3, 2, 1, 0, 0, 0, 0, true},
      // Tall enough for bands of rows on 2 and 3 threads (padded_plane.h plane_bands).
      {100, 40, 3, 1, 1, 1, 1, 1, 1, false}, {200, 80, 3, 2, 1, 1, 0, 0, 1, true}, {120, 40, 3, 1, 2, 2, 2, 2, 2, false},
      // 3 x 3 stride 2 read in place (simd.h max_pool_3x3s2): rows 16, 31 to 34 wide about the
      // 32 + 1 columns one block of 16 outputs reads, pads 2 and past the kernel (every window of
      // a border row or column in the padding), ceil mode's last window past the edge,
      // squeezenet's 111, and 30 output rows in bands.
      {3, 16, 3, 2, 1, 1, 1, 1, 1, false}, {5, 33, 3, 2, 1, 2, 2, 2, 2, false}, {4, 34, 3, 2, 1, 0, 1, 0, 0, true},
      {6, 31, 3, 2, 1, 0, 0, 0, 0, true},  {6, 32, 3, 2, 1, 1, 1, 1, 1, false}, {6, 9, 3, 2, 1, 3, 3, 3, 3, false},
      {9, 111, 3, 2, 1, 0, 0, 0, 0, true}, {60, 31, 3, 2, 1, 1, 1, 1, 1, false},
  };
  const int64_t C = 3;
  for (const bool zeros : {false, true})
  for (const Case& t : cases) {
    CAPTURE(zeros);
    CAPTURE(t.w);
    CAPTURE(t.s);
    CAPTURE(t.pl);
    const int64_t span = t.d * (t.k - 1) + 1;
    auto out_size = [&](int64_t in, int64_t pa, int64_t pb) {
      const int64_t num = in + pa + pb - span;
      return (t.ceil ? (num + t.s - 1) / t.s : num / t.s) + 1;
    };
    const int64_t oh = out_size(t.h, t.pt, t.pb), ow = out_size(t.w, t.pl, t.pr);
    std::vector<float> x = data(static_cast<std::size_t>(C * t.h * t.w), 9);
    for (std::size_t i = 0; i < x.size(); i += 7) x[i] = std::nanf("");
    for (std::size_t i = 3; i < x.size(); i += 11) x[i] = (i / 11) % 2 ? 0.0f : -0.0f;
    for (std::size_t i = 5; i < x.size(); i += 13) x[i] = -INFINITY;
    if (zeros)  // windows whose maximum is zero, of both signs: the first in (ky, kx) order is kept
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = i % 3 == 2 ? -1.0f : ((i * 7919) % 5 < 2 ? 0.0f : -0.0f);
    std::vector<float> e(static_cast<std::size_t>(C * oh * ow));
    for (int64_t c = 0; c < C; ++c)
      for (int64_t oy = 0; oy < oh; ++oy)
        for (int64_t ox = 0; ox < ow; ++ox) {
          float acc = -INFINITY;
          bool any = false;
          for (int64_t ky = 0; ky < t.k; ++ky)
            for (int64_t kx = 0; kx < t.k; ++kx) {
              const int64_t iy = oy * t.s - t.pt + ky * t.d, ix = ox * t.s - t.pl + kx * t.d;
              if (iy < 0 || iy >= t.h || ix < 0 || ix >= t.w) continue;
              any = true;
              const float v = x[static_cast<std::size_t>((c * t.h + iy) * t.w + ix)];
              if (v > acc) acc = v;
            }
          e[static_cast<std::size_t>((c * oh + oy) * ow + ox)] = any ? acc : 0.0f;
        }
    Graph g = one_node("MaxPool", f32({1, C, t.h, t.w}), {}, f32({1, C, oh, ow}),
                       {{"kernel_shape", Attr(std::vector<int64_t>{t.k, t.k})},
                        {"strides", Attr(std::vector<int64_t>{t.s, t.s})},
                        {"dilations", Attr(std::vector<int64_t>{t.d, t.d})},
                        {"pads", Attr(std::vector<int64_t>{t.pt, t.pl, t.pb, t.pr})},
                        {"ceil_mode", Attr(int64_t{t.ceil ? 1 : 0})}});
    check_bits(g, x, "y", e);
  }
}

TEST_CASE("cpu parallel: Gemm split by rows and by columns, batched MatMul") {
  auto gemm = [](int64_t M, int64_t N, int64_t K) {
    // Y = A * B^T + C (ONNX Gemm-13, transB = 1, C of shape [N]).
    const auto a = data(static_cast<std::size_t>(M * K), 4), b = data(static_cast<std::size_t>(N * K), 5),
               c = data(static_cast<std::size_t>(N), 6);
    std::vector<double> e(static_cast<std::size_t>(M * N));
    for (int64_t i = 0; i < M; ++i)
      for (int64_t j = 0; j < N; ++j) {
        double acc = c[j];
        for (int64_t k = 0; k < K; ++k) acc += double(a[i * K + k]) * b[j * K + k];
        e[i * N + j] = acc;
      }
    Graph g = one_node("Gemm", f32({M, K}), {{f32({N, K}), b}, {f32({N}), c}}, f32({M, N}), {{"transB", Attr(int64_t{1})}});
    check_threads(g, a, e);
  };
  SUBCASE("rows") { gemm(64, 256, 512); }
  SUBCASE("columns (one row)") { gemm(1, 1024, 2048); }
  SUBCASE("batched MatMul") {
    const int64_t B = 4, M = 64, K = 128, N = 96;
    const auto a = data(static_cast<std::size_t>(B * M * K), 7), b = data(static_cast<std::size_t>(K * N), 8);
    std::vector<double> e(static_cast<std::size_t>(B * M * N));
    for (int64_t n = 0; n < B; ++n)
      for (int64_t i = 0; i < M; ++i)
        for (int64_t j = 0; j < N; ++j) {
          double acc = 0;
          for (int64_t k = 0; k < K; ++k) acc += double(a[(n * M + i) * K + k]) * b[k * N + j];
          e[(n * M + i) * N + j] = acc;
        }
    check_threads(one_node("MatMul", f32({B, M, K}), {{f32({K, N}), b}}, f32({B, M, N}), {}), a, e);
  }
}

TEST_CASE("cpu parallel: broadcast binary ops split into rows, a scalar per row and a vector per row") {
  // [1, C, H, W] op [1, C, 1, 1] (NCHW bias: one value per row of H*W) and [N, H, W, C] op [C]
  // (NHWC: one vector per row), large enough for several threads; NumPy broadcasting.
  const int64_t C = 24, H = 96, W = 40;
  const auto x = data(static_cast<std::size_t>(C * H * W), 11), c = data(static_cast<std::size_t>(C), 12);
  std::vector<double> e1(x.size()), e2(x.size());
  for (int64_t i = 0; i < C * H * W; ++i) {
    e1[static_cast<std::size_t>(i)] = double(x[i]) - c[i / (H * W)];
    e2[static_cast<std::size_t>(i)] = double(x[i]) * c[i % C];
  }
  check_threads(one_node("Sub", f32({1, C, H, W}), {{f32({1, C, 1, 1}), c}}, f32({1, C, H, W}), {}), x, e1);
  check_threads(one_node("Mul", f32({1, H, W, C}), {{f32({C}), c}}, f32({1, H, W, C}), {}), x, e2);
}

TEST_CASE("cpu parallel: an elementwise op over whole tensors is split by the rows of each plane") {
  // [1, C, H, W] + [1, C, H, W] and [1, C, H, W] * scalar with H not a multiple of the parts:
  // each thread takes rows H * t / parts .. of every plane (elementwise.cc). Float sums and
  // products, which every split computes alike: compared bit for bit.
  const int64_t C = 24, H = 77, W = 61;
  const auto x = data(static_cast<std::size_t>(C * H * W), 13), y = data(static_cast<std::size_t>(C * H * W), 14);
  const std::vector<float> s{1.5f};
  std::vector<float> sum(x.size()), scaled(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) sum[i] = x[i] + y[i], scaled[i] = x[i] * 1.5f;
  cpu_ref::register_backend();
  for (const bool scalar : {false, true}) {
    CAPTURE(scalar);
    Graph g = one_node(scalar ? "Mul" : "Add", f32({1, C, H, W}), {{scalar ? f32({}) : f32({1, C, H, W}), scalar ? s : y}},
                       f32({1, C, H, W}), {});
    for (int threads : {1, 2, 3}) {
      CAPTURE(threads);
      BackendOptions opt;
      opt.threads = threads;
      auto out = find_backend("cpu")->prepare(g, opt)->run({{"x", HostTensor::from_values<float>(f32({1, C, H, W}), x)}});
      const auto z = out.at("y").values<float>();
      const auto& e = scalar ? scaled : sum;
      REQUIRE(z.size() == e.size());
      CHECK(std::memcmp(z.data(), e.data(), e.size() * sizeof(float)) == 0);
    }
  }
}

TEST_CASE("cpu parallel_for: every item runs exactly once, an item's exception reaches the caller") {
  for (int threads : {1, 2, 5}) {
    CAPTURE(threads);
    std::vector<std::atomic<int>> hits(1000);
    cpu_ref::parallel_for(threads, 1000, [&](int64_t i) { hits[static_cast<std::size_t>(i)]++; });
    int wrong = 0;
    for (auto& h : hits) wrong += h.load() != 1;
    CHECK(wrong == 0);
    std::atomic<int> ran{0};
    CHECK_THROWS_WITH_AS(cpu_ref::parallel_for(threads, 100,
                                               [&](int64_t i) {
                                                 ++ran;
                                                 if (i == 37) throw std::runtime_error("item 37");
                                               }),
                         "item 37", std::runtime_error);
    CHECK(ran.load() >= 38);
    // Ranges cover [0, n) without overlap, in multiples of `align` but the last.
    for (int64_t align : {1, 16}) {
      CAPTURE(align);
      std::vector<std::atomic<int>> cover(1001);
      cpu_ref::parallel_ranges(
          threads, 1001, 100,
          [&](int64_t b, int64_t e) {
            CHECK((e == 1001 || (e - b) % align == 0));
            for (int64_t i = b; i < e; ++i) cover[static_cast<std::size_t>(i)]++;
          },
          align);
      wrong = 0;
      for (auto& h : cover) wrong += h.load() != 1;
      CHECK(wrong == 0);
    }
  }
}

TEST_CASE("cpu parallel_ranges: without an alignment the ranges are as even as the items allow") {
  // 48 planes on 2 threads: 24 and 24 (rounding each range up to 16 items gave 32 and 16).
  std::mutex mu;
  std::vector<int64_t> sizes;
  cpu_ref::parallel_ranges(2, 48, 1, [&](int64_t b, int64_t e) {
    std::lock_guard lock(mu);
    sizes.push_back(e - b);
  });
  std::sort(sizes.begin(), sizes.end());
  CHECK(sizes == std::vector<int64_t>{24, 24});
  sizes.clear();
  cpu_ref::parallel_ranges(3, 10, 1, [&](int64_t b, int64_t e) {
    std::lock_guard lock(mu);
    sizes.push_back(e - b);
  });
  std::sort(sizes.begin(), sizes.end());
  CHECK(sizes == std::vector<int64_t>{3, 3, 4});
}

TEST_CASE("cpu parallel_for: the caller runs the first share, nested and concurrent calls finish") {
  // Four items of 50 ms on two threads: the caller's share is items 0 and 1, which it runs in
  // order; the worker could take item 1 only after its own two items (100 ms), long after the
  // caller has claimed it. A pool that hands out items first come, first served gives the
  // worker item 1 as soon as it arrives.
  const auto caller = std::this_thread::get_id();
  std::atomic<int> on_caller{0};
  cpu_ref::parallel_for(2, 4, [&](int64_t i) {
    if (i < 2 && std::this_thread::get_id() == caller) ++on_caller;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  });
  CHECK(on_caller.load() == 2);
  // A parallel_for inside an item (a worker runs it alone) and callers on several threads at
  // once (one holds the pool, the others run alone): every item exactly once.
  std::vector<std::atomic<int>> hits(4 * 8 * 50);
  std::vector<std::thread> callers;
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      for (int rep = 0; rep < 50; ++rep)
        cpu_ref::parallel_for(3, 8, [&](int64_t i) {
          cpu_ref::parallel_for(2, 1, [&](int64_t) { hits[static_cast<std::size_t>((t * 50 + rep) * 8 + i)]++; });
        });
    });
  for (auto& c : callers) c.join();
  int wrong = 0;
  for (auto& h : hits) wrong += h.load() != 1;
  CHECK(wrong == 0);
}

TEST_CASE("cpu memory plan: tensors alive at the same step never overlap, a chain needs two slots") {
  using cpu_ref::Lifetime;
  // A chain s0 -> s1 -> s2 -> s3 of equal tensors: each dies at the next step, so two slots do.
  std::vector<Lifetime> chain{{0, 1, 100}, {1, 2, 100}, {2, 3, 100}, {3, 3, 100}};
  auto p = cpu_ref::plan_memory(chain, 4);
  CHECK(p.floats == 2 * 112);  // 100 rounded up to 16 floats
  CHECK(p.offset[0] == p.offset[2]);
  CHECK(p.offset[0] != p.offset[1]);
  // Random lifetimes: the property, checked pairwise.
  std::vector<Lifetime> t;
  for (std::size_t i = 0; i < 200; ++i) {
    const std::size_t first = (i * 37) % 50, len = (i * 11) % 7;
    t.push_back({first, first + len, static_cast<int64_t>(1 + (i * 53) % 300)});
  }
  t.push_back({5, 5, 0});  // size 0: not placed
  auto q = cpu_ref::plan_memory(t, 57);
  CHECK(q.offset.back() == -1);
  for (std::size_t i = 0; i + 1 < t.size(); ++i) {
    CHECK(q.offset[i] % 16 == 0);
    CHECK(q.offset[i] + t[i].floats <= q.floats);
    for (std::size_t j = i + 1; j + 1 < t.size(); ++j) {
      const bool live_together = t[i].first <= t[j].last && t[j].first <= t[i].last;
      const bool share = q.offset[i] < q.offset[j] + t[j].floats && q.offset[j] < q.offset[i] + t[i].floats;
      if (live_together && share) FAIL("tensors " << i << " and " << j << " overlap");
    }
  }
}

TEST_CASE("cpu plan: one plan runs many times and from several threads at once") {
  // y = relu(x + 1) * 2 (Add, Relu, Mul): two intermediate tensors in the arena.
  Graph g;
  const auto t = f32({1000});
  ValueId x = g.add_value(Value{"x", t, std::nullopt, {}});
  ValueId one = g.add_value(Value{"one", f32({1}), bytes({1.0f}), {}});
  ValueId two = g.add_value(Value{"two", f32({1}), bytes({2.0f}), {}});
  ValueId a = g.add_value(Value{"a", t, std::nullopt, {}});
  ValueId r = g.add_value(Value{"r", t, std::nullopt, {}});
  ValueId y = g.add_value(Value{"y", t, std::nullopt, {}});
  g.inputs = {x};
  g.outputs = {y};
  g.add_node(Node{"Add", "add", {x, one}, {a}, {}});
  g.add_node(Node{"Relu", "relu", {a}, {r}, {}});
  g.add_node(Node{"Mul", "mul", {r, two}, {y}, {}});
  cpu_ref::register_backend();
  auto plan = find_backend("cpu")->prepare(g, {});
  auto check = [&](int seed) {
    const auto in = data(1000, seed);
    auto out = plan->run({{"x", HostTensor::from_values<float>(t, in)}});
    auto v = out.at("y").values<float>();
    int bad = 0;
    for (std::size_t i = 0; i < in.size(); ++i)
      if (v[i] != std::max(0.0f, in[i] + 1.0f) * 2.0f) ++bad;
    return bad;
  };
  for (int i = 0; i < 3; ++i) CHECK(check(i) == 0);
  std::vector<int> bad(4, 0);
  std::vector<std::thread> th;
  for (int k = 0; k < 4; ++k)
    th.emplace_back([&, k] {
      for (int i = 0; i < 50; ++i) bad[k] += check(10 * k + i);
    });
  for (auto& t2 : th) t2.join();
  for (int k = 0; k < 4; ++k) CHECK(bad[k] == 0);
}

TEST_CASE("cpu plan: Concats along the channels of batch-1 tensors, their inputs written in place, nested, give the copies' values") {
  // y = Relu(Concat(Concat(Relu(x), Clip(x, -1, 1)), Clip(x, 0, 0.5))) on [1, 2, 3, 4], and a
  // second graph where Relu(x) is also a graph output (that Concat then copies). The Concats'
  // outputs are read by nodes only, so the plan may have their inputs' steps write into them
  // (backend.cc, concat_in_place); the values are the ONNX formulas either way.
  const int64_t C = 2, H = 3, W = 4, n = C * H * W;
  std::vector<float> x(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i - 10) / 8.0f;
  for (const bool relu_is_output : {false, true}) {
    CAPTURE(relu_is_output);
    Graph g;
    auto value = [&](const std::string& name, int64_t channels) { return g.add_value(Value{name, f32({1, channels, H, W}), std::nullopt, {}}); };
    auto scalar = [&](const std::string& name, float v) {
      return g.add_value(Value{name, f32({}), Buffer::copy_of(std::as_bytes(std::span<const float>(&v, 1))), {}});
    };
    const ValueId xi = value("x", C), a = value("a", C), b = value("b", C), c = value("c", 2 * C), d = value("d", C), e = value("e", 3 * C),
                  y = value("y", 3 * C);
    g.inputs.push_back(xi);
    g.add_node(Node{"Relu", "relu_a", {xi}, {a}, {}});
    g.add_node(Node{"Clip", "clip_b", {xi, scalar("m1", -1.0f), scalar("p1", 1.0f)}, {b}, {}});
    g.add_node(Node{"Concat", "cat_c", {a, b}, {c}, {{"axis", Attr(int64_t{1})}}});
    g.add_node(Node{"Clip", "clip_d", {xi, scalar("z", 0.0f), scalar("h", 0.5f)}, {d}, {}});
    g.add_node(Node{"Concat", "cat_e", {c, d}, {e}, {{"axis", Attr(int64_t{1})}}});
    g.add_node(Node{"Relu", "relu_y", {e}, {y}, {}});
    g.outputs.push_back(y);
    if (relu_is_output) g.outputs.push_back(a);
    std::vector<float> want;
    for (float v : x) want.push_back(std::max(0.0f, v));
    for (float v : x) want.push_back(std::max(0.0f, std::min(1.0f, std::max(-1.0f, v))));  // the outer Relu too
    for (float v : x) want.push_back(std::min(0.5f, std::max(0.0f, v)));
    cpu_ref::register_backend();
    for (int threads : {1, 2}) {
      CAPTURE(threads);
      BackendOptions opt;
      opt.threads = threads;
      const auto plan = find_backend("cpu")->prepare(g, opt);
      for (int run = 0; run < 2; ++run) {
        std::vector<float> xr = x;
        if (run == 0) std::fill(xr.begin(), xr.end(), 7.0f);  // a first run leaves other values in the buffers
        const TensorMap out = plan->run({{"x", HostTensor::from_values<float>(f32({1, C, H, W}), xr)}});
        if (run == 0) continue;
        const auto got = out.at("y").values<float>();
        CHECK(std::vector<float>(got.begin(), got.end()) == want);
      }
    }
  }
}

TEST_CASE("cpu plan: Reshape and Flatten whose inputs are written in place, chained into a Concat, give the copies' values") {
  // y = Neg(Concat(Flatten(Reshape(Relu(x), [1, 6, 4])), Clip(Reshape(x2), -1, 1))) on x of
  // [1, 2, 3, 4]: the plan may have Relu write where the Flatten's output lives inside the
  // Concat's (backend.cc, steps_in_place). Variants: Relu(x) also a graph output, and also read
  // by an Add (then it is copied). The values are the ONNX formulas either way.
  const int64_t n = 24;
  std::vector<float> x(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) x[static_cast<std::size_t>(i)] = static_cast<float>(i - 10) / 8.0f;
  for (const int variant : {0, 1, 2}) {
    CAPTURE(variant);
    Graph g;
    auto value = [&](const std::string& name, std::vector<int64_t> shape) { return g.add_value(Value{name, f32(std::move(shape)), std::nullopt, {}}); };
    auto constant = [&](const std::string& name, std::vector<int64_t> v) {
      return g.add_value(Value{name, TensorType{DataType::Int64, {static_cast<int64_t>(v.size())}, false, std::nullopt},
                               Buffer::copy_of(std::as_bytes(std::span<const int64_t>(v))), {}});
    };
    auto scalar = [&](const std::string& name, float v) {
      return g.add_value(Value{name, f32({}), Buffer::copy_of(std::as_bytes(std::span<const float>(&v, 1))), {}});
    };
    const ValueId xi = value("x", {1, 2, 3, 4}), a = value("a", {1, 2, 3, 4}), r = value("r", {1, 6, 4}), f = value("f", {1, 24}),
                  b = value("b", {1, 24}), c = value("c", {1, 24}), z = value("z", {1, 48}), y = value("y", {1, 48});
    g.inputs.push_back(xi);
    g.add_node(Node{"Relu", "relu_a", {xi}, {a}, {}});
    g.add_node(Node{"Reshape", "reshape_r", {a, constant("s", {1, 6, 4})}, {r}, {}});
    g.add_node(Node{"Flatten", "flatten_f", {r}, {f}, {}});
    g.add_node(Node{"Reshape", "reshape_b", {xi, constant("s2", {1, 24})}, {b}, {}});
    g.add_node(Node{"Clip", "clip_c", {b, scalar("lo", -1.0f), scalar("hi", 1.0f)}, {c}, {}});
    g.add_node(Node{"Concat", "cat_z", {f, c}, {z}, {{"axis", Attr(int64_t{1})}}});
    g.add_node(Node{"Neg", "neg_y", {z}, {y}, {}});
    g.outputs.push_back(y);
    if (variant == 1) g.outputs.push_back(a);
    if (variant == 2) {
      const ValueId s = value("sum", {1, 2, 3, 4});
      g.add_node(Node{"Add", "add", {a, a}, {s}, {}});
      g.outputs.push_back(s);
    }
    std::vector<float> want;
    for (float v : x) want.push_back(-std::max(0.0f, v));
    for (float v : x) want.push_back(-std::min(1.0f, std::max(-1.0f, v)));
    cpu_ref::register_backend();
    const auto plan = find_backend("cpu")->prepare(g, {});
    for (int run = 0; run < 2; ++run) {
      std::vector<float> xr = x;
      if (run == 0) std::fill(xr.begin(), xr.end(), 7.0f);  // a first run leaves other values in the buffers
      const TensorMap out = plan->run({{"x", HostTensor::from_values<float>(f32({1, 2, 3, 4}), xr)}});
      if (run == 0) continue;
      const auto got = out.at("y").values<float>();
      CHECK(std::vector<float>(got.begin(), got.end()) == want);
      if (variant == 2) {
        const auto sum = out.at("sum").values<float>();
        for (int64_t i = 0; i < n; ++i) CHECK(sum[static_cast<std::size_t>(i)] == 2 * std::max(0.0f, x[static_cast<std::size_t>(i)]));
      }
    }
  }
}
