// sgemm_indirect's packing, checks and run-time choice (indirect.h); the kernel is
// indirect_avx512f.cc, built with the AVX-512 sgemm (cpu_ref/CMakeLists.txt).
#include "indirect.h"

#include <algorithm>
#include <cstring>
#include <cstdlib>
#include <new>

#include "nnbridge/error.h"
#include "nnbridge/exec/large_buffer.h"
#include "sgemm.h"

namespace nnbridge::cpu_ref {

#if defined(NNBRIDGE_SGEMM_X86)
namespace sgemm_avx512f {
void run_indirect(const IndirectArgs& args);
}
#endif

void IndirectWeights::Free::operator()(float* p) const { exec::large_free(p); }

// Strip by strip, row by row: the writes are sequential and each strip reads 16 rows of W side
// by side. The strips' memory is exec::large_alloc's (huge pages from 2 MiB up): resnet18's 45
// MB of strips otherwise cost 11,000 page faults at prepare, most of its time there, and as many
// TLB entries at run time.
IndirectWeights pack_indirect_weights(const float* w, int64_t m, int64_t k) {
  return pack_indirect_weights(reinterpret_cast<const std::byte*>(w), m, k);
}

IndirectWeights pack_indirect_weights(const std::byte* w, int64_t m, int64_t k) {
  const int64_t strips = (m + kIndirectStrip - 1) / kIndirectStrip;
  const std::size_t bytes = static_cast<std::size_t>(strips * k * kIndirectStrip) * sizeof(float);
  IndirectWeights out;
  out.storage.reset(static_cast<float*>(exec::large_alloc(bytes)));
  float* dst = out.storage.get();
  for (int64_t s = 0; s < strips; ++s) {
    const int64_t o0 = s * kIndirectStrip, lanes = std::min(kIndirectStrip, m - o0);
    for (int64_t j = 0; j < k; ++j, dst += kIndirectStrip) {
      for (int64_t l = 0; l < lanes; ++l) std::memcpy(dst + l, w + ((o0 + l) * k + j) * sizeof(float), sizeof(float));
      for (int64_t l = lanes; l < kIndirectStrip; ++l) dst[l] = 0.0f;
    }
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
  if (a.m < 1 || a.k < 1 || a.np < 1 || a.ldy < a.np)
    throw Error(ErrorId::InvalidOther, "sgemm_indirect: m, k and np must be >= 1, and ldy >= np");
#if defined(NNBRIDGE_SGEMM_X86)
  sgemm_avx512f::run_indirect(a);
#endif
}

}  // namespace nnbridge::cpu_ref
