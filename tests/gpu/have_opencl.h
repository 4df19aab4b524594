// The opencl tests' guard: true when OpenCL lists a device; otherwise the test is skipped with a
// message saying what to install (a clone without PoCL or a GPU still passes `make test`).
#pragma once

#include "nnbridge/gpu.h"
#include "support/paths.h"

namespace nnbridge::test {

inline bool have_opencl() {
  if (!gpu::list_devices().empty()) return true;
  skip("no OpenCL platform or device (install pocl-opencl-icd)");
  return false;
}

}  // namespace nnbridge::test
