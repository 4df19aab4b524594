// Rewrites a graph into the forms ATen operators take before the writer maps it, with every
// change an explicit node or constant of the written graph (nothing is reinterpreted):
// - NHWC Conv / ConvTranspose / MaxPool / AveragePool / Resize (Arm NN's default layout): a
//   Transpose to NCHW before the op and one back to NHWC after it (ATen convolutions and
//   pools are NCHW; PyTorch documents no NHWC form of aten.convolution);
// - convolution weights in Arm NN layouts (OHWI, 1HWO and MIHW depthwise; OHWI/OIHW for the
//   transposed case) permuted once into PyTorch's OIHW / IOHW constants;
// - Gemm whose A has rank > 2 (Arm NN FullyConnected): a Reshape of A to [M, K] first; Gemm
//   without C and with alpha 1: the MatMul it is (aten.mm / aten.linear);
// - Softmax / LogSoftmax with beta != 1 (Arm NN): a Mul by beta first;
// - Square, ScaledTanh, Affine (Arm NN activations): Mul / Tanh / Add of constants;
// - BatchNormalization (inference): a Mul and an Add by per-channel constants folded from
//   scale, B, mean, var and epsilon (ONNX BatchNormalization-15: y = (x - mean) * scale /
//   sqrt(var + epsilon) + B).
// - an Identity in front of a graph output (Arm NN's Output layer): dropped, its producer
//   writing the output value.
// - first, where any applies, the format-neutral rewrites of nnbridge/rewrite.h: value types a
//   file left unknown (an ONNX model without value_info) inferred, shape arithmetic of a graph
//   from another format folded to constants, GlobalAveragePool /
//   GlobalMaxPool as one window, Flatten / Squeeze / Unsqueeze as Reshape, Transpose's default
//   perm, Reshape's constant shape input as its attribute, auto_pad as pads and pads that differ
//   at the two ends of a dim as an explicit Pad in front (ATen's padding is symmetric), and last
//   the operand inputs ATen takes as arguments (Slice starts / ends / axes / steps, Pad pads and
//   constant_value, Split split, Clip min / max, ReduceSum axes, Resize sizes, ...) as the
//   attributes the mapping rows read: they must be constants.
// - forms ExecuTorch's Vulkan runtime registers (writer.cc's list): MatMul as aten.linear /
//   mm / bmm (Reshapes around), LayerNormalization with its Mean / InvStdDev outputs, Erf and
//   exact Gelu as arithmetic, HardSigmoid of other alpha / beta as Mul, Add, Clip, Gather of one
//   constant index as select, Max and Elu through aten.where; quantized tensors refused.
// Nodes that need none of this, and nodes read from a VkGraph (`vk.name`), are copied unchanged.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/order.h"
#include "nnbridge/rewrite.h"

namespace nnbridge::formats::vkgraph {

namespace {

using Ints = std::vector<int64_t>;

const std::string* str_attr(const Node& n, const char* k) {
  auto it = n.attrs.find(k);
  return it != n.attrs.end() && it->second.is<std::string>() ? &it->second.get<std::string>() : nullptr;
}
int64_t int_attr(const Node& n, const char* k, int64_t def) {
  auto it = n.attrs.find(k);
  return it != n.attrs.end() && it->second.is<int64_t>() ? it->second.get<int64_t>() : def;
}
double float_attr(const Node& n, const char* k, double def) {
  auto it = n.attrs.find(k);
  return it != n.attrs.end() && it->second.is<double>() ? it->second.get<double>() : def;
}

// Element order of `in` (shape `shape`) permuted so that output dim i is input dim perm[i].
Buffer permute_bytes(const Buffer& in, const Ints& shape, const Ints& perm, std::size_t elem) {
  const std::size_t r = shape.size();
  Ints out_shape(r), in_strides(r, 1);
  for (std::size_t i = r; i-- > 1;) in_strides[i - 1] = in_strides[i] * shape[i];
  for (std::size_t i = 0; i < r; ++i) out_shape[i] = shape[static_cast<std::size_t>(perm[i])];
  int64_t total = 1;
  for (int64_t d : shape) total *= d;
  std::vector<std::byte> out(in.size());
  Ints idx(r, 0);
  for (int64_t k = 0; k < total; ++k) {
    int64_t src = 0;
    for (std::size_t i = 0; i < r; ++i) src += idx[i] * in_strides[static_cast<std::size_t>(perm[i])];
    std::memcpy(out.data() + k * elem, in.data() + src * elem, elem);
    for (std::size_t d = r; d-- > 0;) {
      if (++idx[d] < out_shape[d]) break;
      idx[d] = 0;
    }
  }
  return Buffer::owned(std::move(out));
}

class Lowering {
 public:
  explicit Lowering(const Graph& g) : src_(g) {
    // Every field of Graph but its nodes, which run() moves in one by one.
    out_.values = g.values;
    out_.inputs = g.inputs;
    out_.outputs = g.outputs;
    out_.metadata = g.metadata;
    out_.source_format = g.source_format;
  }

