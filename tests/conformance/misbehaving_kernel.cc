// Test-only cpu extensions for the conformance runner's tests (runner_test.cc): an `armnn.StandIn`
// float32 kernel that, when the case executes, either kills its own process with SIGSEGV
// (NNBRIDGE_TEST_CRASH) or never returns (NNBRIDGE_TEST_HANG). Loaded by a case through the
// `extensions` key of case.json, as a user's custom kernels would be, so the runner's handling of
// a case whose process dies or hangs is tested through the ordinary execution path.
#include <signal.h>
#include <unistd.h>

#include "nnbridge/cpu_kernel_api.h"

namespace {

using namespace nnbridge::cpu_ref;

void misbehave(const KernelCall&) {
#if defined(NNBRIDGE_TEST_CRASH)
  kill(getpid(), SIGSEGV);
#endif
  for (;;) pause();  // the hang (and, after SIGSEGV, never reached)
}

void register_kernels(KernelRegistrar& r) {
  // No shape function: the StandIn layer's declared output type is used.
  r.add(CustomKernel{.op = "armnn.StandIn", .dtype = nnbridge::DataType::Float32, .compute = misbehave});
}

}  // namespace

NNBRIDGE_CPU_EXTENSION(register_kernels)
