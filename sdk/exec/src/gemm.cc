// gemm_params (nnbridge/exec/gemm.h).
#include "nnbridge/exec/gemm.h"

#include "nnbridge/exec/shape.h"

namespace nnbridge::exec {

GemmParams gemm_params(const NodeContext& ctx) {
  GemmParams p;
  p.trans_a = ctx.attr_int("transA", 0) != 0;
  p.trans_b = ctx.attr_int("transB", 0) != 0;
  p.alpha = static_cast<float>(ctx.attr_float("alpha", 1.0));
  p.beta = static_cast<float>(ctx.attr_float("beta", 1.0));
  if (ctx.in.size() < 2) ctx.invalid(ErrorId::Arity, "needs inputs A and B");
  const Shape& bs = ctx.in[1].shape;
  if (bs.size() != 2) ctx.invalid(ErrorId::Shape, "B must be 2-D");
  p.K = p.trans_b ? bs[1] : bs[0];
  p.N = p.trans_b ? bs[0] : bs[1];
  const Shape& as = ctx.in[0].shape;
  if (as.size() == 2) {
    p.M = p.trans_a ? as[1] : as[0];
    if ((p.trans_a ? as[0] : as[1]) != p.K) ctx.invalid(ErrorId::Shape, "A and B disagree on K");
    p.a_rows = as[0];
    p.a_cols = as[1];
  } else {
    if (p.trans_a) ctx.invalid(ErrorId::Shape, "transA with A of rank != 2");
    if (p.K == 0 || numel(as) % p.K != 0) ctx.invalid(ErrorId::Shape, "A's size is not a multiple of K");
    p.M = numel(as) / p.K;
    p.a_rows = p.M;
    p.a_cols = p.K;
  }
  if (ctx.out.empty() || numel(ctx.out[0].shape) != p.M * p.N) ctx.invalid(ErrorId::Shape, "output size is not M * N");
  p.has_c = ctx.has_input(2);
  if (p.has_c) {
    const Shape& cs = ctx.in[2].shape;
    if (cs.size() > 2) ctx.invalid(ErrorId::Shape, "C must have rank <= 2");
    if (cs.size() >= 1) p.c_cols = cs.back();
    if (cs.size() == 2) p.c_rows = cs[0];
    if ((p.c_cols != 1 && p.c_cols != p.N) || (p.c_rows != 1 && p.c_rows != p.M)) ctx.invalid(ErrorId::Shape, "C does not broadcast to [M, N]");
  }
  if (p.c_cols == p.N) p.c_scale = implied_bias_scale(ctx, p.N);
  return p;
}

}  // namespace nnbridge::exec
