// The vector kernels (cpu_ref/src/simd) on every instruction set this CPU runs, against the
// scalar formulas written in simd.h: bit for bit where simd.h promises plain IEEE arithmetic
// (including NaN, infinities and signed zeros, and the std::max / std::min rules), within a few
// ulp for exp/log/tanh/erf. Lengths 1..40 cover every tail of 4-, 8- and 16-lane registers.
// Also sgemm (cpu_ref/src/sgemm), each build against a double-precision product.
#include <doctest/doctest.h>

#include <memory>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

#include "kernels/rounding.h"
#include "sgemm/sgemm.h"
#include "simd/simd.h"

using namespace nnbridge::cpu_ref::simd;

namespace {

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

// Inputs with the special values in varying positions.
std::vector<float> values(std::size_t n, int seed, bool specials) {
  std::vector<float> v(n);
  uint32_t s = 2463534242u + static_cast<uint32_t>(seed) * 7919u;
  for (std::size_t i = 0; i < n; ++i) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    v[i] = static_cast<float>(static_cast<int>(s % 2001) - 1000) / 250.0f;  // [-4, 4]
  }
  if (specials) {
    const float sp[] = {kNaN, 0.0f, -0.0f, kInf, -kInf, 1.0f, -1.0f};
    for (std::size_t i = 0; i < n; i += 3) v[i] = sp[(i / 3 + static_cast<std::size_t>(seed)) % 7];
  }
  return v;
}

bool same_bits(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::memcmp(&a, &b, sizeof a) == 0;
}

bool close(float a, float e) {
  if (std::isnan(e)) return std::isnan(a);
  if (std::isinf(e)) return a == e;
  return std::fabs(a - e) <= 1e-6f + 4e-6f * std::fabs(e);
}

float f_binary(Binary op, float a, float b) {
  switch (op) {
    case Binary::Add: return a + b;
    case Binary::Sub: return a - b;
    case Binary::Mul: return a * b;
    case Binary::Div: return a / b;
    case Binary::Max: return std::max(a, b);
    case Binary::Min: return std::min(a, b);
    case Binary::SquaredDifference: return (a - b) * (a - b);
    case Binary::PRelu: return a >= 0 ? a : b * a;
    case Binary::Equal: return a == b ? 1.0f : 0.0f;
    case Binary::NotEqual: return a != b ? 1.0f : 0.0f;
    case Binary::Greater: return a > b ? 1.0f : 0.0f;
    case Binary::GreaterOrEqual: return a >= b ? 1.0f : 0.0f;
    case Binary::Less: return a < b ? 1.0f : 0.0f;
    case Binary::LessOrEqual: return a <= b ? 1.0f : 0.0f;
    case Binary::And: return (a != 0 && b != 0) ? 1.0f : 0.0f;
    case Binary::Or: return (a != 0 || b != 0) ? 1.0f : 0.0f;
  }
  return 0;
}

// Exact unary formulas (simd.h), parameters a = -0.5, b = 1.5 where used.
float f_unary_exact(Unary op, float x) {
  const float a = -0.5f, b = 1.5f;
  switch (op) {
    case Unary::Relu: return std::max(0.0f, x);
    case Unary::Clip: return std::min(b, std::max(a, x));
    case Unary::LeakyRelu: return x > 0 ? x : a * x;
    case Unary::Affine: return a * x + b;
    case Unary::HardSwish: return x * std::min(std::max(x + 3.0f, 0.0f), 6.0f) / 6.0f;
    case Unary::Abs: return std::fabs(x);
    case Unary::Neg: return -x;
    case Unary::Sqrt: return std::sqrt(x);
    case Unary::Rsqrt: return 1.0f / std::sqrt(x);
    case Unary::Reciprocal: return 1.0f / x;
    case Unary::Square: return x * x;
    default: return 0;
  }
}

float f_unary_approx(Unary op, float x) {
  const float a = -0.5f, b = 1.5f;
  switch (op) {
    case Unary::Sigmoid: return 1.0f / (1.0f + std::exp(-x));
    case Unary::Tanh: return std::tanh(x);
    case Unary::ScaledTanh: return a * std::tanh(b * x);
    case Unary::Elu: return x >= 0 ? x : a * (std::exp(x) - 1.0f);
    case Unary::Softplus: return std::log(1.0f + std::exp(x));
    case Unary::GeluErf: return 0.5f * x * (1.0f + std::erf(x * 0.70710678f));
    case Unary::GeluTanh: return 0.5f * x * (1.0f + std::tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
    case Unary::Exp: return std::exp(x);
    case Unary::Log: return std::log(x);
    default: return 0;
  }
}

}  // namespace

