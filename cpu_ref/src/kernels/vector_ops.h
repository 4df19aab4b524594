// Kernels built directly on the vector kernels of simd/simd.h, shared by the op families.
#pragma once

#include "../kernel.h"
#include "../simd/simd.h"

namespace nnbridge::cpu_ref {

/// y = op(x) elementwise over the node's input 0 (sizes of input and output must agree; throws
/// Error(Invalid) otherwise), split across ctx.threads when large. Defined in elementwise.cc.
Kernel simd_unary(const KernelContext& ctx, simd::Unary op, simd::UnaryParams p);

}  // namespace nnbridge::cpu_ref
