// `nnbridge run --extension LIB`: the example library computes the Arm NN StandIn model's output
// (checked against the documented formula), and every bad library is exit 3 naming its path,
// with no output written.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <sys/wait.h>

#include "nnbridge/npy.h"
#include "support/paths.h"
#include "support/shell_cli.h"

using namespace nnbridge;
namespace fs = std::filesystem;
using nnbridge::test::cli;
using nnbridge::test::q;
using nnbridge::test::Result;

namespace {

const fs::path kExample = fs::path("examples") / "extension";

Result run_example(const std::string& extension_args, const fs::path& out) {
  const fs::path dir = test::source_dir() / kExample;
  return cli("run " + q(dir / "scaled_tanh.armnn") + " --inputs " + q(dir / "inputs") + " --outputs " + q(out) + " " +
             extension_args);
}

}  // namespace

TEST_CASE("nnbridge run --extension: the example library gives y = 1.7159 tanh(2x/3) for the Arm NN StandIn model") {
  const fs::path out = test::temp_dir() / "out";
  Result r = run_example("--extension " + q(NNBRIDGE_EXAMPLE_EXT), out);
  INFO(r.out);
  REQUIRE(r.rc == 0);
  HostTensor x = read_npy(test::source_dir() / kExample / "inputs" / "x.npy");
  HostTensor y = read_npy(out / "y.npy");
  CHECK(y.dtype() == DataType::Float32);
  CHECK(y.shape() == std::vector<int64_t>{2, 4});
  auto xs = x.values<float>();
  auto ys = y.values<float>();
  REQUIRE(ys.size() == xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) CHECK(std::abs(ys[i] - 1.7159 * std::tanh(2.0 / 3.0 * xs[i])) <= 1e-6);
}

TEST_CASE("nnbridge run: a graph op without a kernel is exit 3 naming the op") {
  const fs::path out = test::temp_dir() / "out";
  Result r = run_example("", out);
  CHECK(r.rc == 3);
  CHECK(r.out.find("no kernel for op armnn.StandIn") != std::string::npos);
  CHECK(r.out.find("\"ScaledTanh\"") != std::string::npos);  // the node
  CHECK_FALSE(fs::exists(out / "y.npy"));
}

TEST_CASE("nnbridge run --extension: missing, non-ELF, entry-less, wrong-ABI, failing and conflicting libraries are exit 3 naming them") {
  const fs::path missing = test::temp_dir() / "absent.so";
  const fs::path text = test::temp_dir() / "text.so";
  std::ofstream(text) << "not a shared library\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {q(missing), "no such extension library"},
      {q(text), "cannot load the extension library"},
      {q(NNBRIDGE_TEST_EXT_NO_ENTRY), "exports no nnbridge_cpu_extension entry point"},
      {q(NNBRIDGE_TEST_EXT_WRONG_ABI), "was built for nnbridge cpu kernel ABI version"},
      {q(NNBRIDGE_TEST_EXT_FAILING), "needs a licence file"},
      {q(NNBRIDGE_EXAMPLE_EXT) + " --extension " + q(NNBRIDGE_TEST_EXT_CONFLICT), "is registered twice"},
  };
  const std::vector<std::string> named = {missing.string(), text.string(), NNBRIDGE_TEST_EXT_NO_ENTRY, NNBRIDGE_TEST_EXT_WRONG_ABI,
                                          NNBRIDGE_TEST_EXT_FAILING, NNBRIDGE_TEST_EXT_CONFLICT};
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const fs::path out = test::temp_dir() / "out";
    Result r = run_example("--extension " + cases[i].first, out);
    INFO(r.out);
    CHECK(r.rc == 3);
    CHECK(r.out.find(cases[i].second) != std::string::npos);
    CHECK(r.out.find(named[i] + ":") != std::string::npos);  // "PATH: message"
    CHECK_FALSE(fs::exists(out / "y.npy"));
  }
}
