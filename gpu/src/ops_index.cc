// Index-driven ops of the opencl backend (kernels/index.cl): Gather, GatherElements, GatherND,
// ScatterND, ScatterElements, OneHot, TopK, NonZero, Compress, Unique, ReverseSequence. The device checks every index it
// reads (IndexFlags, ops_util.h); a launch that read indices waits for the queue and refuses an
// out-of-range one as cpu_ref does, with its message and Error code (each op names cpu's file).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

std::vector<int> to_ints32(const OpContext& c, const Shape& a, const Shape& b = {}) {
  std::vector<int> v;
  for (int64_t x : a) v.push_back(c.to_int(x));
  for (int64_t x : b) v.push_back(c.to_int(x));
  return v;
}

// cpu's int64 of an index value read from float storage (saturating where the cast would not be defined).
int64_t as_int64(float v) {
  if (std::isnan(v)) return 0;
  if (v >= 9.2e18f) return INT64_MAX;
  if (v <= -9.2e18f) return INT64_MIN;
  return static_cast<int64_t>(v);
}

// cpu_ref/src/kernels/shape_ops.cc make_gather (ONNX Gather-13).
Launch gather(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& ds = k.in[0].shape;
  const int64_t r = static_cast<int64_t>(ds.size());
  const int64_t axis = k.attr_axis("axis", 0, r);
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= ds[d];
  for (int64_t d = axis + 1; d < r; ++d) inner *= ds[d];
  const int64_t ni = numel(k.in[1].shape), dim = ds[axis];
  const int64_t n = c.to_int(numel(k.out[0].shape));
  if (n != outer * ni * inner) k.invalid(ErrorId::Shape, "output size does not match");
  c.to_int(numel(ds));
  const int ni_ = c.to_int(ni), inner_ = c.to_int(inner), dim_ = c.to_int(dim);
  const IndexFlags flags(c.dev, 1);
  const std::string name = who(k);
  cl::Kernel kern = c.kernel("index.cl", "gather_axis");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    if (n == 0) return;
    flags.reset(dev);
    set_args(kern, in[0], in[1], out[0], ni_, inner_, dim_, flags.buffer());
    enqueue(dev, kern, n);
    const int at = flags.read(dev)[0];
    if (at == INT_MAX) return;
    int64_t j = as_int64(IndexFlags::element(dev, in[1], at));
    if (j < 0) j += dim;
    throw Error(ErrorId::Execution, name + ": Gather index " + std::to_string(j) + " is out of range");
  };
}

// cpu_ref/src/kernels/index.cc make_gather_elements (ONNX GatherElements-13).
Launch gather_elements(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& ds = k.in[0].shape;
  const Shape& is = k.in[1].shape;
  const int64_t r = static_cast<int64_t>(ds.size());
  if (r == 0) k.invalid(ErrorId::Shape, "data must have rank >= 1");
  if (static_cast<int64_t>(is.size()) != r) k.invalid(ErrorId::Shape, "indices must have data's rank");
  const int64_t axis = k.attr_axis("axis", 0, r);
  for (int64_t d = 0; d < r; ++d)
    if (d != axis && is[d] > ds[d]) k.invalid(ErrorId::Shape, "indices dim " + std::to_string(d) + " exceeds data's");
  if (k.out[0].shape != is) k.invalid(ErrorId::Shape, "output shape differs from the indices'");
  c.to_int(numel(ds));
  const int64_t n = c.to_int(numel(is));
  const int64_t dim = ds[axis];
  cl::Buffer mb = c.ints(to_ints32(c, is, strides_of(ds)));
  const int rank = static_cast<int>(r), ax = static_cast<int>(axis), dim_ = c.to_int(dim);
  const IndexFlags flags(c.dev, 1);
  const std::string name = who(k);
  cl::Kernel kern = c.kernel("index.cl", "gather_elements");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    if (n == 0) return;
    flags.reset(dev);
    set_args(kern, in[0], in[1], out[0], rank, mb, ax, dim_, flags.buffer());
    enqueue(dev, kern, n);
    const int at = flags.read(dev)[0];
    if (at == INT_MAX) return;
    throw Error(ErrorId::DanglingReference, name + ": index " + std::to_string(IndexFlags::element(dev, in[1], at)) + " is outside [-" +
                                        std::to_string(dim) + ", " + std::to_string(dim) + ")");
  };
}

