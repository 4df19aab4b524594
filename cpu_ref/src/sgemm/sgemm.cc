// sgemm's run-time choice (sgemm.h) and its baseline build (this file's flags: the project's).
#include "sgemm.h"

#include <cstdlib>
#include <cstring>

#include "../isa_cap.h"
#include "nnbridge/error.h"
#include "sgemm_impl.h"

namespace nnbridge::cpu_ref {

#if defined(NNBRIDGE_SGEMM_X86)
namespace sgemm_avx2 {
void run(const SgemmArgs& args);
}
namespace sgemm_avx512f {
void run(const SgemmArgs& args);
}
#endif

namespace {

// GCC's __builtin_cpu_supports also asks the OS (XGETBV) whether it saves the AVX / AVX-512
// registers.
std::vector<SgemmBuild> runnable() {
  std::vector<SgemmBuild> v;
#if defined(NNBRIDGE_SGEMM_X86)
  __builtin_cpu_init();
  const bool fma = __builtin_cpu_supports("fma");
  if (fma && __builtin_cpu_supports("avx512f")) v.push_back({"avx512f", sgemm_avx512f::run});
  if (fma && __builtin_cpu_supports("avx2")) v.push_back({"avx2", sgemm_avx2::run});
#endif
  v.push_back({"baseline", sgemm_detail::run});
  return v;
}

// The best build, capped by NNBRIDGE_CPU_SIMD as the vector kernels are (simd.h).
SgemmBuild choose() {
  const IsaCap cap = isa_cap();
  const bool below_avx2 = cap == IsaCap::Sse2 || cap == IsaCap::Sse4_2;
  const bool below_avx512 = below_avx2 || cap == IsaCap::Avx2;
  for (const SgemmBuild& b : runnable()) {
    if (below_avx512 && std::strcmp(b.name, "avx512f") == 0) continue;
    if (below_avx2 && std::strcmp(b.name, "avx2") == 0) continue;
    return b;
  }
  return {"baseline", sgemm_detail::run};
}

const SgemmBuild& chosen() {
  static const SgemmBuild b = choose();
  return b;
}

}  // namespace

std::vector<SgemmBuild> runnable_sgemms() { return runnable(); }

void sgemm(const SgemmArgs& args) {
  if (args.b_rows && !sgemm_b_rows_available())
    throw Error(ErrorId::Feature, "sgemm: B given by rows needs the AVX-512 build; check sgemm_b_rows_available() first");
  if (args.b_rows && (args.trans_a || args.trans_b || args.k < 1 || args.n < 16))
    throw Error(ErrorId::InvalidOther, "sgemm: B given by rows needs no transposes, k >= 1 and n >= 16");
  if (args.c_grid_wp != 0 && (!args.b_rows || args.c_grid_wp < 0 || args.c_grid_w < 1 || args.c_grid_w > args.c_grid_wp))
    throw Error(ErrorId::InvalidOther, "sgemm: C as a grid needs B given by rows and 1 <= c_grid_w <= c_grid_wp");
  chosen().run(args);
}

bool sgemm_b_rows_available() { return std::strcmp(chosen().name, "avx512f") == 0; }

const char* sgemm_arch() { return chosen().name; }

}  // namespace nnbridge::cpu_ref
