// The vector kernels for xsimd::sse4_2 (compiled with -msse4.2; see CMakeLists.txt).
#include "kernels_impl.h"

template nnbridge::cpu_ref::simd::Kernels nnbridge::cpu_ref::simd::MakeKernels::operator()<xsimd::sse4_2>(xsimd::sse4_2) const;
