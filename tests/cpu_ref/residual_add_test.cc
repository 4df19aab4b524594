// A Conv followed by an Add (ResNet's and MobileNetV2's residual connections) and maybe a Relu runs
// as one step: the Conv adds R to each block of its output (backend.cc fold_residual_add,
// vector_ops.h Epilogue). Oracle: ONNX Conv-11, Add-14 and Relu-14 computed here in double from
// the definitions (sum over the window, + B, + R, max(0, .)); the cpu backend sums in float, so
// the comparison allows 1e-5 relative to the sum of the terms' magnitudes, far below the
// magnitude of any one term of R (a misplaced or missing R, or an Add or Relu in the wrong order,
// moves an output by about 1). Which nodes fold is checked through Plan::placement.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "one_node.h"
#include "test_numbers.h"

using namespace nnbridge;
using namespace nnbridge::test;

namespace {

struct ResidualCase {
  int64_t c = 8, m = 8, h = 12, w = 12, k = 3, stride = 1, group = 1;
  bool nhwc = false;  // data_layout NHWC with kernel_layout OHWI (W [M, kh, kw, C / group])
  bool relu = true;
  bool r_first = false;  // Add(R, conv) instead of Add(conv, R)
};

// The graph: x0 -> Conv "n" (W, B constant) -> Add "add" with graph input "r" -> Relu "relu".
Graph residual_graph(const ResidualCase& t, int64_t oh, int64_t ow, const std::vector<float>& w, const std::vector<float>& b) {
  const int64_t pad = t.k / 2, cg = t.c / t.group;
  const std::vector<int64_t> xs = t.nhwc ? std::vector<int64_t>{1, t.h, t.w, t.c} : std::vector<int64_t>{1, t.c, t.h, t.w};
  const std::vector<int64_t> ys = t.nhwc ? std::vector<int64_t>{1, oh, ow, t.m} : std::vector<int64_t>{1, t.m, oh, ow};
  AttrMap attrs{{"kernel_shape", Attr(std::vector<int64_t>{t.k, t.k})},
                {"pads", Attr(std::vector<int64_t>{pad, pad, pad, pad})},
                {"strides", Attr(std::vector<int64_t>{t.stride, t.stride})},
                {"group", Attr(t.group)}};
  if (t.nhwc) attrs["data_layout"] = Attr(std::string("NHWC")), attrs["kernel_layout"] = Attr(std::string("OHWI"));
  Graph g = OneNode("Conv", attrs)
                .in(f32(xs))
                .constant(f32(t.nhwc ? std::vector<int64_t>{t.m, t.k, t.k, cg} : std::vector<int64_t>{t.m, cg, t.k, t.k}), w)
                .constant(f32({t.m}), b)
                .done(f32(ys));
  const ValueId conv = g.outputs[0];
  const ValueId r = g.add_value(Value{"r", f32(ys), std::nullopt, {}});
  g.inputs.push_back(r);
  const ValueId sum = g.add_value(Value{"sum", f32(ys), std::nullopt, {}});
  g.add_node(Node{"Add", "add", t.r_first ? std::vector<ValueId>{r, conv} : std::vector<ValueId>{conv, r}, {sum}, {}});
  g.outputs = {sum};
  if (t.relu) {
    const ValueId y = g.add_value(Value{"out", f32(ys), std::nullopt, {}});
    g.add_node(Node{"Relu", "relu", {sum}, {y}, {}});
    g.outputs = {y};
  }
  return g;
}

void check_residual(const ResidualCase& t) {
  const int64_t pad = t.k / 2, cg = t.c / t.group, mg = t.m / t.group;
  const int64_t oh = (t.h + 2 * pad - t.k) / t.stride + 1, ow = (t.w + 2 * pad - t.k) / t.stride + 1;
  const auto x = numbers(static_cast<std::size_t>(t.c * t.h * t.w), 11);
  const auto w = numbers(static_cast<std::size_t>(t.m * cg * t.k * t.k), 12);
  const auto b = numbers(static_cast<std::size_t>(t.m), 13);
  const auto r = numbers(static_cast<std::size_t>(t.m * oh * ow), 14);
  // Element offsets in the case's layout.
  const auto x_at = [&](int64_t c, int64_t y, int64_t xx) { return t.nhwc ? (y * t.w + xx) * t.c + c : (c * t.h + y) * t.w + xx; };
  const auto w_at = [&](int64_t o, int64_t ci, int64_t ky, int64_t kx) {
    return t.nhwc ? ((o * t.k + ky) * t.k + kx) * cg + ci : ((o * cg + ci) * t.k + ky) * t.k + kx;
  };
  const auto y_at = [&](int64_t o, int64_t oy, int64_t ox) { return t.nhwc ? (oy * ow + ox) * t.m + o : (o * oh + oy) * ow + ox; };
  std::vector<double> want(r.size()), scale(r.size());
  for (int64_t o = 0; o < t.m; ++o)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox) {
        double acc = 0, mag = 0;
        for (int64_t ci = 0; ci < cg; ++ci)
          for (int64_t ky = 0; ky < t.k; ++ky)
            for (int64_t kx = 0; kx < t.k; ++kx) {
              const int64_t iy = oy * t.stride - pad + ky, ix = ox * t.stride - pad + kx;
              if (iy < 0 || iy >= t.h || ix < 0 || ix >= t.w) continue;
              const double p = double(w[w_at(o, ci, ky, kx)]) * x[x_at((o / mg) * cg + ci, iy, ix)];
              acc += p, mag += std::abs(p);
            }
        const std::size_t at = static_cast<std::size_t>(y_at(o, oy, ox));
        const double v = acc + b[o] + r[at];
        want[at] = t.relu ? std::max(0.0, v) : v;
        scale[at] = mag + std::abs(b[o]) + std::abs(r[at]);
      }
  REQUIRE(std::count_if(want.begin(), want.end(), [](double v) { return v > 0.5; }) > 0);
  if (t.relu) REQUIRE(std::count(want.begin(), want.end(), 0.0) > 0);
  const Graph g = residual_graph(t, oh, ow, w, b);
  const auto xs = t.nhwc ? std::vector<int64_t>{1, t.h, t.w, t.c} : std::vector<int64_t>{1, t.c, t.h, t.w};
  const auto ys = t.nhwc ? std::vector<int64_t>{1, oh, ow, t.m} : std::vector<int64_t>{1, t.m, oh, ow};
  cpu_ref::register_backend();
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    BackendOptions opt;
    opt.threads = threads;
    const auto plan = find_backend("cpu")->prepare(g, opt);
    for (const NodePlacement& p : plan->placement()) CHECK(p.fused_into == (p.name == "n" ? "" : "n"));
    const TensorMap out = plan->run({{"x0", HostTensor::from_values<float>(f32(xs), x)}, {"r", HostTensor::from_values<float>(f32(ys), r)}});
    const auto got = out.at(t.relu ? "out" : "sum").values<float>();
    REQUIRE(got.size() == want.size());
    int64_t wrong = 0;
    for (std::size_t i = 0; i < got.size(); ++i) wrong += !(std::abs(got[i] - want[i]) <= 1e-5 * scale[i]);
    CHECK(wrong == 0);
  }
}

}  // namespace

