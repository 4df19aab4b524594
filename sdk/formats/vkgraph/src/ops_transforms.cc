// Row transforms: what renames cannot say (ATen's per-dim lists vs ONNX's begin/end pads,
// negative dims, shapes that depend on the input's rank). `to` functions return false when the
// operator call is not an instance of the canonical op; `from` functions throw Unsupported.
#include <cmath>
#include <cstdint>
#include <limits>

#include "nnbridge/error.h"
#include "ops.h"

namespace nnbridge::formats::vkgraph::transforms {

namespace {

using Ints = std::vector<int64_t>;

[[noreturn]] void unsupported(const std::string& msg) { throw Error(ErrorId::NoForm, msg); }

const Attr* find(const AttrMap& m, const char* k) {
  auto it = m.find(k);
  return it == m.end() ? nullptr : &it->second;
}
Ints ints_of(const AttrMap& m, const char* k, Ints fallback = {}) {
  const Attr* a = find(m, k);
  return a && a->is<Ints>() ? a->get<Ints>() : fallback;
}
int64_t int_of(const AttrMap& m, const char* k, int64_t fallback = 0) {
  const Attr* a = find(m, k);
  if (a && a->is<int64_t>()) return a->get<int64_t>();
  if (a && a->is<bool>()) return a->get<bool>();
  return fallback;
}
std::string str_of(const AttrMap& m, const char* k, std::string fallback = {}) {
  const Attr* a = find(m, k);
  return a && a->is<std::string>() ? a->get<std::string>() : fallback;
}
int64_t rank_of(const TensorType& t) { return t.unknown_rank ? -1 : static_cast<int64_t>(t.shape.size()); }

// ATen accepts one value for every spatial dim (int[2] stride=1 written as [1]).
bool expand(Ints& v, std::size_t n) {
  if (v.size() == 1 && n > 1) v.assign(n, v[0]);
  return v.size() == n;
}

// Canonical window attributes -> ATen's symmetric per-dim lists; NCHW only.
struct Window {
  Ints kernel, strides, pads, dilations;
};
Window window_from(const AttrMap& a, const MapContext& c, const char* what) {
  if (str_of(a, "data_layout", "NCHW") != "NCHW")
    unsupported(std::string(what) + " is NCHW only: convert the layout first (NHWC Transpose around the op)");
  if (str_of(a, "auto_pad", "NOTSET") != "NOTSET") unsupported(std::string(what) + " has no auto_pad");
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  if (r < 3) unsupported(std::string(what) + " needs an input of known rank >= 3");
  std::size_t ns = static_cast<std::size_t>(r - 2);
  Window w;
  w.kernel = ints_of(a, "kernel_shape");
  w.strides = ints_of(a, "strides", Ints(ns, 1));
  w.dilations = ints_of(a, "dilations", Ints(ns, 1));
  Ints pads = ints_of(a, "pads", Ints(2 * ns, 0));
  if (pads.size() != 2 * ns) unsupported("pads has " + std::to_string(pads.size()) + " entries");
  for (std::size_t i = 0; i < ns; ++i)
    if (pads[i] != pads[i + ns]) unsupported(std::string(what) + " pads only symmetrically (begin == end per dim)");
  w.pads.assign(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(ns));
  return w;
}

// ATen lists -> canonical window attributes (the `to` side).
bool window_to(const AtenArgs& a, const MapContext& c, const char* stride, const char* padding, const char* dilation,
               AttrMap& out) {
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  if (r < 3) return false;
  std::size_t ns = static_cast<std::size_t>(r - 2);
  Ints s = ints_of(a, stride), p = ints_of(a, padding), d = dilation ? ints_of(a, dilation) : Ints(ns, 1);
  if (!expand(s, ns) || !expand(p, ns) || !expand(d, ns)) return false;
  Ints pads = p;
  pads.insert(pads.end(), p.begin(), p.end());
  out["strides"] = Attr(s);
  out["pads"] = Attr(pads);
  out["dilations"] = Attr(d);
  return true;
}

}  // namespace

// ---- convolution ----
// kernel_shape is optional in ONNX (inferred from W); when present it must agree with W.
void check_kernel_shape(const AttrMap& a, const MapContext& c) {
  const Attr* k = find(a, "kernel_shape");
  if (!k || c.in.size() < 2 || c.in[1].unknown_rank || c.in[1].shape.size() < 2) return;
  Ints spatial(c.in[1].shape.begin() + 2, c.in[1].shape.end());
  if (k->get<Ints>() != spatial) unsupported("kernel_shape disagrees with the weights' spatial dims");
}

bool conv_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  for (int64_t v : ints_of(a, "output_padding"))
    if (v != 0) return false;
  if (!window_to(a, c, "stride", "padding", "dilation", out)) return false;
  out["group"] = Attr(int_of(a, "groups", 1));
  return true;
}
// ExecuTorch's Vulkan conv (Convolution.cpp) runs 2-D convolutions on 4-D input and 1-D ones on
// 3-D input, and prepacks the weights: a constant.
void conv_runtime_form(const MapContext& c) {
  const int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  if (r != 3 && r != 4) unsupported("ExecuTorch's Vulkan aten.convolution takes 3-D or 4-D input, not rank " + std::to_string(r));
  if (c.constant && !c.is_constant(1)) unsupported("ExecuTorch's Vulkan aten.convolution prepacks its weight: it must be a constant");
}
void conv_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  conv_runtime_form(c);
  if (str_of(a, "kernel_layout", "OIHW") != "OIHW")
    unsupported("aten.convolution takes OIHW weights, not " + str_of(a, "kernel_layout"));
  check_kernel_shape(a, c);
  Window w = window_from(a, c, "aten.convolution");
  out["stride"] = Attr(w.strides);
  out["padding"] = Attr(w.pads);
  out["dilation"] = Attr(w.dilations);
  out["output_padding"] = Attr(Ints(w.pads.size(), 0));
  out["groups"] = Attr(int_of(a, "group", 1));
}
bool tconv_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  if (!window_to(a, c, "stride", "padding", "dilation", out)) return false;
  Ints op = ints_of(a, "output_padding");
  if (!expand(op, out["strides"].get<Ints>().size())) return false;
  for (int64_t v : op)
    if (v != 0) {
      out["output_padding"] = Attr(op);
      break;
    }
  out["group"] = Attr(int_of(a, "groups", 1));
  return true;
}
void tconv_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  conv_runtime_form(c);
  if (str_of(a, "kernel_layout", "IOHW") != "IOHW")
    unsupported("transposed aten.convolution takes IOHW weights, not " + str_of(a, "kernel_layout"));
  if (find(a, "output_shape")) unsupported("aten.convolution has no output_shape");
  check_kernel_shape(a, c);
  Window w = window_from(a, c, "aten.convolution");
  out["stride"] = Attr(w.strides);
  out["padding"] = Attr(w.pads);
  out["dilation"] = Attr(w.dilations);
  out["output_padding"] = Attr(ints_of(a, "output_padding", Ints(w.pads.size(), 0)));
  out["groups"] = Attr(int_of(a, "group", 1));
}

