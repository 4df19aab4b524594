// Element rearrangements newer than Arm NN 20.08: Tile, ReverseV2, ChannelShuffle, Expand, and
// the shape queries Shape and Size.
// - Tile (ONNX Tile-13): output dim d is input dim d times repeats[d]; the repeats come from the
//   resolved output shape, so a constant input, the attribute or a file's declared type all work.
// - ReverseV2 (TensorFlow; Arm NN ReverseV2Impl.cpp): the axes arrive on input 1 at run time
//   (or the `axis` attribute); negative axes count from the end; an axis named twice is
//   reversed once (the reference sets a flag per axis); an empty axis list copies.
// - ChannelShuffle (Arm NN RefChannelShuffleWorkload, from Android NN): the `axis` of size
//   n = group * k is read as [group, k], transposed to [k, group] and flattened: output channel
//   i * group + j takes input channel j * k + i.
// - Shape (ONNX Shape-15): dims [start, end) of the input's shape; Size (ONNX Size-13): its
//   element count.
// - Expand (ONNX Expand-13): the input broadcast to the resolved output shape.
#include <algorithm>
#include <cstring>

#include "../kernel.h"
#include "nnbridge/exec/rearrange.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_tile(const KernelContext& ctx) {
  const Shape is = ctx.in[0].shape, os = ctx.out[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  if (static_cast<int64_t>(os.size()) != r) ctx.invalid(ErrorId::Shape, "output rank differs from the input's");
  for (int64_t d = 0; d < r; ++d)
    if ((is[d] == 0 && os[d] != 0) || (is[d] != 0 && os[d] % is[d] != 0))
      ctx.invalid(ErrorId::Shape, "output dim " + std::to_string(d) + " is not a multiple of the input's");
  const Shape ist = strides_of(is);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const int64_t n = numel(os);
    std::vector<int64_t> idx(static_cast<std::size_t>(r), 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t src = 0;
      for (int64_t d = 0; d < r; ++d) src += (idx[d] % is[d]) * ist[d];
      out[0][i] = in[0][src];
      for (int64_t d = r; d-- > 0;) {
        if (++idx[d] < os[d]) break;
        idx[d] = 0;
      }
    }
  };
}

Kernel make_reverse(const KernelContext& ctx) {
  const Shape is = ctx.in[0].shape;
  if (ctx.out[0].shape != is) ctx.invalid(ErrorId::Shape, "output shape differs from the input's");
  const int64_t r = static_cast<int64_t>(is.size());
  const bool axes_input = ctx.has_input(1);
  const Shape attr_axes = ctx.attr_ints("axis");
  const int64_t n_axes = axes_input ? numel(ctx.in[1].shape) : static_cast<int64_t>(attr_axes.size());
  const Shape st = strides_of(is);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    Shape axes = attr_axes;
    if (axes_input) axes.assign(in[1], in[1] + n_axes);
    const std::vector<bool> flip = exec::reversed_dims(r, axes);
    const int64_t n = numel(is);
    std::vector<int64_t> idx(static_cast<std::size_t>(r), 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t dst = 0;
      for (int64_t d = 0; d < r; ++d) dst += (flip[d] ? is[d] - 1 - idx[d] : idx[d]) * st[d];
      out[0][dst] = in[0][i];
      for (int64_t d = r; d-- > 0;) {
        if (++idx[d] < is[d]) break;
        idx[d] = 0;
      }
    }
  };
}

Kernel make_channel_shuffle(const KernelContext& ctx) {
  const Shape is = ctx.in[0].shape;
  if (ctx.out[0].shape != is) ctx.invalid(ErrorId::Shape, "output shape differs from the input's");
  const int64_t r = static_cast<int64_t>(is.size());
  const int64_t axis = normalize_axis(ctx.attr_int("axis"), r);
  const int64_t group = ctx.attr_int("group");
  const int64_t c = is[axis];
  if (group < 1 || c % group != 0) ctx.invalid(ErrorId::Shape, "the axis size is not a multiple of group");
  const int64_t k = c / group;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= is[d];
  for (int64_t d = axis + 1; d < r; ++d) inner *= is[d];
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < k; ++i)
        for (int64_t j = 0; j < group; ++j)
          std::memcpy(out[0] + (o * c + i * group + j) * inner, in[0] + (o * c + j * k + i) * inner,
                      static_cast<std::size_t>(inner) * sizeof(float));
  };
}

