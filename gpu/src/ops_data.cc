// Data-movement and per-axis ops of the opencl backend (kernels/data.cl). Slice, Pad, Split,
// Tile, Expand, DepthToSpace and SpaceToDepth are one generic strided gather (gather_strided):
// the host turns each node into, per output dim, the input coordinate it reads and the input
// stride it moves by. Shapes, attributes and refusals are cpu_ref's: each op names the file.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "nnbridge/exec/slice.h"
#include "ops_util.h"

namespace nnbridge::gpu {

void StridedGather::run(const Device& dev, const cl::Buffer& in, const cl::Buffer& out) {
  set_args(k, in, out, rank, meta, base, fill);
  enqueue(dev, k, n);
}

StridedGather strided_gather(const OpContext& c, const std::vector<GatherDim>& dims, int64_t base, float fill,
                             std::size_t in_slot, std::size_t out_slot) {
  std::vector<int> meta;
  int64_t n = 1;
  for (const GatherDim& d : dims) {
    for (int64_t v : {d.size, d.start, d.step, d.len, d.stride}) meta.push_back(signed_int(c, v));
    meta.push_back(d.mode);
    n *= d.size;
  }
  c.to_int(n);
  c.to_int(numel(c.k.in[in_slot].shape));
  return StridedGather{c.kernel("data.cl", "gather_strided"), c.ints(meta), static_cast<int>(dims.size()), signed_int(c, base),
                       fill, n, in_slot, out_slot};
}

namespace {

// ONNX Slice-13 (the window: nnbridge/exec/slice.h) as one strided gather, as cpu does.
Launch slice(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& is = k.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const exec::SliceWindow w = exec::slice_window(k);
  const Shape ist = strides_of(is);
  std::vector<GatherDim> dims;
  for (int64_t d = 0; d < r; ++d) {
    GatherDim g = plain(is[d], ist[d]);
    g.size = w.count[d];
    g.start = w.begin[d];
    g.step = g.size > 1 ? w.step[d] : 1;  // one element needs no step (and a huge one fits no int)
    dims.push_back(g);
  }
  return strided_gather(c, dims, 0);
}

// cpu_ref/src/kernels/shape_ops.cc make_pad (ONNX Pad-13 plus symmetric, Arm NN MirrorPad).
Launch pad(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& is = k.in[0].shape;
  const Shape& os = k.out[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const Shape pads = exec::to_ints(k.value(1, "pads"));
  if (static_cast<int64_t>(pads.size()) != 2 * r) k.invalid(ErrorId::Shape, "pads must have 2 * rank values");
  constexpr int64_t kFar = int64_t{1} << 48;  // beyond any tensor: keeps the sum below from overflowing
  for (int64_t d = 0; d < r; ++d)
    if (pads[d] < -kFar || pads[d] > kFar || pads[d + r] < -kFar || pads[d + r] > kFar || is[d] + pads[d] + pads[d + r] != os[d])
      k.invalid(ErrorId::Shape, "output shape disagrees with pads");
  const std::string mode = k.attr_string("mode", "constant");
  int code = 0;
  if (mode == "constant") code = 1;
  else if (mode == "edge") code = 2;
  else if (mode == "reflect") code = 3;
  else if (mode == "symmetric") code = 4;
  else k.unsupported("Pad mode " + mode);
  float value = 0.0f;
  if (k.has_input(2)) {
    const exec::FloatConstant& v = k.value(2, "constant_value");
    if (v.size() != 1) k.invalid(ErrorId::Shape, "constant_value must hold one value");
    value = v[0];
  }
  // constant_value is a real value, also for a quantized output (cpu's rule, same file).
  const Shape ist = strides_of(is);
  std::vector<GatherDim> dims;
  for (int64_t d = 0; d < r; ++d) dims.push_back(GatherDim{os[d], -pads[d], 1, is[d], ist[d], code});
  return strided_gather(c, dims, 0, value);
}

// cpu_ref/src/kernels/shape_ops.cc make_split (ONNX Split-13): one gather per output.
Launch split(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& is = k.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  const int64_t axis = k.attr_axis("axis", 0, r);
  int64_t total = 0;
  for (const TensorType& t : k.out) {
    if (static_cast<int64_t>(t.shape.size()) != r) k.invalid(ErrorId::Shape, "outputs differ in rank");
    total += t.shape[axis];
  }
  if (total != is[axis]) k.invalid(ErrorId::Shape, "outputs do not add up along axis");
  if (k.has_input(1)) {
    const Shape sizes = exec::to_ints(k.value(1, "split"));
    if (sizes.size() != k.out.size())
      k.invalid(ErrorId::Shape, "split has " + std::to_string(sizes.size()) + " sizes for " + std::to_string(k.out.size()) + " outputs");
    for (std::size_t o = 0; o < sizes.size(); ++o)
      if (sizes[o] != k.out[o].shape[static_cast<std::size_t>(axis)]) k.invalid(ErrorId::Shape, "split disagrees with output " + std::to_string(o));
  }
  const Shape ist = strides_of(is);
  std::vector<StridedGather> parts;
  int64_t offset = 0;
  for (std::size_t o = 0; o < k.out.size(); ++o) {
    const Shape& os = k.out[o].shape;
    std::vector<GatherDim> dims;
    for (int64_t d = 0; d < r; ++d) {
      if (d != axis && os[d] != is[d]) k.invalid(ErrorId::Shape, "output " + std::to_string(o) + " differs from the input off the axis");
      dims.push_back(plain(os[d], ist[d]));
    }
    parts.push_back(strided_gather(c, dims, offset * ist[axis], 0, 0, o));
    offset += os[axis];
  }
  return [parts](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    for (StridedGather& g : parts) g(dev, in, out);
  };
}

// cpu_ref/src/kernels/rearrange.cc make_tile (ONNX Tile-13): the repeats are the resolved output's.
Launch tile(const OpContext& c) {
  const Shape& is = c.k.in[0].shape;
  const Shape& os = c.k.out[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  if (static_cast<int64_t>(os.size()) != r) c.k.invalid(ErrorId::Shape, "output rank differs from the input's");
  for (int64_t d = 0; d < r; ++d)
    if ((is[d] == 0 && os[d] != 0) || (is[d] != 0 && os[d] % is[d] != 0))
      c.k.invalid(ErrorId::Shape, "output dim " + std::to_string(d) + " is not a multiple of the input's");
  const Shape ist = strides_of(is);
  std::vector<GatherDim> dims;
  for (int64_t d = 0; d < r; ++d) dims.push_back(GatherDim{os[d], 0, 1, is[d], ist[d], 5});
  return strided_gather(c, dims, 0);
}

// cpu_ref/src/kernels/rearrange.cc make_expand (ONNX Expand-13): the shape input's values are
// checked against the planned output on each run (read back when not a constant).
Launch expand(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& is = k.in[0].shape;
  const Shape& os = k.out[0].shape;
  const Shape st = exec::broadcast_strides(is, os);
  const int64_t r = static_cast<int64_t>(os.size()), n_shape = numel(k.in[1].shape);
  if (k.in[1].shape.size() != 1 || r != std::max<int64_t>(n_shape, static_cast<int64_t>(is.size())))
    k.invalid(ErrorId::Shape, "shape must be 1-D and the output's rank the larger of its length and the input's rank");
  Shape in_dims(static_cast<std::size_t>(r), 1);  // the input's dims aligned at the right
  std::copy(is.begin(), is.end(), in_dims.end() - static_cast<int64_t>(is.size()));
  for (int64_t d = 0; d < r - n_shape; ++d)
    if (in_dims[d] != os[d]) k.invalid(ErrorId::Shape, "output dim " + std::to_string(d) + " differs from the input's");
  std::vector<GatherDim> dims;
  for (int64_t d = 0; d < r; ++d) dims.push_back(GatherDim{os[d], 0, 1, os[d], st[d], 0});
  StridedGather g = strided_gather(c, dims, 0);
  const RunValue shape(k, 1);
  const std::string name = k.node.name.empty() ? "Expand" : "Expand '" + k.node.name + "'";
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    const std::vector<float> v = shape.get(dev, in[1]);
    for (int64_t i = 0; i < n_shape; ++i) {
      const int64_t d = r - n_shape + i, id = in_dims[d];
      const bool ok = v[i] == static_cast<float>(os[d]) ? (id == 1 || id == os[d]) : (v[i] == 1 && id == os[d]);
      if (!ok)
        throw Error(ErrorId::Shape, name + ": shape[" + std::to_string(i) + "] = " + std::to_string(static_cast<int64_t>(v[i])) +
                                            " with input dim " + std::to_string(id) + " does not give the planned output dim " +
                                            std::to_string(os[d]));
    }
    g(dev, in, out);
  };
}

// cpu_ref/src/kernels/space.cc (TF / Arm NN semantics, NCHW or NHWC, rank 4): a block's channel
// order is (block_y * bs + block_x) * C + c, or c * bs * bs + block_y * bs + block_x for
// DepthToSpace CRD. Both are gathers over a 6-D view of the output.
Launch space_depth(const OpContext& c, bool to_depth) {
  const KernelContext& k = c.k;
  const Shape& xs = k.in[0].shape;
  const Shape& ys = k.out[0].shape;
  if (xs.size() != 4 || ys.size() != 4) k.unsupported("only rank-4 tensors are implemented");
  const bool nhwc = k.attr_string("data_layout", "NCHW") == "NHWC";
  auto nchw = [nhwc](const Shape& s) { return nhwc ? Shape{s[0], s[3], s[1], s[2]} : s; };
  const Shape i = nchw(xs), o = nchw(ys);  // [n, c, h, w]
  const Shape ist = strides_of(xs);
  const int64_t sn = ist[0], sc = nhwc ? ist[3] : ist[1], sh = nhwc ? ist[1] : ist[2], sw = nhwc ? ist[2] : ist[3];
  const int64_t bs = k.attr_int("blocksize", 1);
  std::vector<GatherDim> v;
  if (to_depth) {
    if (bs < 1 || o[0] != i[0] || o[2] * bs != i[2] || o[3] * bs != i[3] || o[1] != i[1] * bs * bs)
      k.invalid(ErrorId::Shape, "shapes do not match blocksize");
    const GatherDim n = plain(o[0], sn), by = plain(bs, sh), bx = plain(bs, sw), ch = plain(i[1], sc);
    const GatherDim y = plain(o[2], bs * sh), x = plain(o[3], bs * sw);
    v = nhwc ? std::vector<GatherDim>{n, y, x, by, bx, ch} : std::vector<GatherDim>{n, by, bx, ch, y, x};
  } else {
    const bool crd = k.attr_string("mode", "DCR") == "CRD";
    if (bs < 1 || o[0] != i[0] || i[2] * bs != o[2] || i[3] * bs != o[3] || i[1] != o[1] * bs * bs)
      k.invalid(ErrorId::Shape, "shapes do not match blocksize");
    const GatherDim n = plain(o[0], sn), y = plain(i[2], sh), x = plain(i[3], sw);
    const GatherDim ch = plain(o[1], crd ? bs * bs * sc : sc);
    const GatherDim by = plain(bs, crd ? bs * sc : bs * o[1] * sc), bx = plain(bs, crd ? sc : o[1] * sc);
    v = nhwc ? std::vector<GatherDim>{n, y, by, x, bx, ch} : std::vector<GatherDim>{n, ch, y, by, x, bx};
  }
  return strided_gather(c, v, 0);
}

// [outer][dim][inner] around `axis` of `s`.
struct AxisView {
  int64_t outer = 1, dim = 1, inner = 1;
  AxisView(const Shape& s, int64_t axis) {
    for (int64_t d = 0; d < axis; ++d) outer *= s[d];
    dim = s[axis];
    for (std::size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  }
};

// cpu_ref/src/kernels/axis_ops.cc make_cum_sum (ONNX CumSum-14): the axis (input 1) is checked
// and read on each run, from the device when it is not a constant.
Launch cum_sum(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape xs = k.in[0].shape;
  if (k.out[0].shape != xs) k.invalid(ErrorId::Shape, "output shape differs from the input's");
  if (numel(k.in[1].shape) != 1) k.invalid(ErrorId::Shape, "axis must be a scalar");
  const int exclusive = k.attr_int("exclusive", 0) != 0, reverse = k.attr_int("reverse", 0) != 0;
  const int64_t r = static_cast<int64_t>(xs.size());
  c.to_int(numel(xs));
  const RunValue axis_value(k, 1);
  const std::string name = who(k);
  cl::Kernel kern = c.kernel("data.cl", "cum_sum");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    const float av = axis_value.get(dev, in[1])[0];
    if (!(av >= -static_cast<float>(r) && av < static_cast<float>(r)) || av != std::trunc(av))
      throw Error(ErrorId::AttributeValue, name + ": axis " + std::to_string(av) + " is outside [-" + std::to_string(r) + ", " +
                                          std::to_string(r) + ")");
    const int64_t a = static_cast<int64_t>(av);
    const AxisView v(xs, a < 0 ? a + r : a);
    set_args(kern, in[0], out[0], static_cast<int>(v.dim), static_cast<int>(v.inner), exclusive, reverse);
    if (v.inner > 0) enqueue(dev, kern, v.outer * v.inner);
  };
}

// cpu_ref/src/kernels/reduce.cc make_arg (ONNX ArgMax-13 / ArgMin-13).
OpFactory arg_extreme(bool is_max) {
  return [is_max](const OpContext& c) -> Launch {
    const Shape& is = c.k.in[0].shape;
    const int64_t r = static_cast<int64_t>(is.size());
    const AxisView v(is, c.k.attr_axis("axis", 0, r));
    const int last = c.k.attr_int("select_last_index", 0) != 0;
    if (numel(c.k.out[0].shape) != v.outer * v.inner) c.k.invalid(ErrorId::Shape, "output size does not match the reduction");
    c.to_int(numel(is));
    const int dim = c.to_int(v.dim), inner = c.to_int(v.inner);
    const int64_t cols = v.outer * v.inner;
    cl::Kernel kern = c.kernel("data.cl", "arg_extreme");
    return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
      set_args(kern, in[0], out[0], dim, inner, is_max ? 1 : 0, last);
      enqueue(dev, kern, cols);
    };
  };
}

// cpu_ref/src/kernels/axis_ops.cc make_hardmax (ONNX Hardmax-13).
Launch hardmax(const OpContext& c) {
  const Shape& xs = c.k.in[0].shape;
  if (c.k.out[0].shape != xs) c.k.invalid(ErrorId::Shape, "output shape differs from the input's");
  const AxisView v(xs, c.k.attr_axis("axis", -1, static_cast<int64_t>(xs.size())));
  c.to_int(numel(xs));
  const int dim = c.to_int(v.dim), inner = c.to_int(v.inner);
  const int64_t cols = v.dim > 0 ? v.outer * v.inner : 0;
  cl::Kernel kern = c.kernel("data.cl", "hardmax");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], out[0], dim, inner);
    enqueue(dev, kern, cols);
  };
}

