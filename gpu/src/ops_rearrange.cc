// Rearrangements of the opencl backend that Arm NN networks hold: ReverseV2, ChannelShuffle,
// StridedSlice, Stack, SpaceToBatchND and BatchToSpaceND. Each is one or two passes of the
// strided gather (kernels/data.cl gather_strided, ops_data.cc) or the block copy Concat uses, so
// the device only moves elements; shapes, attributes and refusals are cpu_ref's (each op names
// its file), so both backends accept and refuse the same nodes.
#include <string>
#include <vector>

#include "nnbridge/exec/rearrange.h"
#include "nnbridge/exec/slice.h"
#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

// ReverseV2 (nnbridge/exec/rearrange.h reversed_dims, as cpu): the axes are input 1 (a
// constant, else read back on each run) or the `axis` attribute. A reversed dim reads coordinate
// len - 1 - c: start len - 1, step -1. An axis out of range is refused when the node runs, as cpu
// refuses it, also when it is known at prepare.
Launch reverse_v2(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape is = k.in[0].shape;
  if (k.out[0].shape != is) k.invalid(ErrorId::Shape, "output shape differs from the input's");
  const int64_t r = static_cast<int64_t>(is.size());
  const bool axes_input = k.has_input(1);
  const Shape attr_axes = k.attr_ints("axis");
  const RunValue axes = axes_input ? RunValue(k, 1) : RunValue();
  const Shape st = strides_of(is);
  // The gather's entries (6 ints per dim, ops_util.h GatherDim) for the dims `axes` reverses.
  auto meta_for = [=](const Shape& axes) {
    const std::vector<bool> flip = exec::reversed_dims(r, axes);
    std::vector<int> m;
    for (int64_t d = 0; d < r; ++d) {
      const bool f = flip[static_cast<std::size_t>(d)] && is[d] > 1;
      for (int64_t v : {is[d], f ? is[d] - 1 : int64_t{0}, f ? int64_t{-1} : int64_t{1}, is[d], st[d], int64_t{0}})
        m.push_back(static_cast<int>(v));
    }
    return m;
  };
  auto as_ints = [](const std::vector<float>& v) { return Shape(v.begin(), v.end()); };
  for (int64_t d = 0; d < r; ++d) c.to_int(st[d]);
  const int64_t n = numel(is);
  c.to_int(n);
  cl::Kernel kern = c.kernel("data.cl", "gather_strided");
  const int rank = static_cast<int>(r);
  if (!axes_input || axes.is_constant()) {
    std::vector<int> m;
    try {
      m = meta_for(axes_input ? as_ints(axes.get(c.dev, cl::Buffer())) : attr_axes);
    } catch (const Error& e) {
      return [e](const Device&, std::span<const cl::Buffer>, std::span<const cl::Buffer>) -> void { throw e; };
    }
    cl::Buffer mb = c.ints(m);
    return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
      set_args(kern, in[0], out[0], rank, mb, 0, 0.0f);
      enqueue(dev, kern, n);
    };
  }
  cl::Buffer mb(c.dev.context, CL_MEM_READ_WRITE, static_cast<std::size_t>(std::max<int64_t>(6 * r, 1)) * sizeof(int));
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    const std::vector<int> m = meta_for(as_ints(axes.get(dev, in[1])));
    if (!m.empty()) dev.queue.enqueueWriteBuffer(mb, CL_TRUE, 0, m.size() * sizeof(int), m.data());
    set_args(kern, in[0], out[0], rank, mb, 0, 0.0f);
    enqueue(dev, kern, n);
  };
}

