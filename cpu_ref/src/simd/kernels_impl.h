// The xsimd source of the vector kernels (simd.h), one instantiation per instruction set.
// Include only from arch_*.cc: each of those is compiled with its own -m flags.
//
// Everything here lives in an anonymous namespace or is a template on the instruction set,
// so no symbol compiled with AVX flags can stand in for one the SSE2 path uses (the linker
// keeps one copy of an inline function; were it the AVX one, an SSE2 machine would fault).
// Use no std:: function templates or inline math overloads here for the same reason
// (tests/cpu_ref/check_simd_symbols.sh checks the object files).
#pragma once

#include <xsimd/xsimd.hpp>

#include "make_kernels.h"

namespace nnbridge::cpu_ref::simd {
namespace {

// std::max / std::min, spelled out (see simd.h).
inline float smax(float a, float b) { return (a < b) ? b : a; }
inline float smin(float a, float b) { return (b < a) ? b : a; }

template <class A>
struct Impl {
  using B = xsimd::batch<float, A>;
  static constexpr std::size_t L = B::size;

  static B load(const float* p) { return B::load_unaligned(p); }

  // std::max(a, b) is MAXPS(b, a) and std::min(a, b) is MINPS(b, a): xsimd::max/min are
  // MAXPS/MINPS of (self, other).
  static B vmax(B a, B b) { return xsimd::max(b, a); }
  static B vmin(B a, B b) { return xsimd::min(b, a); }

  // y = f(x) over n values; the last n % L values go through f in a zero-padded register.
  template <class F>
  static void map1(const float* x, float* y, std::size_t n, F f) {
    std::size_t i = 0;
    for (; i + L <= n; i += L) f(load(x + i)).store_unaligned(y + i);
    if (i == n) return;
    alignas(64) float t[L] = {};
    for (std::size_t j = 0; i + j < n; ++j) t[j] = x[i + j];
    f(B::load_aligned(t)).store_aligned(t);
    for (std::size_t j = 0; i + j < n; ++j) y[i + j] = t[j];
  }

  template <class F>
  static void map2(Operands form, const float* a, const float* b, float* y, std::size_t n, F f) {
    std::size_t i = 0;
    if (form == Operands::VecVec) {
      for (; i + L <= n; i += L) f(load(a + i), load(b + i)).store_unaligned(y + i);
    } else if (form == Operands::VecScalar) {
      const B bs(*b);
      for (; i + L <= n; i += L) f(load(a + i), bs).store_unaligned(y + i);
    } else {
      const B as(*a);
      for (; i + L <= n; i += L) f(as, load(b + i)).store_unaligned(y + i);
    }
    if (i == n) return;
    alignas(64) float ta[L] = {}, tb[L] = {};
    for (std::size_t j = 0; i + j < n; ++j) {
      ta[j] = form == Operands::ScalarVec ? *a : a[i + j];
      tb[j] = form == Operands::VecScalar ? *b : b[i + j];
    }
    f(B::load_aligned(ta), B::load_aligned(tb)).store_aligned(ta);
    for (std::size_t j = 0; i + j < n; ++j) y[i + j] = ta[j];
  }

  static B flag(xsimd::batch_bool<float, A> c) { return xsimd::select(c, B(1.0f), B(0.0f)); }
  static B unflag(xsimd::batch_bool<float, A> c) { return xsimd::select(c, B(0.0f), B(1.0f)); }

  static void binary(Binary op, Operands form, const float* a, const float* b, float* y, std::size_t n) {
    const B zero(0.0f);
    switch (op) {
      case Binary::Add: return map2(form, a, b, y, n, [](B p, B q) { return p + q; });
      case Binary::Sub: return map2(form, a, b, y, n, [](B p, B q) { return p - q; });
      case Binary::Mul: return map2(form, a, b, y, n, [](B p, B q) { return p * q; });
      case Binary::Div: return map2(form, a, b, y, n, [](B p, B q) { return p / q; });
      case Binary::Max: return map2(form, a, b, y, n, [](B p, B q) { return vmax(p, q); });
      case Binary::Min: return map2(form, a, b, y, n, [](B p, B q) { return vmin(p, q); });
      case Binary::SquaredDifference: return map2(form, a, b, y, n, [](B p, B q) { return (p - q) * (p - q); });
      case Binary::PRelu: return map2(form, a, b, y, n, [zero](B p, B q) { return xsimd::select(p >= zero, p, q * p); });
      case Binary::Equal: return map2(form, a, b, y, n, [](B p, B q) { return flag(p == q); });
      // Written with == only: x86 "not equal" compares are ordered on some instruction sets
      // (false for NaN), C++'s != is true for NaN.
      case Binary::NotEqual: return map2(form, a, b, y, n, [](B p, B q) { return unflag(p == q); });
      case Binary::Greater: return map2(form, a, b, y, n, [](B p, B q) { return flag(p > q); });
      case Binary::GreaterOrEqual: return map2(form, a, b, y, n, [](B p, B q) { return flag(p >= q); });
      case Binary::Less: return map2(form, a, b, y, n, [](B p, B q) { return flag(p < q); });
      case Binary::LessOrEqual: return map2(form, a, b, y, n, [](B p, B q) { return flag(p <= q); });
      case Binary::And: return map2(form, a, b, y, n, [zero](B p, B q) { return unflag((p == zero) || (q == zero)); });
      case Binary::Or: return map2(form, a, b, y, n, [zero](B p, B q) { return unflag((p == zero) && (q == zero)); });
    }
  }

