// sgemm (sgemm.h) compiled for AVX-512F + FMA (flags in cpu_ref/CMakeLists.txt); called only when
// sgemm.cc finds that this CPU and its OS run the instruction set.
#include "sgemm_impl.h"

namespace nnbridge::cpu_ref::sgemm_avx512f {

void run(const SgemmArgs& args) { sgemm_detail::run(args); }

}  // namespace nnbridge::cpu_ref::sgemm_avx512f
