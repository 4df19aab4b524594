// Oracle: the rounding the AVX-512 build documents for products without transposes
// (cpu_ref/src/sgemm/sgemm_nn.h): per element, std::fma over k = 0 .. K - 1 in ascending order
// from 0, then + bias_n[j], then + bias_m[i], each rounded to float32, then the clamp
// std::min(hi, std::max(lo, c)) (sgemm.h). The bound every build meets (any order, fused or not)
// is checked in simd_test.cc and, with a clamp, below; the AVX-512 kernel is checked bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "nnbridge/error.h"
#include "sgemm/sgemm.h"
#include "test_numbers.h"

using namespace nnbridge::cpu_ref;
using nnbridge::test::numbers;

namespace {

const SgemmBuild* build_named(const char* name) {
  static const std::vector<SgemmBuild> builds = runnable_sgemms();
  for (const SgemmBuild& b : builds)
    if (std::strcmp(b.name, name) == 0) return &b;
  return nullptr;
}

bool same(float a, float b) { return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b); }

}  // namespace

TEST_CASE("cpu sgemm: the AVX-512 build's product without transposes is the ascending fma chain, then bias_n, then bias_m") {
  const SgemmBuild* avx512 = build_named("avx512f");
  if (!avx512) {
    MESSAGE("skipped: this CPU (or this compiler's build) has no AVX-512 sgemm");
    return;
  }
  // m across the 6-row blocks' tails, n across the 16-lane vectors' and 64-column tiles' tails
  // (16 is the narrowest this kernel takes), k across its 512-deep blocks (partial sums go
  // through C between them).
  for (const int64_t m : {1, 5, 6, 7, 13})
    for (const int64_t n : {16, 17, 63, 64, 65, 200, 300})
      for (const int64_t K : {1, 3, 511, 512, 513, 1100})
        for (const int extra : {0, 1, 2}) {  // nothing; both biases; both biases and a Clip to [-1.5, 2.25]
          CAPTURE(m);
          CAPTURE(n);
          CAPTURE(K);
          CAPTURE(extra);
          const bool with_bias = extra > 0;
          const int64_t lda = K + 3, ldb = n + 2, ldc = n + 5;
          const auto a = numbers(static_cast<std::size_t>(m * lda), static_cast<uint32_t>(m * 31 + K));
          const auto b = numbers(static_cast<std::size_t>(K * ldb), static_cast<uint32_t>(n * 17 + K));
          const auto bn = numbers(static_cast<std::size_t>(n), 5), bm = numbers(static_cast<std::size_t>(m), 6);
          std::vector<float> c(static_cast<std::size_t>(m * ldc), 99.0f);
          SgemmArgs p;
          p.m = m, p.n = n, p.k = K, p.a = a.data(), p.lda = lda, p.b = b.data(), p.ldb = ldb, p.c = c.data(), p.ldc = ldc;
          if (with_bias) p.bias_n = bn.data(), p.bias_m = bm.data();
          if (extra == 2) p.clamp = true, p.clamp_lo = -1.5f, p.clamp_hi = 2.25f;
          avx512->run(p);
          int64_t wrong = 0, padding = 0;
          for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < n; ++j) {
              float e = 0.0f;
              for (int64_t q = 0; q < K; ++q) e = std::fma(a[static_cast<std::size_t>(i * lda + q)], b[static_cast<std::size_t>(q * ldb + j)], e);
              if (with_bias) e = (e + bn[static_cast<std::size_t>(j)]) + bm[static_cast<std::size_t>(i)];
              if (extra == 2) e = std::min(2.25f, std::max(-1.5f, e));
              wrong += !same(c[static_cast<std::size_t>(i * ldc + j)], e);
            }
            for (int64_t j = n; j < ldc; ++j) padding += c[static_cast<std::size_t>(i * ldc + j)] != 99.0f;
          }
          CHECK(wrong == 0);
          CHECK(padding == 0);
        }
}