  Lowered run() {
    superseded_.assign(src_.values.size(), false);
    bypass_output_copies();
    // Each node is moved on (not copied again): the writer's peak memory is a few copies of the
    // graph at most (bench/README.md, scale).
    out_.nodes.reserve(nodes_.size());
    for (Node& n : nodes_) lower(std::move(n));
    nodes_ = {};
    superseded_.resize(out_.values.size(), false);
    return Lowered{std::move(out_), std::move(superseded_)};
  }

  // Arm NN's Output layers read as Identity nodes in front of each graph output. A VkGraph
  // names its outputs by value, so the producer writes the output value itself and later
  // readers of the copied value read it there (an Identity of a value another node produces
  // and that is not itself a graph output; semantics unchanged).
  void bypass_output_copies() {
    // A VkGraph chain runs in its stored order: producers first (topological_order keeps an
    // ordered graph's order, so a VkGraph read and written again keeps its chain).
    nodes_.clear();
    for (std::size_t i : topological_order(src_)) nodes_.push_back(src_.nodes[i]);
    const std::size_t nv = src_.values.size();
    std::vector<int> producer(nv, -1);
    std::vector<bool> is_output(nv, false);
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      for (ValueId v : nodes_[i].outputs)
        if (v < nv) producer[v] = static_cast<int>(i);
    for (ValueId v : src_.outputs)
      if (v < nv) is_output[v] = true;
    std::vector<ValueId> renamed(nv);
    for (ValueId v = 0; v < nv; ++v) renamed[v] = v;
    std::vector<bool> drop(nodes_.size(), false);
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      Node& n = nodes_[i];
      if (n.op != "Identity" || n.attrs.count("vk.name") || n.inputs.size() != 1 || n.outputs.size() != 1) continue;
      const ValueId x = n.inputs[0], y = n.outputs[0];
      if (x >= nv || y >= nv || producer[x] < 0 || is_output[x] || !is_output[y]) continue;
      Node& p = nodes_[static_cast<std::size_t>(producer[x])];
      if (p.op.rfind("vk.", 0) == 0 || p.attrs.count("vk.name") || !(out_.values[x].type == out_.values[y].type)) continue;
      for (ValueId& o : p.outputs)
        if (o == x) o = y;
      producer[y] = producer[x];
      renamed[x] = y;
      superseded_[x] = true;
      drop[i] = true;
    }
    // Readers before and after the dropped copy now read the value the producer writes.
    std::vector<Node> kept;
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (drop[i]) continue;
      for (ValueId& v : nodes_[i].inputs)
        if (v != kNoValue && v < nv) v = renamed[v];
      kept.push_back(std::move(nodes_[i]));
    }
    nodes_ = std::move(kept);
  }

  std::string unique(const std::string& base) {
    if (!names_built_) {  // only graphs that need new values pay for the set of names
      for (const auto& v : out_.values) names_.insert(v.name);
      names_built_ = true;
    }
    std::string n = base;
    for (int k = 1; names_.count(n); ++k) n = base + "_" + std::to_string(k);
    names_.insert(n);
    return n;
  }
  ValueId add_value(const std::string& base, TensorType t, std::optional<Buffer> data = std::nullopt) {
    Value v;
    v.name = unique(base);
    v.type = std::move(t);
    v.constant = std::move(data);
    return out_.add_value(std::move(v));
  }
  const TensorType& type(ValueId v) const { return out_.values[v].type; }
  [[noreturn]] void unsupported(const Node& n, const std::string& why, ErrorId id = ErrorId::NoForm) const {
    throw Error(id, "node '" + n.name + "' (" + n.op + "): " + why);
  }

  ValueId transpose(ValueId x, const Ints& perm, const std::string& name) {
    TensorType t = type(x);
    t.quantization.reset();
    Ints s = t.shape;
    for (std::size_t i = 0; i < perm.size(); ++i) t.shape[i] = s[static_cast<std::size_t>(perm[i])];
    ValueId y = add_value(name, t);
    out_.add_node(Node{"Transpose", name, {x}, {y}, {{"perm", Attr(perm)}}});
    return y;
  }

  // A constant input permuted (and reshaped) into a new constant value.
  ValueId permuted_constant(const Node& n, ValueId w, const Ints& perm, Ints final_shape = {}) {
    const Value& v = out_.values[w];
    if (!v.constant) unsupported(n, "its weights must be a constant to change their layout");
    if (v.type.shape.size() != perm.size()) unsupported(n, "weights of unexpected rank");
    TensorType t = v.type;
    for (std::size_t i = 0; i < perm.size(); ++i) t.shape[i] = v.type.shape[static_cast<std::size_t>(perm[i])];
    if (!final_shape.empty()) t.shape = final_shape;
    Buffer b = permute_bytes(*v.constant, v.type.shape, perm, element_size(v.type.dtype));
    superseded_[w] = true;
    return add_value(v.name + ".aten", t, std::move(b));
  }

  ValueId scalar_constant(float x, const std::string& name, Ints shape = {1}) {
    std::vector<std::byte> b(sizeof x);
    std::memcpy(b.data(), &x, sizeof x);
    return add_value(name, TensorType{DataType::Float32, std::move(shape), false, std::nullopt}, Buffer::owned(std::move(b)));
  }

