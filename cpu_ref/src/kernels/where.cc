// Where (ONNX Where-16; PyTorch aten.where.self): condition ? X : Y, the three inputs broadcast
// by NumPy rules to the output shape.
#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_where(const KernelContext& ctx) {
  if (ctx.in.size() != 3) ctx.invalid(ErrorId::Arity, "needs condition, X and Y");
  const Shape out = ctx.out[0].shape;
  std::vector<Shape> st;
  for (int i = 0; i < 3; ++i) st.push_back(exec::broadcast_strides(ctx.in[i].shape, out));
  const int64_t total = numel(out);
  return [out, st, total](std::span<const float* const> in, std::span<float* const> o) {
    const std::size_t r = out.size();
    Shape idx(r, 0);
    int64_t off[3] = {0, 0, 0};
    for (int64_t k = 0; k < total; ++k) {
      o[0][k] = in[0][off[0]] != 0 ? in[1][off[1]] : in[2][off[2]];
      // Odometer step over the output index, keeping the three input offsets in step.
      for (std::size_t d = r; d-- > 0;) {
        ++idx[d];
        for (int i = 0; i < 3; ++i) off[i] += st[i][d];
        if (idx[d] < out[d]) break;
        for (int i = 0; i < 3; ++i) off[i] -= st[i][d] * out[d];
        idx[d] = 0;
      }
    }
  };
}

}  // namespace

void add_where_kernels(KernelTable& t) { t["Where"] = make_where; }

}  // namespace nnbridge::cpu_ref