// cpu's message for the first entry of index tuple `t` outside its dim.
[[noreturn]] void bad_tuple(const Device& dev, const cl::Buffer& idx, int t, int64_t kk, const Shape& dims, const std::string& name,
                            const char* op) {
  for (int64_t j = 0; j < kk; ++j) {
    const int64_t i = as_int64(IndexFlags::element(dev, idx, static_cast<int>(t * kk + j))), dim = dims[j];
    if (i < -dim || i >= dim)
      throw Error(ErrorId::Execution, name + ": " + op + " index " + std::to_string(i) + " is out of range for dim " +
                                          std::to_string(j) + " of size " + std::to_string(dim));
  }
  throw Error(ErrorId::Execution, name + ": " + op + " index tuple " + std::to_string(t) + " is out of range");
}

// cpu_ref/src/kernels/gather_scatter.cc make_gather_nd (ONNX GatherND-13).
Launch gather_nd(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape ds = k.in[0].shape, is = k.in[1].shape;
  const int64_t b = k.attr_int("batch_dims", 0);
  if (is.empty()) k.invalid(ErrorId::Shape, "indices must have rank >= 1");
  const int64_t kk = is.back(), r = static_cast<int64_t>(ds.size());
  if (b < 0 || b + kk > r || b >= static_cast<int64_t>(is.size())) k.invalid(ErrorId::Shape, "indices' last dim exceeds data's rank");
  for (int64_t d = 0; d < b; ++d)
    if (ds[d] != is[d]) k.invalid(ErrorId::Shape, "batch dims of data and indices differ");
  const Shape inner(ds.begin() + b, ds.end());
  const Shape st = strides_of(inner);
  const int64_t batches = numel(Shape(ds.begin(), ds.begin() + b));
  const int64_t per_batch = numel(Shape(is.begin() + b, is.end() - 1));
  const int64_t slice = numel(Shape(ds.begin() + b + kk, ds.end()));
  const int64_t n = c.to_int(numel(k.out[0].shape));
  if (n != batches * per_batch * slice) k.invalid(ErrorId::Shape, "output size does not match");
  c.to_int(numel(ds));
  c.to_int(numel(is));
  const Shape dims(inner.begin(), inner.begin() + kk);
  cl::Buffer mb = c.ints(to_ints32(c, dims, Shape(st.begin(), st.begin() + kk)));
  const int k_ = static_cast<int>(kk), slice_ = c.to_int(slice), pb = c.to_int(per_batch), bstride = c.to_int(numel(inner));
  const IndexFlags flags(c.dev, 1);
  const std::string name = who(k);
  cl::Kernel kern = c.kernel("index.cl", "gather_nd");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    if (n == 0) return;
    flags.reset(dev);
    set_args(kern, in[0], in[1], out[0], k_, slice_, pb, bstride, mb, flags.buffer());
    enqueue(dev, kern, n);
    const int t = flags.read(dev)[0];
    if (t != INT_MAX) bad_tuple(dev, in[1], t, kk, dims, name, "GatherND");
  };
}