  void lower(Node n) {
    // Native operators, and nodes read from a VkGraph (their operator expresses them), pass.
    if (n.op.rfind("vk.", 0) == 0 || n.attrs.count("vk.name")) return out_.add_node(std::move(n)), void();
    refuse_quantized(n);
    weights(n);
    if (n.op == "Gemm") gemm(n);
    if (n.op == "MatMul" && matmul(n)) return;
    if (n.op == "Gather") gather_scalar(n);
    if (n.op == "Max" || n.op == "Elu") return select_form(n);
    if (n.op == "LayerNormalization") layer_norm_outputs(n);
    if (n.op == "Erf") return erf(n.inputs.at(0), n.outputs.at(0), n.name, n), void();
    if (n.op == "Gelu" && (!str_attr(n, "approximate") || *str_attr(n, "approximate") != "tanh")) return gelu(n);
    if (n.op == "HardSigmoid" && (std::fabs(float_attr(n, "alpha", 0.2) - 1.0 / 6.0) > 1e-7 || float_attr(n, "beta", 0.5) != 0.5))
      return hard_sigmoid(n);
    if ((n.op == "Softmax" || n.op == "LogSoftmax") && float_attr(n, "beta", 1.0) != 1.0) {
      float beta = static_cast<float>(float_attr(n, "beta", 1.0));
      ValueId c = scalar_constant(beta, n.name + ".beta");
      ValueId scaled = add_value(n.name + ".scaled", type(n.inputs[0]));
      out_.add_node(Node{"Mul", n.name + ".beta_mul", {n.inputs[0], c}, {scaled}, {}});
      n.inputs[0] = scaled;
      n.attrs.erase("beta");
    }
    if (n.op == "BatchNormalization") return batch_norm(n);
    if (n.op == "Square" || n.op == "ScaledTanh" || n.op == "Affine") return activation(n);
    const std::string* layout = str_attr(n, "data_layout");
    static const std::set<std::string> spatial{"Conv", "ConvTranspose", "MaxPool", "AveragePool", "Resize"};
    if (!layout || *layout != "NHWC" || !spatial.count(n.op)) return out_.add_node(std::move(n)), void();
    if (type(n.inputs[0]).shape.size() != 4 || n.outputs.size() != 1) unsupported(n, "NHWC with rank other than 4");
    n.inputs[0] = transpose(n.inputs[0], {0, 3, 1, 2}, n.name + ".to_nchw");
    n.attrs.erase("data_layout");
    if (n.op == "Resize") {
      auto it = n.attrs.find("sizes");
      if (it != n.attrs.end() && it->second.get<Ints>().size() == 4) {
        Ints s = it->second.get<Ints>();
        it->second = Attr(Ints{s[0], s[3], s[1], s[2]});
      }
    }
    ValueId y = n.outputs[0];
    TensorType t = type(y);
    t.shape = {t.shape[0], t.shape[3], t.shape[1], t.shape[2]};
    ValueId y_nchw = add_value(out_.values[y].name + ".nchw", t);
    n.outputs[0] = y_nchw;
    std::string name = n.name;
    out_.add_node(std::move(n));
    out_.add_node(Node{"Transpose", name + ".to_nhwc", {y_nchw}, {y}, {{"perm", Attr(Ints{0, 2, 3, 1})}}});
  }

  // Quantized tensors (Arm NN QAsymmU8 / QAsymmS8 / QSymmS8 / QSymmS16, ONNX's quantized types)
  // have no VkGraph form nnbridge writes: a VkTensor holds no scale or zero point, and ExecuTorch's
  // Vulkan runtime computes on quantized values only inside its int8 operators
  // (quantized_decomposed.quantize_per_tensor / dequantize_per_tensor and et_vk.q8ta_*, which take
  // int8 tensors in packed-int8 memory layouts, PACKED_INT8_*; no uint8 operator at all).
  void refuse_quantized(const Node& n) const {
    auto check = [&](ValueId v, const char* role, std::size_t k) {
      if (v == kNoValue || v >= out_.values.size()) return;
      const Value& val = out_.values[v];
      if (!is_quantized(val.type.dtype) && !val.type.quantization) return;
      std::string q = std::string(to_string(val.type.dtype));
      if (const auto& p = val.type.quantization; p && p->scales.size() == 1)
        q += " (scale " + std::to_string(p->scales[0]) +
             (p->zero_points.empty() ? std::string() : ", zero point " + std::to_string(p->zero_points[0])) + ")";
      else if (p && p->scales.size() > 1)
        q += " (per-axis, " + std::to_string(p->scales.size()) + " scales)";
      const bool u8 = val.type.dtype == DataType::QAsymmU8 || val.type.dtype == DataType::UInt8;
      unsupported(n, std::string(role) + " " + std::to_string(k) + " '" + val.name + "' is " + q +
                         ": a VkTensor holds no scale or zero point, and ExecuTorch's Vulkan runtime computes on "
                         "quantized values only in its int8 operators (quantize_per_tensor / dequantize_per_tensor, "
                         "et_vk.q8ta_*: int8 tensors in packed-int8 layouts)" +
                         (u8 ? "; it has none for uint8" : "; nnbridge does not write that form"),
                  ErrorId::DataType);
    };
    for (std::size_t k = 0; k < n.inputs.size(); ++k) check(n.inputs[k], "input", k);
    for (std::size_t k = 0; k < n.outputs.size(); ++k) check(n.outputs[k], "output", k);
  }

