// The cases the Arm NN 20.08 peer harness generates at test time (ctest fixture
// armnn_generated: peers.armnn.golden_reproducible writes them into the build tree, with the
// outputs Arm NN CpuRef computed as expected values) all run on "cpu" and match
// (armnn_case_runner.h). Unlike the committed corpus, these come from the Arm NN installed now.
#include <doctest/doctest.h>

#include <cstdlib>

#include "armnn_case_runner.h"
#include "nnbridge/cpu_ref.h"

using namespace nnbridge;

TEST_CASE("cpu vs Arm NN 20.08 CpuRef: cases the peer harness generates at test time") {
  // The environment variable of the same name points a hand run at another generated folder.
  const char* env = std::getenv("NNBRIDGE_ARMNN_GENERATED_DIR");
  const std::filesystem::path root = env && *env ? env : NNBRIDGE_ARMNN_GENERATED_DIR;
  INFO("generated folder: " << root.string());
  REQUIRE_MESSAGE(std::filesystem::is_directory(root), "run through ctest: the fixture test peers.armnn.golden_reproducible generates it");
  cpu_ref::register_backend();
  test::ArmnnCaseTally t;
  test::run_armnn_cases(root, true, t);
  test::report_armnn_cases("generated", t);
  CHECK(t.failures.empty());
  CHECK(t.unsupported == 0);
  CHECK(t.ran > 100);
}
