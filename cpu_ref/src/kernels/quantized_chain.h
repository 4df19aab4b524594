// DequantizeLinear -> Relu / Clip ... -> QuantizeLinear with per-tensor constants, as one pass.
//
// Quantized exports put such a chain between every pair of QLinearConvs (a requantization, and
// ReLU6 as a Clip in the float domain): three passes over float32 buffers, each as long as the
// tensor. The fused step runs the same vector kernels (simd::Kernels dequantize, unary and
// quantize, with the arguments the nodes' own kernels pass) on one chunk of a few hundred
// elements at a time, so the intermediate values stay in L1 and are never stored: the same bits,
// one pass. (A 256-entry table looked up per element was tried first: AVX-512 gathers made it
// slower than the three passes on the AMD EPYC this was measured on.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "../kernel.h"
#include "../simd/simd.h"
#include "nnbridge/graph.h"

namespace nnbridge::cpu_ref {

struct QuantizedChain {
  std::vector<std::size_t> nodes;  ///< DequantizeLinear, the Relu / Clip nodes, QuantizeLinear
  ValueId input = kNoValue;        ///< the DequantizeLinear's X (uint8 or int8)
  ValueId output = kNoValue;       ///< the QuantizeLinear's Y (uint8 or int8)
  int64_t count = 0;               ///< elements of X (and Y)
  float dq_scale = 1, dq_zero = 0;  ///< DequantizeLinear's x_scale and x_zero_point
  struct Unary {
    simd::Unary op;
    simd::UnaryParams p;
  };
  std::vector<Unary> unary;        ///< Relu (op Relu) or Clip (op Clip, bounds -inf / inf when absent)
  float q_scale = 1, q_zero = 0, lo = 0, hi = 255;  ///< QuantizeLinear's y_scale, y_zero_point, Y's range
};

/// The chain that starts at DequantizeLinear node `dq` of `work` (types resolved, constants
/// set), or nullopt. It needs: X uint8 or int8; every scale a float32 constant of one element,
/// every zero point a constant of one element of its tensor's type (or absent); Clip bounds
/// float32 constants of one element (or absent); Y uint8 or int8; each value between the nodes
/// read by the next node only (`readers[v]`: node inputs and graph outputs reading v;
/// `reader[v]`: the node that reads it when there is one) and of X's shape.
std::optional<QuantizedChain> quantized_chain(const Graph& work, std::size_t dq, const std::vector<int>& readers,
                                              const std::vector<std::size_t>& reader);

/// The chain's kernel: input 0 the chain's X, output 0 its Y, elements split across `threads`.
Kernel make_quantized_chain(const QuantizedChain& c, int threads);

/// The chain on n elements x -> y on the calling thread, the kernel's operations chunk by chunk
/// (so the same bits); y may be x. For a QLinearConv that computes the chain on each block of
/// its outputs while they are in cache (conv.h, OutputRange::finish).
void run_quantized_chain(const QuantizedChain& c, const float* x, float* y, int64_t n);

}  // namespace nnbridge::cpu_ref
