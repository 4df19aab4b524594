// Kernels built directly on the vector kernels of simd/simd.h, shared by the op families.
#pragma once

#include <cstdint>
#include <limits>
#include <span>

#include "../kernel.h"
#include "../simd/simd.h"

namespace nnbridge::cpu_ref {

/// y = op(x) elementwise over the node's input 0 (sizes of input and output must agree; throws
/// Error(Invalid) otherwise), split across ctx.threads when large. Defined in elementwise.cc.
Kernel simd_unary(const KernelContext& ctx, simd::Unary op, simd::UnaryParams p);

/// How many parts the built-in binary elementwise kernels (Add, Sub, Mul, Div, ...: elementwise.cc)
/// cut their output into by the rows of each plane (the last two dims, rows h * t / parts on: the
/// cut of the NCHW convolutions' blocks of output rows), or 0 where they split the elements flat
/// or not at all (under two threads' worth of work, a broadcast with outer rows, a rank below 3,
/// ctx.channels_last). Error(Invalid) for operands that do not broadcast.
int64_t binary_plane_row_parts(const KernelContext& ctx);

/// Clip's bounds as its kernel reads them (activation.cc): {min, max} from the one-element
/// constant inputs 1 and 2 (ONNX Clip-13), -inf / +inf where absent; Error(Invalid) when one holds
/// more than one value.
simd::UnaryParams clip_bounds(const KernelContext& ctx);

/// What a producing kernel does to each block of its output as soon as the block is computed,
/// while it is in cache, instead of separate passes over the whole tensor (backend.cc folds the
/// nodes): first + R, the same place of a tensor of Y's shape (an Add whose other operand is R,
/// as ResNet's and MobileNetV2's residual connections: ONNX Add, no broadcasting), then a Relu
/// or Clip. Each is the vector kernel the separate node would run, in the node order, on the
/// same values (a + b is b + a in IEEE 754), so the outputs are the same bits (where both the
/// Conv's value and R are NaN, which payload survives may differ: x86 keeps the first operand's, and
/// the compiler may order a vector sum's operands either way, in the separate Add kernel too).
struct Epilogue {
  bool on = false;  ///< an activation `op` with parameters `p`
  simd::Unary op = simd::Unary::Relu;
  simd::UnaryParams p;
  int residual = -1;  ///< the index of R among the kernel's inputs, or -1 (no Add)
  /// y[i] = op(y[i]) for i < n (nothing when off); R is not added here (EpilogueRun::finish).
  void apply(float* y, int64_t n) const {
    if (on && n > 0) simd::kernels().unary(op, p, y, y, static_cast<std::size_t>(n));
  }
  /// Relu and Clip as the bounds of std::min(hi, std::max(lo, y)), which is what their simd
  /// kernels compute (Relu: lo 0, hi +inf), for a GEMM to apply as it stores (SgemmArgs::clamp);
  /// false when off or another op. A kernel that adds R after its stores must not clamp there
  /// (EpilogueRun::clamp_bounds).
  bool clamp_bounds(float& lo, float& hi) const {
    if (!on || (op != simd::Unary::Relu && op != simd::Unary::Clip)) return false;
    lo = op == simd::Unary::Relu ? 0.0f : p.a;
    hi = op == simd::Unary::Relu ? std::numeric_limits<float>::infinity() : p.b;
    return true;
  }
};

/// An Epilogue during one run: R found among the kernel's inputs, and Y's first element, so that
/// a block of Y anywhere in it finds its own part of R (same offset: R has Y's shape).
struct EpilogueRun {
  const Epilogue& ep;
  const float* r = nullptr;   ///< R, or null
  const float* y0 = nullptr;  ///< Y
  EpilogueRun(const Epilogue& e, std::span<const float* const> in, const float* y)
      : ep(e), r(e.residual >= 0 ? in[static_cast<std::size_t>(e.residual)] : nullptr), y0(y) {}
  /// The block's part of R (block starting at y), or null.
  const float* residual_at(const float* y) const { return r ? r + (y - y0) : nullptr; }
  /// The bounds a kernel may clamp with as it stores: only where no R comes between.
  bool clamp_bounds(float& lo, float& hi) const { return !r && ep.clamp_bounds(lo, hi); }
  /// The rest of the epilogue on n contiguous outputs from y, after the kernel's stores: + R
  /// (unless `r_added`: the kernel added it), then the activation (unless `clamped`: the kernel
  /// clamped, which it does only after R).
  void finish(float* y, int64_t n, bool clamped = false, bool r_added = false) const {
    if (n <= 0) return;
    if (r && !r_added)
      simd::kernels().binary(simd::Binary::Add, simd::Operands::VecVec, y, residual_at(y), y, static_cast<std::size_t>(n));
    if (!clamped) ep.apply(y, n);
  }
};

/// What the factory of an op that takes an epilogue returns: its kernel, made for any epilogue
/// (Epilogue{} for none). Owns everything it captured from the node's context.
using EpilogueKernel = std::function<Kernel(const Epilogue&)>;

/// Conv on rank-3 or rank-4 X as an EpilogueKernel (conv.cc); null for other ranks, which take no
/// epilogue.
EpilogueKernel conv_with_epilogue(const KernelContext& ctx);

}  // namespace nnbridge::cpu_ref