// ---- pooling ----
// With ceil_mode, ONNX (and nnbridge's MaxPool / AveragePool) count ceil((in + 2p - eff) / s) + 1
// windows; PyTorch (ATen pooling_output_shape) counts the same, less one when that last window
// would start at or after in + p (inside the right padding). The forms agree where it does not.
// Returns the first spatial dim where they differ, -1 when none does (or ceil_mode is off).
int64_t ceil_mode_mismatch(const AttrMap& canonical, const MapContext& c) {
  if (int_of(canonical, "ceil_mode", 0) == 0 || c.in.empty() || rank_of(c.in[0]) != 4) return -1;
  Ints k = ints_of(canonical, "kernel_shape"), s = ints_of(canonical, "strides", Ints(2, 1));
  Ints d = ints_of(canonical, "dilations", Ints(2, 1)), p = ints_of(canonical, "pads", Ints(4, 0));
  if (k.size() != 2 || s.size() != 2 || d.size() != 2 || p.size() != 4) return -1;
  for (std::size_t i = 0; i < 2; ++i) {
    const int64_t in = c.in[0].shape[i + 2];
    // Sizes past int64 (a hostile file's attributes) say nothing about agreement: skipped.
    int64_t taps = 0, eff = 0, padded = 0, span = 0, last = 0;
    if (in < 0 || s[i] < 1 || k[i] < 1 || __builtin_mul_overflow(d[i], k[i] - 1, &taps) ||
        __builtin_add_overflow(taps, 1, &eff) || __builtin_add_overflow(in, p[i], &padded) ||
        __builtin_add_overflow(padded, p[i + 2], &span) || __builtin_sub_overflow(span, eff, &span) || span < 0)
      continue;
    const int64_t out = span / s[i] + (span % s[i] != 0) + 1;
    if (__builtin_mul_overflow(out - 1, s[i], &last)) continue;
    if (last >= padded) return static_cast<int64_t>(i);
  }
  return -1;
}
void require_ceil_mode_agrees(const AttrMap& a, const MapContext& c, const char* what) {
  if (int64_t dim = ceil_mode_mismatch(a, c); dim >= 0)
    unsupported(std::string(what) + " with ceil_mode drops a last window that starts in the right padding (spatial dim " +
                std::to_string(dim) + "), where ONNX keeps it: the output sizes differ");
}

