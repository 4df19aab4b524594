// The 3-D pooling kernel (pool3d.cc), which pool.cc's MaxPool / AveragePool / LpPool use for rank-5 X.
#pragma once

#include "../kernel.h"

namespace nnbridge::cpu_ref {

enum class Pool3dKind { Max, Avg, Lp };
Kernel make_pool3d(const KernelContext& ctx, Pool3dKind kind);

}  // namespace nnbridge::cpu_ref