TEST_CASE("cpu simd: xsimd::dispatch picks the best compiled instruction set this CPU runs") {
  const auto all = runnable_kernels();
  REQUIRE(!all.empty());
  MESSAGE("dispatch chose " << std::string(kernels().arch) << " (" << kernels().lanes << " float lanes); runnable here:");
  for (const Kernels* k : all) MESSAGE("  " << std::string(k->arch));
  if (const char* forced = std::getenv("NNBRIDGE_CPU_SIMD")) {  // set by a ctest entry: it must take
    CHECK(std::string(kernels().arch) == forced);
    return;
  }
  CHECK(std::string(kernels().arch) == all.front()->arch);
  CHECK(kernels().lanes == all.front()->lanes);
  CHECK(std::string(all.back()->arch) == "sse2");  // the x86-64 baseline, always there
}

TEST_CASE("cpu simd: binary ops and operand forms equal the scalar formulas bit for bit") {
  const Binary ops[] = {Binary::Add, Binary::Sub, Binary::Mul, Binary::Div, Binary::Max, Binary::Min,
                        Binary::SquaredDifference, Binary::PRelu, Binary::Equal, Binary::NotEqual, Binary::Greater,
                        Binary::GreaterOrEqual, Binary::Less, Binary::LessOrEqual, Binary::And, Binary::Or};
  for (const Kernels* k : runnable_kernels()) {
    const std::string arch = k->arch;
    CAPTURE(arch);
    for (std::size_t n = 1; n <= 40; n += 3) {
      const auto a = values(n, 1, true), b = values(n, 2, true);
      for (Binary op : ops) {
        CAPTURE(static_cast<int>(op));
        for (Operands form : {Operands::VecVec, Operands::VecScalar, Operands::ScalarVec}) {
          std::vector<float> y(n);
          k->binary(op, form, a.data(), b.data(), y.data(), n);
          int bad = 0;
          for (std::size_t i = 0; i < n; ++i) {
            const float e = f_binary(op, form == Operands::ScalarVec ? a[0] : a[i], form == Operands::VecScalar ? b[0] : b[i]);
            if (!same_bits(y[i], e)) ++bad;
          }
          CHECK_MESSAGE(bad == 0, "form " << static_cast<int>(form) << " n " << n);
        }
      }
    }
  }
}

TEST_CASE("cpu simd: unary ops: exact ones bit for bit, exp/log/tanh/erf ones within a few ulp") {
  const Unary exact[] = {Unary::Relu, Unary::Clip, Unary::LeakyRelu, Unary::Affine, Unary::HardSwish, Unary::Abs,
                         Unary::Neg, Unary::Sqrt, Unary::Rsqrt, Unary::Reciprocal, Unary::Square};
  const Unary approx[] = {Unary::Sigmoid, Unary::Tanh, Unary::ScaledTanh, Unary::Elu, Unary::Softplus,
                          Unary::GeluErf, Unary::GeluTanh, Unary::Exp, Unary::Log};
  const UnaryParams p{-0.5f, 1.5f};
  for (const Kernels* k : runnable_kernels()) {
    const std::string arch = k->arch;
    CAPTURE(arch);
    for (std::size_t n = 1; n <= 40; n += 3) {
      const auto x = values(n, 3, true);
      for (Unary op : exact) {
        CAPTURE(static_cast<int>(op));
        std::vector<float> y(n);
        k->unary(op, p, x.data(), y.data(), n);
        for (std::size_t i = 0; i < n; ++i) CHECK_MESSAGE(same_bits(y[i], f_unary_exact(op, x[i])), "x = " << x[i]);
      }
      auto xf = values(n, 4, false);  // finite inputs
      for (Unary op : approx) {
        CAPTURE(static_cast<int>(op));
        std::vector<float> in = xf;
        if (op == Unary::Log)
          for (float& v : in) v = std::fabs(v) + 0.01f;
        std::vector<float> y(n);
        k->unary(op, p, in.data(), y.data(), n);
        for (std::size_t i = 0; i < n; ++i) CHECK_MESSAGE(close(y[i], f_unary_approx(op, in[i])), "x = " << in[i] << " got " << y[i]);
      }
    }
  }
}

