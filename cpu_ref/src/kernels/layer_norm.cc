// LayerNormalization (ONNX LayerNormalization-17; PyTorch aten.native_layer_norm): each row of
// the dims [axis, rank) is normalized as (x - mean) / sqrt(var + epsilon) * scale + B with the
// population variance; optional outputs Mean and InvStdDev = 1 / sqrt(var + epsilon), of X's
// rank with the normalized dims set to 1 (PyTorch's `mean` and `rstd`).
#include <cmath>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_layer_norm(const KernelContext& ctx) {
  const Shape& x = ctx.in[0].shape;
  const int64_t rank = static_cast<int64_t>(x.size());
  const int64_t axis = ctx.attr_axis("axis", -1, rank);
  int64_t rows = 1, n = 1;
  for (int64_t d = 0; d < rank; ++d) (d < axis ? rows : n) *= x[d];
  // scale and B broadcast to the normalized shape: one value, or one per element.
  auto per_row_size = [&](std::size_t i) -> int64_t {
    if (!ctx.has_input(i)) return 0;
    int64_t c = numel(ctx.in[i].shape);
    if (c != n && c != 1) ctx.unsupported("scale and B must have one value or one per normalized element");
    return c;
  };
  const int64_t ns = per_row_size(1), nb = per_row_size(2);
  if (ns == 0) ctx.invalid(ErrorId::Arity, "needs the scale input");
  const double eps = ctx.attr_float("epsilon", 1e-5);
  const std::size_t outs = ctx.out.size();
  return [rows, n, ns, nb, eps, outs](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t r = 0; r < rows; ++r) {
      const float* xr = in[0] + r * n;
      double mean = 0, var = 0;
      for (int64_t i = 0; i < n; ++i) mean += xr[i];
      mean /= double(n);
      for (int64_t i = 0; i < n; ++i) var += (xr[i] - mean) * (xr[i] - mean);
      var /= double(n);
      const double inv = 1.0 / std::sqrt(var + eps);
      float* yr = out[0] + r * n;
      for (int64_t i = 0; i < n; ++i) {
        double y = (xr[i] - mean) * inv * in[1][ns == 1 ? 0 : i];
        if (nb) y += in[2][nb == 1 ? 0 : i];
        yr[i] = static_cast<float>(y);
      }
      if (outs > 1) out[1][r] = static_cast<float>(mean);
      if (outs > 2) out[2][r] = static_cast<float>(inv);
    }
  };
}

}  // namespace

void add_layer_norm_kernels(KernelTable& t) { t["LayerNormalization"] = make_layer_norm; }

}  // namespace nnbridge::cpu_ref
