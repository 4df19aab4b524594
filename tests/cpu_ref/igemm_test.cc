// Oracle: the definition of a matrix product, summed in int64 here, element by element.
// igemm (cpu_ref/src/igemm/igemm.h): packing of A and B, tails of rows, columns and k, extreme
// values, and the largest k whose sums still fit int32.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

#include "igemm/igemm.h"
#include "nnbridge/exec/convert.h"
#include "one_node.h"

using namespace nnbridge::cpu_ref;

namespace {

// C = A * B through igemm, A [m][k] int8, B [k][n] holding integers as floats minus `add`; A
// packed, or read in place (igemm_view_a) from rows `lda` bytes apart whose bytes past k hold
// `filler` (they must not count).
std::vector<int32_t> product(const std::vector<int8_t>& a, const std::vector<float>& b, int64_t m, int64_t n, int64_t k, float add,
                             bool in_place = false, int64_t lda = 0, int8_t filler = 0) {
  std::vector<int8_t> rows;
  if (in_place) {
    lda = std::max(lda, k);
    rows.assign(static_cast<std::size_t>(m * lda), filler);
    for (int64_t i = 0; i < m; ++i) std::copy_n(a.begin() + i * k, k, rows.begin() + i * lda);
  }
  const IgemmA pa = in_place ? igemm_view_a(rows.data(), m, k, lda) : igemm_pack_a(a.data(), m, k, k);
  std::vector<uint8_t> pb(igemm_b_bytes(k, n), 0xAB);  // every byte written by the packing
  igemm_pack_b(b.data(), k, n, n, add, pb.data());
  const int64_t cols = igemm_columns(n);
  std::vector<int32_t> c(static_cast<std::size_t>(m * cols), 0x5a5a5a5a);
  igemm(pa, pb.data(), n, c.data(), cols);
  std::vector<int32_t> out;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) out.push_back(c[static_cast<std::size_t>(i * cols + j)]);
  return out;
}

std::vector<int32_t> expected(const std::vector<int8_t>& a, const std::vector<float>& b, int64_t m, int64_t n, int64_t k, float add) {
  std::vector<int32_t> out;
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t s = 0;
      for (int64_t kk = 0; kk < k; ++kk)
        s += int64_t{a[static_cast<std::size_t>(i * k + kk)]} * static_cast<int64_t>(b[static_cast<std::size_t>(kk * n + j)] + add);
      out.push_back(static_cast<int32_t>(s));
    }
  return out;
}

}  // namespace

TEST_CASE("cpu igemm: int8 x uint8 products against int64 sums, with row, column and k tails") {
  if (!igemm_available()) {
    MESSAGE("skipped: this CPU (or NNBRIDGE_CPU_SIMD) has no AVX-512 VNNI, so the integer convolutions use the float path");
    return;
  }
  for (int64_t m : {1, 5, 6, 7, 13})
    for (int64_t n : {1, 15, 16, 17, 33, 64, 65, 70, 130})  // 64-column tiles, a 32-column one last
      for (int64_t k : {1, 3, 4, 5, 37, 300}) {
        CAPTURE(m);
        CAPTURE(n);
        CAPTURE(k);
        std::vector<int8_t> a(static_cast<std::size_t>(m * k));
        std::vector<float> b(static_cast<std::size_t>(k * n));
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(static_cast<int>((i * 37 + 11) % 256) - 128);
        // b + add covers 0 .. 255: b in [-100, 155], add 100.
        for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>(static_cast<int>((i * 91 + 3) % 256) - 100);
        CHECK(product(a, b, m, n, k, 100.0f) == expected(a, b, m, n, k, 100.0f));
      }
}

