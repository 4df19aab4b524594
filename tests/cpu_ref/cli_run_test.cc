// `nnbridge run`: outputs equal Arm NN 20.08 CpuRef's (the shared sample's outputs/*.npy),
// and each bad-input rule of issue 3 gives exit 3 with a message naming the input.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include "nnbridge/exec.h"
#include "nnbridge/npy.h"
#include "support/paths.h"
#include "support/shell_cli.h"

using namespace nnbridge;
namespace fs = std::filesystem;
using nnbridge::test::cli;
using nnbridge::test::q;
using nnbridge::test::Result;

namespace {

}  // namespace

TEST_CASE("nnbridge run: a shared Arm NN sample gives Arm NN CpuRef's outputs") {
  auto dir = test::shared_sample("armnn/two_outputs_seed_ops");
  NNBRIDGE_REQUIRE_SHARED(dir);
  const fs::path out = test::temp_dir() / "out";
  Result r = cli("run " + q(*dir / "model.armnn") + " --inputs " + q(*dir / "inputs") + " --outputs " + q(out) + " --json");
  INFO(r.out);
  REQUIRE(r.rc == 0);
  CHECK(r.out.find("\"run_ms\"") != std::string::npos);
  int compared = 0;
  for (const auto& e : fs::directory_iterator(*dir / "outputs")) {
    TensorMap expected{{"y", read_npy(e.path())}};
    TensorMap actual{{"y", read_npy(out / e.path().filename())}};
    auto rep = compare_outputs(actual, expected, Tolerance{1e-5, 1e-4, 1});
    CHECK_MESSAGE(rep[0].passed, e.path().filename().string());
    ++compared;
  }
  CHECK(compared > 0);
}

TEST_CASE("nnbridge run --profile --repeat: per-step times of every run, outputs still Arm NN's") {
  // The project's own corpus: one Addition layer (Arm NN 20.08 wrote the model and its outputs).
  const fs::path dir = test::source_dir() / "tests/golden/armnn/add_float";
  const fs::path out = test::temp_dir() / "out";
  const std::string base = "run " + q(dir / "model.armnn") + " --inputs " + q(dir / "inputs") + " --outputs " + q(out);
  Result r = cli(base + " --profile --repeat 3 --json");
  INFO(r.out);
  REQUIRE(r.rc == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j.at("runs") == 3);
  // The Addition layer and the output layer (an Identity), each its own step, in run order.
  const auto& steps = j.at("profile");
  REQUIRE(steps.size() == 2);
  CHECK(steps[0].at("op") == "Add");
  CHECK(steps[1].at("op") == "Identity");
  double sum = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    CHECK(steps[i].at("node") == j.at("nodes")[i].at("node"));
    CHECK(steps[i].at("name") == j.at("nodes")[i].at("name"));
    CHECK(steps[i].at("backend") == "cpu");
    CHECK(steps[i].at("ms").get<double>() >= 0);
    sum += steps[i].at("ms").get<double>();
  }
  CHECK(sum <= 3 * j.at("run_ms").get<double>());  // medians of the steps of 3 runs
  const fs::path y = j.at("outputs")[0].at("file").get<std::string>();
  const auto rep = compare_outputs({{"y", read_npy(y)}}, {{"y", read_npy(dir / "outputs" / y.filename())}}, Tolerance{0, 0, 0});
  CHECK(rep[0].passed);
  // Without --json: the table, a line per step naming its op and node name.
  r = cli(base + " --profile");
  CHECK(r.rc == 0);
  CHECK(r.out.find("profile (1 run):") != std::string::npos);
  CHECK(r.out.find("  Add " + j.at("nodes")[0].at("name").get<std::string>()) != std::string::npos);
  // No profile unless asked; --repeat below 1 is a usage error.
  r = cli(base + " --json");
  CHECK(r.rc == 0);
  CHECK_FALSE(nlohmann::json::parse(r.out).contains("profile"));
  CHECK(cli(base + " --repeat 0").rc == 2);
}