// cpu_ref/src/kernels/gather_scatter.cc make_scatter_nd (ONNX ScatterND-18, Arm NN ScatterNd):
// the output starts as data (zeros with data_is_shape); reduction none needs distinct tuples.
Launch scatter_nd(const OpContext& c) {
  const KernelContext& k = c.k;
  const bool from_shape = k.attr_int("data_is_shape", 0) != 0;
  const Shape os = k.out[0].shape, is = k.in[1].shape, us = k.in[2].shape;
  if (!from_shape && k.in[0].shape != os) k.invalid(ErrorId::Shape, "output shape differs from data's");
  if (is.empty()) k.invalid(ErrorId::Shape, "indices must have rank >= 1");
  const int64_t kk = is.back(), r = static_cast<int64_t>(os.size());
  if (kk < 1 || kk > r) k.invalid(ErrorId::Shape, "indices' last dim must be in [1, data rank]");
  const int64_t tuples = numel(Shape(is.begin(), is.end() - 1));
  const int64_t slice = numel(Shape(os.begin() + kk, os.end()));
  if (numel(us) != tuples * slice) k.invalid(ErrorId::Shape, "updates' size is not indices.shape[:-1] + data.shape[k:]");
  const std::string rs = k.attr_string("reduction", "none");
  int red = 0;
  if (rs == "none") red = 0;
  else if (rs == "add") red = 1;
  else if (rs == "sub") red = 2;
  else if (rs == "mul") red = 3;
  else if (rs == "max") red = 4;
  else if (rs == "min") red = 5;
  else k.unsupported("ScatterND reduction " + rs);
  const std::string cw = k.attr_string("combine_with", "accumulated");
  if (cw != "accumulated" && cw != "data") k.unsupported("ScatterND combine_with " + cw);
  const int with_data = cw == "data";
  const Shape lead(os.begin(), os.begin() + kk);
  const int64_t n = c.to_int(numel(os)), slots = c.to_int(numel(lead));
  c.to_int(numel(is));
  c.to_int(tuples * slice);
  cl::Buffer mb = c.ints(to_ints32(c, lead, strides_of(lead)));
  const int k_ = static_cast<int>(kk), slice_ = c.to_int(slice), tuples_ = c.to_int(tuples);
  const IndexFlags flags(c.dev, 2), marker(c.dev, static_cast<std::size_t>(std::max<int64_t>(slots, 1)));
  const std::string name = who(k);
  cl::Kernel mark = c.kernel("index.cl", "scatter_nd_mark"), repeats = c.kernel("index.cl", "scatter_nd_repeats");
  cl::Kernel write = c.kernel("index.cl", "scatter_nd_write"), reduce = c.kernel("index.cl", "scatter_nd_reduce");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    if (from_shape) {
      if (n) dev.queue.enqueueFillBuffer(out[0], 0.0f, 0, static_cast<std::size_t>(n) * sizeof(float));
    } else if (n) {
      dev.queue.enqueueCopyBuffer(in[0], out[0], 0, 0, static_cast<std::size_t>(n) * sizeof(float));
    }
    if (tuples_ == 0) return;
    flags.reset(dev);
    marker.reset(dev);
    set_args(mark, in[1], marker.buffer(), k_, mb, flags.buffer());
    enqueue(dev, mark, tuples_);
    if (red == 0) {
      set_args(repeats, in[1], marker.buffer(), k_, mb, flags.buffer());
      enqueue(dev, repeats, tuples_);
      set_args(write, in[1], in[2], out[0], k_, slice_, mb);
      enqueue(dev, write, static_cast<int64_t>(tuples_) * slice_);
    } else {
      set_args(reduce, in[0], in[1], in[2], out[0], k_, slice_, tuples_, mb, red, with_data, from_shape ? 1 : 0);
      enqueue(dev, reduce, slice_);
    }
    const std::vector<int> f = flags.read(dev);
    if (f[0] != INT_MAX && f[0] <= f[1]) bad_tuple(dev, in[1], f[0], kk, lead, name, "ScatterND");
    if (f[1] != INT_MAX)
      throw Error(ErrorId::Execution, name + ": ScatterND: index tuple " + std::to_string(f[1]) +
                                          " repeats an earlier one (reduction none needs unique indices)");
  };
}

