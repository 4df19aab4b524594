// The functor xsimd::dispatch calls: MakeKernels{}(Arch{}) returns the kernel table of one
// instruction set. Its definition (kernels_impl.h) is compiled only in the per-arch files
// (arch_*.cc), each with its own -m flags; this header declares it for dispatch.cc.
#pragma once

#include "simd.h"

namespace nnbridge::cpu_ref::simd {

struct MakeKernels {
  template <class Arch>
  Kernels operator()(Arch) const;
};

}  // namespace nnbridge::cpu_ref::simd
