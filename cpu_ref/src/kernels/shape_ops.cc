// Data movement: Reshape-like copies, Transpose, Concat, Split, Stack, Slice, Pad, Gather,
// Rank, ConstantOfShape (ONNX semantics; Arm NN Permute arrives as Transpose with the
// inverse of its dimMappings, see the core Transpose schema).
#include <algorithm>
#include <cmath>
#include <cstring>

#include "../kernel.h"
#include "nnbridge/exec/slice.h"
#include "nnbridge/strided_slice.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel copy_kernel(const KernelContext& ctx) {
  const int64_t n = numel(ctx.out[0].shape);
  if (numel(ctx.in[0].shape) != n) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
  return [n](std::span<const float* const> in, std::span<float* const> out) {
    if (n) std::memcpy(out[0], in[0], static_cast<std::size_t>(n) * sizeof(float));
  };
}

// out[i] = in[src(i)] where the source index is base + sum_d idx_d * istrides_per_out_dim[d]: a
// general strided gather used by Transpose, Slice and StridedSlice. At prepare the output dims are
// coalesced (size-1 dims dropped; a dim merged into the one inside it when the two step through
// the input as one), so the innermost run is copied whole (memcpy when its stride is 1) and the
// index arithmetic is per run, not per element. Pure copies: the values do not depend on it.
Kernel strided_gather(Shape oshape, Shape istrides_per_out_dim, int64_t base) {
  Shape dims, strides;
  for (std::size_t d = 0; d < oshape.size(); ++d) {
    if (oshape[d] == 0) return [](std::span<const float* const>, std::span<float* const>) {};
    if (oshape[d] == 1) continue;
    if (!dims.empty() && strides.back() == istrides_per_out_dim[d] * oshape[d]) {
      dims.back() *= oshape[d];
      strides.back() = istrides_per_out_dim[d];
    } else {
      dims.push_back(oshape[d]);
      strides.push_back(istrides_per_out_dim[d]);
    }
  }
  if (dims.empty()) dims = {1}, strides = {0};
  const int64_t inner = dims.back(), step = strides.back();
  dims.pop_back();
  strides.pop_back();
  return [dims, strides, inner, step, base](std::span<const float* const> in, std::span<float* const> out) {
    const std::size_t r = dims.size();
    const int64_t rows = numel(dims);
    std::vector<int64_t> idx(r, 0);
    int64_t src = base;
    const float* x = in[0];
    float* y = out[0];
    for (int64_t row = 0; row < rows; ++row, y += inner) {
      if (step == 1) std::copy_n(x + src, inner, y);
      else
        for (int64_t k = 0; k < inner; ++k) y[k] = x[src + k * step];
      for (std::size_t d = r; d-- > 0;) {  // odometer over the outer dims
        if (++idx[d] < dims[d]) {
          src += strides[d];
          break;
        }
        src -= strides[d] * (dims[d] - 1);
        idx[d] = 0;
      }
    }
  };
}

Kernel make_transpose(const KernelContext& ctx) {
  const Shape& is = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  Shape perm = ctx.attr_ints("perm");
  if (perm.empty())
    for (int64_t i = r; i-- > 0;) perm.push_back(i);
  if (static_cast<int64_t>(perm.size()) != r) ctx.invalid(ErrorId::Shape, "perm has the wrong length");
  Shape ist = strides_of(is), st(r), os(r);
  for (int64_t i = 0; i < r; ++i) {
    int64_t p = normalize_axis(perm[i], r);
    st[i] = ist[p];
    os[i] = is[p];
  }
  if (os != ctx.out[0].shape) ctx.invalid(ErrorId::Shape, "output shape disagrees with perm");
  return strided_gather(os, st, 0);
}

