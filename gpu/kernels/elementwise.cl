// Elementwise kernels of the opencl backend: unary maps, binary ops with NumPy broadcasting,
// strided copies (Transpose, Expand) and block copies (Concat). One work item per output element.
// The op codes are gpu/src/ops.cc's Unary and Binary enums; each formula is the one cpu_ref uses
// (cpu_ref/src/simd/kernels_impl.h, cpu_ref/src/kernels/elementwise.cc and activation.cc), with the
// source of the rule noted there.

// No fused multiply-adds: cpu's C++ evaluates a * b + c in two roundings.
#pragma OPENCL FP_CONTRACT OFF

// std::max(a, b) and std::min(a, b), as cpu spells them: a NaN in the second place loses.
float smax(float a, float b) { return a < b ? b : a; }
float smin(float a, float b) { return b < a ? b : a; }

// y = min(max(y, lo), hi) in place, in std::min / std::max's order (a NaN stays NaN): ExecuTorch's
// conv_with_clamp after its convolution (cpu_ref/src/kernels/executorch.cc).
__kernel void clamp_range(__global float* y, float lo, float hi) {
  const size_t i = get_global_id(0);
  y[i] = smin(smax(y[i], lo), hi);
}

__kernel void unary_op(__global const float* x, __global float* y, int op, float a, float b) {
  const size_t i = get_global_id(0);
  const float v = x[i];
  float r;
  switch (op) {
    case 0: r = v > 0.0f ? v : 0.0f; break;                                   // Relu
    case 1: r = 1.0f / (1.0f + exp(-v)); break;                                // Sigmoid
    case 2: r = tanh(v); break;                                                // Tanh
    case 3: r = a * tanh(b * v); break;                                        // ScaledTanh
    case 4: r = a * v + b; break;                                              // Affine
    case 5: r = fmin(b, fmax(a, v)); break;                                    // Clip [a, b]
    case 6: r = v > 0.0f ? v : a * v; break;                                   // LeakyRelu
    case 7: r = v >= 0.0f ? v : a * (exp(v) - 1.0f); break;                    // Elu
    case 8: r = log(1.0f + exp(v)); break;                                     // Softplus
    case 9: r = v * fmin(fmax(v + 3.0f, 0.0f), 6.0f) / 6.0f; break;            // HardSwish
    case 10: r = 0.5f * v * (1.0f + erf(v * 0.70710678f)); break;              // Gelu
    case 11: r = 0.5f * v * (1.0f + tanh(0.7978845608f * (v + 0.044715f * v * v * v))); break;  // Gelu tanh
    case 12: r = fabs(v); break;
    case 13: r = -v; break;
    case 14: r = sqrt(v); break;
    case 15: r = 1.0f / sqrt(v); break;                                        // Rsqrt
    case 16: r = exp(v); break;
    case 17: r = log(v); break;
    case 18: r = 1.0f / v; break;                                              // Reciprocal
    case 19: r = v * v; break;                                                 // Square
    case 20: r = sin(v); break;
    case 21: r = ceil(v); break;
    case 22: r = floor(v); break;
    case 23: r = (float)((v > 0.0f) - (v < 0.0f)); break;                      // Sign
    case 24: r = rint(v); break;                                               // Round: to nearest even
    case 25: r = v == 0.0f ? 1.0f : 0.0f; break;                               // Not
    case 26: r = cos(v); break;
    case 27: r = tan(v); break;
    case 28: r = asin(v); break;
    case 29: r = acos(v); break;
    case 30: r = atan(v); break;
    case 31: r = sinh(v); break;
    case 32: r = cosh(v); break;
    case 33: r = asinh(v); break;
    case 34: r = acosh(v); break;
    case 35: r = atanh(v); break;
    case 36: r = erf(v); break;
    case 37: r = isnan(v) ? 1.0f : 0.0f; break;                                // IsNaN
    case 38: r = isinf(v) && (v > 0.0f ? b != 0.0f : a != 0.0f) ? 1.0f : 0.0f; break;  // IsInf: a neg, b pos
    case 39: r = v > 0.0f ? b * v : b * (a * exp(v) - a); break;               // Selu: alpha a, gamma b
    case 40: r = smax(0.0f, v) + smin(0.0f, a * (exp(v / a) - 1.0f)); break;    // Celu
    case 41: r = smax(0.0f, smin(1.0f, a * v + b)); break;                     // HardSigmoid
    case 42: r = v > a ? v : 0.0f; break;                                      // ThresholdedRelu
    case 43: r = v < -b ? v + a : (v > b ? v - a : 0.0f); break;               // Shrink: bias a, lambd b
    case 44: r = v / (1.0f + fabs(v)); break;                                  // Softsign
    case 45: r = v / a; break;                                                 // Mean's division by the count
    default: r = v; break;                                                     // Identity
  }
  y[i] = r;
}

