// Extension libraries through the C++ API: the example library (examples/extension) runs the Arm
// NN StandIn model that Arm NN 20.08 wrote, and each broken library is an Error naming its path.
// Expected values: the example's documented formulas, evaluated here.
#include <doctest/doctest.h>

#include <cmath>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "nnbridge/npy.h"
#include "support/paths.h"

using namespace nnbridge;
using namespace nnbridge::cpu_ref;
namespace fs = std::filesystem;

namespace {

std::shared_ptr<const Backend> cpu() {
  register_backend();
  return find_backend("cpu");
}

fs::path example_dir() { return test::source_dir() / "examples" / "extension"; }

// LeCun's scaled tanh, the example's StandIn "ScaledTanh" kernel: 1.7159 tanh(2x/3).
double lecun(double x) { return 1.7159 * std::tanh(2.0 / 3.0 * x); }

// Runs the example model on its bundled input and checks every output element against lecun().
void check_example_model(const BackendOptions& options) {
  Graph g = load(example_dir() / "scaled_tanh.armnn");
  HostTensor x = read_npy(example_dir() / "inputs" / "x.npy");
  TensorMap out = cpu()->prepare(g, options)->run({{"x", x}});
  auto xs = x.values<float>();
  auto ys = out.at("y").values<float>();
  REQUIRE(ys.size() == xs.size());
  REQUIRE(xs.size() == 8);
  for (std::size_t i = 0; i < xs.size(); ++i) CHECK(std::abs(ys[i] - lecun(xs[i])) <= 1e-6);
}

// The Error that loading `path` into a fresh registry throws.
Error load_error(const fs::path& path) {
  KernelRegistry reg;
  try {
    reg.load_extension(path);
  } catch (const Error& e) {
    CHECK(reg.size() == 0);
    return e;
  }
  FAIL("no error loading " << path);
  return Error(ErrorCode::Io, "");
}

}  // namespace

TEST_CASE("extension library: the example runs the Arm NN StandIn model, via BackendOptions::extensions or a registry") {
  {
    BackendOptions o;
    o.extensions.push_back(NNBRIDGE_EXAMPLE_EXT);
    check_example_model(o);
  }
  {
    auto reg = std::make_shared<KernelRegistry>();
    reg->load_extension(NNBRIDGE_EXAMPLE_EXT);
    CHECK(reg->size() == 1);
    std::string source;
    REQUIRE(reg->find("armnn.StandIn", DataType::Float32, &source) != nullptr);
    CHECK(source == NNBRIDGE_EXAMPLE_EXT);
    BackendOptions o;
    o.custom_kernels.push_back(reg);
    check_example_model(o);
  }
  // Without the library the StandIn layer has no kernel.
  Graph g = load(example_dir() / "scaled_tanh.armnn");
  CHECK_THROWS_WITH_AS(cpu()->prepare(g, {}), doctest::Contains("no kernel for op armnn.StandIn"), Error);
}

TEST_CASE("extension library: the example refuses StandIn layers it does not implement and plans keep the library loaded") {
  // Arm NN 20.08's golden StandIn case is a layer named "custom_op" with two inputs.
  Graph other = load(test::source_dir() / "tests/golden/armnn/stand_in/model.armnn");
  BackendOptions oe;
  oe.extensions.push_back(NNBRIDGE_EXAMPLE_EXT);
  try {
    cpu()->prepare(other, oe);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.code() == ErrorCode::Unsupported);
    CHECK(e.message().find("named \"ScaledTanh\" only, not \"custom_op\"") != std::string::npos);
  }
  // A StandIn named ScaledTanh whose descriptor says two inputs: inconsistent.
  Graph g = load(example_dir() / "scaled_tanh.armnn");
  REQUIRE(g.nodes[0].op == "armnn.StandIn");
  g.nodes[0].attrs["armnn.descriptor.numInputs"] = Attr(int64_t{2});
  CHECK_THROWS_WITH_AS(cpu()->prepare(g, oe), doctest::Contains("one input and one output, this one has 2 and 1"), Error);

  // The plan outlives the registry that loaded the library.
  auto reg = std::make_shared<KernelRegistry>();
  reg->load_extension(NNBRIDGE_EXAMPLE_EXT);
  BackendOptions o;
  o.custom_kernels.push_back(reg);
  auto plan = cpu()->prepare(load(example_dir() / "scaled_tanh.armnn"), o);
  o.custom_kernels.clear();
  reg.reset();
  const TensorType t{DataType::Float32, {2, 4}, false, std::nullopt};
  const std::vector<float> x = {-3, -1, -0.5f, 0, 0.25f, 1, 2, 3};
  const TensorMap out = plan->run({{"x", HostTensor::from_values<float>(t, x)}});
  auto ys = out.at("y").values<float>();
  REQUIRE(ys.size() == x.size());
  for (std::size_t i = 0; i < x.size(); ++i) CHECK(std::abs(ys[i] - lecun(x[i])) <= 1e-6);
}

TEST_CASE("extension library: each broken library is an Error naming its path") {
  const fs::path missing = test::temp_dir() / "absent.so";
  Error e = load_error(missing);
  CHECK(e.id() == ErrorId::IoOpen);
  CHECK(e.file() == missing.string());

  const fs::path not_elf = example_dir() / "scaled_tanh.armnn";
  e = load_error(not_elf);
  CHECK(e.code() == ErrorCode::Unsupported);
  CHECK(e.file() == not_elf.string());
  CHECK(e.message().find("cannot load the extension library") != std::string::npos);

  e = load_error(NNBRIDGE_TEST_EXT_NO_ENTRY);
  CHECK(e.code() == ErrorCode::Unsupported);
  CHECK(e.file() == NNBRIDGE_TEST_EXT_NO_ENTRY);
  CHECK(e.message().find("exports no nnbridge_cpu_extension entry point") != std::string::npos);

  e = load_error(NNBRIDGE_TEST_EXT_WRONG_ABI);
  CHECK(e.id() == ErrorId::Version);  // built for another kernel ABI version
  CHECK(e.file() == NNBRIDGE_TEST_EXT_WRONG_ABI);
  CHECK(e.message().find("ABI version " + std::to_string(kCpuKernelAbiVersion + 1000) + ", this nnbridge has version " +
                         std::to_string(kCpuKernelAbiVersion)) != std::string::npos);

  e = load_error(NNBRIDGE_TEST_EXT_FAILING);
  CHECK(e.code() == ErrorCode::Invalid);
  CHECK(e.file() == NNBRIDGE_TEST_EXT_FAILING);
  CHECK(e.message().find("needs a licence file") != std::string::npos);

  // A conflict: the second library registers armnn.StandIn (float32) too. The registry keeps the
  // first library's kernels only.
  KernelRegistry reg;
  reg.load_extension(NNBRIDGE_EXAMPLE_EXT);
  try {
    reg.load_extension(NNBRIDGE_TEST_EXT_CONFLICT);
    FAIL("no error");
  } catch (const Error& c) {
    CHECK(c.id() == ErrorId::DuplicateName);  // the refused registration's own identifier
    CHECK(c.file() == NNBRIDGE_TEST_EXT_CONFLICT);
    CHECK(c.message().find(std::string("armnn.StandIn (float32) is registered twice: by ") + NNBRIDGE_EXAMPLE_EXT + " and by " +
                           NNBRIDGE_TEST_EXT_CONFLICT) != std::string::npos);
  }
  CHECK(reg.size() == 1);
}
