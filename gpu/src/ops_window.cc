// Windowed ops of the opencl backend on 1, 2 or 3 spatial dims: Conv and ConvTranspose
// (kernels/conv.cl), MaxPool / AveragePool / LpPool and the global pools (kernels/pool.cl). The
// host resolves each node's geometry by cpu_ref's rules (cpu_ref/src/kernels/spatial.cc
// window_attrs and same_pads for auto_pad, conv.cc / conv3d.cc, conv_transpose.cc, pool.cc /
// pool3d.cc) and puts unit dims in front of fewer than 3 spatial dims, which reads and writes the
// same elements in the same order (cpu's Lifted). Refusals are cpu's.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "nnbridge/exec/node_context.h"
#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

// [n][c][spatial...] (or channels last) of a tensor of rank ns + 2.
struct Layout {
  int64_t n = 0, c = 0;
  Shape sp;
};
Layout layout_of(const Shape& s, bool nhwc) {
  Layout l{s[0], nhwc ? s.back() : s[1], {}};
  l.sp.assign(s.begin() + (nhwc ? 1 : 2), s.end() - (nhwc ? 1 : 0));
  return l;
}

// Unit dims in front of `v` until it has 3 entries.
Shape lift3(Shape v, int64_t unit) {
  v.insert(v.begin(), 3 - v.size(), unit);
  return v;
}

struct Window {
  Shape kernel, strides, dilations, begin, end;  // 3 entries each, lifted
};

// cpu_ref/src/kernels/spatial.cc window_attrs: the window attributes of ns spatial dims, auto_pad
// applied (SAME_UPPER puts total / 2 at the beginning, SAME_LOWER at the end), lifted to 3 dims.
Window window(const KernelContext& k, const Shape& kernel, const Shape& in, const Shape& out) {
  const std::size_t ns = in.size();
  Shape strides = k.attr_ints("strides", Shape(ns, 1)), dil = k.attr_ints("dilations", Shape(ns, 1));
  Shape pads = k.attr_ints("pads", Shape(2 * ns, 0));
  if (kernel.size() != ns || strides.size() != ns || dil.size() != ns || pads.size() != 2 * ns || out.size() != ns)
    k.invalid(ErrorId::Shape, "kernel_shape/strides/dilations/pads sizes do not match " + std::to_string(ns) + " spatial dims");
  for (std::size_t i = 0; i < ns; ++i)
    if (strides[i] < 1 || dil[i] < 1 || kernel[i] < 1) k.invalid(ErrorId::AttributeValue, "kernel, strides and dilations must be >= 1");
  const std::string auto_pad = k.attr_string("auto_pad", "NOTSET");
  if (auto_pad == "VALID") {
    pads.assign(2 * ns, 0);
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    for (std::size_t i = 0; i < ns; ++i) {
      const int64_t total = std::max<int64_t>(0, (out[i] - 1) * strides[i] + dil[i] * (kernel[i] - 1) + 1 - in[i]);
      const int64_t small = total / 2;
      pads[i] = auto_pad == "SAME_UPPER" ? small : total - small;
      pads[i + ns] = total - pads[i];
    }
  } else if (auto_pad != "NOTSET") {
    k.unsupported("auto_pad " + auto_pad);
  }
  for (int64_t p : pads)
    if (p < 0) k.invalid(ErrorId::AttributeValue, "pads must be >= 0");
  return Window{lift3(kernel, 1), lift3(strides, 1), lift3(dil, 1), lift3(Shape(pads.begin(), pads.begin() + ns), 0),
                lift3(Shape(pads.begin() + ns, pads.end()), 0)};
}