// meta: dims[rank] (of y), strides of a[rank], strides of b[rank] (0 along broadcast dims); alpha:
// the factor of the scaled Add / Sub.
__kernel void binary_op(__global const float* a, __global const float* b, __global float* y, int op, int rank,
                        __global const int* meta, float alpha) {
  const int i = (int)get_global_id(0);
  int rem = i, ia = 0, ib = 0;
  for (int d = rank - 1; d >= 0; --d) {
    const int c = rem % meta[d];
    rem /= meta[d];
    ia += c * meta[rank + d];
    ib += c * meta[2 * rank + d];
  }
  const float p = a[ia], q = b[ib];
  float r;
  switch (op) {
    case 0: r = p + q; break;
    case 1: r = p - q; break;
    case 2: r = p * q; break;
    case 3: r = p / q; break;
    case 4: r = p < q ? q : p; break;          // Max: std::max(a, b)
    case 5: r = q < p ? q : p; break;          // Min: std::min(a, b)
    case 6: r = pow(p, q); break;
    case 7: r = (p - q) * (p - q); break;      // SquaredDifference
    case 8: r = p == q ? 1.0f : 0.0f; break;   // Equal
    case 9: r = p != q ? 1.0f : 0.0f; break;   // NotEqual
    case 10: r = p > q ? 1.0f : 0.0f; break;   // Greater
    case 11: r = p >= q ? 1.0f : 0.0f; break;  // GreaterOrEqual
    case 12: r = p < q ? 1.0f : 0.0f; break;   // Less
    case 13: r = p <= q ? 1.0f : 0.0f; break;  // LessOrEqual
    case 14: r = (p != 0.0f && q != 0.0f) ? 1.0f : 0.0f; break;  // And
    case 15: r = (p != 0.0f || q != 0.0f) ? 1.0f : 0.0f; break;  // Or
    case 16: r = p >= 0.0f ? p : q * p; break;  // PRelu
    case 17: r = (p != 0.0f) != (q != 0.0f) ? 1.0f : 0.0f; break;  // Xor
    case 18: r = fmod(p, q); break;            // Mod fmod 1: the dividend's sign
    case 19: {                                 // Mod of integers: the divisor's sign; by zero: NaN, refused
      if (q == 0.0f) { r = NAN; break; }
      const float m = fmod(p, q);
      r = (m == 0.0f || (m < 0.0f) == (q < 0.0f)) ? m : m + q;
      break;
    }
    case 20: r = fmod(p, q); break;            // Mod fmod 1 of integers (by zero: NaN, refused)
    case 21: r = p + alpha * q; break;         // aten.add.Tensor with alpha
    case 22: r = p - alpha * q; break;         // aten.sub.Tensor with alpha
    default: r = p; break;
  }
  y[i] = r;
}

// Where: y = c != 0 ? x : z, the three broadcast to y. meta: dims[rank] (of y), then the strides of
// c, x and z [rank] each (0 along broadcast dims).
__kernel void where_op(__global const float* c, __global const float* x, __global const float* z, __global float* y,
                       int rank, __global const int* meta) {
  const int i = (int)get_global_id(0);
  int rem = i, ic = 0, ix = 0, iz = 0;
  for (int d = rank - 1; d >= 0; --d) {
    const int k = rem % meta[d];
    rem /= meta[d];
    ic += k * meta[rank + d];
    ix += k * meta[2 * rank + d];
    iz += k * meta[3 * rank + d];
  }
  y[i] = c[ic] != 0.0f ? x[ix] : z[iz];
}

// Cast with quantized types: the stored integer of a quantized input (qin: round half to even of
// x / si + zi), requantized by the plan with the output's scale so and zero point zo (qout).
__kernel void cast_stored(__global const float* x, __global float* y, int qin, float si, float zi, int qout, float so,
                          float zo) {
  const size_t i = get_global_id(0);
  const float stored = qin ? rint(x[i] / si + zi) : x[i];
  y[i] = qout ? (stored - zo) * so : stored;
}

