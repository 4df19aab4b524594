// Arm NN -> ONNX: golden Arm NN 20.08 networks (tests/golden/armnn, outputs computed by Arm NN
// 20.08 CpuRef; NHWC ones among them) and a few ExecuTorch VkGraphs (tests/golden/vkgraph, outputs by PyTorch 1.13)
// are written as ONNX, python3-onnx's onnx.checker.check_model(full_check=True) accepts each
// written model, and the model read back computes the case's expected outputs on cpu.
#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <set>

#include <nlohmann/json.hpp>

#include "nnbridge/check.h"
#include "nnbridge/error.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/exec.h"
#include "nnbridge/io.h"
#include "nnbridge/npy.h"
#include "nnbridge/tensor_files.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
namespace fs = std::filesystem;
namespace ox = nnbridge::test::onnx;

namespace {
// A case folder's inputs and expected outputs for graph g, by the tensor file names the CLI uses
// (inputs/<stem>.npy, outputs/<stem>.npy); outputs named in `skip` are left out.
struct CaseTensors {
  TensorMap inputs, expected;
};
CaseTensors case_tensors(const Graph& g, const fs::path& dir, const std::set<std::string>& skip = {}) {
  std::vector<std::string> in_names, out_names;
  for (ValueId id : g.inputs) in_names.push_back(g.values[id].name);
  for (ValueId id : g.outputs) out_names.push_back(g.values[id].name);
  const auto in_stems = tensor_file_stems(in_names, "input"), out_stems = tensor_file_stems(out_names, "output");
  CaseTensors t;
  for (std::size_t i = 0; i < in_names.size(); ++i) t.inputs.emplace(in_names[i], read_npy(dir / "inputs" / (in_stems[i] + ".npy")));
  for (std::size_t j = 0; j < out_names.size(); ++j)
    if (fs::exists(dir / "outputs" / (out_stems[j] + ".npy")) && !skip.count(out_names[j]))
      t.expected.emplace(out_names[j], read_npy(dir / "outputs" / (out_stems[j] + ".npy")));
  return t;
}

// The golden case tests/golden/armnn/NAME (model.armnn, or model.vkgraph) written as ONNX passes
// python3-onnx's full check, and the model read back computes the case's expected outputs on cpu
// within `tol`; for integer outputs, `ties` elements may instead differ by exactly one (results
// halfway between two stored integers, which ONNX and Arm NN round differently), and no more.
void golden_through_onnx(const std::string& name, const Tolerance& tol, int ties = 0) {
  CAPTURE(name);
  cpu_ref::register_backend();
  auto cpu = find_backend("cpu");
  REQUIRE(cpu);
  const fs::path dir = test::source_dir() / "tests/golden/armnn" / name;
  Graph g = load(fs::exists(dir / "model.armnn") ? dir / "model.armnn" : dir / "model.vkgraph");
  const fs::path written = test::temp_dir() / (fs::path(name).filename().string() + ".onnx");
  save(g, written);
  CHECK(ox::full_check(written) == "");
  Graph back = load(written);
  auto [inputs, expected] = case_tensors(back, dir);
  REQUIRE(!expected.empty());
  TensorMap actual = cpu->prepare(back, {})->run(inputs);
  if (ties == 0) {
    for (const auto& r : compare_outputs(actual, expected, tol, "cpu")) CHECK_MESSAGE(r.passed, (r.output + ": " + r.message));
    return;
  }
  int one_step = 0;
  for (const auto& [out, e] : expected) {
    REQUIRE(actual.count(out));
    REQUIRE(actual.at(out).dtype() == e.dtype());
    const auto a = actual.at(out).to_double(), x = e.to_double();
    REQUIRE(a.size() == x.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CHECK(std::fabs(a[i] - x[i]) <= 1.0);
      one_step += a[i] != x[i];
    }
  }
  CHECK(one_step == ties);
}
}  // namespace