// cpu_ref/src/kernels/index.cc make_scatter_elements (ONNX ScatterElements-16/18).
Launch scatter_elements(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape ds = k.in[0].shape, is = k.in[1].shape;
  const int64_t r = static_cast<int64_t>(ds.size());
  if (r == 0) k.invalid(ErrorId::Shape, "data must have rank >= 1");
  if (static_cast<int64_t>(is.size()) != r) k.invalid(ErrorId::Shape, "indices must have data's rank");
  const int64_t axis = k.attr_axis("axis", 0, r);
  for (int64_t d = 0; d < r; ++d)
    if (d != axis && is[d] > ds[d]) k.invalid(ErrorId::Shape, "indices dim " + std::to_string(d) + " exceeds data's");
  if (k.in[2].shape != is) k.invalid(ErrorId::Shape, "updates' shape differs from the indices'");
  if (k.out[0].shape != ds) k.invalid(ErrorId::Shape, "output shape differs from data's");
  const std::string rs = k.attr_string("reduction", "none");
  int red = 0;
  if (rs == "none") red = 0;
  else if (rs == "add") red = 1;
  else if (rs == "mul") red = 2;
  else if (rs == "max") red = 3;
  else if (rs == "min") red = 4;
  else k.unsupported("ScatterElements reduction " + rs);
  const int64_t n = c.to_int(numel(ds)), ni = c.to_int(numel(is));
  const int64_t lines = is[axis] == 0 ? 0 : ni / is[axis];
  const int64_t dim = ds[axis];
  cl::Buffer mb = c.ints(to_ints32(c, is, strides_of(ds)));
  const int rank = static_cast<int>(r), ax = static_cast<int>(axis), dim_ = c.to_int(dim);
  const IndexFlags flags(c.dev, 1);
  const std::string name = who(k);
  cl::Kernel kern = c.kernel("index.cl", "scatter_elements");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    if (n) dev.queue.enqueueCopyBuffer(in[0], out[0], 0, 0, static_cast<std::size_t>(n) * sizeof(float));
    if (lines == 0) return;
    flags.reset(dev);
    set_args(kern, in[1], in[2], out[0], rank, mb, ax, dim_, red, flags.buffer());
    enqueue(dev, kern, lines);
    const int at = flags.read(dev)[0];
    if (at == INT_MAX) return;
    throw Error(ErrorId::DanglingReference, name + ": index " + std::to_string(IndexFlags::element(dev, in[1], at)) + " is outside [-" +
                                        std::to_string(dim) + ", " + std::to_string(dim) + ")");
  };
}

// cpu_ref/src/kernels/index.cc make_one_hot (ONNX OneHot-11): depth (input 1) must match the
// planned output dim on each run.
Launch one_hot(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape is = k.in[0].shape, os = k.out[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const int64_t axis = k.attr_axis("axis", -1, r + 1);
  if (static_cast<int64_t>(os.size()) != r + 1) k.invalid(ErrorId::Shape, "output rank must be the indices' + 1");
  if (numel(k.in[1].shape) != 1) k.invalid(ErrorId::Shape, "depth must hold one element");
  if (numel(k.in[2].shape) != 2) k.invalid(ErrorId::Shape, "values must hold [off_value, on_value]");
  for (int64_t d = 0; d < r; ++d)
    if (is[d] != os[d < axis ? d : d + 1]) k.invalid(ErrorId::Shape, "output dims differ from the indices'");
  const int64_t depth = os[axis];
  int64_t inner = 1;
  for (int64_t d = axis; d < r; ++d) inner *= is[d];
  const int64_t n = c.to_int(numel(os));
  const int depth_ = c.to_int(depth), inner_ = c.to_int(inner);
  const RunValue depth_value(k, 1);
  const std::string name = who(k);
  cl::Kernel kern = c.kernel("index.cl", "one_hot");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    const float dv = depth_value.get(dev, in[1])[0];
    if (!(std::trunc(dv) == static_cast<float>(depth)))
      throw Error(ErrorId::Shape, name + ": depth " + std::to_string(dv) + " differs from the planned output dim " +
                                          std::to_string(depth));
    set_args(kern, in[0], in[2], out[0], depth_, inner_);
    enqueue(dev, kern, n);
  };
}