  static void unary(Unary op, UnaryParams p, const float* x, float* y, std::size_t n) {
    const B zero(0.0f), one(1.0f), pa(p.a), pb(p.b);
    switch (op) {
      case Unary::Relu: return map1(x, y, n, [zero](B v) { return vmax(zero, v); });
      case Unary::Clip: return map1(x, y, n, [pa, pb](B v) { return vmin(pb, vmax(pa, v)); });
      case Unary::LeakyRelu: return map1(x, y, n, [zero, pa](B v) { return xsimd::select(v > zero, v, pa * v); });
      case Unary::Affine: return map1(x, y, n, [pa, pb](B v) { return pa * v + pb; });
      case Unary::HardSwish:
        return map1(x, y, n, [zero](B v) { return v * vmin(vmax(v + B(3.0f), zero), B(6.0f)) / B(6.0f); });
      case Unary::Sigmoid: return map1(x, y, n, [one](B v) { return one / (one + xsimd::exp(-v)); });
      case Unary::Tanh: return map1(x, y, n, [](B v) { return xsimd::tanh(v); });
      case Unary::ScaledTanh: return map1(x, y, n, [pa, pb](B v) { return pa * xsimd::tanh(pb * v); });
      case Unary::Elu:
        return map1(x, y, n, [zero, one, pa](B v) { return xsimd::select(v >= zero, v, pa * (xsimd::exp(v) - one)); });
      case Unary::Softplus: return map1(x, y, n, [one](B v) { return xsimd::log(one + xsimd::exp(v)); });
      case Unary::GeluErf:
        return map1(x, y, n, [one](B v) { return B(0.5f) * v * (one + xsimd::erf(v * B(0.70710678f))); });
      case Unary::GeluTanh:
        return map1(x, y, n, [one](B v) {
          return B(0.5f) * v * (one + xsimd::tanh(B(0.7978845608f) * (v + B(0.044715f) * v * v * v)));
        });
      case Unary::Abs: return map1(x, y, n, [](B v) { return xsimd::abs(v); });
      // The sign bit flipped, as C++'s unary minus (xsimd's -v is 0 - v on some sets: +0 for +0).
      case Unary::Neg: return map1(x, y, n, [](B v) { return v ^ B(-0.0f); });
      case Unary::Sqrt: return map1(x, y, n, [](B v) { return xsimd::sqrt(v); });
      case Unary::Rsqrt: return map1(x, y, n, [one](B v) { return one / xsimd::sqrt(v); });
      case Unary::Exp: return map1(x, y, n, [](B v) { return xsimd::exp(v); });
      case Unary::Log: return map1(x, y, n, [](B v) { return xsimd::log(v); });
      case Unary::Reciprocal: return map1(x, y, n, [one](B v) { return one / v; });
      case Unary::Square: return map1(x, y, n, [](B v) { return v * v; });
    }
  }

  static float fold1(Fold op, float acc, float v) {
    switch (op) {
      case Fold::Sum: return acc + v;
      case Fold::Max: return smax(acc, v);
      case Fold::Min: return smin(acc, v);
      case Fold::Prod: return acc * v;
    }
    return acc;
  }

  static B foldv(Fold op, B acc, B v) {
    switch (op) {
      case Fold::Sum: return acc + v;
      case Fold::Max: return vmax(acc, v);
      case Fold::Min: return vmin(acc, v);
      case Fold::Prod: return acc * v;
    }
    return acc;
  }

