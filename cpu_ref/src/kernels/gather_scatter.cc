// GatherND and ScatterND: index tuples into the leading dims of a tensor.
// - GatherND (ONNX GatherND-13; Arm NN GatherNd): indices [..., k] select slices
//   data[b..., i0, ..., ik-1, :] after batch_dims leading dims shared by data and indices;
//   negative indices count from the end; an index outside [-dim, dim) fails the run.
// - ScatterND (ONNX ScatterND-18; Arm NN ScatterNd, RefScatterNd / ScatterNd.cpp): the output
//   starts as data (zeros of the constant shape with data_is_shape = 1); each update slice is
//   combined into the slice its index tuple names, in index order, with `reduction`: none
//   writes, add / sub / mul / max / min combine with the element as updated so far
//   (combine_with "accumulated", ONNX) or with the original element (combine_with "data", Arm
//   NN's reference, so of duplicate indices the last one wins). Duplicate index tuples with
//   reduction none fail the run (Arm NN refuses them; ONNX leaves the result undefined).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

// The flat offset of index tuple `t` (k values) in a tensor of `dims` with C-order `strides`.
int64_t tuple_offset(const float* t, int64_t k, const Shape& dims, const Shape& strides, const char* op) {
  int64_t off = 0;
  for (int64_t j = 0; j < k; ++j) {
    const int64_t dim = dims[j];
    int64_t i = static_cast<int64_t>(t[j]);
    if (i < -dim || i >= dim)
      throw Error(ErrorId::Execution, std::string(op) + " index " + std::to_string(i) + " is out of range for dim " +
                                          std::to_string(j) + " of size " + std::to_string(dim));
    off += (i < 0 ? i + dim : i) * strides[j];
  }
  return off;
}

Kernel make_gather_nd(const KernelContext& ctx) {
  const Shape ds = ctx.in[0].shape, is = ctx.in[1].shape;
  const int64_t b = ctx.attr_int("batch_dims", 0);
  if (is.empty()) ctx.invalid(ErrorId::Shape, "indices must have rank >= 1");
  const int64_t k = is.back(), r = static_cast<int64_t>(ds.size());
  if (b < 0 || b + k > r || b >= static_cast<int64_t>(is.size())) ctx.invalid(ErrorId::Shape, "indices' last dim exceeds data's rank");
  for (int64_t d = 0; d < b; ++d)
    if (ds[d] != is[d]) ctx.invalid(ErrorId::Shape, "batch dims of data and indices differ");
  const Shape inner(ds.begin() + b, ds.end());
  const Shape st = strides_of(inner);
  const int64_t batches = numel(Shape(ds.begin(), ds.begin() + b));
  const int64_t per_batch = numel(Shape(is.begin() + b, is.end() - 1));
  const int64_t slice = numel(Shape(ds.begin() + b + k, ds.end()));
  const int64_t batch_stride = numel(inner);
  if (numel(ctx.out[0].shape) != batches * per_batch * slice) ctx.invalid(ErrorId::Shape, "output size does not match");
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t bi = 0; bi < batches; ++bi)
      for (int64_t n = 0; n < per_batch; ++n) {
        const int64_t t = bi * per_batch + n;
        const int64_t off = tuple_offset(in[1] + t * k, k, inner, st, "GatherND");
        std::memcpy(out[0] + t * slice, in[0] + bi * batch_stride + off, static_cast<std::size_t>(slice) * sizeof(float));
      }
  };
}

enum class Reduce { None, Add, Sub, Mul, Max, Min };

Kernel make_scatter_nd(const KernelContext& ctx) {
  const bool from_shape = ctx.attr_int("data_is_shape", 0) != 0;
  const Shape os = ctx.out[0].shape, is = ctx.in[1].shape, us = ctx.in[2].shape;
  if (!from_shape && ctx.in[0].shape != os) ctx.invalid(ErrorId::Shape, "output shape differs from data's");
  if (is.empty()) ctx.invalid(ErrorId::Shape, "indices must have rank >= 1");
  const int64_t k = is.back(), r = static_cast<int64_t>(os.size());
  if (k < 1 || k > r) ctx.invalid(ErrorId::Shape, "indices' last dim must be in [1, data rank]");
  const int64_t tuples = numel(Shape(is.begin(), is.end() - 1));
  const int64_t slice = numel(Shape(os.begin() + k, os.end()));
  if (numel(us) != tuples * slice) ctx.invalid(ErrorId::Shape, "updates' size is not indices.shape[:-1] + data.shape[k:]");
  const std::string rs = ctx.attr_string("reduction", "none");
  Reduce red;
  if (rs == "none") red = Reduce::None;
  else if (rs == "add") red = Reduce::Add;
  else if (rs == "sub") red = Reduce::Sub;
  else if (rs == "mul") red = Reduce::Mul;
  else if (rs == "max") red = Reduce::Max;
  else if (rs == "min") red = Reduce::Min;
  else ctx.unsupported("ScatterND reduction " + rs);
  const std::string cw = ctx.attr_string("combine_with", "accumulated");
  if (cw != "accumulated" && cw != "data") ctx.unsupported("ScatterND combine_with " + cw);
  const bool with_data = cw == "data";
  const Shape st = strides_of(os);
  const int64_t n = numel(os);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    float* y = out[0];
    if (from_shape) std::fill(y, y + n, 0.0f);
    else if (n) std::memcpy(y, in[0], static_cast<std::size_t>(n) * sizeof(float));
    std::set<int64_t> seen;
    for (int64_t t = 0; t < tuples; ++t) {
      const int64_t off = tuple_offset(in[1] + t * k, k, os, st, "ScatterND");
      if (red == Reduce::None && !seen.insert(off).second)
        throw Error(ErrorId::Execution, "ScatterND: index tuple " + std::to_string(t) +
                                            " repeats an earlier one (reduction none needs unique indices)");
      const float* u = in[2] + t * slice;
      for (int64_t s = 0; s < slice; ++s) {
        const float base = with_data ? (from_shape ? 0.0f : in[0][off + s]) : y[off + s];
        float v = u[s];
        switch (red) {
          case Reduce::None: break;
          case Reduce::Add: v = base + v; break;
          case Reduce::Sub: v = base - v; break;
          case Reduce::Mul: v = base * v; break;
          case Reduce::Max: v = std::max(base, v); break;
          case Reduce::Min: v = std::min(base, v); break;
        }
        y[off + s] = v;
      }
    }
  };
}

}  // namespace

void add_gather_scatter_kernels(KernelTable& t) {
  t["GatherND"] = make_gather_nd;
  t["ScatterND"] = make_scatter_nd;
}

}  // namespace nnbridge::cpu_ref
