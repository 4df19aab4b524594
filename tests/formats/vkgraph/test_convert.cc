// Arm NN -> VkGraph -> Arm NN on every shared Arm NN sample (written by Arm NN 20.08): each one
// VkGraph can express converts, and on the cpu backend the converted graph -- and the Arm NN
// file converted back from it -- compute what the original file computes. The one that cannot
// be expressed (quantized tensors) is refused, naming the value.
//
// The reference is the original file run on cpu, not the sample's outputs/: Arm NN 20.08's
// serializer wrote activation_zoo's SoftReLu layer as Sigmoid (the file says Sigmoid, CpuRef
// ran SoftReLu), so no reader of the file can reproduce that one output.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "nnbridge/io.h"
#include "nnbridge/npy.h"
#include "support/paths.h"

using namespace nnbridge;
namespace fs = std::filesystem;

namespace {

TensorMap run(const Graph& g, const Graph& armnn, const fs::path& dir) {
  TensorMap in;
  for (std::size_t k = 0; k < g.inputs.size(); ++k)
    in[g.values[g.inputs[k]].name] = read_npy(dir / "inputs" / (armnn.values[armnn.inputs[k]].name + ".npy"));
  return find_backend("cpu")->prepare(g, BackendOptions{})->run(in);
}

// Runs `g` with the sample's inputs bound by position (VkGraph renames them input_<k>) and
// compares output k with output k of the original Arm NN graph.
void run_and_compare(const Graph& g, const Graph& armnn, const TensorMap& reference, const fs::path& dir,
                     const std::string& what) {
  CAPTURE(what);
  REQUIRE(g.inputs.size() == armnn.inputs.size());
  REQUIRE(g.outputs.size() == armnn.outputs.size());
  TensorMap expected;
  for (std::size_t k = 0; k < g.outputs.size(); ++k)
    expected[g.values[g.outputs[k]].name] = reference.at(armnn.values[armnn.outputs[k]].name);
  for (const OutputReport& r : compare_outputs(run(g, armnn, dir), expected, Tolerance{1e-5, 1e-4, 1})) {
    CAPTURE(r.output);
    CAPTURE(r.message);
    CAPTURE(r.max_abs_error);
    CHECK(r.passed);
  }
}

}  // namespace

TEST_CASE("armnn -> vkdelegate -> armnn: shared samples compute Arm NN's outputs on cpu") {
  auto root = test::shared_sample("armnn");
  NNBRIDGE_REQUIRE_SHARED(root);
  cpu_ref::register_backend();
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(*root))
    if (fs::exists(e.path() / "model.armnn")) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  REQUIRE(dirs.size() >= 11);
  int converted = 0;
  for (const fs::path& dir : dirs) {
    const std::string name = dir.filename().string();
    CAPTURE(name);
    Graph armnn = load(dir / "model.armnn");
    fs::path vk = test::temp_dir() / (name + ".vkdelegate");
    try {
      save(armnn, vk);
    } catch (const Error& e) {
      // Quantized tensors have no VkGraph form (VkTensor carries no scale or zero point).
      CHECK(name == "quant_add");
      CHECK(e.id() == ErrorId::DataType);
      CHECK(e.message().find("qasymmu8") != std::string::npos);
      CHECK(!fs::exists(vk));
      continue;
    }
    ++converted;
    const TensorMap reference = run(armnn, armnn, dir);
    Graph g = load(vk);
    CHECK(g.source_format == "vkdelegate");
    run_and_compare(g, armnn, reference, dir, "vkdelegate");
    fs::path back = test::temp_dir() / (name + "_back.armnn");
    if (name == "activation_zoo") {
      // Elu went over as where(x > 0, x, alpha * (exp(x) - 1)) (ExecuTorch's Vulkan runtime
      // registers no aten.elu); Arm NN has no layer for Where, so the way back is refused. (Its
      // Tanh, from ScaledTanh's Mul, Tanh, Mul, goes back as Activation TanH: tanh_as_scaled_tanh.)
      CHECK_THROWS_WITH_AS(save(g, back), doctest::Contains("Where"), Error);
      continue;
    }
    if (name == "binary_zoo") {
      // Maximum went over as where(a >= b, a, b) (ExecuTorch's Vulkan runtime registers no
      // aten.maximum); Arm NN has no layer for Where, so the way back is refused.
      CHECK_THROWS_WITH_AS(save(g, back), doctest::Contains("Where"), Error);
      continue;
    }
    save(g, back);
    run_and_compare(load(back), armnn, reference, dir, "armnn again");
  }
  CHECK(converted == static_cast<int>(dirs.size()) - 1);
}