// cpu_ref/src/kernels/index.cc make_top_k (ONNX TopK-11): K (input 1) must match the planned
// output dim on each run.
Launch top_k(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape xs = k.in[0].shape;
  const int64_t r = static_cast<int64_t>(xs.size());
  if (r == 0) k.invalid(ErrorId::Shape, "X must have rank >= 1");
  const int64_t axis = k.attr_axis("axis", -1, r);
  if (k.out.size() != 2) k.invalid(ErrorId::Arity, "needs the outputs Values and Indices");
  if (numel(k.in[1].shape) != 1) k.invalid(ErrorId::Shape, "K must hold one element");
  const Shape os = k.out[0].shape;
  if (k.out[1].shape != os || static_cast<int64_t>(os.size()) != r) k.invalid(ErrorId::Shape, "outputs must have X's rank");
  for (int64_t d = 0; d < r; ++d)
    if (d != axis && os[d] != xs[d]) k.invalid(ErrorId::Shape, "output dims differ from X's");
  const int64_t kk = os[axis], dim = xs[axis];
  if (kk > dim) k.invalid(ErrorId::Shape, "K exceeds the axis size");
  const int largest = k.attr_int("largest", 1) != 0;
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < r; ++d) inner *= xs[d];
  const int64_t n = c.to_int(numel(xs));
  c.to_int(numel(os));
  const int dim_ = c.to_int(dim), inner_ = c.to_int(inner), k_ = c.to_int(kk);
  const RunValue k_value(k, 1);
  const std::string name = who(k);
  cl::Kernel kern = c.kernel("index.cl", "top_k");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    const float kv = k_value.get(dev, in[1])[0];
    if (kv != static_cast<float>(kk))
      throw Error(ErrorId::Shape, name + ": K = " + std::to_string(kv) + " differs from the planned output dim " +
                                          std::to_string(kk));
    set_args(kern, in[0], out[0], out[1], dim_, inner_, k_, largest);
    if (k_ > 0) enqueue(dev, kern, n);
  };
}

[[noreturn]] void differs(const std::string& name, const char* what, int64_t got, int64_t planned) {
  throw Error(ErrorId::Shape, name + ": the input values give " + what + " " + std::to_string(got) + ", the plan has " +
                                      std::to_string(planned));
}

// cpu_ref/src/kernels/value_shaped.cc make_non_zero (ONNX NonZero-13): the count from the values
// must be the planned one.
Launch non_zero(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape xs = k.in[0].shape.empty() ? Shape{1} : k.in[0].shape;  // a 0-d X reads as [1]
  const Shape& os = k.out[0].shape;
  const int64_t r = static_cast<int64_t>(xs.size());
  if (os.size() != 2 || os[0] != r) k.invalid(ErrorId::Shape, "output must be [rank, n]");
  const int planned = c.to_int(os[1]), total = c.to_int(numel(xs));
  c.to_int(numel(os));
  cl::Buffer mb = c.ints(to_ints32(c, xs, strides_of(xs)));
  const IndexFlags res(c.dev, 1);
  const int rank = static_cast<int>(r);
  const std::string name = who(k);
  cl::Kernel kern = c.kernel("index.cl", "non_zero");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], out[0], total, rank, mb, planned, res.buffer());
    enqueue(dev, kern, 1);
    const int got = res.read(dev)[0];
    if (got != planned) differs(name, "a non-zero count of", got, planned);
  };
}