TEST_CASE("cpu igemm: B packed from runs of staged bytes is the definition's matrix, zero past k and n") {
  if (!igemm_available()) {
    MESSAGE("skipped: no AVX-512 VNNI here");
    return;
  }
  // igemm_pack_b_runs: B[kk][r * ow + x] = base[offsets[kk] + r * row_stride + x], packed as
  // out[(q * columns + j) * 4 + i] = B[4q + i][j] (igemm.h), 0 for 4q + i >= k or j >= n. Runs
  // 1 to 37 wide (one partial 16-byte piece, several, one whole), rows of runs row_stride apart,
  // k with and without a tail quad; offsets out of order and overlapping, as taps' are.
  for (int64_t ow : {1, 7, 16, 21, 37})
    for (int64_t rows : {1, 3})
      for (int64_t k : {1, 4, 6, 9}) {
        CAPTURE(ow);
        CAPTURE(rows);
        CAPTURE(k);
        const int64_t row_stride = ow + 3, n = rows * ow, columns = igemm_columns(n);
        std::vector<uint8_t> base(static_cast<std::size_t>(8 * rows * row_stride + kIgemmRunSlack));
        for (std::size_t i = 0; i < base.size(); ++i) base[i] = static_cast<uint8_t>(i * 29 + 7);
        std::vector<int64_t> offsets;
        for (int64_t kk = 0; kk < k; ++kk) offsets.push_back((kk * 5 % 7) * rows * row_stride + kk % 3);
        std::vector<uint8_t> out(igemm_b_bytes(k, n), 0xAB);
        igemm_pack_b_runs(base.data(), offsets.data(), k, rows, ow, row_stride, out.data());
        std::vector<uint8_t> want(out.size(), 0);
        for (int64_t kk = 0; kk < k; ++kk)
          for (int64_t j = 0; j < n; ++j)
            want[static_cast<std::size_t>(((kk / 4) * columns + j) * 4 + kk % 4)] =
                base[static_cast<std::size_t>(offsets[static_cast<std::size_t>(kk)] + (j / ow) * row_stride + j % ow)];
        CHECK(out == want);
      }
}

TEST_CASE("cpu igemm: staged rows are X + add clamped to uint8, contiguous and strided") {
  if (!igemm_available()) {
    MESSAGE("skipped: no AVX-512 VNNI here");
    return;
  }
  // igemm_stage_row: dst[u] = clamp(src[u * stride] + add, 0, 255); bytes past count untouched.
  std::vector<float> src(200);
  for (std::size_t i = 0; i < src.size(); ++i) src[i] = static_cast<float>(static_cast<int>(i * 37 % 300) - 140);
  for (int64_t stride : {1, 2, 3})
    for (int64_t count : {1, 15, 16, 17, 40}) {
      CAPTURE(stride);
      CAPTURE(count);
      std::vector<uint8_t> dst(static_cast<std::size_t>(count + 8), 0xAB);
      igemm_stage_row(src.data() + 1, stride, count, 128.0f, dst.data());
      for (int64_t u = 0; u < count; ++u) {
        const float v = src[static_cast<std::size_t>(1 + u * stride)] + 128.0f;
        CHECK(int{dst[static_cast<std::size_t>(u)]} == (v < 0 ? 0 : v > 255 ? 255 : static_cast<int>(v)));
      }
      for (std::size_t u = static_cast<std::size_t>(count); u < dst.size(); ++u) CHECK(int{dst[u]} == 0xAB);
    }
}