// The geometry block conv.cl reads: n c m group nhwc, in, on, k, strides, dilations, pads_begin.
std::vector<int> conv_geometry(const OpContext& c, const Layout& x, const Layout& y, int64_t group, bool nhwc, const Window& w) {
  std::vector<int> g;
  for (int64_t v : {x.n, x.c, y.c, group, int64_t{nhwc}}) g.push_back(c.to_int(v));
  for (const Shape* s : {&x.sp, &y.sp})
    for (int64_t v : lift3(*s, 1)) g.push_back(c.to_int(v));
  for (const Shape* s : {&w.kernel, &w.strides, &w.dilations, &w.begin})
    for (int64_t v : *s) g.push_back(c.to_int(v));
  return g;
}

// Bias per output channel: the constant (times Arm NN's implied scale where it applies), else read
// on the device; zeros when absent.
struct Bias {
  bool on_device = false;
  std::vector<float> host;
};
Bias bias_of(const KernelContext& k, int64_t m) {
  Bias b;
  b.host.assign(static_cast<std::size_t>(m), 0.0f);
  if (!k.has_input(2)) return b;
  if (numel(k.in[2].shape) != m) k.invalid(ErrorId::Shape, "B must have one value per output channel");
  const std::vector<float> scale = exec::implied_bias_scale(k, m);
  if (!k.constants[2]) {
    if (!scale.empty()) k.unsupported("a quantized bias that is not a constant");
    b.on_device = true;
    return b;
  }
  for (int64_t o = 0; o < m; ++o) b.host[o] = scale.empty() ? (*k.constants[2])[o] : (*k.constants[2])[o] * scale[o];
  return b;
}

// W as the kernels read it, [m][cg][k...], from W in `layout`: the view's dims (output channel,
// possibly split in two, input channel within the group, kernel dims) with their strides in W.
// OIHW [m][cg][k...], OHWI [m][k...][cg], 1HWO [1][k...][m], HWIO [k...][cg][m], MIHW
// [mult][c][k...] (output channel c * mult + j is W[j][c]), IOHW [c][m / group][k...] (output
// channel g * mg + j of group g is W[g * cg + i][j]).
std::vector<GatherDim> weight_view(const std::string& layout, const Shape& ws, int64_t m, int64_t cg, int64_t mg,
                                   const Shape& kernel) {
  const int64_t taps = numel(kernel);
  const int64_t kf = layout == "OHWI" ? cg : layout == "1HWO" ? m : layout == "HWIO" ? cg * m : 1;
  std::vector<GatherDim> v;
  if (layout == "OIHW") v = {plain(m, cg * taps), plain(cg, taps)};
  else if (layout == "OHWI") v = {plain(m, taps * cg), plain(cg, 1)};
  else if (layout == "1HWO") v = {plain(m, 1), plain(cg, 0)};
  else if (layout == "HWIO") v = {plain(m, 1), plain(cg, m)};
  else if (layout == "MIHW") v = {plain(ws[1], taps), plain(ws[0], ws[1] * taps), plain(cg, 0)};
  else v = {plain(m / mg, cg * mg * taps), plain(mg, taps), plain(cg, mg * taps)};  // IOHW
  const Shape ks = strides_of(kernel);
  for (std::size_t j = 0; j < kernel.size(); ++j) v.push_back(plain(kernel[j], ks[j] * kf));
  return v;
}

// The weights' buffer: repacked once on the host when W is a constant, read as it is when its
// layout is the kernels' (OIHW), else repacked on the device on each run (cpu repacks per run).
struct Weights {
  std::vector<float> host;  ///< the repacked constant
  bool as_is = false;
  std::optional<StridedGather> repack;
  cl::Buffer packed;  ///< repack's destination
};
Weights weights_of(const OpContext& c, const std::vector<GatherDim>& view, bool identity) {
  const KernelContext& k = c.k;
  Weights w;
  if (k.constants[1]) {
    const exec::FloatConstant& src = *k.constants[1];
    Shape dims;
    for (const GatherDim& d : view) dims.push_back(d.size);
    const int64_t n = numel(dims), r = static_cast<int64_t>(view.size());
    std::vector<int64_t> idx(static_cast<std::size_t>(r), 0);
    w.host.reserve(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      int64_t at = 0;
      for (int64_t d = 0; d < r; ++d) at += idx[d] * view[d].stride;
      w.host.push_back(src[static_cast<std::size_t>(at)]);
      for (int64_t d = r; d-- > 0;) {
        if (++idx[d] < dims[d]) break;
        idx[d] = 0;
      }
    }
  } else if (identity) {
    w.as_is = true;
  } else {
    w.repack = strided_gather(c, view, 0, 0, 1, 0);
    w.packed = cl::Buffer(c.dev.context, CL_MEM_READ_WRITE, static_cast<std::size_t>(std::max<int64_t>(w.repack->n, 1)) * sizeof(float));
  }
  return w;
}