TEST_CASE("cpu simd: softmax rows and columns, folds, scale_shift, axpy") {
  for (const Kernels* k : runnable_kernels()) {
    const std::string arch = k->arch;
    CAPTURE(arch);
    for (std::size_t len : {1u, 5u, 17u, 40u})
      for (std::size_t inner : {1u, 3u, 16u, 21u})
        for (bool log : {false, true}) {
          const auto x = values(len * inner, static_cast<int>(len + inner), false);
          std::vector<float> y(x.size());
          k->softmax(x.data(), y.data(), len, inner, 0.75f, log);
          for (std::size_t j = 0; j < inner; ++j) {
            double mx = -INFINITY, sum = 0;
            for (std::size_t i = 0; i < len; ++i) mx = std::max(mx, double(x[i * inner + j]));
            for (std::size_t i = 0; i < len; ++i) sum += std::exp(0.75 * (x[i * inner + j] - mx));
            for (std::size_t i = 0; i < len; ++i) {
              const double z = 0.75 * (x[i * inner + j] - mx);
              const double e = log ? z - std::log(sum) : std::exp(z) / sum;
              CHECK(std::fabs(y[i * inner + j] - e) <= 2e-6 + 2e-6 * std::fabs(e));
            }
          }
        }
    for (std::size_t n = 1; n <= 40; n += 3) {
      const auto x = values(n, 5, false), s = values(n, 6, false), m = values(n, 7, false), a = values(n, 8, false);
      // Max/Min folds are order-free: exact; Sum and Prod within rounding.
      float mx = -INFINITY, mn = INFINITY;
      double sum = 0.5, prod = 1;
      for (float v : x) mx = std::max(mx, v), mn = std::min(mn, v), sum += v, prod *= v / 4;
      CHECK(k->fold(Fold::Max, x.data(), n, -INFINITY) == mx);
      CHECK(k->fold(Fold::Min, x.data(), n, INFINITY) == mn);
      CHECK(std::fabs(k->fold(Fold::Sum, x.data(), n, 0.5f) - sum) <= 1e-4);
      std::vector<float> xs(x);
      for (float& v : xs) v /= 4;
      CHECK(std::fabs(k->fold(Fold::Prod, xs.data(), n, 1.0f) - prod) <= 1e-6 + 1e-5 * std::fabs(prod));
      std::vector<float> acc(s), y(n), z(m);
      k->fold_into(Fold::Max, x.data(), acc.data(), n);
      k->scale_shift(x.data(), y.data(), n, s.data(), m.data(), a.data(), true);
      k->axpy(-1.25f, x.data(), z.data(), n);
      for (std::size_t i = 0; i < n; ++i) {
        CHECK(acc[i] == std::max(s[i], x[i]));
        CHECK(same_bits(y[i], (x[i] - s[i]) * m[i] + a[i]));
        CHECK(same_bits(z[i], m[i] + -1.25f * x[i]));
      }
      k->scale_shift(x.data(), y.data(), n, &s[0], &m[0], &a[0], false);
      for (std::size_t i = 0; i < n; ++i) CHECK(same_bits(y[i], (x[i] - s[0]) * m[0] + a[0]));
    }
  }
}