TEST_CASE("cpu igemm: A read in place gives the int64 sums, with row and column tails and rows apart") {
  if (!igemm_available()) {
    MESSAGE("skipped: no AVX-512 VNNI here");
    return;
  }
  for (int64_t m : {1, 5, 6, 7, 13})
    for (int64_t n : {1, 17, 70})
      for (int64_t k : {4, 8, 36, 300})
        for (int64_t lda : {k, k + 5}) {
          CAPTURE(m);
          CAPTURE(n);
          CAPTURE(k);
          CAPTURE(lda);
          std::vector<int8_t> a(static_cast<std::size_t>(m * k));
          std::vector<float> b(static_cast<std::size_t>(k * n));
          for (std::size_t i = 0; i < a.size(); ++i) a[i] = static_cast<int8_t>(static_cast<int>((i * 53 + 7) % 256) - 128);
          for (std::size_t i = 0; i < b.size(); ++i) b[i] = static_cast<float>((i * 29 + 5) % 256);
          CHECK(product(a, b, m, n, k, 0.0f, true, lda, int8_t{127}) == expected(a, b, m, n, k, 0.0f));
        }
  // Row sums (the zero-point correction) of the in-place form, by hand: 1 + 2 + 3 - 4 and -128 * 4.
  const std::vector<int8_t> two{1, 2, 3, -4, -128, -128, -128, -128};
  CHECK(igemm_view_a(two.data(), 2, 4, 4).row_sum == std::vector<int64_t>{2, -512});
  CHECK_THROWS_AS(igemm_view_a(two.data(), 1, 6, 8), nnbridge::Error);  // k not a multiple of 4
  CHECK_THROWS_AS(igemm_view_a(two.data(), 1, kIgemmMaxK + 4, 8), nnbridge::Error);  // k past int32's reach
  // Longer rows (whole vectors and a tail), rows 300 bytes apart: sums against an int64 loop.
  const int64_t k = 260, lda = 300;
  std::vector<int8_t> rows(static_cast<std::size_t>(3 * lda), int8_t{99});
  for (int64_t kk = 0; kk < k; ++kk) {
    rows[static_cast<std::size_t>(kk)] = -128;
    rows[static_cast<std::size_t>(lda + kk)] = 127;
    rows[static_cast<std::size_t>(2 * lda + kk)] = static_cast<int8_t>(kk % 11 - 5);
  }
  std::vector<int64_t> want(3, 0);
  for (int64_t i = 0; i < 3; ++i)
    for (int64_t kk = 0; kk < k; ++kk) want[static_cast<std::size_t>(i)] += rows[static_cast<std::size_t>(i * lda + kk)];
  CHECK(want[0] == -33280);  // -128 * 260
  CHECK(igemm_view_a(rows.data(), 3, k, lda).row_sum == want);
}

TEST_CASE("cpu igemm: the largest k keeps every sum in int32, and out-of-range B values clamp to uint8") {
  if (!igemm_available()) {
    MESSAGE("skipped: no AVX-512 VNNI here");
    return;
  }
  // -128 * 255 * 65792 = -2,147,450,880, just above INT32_MIN (-2,147,483,648).
  const int64_t k = kIgemmMaxK, m = 2, n = 3;
  std::vector<int8_t> a(static_cast<std::size_t>(m * k), -128);
  for (int64_t kk = 0; kk < k; ++kk) a[static_cast<std::size_t>(k + kk)] = 127;
  std::vector<float> b(static_cast<std::size_t>(k * n), 255.0f);
  const std::vector<int32_t> c = product(a, b, m, n, k, 0.0f);
  CHECK(c == std::vector<int32_t>{-2147450880, -2147450880, -2147450880, 2130673920, 2130673920, 2130673920});
  // Packing clamps to [0, 255]: -7 + 0 gives 0 and 300 gives 255 (so a corrupt input cannot wrap).
  const std::vector<int8_t> one{1};
  CHECK(product(one, {-7.0f}, 1, 1, 1, 0.0f) == std::vector<int32_t>{0});
  CHECK(product(one, {300.0f}, 1, 1, 1, 0.0f) == std::vector<int32_t>{255});
}

TEST_CASE("cpu igemm: sums to double minus a correction, exactly, with a scalar tail") {
  if (!igemm_available()) {
    MESSAGE("skipped: no AVX-512 VNNI here");
    return;
  }
  // Hand values: each acc - correction is an integer below 2^53, so a double holds it exactly.
  const std::vector<int32_t> acc{0, 1, -1, 2147483647, -2147483647 - 1, 123456, -7, 8, 9, 10, 11};
  const int64_t correction = 2147450880;  // 128 * 255 * 65792: the size of a correction at igemm's largest K
  std::vector<double> out(acc.size(), -0.5);
  igemm_to_double(acc.data(), static_cast<int64_t>(acc.size()), correction, out.data());
  for (std::size_t j = 0; j < acc.size(); ++j) {
    CAPTURE(j);
    CHECK(out[j] == static_cast<double>(int64_t{acc[j]} - correction));
  }
  CHECK(out[4] == -4294934528.0);  // -2^31 - 2147450880
}