// cpu_ref/src/kernels/value_shaped.cc make_compress (ONNX Compress-11).
Launch compress(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape xs = k.in[0].shape, os = k.out[0].shape;
  if (k.in[1].shape.size() != 1) k.invalid(ErrorId::Shape, "condition must be 1-D");
  const int64_t cn = k.in[1].shape[0];
  const bool flat = !k.attr("axis");
  int64_t dim = numel(xs), inner = 1, axis = 0;
  if (!flat) {
    const int64_t r = static_cast<int64_t>(xs.size());
    axis = k.attr_axis("axis", 0, r);
    dim = xs[axis];
    for (int64_t d = axis + 1; d < r; ++d) inner *= xs[d];
    if (os.size() != xs.size()) k.invalid(ErrorId::Shape, "output rank differs from the input's");
    for (int64_t d = 0; d < r; ++d)
      if (d != axis && os[d] != xs[d]) k.invalid(ErrorId::Shape, "output dims differ from the input's");
  } else if (os.size() != 1) {
    k.invalid(ErrorId::Shape, "output must be 1-D without axis");
  }
  const int planned = c.to_int(os[flat ? 0 : axis]);
  const int64_t n = c.to_int(numel(os));
  c.to_int(numel(xs));
  const int cn_ = c.to_int(cn), dim_ = c.to_int(dim), inner_ = c.to_int(inner);
  const IndexFlags res(c.dev, 2);
  const cl::Buffer keep(c.dev.context, CL_MEM_READ_WRITE, static_cast<std::size_t>(std::max<int64_t>(cn, 1)) * sizeof(cl_int));
  const std::string name = who(k);
  cl::Kernel select = c.kernel("index.cl", "compress_select"), take = c.kernel("index.cl", "compress_gather");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(select, in[1], keep, cn_, dim_, res.buffer());
    enqueue(dev, select, 1);
    const std::vector<int> f = res.read(dev);
    if (f[1] != INT_MAX)
      throw Error(ErrorId::Shape, name + ": condition[" + std::to_string(f[1]) + "] is true past the axis size " +
                                          std::to_string(dim));
    if (f[0] != planned) differs(name, "a selected count of", f[0], planned);
    set_args(take, in[0], keep, out[0], planned, dim_, inner_);
    enqueue(dev, take, n);
  };
}

// cpu_ref/src/kernels/value_shaped.cc make_unique (ONNX Unique-11): the distinct count from the
// values must be the planned one. O(dim^2) comparisons of slices, all on the device.
Launch unique(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape xs = k.in[0].shape;
  const bool flat = !k.attr("axis");
  const int sorted = k.attr_int("sorted", 1) != 0;
  int64_t outer = 1, dim = numel(xs), inner = 1, axis = 0;
  if (!flat) {
    const int64_t r = static_cast<int64_t>(xs.size());
    axis = k.attr_axis("axis", 0, r);
    dim = xs[axis];
    for (int64_t d = 0; d < axis; ++d) outer *= xs[d];
    for (int64_t d = axis + 1; d < r; ++d) inner *= xs[d];
  }
  const int64_t planned = k.out[0].shape.empty() ? -1 : k.out[0].shape[flat ? 0 : axis];
  if (flat ? k.out[0].shape.size() != 1 : k.out[0].shape.size() != xs.size()) k.invalid(ErrorId::Shape, "Y has the wrong rank");
  const std::size_t n_out = k.out.size();
  bool want[4] = {true, false, false, false};
  for (std::size_t o = 1; o < n_out && o < 4; ++o) {
    const int64_t need = o == 2 ? dim : planned;
    want[o] = k.out[o].dtype != DataType::Undefined;
    if (want[o] && k.out[o].shape != Shape{need}) k.invalid(ErrorId::Shape, "output " + std::to_string(o) + " must be [" + std::to_string(need) + "]");
  }
  c.to_int(numel(xs));
  const int dim_ = c.to_int(dim), inner_ = c.to_int(inner), len = c.to_int(outer * inner), planned_ = c.to_int(std::max<int64_t>(planned, 0));
  const int64_t n = c.to_int(numel(k.out[0].shape));
  auto ints = [&c](int64_t count) {
    return cl::Buffer(c.dev.context, CL_MEM_READ_WRITE, static_cast<std::size_t>(std::max<int64_t>(count, 1)) * sizeof(cl_int));
  };
  const cl::Buffer first = ints(dim), pos = ints(dim), rep = ints(dim), count = ints(dim);
  const IndexFlags res(c.dev, 1);
  const std::string name = who(k);
  cl::Kernel k_first = c.kernel("index.cl", "unique_first"), k_place = c.kernel("index.cl", "unique_place");
  cl::Kernel k_gather = c.kernel("index.cl", "unique_gather"), k_outs = c.kernel("index.cl", "unique_outputs");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    dev.queue.enqueueFillBuffer(res.buffer(), cl_int{0}, 0, sizeof(cl_int));
    set_args(k_first, in[0], first, dim_, inner_, len);
    enqueue(dev, k_first, dim_);
    set_args(k_place, in[0], first, pos, rep, count, dim_, inner_, len, sorted, res.buffer());
    enqueue(dev, k_place, dim_);
    const int u = res.read(dev)[0];
    if (u != planned) differs(name, "a distinct count of", u, planned);
    set_args(k_gather, in[0], rep, out[0], planned_, dim_, inner_);
    enqueue(dev, k_gather, n);
    if (!want[1] && !want[2] && !want[3]) return;
    set_args(k_outs, first, pos, rep, count, want[1] ? out[1] : out[0], want[2] ? out[2] : out[0], want[3] ? out[3] : out[0],
             planned_, want[1] ? 1 : 0, want[2] ? 1 : 0, want[3] ? 1 : 0);
    enqueue(dev, k_outs, dim_);
  };
}