bool max_pool_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  if (r != 4) return false;
  Ints k = ints_of(a, "kernel_size");
  if (!expand(k, 2)) return false;
  AtenArgs b = a;
  if (ints_of(a, "stride").empty()) b["stride"] = Attr(k);  // ATen: an empty stride is the kernel
  if (!window_to(b, c, "stride", "padding", "dilation", out)) return false;
  out["kernel_shape"] = Attr(k);
  if (int_of(out, "ceil_mode", 0) == 0) out.erase("ceil_mode");  // the schema default
  return ceil_mode_mismatch(out, c) < 0;
}
void max_pool_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  Window w = window_from(a, c, "aten.max_pool2d");
  if (w.kernel.size() != 2) unsupported("aten.max_pool2d needs a 2-D kernel_shape");
  require_ceil_mode_agrees(a, c, "aten.max_pool2d");
  out["kernel_size"] = Attr(w.kernel);
  out["stride"] = Attr(w.strides);
  out["padding"] = Attr(w.pads);
  out["dilation"] = Attr(w.dilations);
}
bool avg_pool_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  if (find(a, "divisor_override")) return false;
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  if (r != 4) return false;
  Ints k = ints_of(a, "kernel_size");
  if (!expand(k, 2)) return false;
  AtenArgs b = a;
  if (ints_of(a, "stride").empty()) b["stride"] = Attr(k);
  if (!window_to(b, c, "stride", "padding", nullptr, out)) return false;
  out.erase("dilations");
  out["kernel_shape"] = Attr(k);
  if (int_of(out, "ceil_mode", 0) == 0) out.erase("ceil_mode");  // the schema default
  return ceil_mode_mismatch(out, c) < 0;
}
void avg_pool_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  Window w = window_from(a, c, "aten.avg_pool2d");
  if (w.kernel.size() != 2) unsupported("aten.avg_pool2d needs a 2-D kernel_shape");
  for (int64_t d : w.dilations)
    if (d != 1) unsupported("aten.avg_pool2d has no dilation");
  require_ceil_mode_agrees(a, c, "aten.avg_pool2d");
  out["kernel_size"] = Attr(w.kernel);
  out["stride"] = Attr(w.strides);
  out["padding"] = Attr(w.pads);
}