TEST_CASE("cpu sgemm: the AVX-512 build's product without transposes carries NaN and infinities as the fma chain does") {
  const SgemmBuild* avx512 = build_named("avx512f");
  if (!avx512) {
    MESSAGE("skipped: this CPU (or this compiler's build) has no AVX-512 sgemm");
    return;
  }
  const int64_t m = 7, n = 40, K = 600;
  const auto a = numbers(static_cast<std::size_t>(m * K), 1, 1500), b = numbers(static_cast<std::size_t>(K * n), 2, 1201);
  for (const bool relu : {false, true}) {
    CAPTURE(relu);
    std::vector<float> c(static_cast<std::size_t>(m * n), 99.0f);
    SgemmArgs p;
    p.m = m, p.n = n, p.k = K, p.a = a.data(), p.lda = K, p.b = b.data(), p.ldb = n, p.c = c.data(), p.ldc = n;
    if (relu) p.clamp = true, p.clamp_lo = 0.0f, p.clamp_hi = std::numeric_limits<float>::infinity();
    avx512->run(p);
    int64_t nans = 0, infs = 0, wrong = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        float e = 0.0f;
        for (int64_t q = 0; q < K; ++q) e = std::fma(a[static_cast<std::size_t>(i * K + q)], b[static_cast<std::size_t>(q * n + j)], e);
        nans += std::isnan(e), infs += std::isinf(e);
        if (relu) e = std::max(0.0f, e);  // ONNX Relu as the cpu backend's Relu kernel computes it: NaN gives 0
        wrong += !same(c[static_cast<std::size_t>(i * n + j)], e);
      }
    CHECK(nans > 0);      // the case reaches NaN ...
    CHECK(nans < m * n);  // ... not everywhere,
    CHECK(infs > 0);      // and infinities
    CHECK(wrong == 0);
  }
}

TEST_CASE("cpu sgemm: every build's clamp keeps the product within the float32 bound of the clamped exact value") {
  // std::min(hi, std::max(lo, .)) moves no value further from another than they were, so the
  // product's bound (simd_test.cc: 2 (K + 2) eps sum |a b| + |bias| terms) holds after it too.
  const int64_t m = 9, n = 37, K = 700;
  const auto a = numbers(static_cast<std::size_t>(m * K), 3), b = numbers(static_cast<std::size_t>(K * n), 4);
  const auto bm = numbers(static_cast<std::size_t>(m), 7);
  const float lo = -20.0f, hi = 35.0f;
  for (const SgemmBuild& build : runnable_sgemms()) {
    const std::string name = build.name;
    CAPTURE(name);
    std::vector<float> c(static_cast<std::size_t>(m * n), 99.0f);
    SgemmArgs p;
    p.m = m, p.n = n, p.k = K, p.a = a.data(), p.lda = K, p.b = b.data(), p.ldb = n, p.c = c.data(), p.ldc = n;
    p.bias_m = bm.data(), p.clamp = true, p.clamp_lo = lo, p.clamp_hi = hi;
    build.run(p);
    const double eps = std::numeric_limits<float>::epsilon();
    int64_t outside = 0, at_lo = 0, at_hi = 0, inside = 0;
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double exact = bm[static_cast<std::size_t>(i)], mag = std::fabs(exact);
        for (int64_t q = 0; q < K; ++q) {
          const double x = double(a[static_cast<std::size_t>(i * K + q)]) * b[static_cast<std::size_t>(q * n + j)];
          exact += x, mag += std::fabs(x);
        }
        const double want = std::min<double>(hi, std::max<double>(lo, exact));
        const double got = c[static_cast<std::size_t>(i * n + j)];
        outside += std::fabs(got - want) > 2.0 * (double(K) + 2.0) * eps * mag;
        at_lo += got == lo, at_hi += got == hi, inside += got > lo && got < hi;
      }
    CHECK(outside == 0);
    CHECK(at_lo > 0);  // the case reaches both bounds and the inside
    CHECK(at_hi > 0);
    CHECK(inside > 0);
  }
}

TEST_CASE("cpu sgemm: B by rows is refused with a transpose, k = 0 or n < 16, and where the AVX-512 build does not run") {
  std::vector<float> a(64, 1.0f), b(64, 1.0f), c(64, 0.0f);
  const float* rows[] = {b.data(), b.data()};
  SgemmArgs p;
  p.m = 2, p.n = 16, p.k = 2, p.a = a.data(), p.lda = 2, p.c = c.data(), p.ldc = 16, p.b_rows = rows;
  if (!sgemm_b_rows_available()) {
    CHECK_THROWS_AS(sgemm(p), nnbridge::Error);
    return;
  }
  sgemm(p);
  CHECK(c[0] == 2.0f);  // 1 * 1 + 1 * 1
  CHECK(c[31] == 2.0f);
  for (int bad = 0; bad < 3; ++bad) {
    CAPTURE(bad);
    SgemmArgs q = p;
    if (bad == 0) q.trans_a = true;
    if (bad == 1) q.k = 0;
    if (bad == 2) q.n = 15;
    CHECK_THROWS_AS(sgemm(q), nnbridge::Error);
  }
}