  static float identity(Fold op) {
    switch (op) {
      case Fold::Sum: return 0.0f;
      case Fold::Max: return -__builtin_inff();
      case Fold::Min: return __builtin_inff();
      case Fold::Prod: return 1.0f;
    }
    return 0.0f;
  }

  static float fold(Fold op, const float* x, std::size_t n, float init) {
    std::size_t i = 0;
    float r = init;
    if (n >= L) {
      B acc(identity(op));
      for (; i + L <= n; i += L) acc = foldv(op, acc, load(x + i));
      alignas(64) float t[L];
      acc.store_aligned(t);
      for (std::size_t j = 0; j < L; ++j) r = fold1(op, r, t[j]);
    }
    for (; i < n; ++i) r = fold1(op, r, x[i]);
    return r;
  }

  static void fold_into(Fold op, const float* x, float* acc, std::size_t n) {
    switch (op) {
      case Fold::Sum: return map2(Operands::VecVec, acc, x, acc, n, [](B a, B v) { return a + v; });
      case Fold::Max: return map2(Operands::VecVec, acc, x, acc, n, [](B a, B v) { return vmax(a, v); });
      case Fold::Min: return map2(Operands::VecVec, acc, x, acc, n, [](B a, B v) { return vmin(a, v); });
      case Fold::Prod: return map2(Operands::VecVec, acc, x, acc, n, [](B a, B v) { return a * v; });
    }
  }

  // Rows of `rem` < L values at stride `inner` gathered into zero-padded registers: the tail
  // columns of a vertical softmax go through the same vector arithmetic as the rest.
  static B gather(const float* p, std::size_t rem) {
    alignas(64) float t[L] = {};
    for (std::size_t j = 0; j < rem; ++j) t[j] = p[j];
    return B::load_aligned(t);
  }
  static void scatter(B v, float* p, std::size_t rem) {
    alignas(64) float t[L];
    v.store_aligned(t);
    for (std::size_t j = 0; j < rem; ++j) p[j] = t[j];
  }

  // One column block [len][k0, k0 + width) of a softmax along len; width <= L.
  static void softmax_columns(const float* x, float* y, std::size_t len, std::size_t inner, std::size_t width, B bb,
                              bool log) {
    auto get = [&](const float* p) { return width == L ? load(p) : gather(p, width); };
    auto put = [&](B v, float* p) {
      if (width == L) v.store_unaligned(p);
      else scatter(v, p, width);
    };
    B m(-__builtin_inff());
    for (std::size_t i = 0; i < len; ++i) m = vmax(m, get(x + i * inner));
    B s(0.0f);
    for (std::size_t i = 0; i < len; ++i) {
      const B e = xsimd::exp(bb * (get(x + i * inner) - m));
      if (!log) put(e, y + i * inner);
      s = s + e;
    }
    if (!log) {
      for (std::size_t i = 0; i < len; ++i) put(get(y + i * inner) / s, y + i * inner);
    } else {
      const B ls = xsimd::log(s);
      for (std::size_t i = 0; i < len; ++i) put(bb * (get(x + i * inner) - m) - ls, y + i * inner);
    }
  }

  static void softmax(const float* x, float* y, std::size_t len, std::size_t inner, float beta, bool log) {
    const B bb(beta);
    if (inner > 1) {
      std::size_t k = 0;
      for (; k + L <= inner; k += L) softmax_columns(x + k, y + k, len, inner, L, bb, log);
      if (k < inner) softmax_columns(x + k, y + k, len, inner, inner - k, bb, log);
      return;
    }
    const float mx = fold(Fold::Max, x, len, -__builtin_inff());
    const B bm(mx);
    B s(0.0f);
    std::size_t i = 0;
    for (; i + L <= len; i += L) {
      const B e = xsimd::exp(bb * (load(x + i) - bm));
      if (!log) e.store_unaligned(y + i);
      s = s + e;
    }
    alignas(64) float t[L];
    s.store_aligned(t);
    float sum = 0.0f;
    for (std::size_t j = 0; j < L; ++j) sum += t[j];
    if (i < len) {
      const B e = xsimd::exp(bb * (gather(x + i, len - i) - bm));
      e.store_aligned(t);
      for (std::size_t j = 0; i + j < len; ++j) {
        if (!log) y[i + j] = t[j];
        sum += t[j];
      }
    }
    if (!log) {
      const B bs(sum);
      map1(y, y, len, [bs](B v) { return v / bs; });
    } else {
      const B ls = xsimd::log(B(sum));
      map1(x, y, len, [bb, bm, ls](B v) { return bb * (v - bm) - ls; });
    }
  }