  // A float32 constant `x` of rank `rank` (all dims 1: it broadcasts against any tensor of that
  // rank without changing its shape).
  ValueId splat(float x, const std::string& name, std::size_t rank) { return scalar_constant(x, name, Ints(rank, 1)); }
  ValueId binary(const char* op, ValueId a, ValueId b, const TensorType& t, const std::string& name) {
    ValueId y = add_value(name, t);
    out_.add_node(Node{op, name, {a, b}, {y}, {}});
    return y;
  }
  ValueId unary(const char* op, ValueId a, const TensorType& t, const std::string& name) {
    ValueId y = add_value(name, t);
    out_.add_node(Node{op, name, {a}, {y}, {}});
    return y;
  }
  const TensorType& float_input(const Node& n) const {
    const TensorType& t = type(n.inputs.at(0));
    if (t.dtype != DataType::Float32 || t.unknown_rank) unsupported(n, "only float32 of known rank is decomposed");
    return t;
  }

  // Erf has no ExecuTorch Vulkan operator: erf(x) = sign(x) * (1 - poly(t) * exp(-x^2)) with
  // t = 1 / (1 + p |x|) (Abramowitz & Stegun, Handbook of Mathematical Functions, 7.1.26; absolute
  // error <= 1.5e-7), the sign through where(x < 0, -y, y). Writes `y`.
  void erf(ValueId x, ValueId y, const std::string& name, const Node& n) {
    const TensorType t = float_input(n);
    const std::size_t r = t.shape.size();
    const std::string b = name + ".erf";
    ValueId ax = unary("Abs", x, t, b + ".abs");
    ValueId d = binary("Add", binary("Mul", ax, splat(0.3275911f, b + ".p", r), t, b + ".px"), splat(1.0f, b + ".one", r), t,
                       b + ".den");
    ValueId tt = binary("Div", splat(1.0f, b + ".one_t", r), d, t, b + ".t");
    const float a[5] = {0.254829592f, -0.284496736f, 1.421413741f, -1.453152027f, 1.061405429f};
    ValueId h = binary("Mul", tt, splat(a[4], b + ".a5", r), t, b + ".h5");
    for (int k = 3; k >= 0; --k) {
      const std::string s = std::to_string(k + 1);
      h = binary("Mul", binary("Add", h, splat(a[k], b + ".a" + s, r), t, b + ".s" + s), tt, t, b + ".h" + s);
    }
    ValueId e = unary("Exp", unary("Neg", binary("Mul", x, x, t, b + ".x2"), t, b + ".nx2"), t, b + ".exp");
    ValueId pos = binary("Sub", splat(1.0f, b + ".one_y", r), binary("Mul", h, e, t, b + ".he"), t, b + ".pos");
    TensorType bt = t;
    bt.dtype = DataType::Bool;
    ValueId neg = binary("Less", x, splat(0.0f, b + ".zero", r), bt, b + ".neg");
    out_.add_node(Node{"Where", name, {neg, unary("Neg", pos, t, b + ".negated"), pos}, {y}, {}});
  }

  // Gelu (ONNX Gelu-20, approximate "none"): x * 0.5 * (1 + erf(x / sqrt(2))), Erf as above
  // (ExecuTorch's Vulkan gelu computes the tanh form only).
  void gelu(const Node& n) {
    const TensorType t = float_input(n);
    const std::size_t r = t.shape.size();
    const ValueId x = n.inputs[0];
    ValueId z = binary("Mul", x, splat(static_cast<float>(1.0 / std::sqrt(2.0)), n.name + ".rsqrt2", r), t, n.name + ".z");
    ValueId ez = add_value(n.name + ".erf_z", t);
    erf(z, ez, n.name + ".erf_z", n);
    ValueId phi = binary("Mul", binary("Add", ez, splat(1.0f, n.name + ".one", r), t, n.name + ".erf1"),
                         splat(0.5f, n.name + ".half", r), t, n.name + ".phi");
    out_.add_node(Node{"Mul", n.name, {x, phi}, {n.outputs.at(0)}, {}});
  }