TEST_CASE("cpu simd: depthwise_row is the bias plus the taps inside the image, in (ky, kx) order") {
  // 3x3 taps, dilation 2 in y, stride 2 in x, padding 2 left: many taps fall outside.
  const int64_t h = 6, w = 7, kh = 3, kw = 3, dh = 2, sw = 2, pl = 2, dw = 1, ow = 4;
  for (const Kernels* k : runnable_kernels())
    for (int64_t c : {1, 5, 16, 37}) {
      const std::string arch = k->arch;
    CAPTURE(arch);
      CAPTURE(c);
      const auto x = values(static_cast<std::size_t>(h * w * c), 9, false), wt = values(static_cast<std::size_t>(kh * kw * c), 10, false),
                 b = values(static_cast<std::size_t>(c), 11, false);
      for (int64_t iy0 : {-2, 0, 3}) {
        std::vector<float> y(static_cast<std::size_t>(ow * c));
        DepthwiseRow r;
        r.x = x.data(), r.w = wt.data(), r.bias = b.data(), r.y = y.data();
        r.h = h, r.w_in = w, r.c = c, r.kh = kh, r.kw = kw, r.iy0 = iy0, r.dh = dh, r.ow = ow, r.sw = sw, r.pl = pl, r.dw = dw;
        k->depthwise_row(r);
        for (int64_t ox = 0; ox < ow; ++ox)
          for (int64_t ch = 0; ch < c; ++ch) {
            float e = b[ch];
            for (int64_t ky = 0; ky < kh; ++ky)
              for (int64_t kx = 0; kx < kw; ++kx) {
                const int64_t iy = iy0 + ky * dh, ix = ox * sw - pl + kx * dw;
                if (iy < 0 || iy >= h || ix < 0 || ix >= w) continue;
                e = e + x[(iy * w + ix) * c + ch] * wt[(ky * kw + kx) * c + ch];
              }
            CHECK(y[ox * c + ch] == doctest::Approx(e).epsilon(1e-6));
          }
      }
    }
}

TEST_CASE("cpu simd: depthwise_plane is the bias plus every tap of the padded plane, in (ky, kx) order") {
  // A plane padded by hand (rows from -pt, columns from -pl, split by column % sw), read through
  // the layout simd.h documents; the expected sum is written out in the documented order.
  for (const Kernels* k : runnable_kernels())
    for (int64_t sw : {1, 2})
      for (int64_t ow : {1, 7, 8, 17, 40, 70})
        for (int64_t oh : {3, 9, 19}) {  // rows in blocks of 2, 4 or 8 (by registers per row) and the rest
          const std::string arch = k->arch;
          CAPTURE(arch);
          CAPTURE(sw);
          CAPTURE(ow);
          CAPTURE(oh);
          const bool clip = oh == 9;  // a folded Clip to [-0.5, 1] as the kernel stores
          const int64_t kh = 3, kw = 3, sh = 2, dh = 1, dw = 2, pt = 1, pl = 2, h = (oh - 1) * sh + 2, w = (ow - 1) * sw + 3;
          const int64_t L = static_cast<int64_t>(k->lanes), rows = (oh - 1) * sh + (kh - 1) * dh + 1;
          const int64_t phase = (ow + L - 1) / L * L + (kw - 1) * dw / sw + 1;
          const auto x = values(static_cast<std::size_t>(h * w), 12, false), wt = values(static_cast<std::size_t>(kh * kw), 13, false);
          auto at = [&](int64_t r, int64_t col) {  // padded plane value at padded row r, column col
            const int64_t iy = r - pt, ix = col - pl;
            return iy >= 0 && iy < h && ix >= 0 && ix < w ? x[static_cast<std::size_t>(iy * w + ix)] : 0.0f;
          };
          std::vector<float> src(static_cast<std::size_t>(rows * sw * phase));
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t p = 0; p < sw; ++p)
              for (int64_t q = 0; q < phase; ++q) src[static_cast<std::size_t>((r * sw + p) * phase + q)] = at(r, q * sw + p);
          std::vector<float> y(static_cast<std::size_t>(oh * ow) + 1, 99.0f);  // one guard value past the plane
          DepthwisePlane dp;
          dp.src = src.data(), dp.row_stride = sw * phase, dp.phase_stride = phase, dp.w = wt.data(), dp.bias = 0.25f, dp.y = y.data();
          dp.oh = oh, dp.ow = ow, dp.kh = kh, dp.kw = kw, dp.sh = sh, dp.sw = sw, dp.dh = dh, dp.dw = dw;
          std::vector<int64_t> taps;  // the offsets simd.h documents, written out per tap
          for (int64_t ky = 0; ky < kh; ++ky)
            for (int64_t kx = 0; kx < kw; ++kx) taps.push_back(ky * dh * sw * phase + (kx * dw % sw) * phase + kx * dw / sw);
          dp.taps = taps.data();
          if (clip) dp.clamp = true, dp.lo = -0.5f, dp.hi = 1.0f;
          k->depthwise_plane(dp);
          for (int64_t oy = 0; oy < oh; ++oy)
            for (int64_t ox = 0; ox < ow; ++ox) {
              float e = 0.25f;
              for (int64_t ky = 0; ky < kh; ++ky)
                for (int64_t kx = 0; kx < kw; ++kx) e = e + at(oy * sh + ky * dh, ox * sw + kx * dw) * wt[static_cast<std::size_t>(ky * kw + kx)];
              if (clip) e = std::min(1.0f, std::max(-0.5f, e));
              CHECK(same_bits(y[static_cast<std::size_t>(oy * ow + ox)], e));
            }
          CHECK(y.back() == 99.0f);
        }
}

