// Every Arm NN case with expected outputs (../shared/samples/armnn/*, tests/golden/armnn/*)
// runs on "cpu" and matches the outputs Arm NN 20.08 CpuRef computed (outputs/*.npy) within
// the case's tolerance: float |a - e| <= 1e-5 + 1e-4 |e|, quantized <= 1 step
// (armnn_case_runner.h).
#include <doctest/doctest.h>

#include "armnn_case_runner.h"
#include "nnbridge/cpu_ref.h"
#include "support/paths.h"

using namespace nnbridge;

TEST_CASE("cpu vs Arm NN 20.08 CpuRef: ../shared/samples/armnn") {
  auto root = test::shared_sample("armnn");
  NNBRIDGE_REQUIRE_SHARED(root);
  cpu_ref::register_backend();
  test::ArmnnCaseTally t;
  test::run_armnn_cases(*root, false, t);
  test::report_armnn_cases("shared samples", t);
  CHECK(t.failures.empty());
  CHECK(t.ran > 0);
}

TEST_CASE("cpu vs Arm NN 20.08 CpuRef: tests/golden/armnn") {
  cpu_ref::register_backend();
  test::ArmnnCaseTally t;
  test::run_armnn_cases(test::source_dir() / "tests/golden/armnn", true, t);
  test::report_armnn_cases("golden", t);
  CHECK(t.failures.empty());
  CHECK(t.ran > 0);
}