TEST_CASE("onnx from armnn: golden networks convert, pass the full check and compute Arm NN's outputs") {
  NNBRIDGE_REQUIRE_ONNX();
  const std::vector<std::string> cases = {
      "add_broadcast",       "activation_relu",        "activation_sigmoid",  "activation_leaky_relu",
      "conv2d_nchw_stride2", "fully_connected",        "softmax",             "concat_axis1",
      "pad",                 "slice",                  "reshape",             "batch_normalization_nchw",
      "maxpool_nchw_ceil",   "avgpool_nchw_pad_exclude", "permute_0231",      "splitter_two_outputs",
      "mean_keepdims",       "gather_axis0",           "depth_to_space_nchw", "resize_bilinear_half_pixel_nchw",
      "../vkgraph/slice",    "../vkgraph/layer_norm",  "../vkgraph/conv_transposed", "../vkgraph/embedding",
      // NHWC (Arm NN's default layout): the op between Transposes to and from NCHW (nhwc_as_nchw)
      "conv2d_nhwc_same", "conv2d_nhwc_stride2_dilated_pad2", "conv2d_nhwc_dilated_nobias", "depthwise_nhwc_m1",
      "depthwise_nhwc_dilated_pad_asym", "maxpool_nhwc", "avgpool_nhwc_pad_ignore_value",
      "avgpool_nhwc_ceil_pad_exclude_asym", "batch_normalization_nhwc",
      "lrn_across_nhwc", "depth_to_space_nhwc", "space_to_depth_nhwc", "transpose_conv2d_nhwc",
      // Ops ONNX opset 17 lacks, as the ONNX operators that compute them (onnx_forms)
      "activation_square", "unary_rsqrt", "deprecated_api_abs_rsqrt", "activation_tanh",
      "comparison_not_equal", "stack_axis1", "argmax_axis1", "argmin_axis_last", "fill", "instance_normalization_nchw",
      "instance_normalization_nhwc", "l2_normalization_nchw", "l2_normalization_nhwc", "l2pool_nchw_stride2_pad1",
      "l2pool_nhwc",
      // NHWC Resize between Transposes, its sizes permuted to NCHW order (nhwc_as_nchw)
      "resize_bilinear", "resize_bilinear_align_corners", "resize_nearest", "resize_nearest_align_corners",
      "deprecated_api_resize_bilinear",
      // TensorFlow's masks resolved into Slice, shrunk dims squeezed
      "strided_slice", "strided_slice_masks", "strided_slice_shrink",
      // TensorFlow's definition as Pad / Reshape / Transpose / Reshape (and back, then Slice)
      "space_to_batch_nd", "space_to_batch_nd_nchw", "batch_to_space_nd", "batch_to_space_nd_nchw",
      // Layers after 20.08 (expected outputs: NumPy's evaluation of Arm NN's definition): ReverseV2
      // as Slice with steps -1, ChannelShuffle as Reshape / Transpose / Reshape
      "../armnn_post2008/reverse_v2", "../armnn_post2008/channel_shuffle"};
  for (const std::string& name : cases) golden_through_onnx(name, Tolerance{});
}