// cpu_ref/src/kernels/axis_ops.cc make_reverse_sequence (ONNX ReverseSequence-10): each length
// is checked on the device.
Launch reverse_sequence(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape xs = k.in[0].shape;
  if (xs.size() < 2 || k.out[0].shape != xs) k.invalid(ErrorId::Shape, "input must have rank >= 2 and the output its shape");
  const int64_t ba = k.attr_int("batch_axis", 1), ta = k.attr_int("time_axis", 0);
  if ((ba != 0 && ba != 1) || (ta != 0 && ta != 1) || ba == ta) k.invalid(ErrorId::AttributeValue, "batch_axis and time_axis must be 0 and 1");
  const int64_t batch = xs[ba], steps = xs[ta], inner = numel(Shape(xs.begin() + 2, xs.end()));
  if (k.in[1].shape != Shape{batch}) k.invalid(ErrorId::Shape, "sequence_lens must be [batch]");
  const int64_t n = c.to_int(numel(xs));
  const int batch_ = c.to_int(batch), steps_ = c.to_int(steps), inner_ = c.to_int(inner), batch_first = ba == 0;
  const IndexFlags flags(c.dev, 1);
  const std::string name = who(k);
  cl::Kernel kern = c.kernel("index.cl", "reverse_sequence");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    if (n == 0) return;
    flags.reset(dev);
    set_args(kern, in[0], in[1], out[0], batch_, steps_, inner_, batch_first, flags.buffer());
    enqueue(dev, kern, n);
    const int b = flags.read(dev)[0];
    if (b == INT_MAX) return;
    throw Error(ErrorId::Shape, name + ": sequence_lens[" + std::to_string(b) + "] = " +
                                        std::to_string(IndexFlags::element(dev, in[1], b)) + " is outside [0, " + std::to_string(steps) + "]");
  };
}

}  // namespace

void add_index_ops(OpTable& t) {
  t["Gather"] = gather;
  t["GatherElements"] = gather_elements;
  t["GatherND"] = gather_nd;
  t["ScatterND"] = scatter_nd;
  t["ScatterElements"] = scatter_elements;
  t["OneHot"] = one_hot;
  t["TopK"] = top_k;
  t["NonZero"] = non_zero;
  t["Compress"] = compress;
  t["Unique"] = unique;
  t["ReverseSequence"] = reverse_sequence;
}

}  // namespace nnbridge::gpu