TEST_CASE("cpu igemm: requantize from int32 sums is QLinearConv's scalar expression, bit for bit") {
  if (!igemm_available()) {
    MESSAGE("skipped: no AVX-512 VNNI here");
    return;
  }
  // Oracle: std::clamp(std::nearbyint(((acc - correction) + bias) * m) + y_zero, lo, hi) in
  // double, element by element (the expression of simd::Kernels::requantize). Multiplier 0.5
  // puts every odd sum on a tie; the sums reach both ends of the range; 203 values leave a tail.
  std::vector<int32_t> acc;
  for (int32_t v = -700; v <= 1400; v += 7) acc.push_back(v);
  acc.push_back(2147483647);
  acc.push_back(-2147483647 - 1);
  for (const double m : {0.5, 0.0123, 1.0 / 3.0}) {
    const IgemmRequantize r{17, m, 128, 0, 255};
    const int64_t correction = 300;
    std::vector<float> expect(acc.size()), y(acc.size(), -1.0f);
    int mid = 0;
    for (std::size_t j = 0; j < acc.size(); ++j) {
      const double s = static_cast<double>(int64_t{acc[j]} - correction);
      expect[j] = static_cast<float>(std::clamp(std::nearbyint((s + r.bias) * r.multiplier) + r.y_zero, r.lo, r.hi));
      mid += expect[j] > 0 && expect[j] < 255;
    }
    CHECK(mid > 20);
    igemm_requantize(acc.data(), static_cast<int64_t>(acc.size()), correction, r, y.data());
    CAPTURE(m);
    CHECK(y == expect);
  }
}

TEST_CASE("cpu igemm: requantize from float sums, in place, is the same scalar expression, bit for bit") {
  if (!igemm_available()) {
    MESSAGE("skipped: no AVX-512 VNNI here");
    return;
  }
  // Oracle as above on float-held integer sums: std::clamp(std::nearbyint((s + bias) * m) +
  // y_zero, lo, hi) in double. Sums up to +-2^24 (the float paths' exact range), ties at
  // multiplier 0.5, an int8 range; 301 values leave a tail; NaN stays NaN.
  std::vector<float> sums;
  for (int32_t v = -900; v <= 1200; v += 7) sums.push_back(static_cast<float>(v));
  sums.push_back(16777216.0f);
  sums.push_back(-16777216.0f);
  for (const double m : {0.5, 0.0123, 1.0 / 3.0}) {
    const IgemmRequantize r{-37.5 + 0.5, m, -3, -128, 127};  // a bias minus a correction: any double
    std::vector<float> expect(sums.size()), y = sums;
    int mid = 0;
    for (std::size_t j = 0; j < sums.size(); ++j) {
      expect[j] = static_cast<float>(std::clamp(std::nearbyint((static_cast<double>(sums[j]) + r.bias) * r.multiplier) + r.y_zero, r.lo, r.hi));
      mid += expect[j] > -128 && expect[j] < 127;
    }
    CHECK(mid > 20);
    igemm_requantize_f32(y.data(), static_cast<int64_t>(y.size()), r, y.data());
    CAPTURE(m);
    CHECK(y == expect);
  }
  std::vector<float> nan(9, std::nanf(""));
  igemm_requantize_f32(nan.data(), 9, IgemmRequantize{0, 1, 0, 0, 255}, nan.data());
  CHECK(std::all_of(nan.begin(), nan.end(), [](float v) { return std::isnan(v); }));
}