// ---- matrix products ----
bool mm_to(const AtenArgs&, const MapContext& c, AttrMap&) {
  return c.in.size() == 2 && rank_of(c.in[0]) == 2 && rank_of(c.in[1]) == 2;
}
void mm_from(const AttrMap& a, const MapContext& c, AtenArgs&) {
  if (c.in.size() != 2 || rank_of(c.in[0]) != 2 || rank_of(c.in[1]) != 2) unsupported("aten.mm multiplies 2-D matrices");
}
bool bmm_to(const AtenArgs&, const MapContext& c, AttrMap&) {
  return c.in.size() == 2 && rank_of(c.in[0]) == 3 && rank_of(c.in[1]) == 3;
}
void bmm_from(const AttrMap& a, const MapContext& c, AtenArgs&) {
  if (c.in.size() != 2 || rank_of(c.in[0]) != 3 || rank_of(c.in[1]) != 3) unsupported("aten.bmm multiplies 3-D batches");
  if (!c.in[0].shape.empty() && !c.in[1].shape.empty() && c.in[0].shape[0] != c.in[1].shape[0])
    unsupported("aten.bmm does not broadcast batches");
}
// linear(input, weight [N, K], bias?) = input @ weight^T (+ bias).
bool linear_matmul_to(const AtenArgs&, const MapContext& c, AttrMap& out) {
  if (c.in.size() > 2 && c.in[2].dtype != DataType::Undefined) return false;  // bias: the Gemm row
  out["transB"] = Attr(int64_t{1});
  return c.in.size() >= 2 && rank_of(c.in[1]) == 2;
}
void linear_matmul_from(const AttrMap& a, const MapContext& c, AtenArgs&) {
  if (c.in.size() != 2 || rank_of(c.in[1]) != 2 || rank_of(c.in[0]) < 1) unsupported("aten.linear needs a 2-D weight");
  if (c.constant && !c.is_constant(1)) unsupported("ExecuTorch's Vulkan aten.linear prepacks its weight: it must be a constant");
}
bool linear_gemm_to(const AtenArgs&, const MapContext& c, AttrMap& out) {
  if (c.in.size() < 3 || rank_of(c.in[0]) != 2 || rank_of(c.in[1]) != 2 || rank_of(c.in[2]) != 1) return false;
  out["transB"] = Attr(int64_t{1});
  return true;
}
void linear_gemm_from(const AttrMap& a, const MapContext& c, AtenArgs&) {
  if (c.in.size() != 3 || rank_of(c.in[0]) != 2 || rank_of(c.in[1]) != 2 || rank_of(c.in[2]) != 1)
    unsupported("aten.linear takes a 2-D input, a 2-D weight and a 1-D bias");
  if (c.constant && !c.is_constant(1)) unsupported("ExecuTorch's Vulkan aten.linear prepacks its weight: it must be a constant");
}
void addmm_from(const AttrMap&, const MapContext& c, AtenArgs&) {
  if (c.in.size() != 3 || rank_of(c.in[0]) != 2 || rank_of(c.in[1]) != 2)
    unsupported("aten.addmm takes 2-D matrices and a bias");
}

// ---- activations ----
// ExecuTorch's Vulkan gelu computes the tanh approximation whatever `approximate` says
// (UnaryOp.cpp), so only that form is written; the exact (erf) form is decomposed before.
void gelu_from(const AttrMap& a, const MapContext&, AtenArgs&) {
  if (str_of(a, "approximate", "none") != "tanh")
    unsupported("ExecuTorch's Vulkan aten.gelu computes the tanh approximation only (approximate = \"none\" is not "
                "implemented there)");
}
// PyTorch hardsigmoid(x) = relu6(x + 3) / 6 = clamp(x / 6 + 1/2, 0, 1): ONNX HardSigmoid with
// alpha = 1/6 (an exporter writes the float32 nearest to it) and beta = 1/2.
bool hardsigmoid_to(const AtenArgs&, const MapContext&, AttrMap& out) {
  out["alpha"] = Attr(1.0 / 6.0);
  out["beta"] = Attr(0.5);
  return true;
}
void hardsigmoid_from(const AttrMap& a, const MapContext&, AtenArgs&) {
  const Attr* al = find(a, "alpha");
  const Attr* be = find(a, "beta");
  const double alpha = al && al->is<double>() ? al->get<double>() : 0.2, beta = be && be->is<double>() ? be->get<double>() : 0.5;
  if (std::fabs(alpha - 1.0 / 6.0) > 1e-7 || beta != 0.5)
    unsupported("aten.hardsigmoid is HardSigmoid with alpha 1/6 and beta 1/2 only");
}
// ExecuTorch's Vulkan reductions (Reduce.cpp) take a dim list of one or two dims.
void reduce_from(const AttrMap& a, const MapContext& c, AtenArgs&) {
  const Attr* axes = find(a, "axes");
  const std::size_t n = axes && axes->is<Ints>() ? axes->get<Ints>().size()
                        : c.in.empty() || c.in[0].unknown_rank ? 0
                                                               : c.in[0].shape.size();
  if (n < 1 || n > 2)
    unsupported("ExecuTorch's Vulkan reductions take one or two dims, not " + std::to_string(n));
}

