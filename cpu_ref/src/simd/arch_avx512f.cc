// The vector kernels for xsimd::avx512f (compiled with -mavx512f; see CMakeLists.txt).
#include "kernels_impl.h"

template nnbridge::cpu_ref::simd::Kernels nnbridge::cpu_ref::simd::MakeKernels::operator()<xsimd::avx512f>(xsimd::avx512f) const;
