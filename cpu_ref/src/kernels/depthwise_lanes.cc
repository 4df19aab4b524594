// depthwise_lanes' packing and run-time choice (depthwise_lanes.h); the kernel is
// depthwise_lanes_avx512f.cc, built with the AVX-512 sgemm (cpu_ref/CMakeLists.txt).
#include "depthwise_lanes.h"

#include "../sgemm/sgemm.h"
#include "nnbridge/error.h"

namespace nnbridge::cpu_ref {

#if defined(NNBRIDGE_SGEMM_X86)
namespace depthwise_lanes_avx512f {
void run(const DepthwiseLanesArgs& args);
}
#endif

bool depthwise_lanes_available() {
#if defined(NNBRIDGE_SGEMM_X86)
  return sgemm_b_rows_available();
#else
  return false;
#endif
}

void depthwise_lanes(const DepthwiseLanesArgs& a) {
  if (!depthwise_lanes_available())
    throw Error(ErrorId::Feature, "depthwise_lanes needs the AVX-512 build; check depthwise_lanes_available() first");
  if (a.channels < 1 || a.channels > 16 || a.oh < 1 || a.ow < 1 || a.kh < 1 || a.kw < 1 || a.sh < 1 || a.sw < 1)
    throw Error(ErrorId::InvalidOther, "depthwise_lanes: 1 to 16 channels, and sizes and strides >= 1");
#if defined(NNBRIDGE_SGEMM_X86)
  depthwise_lanes_avx512f::run(a);
#endif
}

std::vector<float> pack_depthwise_lanes(const float* w, int64_t c, int64_t taps) {
  const int64_t blocks = (c + 15) / 16;
  std::vector<float> out(static_cast<std::size_t>(blocks * taps * 16), 0.0f);
  for (int64_t o = 0; o < c; ++o)
    for (int64_t t = 0; t < taps; ++t) out[static_cast<std::size_t>(((o / 16) * taps + t) * 16 + o % 16)] = w[o * taps + t];
  return out;
}

}  // namespace nnbridge::cpu_ref
