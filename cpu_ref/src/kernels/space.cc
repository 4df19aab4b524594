// Block rearrangements (TF semantics, as Arm NN CpuRef): SpaceToDepth, DepthToSpace
// (mode DCR: TF / Arm NN; CRD: ONNX's other mode), SpaceToBatchND, BatchToSpaceND, in NCHW
// or NHWC. Channel order of a block: (block_y * bs + block_x) * C + c.
#include "../kernel.h"
#include "nnbridge/exec/rearrange.h"

namespace nnbridge::cpu_ref {

namespace {

struct Dims {
  int64_t n, c, h, w;
  bool nhwc;
  int64_t at(int64_t in, int64_t ic, int64_t iy, int64_t ix) const {
    return nhwc ? ((in * h + iy) * w + ix) * c + ic : ((in * c + ic) * h + iy) * w + ix;
  }
};

Dims dims(const KernelContext& ctx, const Shape& s) {
  if (s.size() != 4) ctx.unsupported("only rank-4 tensors are implemented");
  const bool nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  return Dims{s[0], nhwc ? s[3] : s[1], nhwc ? s[1] : s[2], nhwc ? s[2] : s[3], nhwc};
}

Kernel make_space_to_depth(const KernelContext& ctx) {
  Dims i = dims(ctx, ctx.in[0].shape), o = dims(ctx, ctx.out[0].shape);
  const int64_t bs = ctx.attr_int("blocksize", 1);
  if (bs < 1 || o.n != i.n || o.h * bs != i.h || o.w * bs != i.w || o.c != i.c * bs * bs) ctx.invalid(ErrorId::Shape, "shapes do not match blocksize");
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t n = 0; n < o.n; ++n)
      for (int64_t y = 0; y < o.h; ++y)
        for (int64_t x = 0; x < o.w; ++x)
          for (int64_t by = 0; by < bs; ++by)
            for (int64_t bx = 0; bx < bs; ++bx)
              for (int64_t c = 0; c < i.c; ++c)
                out[0][o.at(n, (by * bs + bx) * i.c + c, y, x)] = in[0][i.at(n, c, y * bs + by, x * bs + bx)];
  };
}

Kernel make_depth_to_space(const KernelContext& ctx) {
  Dims i = dims(ctx, ctx.in[0].shape), o = dims(ctx, ctx.out[0].shape);
  const int64_t bs = ctx.attr_int("blocksize", 1);
  const bool crd = ctx.attr_string("mode", "DCR") == "CRD";
  if (bs < 1 || o.n != i.n || i.h * bs != o.h || i.w * bs != o.w || i.c != o.c * bs * bs) ctx.invalid(ErrorId::Shape, "shapes do not match blocksize");
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t n = 0; n < i.n; ++n)
      for (int64_t y = 0; y < i.h; ++y)
        for (int64_t x = 0; x < i.w; ++x)
          for (int64_t by = 0; by < bs; ++by)
            for (int64_t bx = 0; bx < bs; ++bx)
              for (int64_t c = 0; c < o.c; ++c) {
                const int64_t ic = crd ? (c * bs + by) * bs + bx : (by * bs + bx) * o.c + c;
                out[0][o.at(n, c, y * bs + by, x * bs + bx)] = in[0][i.at(n, ic, y, x)];
              }
  };
}

// SpaceToBatchND / BatchToSpaceND: the geometry of nnbridge/exec/rearrange.h, read once for
// both backends; here applied element by element.
Kernel make_space_to_batch(const KernelContext& ctx) {
  const exec::SpaceBatch sb = exec::space_to_batch(ctx);
  const Dims i = dims(ctx, ctx.in[0].shape), o = dims(ctx, ctx.out[0].shape);
  const Shape block = sb.block, pads = sb.edges;
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t b = 0; b < o.n; ++b) {
      const int64_t n = b % i.n, blk = b / i.n, by = blk / block[1], bx = blk % block[1];
      for (int64_t c = 0; c < o.c; ++c)
        for (int64_t y = 0; y < o.h; ++y)
          for (int64_t x = 0; x < o.w; ++x) {
            const int64_t iy = y * block[0] + by - pads[0], ix = x * block[1] + bx - pads[2];
            const bool inside = iy >= 0 && iy < i.h && ix >= 0 && ix < i.w;
            out[0][o.at(b, c, y, x)] = inside ? in[0][i.at(n, c, iy, ix)] : 0.0f;
          }
    }
  };
}

Kernel make_batch_to_space(const KernelContext& ctx) {
  const exec::SpaceBatch sb = exec::batch_to_space(ctx);
  const Dims i = dims(ctx, ctx.in[0].shape), o = dims(ctx, ctx.out[0].shape);
  const Shape block = sb.block, crops = sb.edges;
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t n = 0; n < o.n; ++n)
      for (int64_t c = 0; c < o.c; ++c)
        for (int64_t y = 0; y < o.h; ++y)
          for (int64_t x = 0; x < o.w; ++x) {
            const int64_t py = y + crops[0], px = x + crops[2];
            const int64_t b = ((py % block[0]) * block[1] + px % block[1]) * o.n + n;
            out[0][o.at(n, c, y, x)] = in[0][i.at(b, c, py / block[0], px / block[1])];
          }
  };
}

}  // namespace

void add_space_kernels(KernelTable& t) {
  t["SpaceToDepth"] = make_space_to_depth;
  t["DepthToSpace"] = make_depth_to_space;
  t["SpaceToBatchND"] = make_space_to_batch;
  t["BatchToSpaceND"] = make_batch_to_space;
}

}  // namespace nnbridge::cpu_ref