  // Operators ExecuTorch's Vulkan runtime does not register, as a choice between registered
  // ones (aten.where.self): Max(a, b, ...) = where(a >= b, a, b) pairwise (ONNX Max-13, NumPy
  // broadcasting); Elu(x) = where(x > 0, x, alpha * (exp(x) - 1)) (ONNX Elu-6).
  void select_form(const Node& n) {
    const TensorType y = type(n.outputs.at(0));
    if (y.unknown_rank) unsupported(n, "needs an output of known rank");
    TensorType bt = y;
    bt.dtype = DataType::Bool;
    bt.quantization.reset();
    const std::size_t r = y.shape.size();
    if (n.op == "Max") {
      if (n.inputs.empty()) unsupported(n, "Max needs an input");
      ValueId acc = n.inputs[0];
      for (std::size_t k = 1; k < n.inputs.size(); ++k) {
        const std::string b = n.name + ".max" + std::to_string(k);
        ValueId ge = binary("GreaterOrEqual", acc, n.inputs[k], bt, b + ".ge");
        ValueId out = k + 1 == n.inputs.size() ? n.outputs[0] : add_value(b, y);
        out_.add_node(Node{"Where", k + 1 == n.inputs.size() ? n.name : b, {ge, acc, n.inputs[k]}, {out}, {}});
        acc = out;
      }
      if (n.inputs.size() == 1) out_.add_node(Node{"Identity", n.name, {n.inputs[0]}, {n.outputs[0]}, {}});
      return;
    }
    const TensorType t = float_input(n);
    const ValueId x = n.inputs[0];
    ValueId pos = binary("Greater", x, splat(0.0f, n.name + ".zero", r), bt, n.name + ".pos");
    ValueId em1 = binary("Sub", unary("Exp", x, t, n.name + ".exp"), splat(1.0f, n.name + ".one", r), t, n.name + ".expm1");
    ValueId neg = binary("Mul", em1, splat(static_cast<float>(float_attr(n, "alpha", 1.0)), n.name + ".alpha", r), t,
                         n.name + ".neg");
    out_.add_node(Node{"Where", n.name, {pos, x, neg}, {n.outputs[0]}, {}});
  }

  // HardSigmoid other than PyTorch's (alpha 1/6, beta 1/2): clip(alpha * x + beta, 0, 1).
  void hard_sigmoid(const Node& n) {
    const TensorType t = float_input(n);
    const std::size_t r = t.shape.size();
    ValueId ax = binary("Mul", n.inputs[0], splat(static_cast<float>(float_attr(n, "alpha", 0.2)), n.name + ".alpha", r), t,
                        n.name + ".ax");
    ValueId axb = binary("Add", ax, splat(static_cast<float>(float_attr(n, "beta", 0.5)), n.name + ".beta", r), t,
                         n.name + ".axb");
    out_.add_node(Node{"Clip", n.name, {axb}, {n.outputs.at(0)}, {{"min", Attr(0.0)}, {"max", Attr(1.0)}}});
  }

  // aten.native_layer_norm has three outputs: a LayerNormalization without Mean / InvStdDev gets
  // new values for them (ONNX LayerNormalization-17 shapes: X's dims before `axis`, then 1s).
  // The axis is made non-negative (normalized_shape says it so).
  void layer_norm_outputs(Node& n) {
    if (n.inputs.empty()) return;
    const TensorType x = type(n.inputs[0]);
    if (x.unknown_rank) unsupported(n, "LayerNormalization needs an input of known rank");
    const int64_t rank = static_cast<int64_t>(x.shape.size());
    int64_t axis = int_attr(n, "axis", -1);
    if (axis < 0) axis += rank;
    if (axis < 0 || axis >= rank) unsupported(n, "axis out of range");
    n.attrs["axis"] = Attr(axis);
    TensorType stat{DataType::Float32, x.shape, false, std::nullopt};
    for (int64_t d = axis; d < rank; ++d) stat.shape[static_cast<std::size_t>(d)] = 1;
    while (n.outputs.size() < 3)
      n.outputs.push_back(add_value(n.name + (n.outputs.size() == 1 ? ".mean" : ".rstd"), stat));
  }

  // Gather of one constant index (a rank-0 indices tensor: the dim dropped) is aten.select_copy,
  // the canonical StridedSlice with one shrink bit (begin = index, every other dim whole).
  void gather_scalar(Node& n) {
    if (n.inputs.size() != 2) return;
    const Value& idx = out_.values[n.inputs[1]];
    const TensorType x = type(n.inputs[0]);
    if (!idx.constant || idx.type.unknown_rank || !idx.type.shape.empty() || x.unknown_rank) return;
    if (idx.type.dtype != DataType::Int64 && idx.type.dtype != DataType::Int32) return;
    int64_t index = 0;
    if (idx.type.dtype == DataType::Int64) std::memcpy(&index, idx.constant->data(), 8);
    else {
      int32_t i32 = 0;
      std::memcpy(&i32, idx.constant->data(), 4);
      index = i32;
    }
    const int64_t r = static_cast<int64_t>(x.shape.size());
    int64_t d = int_attr(n, "axis", 0);
    if (d < 0) d += r;
    if (r < 1 || r > 62 || d < 0 || d >= r) return;
    Ints begin(static_cast<std::size_t>(r), 0), end(static_cast<std::size_t>(r), 0), strides(static_cast<std::size_t>(r), 1);
    begin[static_cast<std::size_t>(d)] = index;
    end[static_cast<std::size_t>(d)] = index + 1;
    const int64_t others = ((int64_t{1} << r) - 1) & ~(int64_t{1} << d);
    n.op = "StridedSlice";
    n.inputs.resize(1);
    n.attrs = {{"begin", Attr(begin)},         {"end", Attr(end)},         {"strides", Attr(strides)},
               {"begin_mask", Attr(others)},   {"end_mask", Attr(others)}, {"shrink_axis_mask", Attr(int64_t{1} << d)}};
  }

