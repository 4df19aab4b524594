// Oracle: the rounding indirect.h documents, which is sgemm_nn.h's: per output, acc =
// std::fma(W[o][k], x[pos[p] + offsets[k]], acc) over k = 0 .. K - 1 in ascending order from 0,
// then + bias[o] rounded to float32, then the clamp std::min(hi, std::max(lo, y)) (a NaN gives
// lo). Checked bit for bit on the AVX-512 build, with places of Y outside the product untouched.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "nnbridge/error.h"
#include "sgemm/indirect.h"
#include "test_numbers.h"

using namespace nnbridge::cpu_ref;
using nnbridge::test::numbers;

namespace {

bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }

struct Product {
  int64_t m, k, np;
  int extra = 0;  // 0: no bias; 1: bias; 2: bias and a clamp to [-1.5, 2.25]
  bool specials = false;  // every 37th input NaN, +inf, -0 or -inf
};

void check(const Product& t) {
  CAPTURE(t.m);
  CAPTURE(t.k);
  CAPTURE(t.np);
  CAPTURE(t.extra);
  // Positions and taps at scattered places of x (a position's taps overlap other positions'),
  // Y's planes ldy = np + 3 apart with 7 floats before the first.
  const int64_t span = 5 * t.np + 3 * t.k + 11;
  const auto x = numbers(static_cast<std::size_t>(span), static_cast<uint32_t>(t.k * 7 + t.np), t.specials ? 37 : 0);
  const auto w = numbers(static_cast<std::size_t>(t.m * t.k), static_cast<uint32_t>(t.m * 13 + t.k));
  const auto bias = numbers(static_cast<std::size_t>(t.m), 9);
  std::vector<int64_t> pos(static_cast<std::size_t>(t.np)), offsets(static_cast<std::size_t>(t.k));
  for (int64_t p = 0; p < t.np; ++p) pos[p] = (p * 5 + (p % 3)) % (5 * t.np);
  for (int64_t q = 0; q < t.k; ++q) offsets[q] = (q * 7919) % (3 * t.k + 11);
  const int64_t ldy = t.np + 3;
  std::vector<float> y(static_cast<std::size_t>(7 + t.m * ldy), 99.0f);
  IndirectWeights packed = pack_indirect_weights(w.data(), t.m, t.k);
  CHECK(reinterpret_cast<std::uintptr_t>(packed.panels()) % 64 == 0);
  IndirectArgs a;
  a.m = t.m, a.k = t.k, a.np = t.np, a.w = packed.panels(), a.x = x.data(), a.pos = pos.data(), a.offsets = offsets.data();
  a.y = y.data() + 7, a.ldy = ldy;
  if (t.extra >= 1) a.bias = bias.data();
  if (t.extra == 2) a.clamp = true, a.lo = -1.5f, a.hi = 2.25f;
  sgemm_indirect(a);
  int64_t wrong = 0, touched = 0;
  for (int64_t i = 0; i < 7; ++i) touched += y[static_cast<std::size_t>(i)] != 99.0f;
  for (int64_t o = 0; o < t.m; ++o) {
    for (int64_t p = 0; p < t.np; ++p) {
      float e = 0.0f;
      for (int64_t q = 0; q < t.k; ++q)
        e = std::fma(w[static_cast<std::size_t>(o * t.k + q)], x[static_cast<std::size_t>(pos[p] + offsets[q])], e);
      if (t.extra >= 1) e = e + bias[static_cast<std::size_t>(o)];
      if (t.extra == 2) e = std::min(2.25f, std::max(-1.5f, e));
      wrong += !same(y[static_cast<std::size_t>(7 + o * ldy + p)], e);
    }
    for (int64_t p = t.np; p < ldy; ++p) touched += y[static_cast<std::size_t>(7 + o * ldy + p)] != 99.0f;
  }
  CHECK(wrong == 0);
  CHECK(touched == 0);
}

}  // namespace

