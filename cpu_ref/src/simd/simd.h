// Vector kernels of the CPU backend (float32), compiled once per x86 instruction set (SSE2,
// SSE4.2, AVX2, AVX-512F) from one xsimd source and chosen at run time with xsimd::dispatch,
// so one binary uses AVX-512 where the CPU has it and still runs on SSE2-only machines.
//
// Every function computes the same value for an element whatever the instruction set and
// whatever its position in the array: arithmetic is the plain IEEE sequence written in each
// comment (no fused multiply-add; the files are compiled with -ffp-contract=off), and the
// last n % lanes elements go through the same vector code in a zero-padded register. Only
// exp, log, tanh and erf are xsimd's polynomial approximations (a few ulp from the C library).
//
// max/min follow std::max / std::min exactly, including NaN and signed zero: std::max(a, b)
// is (a < b) ? b : a, which is what x86 MAXPS computes with its operands swapped. That is
// also Arm NN CpuRef's rule: it uses std::max / std::min (armnn/src/backends/reference/
// workloads/Activation.cpp, Maximum.hpp, Minimum.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nnbridge::cpu_ref::simd {

/// Binary elementwise ops: y = f(a, b). Comparisons and logical ops give 1.0f or 0.0f.
enum class Binary : uint8_t {
  Add,                ///< a + b
  Sub,                ///< a - b
  Mul,                ///< a * b
  Div,                ///< a / b
  Max,                ///< std::max(a, b)
  Min,                ///< std::min(a, b)
  SquaredDifference,  ///< (a - b) * (a - b)
  PRelu,              ///< a >= 0 ? a : b * a   (b: the slope)
  Equal,              ///< a == b
  NotEqual,           ///< a != b
  Greater,            ///< a > b
  GreaterOrEqual,     ///< a >= b
  Less,               ///< a < b
  LessOrEqual,        ///< a <= b
  And,                ///< a != 0 && b != 0
  Or,                 ///< a != 0 || b != 0
};

/// How the operands of one binary run are laid out: n contiguous values or one value for all n.
enum class Operands : uint8_t { VecVec, VecScalar, ScalarVec };

/// Unary elementwise ops: y = f(x) with up to two parameters p.a, p.b.
enum class Unary : uint8_t {
  Relu,        ///< std::max(0, x)
  Clip,        ///< std::min(p.b, std::max(p.a, x))       (p.a = min, p.b = max)
  LeakyRelu,   ///< x > 0 ? x : p.a * x
  Affine,      ///< p.a * x + p.b
  HardSwish,   ///< x * std::min(std::max(x + 3, 0), 6) / 6
  Sigmoid,     ///< 1 / (1 + exp(-x))
  Tanh,        ///< tanh(x)
  ScaledTanh,  ///< p.a * tanh(p.b * x)
  Elu,         ///< x >= 0 ? x : p.a * (exp(x) - 1)
  Softplus,    ///< log(1 + exp(x))
  GeluErf,     ///< 0.5 * x * (1 + erf(x * 0.70710678))
  GeluTanh,    ///< 0.5 * x * (1 + tanh(0.7978845608 * (x + 0.044715 * x * x * x)))
  Abs,         ///< |x|
  Neg,         ///< -x
  Sqrt,        ///< sqrt(x) (IEEE, exact)
  Rsqrt,       ///< 1 / sqrt(x)
  Exp,         ///< exp(x)
  Log,         ///< log(x)
  Reciprocal,  ///< 1 / x
  Square,      ///< x * x
};

struct UnaryParams {
  float a = 0, b = 0;
};

/// Folds for reductions: Sum a + x, Max std::max(a, x), Min std::min(a, x), Prod a * x.
enum class Fold : uint8_t { Sum, Max, Min, Prod };

/// One output row of a depthwise convolution with channel multiplier 1 in NHWC:
/// y[ox][c] = bias[c] + sum over taps (ky, kx) inside the image, in that order, of
/// x[iy0 + ky*dh][ox*sw - pl + kx*dw][c] * w[ky][kx][c]   (each step a multiply then an add).
struct DepthwiseRow {
  const float* x = nullptr;     ///< one image, [h][w][c]
  const float* w = nullptr;     ///< [kh][kw][c]
  const float* bias = nullptr;  ///< [c], or nullptr for 0
  float* y = nullptr;           ///< the output row, [ow][c]
  int64_t h = 0, w_in = 0, c = 0, kh = 0, kw = 0;
  int64_t iy0 = 0, dh = 1;      ///< input row of tap ky: iy0 + ky * dh (rows outside [0, h) are padding)
  int64_t ow = 0, sw = 1, pl = 0, dw = 1;
};

/// The constants of Kernels::requantize for one output channel.
struct Requantize {
  double bias = 0, multiplier = 1, y_zero = 0, lo = 0, hi = 0;
};

/// One channel of a depthwise convolution with channel multiplier 1 in NCHW, read from a
/// zero-padded copy of its input plane: y[oy][ox] = bias + the sum over every tap (ky, kx), in
/// that order, of src(oy*sh + ky*dh, ox*sw + kx*dw) * w[ky][kx] (each step a multiply then an
/// add; a tap in the padding reads 0, so it adds 0 * w). The copy splits the columns of each
/// padded row by phase for stride sw: src(r, col) = src[r * row_stride + (col % sw) * phase_stride
/// + col / sw], so every tap reads consecutive output columns from consecutive floats. Rows are
/// computed in whole registers: each phase must hold ceil(ow / lanes) * lanes + (kw - 1) * dw / sw
/// columns (the values past the row's end are computed and dropped). With `clamp`, each output
/// then becomes std::min(hi, std::max(lo, y)), as Unary::Clip computes it (a folded Relu or Clip;
/// max_plane ignores it).
struct DepthwisePlane {
  const float* src = nullptr;
  int64_t row_stride = 0, phase_stride = 0;
  const float* w = nullptr;  ///< this channel's [kh][kw]
  float bias = 0;
  float* y = nullptr;        ///< the output plane, [oh][ow]
  int64_t oh = 0, ow = 0, kh = 0, kw = 0, sh = 1, sw = 1, dh = 1, dw = 1;
  /// kh * kw offsets, tap (ky, kx) at [ky * kw + kx]: where the tap's input for output column 0
  /// of a row is, from that row's first padded row: ky * dh * row_stride + (kx * dw % sw) *
  /// phase_stride + kx * dw / sw (made once by the caller, not per register block).
  const int64_t* taps = nullptr;
  bool clamp = false;
  float lo = 0, hi = 0;
};

