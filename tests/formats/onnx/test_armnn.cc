// Arm NN -> ONNX: golden Arm NN 20.08 networks (tests/golden/armnn, outputs computed by Arm NN
// 20.08 CpuRef) and a few ExecuTorch VkGraphs (tests/golden/vkgraph, outputs by PyTorch 1.13)
// are written as ONNX, python3-onnx's onnx.checker.check_model(full_check=True) accepts each
// written model, and the model read back computes the case's expected outputs on cpu.
#include <doctest/doctest.h>

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

TEST_CASE("onnx from armnn: golden networks convert, pass the full check and compute Arm NN's outputs") {
  NNBRIDGE_REQUIRE_ONNX();
  const std::vector<std::string> cases = {
      "add_broadcast",       "activation_relu",        "activation_sigmoid",  "activation_leaky_relu",
      "conv2d_nchw_stride2", "fully_connected",        "softmax",             "concat_axis1",
      "pad",                 "slice",                  "reshape",             "batch_normalization_nchw",
      "maxpool_nchw_ceil",   "avgpool_nchw_pad_exclude", "permute_0231",      "splitter_two_outputs",
      "mean_keepdims",       "gather_axis0",           "depth_to_space_nchw", "resize_bilinear_half_pixel_nchw",
      "../vkgraph/slice",    "../vkgraph/layer_norm",  "../vkgraph/conv_transposed", "../vkgraph/embedding"};
  cpu_ref::register_backend();
  auto cpu = find_backend("cpu");
  REQUIRE(cpu);
  const fs::path out = test::temp_dir();
  for (const std::string& name : cases) {
    CAPTURE(name);
    const fs::path dir = test::source_dir() / "tests/golden/armnn" / name;
    Graph g = load(fs::exists(dir / "model.armnn") ? dir / "model.armnn" : dir / "model.vkgraph");
    const fs::path written = out / (fs::path(name).filename().string() + ".onnx");
    save(g, written);
    CHECK(ox::full_check(written) == "");
    Graph back = load(written);
    std::vector<std::string> in_names, out_names;
    for (ValueId id : back.inputs) in_names.push_back(back.values[id].name);
    for (ValueId id : back.outputs) out_names.push_back(back.values[id].name);
    const auto in_stems = tensor_file_stems(in_names, "input"), out_stems = tensor_file_stems(out_names, "output");
    TensorMap inputs, expected;
    for (std::size_t i = 0; i < in_names.size(); ++i) inputs.emplace(in_names[i], read_npy(dir / "inputs" / (in_stems[i] + ".npy")));
    for (std::size_t j = 0; j < out_names.size(); ++j)
      if (fs::exists(dir / "outputs" / (out_stems[j] + ".npy")))
        expected.emplace(out_names[j], read_npy(dir / "outputs" / (out_stems[j] + ".npy")));
    REQUIRE(!expected.empty());
    TensorMap actual = cpu->prepare(back, {})->run(inputs);
    for (const auto& r : compare_outputs(actual, expected, Tolerance{}, "cpu")) CHECK_MESSAGE(r.passed, (r.output + ": " + r.message));
  }
}