Launch launch_conv(const OpContext& c, const char* name, std::vector<int> g, const Weights& w, const Bias& b, int64_t total) {
  cl::Buffer gb = c.ints(g), wb = w.repack ? w.packed : c.floats(w.host), bb = c.floats(b.host);
  cl::Kernel kern = c.kernel("conv.cl", name);
  const bool w_dev = w.as_is, b_dev = b.on_device;
  std::optional<StridedGather> repack = w.repack;
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    if (repack) repack->run(dev, in[1], wb);
    set_args(kern, in[0], w_dev ? in[1] : wb, b_dev ? in[2] : bb, out[0], gb);
    enqueue(dev, kern, total);
  };
}

// Conv: cpu_ref/src/kernels/conv.cc (1-D, 2-D: kernel_layout OIHW, OHWI, 1HWO, MIHW) and conv3d.cc
// (3-D: OIHW, OHWI, HWIO).
Launch conv(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& xs = k.in[0].shape;
  const Shape& ys = k.out[0].shape;
  const Shape& ws = k.in[1].shape;
  const std::size_t r = xs.size();
  if (r < 3 || r > 5) k.unsupported("only 1-D, 2-D and 3-D convolutions (X of rank 3, 4 or 5) are implemented");
  const std::size_t ns = r - 2;
  if (ws.size() != r || ys.size() != r) k.invalid(ErrorId::Shape, ns == 3 ? "3-D Conv needs rank-5 X, W and Y" : "W must have rank " + std::to_string(r));
  const bool nhwc = k.attr_string("data_layout", "NCHW") == "NHWC";
  const std::string layout = k.attr_string("kernel_layout", "OIHW");
  const Layout x = layout_of(xs, nhwc), y = layout_of(ys, nhwc);
  if (y.n != x.n) k.invalid(ErrorId::Shape, "output batch differs from the input's");
  const int64_t group = k.attr_int("group", 1), C = x.c, M = y.c;
  Shape kernel;
  if (layout == "OIHW" || (ns < 3 && layout == "MIHW")) kernel.assign(ws.begin() + 2, ws.end());
  else if (layout == "OHWI" || (ns < 3 && layout == "1HWO")) kernel.assign(ws.begin() + 1, ws.end() - 1);
  else if (ns == 3 && layout == "HWIO") kernel.assign(ws.begin(), ws.end() - 2);
  else k.unsupported(ns == 3 ? "kernel_layout " + layout + " for a 3-D Conv" : "kernel_layout \"" + layout + "\"");
  if ((layout == "1HWO" || layout == "MIHW") && group != C) k.invalid(ErrorId::AttributeValue, "depthwise kernel_layout " + layout + " needs group = input channels");
  if (group < 1 || C % group != 0 || M % group != 0) k.invalid(ErrorId::Shape, "channels do not divide into groups");
  const int64_t cg = C / group, taps = numel(kernel);
  if (numel(ws) != M * cg * taps) k.invalid(ErrorId::Shape, "W size does not match the channels and kernel");
  const Window win = window(k, kernel, x.sp, y.sp);
  const Weights w = weights_of(c, weight_view(layout, ws, M, cg, M / group, kernel), layout == "OIHW");
  c.to_int(numel(xs));
  if (nhwc && !w.host.empty()) {
    // Channels last with a constant W: W transposed once to [cg][k...][M] for conv_nhwc.
    Weights t;
    const int64_t per = cg * taps;
    t.host.resize(w.host.size());
    for (int64_t o = 0; o < M; ++o)
      for (int64_t j = 0; j < per; ++j) t.host[static_cast<std::size_t>(j * M + o)] = w.host[static_cast<std::size_t>(o * per + j)];
    return launch_conv(c, "conv_nhwc", conv_geometry(c, x, y, group, nhwc, win), t, bias_of(k, M), c.to_int(numel(ys)));
  }
  // Four output channels per work item where each group's channels come in fours (conv_m4).
  const bool by4 = (M / group) % 4 == 0;
  return launch_conv(c, by4 ? "conv_m4" : "conv", conv_geometry(c, x, y, group, nhwc, win), w, bias_of(k, M),
                     c.to_int(numel(ys)) / (by4 ? 4 : 1));
}