TEST_CASE("onnx from armnn: quantized golden networks as QDQ (DequantizeLinear / QuantizeLinear around float ops)") {
  // Each quantized tensor is stored as uint8 / int8 / int16 and every result is requantized by a
  // QuantizeLinear, so the ONNX model computes Arm NN CpuRef's stored integers exactly, except
  // where a result lies exactly halfway between two grid points: ONNX QuantizeLinear rounds half to
  // even, armnn::Quantize half away from zero.
  NNBRIDGE_REQUIRE_ONNX();
  const std::vector<std::string> exact = {
      "activation_bounded_relu_qsymms16", "activation_relu_qasymmu8", "activation_sigmoid_qasymms8", "add_qasymmu8",
      "avgpool_nchw_qasymmu8_pad_ignore_value", "constant_qasymmu8_mul", "conv2d_nchw_per_axis_qasymmu8",
      "conv2d_nchw_qasymms8_stride2_pad1", "conv2d_per_axis_qsymms8", "conv2d_qasymmu8", "depthwise_nhwc_per_axis_qasymms8",
      "dequantize_qasymms8", "fully_connected_qasymmu8_4d_input", "maxpool_nchw_qasymms8_pad", "maxpool_qasymmu8",
      "mean_qasymmu8_rescale", "mul_qsymms16", "pad_qasymmu8", "quantize_to_qasymmu8", "quantize_to_qsymms16",
      "reshape_qasymmu8", "resize_nearest_nchw_qasymmu8", "softmax_beta_qasymmu8", "softmax_qasymms8_beta",
      "space_to_batch_nd_qasymmu8", "transpose_conv2d_nhwc_qasymmu8"};
  for (const std::string& name : exact) golden_through_onnx(name, Tolerance{});
  // Ties, checked by hand from the inputs: sub_qasymms8 (a - b) / 0.1 = 38.5 and 42.5 (Arm NN 39
  // and 43, ONNX 38 and 42); concat_qasymmu8_rescale b's 0.25 * (q - 130) / 0.2 + 128 = 228.5
  // (229, 228); likewise the others, with the number of such elements.
  for (const auto& [name, ties] : std::vector<std::pair<std::string, int>>{{"sub_qasymms8", 2},
                                                                            {"concat_qasymmu8_rescale", 1},
                                                                            {"avgpool_qasymms8", 1},
                                                                            {"depthwise_nchw_qasymmu8_m2", 2},
                                                                            {"resize_bilinear_nchw_qasymms8_rescale", 1}})
    golden_through_onnx(name, Tolerance{}, ties);
}

// `back` (one input, one output: a make_models.py to_armnn model after a round trip) run on cpu
// with DIR/x.npy computes DIR/y.npy (NumPy's evaluation of the ONNX definition). Inputs and
// outputs go by position: a VkGraph keeps no tensor names.
namespace {
void expect_numpy_output(const Graph& back, const fs::path& dir) {
  cpu_ref::register_backend();
  auto cpu = find_backend("cpu");
  REQUIRE(cpu);
  REQUIRE(back.inputs.size() == 1);
  REQUIRE(back.outputs.size() == 1);
  TensorMap inputs{{back.values[back.inputs[0]].name, read_npy(dir / "x.npy")}};
  TensorMap expected{{back.values[back.outputs[0]].name, read_npy(dir / "y.npy")}};
  TensorMap actual = cpu->prepare(back, {})->run(inputs);
  for (const auto& r : compare_outputs(actual, expected, Tolerance{}, "cpu")) CHECK_MESSAGE(r.passed, (r.output + ": " + r.message));
}
}  // namespace

// ONNX -> Arm NN, the other way: models that leave to ONNX's rules what an Arm NN file states
// (make_models.py to_armnn: default perm, auto_pad, shape and repeats inputs, no value_info,
// Identity, global pools, Flatten / Squeeze / Unsqueeze).
// Each is written, its Arm NN file passes `check` (nothing the reader would refuse), and it
// computes NumPy's output of the operator's definition on cpu.
TEST_CASE("onnx from armnn: the bundled NHWC conv, relu, fully-connected network (FullyConnected of a rank-4 input)") {
  // examples/models/conv_relu_fc: an Arm NN network whose expected output Arm NN 20.08 CpuRef
  // computed; its FullyConnected reads the NHWC convolution's rank-4 output (gemm_input_as_matrix).
  NNBRIDGE_REQUIRE_ONNX();
  cpu_ref::register_backend();
  const fs::path dir = test::source_dir() / "examples/models";
  const fs::path written = test::temp_dir() / "conv_relu_fc.onnx";
  save(load(dir / "conv_relu_fc.armnn"), written);
  CHECK(ox::full_check(written) == "");
  Graph back = load(written);
  REQUIRE(back.inputs.size() == 1);
  REQUIRE(back.outputs.size() == 1);
  TensorMap inputs{{back.values[back.inputs[0]].name, read_npy(dir / "conv_relu_fc/inputs/image.npy")}};
  TensorMap expected{{back.values[back.outputs[0]].name, read_npy(dir / "conv_relu_fc/outputs/probs.npy")}};
  TensorMap actual = find_backend("cpu")->prepare(back, {})->run(inputs);
  for (const auto& r : compare_outputs(actual, expected, Tolerance{}, "cpu")) CHECK_MESSAGE(r.passed, (r.output + ": " + r.message));
}

