// The vector kernels for xsimd::sse2 (compiled with none (the x86-64 baseline); see CMakeLists.txt).
#include "kernels_impl.h"

template nnbridge::cpu_ref::simd::Kernels nnbridge::cpu_ref::simd::MakeKernels::operator()<xsimd::sse2>(xsimd::sse2) const;