  // MatMul forms ATen takes (aten.mm: 2-D x 2-D; aten.bmm: 3-D x 3-D of one batch; aten.linear:
  // any input x a constant [N, K] weight). Returns true when it wrote the node itself.
  bool matmul(Node& n) {
    if (n.inputs.size() != 2 || int_attr(n, "transA", 0) != 0 || int_attr(n, "transB", 0) != 0) return false;
    const TensorType a = type(n.inputs[0]), b = type(n.inputs[1]);
    if (a.unknown_rank || b.unknown_rank) return false;
    const std::size_t ra = a.shape.size(), rb = b.shape.size();
    if ((ra == 2 && rb == 2) || (ra == 3 && rb == 3)) return false;  // aten.mm / aten.bmm as they are
    if (rb == 2 && ra > 2 && out_.values[n.inputs[1]].constant) {
      // A constant B [K, N] as linear's weight [N, K] (transB), once.
      n.inputs[1] = permuted_constant(n, n.inputs[1], {1, 0});
      n.attrs["transB"] = Attr(int64_t{1});
      return false;
    }
    const TensorType y = type(n.outputs.at(0));
    auto known = [](const Ints& s) { return std::all_of(s.begin(), s.end(), [](int64_t d) { return d >= 0; }); };
    if (!known(a.shape) || !known(b.shape) || !known(y.shape) || ra < 2 || rb < 2) return false;
    auto reshaped = [&](ValueId v, const TensorType& t, Ints shape, const std::string& name) {
      TensorType u = t;
      u.quantization.reset();
      u.shape = std::move(shape);
      ValueId r = add_value(name, u);
      out_.add_node(Node{"Reshape", name, {v}, {r}, {{"shape", Attr(u.shape)}}});
      return r;
    };
    const int64_t m = a.shape[ra - 2], k = a.shape[ra - 1], nn = b.shape[rb - 1];
    int64_t batch = 1;
    for (std::size_t d = 0; d + 2 < ra; ++d) batch *= a.shape[d];
    TensorType mid = y;
    mid.quantization.reset();
    ValueId a2, b2;
    if (rb == 2) {  // [..., M, K] x [K, N]: one [batch * M, K] x [K, N] product
      a2 = reshaped(n.inputs[0], a, {batch * m, k}, n.name + ".a2d");
      b2 = n.inputs[1];
      mid.shape = {batch * m, nn};
    } else if (ra == rb && std::equal(a.shape.begin(), a.shape.end() - 2, b.shape.begin())) {  // one batch: bmm
      a2 = reshaped(n.inputs[0], a, {batch, m, k}, n.name + ".a3d");
      b2 = reshaped(n.inputs[1], b, {batch, k, nn}, n.name + ".b3d");
      mid.shape = {batch, m, nn};
    } else {
      unsupported(n, "aten.mm / aten.bmm do not broadcast batch dims (A " + std::to_string(ra) + "-D, B " +
                         std::to_string(rb) + "-D with other batch dims)");
    }
    ValueId prod = add_value(n.name + ".product", mid);
    out_.add_node(Node{"MatMul", n.name + ".mm", {a2, b2}, {prod}, {}});
    out_.add_node(Node{"Reshape", n.name, {prod}, {n.outputs[0]}, {{"shape", Attr(y.shape)}}});
    return true;
  }

  // Arm NN weight layouts -> PyTorch's (OIHW for Conv, IOHW for the transposed convolution).
  void weights(Node& n) {
    if ((n.op != "Conv" && n.op != "ConvTranspose") || n.inputs.size() < 2) return;
    const std::string* kl = str_attr(n, "kernel_layout");
    if (!kl) return;
    const ValueId w = n.inputs[1];
    const Ints s = type(w).shape;
    if (s.size() != 4) unsupported(n, "weights must be 4-D");
    if (n.op == "Conv" && *kl == "OHWI") n.inputs[1] = permuted_constant(n, w, {0, 3, 1, 2});
    else if (n.op == "Conv" && *kl == "1HWO") n.inputs[1] = permuted_constant(n, w, {3, 0, 1, 2});  // [C*M, 1, H, W]
    else if (n.op == "Conv" && *kl == "MIHW")  // [M, I, H, W] -> [I, M, H, W] -> [I*M, 1, H, W]
      n.inputs[1] = permuted_constant(n, w, {1, 0, 2, 3}, {s[1] * s[0], 1, s[2], s[3]});
    else if (n.op == "ConvTranspose" && *kl == "OHWI") n.inputs[1] = permuted_constant(n, w, {3, 0, 1, 2});
    else if (n.op == "ConvTranspose" && *kl == "OIHW") n.inputs[1] = permuted_constant(n, w, {1, 0, 2, 3});
    else return;
    n.attrs.erase("kernel_layout");
  }

