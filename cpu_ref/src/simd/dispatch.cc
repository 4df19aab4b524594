// Picks the vector kernels for this CPU with xsimd::dispatch (once, on first use).
#include <xsimd/xsimd.hpp>

#include <cstdlib>
#include <cstring>

#include "../isa_cap.h"
#include "make_kernels.h"
#include "nnbridge/cpu_ref.h"

namespace nnbridge::cpu_ref::simd {

namespace {

#if defined(__x86_64__) || defined(_M_X64)
// Best first, as xsimd::dispatch walks it. AVX-512F and AVX2 without FMA: the kernels use no
// fused multiply-add, so any CPU with the base instruction set gets them.
using Archs = xsimd::arch_list<xsimd::avx512f, xsimd::avx2, xsimd::sse4_2, xsimd::sse2>;
#else
using Archs = xsimd::arch_list<xsimd::default_arch>;
#endif

// Every compiled instruction set the CPU runs, best first. xsimd 8.1 reads CPUID only; GCC's
// __builtin_cpu_supports also asks the OS (XGETBV) whether it saves the AVX / AVX-512 registers,
// so a kernel or hypervisor that leaves them off does not get those kernels.
std::vector<Kernels> runnable() {
  std::vector<Kernels> v;
#if defined(__x86_64__) || defined(_M_X64)
  const auto cpu = xsimd::available_architectures();
  if (cpu.avx512f && __builtin_cpu_supports("avx512f")) v.push_back(MakeKernels{}(xsimd::avx512f{}));
  if (cpu.avx2 && __builtin_cpu_supports("avx2")) v.push_back(MakeKernels{}(xsimd::avx2{}));
  if (cpu.sse4_2 && __builtin_cpu_supports("sse4.2")) v.push_back(MakeKernels{}(xsimd::sse4_2{}));
  v.push_back(MakeKernels{}(xsimd::sse2{}));
#else
  v.push_back(MakeKernels{}(xsimd::default_arch{}));
#endif
  return v;
}

const std::vector<Kernels>& all_runnable() {
  static const std::vector<Kernels> all = runnable();
  return all;
}

}  // namespace

const Kernels& kernels() {
  static const Kernels k = [] {
    // NNBRIDGE_CPU_SIMD=<name> picks a lower instruction set this CPU runs (tests use it to run
    // whole graphs on the SSE2 kernels); one this CPU lacks is ignored (isa_cap.h).
    if (const IsaCap cap = isa_cap(); cap != IsaCap::None)
      for (const Kernels& r : all_runnable())
        if (std::strcmp(isa_cap_name(cap), r.arch) == 0) return r;
    const Kernels chosen = xsimd::dispatch<Archs>(MakeKernels{})();
    // Keep xsimd's choice unless the OS check above ruled it out; then the best one left.
    for (const Kernels& r : all_runnable())
      if (r.binary == chosen.binary) return chosen;
    return all_runnable().front();
  }();
  return k;
}

std::vector<const Kernels*> runnable_kernels() {
  std::vector<const Kernels*> out;
  for (const Kernels& k : all_runnable()) out.push_back(&k);
  return out;
}

}  // namespace nnbridge::cpu_ref::simd

namespace nnbridge::cpu_ref {

std::string simd_arch() { return simd::kernels().arch; }

}  // namespace nnbridge::cpu_ref