TEST_CASE("nnbridge run: missing, extra, mis-shaped and mis-typed inputs are exit 3 naming the input") {
  // The project's own corpus (written by Arm NN 20.08), so this runs in a user's clone too.
  const std::optional<fs::path> dir = test::source_dir() / "tests/golden/armnn/add_float";
  const fs::path model = *dir / "model.armnn";
  auto setup = [&] {
    fs::path in = test::temp_dir();
    fs::copy_file(*dir / "inputs" / "a.npy", in / "a.npy");
    fs::copy_file(*dir / "inputs" / "b.npy", in / "b.npy");
    return in;
  };
  auto run = [&](const fs::path& in, const fs::path& out) {
    return cli("run " + q(model) + " --inputs " + q(in) + " --outputs " + q(out));
  };
  {
    fs::path in = setup(), out = test::temp_dir() / "o";
    fs::remove(in / "b.npy");
    Result r = run(in, out);
    CHECK(r.rc == 3);
    CHECK(r.out.find("\"b\"") != std::string::npos);
    CHECK_FALSE(fs::exists(out / "y.npy"));
  }
  {
    fs::path in = setup(), out = test::temp_dir() / "o";
    fs::copy_file(in / "a.npy", in / "c.npy");
    Result r = run(in, out);
    CHECK(r.rc == 3);
    CHECK(r.out.find("c.npy") != std::string::npos);
  }
  {
    fs::path in = setup(), out = test::temp_dir() / "o";
    HostTensor a = read_npy(in / "a.npy");
    std::vector<int64_t> shape = a.shape();
    shape.insert(shape.begin(), 1);
    write_npy(in / "a.npy", HostTensor::from_buffer(TensorType{a.dtype(), shape, false, std::nullopt}, a.buffer()));
    Result r = run(in, out);
    CHECK(r.rc == 3);
    CHECK(r.out.find("\"a\"") != std::string::npos);
    CHECK(r.out.find("shape") != std::string::npos);
  }
  {
    fs::path in = setup(), out = test::temp_dir() / "o";
    HostTensor a = read_npy(in / "a.npy");
    std::vector<int32_t> ints(a.element_count(), 1);
    write_npy(in / "a.npy", HostTensor::from_values<int32_t>(TensorType{DataType::Int32, a.shape(), false, std::nullopt}, ints));
    Result r = run(in, out);
    CHECK(r.rc == 3);
    CHECK(r.out.find("\"a\"") != std::string::npos);
    CHECK(r.out.find("dtype") != std::string::npos);
  }
  {
    fs::path in = setup(), out = test::temp_dir() / "o";
    const fs::path missing = test::temp_dir() / "missing.armnn";
    Result r = cli("run " + q(missing) + " --inputs " + q(in) + " --outputs " + q(out));
    CHECK(r.rc == 3);
    CHECK(r.out.find(missing.string()) != std::string::npos);
    CHECK_FALSE(fs::exists(out));
  }
  {
    fs::path in = setup(), out = test::temp_dir() / "o";
    Result r = cli("run " + q(model) + " --inputs " + q(in) + " --outputs " + q(out) + " --backend nosuch");
    CHECK(r.rc == 2);
    CHECK(r.out.find("nosuch") != std::string::npos);
  }
}

TEST_CASE("nnbridge run: NNBRIDGE_CPU_SIMD in any case is honoured, an unknown value is named on stderr and ignored") {
  // The project's own corpus (written by Arm NN 20.08), so this runs in a user's clone too.
  const fs::path dir = test::source_dir() / "tests/golden/armnn/add_float";
  auto run_with = [&](const char* value) {
    ::setenv("NNBRIDGE_CPU_SIMD", value, 1);
    const Result r = cli("run " + q(dir / "model.armnn") + " --inputs " + q(dir / "inputs") + " --outputs " + q(test::temp_dir() / "o"));
    ::unsetenv("NNBRIDGE_CPU_SIMD");
    return r;
  };
  const Result bogus = run_with("bogus");
  INFO(bogus.out);
  CHECK(bogus.rc == 0);
  CHECK(bogus.out.find("NNBRIDGE_CPU_SIMD=\"bogus\" is not one of sse2, sse4.2, avx2, avx512f; ignored") != std::string::npos);
  const Result upper = run_with("SSE2");
  INFO(upper.out);
  CHECK(upper.rc == 0);
  CHECK(upper.out.find("NNBRIDGE_CPU_SIMD") == std::string::npos);
}
