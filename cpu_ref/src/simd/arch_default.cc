// The vector kernels for xsimd's default instruction set of the target (non-x86 builds).
#include "kernels_impl.h"

template nnbridge::cpu_ref::simd::Kernels nnbridge::cpu_ref::simd::MakeKernels::operator()<xsimd::default_arch>(
    xsimd::default_arch) const;