  static void scale_shift(const float* x, float* y, std::size_t n, const float* sub, const float* mul, const float* add,
                          bool per_element) {
    std::size_t i = 0;
    if (per_element) {
      for (; i + L <= n; i += L) ((load(x + i) - load(sub + i)) * load(mul + i) + load(add + i)).store_unaligned(y + i);
      for (; i < n; ++i) y[i] = (x[i] - sub[i]) * mul[i] + add[i];
    } else {
      const B s(*sub), m(*mul), a(*add);
      for (; i + L <= n; i += L) ((load(x + i) - s) * m + a).store_unaligned(y + i);
      for (; i < n; ++i) y[i] = (x[i] - *sub) * *mul + *add;
    }
  }

  static void axpy(float a, const float* x, float* y, std::size_t n) {
    const B ba(a);
    std::size_t i = 0;
    for (; i + L <= n; i += L) (load(y + i) + ba * load(x + i)).store_unaligned(y + i);
    for (; i < n; ++i) y[i] = y[i] + a * x[i];
  }

  static void depthwise_row(const DepthwiseRow& r) {
    const int64_t c = r.c;
    for (int64_t ox = 0; ox < r.ow; ++ox) {
      const int64_t ix0 = ox * r.sw - r.pl;
      float* yo = r.y + ox * c;
      int64_t c0 = 0;
      for (; c0 + static_cast<int64_t>(L) <= c; c0 += L) {
        B acc = r.bias ? load(r.bias + c0) : B(0.0f);
        for (int64_t ky = 0; ky < r.kh; ++ky) {
          const int64_t iy = r.iy0 + ky * r.dh;
          if (iy < 0 || iy >= r.h) continue;
          const float* xr = r.x + iy * r.w_in * c + c0;
          const float* wr = r.w + ky * r.kw * c + c0;
          for (int64_t kx = 0; kx < r.kw; ++kx) {
            const int64_t ix = ix0 + kx * r.dw;
            if (ix < 0 || ix >= r.w_in) continue;
            acc = acc + load(xr + ix * c) * load(wr + kx * c);
          }
        }
        acc.store_unaligned(yo + c0);
      }
      for (; c0 < c; ++c0) {
        float acc = r.bias ? r.bias[c0] : 0.0f;
        for (int64_t ky = 0; ky < r.kh; ++ky) {
          const int64_t iy = r.iy0 + ky * r.dh;
          if (iy < 0 || iy >= r.h) continue;
          for (int64_t kx = 0; kx < r.kw; ++kx) {
            const int64_t ix = ix0 + kx * r.dw;
            if (ix < 0 || ix >= r.w_in) continue;
            acc = acc + r.x[(iy * r.w_in + ix) * c + c0] * r.w[(ky * r.kw + kx) * c + c0];
          }
        }
        yo[c0] = acc;
      }
    }
  }