TEST_CASE("cpu sgemm_indirect: channels across the lanes give the ascending fma chain, then the bias, then the clamp") {
  if (!indirect_available()) {
    MESSAGE("skipped: the AVX-512 sgemm does not run here (the convolutions take sgemm instead)");
    return;
  }
  // m across the 16-channel strips' tails and the 64-channel groups'; np across the 6-position
  // tiles' tails, the 16-position blocks the sums are transposed in and the 96-position chunks
  // (97: a chunk and one position; 200: two chunks and 8); K across the 2048-deep blocks (3100:
  // two blocks of 1550; 4200: three of 1400), whose partial sums wait in a scratch row between
  // blocks.
  for (const int64_t m : {1, 15, 16, 17, 64, 65, 130})
    for (const int64_t np : {1, 5, 6, 7, 49, 97, 200})
      for (const int64_t k : {1, 9, 256, 2048, 2049, 3100})
        for (const int extra : {0, 1, 2}) check({m, k, np, extra});
  check({40, 4200, 13, 2});
}

TEST_CASE("cpu sgemm_indirect: NaN and infinities go through the chain, and a clamp sends NaN to its lower bound") {
  if (!indirect_available()) {
    MESSAGE("skipped: the AVX-512 sgemm does not run here");
    return;
  }
  for (const int extra : {0, 1, 2}) check({20, 300, 11, extra, true});
}

TEST_CASE("cpu sgemm_indirect: empty products and planes closer than np are refused") {
  if (!indirect_available()) {
    MESSAGE("skipped: the AVX-512 sgemm does not run here");
    return;
  }
  const float x[1] = {1.0f};
  const int64_t pos[1] = {0}, offsets[1] = {0};
  float y[1] = {0.0f};
  IndirectWeights packed = pack_indirect_weights(x, 1, 1);
  IndirectArgs a;
  a.m = 1, a.k = 1, a.np = 1, a.w = packed.panels(), a.x = x, a.pos = pos, a.offsets = offsets, a.y = y, a.ldy = 1;
  sgemm_indirect(a);
  CHECK(y[0] == 1.0f);
  for (int field = 0; field < 4; ++field) {
    IndirectArgs b = a;
    if (field == 0) b.m = 0;
    if (field == 1) b.k = 0;
    if (field == 2) b.np = 0;
    if (field == 3) b.ldy = 0;
    CHECK_THROWS_AS(sgemm_indirect(b), nnbridge::Error);
  }
}

TEST_CASE("cpu pack_indirect_weights: strips of 16 channels, zeros past m, from float32 bytes at any alignment") {
  // indirect.h: strip s is [k][16], channel o at lane o % 16 of strip o / 16, 0 past m. The bytes
  // form reads W where it lies (an ONNX raw_data left in its file starts at any byte).
  // m within one strip, across a strip's tail, whole strips; k from 7 to 300. Compared bit for
  // bit (a NaN's payload too: packing only moves floats).
  for (const auto& mk : {std::pair<int64_t, int64_t>{20, 7}, {33, 37}, {16, 32}, {5, 300}, {64, 16}})
  for (std::size_t shift = 0; shift < 4; ++shift) {
    const int64_t m = mk.first, k = mk.second;  // named copies: CAPTURE takes them by reference
    CAPTURE(m);
    CAPTURE(k);
    CAPTURE(shift);
    std::vector<float> w = numbers(static_cast<std::size_t>(m * k), 11);
    w[static_cast<std::size_t>(k + 1)] = std::bit_cast<float>(0x7fc01234u);  // a NaN payload, moved as it is
    std::vector<std::byte> bytes(w.size() * sizeof(float) + 4);
    std::memcpy(bytes.data() + shift, w.data(), w.size() * sizeof(float));
    const IndirectWeights p = pack_indirect_weights(bytes.data() + shift, m, k);
    for (int64_t s = 0; s < (m + 15) / 16; ++s)
      for (int64_t j = 0; j < k; ++j)
        for (int64_t l = 0; l < 16; ++l) {
          const int64_t o = s * 16 + l;
          const float expect = o < m ? w[static_cast<std::size_t>(o * k + j)] : 0.0f;
          REQUIRE(std::bit_cast<uint32_t>(p.panels()[(s * k + j) * 16 + l]) == std::bit_cast<uint32_t>(expect));  // the bits
        }
  }
}
