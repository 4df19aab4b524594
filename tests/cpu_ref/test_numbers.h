// Operands for the matrix-product and convolution tests: values of [-4, 4] in steps of 1/250, so
// products and sums round (an oracle that fixes the order of the operations then tells orders
// apart), from a xorshift generator seeded per operand.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace nnbridge::test {

/// `n` values; when special > 0, every special-th one is replaced by NaN, +inf, -0 or -inf in turn.
inline std::vector<float> numbers(std::size_t n, uint32_t seed, std::size_t special = 0) {
  std::vector<float> v(n);
  uint32_t s = 2463534242u ^ (seed * 2654435761u);
  const float sp[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(), -0.0f,
                      -std::numeric_limits<float>::infinity()};
  for (std::size_t i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    v[i] = static_cast<float>(static_cast<int>(s % 2001) - 1000) / 250.0f;
    if (special > 0 && i % special == special - 1) v[i] = sp[(i / special) % 4];
  }
  return v;
}

}  // namespace nnbridge::test
