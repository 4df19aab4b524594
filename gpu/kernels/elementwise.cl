// Elementwise kernels of the opencl backend: unary maps, binary ops with NumPy broadcasting,
// strided copies (Transpose, Expand) and block copies (Concat). One work item per output element.
// The op codes are gpu/src/ops.h's Unary and Binary enums; each formula is the one cpu_ref uses
// (cpu_ref/src/simd/kernels_impl.h), with the source of the rule noted there.

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
    default: r = v; break;                                                     // Identity
  }
  y[i] = r;
}

// meta: dims[rank] (of y), strides of a[rank], strides of b[rank] (0 along broadcast dims).
__kernel void binary_op(__global const float* a, __global const float* b, __global float* y, int op, int rank,
                        __global const int* meta) {
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
    default: r = p; break;
  }
  y[i] = r;
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