// cpu_ref/src/kernels/value_shaped.cc make_range (ONNX Range-11): the length from the values is
// checked against the planned output on each run (they are read back when not constants).
Launch range(const OpContext& c) {
  const KernelContext& k = c.k;
  for (std::size_t i = 0; i < 3; ++i)
    if (numel(k.in[i].shape) != 1) k.invalid(ErrorId::Shape, "start, limit and delta must be scalars");
  if (k.out[0].shape.size() != 1) k.invalid(ErrorId::Shape, "output must be 1-D");
  const int64_t planned = c.to_int(k.out[0].shape[0]);
  const RunValue vs[3] = {RunValue(k, 0), RunValue(k, 1), RunValue(k, 2)};
  const std::string name = who(k);
  cl::Kernel kern = c.kernel("data.cl", "range");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    const float s = vs[0].get(dev, in[0])[0], l = vs[1].get(dev, in[1])[0], d = vs[2].get(dev, in[2])[0];
    const double start = s, limit = l, delta = d;
    if (delta == 0) throw Error(ErrorId::InvalidOther, name + ": delta is 0");
    const double q = std::ceil((limit - start) / delta);
    const int64_t n = q > 0 ? (q < 9.0e15 ? static_cast<int64_t>(q) : INT64_MAX) : 0;
    if (n != planned)
      throw Error(ErrorId::Shape, name + ": the input values give a length of " + std::to_string(n) + ", the plan has " +
                                          std::to_string(planned));
    set_args(kern, out[0], s, d);
    enqueue(dev, kern, n);
  };
}

}  // namespace

void add_data_ops(OpTable& t) {
  t["Slice"] = slice;
  t["Pad"] = pad;
  t["Split"] = split;
  t["Tile"] = tile;
  t["Expand"] = expand;
  t["SpaceToDepth"] = [](const OpContext& c) { return space_depth(c, true); };
  t["DepthToSpace"] = [](const OpContext& c) { return space_depth(c, false); };
  t["CumSum"] = cum_sum;
  t["ArgMax"] = arg_extreme(true);
  t["ArgMin"] = arg_extreme(false);
  t["Hardmax"] = hardmax;
  t["Range"] = range;
  add_index_ops(t);
  add_rearrange_ops(t);
  add_resize_ops(t);
  add_matrix_ops(t);
}

}  // namespace nnbridge::gpu