  // NV registers of each of R output rows of depthwise_plane (Max: max_plane), from row oy and
  // column ox: R * NV independent accumulators, so that the steps of one register do not wait on
  // each other's latency alone (a 7- or 14-wide plane has one register per row). Every output is
  // still the same sum in the same order. Writes `valid` outputs per row.
  template <int R, int NV, bool Max>
  static void plane_block(const DepthwisePlane& p, int64_t oy, int64_t ox, int64_t valid) {
    B acc[R][NV];  // unrolled, so that GCC keeps the accumulators in registers
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[r][v] = Max ? B(-__builtin_huge_valf()) : B(p.bias);
    const float* at0 = p.src + oy * p.sh * p.row_stride + ox;
    const int64_t row = p.sh * p.row_stride;
    for (int64_t t = 0, taps = p.kh * p.kw; t < taps; ++t) {  // (ky, kx) order
      const float* src = at0 + p.taps[t];
      [[maybe_unused]] const B wt(Max ? 0.0f : p.w[t]);
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) {
          const B x = load(src + r * row + v * static_cast<int64_t>(L));
          if constexpr (Max) acc[r][v] = xsimd::select(x > acc[r][v], x, acc[r][v]);  // `if (x > acc) acc = x`: NaN never wins
          else acc[r][v] = acc[r][v] + x * wt;
        }
    }
    if (!Max && p.clamp) {  // as Unary::Clip: vmin(hi, vmax(lo, y))
      const B lo(p.lo), hi(p.hi);
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) acc[r][v] = vmin(hi, vmax(lo, acc[r][v]));
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r) {
      float* yr = p.y + (oy + r) * p.ow + ox;
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) {
        const int64_t at = v * static_cast<int64_t>(L);
        if (at + static_cast<int64_t>(L) <= valid) {
          acc[r][v].store_unaligned(yr + at);
        } else if (at < valid) {
#if defined(__AVX512F__)
          if constexpr (L == 16) {  // a masked store of the valid - at < 16 outputs
            _mm512_mask_storeu_ps(yr + at, static_cast<__mmask16>((1u << (valid - at)) - 1), acc[r][v]);
            continue;
          }
#endif
          alignas(64) float t[L];
          acc[r][v].store_aligned(t);
          for (int64_t j = 0; at + j < valid; ++j) yr[at + j] = t[j];
        }
      }
    }
  }

  // Rows in blocks of R, then the last oh % R rows as one block, each row in blocks of NV
  // registers (a 7-row plane with R = 8 is one block of 7 rows, not 7 blocks of one).
  template <int R, int NV, bool Max>
  static void plane_rows(const DepthwisePlane& p, int64_t ox, int64_t valid) {
    int64_t oy = 0;
    for (; oy + R <= p.oh; oy += R) plane_block<R, NV, Max>(p, oy, ox, valid);
    if (oy < p.oh) tail_block<R - 1, NV, Max>(p, oy, ox, valid);
  }
  // The block of the p.oh - oy <= T rows left.
  template <int T, int NV, bool Max>
  static void tail_block(const DepthwisePlane& p, int64_t oy, int64_t ox, int64_t valid) {
    if constexpr (T >= 1) {
      if (p.oh - oy == T) plane_block<T, NV, Max>(p, oy, ox, valid);
      else tail_block<T - 1, NV, Max>(p, oy, ox, valid);
    }
  }

  static void requantize(const Requantize& r, const double* sums, float* y, std::size_t n) {
    using D = xsimd::batch<double, A>;
    constexpr std::size_t LD = D::size;
    const D bias(r.bias), m(r.multiplier), yz(r.y_zero), lo(r.lo), hi(r.hi);
    std::size_t i = 0;
    alignas(64) double t[LD];
    for (; i + LD <= n; i += LD) {
      D v = xsimd::nearbyint((D::load_unaligned(sums + i) + bias) * m) + yz;
      v = xsimd::select(v < lo, lo, v);  // std::clamp's order: a NaN stays
      v = xsimd::select(hi < v, hi, v);
      v.store_aligned(t);
      for (std::size_t j = 0; j < LD; ++j) y[i + j] = static_cast<float>(t[j]);
    }
    for (; i < n; ++i) {
      double v = __builtin_nearbyint((sums[i] + r.bias) * r.multiplier) + r.y_zero;
      v = v < r.lo ? r.lo : v;
      y[i] = static_cast<float>(r.hi < v ? r.hi : v);
    }
  }

  static void quantize(const float* x, float* y, std::size_t n, float scale, float zero, float lo, float hi) {
    const B s(scale), z(zero), l(lo), h(hi);
    std::size_t i = 0;
    for (; i + L <= n; i += L) {
      B v = xsimd::nearbyint(B::load_unaligned(x + i) / s) + z;
      v = xsimd::select(v < l, l, v);  // std::clamp's order: a NaN stays
      v = xsimd::select(h < v, h, v);
      v.store_unaligned(y + i);
    }
    for (; i < n; ++i) {
      float v = __builtin_nearbyintf(x[i] / scale) + zero;
      v = v < lo ? lo : v;
      y[i] = hi < v ? hi : v;
    }
  }

  static void dequantize(const float* x, float* y, std::size_t n, float scale, float zero) {
    const B s(scale), z(zero);
    std::size_t i = 0;
    for (; i + L <= n; i += L) ((B::load_unaligned(x + i) - z) * s).store_unaligned(y + i);
    for (; i < n; ++i) y[i] = (x[i] - zero) * scale;
  }

  static void take_even(const float* x, std::size_t n, float* y) {
    std::size_t k = 0;
#if defined(__AVX512F__)
    // 16 outputs per step: VPERMT2PS picks the even lanes of two registers (x[2k .. 2k + 31],
    // so k + 16 < n keeps the reads inside x[0 .. 2n - 2]); the rest with masked loads.
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    for (; k + 16 < n; k += 16)
      _mm512_storeu_ps(y + k, _mm512_permutex2var_ps(_mm512_loadu_ps(x + 2 * k), even, _mm512_loadu_ps(x + 2 * k + 16)));
    if (k < n) {  // the last m <= 16 outputs: masked loads of the 2m - 1 floats they read, a masked store
      const std::size_t m = n - k, need = 2 * m - 1;
      const __mmask16 lo = static_cast<__mmask16>(need >= 16 ? 0xFFFFu : (1u << need) - 1);
      const __mmask16 hi = static_cast<__mmask16>(need > 16 ? (1u << (need - 16)) - 1 : 0u);
      const __m512 v = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(lo, x + 2 * k), even, _mm512_maskz_loadu_ps(hi, x + 2 * k + 16));
      _mm512_mask_storeu_ps(y + k, static_cast<__mmask16>(m == 16 ? 0xFFFFu : (1u << m) - 1), v);
      return;
    }