// cpu_ref/src/kernels/rearrange.cc make_channel_shuffle (Arm NN ChannelShuffle, from Android
// NN): output channel i * group + j takes input channel j * k + i (k = C / group); the output
// seen as [outer, k, group, inner] is one gather of the input.
Launch channel_shuffle(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape is = k.in[0].shape;
  if (k.out[0].shape != is) k.invalid(ErrorId::Shape, "output shape differs from the input's");
  const int64_t r = static_cast<int64_t>(is.size());
  const int64_t axis = normalize_axis(k.attr_int("axis"), r);
  const int64_t group = k.attr_int("group");
  const int64_t ch = is[axis];
  if (group < 1 || ch % group != 0) k.invalid(ErrorId::Shape, "the axis size is not a multiple of group");
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= is[d];
  for (int64_t d = axis + 1; d < r; ++d) inner *= is[d];
  const int64_t per = ch / group;
  return strided_gather(c, {plain(outer, ch * inner), plain(per, inner), plain(group, per * inner), plain(inner, 1)}, 0);
}

// TensorFlow / Arm NN StridedSlice (nnbridge/exec/slice.h strided_slice_dims, as cpu): per input
// dim `count` elements from `begin`, `step` apart; shrunk dims are one element and vanish from
// the output's shape, not from the order of the elements.
Launch strided_slice(const OpContext& c) {
  const Shape& is = c.k.in[0].shape;
  const std::vector<StridedDim> dims = exec::strided_slice_dims(c.k);
  const Shape ist = strides_of(is);
  std::vector<GatherDim> g;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    const StridedDim& s = dims[d];
    GatherDim e = plain(s.count, ist[d]);
    e.start = s.count ? s.begin : 0;
    e.step = s.count > 1 ? s.step : 1;
    e.len = is[d];
    g.push_back(e);
  }
  return strided_gather(c, g, 0);
}

// cpu_ref/src/kernels/shape_ops.cc make_stack (Arm NN Stack): input i becomes index i of the new
// `axis` of the output; per outer index the output holds the inputs' `inner` chunks in turn, as
// Concat's block copy writes them (elementwise.cl block_copy).
Launch stack(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& os = k.out[0].shape;
  const int64_t axis = k.attr_axis("axis", 0, static_cast<int64_t>(os.size()));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= os[d];
  for (std::size_t d = static_cast<std::size_t>(axis) + 1; d < os.size(); ++d) inner *= os[d];
  const int64_t count = static_cast<int64_t>(k.in.size());
  if (os[axis] != count) k.invalid(ErrorId::Shape, "output dim along axis is not the input count");
  for (const TensorType& t : k.in)
    if (numel(t.shape) != outer * inner) k.invalid(ErrorId::Shape, "an input's size differs from the output's slice along axis");
  const int block = c.to_int(inner), out_block = c.to_int(count * inner);
  const int64_t n = c.to_int(outer * inner);
  c.to_int(numel(os));
  cl::Kernel kern = c.kernel("elementwise.cl", "block_copy");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    for (int64_t i = 0; i < count; ++i) {
      set_args(kern, in[static_cast<std::size_t>(i)], out[0], block, out_block, static_cast<int>(i) * block);
      enqueue(dev, kern, n);
    }
  };
}

// A device buffer of `n` floats (at least one) for a pass between two gathers.
cl::Buffer scratch(const OpContext& c, int64_t n) {
  return cl::Buffer(c.dev.context, CL_MEM_READ_WRITE, static_cast<std::size_t>(std::max<int64_t>(n, 1)) * sizeof(float));
}

// Four gather dims in a tensor's own order (NCHW or NHWC) from those for n, c, h and w.
std::vector<GatherDim> in_layout(bool nhwc, GatherDim dn, GatherDim dc, GatherDim dh, GatherDim dw) {
  return nhwc ? std::vector<GatherDim>{dn, dh, dw, dc} : std::vector<GatherDim>{dn, dc, dh, dw};
}