Kernel make_shape(const KernelContext& ctx) {
  const Shape& full = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(full.size());
  auto clamp = [r](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + r : v, 0, r); };
  const int64_t s = clamp(ctx.attr_int("start", 0)), e = clamp(ctx.attr_int("end", r));
  const Shape is(full.begin() + s, full.begin() + std::max(s, e));
  if (numel(ctx.out[0].shape) != static_cast<int64_t>(is.size())) ctx.invalid(ErrorId::Shape, "output size differs from dims [start, end)");
  return [is](std::span<const float* const>, std::span<float* const> out) {
    for (std::size_t d = 0; d < is.size(); ++d) out[0][d] = static_cast<float>(is[d]);
  };
}

Kernel make_size(const KernelContext& ctx) {
  const float n = static_cast<float>(numel(ctx.in[0].shape));
  if (numel(ctx.out[0].shape) != 1) ctx.invalid(ErrorId::Shape, "output must hold one element");
  return [n](std::span<const float* const>, std::span<float* const> out) { out[0][0] = n; };
}

// The output shape was resolved at prepare time (the constant shape input, or the file's
// declared type); the shape input's values are checked against it on each run.
Kernel make_expand(const KernelContext& ctx) {
  const Shape is = ctx.in[0].shape, os = ctx.out[0].shape;
  const Shape st = exec::broadcast_strides(is, os);
  const int64_t r = static_cast<int64_t>(os.size()), n_shape = numel(ctx.in[1].shape);
  if (ctx.in[1].shape.size() != 1 || r != std::max<int64_t>(n_shape, static_cast<int64_t>(is.size())))
    ctx.invalid(ErrorId::Shape, "shape must be 1-D and the output's rank the larger of its length and the input's rank");
  const Shape in_dims = [&] {  // the input's dims aligned at the right with the output's
    Shape a(static_cast<std::size_t>(r), 1);
    std::copy(is.begin(), is.end(), a.end() - static_cast<int64_t>(is.size()));
    return a;
  }();
  for (int64_t d = 0; d < r - n_shape; ++d)
    if (in_dims[d] != os[d]) ctx.invalid(ErrorId::Shape, "output dim " + std::to_string(d) + " differs from the input's");
  const std::string name = ctx.node.name.empty() ? "Expand" : "Expand '" + ctx.node.name + "'";
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    // ONNX Expand-13: the output is NumPy-broadcast(input shape, shape values).
    for (int64_t k = 0; k < n_shape; ++k) {
      const int64_t d = r - n_shape + k, id = in_dims[d];
      const float v = in[1][k];
      const bool ok = v == static_cast<float>(os[d]) ? (id == 1 || id == os[d]) : (v == 1 && id == os[d]);
      if (!ok)
        throw Error(ErrorId::Shape, name + ": shape[" + std::to_string(k) + "] = " +
                                            std::to_string(static_cast<int64_t>(v)) + " with input dim " +
                                            std::to_string(id) + " does not give the planned output dim " +
                                            std::to_string(os[d]));
    }
    const int64_t n = numel(os);
    std::vector<int64_t> idx(static_cast<std::size_t>(r), 0);
    int64_t src = 0;
    for (int64_t i = 0; i < n; ++i) {
      out[0][i] = in[0][src];
      for (int64_t d = r; d-- > 0;) {
        src += st[d];
        if (++idx[d] < os[d]) break;
        src -= st[d] * os[d];
        idx[d] = 0;
      }
    }
  };
}

}  // namespace

void add_rearrange_kernels(KernelTable& t) {
  t["Tile"] = make_tile;
  t["ReverseV2"] = make_reverse;
  t["ChannelShuffle"] = make_channel_shuffle;
  t["Shape"] = make_shape;
  t["Size"] = make_size;
  t["Expand"] = make_expand;
}

}  // namespace nnbridge::cpu_ref
