// Bitwise ops on unsigned integers (semantics: the core schemas in sdk/core/src/ops/elementwise.cc).
// - BitShift (ONNX BitShift-11): X shifted LEFT or RIGHT by Y bits, the two broadcast; bits
//   shifted out of the type are lost, so a shift by its width or more gives 0. Unsigned integer
//   dtypes only (ONNX's); values travel as float32, exact below 2^24.
#include <cstdint>
#include <string_view>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

// A float holding an unsigned value, as uint64 (2^64, uint64's maximum rounded up, saturates).
uint64_t to_u64(float f) {
  if (!(f > 0)) return 0;
  return f >= 18446744073709551616.0f ? ~uint64_t{0} : static_cast<uint64_t>(f);
}

Kernel make_bit_shift(const KernelContext& ctx) {
  const std::string dir = ctx.attr_string("direction");
  if (dir != "LEFT" && dir != "RIGHT") ctx.invalid(ErrorId::AttributeValue, "direction must be \"LEFT\" or \"RIGHT\", not \"" + dir + "\"");
  const DataType dt = ctx.in[0].dtype;
  if (std::string_view(to_string(dt)).substr(0, 4) != "uint" || ctx.in[1].dtype != dt)
    ctx.unsupported(ErrorId::DataType, "BitShift of " + std::string(to_string(dt)) + " and " + std::string(to_string(ctx.in[1].dtype)) +
                    " (one unsigned integer dtype only)");
  const uint64_t width = element_size(dt) * 8;
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  const bool left = dir == "LEFT";
  const Shape os = ctx.out[0].shape;
  const Shape sa = exec::broadcast_strides(ctx.in[0].shape, os), sb = exec::broadcast_strides(ctx.in[1].shape, os);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const int64_t n = numel(os), r = static_cast<int64_t>(os.size());
    std::vector<int64_t> idx(static_cast<std::size_t>(r), 0);
    int64_t a = 0, b = 0;
    for (int64_t i = 0; i < n; ++i) {
      // A shift by the width or more empties the value.
      const uint64_t x = to_u64(in[0][a]), y = to_u64(in[1][b]);
      const uint64_t v = y >= width ? 0u : (left ? (x << y) & mask : x >> y);
      out[0][i] = static_cast<float>(v);
      for (int64_t d = r; d-- > 0;) {
        a += sa[d];
        b += sb[d];
        if (++idx[d] < os[d]) break;
        a -= sa[d] * os[d];
        b -= sb[d] * os[d];
        idx[d] = 0;
      }
    }
  };
}

}  // namespace

void add_bitwise_kernels(KernelTable& t) { t["BitShift"] = make_bit_shift; }

}  // namespace nnbridge::cpu_ref
