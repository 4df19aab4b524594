// Every Arm NN case with expected outputs runs on "opencl" and matches the outputs Arm NN 20.08
// CpuRef computed (outputs/*.npy) within the same tolerance as the cpu tests: float
// |a - e| <= 1e-5 + 1e-4 |e| unless case.json says otherwise, quantized <= 1 step
// (tests/cpu_ref/armnn_case_runner.h). One process: PoCL builds each kernel file once.
#include <doctest/doctest.h>

#include "armnn_case_runner.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/gpu.h"
#include "support/paths.h"
#include "have_opencl.h"

using namespace nnbridge;


TEST_CASE("opencl vs Arm NN 20.08 CpuRef: ../shared/samples/armnn") {
  auto root = test::shared_sample("armnn");
  NNBRIDGE_REQUIRE_SHARED(root);
  if (!test::have_opencl()) return;
  gpu::register_backend();
  test::ArmnnCaseTally t;
  test::run_armnn_cases(*root, false, t, {.name = "opencl", .options = {}});
  test::report_armnn_cases("shared samples", t, "opencl");
  CHECK(t.failures.empty());
  CHECK(t.unsupported == 0);
  CHECK(t.ran > 0);
}

// The project's corpus: every case whose ops all have opencl kernels must match; the others
// are counted (and listed by op) as unsupported, not failed.
TEST_CASE("opencl vs Arm NN 20.08 CpuRef: tests/golden/armnn") {
  if (!test::have_opencl()) return;
  gpu::register_backend();
  test::ArmnnCaseTally t;
  test::run_armnn_cases(test::source_dir() / "tests/golden/armnn", true, t, {.name = "opencl", .options = {}, .count_unsupported = true});
  test::report_armnn_cases("golden", t, "opencl");
  CHECK(t.failures.empty());
  CHECK(t.ran > 0);
}

// With opencl.fallback=cpu the nodes without an opencl kernel run on cpu: every case runs.
TEST_CASE("opencl with opencl.fallback=cpu vs Arm NN 20.08 CpuRef: tests/golden/armnn") {
  if (!test::have_opencl()) return;
  gpu::register_backend();
  cpu_ref::register_backend();
  test::CaseBackend b{.name = "opencl", .options = {}};
  b.options.options["opencl.fallback"] = "cpu";
  test::ArmnnCaseTally t;
  test::run_armnn_cases(test::source_dir() / "tests/golden/armnn", true, t, b);
  test::report_armnn_cases("golden (fallback cpu)", t, "opencl");
  CHECK(t.failures.empty());
  CHECK(t.unsupported == 0);
}