/// The kernels of one instruction set.
struct Kernels {
  const char* arch = "";  ///< xsimd's name of the instruction set ("avx512f", "avx2", "sse4.2", "sse2")
  std::size_t lanes = 1;  ///< floats per register

  /// y[i] = op(a[i or 0], b[i or 0]) for i < n, per `form`. y may be a or b.
  void (*binary)(Binary op, Operands form, const float* a, const float* b, float* y, std::size_t n);
  /// y[i] = op(x[i]) for i < n. y may be x.
  void (*unary)(Unary op, UnaryParams p, const float* x, float* y, std::size_t n);
  /// Softmax (or log-softmax) of one [len][inner] block along len (Arm NN / ONNX with beta):
  /// y = exp(beta * (x - max)) / sum, log: beta * (x - max) - log(sum). len >= 1.
  void (*softmax)(const float* x, float* y, std::size_t len, std::size_t inner, float beta, bool log);
  /// Folds x[0..n) into `init` (the lanes fold separately, then in lane order into init).
  float (*fold)(Fold op, const float* x, std::size_t n, float init);
  /// acc[i] = op(acc[i], x[i]) for i < n.
  void (*fold_into)(Fold op, const float* x, float* acc, std::size_t n);
  /// y[i] = (x[i] - sub) * mul + add, with sub/mul/add read at [i] when per_element, else at [0].
  void (*scale_shift)(const float* x, float* y, std::size_t n, const float* sub, const float* mul, const float* add,
                      bool per_element);
  /// y[i] = y[i] + a * x[i].
  void (*axpy)(float a, const float* x, float* y, std::size_t n);
  /// One output row of a depthwise convolution (see DepthwiseRow).
  void (*depthwise_row)(const DepthwiseRow& r);
  /// One NCHW channel of a depthwise convolution, from its padded plane (see DepthwisePlane).
  void (*depthwise_plane)(const DepthwisePlane& p);
  /// One NCHW channel of a MaxPool from the same padded layout (w and bias unused): y[oy][ox] is
  /// -inf, then for every tap in (ky, kx) order `if (x > y) y = x` (a NaN never replaces it, and
  /// of equal values the first stays: the bits of the scalar loop). The caller pads with -inf.
  void (*max_plane)(const DepthwisePlane& p);
  /// One NCHW plane x [h][w] of a MaxPool with a 3 x 3 kernel, strides 2 and dilations 1, read
  /// as it lies (no padded copy): output rows [oy0, oy1) of y [..][ow], the window of (oy, ox)
  /// starting at row 2 oy - pt, column 2 ox - pl; taps outside x read -inf. The bits of
  /// max_plane on the -inf-padded plane. Null where the instruction set has no such kernel
  /// (AVX-512F only).
  void (*max_pool_3x3s2)(const float* x, int64_t h, int64_t w, float* y, int64_t ow, int64_t oy0, int64_t oy1,
                         int64_t pt, int64_t pl) = nullptr;
  /// QLinearConv's requantization of exact integer sums (integer_conv.cc): y[i] =
  /// saturate(round_half_even((sums[i] + r.bias) * r.multiplier) + r.y_zero) to [r.lo, r.hi], in
  /// double, in that order (the bits of the scalar expression); a NaN stays NaN.
  void (*requantize)(const Requantize& r, const double* sums, float* y, std::size_t n);
  /// QuantizeLinear-13 with a scale (quantize.cc): y[i] = clamp(round_half_even(x[i] / scale) +
  /// zero, lo, hi) in float32, in that order (the bits of the scalar expression, std::nearbyint
  /// for the rounding and std::clamp's comparisons: a NaN stays NaN). y may be x.
  void (*quantize)(const float* x, float* y, std::size_t n, float scale, float zero, float lo, float hi);
  /// DequantizeLinear-13 with a scale (quantize.cc): y[i] = (x[i] - zero) * scale in float32.
  /// y may be x.
  void (*dequantize)(const float* x, float* y, std::size_t n, float scale, float zero);
  /// y[k] = x[2k] for k < n, reading nothing past x[2n - 2]: a stride-2 convolution's im2col
  /// rows (im2col.h). Pure copies.
  void (*take_even)(const float* x, std::size_t n, float* y);
  /// even[k] = x[2 k] for k < (n + 1) / 2 and odd[k] = x[2 k + 1] for k < n / 2: both columns
  /// phases of a row of n floats in one pass (two take_even calls read the row twice).
  void (*split_even_odd)(const float* x, std::size_t n, float* even, float* odd);
};

/// The kernels xsimd::dispatch picked for this CPU (chosen on first use, then fixed), or the
/// ones the environment variable NNBRIDGE_CPU_SIMD names ("sse2", "sse4.2", "avx2", "avx512f")
/// when this CPU runs them.
const Kernels& kernels();
/// Every compiled instruction set that this CPU can run, best first (tests compare them).
std::vector<const Kernels*> runnable_kernels();

}  // namespace nnbridge::cpu_ref::simd