TEST_CASE("cpu sgemm: every build this CPU runs computes op(A) * op(B) + bias within the float32 bound") {
  // Against a double-precision sum: |C - exact| <= 2 K eps sum_k |a| |b| + |bias| eps (a standard
  // bound for a float32 dot product of length K, fused or not, in any order). Strided operands;
  // the padding columns of C stay untouched.
  using nnbridge::cpu_ref::SgemmArgs;
  for (const auto& v : nnbridge::cpu_ref::runnable_sgemms())
    for (int ta = 0; ta < 2; ++ta)
      for (int tb = 0; tb < 2; ++tb)
        for (const auto& mnk : {std::array<int64_t, 3>{7, 13, 300}, {33, 5, 1}, {1, 70, 64}, {40, 41, 0}}) {
          const std::string name = v.name;
          CAPTURE(name);
          CAPTURE(ta);
          CAPTURE(tb);
          const int64_t m = mnk[0], n = mnk[1], K = mnk[2];
          const int64_t lda = (ta ? m : K) + 3, ldb = (tb ? K : n) + 2, ldc = n + 5;
          const auto a = values(static_cast<std::size_t>((ta ? K : m) * lda), 20, false);
          const auto b = values(static_cast<std::size_t>((tb ? n : K) * ldb), 21, false);
          const auto bn = values(static_cast<std::size_t>(n), 22, false), bm = values(static_cast<std::size_t>(m), 23, false);
          std::vector<float> c(static_cast<std::size_t>(m * ldc), 99.0f);
          SgemmArgs p;
          p.m = m, p.n = n, p.k = K, p.a = a.data(), p.lda = lda, p.trans_a = ta != 0, p.b = b.data(), p.ldb = ldb, p.trans_b = tb != 0;
          p.c = c.data(), p.ldc = ldc, p.bias_n = bn.data(), p.bias_m = bm.data();
          v.run(p);
          const double eps = std::numeric_limits<float>::epsilon();
          for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < n; ++j) {
              double exact = 0, mag = 0;
              for (int64_t q = 0; q < K; ++q) {
                const double x = a[static_cast<std::size_t>(ta ? q * lda + i : i * lda + q)], y = b[static_cast<std::size_t>(tb ? j * ldb + q : q * ldb + j)];
                exact += x * y, mag += std::fabs(x * y);
              }
              const double bias = double(bn[static_cast<std::size_t>(j)]) + double(bm[static_cast<std::size_t>(i)]);
              const double got = c[static_cast<std::size_t>(i * ldc + j)];
              CHECK(std::fabs(got - (exact + bias)) <= 2.0 * (double(K) + 2.0) * eps * (mag + std::fabs(bias)) + 1e-30);
            }
            for (int64_t j = n; j < ldc; ++j) CHECK(c[static_cast<std::size_t>(i * ldc + j)] == 99.0f);
          }
        }
}

