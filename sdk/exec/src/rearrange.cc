// nnbridge/exec/rearrange.h: ReverseV2's axes and SpaceToBatchND / BatchToSpaceND's geometry.
#include "nnbridge/exec/rearrange.h"

#include <string>

namespace nnbridge::exec {

std::vector<bool> reversed_dims(int64_t rank, const std::vector<int64_t>& axes) {
  std::vector<bool> flip(static_cast<std::size_t>(rank), false);
  for (int64_t a : axes) {
    if (a < -rank || a >= rank)
      throw Error(ErrorId::Execution, "ReverseV2 axis " + std::to_string(a) + " is out of range for rank " + std::to_string(rank));
    flip[static_cast<std::size_t>(a < 0 ? a + rank : a)] = true;
  }
  return flip;
}

namespace {

SpatialDims spatial(const NodeContext& ctx, const Shape& s) {
  if (s.size() != 4) ctx.unsupported("only rank-4 tensors are implemented");
  SpatialDims d;
  d.nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  const Shape st = strides_of(s);
  d.n = s[0], d.sn = st[0];
  d.c = d.nhwc ? s[3] : s[1], d.sc = d.nhwc ? st[3] : st[1];
  d.h = d.nhwc ? s[1] : s[2], d.sh = d.nhwc ? st[1] : st[2];
  d.w = d.nhwc ? s[2] : s[3], d.sw = d.nhwc ? st[2] : st[3];
  return d;
}

}  // namespace

SpaceBatch space_to_batch(const NodeContext& ctx) {
  SpaceBatch g{spatial(ctx, ctx.in[0].shape), spatial(ctx, ctx.out[0].shape), ctx.attr_ints("block_shape"), ctx.attr_ints("pads")};
  if (g.block.size() != 2 || g.edges.size() != 4) ctx.unsupported("only 2 spatial dims are implemented");
  const Shape& b = g.block;
  if (b[0] < 1 || b[1] < 1 || g.y.n != g.x.n * b[0] * b[1] || g.y.c != g.x.c)
    ctx.invalid(ErrorId::Shape, "shapes do not match block_shape");
  if (g.edges[0] < 0 || g.edges[2] < 0 || g.y.h * b[0] > g.x.h + g.edges[0] + g.edges[1] || g.y.w * b[1] > g.x.w + g.edges[2] + g.edges[3])
    ctx.invalid(ErrorId::Shape, "shapes do not match block_shape and pads");
  return g;
}

SpaceBatch batch_to_space(const NodeContext& ctx) {
  SpaceBatch g{spatial(ctx, ctx.in[0].shape), spatial(ctx, ctx.out[0].shape), ctx.attr_ints("block_shape"), ctx.attr_ints("crops")};
  if (g.block.size() != 2 || g.edges.size() != 4) ctx.unsupported("only 2 spatial dims are implemented");
  const Shape& b = g.block;
  if (b[0] < 1 || b[1] < 1 || g.x.n != g.y.n * b[0] * b[1] || g.y.c != g.x.c || g.edges[0] < 0 || g.edges[2] < 0 ||
      g.y.h + g.edges[0] > g.x.h * b[0] || g.y.w + g.edges[2] > g.x.w * b[1])
    ctx.invalid(ErrorId::Shape, "shapes do not match block_shape and crops");
  return g;
}

}  // namespace nnbridge::exec