TEST_CASE("cpu igemm: requantize with float32 multipliers and integer biases (its float32 shortcut) is still the double expression") {
  if (!igemm_available()) {
    MESSAGE("skipped: no AVX-512 VNNI here");
    return;
  }
  // The multipliers a QLinearConv has (float32 products of float32 scales) let igemm take a
  // float32 shortcut where it provably rounds the same (igemm_avx512vnni.cc, Narrow). Oracle: the
  // double expression of the tests above, element by element. Multipliers: 2^-7 and 7.5 tie
  // exactly; the others have full significands. Sums: small (most outputs inside the range), up
  // to 2^26 (past float32's integers), int32's ends, and for each multiplier the sums whose exact
  // product lies within |p| 2^-22 of a half-integer, found here in double: there a float32
  // product can round across the tie. Ranges: uint8's, and one of +-2^24 so that no rounding
  // hides behind saturation. Biases up to 2^30 and past it, and one that is not an integer.
  uint64_t state = 12345;
  auto next = [&] { return state = state * 6364136223846793005ull + 1442695040888963407ull, static_cast<uint32_t>(state >> 33); };
  // int32's ends first, among small sums in their block of 16 (a near-tie would send the whole
  // block to the double path).
  std::vector<int32_t> acc{2147483647, -2147483647 - 1};
  for (int i = 0; i < 4000; ++i) acc.push_back(static_cast<int32_t>(next() % 20001) - 10000);
  for (int i = 0; i < 2000; ++i) acc.push_back(static_cast<int32_t>(next() % (1u << 27)) - (1 << 26));
  for (int i = 0; i < 999; ++i) acc.push_back(2 * static_cast<int32_t>(next() % 2001) - 1001);  // odd
  std::vector<float> fsums;
  for (int32_t a : acc)
    if (a > -(1 << 24) && a < (1 << 24)) fsums.push_back(static_cast<float>(a));
  const float ms[] = {0.5f + 0x1p-24f, 0x1p-7f, 0.0123f, 1.0f / 3.0f, 0.000931f, 7.5f};
  const double biases[] = {0, 17, -4242, 1073741823, -1073741825, 8388607, 8388608, 3.5};
  for (const float m : ms)
    for (const double bias : biases) {
      // t = sum + bias near a tie: the sum t - bias, stored as acc = sum + correction.
      std::vector<int32_t> near = acc;
      std::vector<float> near_f = fsums;
      int found = 0;
      for (int32_t t = -300000; t <= 300000; ++t) {
        const double p = static_cast<double>(t) * m, d = std::abs(p - std::floor(p) - 0.5);
        if (d >= std::abs(p) * 0x1p-22) continue;
        const double sum = static_cast<double>(t) - std::floor(bias);
        near.push_back(static_cast<int32_t>(sum) + 1000), ++found;
        if (std::abs(sum) < 0x1p24) near_f.push_back(static_cast<float>(sum));
      }
      CAPTURE(m);
      CAPTURE(bias);
      CAPTURE(found);
      for (const bool wide : {false, true})
      for (const double y_zero : {3.0, double{0.1f}}) {  // 0.1f: not an integer (no zero point is): the double path
        CAPTURE(wide);
        CAPTURE(y_zero);
        const IgemmRequantize r{bias, static_cast<double>(m), y_zero, wide ? -0x1p24 : 0, wide ? 0x1p24 : 255};
        const int64_t correction = 1000;
        const std::vector<int32_t>& acc = near;
        const std::vector<float>& fsums = near_f;
        std::vector<float> expect(acc.size()), y(acc.size(), -1.0f);
        for (std::size_t j = 0; j < acc.size(); ++j) {
          const double v = static_cast<double>(int64_t{acc[j]} - correction);
          expect[j] = static_cast<float>(std::clamp(std::nearbyint((v + r.bias) * r.multiplier) + r.y_zero, r.lo, r.hi));
        }
        igemm_requantize(acc.data(), static_cast<int64_t>(acc.size()), correction, r, y.data());
        std::size_t wrong = 0;
        for (std::size_t j = 0; j < y.size(); ++j) wrong += std::memcmp(&y[j], &expect[j], 4) != 0;
        CHECK(wrong == 0);
        std::vector<float> fexpect(fsums.size()), fy = fsums;
        for (std::size_t j = 0; j < fsums.size(); ++j)
          fexpect[j] = static_cast<float>(std::clamp(std::nearbyint((static_cast<double>(fsums[j]) + r.bias) * r.multiplier) + r.y_zero, r.lo, r.hi));
        igemm_requantize_f32(fy.data(), static_cast<int64_t>(fy.size()), r, fy.data());
        wrong = 0;
        for (std::size_t j = 0; j < fy.size(); ++j) wrong += std::memcmp(&fy[j], &fexpect[j], 4) != 0;
        CHECK(wrong == 0);
      }
    }
}