// ONNX Slice-13 (the window: nnbridge/exec/slice.h) as one strided gather.
Kernel make_slice(const KernelContext& ctx) {
  const Shape& is = ctx.in[0].shape;
  const Shape& os = ctx.out[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const exec::SliceWindow w = exec::slice_window(ctx);
  const Shape& begin = w.begin;
  const Shape& step = w.step;
  Shape ist = strides_of(is), str(r);
  int64_t base = 0;
  for (int64_t d = 0; d < r; ++d) {
    base += begin[d] * ist[d];
    str[d] = step[d] * ist[d];
  }
  return strided_gather(os, str, base);
}

// TF StridedSlice (Arm NN StridedSlice): begin/end/strides with begin_mask, end_mask and
// shrink_axis_mask, resolved by nnbridge/strided_slice.h.
Kernel make_strided_slice(const KernelContext& ctx) {
  const Shape& is = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const std::vector<StridedDim> dims = exec::strided_slice_dims(ctx);
  Shape ist = strides_of(is), counts(r), str(r);
  int64_t base = 0;
  for (int64_t d = 0; d < r; ++d) {
    const StridedDim& s = dims[static_cast<std::size_t>(d)];
    counts[d] = s.count;
    base += (s.count ? s.begin : 0) * ist[d];
    str[d] = s.step * ist[d];
  }
  return strided_gather(counts, str, base);
}

// Concat and Split see the same layout: a `whole` tensor cut along `axis` into `parts`. Per
// outer index, the whole holds the parts' contiguous chunks one after another (ONNX Concat /
// Split; Arm NN Concat and one-axis Splitter).
struct AxisParts {
  int64_t outer = 1;        ///< product of the dims before axis
  int64_t whole_chunk = 0;  ///< whole[axis] * inner
  std::vector<int64_t> chunk;  ///< parts[k][axis] * inner
};

AxisParts axis_parts(const KernelContext& ctx, const Shape& whole, const std::vector<TensorType>& parts,
                     const char* parts_name) {
  const int64_t r = static_cast<int64_t>(whole.size());
  const int64_t axis = ctx.attr_axis("axis", 0, r);
  AxisParts ap;
  int64_t inner = 1, total = 0;
  for (int64_t d = 0; d < axis; ++d) ap.outer *= whole[d];
  for (int64_t d = axis + 1; d < r; ++d) inner *= whole[d];
  for (const auto& t : parts) {
    if (static_cast<int64_t>(t.shape.size()) != r) ctx.invalid(ErrorId::Shape, std::string(parts_name) + " differ in rank");
    ap.chunk.push_back(t.shape[axis] * inner);
    total += t.shape[axis];
  }
  if (total != whole[axis]) ctx.invalid(ErrorId::Shape, std::string(parts_name) + " do not add up along axis");
  ap.whole_chunk = whole[axis] * inner;
  return ap;
}

Kernel make_concat(const KernelContext& ctx) {
  const AxisParts ap = axis_parts(ctx, ctx.out[0].shape, ctx.in, "inputs");
  return [ap](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t o = 0; o < ap.outer; ++o) {
      float* dst = out[0] + o * ap.whole_chunk;
      for (std::size_t k = 0; k < ap.chunk.size(); ++k) {
        std::memcpy(dst, in[k] + o * ap.chunk[k], static_cast<std::size_t>(ap.chunk[k]) * sizeof(float));
        dst += ap.chunk[k];
      }
    }
  };
}

// ONNX Split-13: the output sizes along axis are input 1 (`split`) when given, else equal parts.
Kernel make_split(const KernelContext& ctx) {
  const AxisParts ap = axis_parts(ctx, ctx.in[0].shape, ctx.out, "outputs");
  if (ctx.has_input(1)) {
    const Shape split = exec::to_ints(ctx.value(1, "split"));
    const int64_t axis = ctx.attr_axis("axis", 0, static_cast<int64_t>(ctx.in[0].shape.size()));
    if (split.size() != ctx.out.size()) ctx.invalid(ErrorId::Shape, "split has " + std::to_string(split.size()) + " sizes for " +
                                                    std::to_string(ctx.out.size()) + " outputs");
    for (std::size_t k = 0; k < split.size(); ++k)
      if (split[k] != ctx.out[k].shape[static_cast<std::size_t>(axis)]) ctx.invalid(ErrorId::Shape, "split disagrees with output " + std::to_string(k));
  }
  return [ap](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t o = 0; o < ap.outer; ++o) {
      const float* src = in[0] + o * ap.whole_chunk;
      for (std::size_t k = 0; k < ap.chunk.size(); ++k) {
        std::memcpy(out[k] + o * ap.chunk[k], src, static_cast<std::size_t>(ap.chunk[k]) * sizeof(float));
        src += ap.chunk[k];
      }
    }
  };
}

// TF/Arm NN Stack: inputs of equal shape joined along a new output axis.
Kernel make_stack(const KernelContext& ctx) {
  const Shape& os = ctx.out[0].shape;
  const int64_t axis = ctx.attr_axis("axis", 0, static_cast<int64_t>(os.size()));
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= os[d];
  for (std::size_t d = axis + 1; d < os.size(); ++d) inner *= os[d];
  const int64_t k = static_cast<int64_t>(ctx.in.size());
  if (os[axis] != k) ctx.invalid(ErrorId::Shape, "output dim along axis is not the input count");
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t i = 0; i < k; ++i)
        std::memcpy(out[0] + (o * k + i) * inner, in[i] + o * inner, static_cast<std::size_t>(inner) * sizeof(float));
  };
}

