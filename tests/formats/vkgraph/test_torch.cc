// Mapped VkGraph operators run on the cpu backend with PyTorch ATen semantics: every case of
// torch_cases.py (one operator, laid out as ExecuTorch serializes it, outputs computed by
// torch.ops.aten with Debian's python3-torch at test time) must match within float tolerance.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "nnbridge/npy.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::vk;
namespace fs = std::filesystem;

namespace {

// Debian's interpreter (not the pyenv python3 first on PATH, which has no NumPy or torch).
constexpr const char* kPython = "/usr/bin/python3";

bool have_torch() {
  std::string cmd = std::string(kPython) + " -c 'import torch, numpy' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

}  // namespace

TEST_CASE("vkgraph on cpu: ATen operators match PyTorch") {
  if (!have_torch()) {
    test::skip("Debian's python3-torch is not installed (scripts/install-deps.sh installs it)");
    return;
  }
  fs::path dir = test::temp_dir() / "torch";
  std::string cmd = std::string(kPython) + " '" + (test::source_dir() / "tests/formats/vkgraph/torch_cases.py").string() +
                    "' '" + dir.string() + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(dir)) cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  CHECK(cases.size() >= 50);
  cpu_ref::register_backend();
  auto cpu = find_backend("cpu");
  REQUIRE(cpu);
  for (const fs::path& c : cases) {
    const std::string name = c.filename().string();
    CAPTURE(name);
    std::ifstream in(c / "graph.json");
    std::string json((std::istreambuf_iterator<char>(in)), {});
    auto bin = flatc_binary(json, name);
    REQUIRE(!bin.empty());
    Graph g = read(bin);
    CHECK(g.nodes.at(0).op.rfind("vk.", 0) != 0);  // every case is a mapped operator
    TensorMap inputs, expected;
    for (std::size_t k = 0; fs::exists(c / ("input_" + std::to_string(k) + ".npy")); ++k)
      inputs["input_" + std::to_string(k)] = read_npy(c / ("input_" + std::to_string(k) + ".npy"));
    for (std::size_t k = 0; fs::exists(c / ("output_" + std::to_string(k) + ".npy")); ++k)
      expected["output_" + std::to_string(k)] = read_npy(c / ("output_" + std::to_string(k) + ".npy"));
    try {
      auto plan = cpu->prepare(g, BackendOptions{});
      TensorMap got = plan->run(inputs);
      for (const OutputReport& r : compare_outputs(got, expected, Tolerance{1e-5, 1e-4, 1})) {
        CAPTURE(r.output);
        CAPTURE(r.message);
        CAPTURE(r.max_abs_error);
        CHECK(r.passed);
      }
    } catch (const Error& e) {
      FAIL_CHECK(e.what());
    }
  }
}