TEST_CASE("onnx from a graph with Gelu: written as Gelu-20's arithmetic (erf and tanh forms)") {
  // ONNX opset 17 has no Gelu. Expected values from the formulas of ONNX Gelu-20:
  // none: 0.5 x (1 + erf(x / sqrt 2)); tanh: 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
  NNBRIDGE_REQUIRE_ONNX();
  cpu_ref::register_backend();
  Graph g;
  const TensorType t{DataType::Float32, {1, 5}, false, std::nullopt};
  const ValueId x = g.add_value(Value{"x", t, std::nullopt, {}});
  const ValueId y1 = g.add_value(Value{"y_erf", t, std::nullopt, {}});
  const ValueId y2 = g.add_value(Value{"y_tanh", t, std::nullopt, {}});
  g.inputs = {x};
  g.outputs = {y1, y2};
  g.add_node(Node{"Gelu", "gelu", {x}, {y1}, {}});
  g.add_node(Node{"Gelu", "gelu_tanh", {x}, {y2}, {{"approximate", Attr(std::string("tanh"))}}});
  const fs::path written = test::temp_dir() / "gelu.onnx";
  save(g, written);
  CHECK(ox::full_check(written) == "");
  Graph back = load(written);
  for (const Node& n : back.nodes) CHECK(n.op != "Gelu");
  const std::vector<float> xs{-2.0f, -0.5f, 0.0f, 0.5f, 3.0f};
  TensorMap in{{"x", HostTensor::from_values<float>(t, xs)}};
  TensorMap got = find_backend("cpu")->prepare(back, {})->run(in);
  const auto e = got.at("y_erf").to_double(), h = got.at("y_tanh").to_double();
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double v = xs[i];
    CHECK(e[i] == doctest::Approx(0.5 * v * (1 + std::erf(v / std::sqrt(2.0)))).epsilon(1e-6));
    CHECK(h[i] == doctest::Approx(0.5 * v * (1 + std::tanh(std::sqrt(2 / 3.14159265358979323846) * (v + 0.044715 * v * v * v))))
                      .epsilon(1e-6));
  }
}

TEST_CASE("onnx to armnn: implicit forms are written explicitly and compute the ONNX definition") {
  NNBRIDGE_REQUIRE_ONNX();
  const fs::path out = test::temp_dir();
  std::size_t seen = 0;
  for (const auto& e : fs::directory_iterator(ox::models() / "to_armnn")) {
    const std::string name = e.path().filename().string();
    CAPTURE(name);
    ++seen;
    const fs::path written = out / (name + ".armnn");
    REQUIRE_NOTHROW(save(load(e.path() / "model.onnx"), written));
    Graph back = load(written);
    std::vector<Issue> issues = check(back);
    for (const Issue& i : issues) CHECK_MESSAGE(i.severity != Issue::Severity::Error, (i.where + ": " + i.message));
    expect_numpy_output(back, e.path());
  }
  CHECK(seen == 12);
}

TEST_CASE("onnx to armnn: an attribute no Arm NN layer holds is refused naming the node and the attribute") {
  NNBRIDGE_REQUIRE_ONNX();
  std::ifstream in(ox::models() / "to_armnn_refused.json");
  const auto want = nlohmann::json::parse(in);
  REQUIRE(want.size() == 3);
  const fs::path out = test::temp_dir();
  for (const auto& item : want.items()) {
    const std::string file = item.key();
    const std::string words = item.value().get<std::string>();
    CAPTURE(file);
    Graph g = load(ox::models() / "to_armnn_refused" / file);
    const fs::path target = out / (file + ".armnn");
    try {
      save(g, target);
      FAIL("written: " << target);
    } catch (const Error& e) {
      CHECK(e.code() == ErrorCode::Unsupported);
      CHECK(std::string(e.what()).find(words) != std::string::npos);
      CHECK(e.where().find("nodes[0] (") == 0);  // the ONNX nodes have no names
    }
    CHECK_FALSE(fs::exists(target));
  }
}