// QuantizeLinear / DequantizeLinear with scale (and zero point) inputs: element i uses scale[k]
// and zp[k], k = (i / inner) % count (per tensor: count 1). Quantize: rint(x / scale) + zp clamped
// to [lo, hi] as std::clamp does (NaN stays NaN); dequantize: (x - zp) * scale.
__kernel void quantize_linear(__global const float* x, __global const float* scale, __global const float* zp,
                              __global float* y, int inner, int count, int has_zp, int dequantize, float lo, float hi) {
  const int i = (int)get_global_id(0);
  const int k = (i / inner) % count;
  const float z = has_zp ? zp[k] : 0.0f;
  if (dequantize) {
    y[i] = (x[i] - z) * scale[k];
  } else {
    const float q = rint(x[i] / scale[k]) + z;
    y[i] = q < lo ? lo : (hi < q ? hi : q);
  }
}

float clamp_u8(float v) { return v < 0.0f ? 0.0f : (255.0f < v ? 255.0f : v); }

// DynamicQuantizeLinear, first step (one work item): the range of x widened to hold 0, then
// params[0] = scale = (hi - lo) / 255 and params[1] = zero point = clamp(rint(-lo / scale)) (0 for
// scale 0), folded in index order as cpu does.
__kernel void dynamic_quantize_params(__global const float* x, int n, __global float* scale, __global float* zero) {
  float lo = 0.0f, hi = 0.0f;
  for (int i = 0; i < n; ++i) {
    lo = smin(lo, x[i]);
    hi = smax(hi, x[i]);
  }
  const float s = (hi - lo) / 255.0f;
  scale[0] = s;
  zero[0] = s == 0.0f ? 0.0f : clamp_u8(rint((0.0f - lo) / s));
}

// DynamicQuantizeLinear, second step: y = clamp(rint(x / scale) + zero point) to uint8 (0 for scale 0).
__kernel void dynamic_quantize_apply(__global const float* x, __global const float* scale, __global const float* zero,
                                     __global float* y) {
  const size_t i = get_global_id(0);
  const float s = scale[0];
  y[i] = s == 0.0f ? 0.0f : clamp_u8(rint(x[i] / s) + zero[0]);
}

// The float holding an unsigned integer as a ulong (2^64 and above, and +inf, saturate; NaN and
// negatives are 0).
ulong to_u64(float f) {
  if (!(f > 0.0f)) return 0;
  return f >= 18446744073709551616.0f ? ~(ulong)0 : (ulong)f;
}

// BitShift of unsigned integers `width` bits wide, a and b broadcast as in binary_op: a shift by
// the width or more gives 0, bits shifted past the width are lost.
__kernel void bit_shift(__global const float* a, __global const float* b, __global float* y, int left, int width,
                        int rank, __global const int* meta) {
  const int i = (int)get_global_id(0);
  int rem = i, ia = 0, ib = 0;
  for (int d = rank - 1; d >= 0; --d) {
    const int c = rem % meta[d];
    rem /= meta[d];
    ia += c * meta[rank + d];
    ib += c * meta[2 * rank + d];
  }
  const ulong x = to_u64(a[ia]), s = to_u64(b[ib]);
  const ulong mask = width >= 64 ? ~(ulong)0 : (((ulong)1 << width) - 1);
  const ulong v = s >= (ulong)width ? 0 : (left ? (x << s) & mask : x >> s);
  y[i] = (float)v;
}

// y[i] = x[sum_d coord_d(i) * stride_d]; meta: dims[rank] (of y), strides of x[rank].
__kernel void strided_copy(__global const float* x, __global float* y, int rank, __global const int* meta) {
  const int i = (int)get_global_id(0);
  int rem = i, ix = 0;
  for (int d = rank - 1; d >= 0; --d) {
    const int c = rem % meta[d];
    rem /= meta[d];
    ix += c * meta[rank + d];
  }
  y[i] = x[ix];
}

// x viewed as [outer][block] goes to y viewed as [outer][out_block] at column `offset` (Concat).
__kernel void block_copy(__global const float* x, __global float* y, int block, int out_block, int offset) {
  const int i = (int)get_global_id(0);
  y[(i / block) * out_block + offset + i % block] = x[i];
}