#endif
    for (; k < n; ++k) y[k] = x[2 * k];
  }

  static void split_even_odd(const float* x, std::size_t n, float* even, float* odd) {
    std::size_t k = 0;  // pairs done
#if defined(__AVX512F__)
    // 32 floats per step: two loads, the even and the odd lanes of the pair by VPERMT2PS; the
    // last 1 to 31 with masked loads and stores.
    const __m512i ie = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i io = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    for (; 2 * k + 32 <= n; k += 16) {
      const __m512 a = _mm512_loadu_ps(x + 2 * k), b = _mm512_loadu_ps(x + 2 * k + 16);
      _mm512_storeu_ps(even + k, _mm512_permutex2var_ps(a, ie, b));
      _mm512_storeu_ps(odd + k, _mm512_permutex2var_ps(a, io, b));
    }
    if (2 * k < n) {
      const std::size_t r = n - 2 * k;  // 1 .. 31
      const __mmask16 lo = static_cast<__mmask16>(r >= 16 ? 0xFFFFu : (1u << r) - 1);
      const __mmask16 hi = static_cast<__mmask16>(r > 16 ? (1u << (r - 16)) - 1 : 0u);
      const __m512 a = _mm512_maskz_loadu_ps(lo, x + 2 * k), b = _mm512_maskz_loadu_ps(hi, x + 2 * k + 16);
      _mm512_mask_storeu_ps(even + k, static_cast<__mmask16>((1u << ((r + 1) / 2)) - 1), _mm512_permutex2var_ps(a, ie, b));
      _mm512_mask_storeu_ps(odd + k, static_cast<__mmask16>((1u << (r / 2)) - 1), _mm512_permutex2var_ps(a, io, b));
      return;
    }
#endif
    for (; 2 * k + 1 < n; ++k) even[k] = x[2 * k], odd[k] = x[2 * k + 1];
    if (2 * k < n) even[k] = x[2 * k];
  }

  static void depthwise_plane(const DepthwisePlane& p) { plane<false>(p); }
  static void max_plane(const DepthwisePlane& p) { plane<true>(p); }

