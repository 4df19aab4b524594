// sgemm_indirect's packing, checks and run-time choice (indirect.h); the kernel is
// indirect_avx512f.cc, built with the AVX-512 sgemm (cpu_ref/CMakeLists.txt).
#include "indirect.h"

#include "nnbridge/error.h"
#include "sgemm.h"

namespace nnbridge::cpu_ref {

#if defined(NNBRIDGE_SGEMM_X86)
namespace sgemm_avx512f {
void run_indirect(const IndirectArgs& args);
}
#endif

IndirectWeights pack_indirect_weights(const float* w, int64_t m, int64_t k) {
  const int64_t strips = (m + kIndirectStrip - 1) / kIndirectStrip;
  IndirectWeights out;
  out.storage.assign(static_cast<std::size_t>(strips * k * kIndirectStrip + 16), 0.0f);
  float* dst = const_cast<float*>(out.panels());
  for (int64_t o = 0; o < m; ++o) {
    float* strip = dst + (o / kIndirectStrip) * k * kIndirectStrip + o % kIndirectStrip;
    for (int64_t j = 0; j < k; ++j) strip[j * kIndirectStrip] = w[o * k + j];
  }
  return out;
}

bool indirect_available() {
#if defined(NNBRIDGE_SGEMM_X86)
  return sgemm_b_rows_available();
#else
  return false;
#endif
}

void sgemm_indirect(const IndirectArgs& a) {
  if (!indirect_available())
    throw Error(ErrorId::Feature, "sgemm_indirect needs the AVX-512 build; check indirect_available() first");
  if (a.m < 1 || a.k < 1 || a.np < 1 || a.ldy < 1 || a.ldy >= (int64_t{1} << 27))
    throw Error(ErrorId::InvalidOther, "sgemm_indirect: m, k, np and ldy must be >= 1, and 16 * ldy < 2^31");
#if defined(NNBRIDGE_SGEMM_X86)
  sgemm_avx512f::run_indirect(a);
#endif
}

}  // namespace nnbridge::cpu_ref