TEST_CASE("cpu igemm: a QLinearConv plan never widens its packed int8 weights to float32, at prepare or run") {
  if (!igemm_available()) {
    MESSAGE("skipped: no AVX-512 VNNI here, so the float path reads W as float32");
    return;
  }
  // A 2-D QLinearConv (lifted to 3-D inside the kernel) with 64 x 64 x 3 x 3 = 36,864 int8
  // weights: everything else it converts (scales, zero points, bias) is under 200 values.
  using namespace nnbridge;
  using namespace nnbridge::test;
  const int64_t C = 64, M = 64, H = 8;
  std::vector<int8_t> w(static_cast<std::size_t>(M * C * 9));
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<int8_t>(static_cast<int>(i % 255) - 127);
  const TensorType u8x = typed(DataType::UInt8, {1, C, H, H});
  Graph g = OneNode("QLinearConv", {{"pads", Attr(std::vector<int64_t>{1, 1, 1, 1})}})
                .in(u8x)
                .constant(f32({}), std::vector<float>{0.02f})
                .constant(typed(DataType::UInt8, {}), std::vector<uint8_t>{128})
                .constant(typed(DataType::Int8, {M, C, 3, 3}), w)
                .constant(f32({M}), std::vector<float>(static_cast<std::size_t>(M), 0.001f))
                .constant(typed(DataType::Int8, {M}), std::vector<int8_t>(static_cast<std::size_t>(M), 0))
                .constant(f32({}), std::vector<float>{0.5f})
                .constant(typed(DataType::UInt8, {}), std::vector<uint8_t>{128})
                .done(typed(DataType::UInt8, {1, M, H, H}));
  const std::size_t before = exec::FloatConstant::converted_elements();
  const TensorMap out = run(g, {{"x0", HostTensor::from_values<uint8_t>(u8x, std::vector<uint8_t>(static_cast<std::size_t>(C * H * H), 130))}});
  CHECK(out.at("y0").element_count() == static_cast<std::size_t>(M * H * H));
  CHECK(exec::FloatConstant::converted_elements() - before < 200);
}

TEST_CASE("cpu igemm: a plan whose int8 weights are read in place outlives the graph they came from") {
  if (!igemm_available()) {
    MESSAGE("skipped: no AVX-512 VNNI here");
    return;
  }
  // 1x1 QLinearConv, C = 8 (K = 8, a multiple of 4: W is read where it lies), W[m][c] = m + 1,
  // X = 3 everywhere, x_zp 0, every scale 1, y_zp 0: by hand y[m] = 8 * 3 * (m + 1) = 24 (m + 1).
  // The graph is gone before the run, so the plan must hold W's bytes itself (the kernel keeps a
  // reference besides the plan's constants); an AddressSanitizer build (make test-sanitize)
  // also reports a read of freed bytes.
  using namespace nnbridge;
  using namespace nnbridge::test;
  const int64_t C = 8, M = 4, H = 2;
  std::vector<int8_t> w(static_cast<std::size_t>(M * C));
  for (int64_t m = 0; m < M; ++m)
    for (int64_t c = 0; c < C; ++c) w[static_cast<std::size_t>(m * C + c)] = static_cast<int8_t>(m + 1);
  const TensorType u8x = typed(DataType::UInt8, {1, C, H, H});
  std::unique_ptr<Plan> plan;
  {
    Graph g = OneNode("QLinearConv")
                  .in(u8x)
                  .constant(f32({}), std::vector<float>{1.0f})
                  .constant(typed(DataType::UInt8, {}), std::vector<uint8_t>{0})
                  .constant(typed(DataType::Int8, {M, C, 1, 1}), w)
                  .constant(f32({}), std::vector<float>{1.0f})
                  .constant(typed(DataType::Int8, {}), std::vector<int8_t>{0})
                  .constant(f32({}), std::vector<float>{1.0f})
                  .constant(typed(DataType::UInt8, {}), std::vector<uint8_t>{0})
                  .done(typed(DataType::UInt8, {1, M, H, H}));
    cpu_ref::register_backend();
    plan = find_backend("cpu")->prepare(g, {});
  }
  // Small blocks of every size, filled with -99, take the graph's freed memory (the allocator
  // hands freed blocks out again first), so a plain build sees the read too.
  std::vector<std::vector<int8_t>> scribble;
  for (std::size_t size = 1; size <= 512; ++size)
    for (int r = 0; r < 4; ++r) scribble.emplace_back(size, int8_t{-99});
  const TensorMap out = plan->run({{"x0", HostTensor::from_values<uint8_t>(u8x, std::vector<uint8_t>(static_cast<std::size_t>(C * H * H), 3))}});
  std::vector<uint8_t> want;
  for (int64_t m = 0; m < M; ++m)
    for (int64_t p = 0; p < H * H; ++p) want.push_back(static_cast<uint8_t>(24 * (m + 1)));
  CHECK(y_of<uint8_t>(out) == want);
}
