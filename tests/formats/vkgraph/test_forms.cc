// ONNX -> VkGraph on the forms real architectures use: every case of torch_forms.py (a small torch
// module exported by torch.onnx.export at opsets 13 and 17, or an ONNX graph for forms the
// exporter does not write, with PyTorch's output as the expected value) converts to a
// .vkdelegate whose operators all read back as canonical ops (the reader reads every form the
// writer writes), and that file computes PyTorch's output on the cpu backend.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
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

constexpr const char* kPython = "/usr/bin/python3";

bool have_torch_and_onnx() {
  std::string cmd = std::string(kPython) + " -c 'import torch, numpy, onnx' >/dev/null 2>&1";
  return std::system(cmd.c_str()) == 0;
}

double max_abs(const HostTensor& t) {
  double m = 0;
  for (double v : t.to_double()) m = std::max(m, std::fabs(v));
  return m;
}

}  // namespace

TEST_CASE("vkgraph forms: torch modules through ONNX to a vkdelegate compute PyTorch's outputs on cpu") {
  if (!have_torch_and_onnx()) {
    test::skip("Debian's python3-torch / python3-onnx is not installed (scripts/install-deps.sh installs them)");
    return;
  }
  fs::path dir = test::temp_dir() / "torch_forms";
  std::string cmd = std::string(kPython) + " '" + (test::source_dir() / "tests/formats/vkgraph/torch_forms.py").string() +
                    "' '" + dir.string() + "'";
  REQUIRE(std::system(cmd.c_str()) == 0);
  std::vector<fs::path> cases;
  for (const auto& e : fs::directory_iterator(dir)) cases.push_back(e.path());
  std::sort(cases.begin(), cases.end());
  CHECK(cases.size() >= 18);
  cpu_ref::register_backend();
  auto cpu = find_backend("cpu");
  REQUIRE(cpu);
  for (const fs::path& c : cases) {
    const std::string name = c.filename().string();
    CAPTURE(name);
    try {
      Graph onnx = load(c / "model.onnx");
      const fs::path vk = test::temp_dir() / (name + ".vkdelegate");
      save(onnx, vk);
      Graph g = load(vk);
      for (const Node& n : g.nodes) {
        CAPTURE(n.name);
        CAPTURE(n.op);
        CHECK(n.op.rfind("vk.", 0) != 0);  // every operator written reads back as its canonical op
      }
      // Written again from what was read, the same operators in the same order.
      const fs::path again = test::temp_dir() / (name + "_again.vkdelegate");
      save(g, again);
      Graph g2 = load(again);
      REQUIRE(g2.nodes.size() == g.nodes.size());
      for (std::size_t i = 0; i < g.nodes.size(); ++i) CHECK(g2.nodes[i].attrs.at("vk.name") == g.nodes[i].attrs.at("vk.name"));
      TensorMap in{{g.values[g.inputs.at(0)].name, read_npy(c / "input_0.npy")}};
      TensorMap got = cpu->prepare(g, BackendOptions{})->run(in);
      const HostTensor want = read_npy(c / "output_0.npy");
      const std::string out = g.values[g.outputs.at(0)].name;
      REQUIRE(got.count(out));
      // The bar: max |error| <= 1e-4 * max |output| (PyTorch's float32 order of operations differs).
      const double tol = 1e-4 * std::max(1.0, max_abs(want));
      for (const OutputReport& r : compare_outputs({{out, got.at(out)}}, {{out, want}}, Tolerance{tol, 0.0, 1})) {
        CAPTURE(r.message);
        CAPTURE(r.max_abs_error);
        CHECK(r.passed);
      }
    } catch (const Error& e) {
      FAIL_CHECK(std::string(e.what()));
    }
  }
}

TEST_CASE("vkgraph forms: an operator ExecuTorch's Vulkan runtime does not register is refused naming the node and it") {
  Graph g;
  TensorType t{DataType::Float32, {2, 3}, false, std::nullopt};
  g.add_value(Value{"a", t, std::nullopt, {}});
  g.add_value(Value{"b", t, std::nullopt, {}});
  g.add_value(Value{"y", t, std::nullopt, {}});
  g.inputs = {0, 1};
  g.outputs = {2};
  g.inputs = {0};
  g.add_node(Node{"Floor", "the_floor", {0}, {2}, {}});
  const fs::path out = test::temp_dir() / "floor.vkdelegate";
  try {
    save(g, out);
    FAIL("written");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::NoForm);
    CHECK(e.message().find("'the_floor'") != std::string::npos);
    CHECK(e.message().find("aten.floor.default") != std::string::npos);
  }
  CHECK(!fs::exists(out));
}

TEST_CASE("vkgraph forms: a tensor of more than 4 dims is refused naming the value") {
  // ExecuTorch's Vulkan tensors have at most 4 dims (its partitioner delegates no node with a
  // higher-dimensional tensor); a rank-5 Relu has no Transpose to merge.
  Graph g;
  TensorType t{DataType::Float32, {1, 2, 1, 2, 2}, false, std::nullopt};
  g.add_value(Value{"x", t, std::nullopt, {}});
  g.add_value(Value{"five_dims", t, std::nullopt, {}});
  g.inputs = {0};
  g.outputs = {1};
  g.add_node(Node{"Relu", "relu", {0}, {1}, {}});
  const fs::path out = test::temp_dir() / "rank5.vkdelegate";
  try {
    save(g, out);
    FAIL("written");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::NoForm);
    CHECK(std::string(e.what()).find("rank 5: ExecuTorch's Vulkan tensors have at most 4 dimensions") != std::string::npos);
    CHECK(std::string(e.what()).find("'x'") != std::string::npos);
  }
  CHECK(!fs::exists(out));
}