#if defined(__AVX512F__)
  // max_pool_3x3s2 (simd.h), 16 output columns at a time: each input row's 33 columns
  // 2 j0 - pl .. 2 j0 - pl + 32 in three masked loads (-inf outside X), their even and odd
  // columns and the evens one further on by VPERMT2PS, folded in kx order; then the three rows in
  // ky order. Each fold is `if (x > acc) acc = x`: VMAXPS(x, acc) returns acc unless x is greater
  // (a NaN x, or an equal one, leaves acc). Folding each row first and then the rows keeps the
  // first of equal values in (ky, kx) order, as max_plane does: the same bits. A row's fold is
  // kept for the next output row, whose window starts on it.
  static void max_pool_3x3s2(const float* x, int64_t h, int64_t w, float* y, int64_t ow, int64_t oy0, int64_t oy1,
                             int64_t pt, int64_t pl) {
    const __m512 ninf = _mm512_set1_ps(-__builtin_huge_valf());
    const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
    const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
    const __m512i next = _mm512_setr_epi32(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
    // Lanes i < n whose column from + i lies in X.
    const auto inside = [w](int64_t from, int64_t n) {  // no std::clamp here (see the top of the file)
      const int64_t lo = -from < 0 ? 0 : (-from > n ? n : -from), hi = w - from < 0 ? 0 : (w - from > n ? n : w - from);
      return static_cast<__mmask16>(hi <= lo ? 0u : ((1u << hi) - 1u) & ~((1u << lo) - 1u));
    };
    for (int64_t j0 = 0; j0 < ow; j0 += 16) {
      const int64_t c0 = 2 * j0 - pl;
      const __mmask16 ma = inside(c0, 16), mb = inside(c0 + 16, 16), mc = inside(c0 + 32, 1);
      const int64_t n = ow - j0 < 16 ? ow - j0 : 16;
      const __mmask16 keep = static_cast<__mmask16>(n == 16 ? 0xFFFFu : (1u << n) - 1u);
      // Row iy's fold (-inf for a row outside X).
      const auto row = [&](int64_t iy) {
        if (iy < 0 || iy >= h) return ninf;
        const float* r = x + iy * w + c0;  // masked lanes are not read (r may start before X)
        const __m512 lo = _mm512_mask_loadu_ps(ninf, ma, r), hi = _mm512_mask_loadu_ps(ninf, mb, r + 16);
        const __m512 e = _mm512_permutex2var_ps(lo, even, hi);
        const __m512 e2 = _mm512_permutex2var_ps(e, next, _mm512_mask_loadu_ps(ninf, mc, r + 32));
        const __m512 acc = _mm512_max_ps(_mm512_permutex2var_ps(lo, odd, hi), _mm512_max_ps(e, ninf));
        return _mm512_max_ps(e2, acc);
      };
      __m512 top = row(2 * oy0 - pt);
      for (int64_t oy = oy0; oy < oy1; ++oy) {
        const __m512 mid = row(2 * oy - pt + 1), bottom = row(2 * oy - pt + 2);
        _mm512_mask_storeu_ps(y + oy * ow + j0, keep, _mm512_max_ps(bottom, _mm512_max_ps(mid, top)));
        top = bottom;
      }
    }
  }
#endif

#if defined(__AVX512F__)
  // Stride 1 and dilation 1 with K x K taps (K = 3 or 5), rows and buffer register-aligned
  // (plane_s1 below): R output rows by NV registers from (oy, ox), ox a multiple of 16. Each of
  // the R + kh - 1 input rows the block reads is loaded once as NV + 1 aligned registers, the
  // taps kx > 0 shifted out of them by VALIGND; then every output row r that reads that input
  // row (ky = row - r) adds its K taps. An output's taps still come in (ky, kx) order (rows in
  // increasing order, then kx), each a multiply then an add: plane_block's bits, with a sixth of
  // its loads (which crossed cache lines: the taps' columns are not register-aligned).
  static __m512 shifted(__m512 lo, __m512 hi, int s) {  // lanes s .. s + 15 of lo:hi
    const __m512i a = _mm512_castps_si512(lo), b = _mm512_castps_si512(hi);
    switch (s) {
      case 1: return _mm512_castsi512_ps(_mm512_alignr_epi32(b, a, 1));
      case 2: return _mm512_castsi512_ps(_mm512_alignr_epi32(b, a, 2));
      case 3: return _mm512_castsi512_ps(_mm512_alignr_epi32(b, a, 3));
      case 4: return _mm512_castsi512_ps(_mm512_alignr_epi32(b, a, 4));
      default: return lo;
    }
  }
  // The loops are unrolled whole (R + K - 1 input rows): which output rows read an input row is
  // then known at compile time, not a branch the predictor learns again on each small node.
  template <int R, int NV, int K>
  static void s1_block(const DepthwisePlane& p, int64_t oy, int64_t ox, int64_t valid) {
    __m512 acc[R][NV];
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_set1_ps(p.bias);
    const float* base = p.src + oy * p.row_stride + ox;
#pragma GCC unroll 16
    for (int i = 0; i < R + K - 1; ++i) {
      const float* row = base + i * p.row_stride;
      __m512 a[NV + 1];
#pragma GCC unroll 8
      for (int v = 0; v <= NV; ++v) a[v] = _mm512_load_ps(row + 16 * v);
#pragma GCC unroll 8
      for (int kx = 0; kx < K; ++kx) {
        __m512 t[NV];
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) t[v] = shifted(a[v], a[v + 1], kx);
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
          const int ky = i - r;
          if (ky < 0 || ky >= K) continue;
          const __m512 wt = _mm512_set1_ps(p.w[ky * K + kx]);
#pragma GCC unroll 4
          for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_add_ps(acc[r][v], _mm512_mul_ps(t[v], wt));
        }
      }
    }
    if (p.clamp) {  // as Unary::Clip: vmin(hi, vmax(lo, y)), MAXPS(y, lo) then MINPS(., hi)
      const __m512 lo = _mm512_set1_ps(p.lo), hi = _mm512_set1_ps(p.hi);
#pragma GCC unroll 8
      for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int v = 0; v < NV; ++v) acc[r][v] = _mm512_min_ps(_mm512_max_ps(acc[r][v], lo), hi);
    }