// ---- normalization ----
bool layer_norm_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  if (c.in.size() < 2 || c.in[1].dtype == DataType::Undefined) return false;  // ONNX needs `scale`
  if (c.out.size() != 3) return false;
  int64_t r = rank_of(c.in[0]);
  Ints ns = ints_of(a, "normalized_shape");
  if (r < 0 || ns.empty() || static_cast<int64_t>(ns.size()) > r) return false;
  out["axis"] = Attr(r - static_cast<int64_t>(ns.size()));
  return true;
}
void layer_norm_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  if (c.out.size() != 3) unsupported("aten.native_layer_norm has three outputs (out, mean, rstd)");
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  if (r < 0) unsupported("aten.native_layer_norm needs an input of known rank");
  int64_t axis = int_of(a, "axis", -1);
  if (axis < 0) axis += r;
  if (axis < 0 || axis >= r) unsupported("LayerNormalization axis out of range");
  out["normalized_shape"] = Attr(Ints(c.in[0].shape.begin() + axis, c.in[0].shape.end()));
}

// ---- shape ----
bool permute_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  Ints p = ints_of(a, "dims");
  if (r < 0 || static_cast<int64_t>(p.size()) != r) return false;
  for (int64_t& d : p) {
    if (d < -r || d >= r) return false;
    if (d < 0) d += r;
  }
  out["perm"] = Attr(p);
  return true;
}
void permute_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  if (r < 0) unsupported("aten.permute_copy needs an input of known rank");
  Ints p = ints_of(a, "perm");
  if (!find(a, "perm"))
    for (int64_t i = r - 1; i >= 0; --i) p.push_back(i);
  out["dims"] = Attr(p);
}
bool view_to(const AtenArgs& a, const MapContext&, AttrMap& out) {
  Ints s = ints_of(a, "size");
  out["shape"] = Attr(s);
  // aten.view: a 0 is a size-0 dim (ONNX Reshape's allowzero = 1).
  for (int64_t d : s)
    if (d == 0) {
      out["allowzero"] = Attr(int64_t{1});
      break;
    }
  return true;
}
void view_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  // The declared output shape is what view_copy needs; it stands in for ONNX's 0 ("copy the
  // input dim") and -1 forms, which it makes explicit.
  if (c.out.empty() || c.out[0].unknown_rank) unsupported("aten.view_copy needs an output of known shape");
  for (int64_t d : c.out[0].shape)
    if (d < 0) unsupported("aten.view_copy needs an output of known shape");
  out["size"] = Attr(c.out[0].shape);
}
bool squeeze_to(const AtenArgs& a, const MapContext& c, AttrMap&) {
  // ATen skips listed dims that are not 1; ONNX rejects them: only the common case maps.
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  if (r < 0) return false;
  for (int64_t d : ints_of(a, "dim")) {
    if (d < -r || d >= r) return false;
    if (c.in[0].shape[static_cast<std::size_t>(d < 0 ? d + r : d)] != 1) return false;
  }
  return true;
}
bool split_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  Ints s = ints_of(a, "split_sizes");
  if (s.size() != c.out.size()) return false;
  out["split"] = Attr(s);
  return true;
}
void split_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  int64_t axis = int_of(a, "axis", 0);
  if (r < 0 || axis < -r || axis >= r) unsupported("aten.split_with_sizes_copy needs an input of known rank");
  if (axis < 0) axis += r;
  Ints sizes;
  for (const TensorType& t : c.out) {
    if (rank_of(t) != r || t.shape[static_cast<std::size_t>(axis)] < 0) unsupported("Split outputs of unknown shape");
    sizes.push_back(t.shape[static_cast<std::size_t>(axis)]);
  }
  if (const Attr* s = find(a, "split"); s && s->get<Ints>() != sizes) unsupported("Split sizes disagree with the outputs");
  out["split_sizes"] = Attr(sizes);
  out["dim"] = Attr(axis);
}
// slice_copy(self, dim, start?, end?, step): None start is 0, None end is the end.
bool slice_to(const AtenArgs& a, const MapContext&, AttrMap& out) {
  int64_t step = int_of(a, "step", 1);
  if (step < 1) return false;
  out["axes"] = Attr(Ints{int_of(a, "dim", 0)});
  out["starts"] = Attr(Ints{int_of(a, "start", 0)});
  out["ends"] = Attr(Ints{int_of(a, "end", std::numeric_limits<int64_t>::max())});
  out["steps"] = Attr(Ints{step});
  return true;
}
void slice_from(const AttrMap& a, const MapContext&, AtenArgs& out) {
  Ints starts = ints_of(a, "starts"), ends = ints_of(a, "ends");
  Ints axes = ints_of(a, "axes", Ints{0}), steps = ints_of(a, "steps", Ints{1});
  if (starts.size() != 1 || ends.size() != 1 || axes.size() != 1 || steps.size() != 1)
    unsupported("aten.slice_copy slices one axis; split multi-axis Slice nodes first");
  if (steps[0] < 1) unsupported("aten.slice_copy has no negative steps");
  out["dim"] = Attr(axes[0]);
  out["start"] = Attr(starts[0]);
  if (ends[0] != std::numeric_limits<int64_t>::max()) out["end"] = Attr(ends[0]);
  out["step"] = Attr(steps[0]);
}
// select(dim, index) as StridedSlice: every other dim taken whole (begin/end masks), `dim`
// shrunk to begin = index (TensorFlow: a shrunk entry ignores end and stride).
bool select_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  int64_t d = int_of(a, "dim");
  if (r < 1 || r > 62 || d < -r || d >= r) return false;
  if (d < 0) d += r;
  const int64_t index = int_of(a, "index");
  Ints begin(static_cast<std::size_t>(r), 0), end(static_cast<std::size_t>(r), 0), strides(static_cast<std::size_t>(r), 1);
  begin[static_cast<std::size_t>(d)] = index;
  end[static_cast<std::size_t>(d)] = index + 1;
  const int64_t others = ((int64_t{1} << r) - 1) & ~(int64_t{1} << d);
  out["begin"] = Attr(begin);
  out["end"] = Attr(end);
  out["strides"] = Attr(strides);
  out["begin_mask"] = Attr(others);
  out["end_mask"] = Attr(others);
  out["shrink_axis_mask"] = Attr(int64_t{1} << d);
  return true;
}
void select_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  const int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  const Ints begin = ints_of(a, "begin"), end = ints_of(a, "end"), strides = ints_of(a, "strides", Ints(begin.size(), 1));
  const int64_t shrink = int_of(a, "shrink_axis_mask"), bm = int_of(a, "begin_mask"), em = int_of(a, "end_mask");
  if (r < 1 || int_of(a, "ellipsis_mask") || int_of(a, "new_axis_mask") || begin.size() > static_cast<std::size_t>(r) ||
      end.size() != begin.size() || strides.size() != begin.size() || shrink <= 0 || (shrink & (shrink - 1)))
    unsupported("aten.select_copy takes one index along one dim (StridedSlice with one shrink bit)");
  int64_t d = 0;
  while (!((shrink >> d) & 1)) ++d;
  if (d >= static_cast<int64_t>(begin.size())) unsupported("the shrink bit names no slice entry");
  for (std::size_t k = 0; k < begin.size(); ++k) {
    if (static_cast<int64_t>(k) == d) continue;
    const int64_t dim = c.in[0].shape[k];
    bool whole_begin = ((bm >> k) & 1) || begin[k] == 0 || (dim >= 0 && begin[k] <= -dim);
    bool whole_end = ((em >> k) & 1) || (dim >= 0 && end[k] >= dim);
    if (!whole_begin || !whole_end || strides[k] != 1)
      unsupported("aten.select_copy keeps every other dim whole; this StridedSlice also slices dim " + std::to_string(k));
  }
  out["dim"] = Attr(d);
  out["index"] = Attr(begin[static_cast<std::size_t>(d)]);
}