TEST_CASE("cpu rounding: round_half_even gives std::nearbyint's bits, ties, -0, huge values, inf and NaN included") {
  // The oracle is the C library's std::nearbyint in the default rounding mode (IEEE 754
  // roundTiesToEven); the sign of a zero result counts (compared as bits).
  auto same_d = [](double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); };
  auto same_f = [](float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0 || (std::isnan(a) && std::isnan(b)); };
  std::vector<double> ds{0.0, -0.0, 0.4, -0.4, 0.5, -0.5, 1.5, -1.5, 2.5, -2.5, 3.5, 1e-300, -1e-300,
                         4503599627370495.5, -4503599627370495.5, 4503599627370496.0, 4503599627370497.0, 1e300,
                         std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                         std::numeric_limits<double>::quiet_NaN()};
  std::vector<float> fs{0.0f, -0.0f, 0.4f, -0.4f, 0.5f, -0.5f, 1.5f, -1.5f, 2.5f, -2.5f, 8388607.5f, -8388607.5f, 8388608.0f,
                        8388609.0f, 1e30f, std::numeric_limits<float>::infinity(), std::numeric_limits<float>::quiet_NaN()};
  uint64_t state = 12345;
  for (int i = 0; i < 20000; ++i) {  // every binade from 2^-4 to 2^56, halves and quarters too
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const int e = static_cast<int>((state >> 33) % 61) - 4;
    const double m = static_cast<double>((state >> 11) & 0xfffff) / 1048576.0 + 1.0;
    const double v = std::ldexp(m, e) * ((state & 1) ? -1 : 1);
    ds.push_back(v);
    ds.push_back(std::round(v * 4) / 4);
    fs.push_back(static_cast<float>(v));
    fs.push_back(static_cast<float>(std::round(v * 2) / 2));
  }
  int wrong = 0;
  for (double v : ds) wrong += !same_d(nnbridge::cpu_ref::round_half_even(v), std::nearbyint(v));
  for (float v : fs) wrong += !same_f(nnbridge::cpu_ref::round_half_even(v), std::nearbyint(v));
  CHECK(wrong == 0);
}

TEST_CASE("cpu simd: requantize is the scalar QLinearConv expression with std::nearbyint, on every instruction set") {
  // Oracle: saturate(std::nearbyint((s + bias) * m) + yz) to [lo, hi] in double, the ONNX
  // QLinearConv-10 requantization as qlinear.cc's direct loops compute it (m = x_scale * w_scale /
  // y_scale in float32). Sums are integers (ties at .5 included: m 0.5), with both ends of the
  // range reached.
  std::vector<double> sums;
  for (int i = -1000; i <= 1000; i += 3) sums.push_back(i);
  for (double s : {0.0, 1.0, -1.0, 3.0, -3.0, 5.0, 1e9, -1e9}) sums.push_back(s);
  for (const double scale : {0.25, 0.0123, 1.0 / 3.0}) {
    Requantize r;
    r.bias = 17, r.multiplier = static_cast<double>(static_cast<float>(scale) * 0.75f / 0.375f), r.y_zero = 128, r.lo = 0, r.hi = 255;
    std::vector<float> expect(sums.size());
    for (std::size_t i = 0; i < sums.size(); ++i)
      expect[i] = static_cast<float>(
          std::clamp(std::nearbyint((sums[i] + r.bias) * r.multiplier) + r.y_zero, r.lo, r.hi));
    int mid = 0;
    for (float e : expect) mid += e > 0 && e < 255;
    CHECK(mid > 40);
    for (const Kernels* k : runnable_kernels()) {
      CAPTURE(k->arch);
      CAPTURE(scale);
      std::vector<float> y(sums.size(), -1.0f);
      k->requantize(r, sums.data(), y.data(), y.size());
      CHECK(std::memcmp(y.data(), expect.data(), y.size() * sizeof(float)) == 0);
    }
  }
}

TEST_CASE("cpu simd: quantize is QuantizeLinear's scalar expression with std::nearbyint, on every instruction set") {
  // Oracle: std::clamp(std::nearbyint(x / scale) + zero, lo, hi) in float32 (ONNX
  // QuantizeLinear-13 with round half to even), element by element; ties (x / scale = k + 0.5),
  // both saturations, -0, infinities and NaN included, and lengths that leave a scalar tail.
  std::vector<float> xs;
  for (int i = -700; i <= 700; ++i) xs.push_back(static_cast<float>(i) * 0.25f);
  for (float v : {0.0f, -0.0f, 1e30f, -1e30f, std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN(), 0.0999f, 1.0f / 3.0f})
    xs.push_back(v);
  for (const float scale : {0.5f, 0.1f, 3.0f}) {
    for (const auto& [zero, lo, hi] : {std::tuple{128.0f, 0.0f, 255.0f}, std::tuple{0.0f, -128.0f, 127.0f}}) {
      std::vector<float> expect(xs.size());
      for (std::size_t i = 0; i < xs.size(); ++i) expect[i] = std::clamp(std::nearbyint(xs[i] / scale) + zero, lo, hi);
      int mid = 0;
      for (float e : expect) mid += e > lo && e < hi;
      CHECK(mid > 100);
      for (const Kernels* k : runnable_kernels()) {
        CAPTURE(k->arch);
        CAPTURE(scale);
        for (std::size_t n : {xs.size(), std::size_t{5}}) {
          std::vector<float> y(n, -1.0f);
          k->quantize(xs.data(), y.data(), n, scale, zero, lo, hi);
          CHECK(std::memcmp(y.data(), expect.data(), n * sizeof(float)) == 0);
        }
      }
    }
  }
}

