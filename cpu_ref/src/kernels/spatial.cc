// Lifted nodes and ONNX auto_pad for the windowed kernels (spatial.h).
#include "spatial.h"

#include <algorithm>

namespace nnbridge::cpu_ref {

namespace {

// Where the first spatial dim of a weight tensor is, by kernel_layout.
std::size_t weight_spatial_at(const std::string& layout) {
  if (layout == "OHWI" || layout == "1HWO") return 1;
  if (layout == "HWIO") return 0;
  return 2;  // OIHW, IOHW, MIHW
}

void insert_units(TensorType& t, std::size_t at, std::size_t count) {
  if (t.dtype == DataType::Undefined || t.unknown_rank || t.shape.size() < at) return;
  t.shape.insert(t.shape.begin() + static_cast<std::ptrdiff_t>(at), count, 1);
}

}  // namespace

Lifted::Lifted(const KernelContext& ctx, std::size_t spatial, std::initializer_list<std::size_t> weights,
               std::initializer_list<std::size_t> data)
    : node_(ctx.node),
      ctx_{.node = node_, .schema = ctx.schema, .in = ctx.in, .out = ctx.out, .constants = ctx.constants,
           .threads = ctx.threads, .in_attrs = ctx.in_attrs, .read_at_prepare_only = ctx.read_at_prepare_only} {
  const Shape& xs = ctx.in.at(0).shape;
  if (xs.size() < 2 || xs.size() - 2 >= spatial) return;
  const std::size_t ns = xs.size() - 2, add = spatial - ns;
  const bool nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  const std::size_t data_at = nhwc ? 1 : 2;
  for (std::size_t i : data)
    if (i < ctx_.in.size()) insert_units(ctx_.in[i], data_at, add);
  for (TensorType& t : ctx_.out) insert_units(t, data_at, add);
  const std::string layout = ctx.attr_string("kernel_layout", "OIHW");
  for (std::size_t i : weights)
    if (i < ctx_.in.size()) insert_units(ctx_.in[i], weight_spatial_at(layout), add);
  // Window attributes the node sets (schema defaults stay defaults: the kernels read absent ones
  // as all-neutral for their own rank).
  auto lift = [&](const char* name, int64_t unit) {
    auto it = node_.attrs.find(name);
    if (it == node_.attrs.end() || !it->second.is<std::vector<int64_t>>()) return;
    std::vector<int64_t> v = it->second.get<std::vector<int64_t>>();
    if (v.size() != ns) return;
    v.insert(v.begin(), add, unit);
    it->second = Attr(v);
  };
  lift("kernel_shape", 1);
  lift("strides", 1);
  lift("dilations", 1);
  lift("output_padding", 0);
  if (auto it = node_.attrs.find("pads"); it != node_.attrs.end() && it->second.is<std::vector<int64_t>>()) {
    std::vector<int64_t> p = it->second.get<std::vector<int64_t>>();
    if (p.size() == 2 * ns) {
      p.insert(p.begin() + static_cast<std::ptrdiff_t>(ns), add, 0);  // ends
      p.insert(p.begin(), add, 0);                                     // begins
      it->second = Attr(p);
    }
  }
  if (auto it = node_.attrs.find("output_shape"); it != node_.attrs.end() && it->second.is<std::vector<int64_t>>()) {
    std::vector<int64_t> o = it->second.get<std::vector<int64_t>>();
    if (o.size() == ns) o.insert(o.begin(), add, 1);
    else if (o.size() == ns + 2) o.insert(o.begin() + static_cast<std::ptrdiff_t>(data_at), add, 1);
    it->second = Attr(o);
  }
}

PadPair same_pads(const std::string& auto_pad, int64_t in, int64_t out, int64_t k, int64_t s, int64_t d) {
  const int64_t total = std::max<int64_t>(0, (out - 1) * s + d * (k - 1) + 1 - in);
  const int64_t small = total / 2;
  return auto_pad == "SAME_UPPER" ? PadPair{small, total - small} : PadPair{total - small, small};
}

WindowAttrs window_attrs(const KernelContext& ctx, const Shape& kernel, const Shape& in, const Shape& out) {
  const std::size_t ns = in.size();
  WindowAttrs w;
  w.kernel = kernel;
  w.strides = ctx.attr_ints("strides", Shape(ns, 1));
  w.dilations = ctx.attr_ints("dilations", Shape(ns, 1));
  w.pads = ctx.attr_ints("pads", Shape(2 * ns, 0));
  if (w.kernel.size() != ns || w.strides.size() != ns || w.dilations.size() != ns || w.pads.size() != 2 * ns || out.size() != ns)
    ctx.invalid(ErrorId::Shape, "kernel_shape/strides/dilations/pads sizes do not match " + std::to_string(ns) + " spatial dims");
  for (std::size_t i = 0; i < ns; ++i)
    if (w.strides[i] < 1 || w.dilations[i] < 1 || w.kernel[i] < 1) ctx.invalid(ErrorId::AttributeValue, "kernel, strides and dilations must be >= 1");
  const std::string auto_pad = ctx.attr_string("auto_pad", "NOTSET");
  if (auto_pad == "VALID") {
    w.pads.assign(2 * ns, 0);
  } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
    for (std::size_t i = 0; i < ns; ++i) {
      const PadPair p = same_pads(auto_pad, in[i], out[i], w.kernel[i], w.strides[i], w.dilations[i]);
      w.pads[i] = p.begin;
      w.pads[i + ns] = p.end;
    }
  } else if (auto_pad != "NOTSET") {
    ctx.unsupported("auto_pad " + auto_pad);
  }
  for (int64_t p : w.pads)
    if (p < 0) ctx.invalid(ErrorId::AttributeValue, "pads must be >= 0");
  return w;
}

}  // namespace nnbridge::cpu_ref