TEST_CASE("cpu Conv + residual Add (+ Relu) as one step: the ONNX definitions") {
  // Depthwise (group = C): the plane kernel stores, then R and the Relu per plane or band of
  // rows (64- and 29-row planes: bands on 2 and 3 threads).
  SUBCASE("depthwise 3x3, NCHW") { check_residual({16, 16, 64, 48, 3, 1, 16}); }
  SUBCASE("depthwise 5x5 stride 2, NCHW, R first, no Relu") {
    ResidualCase t{24, 24, 57, 57, 5, 2, 24};
    t.relu = false, t.r_first = true;
    check_residual(t);
  }
  // NHWC (Arm NN's and TFLite's layout): R added to each row of M outputs after the GEMM.
  SUBCASE("3x3, NHWC") {
    ResidualCase t{8, 24, 20, 20, 3, 1, 1};
    t.nhwc = true;
    check_residual(t);
  }
  SUBCASE("depthwise 3x3, NHWC, R first") {
    ResidualCase t{32, 32, 30, 30, 3, 1, 32};
    t.nhwc = true, t.r_first = true;
    check_residual(t);
  }
  // NCHW GEMM paths (the bit-exact cases are conv_gemm_test.cc's): 1x1 direct and 3x3.
  SUBCASE("1x1, NCHW") { check_residual({24, 40, 28, 28, 1, 1, 1}); }
  SUBCASE("3x3, NCHW, channels across the lanes (K = 288)") { check_residual({32, 48, 14, 14, 3, 1, 1}); }
}

