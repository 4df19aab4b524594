// An extension built for another ABI version: its entry point answers every loader with the
// version it claims to need (kCpuKernelAbiVersion + 1000) and never touches the registrar.
#include "nnbridge/cpu_kernel_api.h"

extern "C" __attribute__((visibility("default"))) int32_t nnbridge_cpu_extension(uint32_t abi_version,
                                                                                nnbridge::cpu_ref::KernelRegistrar*) {
  constexpr uint32_t mine = nnbridge::cpu_ref::kCpuKernelAbiVersion + 1000;
  return abi_version == mine ? nnbridge::cpu_ref::kCpuExtensionOk : static_cast<int32_t>(mine);
}