// ConvTranspose: cpu_ref/src/kernels/conv_transpose.cc (W IOHW [C][M/group][k...] (ONNX), OIHW or
// OHWI; pads from ONNX ConvTranspose-11's rule with auto_pad SAME_* or an output_shape).
Launch conv_transpose(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& xs = k.in[0].shape;
  const Shape& ys = k.out[0].shape;
  const Shape& ws = k.in[1].shape;
  const std::size_t r = xs.size();
  if (r < 3 || r > 5 || ys.size() != r || ws.size() != r)
    k.unsupported("only 1-D, 2-D and 3-D transposed convolutions (X of rank 3, 4 or 5) are implemented");
  const std::size_t ns = r - 2;
  const bool nhwc = k.attr_string("data_layout", "NCHW") == "NHWC";
  const std::string layout = k.attr_string("kernel_layout", "IOHW");
  const Layout x = layout_of(xs, nhwc), y = layout_of(ys, nhwc);
  const int64_t group = k.attr_int("group", 1), C = x.c, M = y.c;
  if (y.n != x.n) k.invalid(ErrorId::Shape, "output batch differs from the input's");
  if (group < 1 || C % group || M % group) k.invalid(ErrorId::Shape, "channels do not divide into groups");
  const int64_t cg = C / group, mg = M / group;
  Shape kernel;
  if (layout == "IOHW" || layout == "OIHW") kernel.assign(ws.begin() + 2, ws.end());
  else if (layout == "OHWI") kernel.assign(ws.begin() + 1, ws.end() - 1);
  else k.unsupported("kernel_layout " + layout);
  const int64_t taps = numel(kernel);
  if (numel(ws) != M * cg * taps) k.invalid(ErrorId::Shape, "W size does not match the channels and kernel");
  const Shape st = k.attr_ints("strides", Shape(ns, 1)), dil = k.attr_ints("dilations", Shape(ns, 1));
  const Shape opad = k.attr_ints("output_padding", Shape(ns, 0));
  Shape pads = k.attr_ints("pads", Shape(2 * ns, 0));
  if (st.size() != ns || dil.size() != ns || pads.size() != 2 * ns || opad.size() != ns)
    k.invalid(ErrorId::Shape, "strides/dilations/pads/output_padding sizes");
  const std::string auto_pad = k.attr_string("auto_pad", "NOTSET");
  if (auto_pad == "VALID") {
    pads.assign(2 * ns, 0);
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER" || (auto_pad == "NOTSET" && k.has_attr("output_shape"))) {
    for (std::size_t i = 0; i < ns; ++i) {
      const int64_t total = std::max<int64_t>(0, st[i] * (x.sp[i] - 1) + opad[i] + (kernel[i] - 1) * dil[i] + 1 - y.sp[i]);
      pads[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
    }
  } else if (auto_pad != "NOTSET") {
    k.unsupported("auto_pad " + auto_pad);
  }
  for (std::size_t i = 0; i < ns; ++i)
    if (st[i] < 1 || dil[i] < 1) k.invalid(ErrorId::AttributeValue, "strides and dilations must be >= 1");
  const Window win{lift3(kernel, 1), lift3(st, 1), lift3(dil, 1), lift3(Shape(pads.begin(), pads.begin() + ns), 0), {}};
  const Weights w = weights_of(c, weight_view(layout, ws, M, cg, mg, kernel), layout == "OIHW");
  c.to_int(numel(xs));
  return launch_conv(c, "conv_transpose", conv_geometry(c, x, y, group, nhwc, win), w, bias_of(k, M), c.to_int(numel(ys)));
}

// MaxPool / AveragePool / LpPool (kind 0 / 1 / 2) and the global pools: cpu_ref/src/kernels/pool.cc
// and pool3d.cc.
OpFactory pool(int kind, bool global) {
  return [=](const OpContext& c) -> Launch {
    const KernelContext& k = c.k;
    const Shape& xs = k.in[0].shape;
    const Shape& ys = k.out[0].shape;
    const std::size_t r = xs.size();
    if (r < 3 || r > (global ? 4u : 5u) || ys.size() != r)
      k.unsupported("only 1-D, 2-D and 3-D pooling (X of rank 3, 4 or 5) is implemented");
    const bool nhwc = k.attr_string("data_layout", "NCHW") == "NHWC";
    const Layout x = layout_of(xs, nhwc), y = layout_of(ys, nhwc);
    if (y.n != x.n || y.c != x.c) k.invalid(ErrorId::Shape, "output shape does not match the input's N and C");
    const Window win = global ? Window{lift3(x.sp, 1), Shape(3, 1), Shape(3, 1), Shape(3, 0), Shape(3, 0)}
                              : window(k, k.attr_ints("kernel_shape"), x.sp, y.sp);
    const bool indices = kind == 0 && k.out.size() > 1;
    if (indices && nhwc) k.unsupported("MaxPool's Indices output with data_layout NHWC");
    if (indices && k.out[1].shape != ys) {
      if (r == 5) k.unsupported("MaxPool's Indices output needs NCHW and Y's shape");
      k.invalid(ErrorId::Shape, "Indices must have the shape of Y");
    }
    const int include_pad = kind != 0 && k.attr_int("count_include_pad", 0) != 0;
    const int lp_mean = kind == 2 && k.attr_int("mean", 0) != 0;
    std::vector<int> g;
    for (int64_t v : {x.n, x.c, int64_t{nhwc}, int64_t{kind}, int64_t{include_pad}, k.attr_int("p", 2), int64_t{lp_mean},
                      int64_t{indices}})
      g.push_back(c.to_int(v));
    for (const Shape& s : {lift3(x.sp, 1), lift3(y.sp, 1), win.kernel, win.strides, win.dilations, win.begin, win.end})
      for (int64_t v : s) g.push_back(c.to_int(v));
    const int64_t total = c.to_int(numel(ys));
    c.to_int(numel(xs));
    cl::Buffer gb = c.ints(g);
    cl::Kernel kern = c.kernel("pool.cl", "pool");
    return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
      set_args(kern, in[0], out[0], indices ? out[1] : out[0], gb);
      enqueue(dev, kern, total);
    };
  };
}

}  // namespace

void add_window_ops(OpTable& t) {
  t["Conv"] = conv;
  t["ConvTranspose"] = conv_transpose;
  t["MaxPool"] = pool(0, false);
  t["AveragePool"] = pool(1, false);
  t["LpPool"] = pool(2, false);
  t["GlobalMaxPool"] = pool(0, true);
  t["GlobalAveragePool"] = pool(1, true);
}

}  // namespace nnbridge::gpu