TEST_CASE("cpu Conv + Add: which Adds fold into the Conv") {
  // Whether the Add (and the activation) became the Conv's epilogue (the values: the test above).
  const std::vector<float> w = numbers(8 * 8 * 9, 21), b = numbers(8, 22);
  const auto conv = [&] {
    return OneNode("Conv", {{"kernel_shape", Attr(std::vector<int64_t>{3, 3})}, {"pads", Attr(std::vector<int64_t>{1, 1, 1, 1})}})
        .in(f32({1, 8, 10, 10}))
        .constant(f32({8, 8, 3, 3}), w)
        .constant(f32({8}), b)
        .done(f32({1, 8, 10, 10}));
  };
  const auto fused = [](const Graph& g) {
    cpu_ref::register_backend();
    std::vector<std::string> out;
    const auto plan = find_backend("cpu")->prepare(g, BackendOptions{});
    for (const NodePlacement& p : plan->placement()) out.push_back(p.name + ">" + p.fused_into);
    return out;
  };
  // A graph input of `shape` named `name`; a node `op` on `inputs` whose new output (Y's shape)
  // is returned.
  const auto input = [](Graph& g, const std::string& name, std::vector<int64_t> shape) {
    const ValueId v = g.add_value(Value{name, f32(std::move(shape)), std::nullopt, {}});
    g.inputs.push_back(v);
    return v;
  };
  const auto node = [](Graph& g, const std::string& op, std::vector<ValueId> inputs) {
    const ValueId y = g.add_value(Value{op + "_y", f32({1, 8, 10, 10}), std::nullopt, {}});
    g.add_node(Node{op, op == "Add" ? "add" : op == "Relu" ? "relu" : "clip", std::move(inputs), {y}, {}});
    return y;
  };
  SUBCASE("R broadcast along channels: not folded") {
    Graph g = conv();
    g.outputs = {node(g, "Add", {g.outputs[0], input(g, "r", {1, 8, 1, 1})})};
    CHECK(fused(g) == std::vector<std::string>{"n>", "add>"});
  }
  SUBCASE("the Conv's output also a graph output: not folded") {
    Graph g = conv();
    g.outputs.push_back(node(g, "Add", {g.outputs[0], input(g, "r", {1, 8, 10, 10})}));
    CHECK(fused(g) == std::vector<std::string>{"n>", "add>"});
  }
  SUBCASE("Add(conv, conv): not folded") {
    Graph g = conv();
    g.outputs = {node(g, "Add", {g.outputs[0], g.outputs[0]})};
    CHECK(fused(g) == std::vector<std::string>{"n>", "add>"});
  }
  SUBCASE("Relu before the Add: the Relu folds, the Add does not (it would come after the Relu)") {
    Graph g = conv();
    const ValueId a = node(g, "Relu", {g.outputs[0]});
    g.outputs = {node(g, "Add", {a, input(g, "r", {1, 8, 10, 10})})};
    CHECK(fused(g) == std::vector<std::string>{"n>", "relu>n", "add>"});
  }
  SUBCASE("Add then Clip: both fold") {
    Graph g = conv();
    const ValueId sum = node(g, "Add", {input(g, "r", {1, 8, 10, 10}), g.outputs[0]});
    g.outputs = {node(g, "Clip", {sum})};
    CHECK(fused(g) == std::vector<std::string>{"n>", "add>n", "clip>n"});
  }
}
