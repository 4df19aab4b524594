// The NCHW convolutions' product with output channels across the vector lanes (conv.cc): each
// output position's taps are read one float at a time through offsets into the input (an
// "indirect" GEMM), the packed weights 16 output channels to a vector. Where sgemm (sgemm.h)
// puts output positions across the lanes, a plane of 7 x 7 outputs fills 4 vectors with 49 of 64
// lanes (and the shifted-rows grid, 61 columns, the same 4), and 14 x 14 fills 13 of its grid's
// 14 vectors' worth with outputs; here the lanes hold channels, whose counts in real networks are
// multiples of 16, and no position is computed that is not an output.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace nnbridge::cpu_ref {

/// Output channels per strip of pack_indirect_weights (one vector); a call's first output
/// channel starts a strip.
constexpr int64_t kIndirectStrip = 16;
/// The shortest K the convolutions (conv.cc) give this product: its broadcasts and its stores
/// (the sums of 96 positions transposed into Y's planes) pay only over a long enough sum (a 7 x 7
/// stem with K = 147 and 1 x 1 stride-2 convolutions with K <= 128 were slower; 128 <= K < 256
/// gave the zoo models nothing).
constexpr int64_t kIndirectMinK = 256;
/// The same for a direct 1x1 convolution on a small plane (kernels/conv.h, indirect_pays),
/// where the position-vectorized product leaves a quarter of its lanes idle: in the model,
/// mnasnet0_5's 96 -> 576 on 7 x 7 took 0.87x the time, mobilenet_v2's 160 -> 960 0.72x.
constexpr int64_t kIndirectMinKDirect = 96;

/// Y[o][p] = clamp(sum over k of W[o][k] * x[pos[p] + offsets[k]] + bias[o] + R[o][p]) for o < m,
/// p < np.
/// Rounding: every output is the fused multiply-add chain over k = 0, 1, ..., K - 1 in ascending
/// order from 0, then + bias[o] (a separate rounding), then + R[o][p] when `residual` is given
/// (another rounding: the separate Add node's), then, when `clamp` is set,
/// std::min(hi, std::max(lo, .)) (a NaN gives lo): the same expression, bit for bit, as sgemm's
/// W [m, K] x col [K, np] with bias_m and its clamp (sgemm_nn.h), whose col[k][p] is
/// x[pos[p] + offsets[k]].
struct IndirectArgs {
  int64_t m = 0, k = 0, np = 0;   ///< output channels, taps (K), output positions
  const float* w = nullptr;       ///< IndirectWeights::panels() of W [m][K]
  const float* x = nullptr;       ///< the input the offsets index
  const int64_t* pos = nullptr;   ///< np offsets: position p's element at tap offset 0
  const int64_t* offsets = nullptr;  ///< K offsets added to a position's
  float* y = nullptr;             ///< Y[o][p] at y[o * ldy + p]
  int64_t ldy = 0;                ///< in floats, >= np
  const float* bias = nullptr;    ///< m values, or null (no bias)
  const float* residual = nullptr;  ///< R[o][p] at residual[o * ldy + p] (Y's layout), or null
  bool clamp = false;
  float lo = 0, hi = 0;
};

/// W [m][k] (row-major, row o is output channel o's K weights) as ceil(m / 16) strips, each
/// [k][16] (channel o at lane o % 16 of strip o / 16; channels past m are 0), 64-byte aligned
/// (the kernel streams them with aligned loads). Output channels o0 .. of a call start at
/// panels() + o0 * k (o0 a multiple of 16).
struct IndirectWeights {
  struct Free {
    void operator()(float* p) const;
  };
  std::unique_ptr<float[], Free> storage;  ///< the strips (exec::large_alloc)
  const float* panels() const { return storage.get(); }
};
IndirectWeights pack_indirect_weights(const float* w, int64_t m, int64_t k);
/// The same from W's little-endian float32 bytes at any alignment (a constant left in its file,
/// not converted to an aligned float32 copy first).
IndirectWeights pack_indirect_weights(const std::byte* w, int64_t m, int64_t k);

/// Whether sgemm_indirect() runs here: the AVX-512 build of sgemm is chosen (sgemm_b_rows_available()).
bool indirect_available();

/// Runs the product on the calling thread. Requires indirect_available() (Error(Feature) else),
/// m, k, np >= 1 and ldy >= np (Error(Invalid) else).
void sgemm_indirect(const IndirectArgs& args);

}  // namespace nnbridge::cpu_ref