TEST_CASE("cpu simd: dequantize is DequantizeLinear's scalar expression, on every instruction set") {
  // Oracle: (x - zero) * scale in float32 (ONNX DequantizeLinear-13), element by element; the
  // sign of a zero product and a negative scale included, and a length with a scalar tail.
  std::vector<float> xs;
  for (int i = -128; i <= 255; ++i) xs.push_back(static_cast<float>(i));
  for (const float scale : {0.1f, 3.0f, -0.5f})
    for (const float zero : {0.0f, 128.0f, -7.0f}) {
      std::vector<float> expect(xs.size());
      for (std::size_t i = 0; i < xs.size(); ++i) expect[i] = (xs[i] - zero) * scale;
      for (const Kernels* k : runnable_kernels()) {
        CAPTURE(k->arch);
        CAPTURE(scale);
        CAPTURE(zero);
        for (std::size_t n : {xs.size(), std::size_t{5}}) {
          std::vector<float> y(n, -1.0f);
          k->dequantize(xs.data(), y.data(), n, scale, zero);
          CHECK(std::memcmp(y.data(), expect.data(), n * sizeof(float)) == 0);
        }
      }
    }
}

TEST_CASE("cpu simd: take_even copies every other element and reads nothing past the last one taken") {
  for (const Kernels* k : runnable_kernels())
    for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{15}, std::size_t{16}, std::size_t{17}, std::size_t{33}, std::size_t{70}}) {
      const std::string arch = k->arch;
      CAPTURE(arch);
      CAPTURE(n);
      // x holds exactly 2n - 1 elements (heap-allocated at that size, so a read past them is a
      // fault under ASan); NaN, infinities and signed zeros among them.
      const auto v = values(2 * n + 1, 31, true);
      std::unique_ptr<float[]> x(new float[n ? 2 * n - 1 : 1]);
      std::copy_n(v.begin(), n ? 2 * n - 1 : 0, x.get());
      std::vector<float> y(n + 1, 99.0f);
      k->take_even(x.get(), n, y.data());
      int64_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i) wrong += !same_bits(y[i], v[2 * i]);
      CHECK(wrong == 0);
      CHECK(y[n] == 99.0f);
    }
}

TEST_CASE("cpu simd: split_even_odd puts the even and the odd elements apart, reads only the n given and writes nothing past them") {
  for (const Kernels* k : runnable_kernels())
    for (std::size_t n = 0; n <= 70; ++n) {
      const std::string arch = k->arch;
      CAPTURE(arch);
      CAPTURE(n);
      // x holds exactly n elements (heap-allocated at that size: a read past them faults under
      // ASan); NaN, infinities and signed zeros among them. Both outputs end in a sentinel.
      const auto v = values(n + 1, 37, true);
      std::unique_ptr<float[]> x(new float[n ? n : 1]);
      std::copy_n(v.begin(), n, x.get());
      std::vector<float> even((n + 1) / 2 + 1, 99.0f), odd(n / 2 + 1, 99.0f);
      k->split_even_odd(x.get(), n, even.data(), odd.data());
      int64_t wrong = 0;
      for (std::size_t i = 0; i < (n + 1) / 2; ++i) wrong += !same_bits(even[i], v[2 * i]);
      for (std::size_t i = 0; i < n / 2; ++i) wrong += !same_bits(odd[i], v[2 * i + 1]);
      CHECK(wrong == 0);
      CHECK(even.back() == 99.0f);
      CHECK(odd.back() == 99.0f);
    }
}