// The same models to VkGraph (ExecuTorch's Vulkan delegate): the format-neutral rewrites serve
// its writer too. Each model not listed as refused is written as .vkdelegate (with its
// constants), read back, and computes NumPy's output on cpu; the listed ones are refused.
TEST_CASE("onnx to vkgraph: the models of the Arm NN case compute the ONNX definition or are refused by name") {
  NNBRIDGE_REQUIRE_ONNX();
  // DepthToSpace DCR: the writer has no VkGraph operator for it (aten.pixel_shuffle is the CRD order).
  const std::set<std::string> refused = {"depth_to_space_dcr"};
  const fs::path out = test::temp_dir();
  for (const auto& e : fs::directory_iterator(ox::models() / "to_armnn")) {
    const std::string name = e.path().filename().string();
    CAPTURE(name);
    const fs::path written = out / (name + ".vkdelegate");
    if (refused.count(name)) {
      CHECK_THROWS_WITH_AS(save(load(e.path() / "model.onnx"), written), doctest::Contains("nodes[0]"), Error);
      CHECK_FALSE(fs::exists(written));
      continue;
    }
    REQUIRE_NOTHROW(save(load(e.path() / "model.onnx"), written));
    Graph back = load(written);
    expect_numpy_output(back, e.path());
  }
}

TEST_CASE("armnn -> onnx -> armnn: the shared Arm NN samples compute Arm NN 20.08 CpuRef's outputs") {
  // Every sample of ../shared/samples/armnn written as ONNX, read back, written as Arm NN (the
  // Arm NN writer's lowering: ScaledTanh's ONNX Tanh back as Activation TanH, Rsqrt's
  // Reciprocal(Sqrt) back as Rsqrt, ...), read back and run on cpu, against the outputs Arm NN
  // 20.08 CpuRef computed. activation_zoo's y_softrelu is left out: Arm NN 20.08's serializer
  // wrote that layer as Sigmoid while CpuRef computed SoftReLu in memory (the file says Sigmoid).
  NNBRIDGE_REQUIRE_ONNX();
  auto root = test::shared_sample("armnn");
  NNBRIDGE_REQUIRE_SHARED(root);
  cpu_ref::register_backend();
  auto cpu = find_backend("cpu");
  REQUIRE(cpu);
  int compared = 0;
  for (const auto& e : fs::directory_iterator(*root)) {
    const fs::path dir = e.path();
    if (!fs::exists(dir / "model.armnn") || !fs::exists(dir / "outputs")) continue;
    const std::string name = dir.filename().string();
    CAPTURE(name);
    const fs::path onnx = test::temp_dir() / (name + ".onnx"), back = test::temp_dir() / (name + ".armnn");
    save(load(dir / "model.armnn"), onnx);
    save(load(onnx), back);
    Graph g = load(back);
    const auto [inputs, expected] =
        case_tensors(g, dir, name == "activation_zoo" ? std::set<std::string>{"y_softrelu"} : std::set<std::string>{});
    REQUIRE(!expected.empty());
    TensorMap actual = cpu->prepare(g, {})->run(inputs);
    // The samples' tolerance (case.json): float |a - e| <= 1e-5 + 1e-4 |e|, quantized one step.
    for (const auto& r : compare_outputs(actual, expected, Tolerance{1e-5, 1e-4, 1}, "cpu")) {
      CHECK_MESSAGE(r.passed, (r.output + ": " + r.message));
      ++compared;
    }
  }
  CHECK(compared > 0);
}