// SpaceToBatchND (nnbridge/exec/rearrange.h, as cpu): pass 1 pads the input into P (zeros: a
// real 0, as cpu; h and w grown to what the output reads), pass 2 reads P with separable strides,
// the output batch split into [by, bx, n].
Launch space_to_batch(const OpContext& c) {
  const exec::SpaceBatch sb = exec::space_to_batch(c.k);
  const exec::SpatialDims &i = sb.x, &o = sb.y;
  const Shape &block = sb.block, &pads = sb.edges;
  const int64_t ph = o.h * block[0], pw = o.w * block[1];
  StridedGather pad = strided_gather(c, in_layout(o.nhwc, plain(i.n, i.sn), plain(i.c, i.sc), GatherDim{ph, -pads[0], 1, i.h, i.sh, 1},
                                                  GatherDim{pw, -pads[2], 1, i.w, i.sw, 1}), 0);
  const Shape p_shape = o.nhwc ? Shape{i.n, ph, pw, i.c} : Shape{i.n, i.c, ph, pw};
  const Shape pst = strides_of(p_shape);
  const int64_t psn = pst[0], psc = o.nhwc ? pst[3] : pst[1], psh = o.nhwc ? pst[1] : pst[2], psw = o.nhwc ? pst[2] : pst[3];
  const GatherDim by = plain(block[0], psh), bx = plain(block[1], psw), n = plain(i.n, psn);
  const GatherDim ch = plain(o.c, psc), y = plain(o.h, block[0] * psh), x = plain(o.w, block[1] * psw);
  StridedGather move = strided_gather(c, o.nhwc ? std::vector<GatherDim>{by, bx, n, y, x, ch} : std::vector<GatherDim>{by, bx, n, ch, y, x}, 0);
  cl::Buffer p = scratch(c, numel(p_shape));
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    pad.run(dev, in[0], p);
    move.run(dev, p, out[0]);
  };
}

// BatchToSpaceND (nnbridge/exec/rearrange.h, as cpu): pass 1 builds the uncropped tensor F (h *
// bh by w * bw, separable in [yq, by] and [xq, bx]), pass 2 crops it.
Launch batch_to_space(const OpContext& c) {
  const exec::SpaceBatch sb = exec::batch_to_space(c.k);
  const exec::SpatialDims &i = sb.x, &o = sb.y;
  const Shape &block = sb.block, &crops = sb.edges;
  const int64_t fh = i.h * block[0], fw = i.w * block[1];
  const GatherDim n = plain(o.n, i.sn), ch = plain(o.c, i.sc);
  const GatherDim yq = plain(i.h, i.sh), by = plain(block[0], block[1] * o.n * i.sn);
  const GatherDim xq = plain(i.w, i.sw), bx = plain(block[1], o.n * i.sn);
  StridedGather unfold = strided_gather(c, o.nhwc ? std::vector<GatherDim>{n, yq, by, xq, bx, ch} : std::vector<GatherDim>{n, ch, yq, by, xq, bx}, 0);
  const Shape f_shape = o.nhwc ? Shape{o.n, fh, fw, o.c} : Shape{o.n, o.c, fh, fw};
  const Shape fst = strides_of(f_shape);
  const int64_t fsh = o.nhwc ? fst[1] : fst[2], fsw = o.nhwc ? fst[2] : fst[3], fsc = o.nhwc ? fst[3] : fst[1];
  const GatherDim cy{o.h, crops[0], 1, fh, fsh, 0}, cx{o.w, crops[2], 1, fw, fsw, 0};
  StridedGather crop = strided_gather(c, in_layout(o.nhwc, plain(o.n, fst[0]), plain(o.c, fsc), cy, cx), 0);
  cl::Buffer f = scratch(c, numel(f_shape));
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    unfold.run(dev, in[0], f);
    crop.run(dev, f, out[0]);
  };
}

}  // namespace

void add_rearrange_ops(OpTable& t) {
  t["ReverseV2"] = reverse_v2;
  t["ChannelShuffle"] = channel_shuffle;
  t["StridedSlice"] = strided_slice;
  t["Stack"] = stack;
  t["SpaceToBatchND"] = space_to_batch;
  t["BatchToSpaceND"] = batch_to_space;
}

}  // namespace nnbridge::gpu