TEST_CASE("cpu sgemm: C as a grid keeps the first w of every wp columns, packed, with the fma chain's bits") {
  if (!sgemm_b_rows_available()) {
    MESSAGE("skipped: C as a grid needs the AVX-512 build (B by rows)");
    return;
  }
  // (wp, w): rows narrower than a vector (9, 7), a kept run across vectors (29, 28), a dropped
  // run of 20 columns, so that some vectors keep nothing (40, 20), and every column kept (16, 16).
  // n ends inside a grid row; K 1100 crosses the 512-deep blocks, so partial sums are stored
  // packed and reloaded.
  for (const std::pair<int64_t, int64_t>& grid : std::vector<std::pair<int64_t, int64_t>>{{9, 7}, {29, 28}, {40, 20}, {16, 16}})
    for (const int64_t K : {5, 1100})
      for (const bool relu : {false, true}) {
        const int64_t wp = grid.first, w = grid.second;  // not a structured binding: clang 14 cannot capture those
        CAPTURE(wp);
        CAPTURE(w);
        CAPTURE(K);
        CAPTURE(relu);
        const int64_t m = 7, grid_rows = 11, n = grid_rows * wp - (wp - w) - 1;  // the last kept column left out
        const int64_t kept = (grid_rows - 1) * w + (w - 1), ldc = kept + 3;
        const auto a = numbers(static_cast<std::size_t>(m * K), static_cast<uint32_t>(wp * 7 + K));
        const auto b = numbers(static_cast<std::size_t>(K * (n + 4)), static_cast<uint32_t>(w + K));
        const auto bm = numbers(static_cast<std::size_t>(m), 4);
        std::vector<const float*> rows(static_cast<std::size_t>(K));
        for (int64_t q = 0; q < K; ++q) rows[static_cast<std::size_t>(q)] = b.data() + q * (n + 4) + q % 3;  // rows at odd offsets
        std::vector<float> c(static_cast<std::size_t>(m * ldc), 99.0f);
        SgemmArgs p;
        p.m = m, p.n = n, p.k = K, p.a = a.data(), p.lda = K, p.b_rows = rows.data(), p.c = c.data(), p.ldc = ldc;
        p.c_grid_wp = wp, p.c_grid_w = w;
        p.bias_m = bm.data();
        if (relu) p.clamp = true, p.clamp_lo = 0.0f, p.clamp_hi = std::numeric_limits<float>::infinity();
        sgemm(p);
        int64_t wrong = 0, stored = 0;
        for (int64_t i = 0; i < m; ++i) {
          for (int64_t j = 0; j < n; ++j) {
            if (j % wp >= w) continue;
            float e = 0.0f;
            for (int64_t q = 0; q < K; ++q) e = std::fma(a[static_cast<std::size_t>(i * K + q)], rows[static_cast<std::size_t>(q)][j], e);
            e = e + bm[static_cast<std::size_t>(i)];
            if (relu) e = std::max(0.0f, e);
            const int64_t at = j / wp * w + j % wp;  // by hand: grid row j / wp, column j % wp of w kept
            wrong += !same(c[static_cast<std::size_t>(i * ldc + at)], e);
            ++stored;
          }
          for (int64_t j = kept; j < ldc; ++j) wrong += c[static_cast<std::size_t>(i * ldc + j)] != 99.0f;  // nothing past the kept
        }
        CHECK(stored == m * kept);
        CHECK(wrong == 0);
      }
  SgemmArgs bad;  // a grid without B by rows, and w outside [1, wp]
  std::vector<float> a(64, 1.0f), c(64, 0.0f);
  const float* rows[] = {a.data()};
  bad.m = 1, bad.n = 16, bad.k = 1, bad.a = a.data(), bad.lda = 1, bad.b = a.data(), bad.ldb = 16, bad.c = c.data(), bad.ldc = 16;
  bad.c_grid_wp = 16, bad.c_grid_w = 8;
  CHECK_THROWS_AS(sgemm(bad), nnbridge::Error);
  bad.b_rows = rows;
  bad.c_grid_w = 17;
  CHECK_THROWS_AS(sgemm(bad), nnbridge::Error);
  bad.c_grid_w = 0;
  CHECK_THROWS_AS(sgemm(bad), nnbridge::Error);
}