// constant_pad_nd's pad lists (begin, end) pairs from the last dim backwards and may cover
// only the trailing dims; ONNX pads are all begins, then all ends.
bool pad_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  int64_t r = c.in.empty() ? -1 : rank_of(c.in[0]);
  Ints p = ints_of(a, "pad");
  if (r < 0 || p.size() % 2 != 0 || static_cast<int64_t>(p.size()) > 2 * r) return false;
  Ints pads(static_cast<std::size_t>(2 * r), 0);
  for (std::size_t k = 0; k < p.size() / 2; ++k) {
    std::size_t d = static_cast<std::size_t>(r) - 1 - k;
    pads[d] = p[2 * k];
    pads[d + static_cast<std::size_t>(r)] = p[2 * k + 1];
  }
  out["pads"] = Attr(pads);
  return true;
}
void pad_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  if (str_of(a, "mode", "constant") != "constant") unsupported("aten.constant_pad_nd pads with a constant only");
  Ints pads = ints_of(a, "pads");
  std::size_t r = pads.size() / 2;
  std::size_t used = r;  // trailing dims that carry padding
  while (used > 0 && pads[r - used] == 0 && pads[2 * r - used] == 0) --used;
  Ints p;
  for (std::size_t k = 0; k < used; ++k) {
    p.push_back(pads[r - 1 - k]);
    p.push_back(pads[2 * r - 1 - k]);
  }
  out["pad"] = Attr(p);
}
// pixel_shuffle is DepthToSpace in CRD order on NCHW input.
bool pixel_shuffle_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  if (c.in.empty() || rank_of(c.in[0]) != 4 || int_of(a, "upscale_factor", 0) < 1) return false;
  out["mode"] = Attr(std::string("CRD"));
  return true;
}
void pixel_shuffle_from(const AttrMap& a, const MapContext& c, AtenArgs&) {
  if (str_of(a, "data_layout", "NCHW") != "NCHW") unsupported("aten.pixel_shuffle is NCHW only");
  if (str_of(a, "mode", "DCR") != "CRD") unsupported("aten.pixel_shuffle is DepthToSpace in CRD mode (DCR has no operator)");
  if (c.in.empty() || rank_of(c.in[0]) != 4) unsupported("aten.pixel_shuffle takes a 4-D input");
}
// repeat(self, repeats): ATen allows more repeats than dims (new leading dims); Tile does not.
bool repeat_to(const AtenArgs& a, const MapContext& c, AttrMap&) {
  return !c.in.empty() && rank_of(c.in[0]) == static_cast<int64_t>(ints_of(a, "repeats").size());
}
bool argmax_to(const AtenArgs& a, const MapContext&, AttrMap&) { return find(a, "dim") != nullptr; }
bool embedding_to(const AtenArgs&, const MapContext& c, AttrMap&) {
  return c.in.size() == 2 && rank_of(c.in[0]) == 2;
}
void embedding_from(const AttrMap& a, const MapContext& c, AtenArgs&) {
  if (int_of(a, "axis", 0) != 0 || c.in.size() != 2 || rank_of(c.in[0]) != 2)
    unsupported("aten.embedding gathers rows of a 2-D table");
}
bool index_select_to(const AtenArgs&, const MapContext& c, AttrMap&) {
  return c.in.size() == 2 && rank_of(c.in[1]) == 1;
}
// upsample_nearest2d.vec with output_size: PyTorch's nearest (src = floor(dst * in / out)) is
// ONNX Resize nearest + asymmetric + floor, the schema's defaults; output_size is H and W of
// Resize-13's full-rank sizes (N and C: X's).
bool upsample_to(const AtenArgs& a, const MapContext& c, AttrMap& out) {
  Ints s = ints_of(a, "output_size");
  if (s.size() != 2 || c.in.empty() || rank_of(c.in[0]) != 4) return false;
  const Ints& x = c.in[0].shape;
  if (x[0] < 0 || x[1] < 0) return false;
  out["sizes"] = Attr(Ints{x[0], x[1], s[0], s[1]});
  return true;
}
void upsample_from(const AttrMap& a, const MapContext& c, AtenArgs& out) {
  if (str_of(a, "data_layout", "NCHW") != "NCHW") unsupported("aten.upsample_nearest2d is NCHW only");
  Ints s = ints_of(a, "sizes");
  if (s.size() != 4 || c.in.empty() || rank_of(c.in[0]) != 4) unsupported("aten.upsample_nearest2d resizes H and W of 4-D input");
  if (s[0] != c.in[0].shape[0] || s[1] != c.in[0].shape[1]) unsupported("aten.upsample_nearest2d keeps N and C");
  out["output_size"] = Attr(Ints{s[2], s[3]});
}

}  // namespace nnbridge::formats::vkgraph::transforms