// ONNX Pad-13: pads (input 1, [x1_begin, ..., x1_end, ...]; negative values remove elements),
// constant_value (input 2, absent: 0) and the mode attribute (plus symmetric, Arm NN MirrorPad).
Kernel make_pad(const KernelContext& ctx) {
  const Shape& is = ctx.in[0].shape;
  const Shape& os = ctx.out[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const Shape pads = exec::to_ints(ctx.value(1, "pads"));
  if (static_cast<int64_t>(pads.size()) != 2 * r) ctx.invalid(ErrorId::Shape, "pads must have 2 * rank values");
  constexpr int64_t kFar = int64_t{1} << 48;  // beyond any tensor: keeps the sum below from overflowing
  for (int64_t d = 0; d < r; ++d)
    if (pads[d] < -kFar || pads[d] > kFar || pads[d + r] < -kFar || pads[d + r] > kFar ||
        is[d] + pads[d] + pads[d + r] != os[d])
      ctx.invalid(ErrorId::Shape, "output shape disagrees with pads");
  const std::string mode = ctx.attr_string("mode", "constant");
  if (mode != "constant" && mode != "reflect" && mode != "edge" && mode != "symmetric") ctx.unsupported("Pad mode " + mode);
  float value = 0.0f;
  if (ctx.has_input(2)) {
    const exec::FloatConstant& v = ctx.value(2, "constant_value");
    if (v.size() != 1) ctx.invalid(ErrorId::Shape, "constant_value must hold one value");
    value = v[0];
  }
  // constant_value is a real value, also for a quantized output (the Arm NN reader turns
  // padValue, a stored integer there, into one: sdk/formats/armnn/src/ops_transforms.cc).
  Shape ist = strides_of(is);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const int64_t n = numel(os);
    std::vector<int64_t> idx(r, 0);
    for (int64_t i = 0; i < n; ++i) {
      int64_t src = 0;
      bool inside = true;
      for (int64_t d = 0; d < r; ++d) {
        int64_t j = idx[d] - pads[d];
        const int64_t len = is[d];
        if (j < 0 || j >= len) {
          if (mode == "constant" || len == 0) {
            inside = false;
            break;
          }
          if (mode == "edge") j = j < 0 ? 0 : len - 1;
          else {
            const bool sym = mode == "symmetric";
            const int64_t period = sym ? 2 * len : std::max<int64_t>(2 * len - 2, 1);
            j = ((j % period) + period) % period;
            if (j >= len) j = sym ? period - 1 - j : period - j;
          }
        }
        src += j * ist[d];
      }
      out[0][i] = inside ? in[0][src] : value;
      for (int64_t d = r; d-- > 0;) {
        if (++idx[d] < os[d]) break;
        idx[d] = 0;
      }
    }
  };
}

Kernel make_gather(const KernelContext& ctx) {
  const Shape& ds = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(ds.size());
  const int64_t axis = ctx.attr_axis("axis", 0, r);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= ds[d];
  for (int64_t d = axis + 1; d < r; ++d) inner *= ds[d];
  const int64_t ni = numel(ctx.in[1].shape), dim = ds[axis];
  if (numel(ctx.out[0].shape) != outer * ni * inner) ctx.invalid(ErrorId::Shape, "output size does not match");
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < ni; ++k) {
        int64_t j = static_cast<int64_t>(in[1][k]);
        if (j < 0) j += dim;
        if (j < 0 || j >= dim) throw Error(ErrorId::Execution, "Gather index " + std::to_string(j) + " is out of range");
        std::memcpy(out[0] + (o * ni + k) * inner, in[0] + (o * dim + j) * inner, static_cast<std::size_t>(inner) * sizeof(float));
      }
  };
}

}  // namespace

void add_shape_kernels(KernelTable& t) {
  for (const char* op : {"Reshape", "Flatten"}) t[op] = copy_kernel;
  // Squeeze-13 / Unsqueeze-13: the output shape (from axes, input 1) is resolved; the elements stay.
  for (const char* op : {"Squeeze", "Unsqueeze"})
    t[op] = [](const KernelContext& ctx) {
      if (ctx.has_input(1)) ctx.value(1, "axes");
      return copy_kernel(ctx);
    };
  t["Transpose"] = make_transpose;
  t["Slice"] = make_slice;
  t["Concat"] = make_concat;
  t["StridedSlice"] = make_strided_slice;
  t["Split"] = make_split;
  t["Stack"] = make_stack;
  t["Pad"] = make_pad;
  t["Gather"] = make_gather;
  t["Rank"] = [](const KernelContext& ctx) -> Kernel {
    const float r = static_cast<float>(ctx.in[0].shape.size());
    return [r](std::span<const float* const>, std::span<float* const> out) { out[0][0] = r; };
  };
  // ONNX ConstantOfShape (Arm NN Fill): the output shape is resolved at prepare time.
  t["ConstantOfShape"] = [](const KernelContext& ctx) -> Kernel {
    const float v = static_cast<float>(ctx.attr_float("value", 0.0));
    const int64_t n = numel(ctx.out[0].shape);
    return [v, n](std::span<const float* const>, std::span<float* const> out) { std::fill(out[0], out[0] + n, v); };
  };
}

}  // namespace nnbridge::cpu_ref
