// Gemm's attributes and shape checks, read once for both backends.
#pragma once

#include <cstdint>
#include <vector>

#include "nnbridge/exec/node_context.h"

namespace nnbridge::exec {

/// Y = alpha * A' * B' + beta * C as one Gemm node asks for it (ONNX Gemm-13: A' = A^T when
/// transA, B' = B^T when transB; A' is [M, K], B' is [K, N], Y is [M, N], C broadcasts
/// unidirectionally to [M, N]), with the Arm NN FullyConnected extension of the core schema
/// (sdk/core/src/ops/): an A of rank other than 2 is read as [numel / K, K], K taken from B.
struct GemmParams {
  bool trans_a = false, trans_b = false;
  float alpha = 1, beta = 1;
  int64_t M = 0, N = 0, K = 0;
  int64_t a_rows = 0, a_cols = 0;  ///< A as stored, 2-D ([M, K], or [K, M] with transA)
  bool has_c = false;
  int64_t c_rows = 1, c_cols = 1;  ///< C's trailing two dims (1 where absent or broadcast)
  /// Per output column scale of an Int32 C that carries no quantization while A and B are
  /// quantized (implied_bias_scale, Arm NN FullyConnected's bias rule); empty when none applies.
  std::vector<float> c_scale;
};

/// Reads transA, transB, alpha, beta (schema defaults 0, 0, 1.0, 1.0) and checks the shapes:
/// B 2-D, A and B agreeing on K, transA only with a 2-D A, A's size a multiple of K, the output
/// holding M * N elements, C of rank <= 2 with trailing dims in {1, M} and {1, N}. Each failure is
/// Error(Invalid) via ctx.invalid().
GemmParams gemm_params(const NodeContext& ctx);

}  // namespace nnbridge::exec
