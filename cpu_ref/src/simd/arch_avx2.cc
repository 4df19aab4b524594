// The vector kernels for xsimd::avx2 (compiled with -mavx2; see CMakeLists.txt).
#include "kernels_impl.h"

template nnbridge::cpu_ref::simd::Kernels nnbridge::cpu_ref::simd::MakeKernels::operator()<xsimd::avx2>(xsimd::avx2) const;
