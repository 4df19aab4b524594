// The normal form both graphs are compared in (nnbridge/diff.h): the format-neutral rewrites of
// nnbridge/rewrite.h, trailing absent inputs removed, constant convolution weights in the default
// kernel_layout, Conv's kernel_shape from W, window
// attributes' per-dim defaults spelt out.
#include <cstring>
#include <functional>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"
#include "nnbridge/rewrite.h"

namespace nnbridge::diff_detail {

namespace {

// Applies `rewrite` to a copy and keeps the result only when it succeeds: a graph a rewrite
// cannot handle (an id out of range, a type it needs unknown) is compared as it is.
void apply(Graph& g, const std::function<void(Graph&)>& rewrite) {
  try {
    Graph t = g;
    rewrite(t);
    g = std::move(t);
  } catch (const Error&) {
  }
}

// `b` (C order, shape `shape`, `elem` bytes per element) with its dims permuted: output dim i is
// input dim perm[i].
std::vector<std::byte> permuted(const Buffer& b, const std::vector<int64_t>& shape, const std::vector<std::size_t>& perm,
                                std::size_t elem) {
  const std::size_t r = shape.size();
  std::vector<int64_t> in_stride(r, 1), out_shape(r);
  for (std::size_t i = r - 1; i > 0; --i) in_stride[i - 1] = in_stride[i] * shape[i];
  for (std::size_t i = 0; i < r; ++i) out_shape[i] = shape[perm[i]];
  std::vector<std::byte> out(b.size());
  std::vector<int64_t> idx(r, 0);
  const std::size_t count = b.size() / elem;
  for (std::size_t k = 0; k < count; ++k) {
    int64_t src = 0;
    for (std::size_t i = 0; i < r; ++i) src += idx[i] * in_stride[perm[i]];
    std::memcpy(out.data() + k * elem, b.data() + static_cast<std::size_t>(src) * elem, elem);
    for (std::size_t d = r; d-- > 0;) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return out;
}

// A constant 4-D W in another kernel_layout becomes W in the schema's default (Conv OIHW,
// ConvTranspose IOHW; nnbridge/op_schema.h's kernel_layout): the same weights at the positions
// the default layout gives them, so a converter's permutation of the weights is not a
// difference. Depthwise [M, I, H, W] (MIHW) is [I * M, 1, H, W] in OIHW: output channel
// i * M + m, ONNX's grouped-convolution order. Per-axis quantization moves with its axis (MIHW's
// is left as it is).
void weights_in_default_layout(Graph& g) {
  for (Node& n : g.nodes) {
    if ((n.op != "Conv" && n.op != "ConvTranspose") || n.inputs.size() < 2 || n.inputs[1] >= g.values.size()) continue;
    auto kl = n.attrs.find("kernel_layout");
    if (kl == n.attrs.end() || !kl->second.is<std::string>()) continue;
    const std::string& layout = kl->second.get<std::string>();
    const Value& w = g.values[n.inputs[1]];
    const std::vector<int64_t>& s = w.type.shape;
    if (!w.constant || w.type.unknown_rank || s.size() != 4 || !w.type.byte_size() ||
        static_cast<std::size_t>(*w.type.byte_size()) != w.constant->size())
      continue;
    std::vector<std::size_t> perm;
    std::vector<int64_t> shape;
    const bool conv = n.op == "Conv";
    if (conv && layout == "OHWI") perm = {0, 3, 1, 2};
    else if (conv && layout == "1HWO") perm = {3, 0, 1, 2};
    else if (conv && layout == "HWIO") perm = {3, 2, 0, 1};
    else if (conv && layout == "MIHW" && !(w.type.quantization && w.type.quantization->axis))
      perm = {1, 0, 2, 3}, shape = {s[1] * s[0], 1, s[2], s[3]};
    else if (!conv && layout == "OHWI") perm = {3, 0, 1, 2};
    else if (!conv && layout == "OIHW") perm = {1, 0, 2, 3};
    else continue;
    Value v = w;
    v.name = w.name + ".in_default_layout";
    v.constant = Buffer::owned(permuted(*w.constant, s, perm, element_size(w.type.dtype)));
    if (shape.empty())
      for (std::size_t i = 0; i < 4; ++i) shape.push_back(s[perm[i]]);
    v.type.shape = shape;
    if (v.type.quantization && v.type.quantization->axis)
      for (std::size_t i = 0; i < 4; ++i)
        if (static_cast<int64_t>(perm[i]) == *v.type.quantization->axis) {
          v.type.quantization->axis = static_cast<int64_t>(i);
          break;
        }
    n.inputs[1] = g.add_value(std::move(v));
    n.attrs.erase(kl);
  }
}

// ONNX Conv-11 / ConvTranspose-11: kernel_shape, when absent, is W's spatial shape. Where the
// spatial dims lie in W follows kernel_layout (the op schema's, nnbridge/op_schema.h).
void kernel_shape_from_weights(Graph& g) {
  for (Node& n : g.nodes) {
    if ((n.op != "Conv" && n.op != "ConvTranspose") || n.attrs.count("kernel_shape") || n.inputs.size() < 2) continue;
    const ValueId w = n.inputs[1];
    if (w >= g.values.size()) continue;
    const TensorType& t = g.values[w].type;
    if (t.unknown_rank || t.shape.size() < 3) continue;
    std::string layout = n.op == "Conv" ? "OIHW" : "IOHW";
    if (auto it = n.attrs.find("kernel_layout"); it != n.attrs.end() && it->second.is<std::string>())
      layout = it->second.get<std::string>();
    const std::size_t r = t.shape.size(), ns = r - 2;
    std::size_t first = 2;  // OIHW, IOHW, MIHW
    if (layout == "OHWI" || layout == "1HWO") first = 1;
    else if (layout == "HWIO") first = 0;
    else if (layout != "OIHW" && layout != "IOHW" && layout != "MIHW") continue;
    std::vector<int64_t> k(t.shape.begin() + static_cast<std::ptrdiff_t>(first),
                           t.shape.begin() + static_cast<std::ptrdiff_t>(first + ns));
    bool known = true;
    for (int64_t d : k) known = known && d > 0;
    if (known) n.attrs["kernel_shape"] = Attr(std::move(k));
  }
}

// The window attributes whose absence ONNX defines per spatial dim (Conv-11, ConvTranspose-11,
// MaxPool-12, AveragePool-11, LpPool-11: strides and dilations "default is 1 along each spatial
// axis", pads "default to 0 along start and end of each spatial axis"), spelt out with the
// spatial rank from kernel_shape, on every op whose schema has these attributes.
void explicit_window_defaults(Graph& g) {
  for (Node& n : g.nodes) {
    const OpSchema* s = find_schema(n.op);
    auto k = n.attrs.find("kernel_shape");
    if (!s || k == n.attrs.end() || !k->second.is<std::vector<int64_t>>()) continue;
    const std::size_t ns = k->second.get<std::vector<int64_t>>().size();
    for (const char* name : {"strides", "dilations"})
      if (s->find_attr(name) && !n.attrs.count(name)) n.attrs[name] = Attr(std::vector<int64_t>(ns, 1));
    auto ap = n.attrs.find("auto_pad");
    const bool notset = ap == n.attrs.end() || (ap->second.is<std::string>() && ap->second.get<std::string>() == "NOTSET");
    if (s->find_attr("pads") && notset && !n.attrs.count("pads")) n.attrs["pads"] = Attr(std::vector<int64_t>(2 * ns, 0));
  }
}

// Optional inputs given as the constant ONNX means when they are absent are dropped, so that a
// format that spells them out (Arm NN's Pad value, Slice's steps) and one that leaves them out
// compare equal: Pad-13 constant_value (input 2) 0 ("by default it is 0"), Slice-13 steps
// (input 4) all 1 ("default to 1s"). Only as the last input; trailing absent ones go too.
void default_operands_dropped(Graph& g) {
  auto all_bytes_zero = [](const Buffer& b) {
    for (std::byte x : b.bytes())
      if (x != std::byte{0}) return false;
    return true;
  };
  auto all_ones = [](const Value& v) {
    const Buffer& b = *v.constant;
    if (v.type.dtype == DataType::Int64 && b.size() % 8 == 0) {
      for (std::size_t i = 0; i < b.size(); i += 8) {
        int64_t x;
        std::memcpy(&x, b.data() + i, 8);
        if (x != 1) return false;
      }
      return true;
    }
    if (v.type.dtype == DataType::Int32 && b.size() % 4 == 0) {
      for (std::size_t i = 0; i < b.size(); i += 4) {
        int32_t x;
        std::memcpy(&x, b.data() + i, 4);
        if (x != 1) return false;
      }
      return true;
    }
    return false;
  };
  for (Node& n : g.nodes) {
    if (n.inputs.empty()) continue;
    const std::size_t last = n.inputs.size() - 1;
    if (n.inputs[last] >= g.values.size()) continue;
    const Value& v = g.values[n.inputs[last]];
    if (!v.constant) continue;
    const bool drop = (n.op == "Pad" && last == 2 && v.type.element_count() == 1 && all_bytes_zero(*v.constant)) ||
                      (n.op == "Slice" && last == 4 && all_ones(v));
    if (!drop) continue;
    n.inputs.pop_back();
    while (!n.inputs.empty() && n.inputs.back() == kNoValue) n.inputs.pop_back();
  }
}

}  // namespace

Graph normal_form(const Graph& in) {
  Graph g = in;
  apply(g, [](Graph& t) { infer_missing_types(t); });
  apply(g, [](Graph& t) { explicit_transpose_perm(t); });
  apply(g, [](Graph& t) { explicit_pads(t); });
  apply(g, [](Graph& t) { asymmetric_pads_as_pad(t); });
  apply(g, [](Graph& t) { global_pools_as_windows(t); });
  apply(g, [](Graph& t) { shape_ops_as_reshape(t); });
  apply(g, [](Graph& t) { reshape_shape_as_attribute(t); });
  apply(g, [](Graph& t) { drop_identity(t); });
  apply(g, weights_in_default_layout);
  apply(g, kernel_shape_from_weights);
  apply(g, explicit_window_defaults);
  for (Node& n : g.nodes)
    while (!n.inputs.empty() && n.inputs.back() == kNoValue) n.inputs.pop_back();
  apply(g, default_operands_dropped);
  return g;
}

}  // namespace nnbridge::diff_detail
