// An extension whose registration conflicts with the example's (examples/extension): it also
// registers armnn.StandIn for float32.
#include "nnbridge/cpu_kernel_api.h"

namespace {
void register_kernels(nnbridge::cpu_ref::KernelRegistrar& r) {
  r.add({.op = "armnn.StandIn", .dtype = nnbridge::DataType::Float32, .infer = {}, .compute = [](const auto&) {}});
}
}  // namespace

NNBRIDGE_CPU_EXTENSION(register_kernels)