#pragma GCC unroll 8
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
      for (int v = 0; v < NV; ++v) {
        const int64_t n = valid - 16 * v;
        if (n > 0) _mm512_mask_storeu_ps(p.y + (oy + r) * p.ow + ox + 16 * v, static_cast<__mmask16>(n >= 16 ? 0xFFFFu : (1u << n) - 1u), acc[r][v]);
      }
  }
  template <int R, int NV, int K>
  static void s1_rows(const DepthwisePlane& p, int64_t ox, int64_t valid) {
    int64_t oy = 0;
    for (; oy + R <= p.oh; oy += R) s1_block<R, NV, K>(p, oy, ox, valid);
    s1_tail<R - 1, NV, K>(p, oy, ox, valid);
  }
  template <int T, int NV, int K>
  static void s1_tail(const DepthwisePlane& p, int64_t oy, int64_t ox, int64_t valid) {
    if constexpr (T >= 1) {
      if (p.oh - oy == T) s1_block<T, NV, K>(p, oy, ox, valid);
      else s1_tail<T - 1, NV, K>(p, oy, ox, valid);
    }
  }
  template <int K>
  static void plane_s1(const DepthwisePlane& p) {
    static_assert(K <= 5, "shifted() moves taps by at most 4 columns");
    int64_t ox = 0;
    for (; p.ow - ox > 48; ox += 64) s1_rows<4, 4, K>(p, ox, p.ow - ox);
    const int64_t left = p.ow - ox, regs = (left + 15) / 16;
    if (regs == 3) s1_rows<4, 3, K>(p, ox, left);
    else if (regs == 2) s1_rows<4, 2, K>(p, ox, left);
    else if (regs == 1) s1_rows<8, 1, K>(p, ox, left);
  }
  // Whether plane_s1 takes p: a depthwise plane (not MaxPool), strides and dilations 1, a 3 x 3
  // or 5 x 5 kernel, rows starting register-aligned (PaddedPlane's layout in an aligned buffer).
  static bool s1_fits(const DepthwisePlane& p) {
    return p.sh == 1 && p.sw == 1 && p.dh == 1 && p.dw == 1 && p.kh == p.kw && (p.kw == 3 || p.kw == 5) && p.row_stride % 16 == 0 &&
           reinterpret_cast<std::uintptr_t>(p.src) % 64 == 0;
  }
#endif

  // Column blocks of 4 registers over all rows, then the rest of the columns (1 to 3 registers)
  // over all rows; about 8 accumulators per block (R * NV).
  template <bool Max>
  static void plane(const DepthwisePlane& p) {
#if defined(__AVX512F__)
    if constexpr (!Max && L == 16) {
      if (s1_fits(p)) {
        if (p.kw == 3) plane_s1<3>(p);
        else plane_s1<5>(p);
        return;
      }
    }
#endif
    const int64_t lanes = static_cast<int64_t>(L);
    int64_t ox = 0;
    for (; p.ow - ox > 3 * lanes; ox += 4 * lanes) plane_rows<2, 4, Max>(p, ox, p.ow - ox);
    const int64_t left = p.ow - ox, regs = (left + lanes - 1) / lanes;
    if (regs == 3) plane_rows<2, 3, Max>(p, ox, left);
    else if (regs == 2) plane_rows<4, 2, Max>(p, ox, left);
    else if (regs == 1) plane_rows<8, 1, Max>(p, ox, left);
  }

  static Kernels table() {
    Kernels k;
    k.arch = A::name();
    k.lanes = L;
    k.binary = &binary;
    k.unary = &unary;
    k.softmax = &softmax;
    k.fold = &fold;
    k.fold_into = &fold_into;
    k.scale_shift = &scale_shift;
    k.axpy = &axpy;
    k.depthwise_row = &depthwise_row;
    k.depthwise_plane = &depthwise_plane;
    k.max_plane = &max_plane;
#if defined(__AVX512F__)
    if constexpr (L == 16) k.max_pool_3x3s2 = &max_pool_3x3s2;
#endif
    k.requantize = &requantize;
    k.quantize = &quantize;
    k.dequantize = &dequantize;
    k.take_even = &take_even;
    k.split_even_odd = &split_even_odd;
    return k;
  }
};

}  // namespace

template <class Arch>
Kernels MakeKernels::operator()(Arch) const {
  return Impl<Arch>::table();
}

}  // namespace nnbridge::cpu_ref::simd