  void gemm(Node& n) {
    if (n.inputs.size() < 2 || int_attr(n, "transA", 0) != 0) return;
    const TensorType a = type(n.inputs[0]);
    if (a.shape.size() > 2 && type(n.inputs[1]).shape.size() == 2) {
      const int64_t k = int_attr(n, "transB", 0) ? type(n.inputs[1]).shape[1] : type(n.inputs[1]).shape[0];
      auto count = a.element_count();
      if (!count || k <= 0 || *count % k) unsupported(n, "cannot flatten A to [M, K]");
      TensorType t = a;
      t.quantization.reset();
      t.shape = {*count / k, k};
      ValueId flat = add_value(out_.values[n.inputs[0]].name + ".2d", t);
      out_.add_node(Node{"Reshape", n.name + ".flatten", {n.inputs[0]}, {flat}, {{"shape", Attr(t.shape)}}});
      n.inputs[0] = flat;
    }
    // Without C and with alpha 1, Gemm is a MatMul (aten.mm, or aten.linear when B is [N, K]).
    if ((n.inputs.size() < 3 || n.inputs[2] == kNoValue) && float_attr(n, "alpha", 1.0) == 1.0) {
      n.op = "MatMul";
      n.inputs.resize(2);
      n.attrs.erase("alpha");
      n.attrs.erase("beta");
    }
  }

  // Activations with no ATen operator, as the arithmetic that defines them (ONNX / Arm NN):
  // Square x*x, ScaledTanh alpha*tanh(beta*x), Affine alpha*x + beta.
  void activation(const Node& n) {
    const ValueId x = n.inputs.at(0), y = n.outputs.at(0);
    const TensorType t = type(x);  // a copy: adding values moves the vector
    if (t.dtype != DataType::Float32) unsupported(n, "only float32 is decomposed");
    if (n.op == "Square") return out_.add_node(Node{"Mul", n.name, {x, x}, {y}, {}}), void();
    const float alpha = static_cast<float>(float_attr(n, "alpha", 1.0));
    const float beta = static_cast<float>(float_attr(n, "beta", n.op == "Affine" ? 0.0 : 1.0));
    ValueId a = scalar_constant(alpha, n.name + ".alpha"), b = scalar_constant(beta, n.name + ".beta");
    ValueId mid = add_value(n.name + ".mid", t);
    if (n.op == "ScaledTanh") {
      ValueId scaled = add_value(n.name + ".scaled", t);
      out_.add_node(Node{"Mul", n.name + ".beta_mul", {x, b}, {scaled}, {}});
      out_.add_node(Node{"Tanh", n.name + ".tanh", {scaled}, {mid}, {}});
      out_.add_node(Node{"Mul", n.name, {mid, a}, {y}, {}});
      return;
    }
    out_.add_node(Node{"Mul", n.name + ".alpha_mul", {x, a}, {mid}, {}});
    out_.add_node(Node{"Add", n.name, {mid, b}, {y}, {}});
  }

  void batch_norm(const Node& n) {
    if (n.inputs.size() != 5) unsupported(n, "BatchNormalization needs X, scale, B, mean, var");
    std::vector<const Value*> p;
    for (std::size_t i = 1; i < 5; ++i) {
      const Value& v = out_.values[n.inputs[i]];
      if (!v.constant || v.type.dtype != DataType::Float32) unsupported(n, "its parameters must be float32 constants");
      p.push_back(&v);
      superseded_[n.inputs[i]] = true;
    }
    const int64_t c = *p[0]->type.element_count();
    for (const Value* v : p)
      if (*v->type.element_count() != c) unsupported(n, "parameters of different sizes");
    auto at = [](const Value* v, int64_t i) {
      float x;
      std::memcpy(&x, v->constant->data() + i * 4, 4);
      return x;
    };
    const double eps = float_attr(n, "epsilon", 1e-5);
    std::vector<std::byte> mul(static_cast<std::size_t>(c) * 4), add(static_cast<std::size_t>(c) * 4);
    for (int64_t i = 0; i < c; ++i) {
      float m = static_cast<float>(at(p[0], i) / std::sqrt(double(at(p[3], i)) + eps));
      float a = static_cast<float>(at(p[1], i) - double(at(p[2], i)) * m);
      std::memcpy(mul.data() + i * 4, &m, 4);
      std::memcpy(add.data() + i * 4, &a, 4);
    }
    const TensorType x = type(n.inputs[0]);  // a copy: adding values moves the vector
    const bool nhwc = str_attr(n, "data_layout") && *str_attr(n, "data_layout") == "NHWC";
    Ints shape{c};  // NHWC: the channel is the last dim and broadcasts as is
    if (!nhwc)
      for (std::size_t d = 2; d < x.shape.size(); ++d) shape.push_back(1);  // [C, 1, 1] against N, C, H, W
    TensorType ct{DataType::Float32, shape, false, std::nullopt};
    ValueId m = add_value(n.name + ".scale", ct, Buffer::owned(std::move(mul)));
    ValueId a = add_value(n.name + ".shift", ct, Buffer::owned(std::move(add)));
    ValueId scaled = add_value(n.name + ".scaled", x);
    out_.add_node(Node{"Mul", n.name + ".mul", {n.inputs[0], m}, {scaled}, {}});
    out_.add_node(Node{"Add", n.name, {scaled, a}, {n.outputs[0]}, {}});
  }

