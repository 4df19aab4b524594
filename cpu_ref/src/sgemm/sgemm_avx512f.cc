// sgemm (sgemm.h) compiled for AVX-512F + FMA (flags in cpu_ref/CMakeLists.txt); called only when
// sgemm.cc finds that this CPU and its OS run the instruction set. Products without transposes
// go to the build's own kernel (sgemm_nn.h), the others to Eigen's GEMM.
#include "sgemm_impl.h"
#include "sgemm_nn.h"

namespace nnbridge::cpu_ref::sgemm_avx512f {

void run(const SgemmArgs& args) {
  if (takes_nn(args) || args.b_rows) run_nn(args);
  else sgemm_detail::run(args);
}

}  // namespace nnbridge::cpu_ref::sgemm_avx512f
