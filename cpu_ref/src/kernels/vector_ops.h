// Kernels built directly on the vector kernels of simd/simd.h, shared by the op families.
#pragma once

#include <limits>

#include "../kernel.h"
#include "../simd/simd.h"

namespace nnbridge::cpu_ref {

/// y = op(x) elementwise over the node's input 0 (sizes of input and output must agree; throws
/// Error(Invalid) otherwise), split across ctx.threads when large. Defined in elementwise.cc.
Kernel simd_unary(const KernelContext& ctx, simd::Unary op, simd::UnaryParams p);

/// Clip's bounds as its kernel reads them (activation.cc): {min, max} from the one-element
/// constant inputs 1 and 2 (ONNX Clip-13), -inf / +inf where absent; Error(Invalid) when one holds
/// more than one value.
simd::UnaryParams clip_bounds(const KernelContext& ctx);

/// An activation that a producing kernel applies to each block of its output as soon as the block
/// is computed, while it is in cache, instead of a second pass over the whole tensor: a Relu or
/// Clip node folded into the Conv before it by the plan (backend.cc). It runs the same vector
/// kernel with the same parameters as the separate node would, so the values are the same bits.
struct Epilogue {
  bool on = false;
  simd::Unary op = simd::Unary::Relu;
  simd::UnaryParams p;
  /// y[i] = op(y[i]) for i < n (nothing when off).
  void apply(float* y, int64_t n) const {
    if (on && n > 0) simd::kernels().unary(op, p, y, y, static_cast<std::size_t>(n));
  }
  /// Relu and Clip as the bounds of std::min(hi, std::max(lo, y)), which is what their simd
  /// kernels compute (Relu: lo 0, hi +inf), for a GEMM to apply as it stores (SgemmArgs::clamp);
  /// false when off or another op.
  bool clamp_bounds(float& lo, float& hi) const {
    if (!on || (op != simd::Unary::Relu && op != simd::Unary::Clip)) return false;
    lo = op == simd::Unary::Relu ? 0.0f : p.a;
    hi = op == simd::Unary::Relu ? std::numeric_limits<float>::infinity() : p.b;
    return true;
  }
};

/// What the factory of an op that takes an epilogue returns: its kernel, made for any epilogue
/// (Epilogue{} for none). Owns everything it captured from the node's context.
using EpilogueKernel = std::function<Kernel(const Epilogue&)>;

/// Conv on rank-3 or rank-4 X as an EpilogueKernel (conv.cc); null for other ranks, which take no
/// epilogue.
EpilogueKernel conv_with_epilogue(const KernelContext& ctx);

}  // namespace nnbridge::cpu_ref