  const Graph& src_;
  std::vector<Node> nodes_;
  std::vector<bool> superseded_;
  Graph out_;
  std::set<std::string> names_;
  bool names_built_ = false;
};

}  // namespace

namespace {

// True when one of the format-neutral rewrites below applies to `g`.
bool needs_neutral_rewrites(const Graph& g) {
  for (const Node& n : g.nodes) {
    for (ValueId v : n.outputs)
      if (v < g.values.size() && (g.values[v].type.dtype == DataType::Undefined || g.values[v].type.unknown_rank))
        return true;
    if (n.op == "GlobalAveragePool" || n.op == "GlobalMaxPool" || n.op == "Flatten" || n.op == "Dropout") return true;
    if (n.op == "Transpose" && !n.attrs.count("perm")) return true;
    for (ValueId v : n.outputs)  // ExecuTorch's Vulkan tensors: at most 4 dims
      if (v < g.values.size() && g.values[v].type.shape.size() > 4) return true;
    if (n.op == "Reshape" && n.inputs.size() == 2) return true;
    if (auto it = n.attrs.find("auto_pad");
        it != n.attrs.end() && it->second.is<std::string>() && it->second.get<std::string>() != "NOTSET")
      return true;
    if (auto it = n.attrs.find("pads"); it != n.attrs.end() && it->second.is<Ints>() && n.op != "Pad") {
      const Ints& p = it->second.get<Ints>();
      for (std::size_t k = 0; k < p.size() / 2; ++k)
        if (p[k] != p[k + p.size() / 2]) return true;
    }
  }
  return false;
}

// A graph from another format (no node carries a `vk.` field) holding what exporters compute from
// constants and shapes: Shape / Size / ConstantOfShape chains, or an Identity, Cast or Unsqueeze
// of a constant (PyTorch passes shared BatchNorm parameters through Identity nodes). Such values
// must be constants before the operand inputs can become ATen arguments.
bool needs_folding(const Graph& g) {
  bool foldable = false;
  for (const Node& n : g.nodes) {
    for (const auto& kv : n.attrs)
      if (kv.first.rfind("vk.", 0) == 0) return false;
    if (n.op == "Shape" || n.op == "Size" || n.op == "ConstantOfShape") foldable = true;
    if ((n.op == "Identity" || n.op == "Cast" || n.op == "Unsqueeze") && !n.inputs.empty() &&
        n.inputs[0] < g.values.size() && g.values[n.inputs[0]].constant)
      foldable = true;
  }
  return foldable;
}

}  // namespace

Lowered lower_for_aten(const Graph& g) {
  const bool fold = needs_folding(g);
  const bool neutral = fold || needs_neutral_rewrites(g);
  const bool operands = std::any_of(g.nodes.begin(), g.nodes.end(), [](const Node& n) { return has_operand_inputs(n); });
  if (!neutral && !operands) return Lowering(g).run();
  // nnbridge/rewrite.h first: value types a file left to shape inference (ONNX models without
  // value_info; every VkGraph value is written with its dtype and sizes), shape arithmetic of a
  // graph from another format folded to constants (fold_shape_arithmetic), global pools as one
  // aten.avg_pool2d / max_pool2d window, Flatten / Squeeze / Unsqueeze of known shapes as a view, Transpose's default perm,
  // a Transpose of more than 4 dims as one of merged dims, Reshape's
  // constant shape input as view_copy's size, asymmetric padding as a constant_pad_nd; then the
  // operand inputs as the arguments' attributes (they alone do not call for the others).
  Graph pre = g;
  if (neutral) {
    infer_missing_types(pre);
    // A folded chain can make the next one's types known: fold and infer until nothing changes.
    for (int round = 0; fold && round < 8 && fold_shape_arithmetic(pre) > 0; ++round) infer_missing_types(pre);
    // Readers of an Identity (of a float parameter, say, or a Dropout that computes its input)
    // read its input.
    if (inference_dropout_as_identity(pre) > 0 || fold) drop_identity(pre, "vk.");
    global_pools_as_windows(pre);
    shape_ops_as_reshape(pre, "vk.");
    explicit_transpose_perm(pre);
    // ExecuTorch's Vulkan tensors have at most 4 dims.
    gather_before_transpose(pre, 4);
    gather_of_split_as_slice(pre, 4);
    transpose_rank_reduced(pre, 4);
    unit_dims_dropped(pre, 4);
    reshape_shape_as_attribute(pre);
    explicit_pads(pre);
    asymmetric_pads_as_pad(pre);
  }
  operands_as_attributes(pre);
  require_constant_operands(pre, "VkGraph");
  return Lowering(pre).run();
}

}  // namespace nnbridge::formats::vkgraph
