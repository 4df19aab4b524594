// An extension that cannot register its kernels: its registration function throws.
#include <stdexcept>

#include "nnbridge/cpu_kernel_api.h"

namespace {
void register_kernels(nnbridge::cpu_ref::KernelRegistrar&) { throw std::runtime_error("needs a licence file"); }
}  // namespace

NNBRIDGE_CPU_EXTENSION(register_kernels)
