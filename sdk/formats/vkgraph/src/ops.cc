// The mapping table (data) and the generic rename/fixed-argument logic shared by the reader
// and the writer. Argument lists follow the ATen schemas (PyTorch native_functions.yaml) as the
// Vulkan delegate serializes them: every schema argument in order, defaults included, then the
// output (ExecuTorch vulkan_graph_builder.py process_call_function_node).
#include "ops.h"

#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "nnbridge/error.h"
#include "nnbridge/op_schema.h"

namespace nnbridge::formats::vkgraph {

namespace {

using K = ArgKind;

ArgSpec in(int slot = 0, std::string name = "self") { return {K::In, std::move(name), slot, {}}; }
ArgSpec opt_in(int slot, std::string name) { return {K::OptIn, std::move(name), slot, {}}; }
ArgSpec out(int slot = 0) { return {K::Out, "out", slot, {}}; }
ArgSpec out_list() { return {K::OutList, "out", 0, {}}; }
ArgSpec arg(K k, std::string name, std::optional<Attr> def = std::nullopt) { return {k, std::move(name), 0, std::move(def)}; }
Attr ints(std::vector<int64_t> v) { return Attr(std::move(v)); }

OpRow row(std::string aten, std::string op, std::vector<ArgSpec> args, std::vector<AttrRename> renames = {},
          std::vector<std::pair<std::string, Attr>> fixed = {}, ToFn to = nullptr, FromFn from = nullptr) {
  return OpRow{std::move(aten), std::move(op), std::move(args), std::move(renames), std::move(fixed), to, from, {}};
}
// A native row: the operator reads as the native op `vk.<aten>`, every non-tensor argument an
// attribute under its ATen name (Null optional arguments: none), tensors in argument order (the
// order native_tensors() gives, so the node is written back verbatim).
OpRow native(std::string aten, std::vector<ArgSpec> args) {
  std::vector<AttrRename> renames;
  for (const ArgSpec& a : args)
    if (a.kind != K::In && a.kind != K::OptIn && a.kind != K::InList && a.kind != K::Out && a.kind != K::OutList &&
        a.kind != K::Any)
      renames.push_back({a.name, a.name});
  std::string op = "vk." + aten;
  return row(std::move(aten), std::move(op), std::move(args), std::move(renames));
}
OpRow unary(std::string aten, std::string op) { return row(std::move(aten), std::move(op), {in(), out()}); }
OpRow binary(std::string aten, std::string op) {
  return row(std::move(aten), std::move(op), {in(0), in(1, "other"), out()});
}

std::vector<OpRow> build() {
  namespace t = transforms;
  std::vector<OpRow> r;
  // Elementwise. add/sub map only with alpha = 1 (ONNX Add has no alpha); other alphas stay native.
  for (const char* name : {"aten.add.Tensor", "aten.sub.Tensor"})
    r.push_back(row(name, name[5] == 'a' ? "Add" : "Sub", {in(0), in(1, "other"), arg(K::Number, "alpha", Attr(int64_t{1})), out()},
                    {}, {{"alpha", Attr(1.0)}}));
  for (auto [aten, op] : {std::pair{"aten.mul.Tensor", "Mul"}, {"aten.div.Tensor", "Div"},
                          {"aten.pow.Tensor_Tensor", "Pow"}, {"aten.minimum.default", "Min"},
                          {"aten.maximum.default", "Max"}, {"aten.eq.Tensor", "Equal"}, {"aten.lt.Tensor", "Less"},
                          {"aten.le.Tensor", "LessOrEqual"}, {"aten.gt.Tensor", "Greater"},
                          {"aten.ge.Tensor", "GreaterOrEqual"}, {"aten.ne.Tensor", "NotEqual"},
                          {"aten.logical_and.default", "And"}, {"aten.logical_or.default", "Or"}})
    r.push_back(binary(aten, op));
  r.push_back(row("aten.where.self", "Where", {in(0, "condition"), in(1, "self"), in(2, "other"), out()}));
  for (auto [aten, op] :
       {std::pair{"aten.abs.default", "Abs"}, {"aten.neg.default", "Neg"}, {"aten.sqrt.default", "Sqrt"},
        {"aten.rsqrt.default", "Rsqrt"}, {"aten.exp.default", "Exp"}, {"aten.log.default", "Log"},
        {"aten.sin.default", "Sin"}, {"aten.floor.default", "Floor"}, {"aten.ceil.default", "Ceil"},
        {"aten.round.default", "Round"}, {"aten.reciprocal.default", "Reciprocal"}, {"aten.sign.default", "Sign"},
        {"aten.relu.default", "Relu"}, {"aten.sigmoid.default", "Sigmoid"}, {"aten.tanh.default", "Tanh"},
        {"aten.hardswish.default", "HardSwish"}, {"aten.logical_not.default", "Not"}})
    r.push_back(unary(aten, op));
  // hardsigmoid(x) = clamp(x / 6 + 1 / 2, 0, 1): ONNX HardSigmoid with alpha 1/6, beta 1/2.
  r.push_back(row("aten.hardsigmoid.default", "HardSigmoid", {in(), out()}, {}, {}, t::hardsigmoid_to, t::hardsigmoid_from));
  r.back().loose = {"alpha"};  // hardsigmoid_from accepts the float32 nearest to 1/6
  r.push_back(row("aten.clone.default", "Identity", {in(), arg(K::Any, "memory_format"), out()}));
  // ExecuTorch's Vulkan pipeline (backends/vulkan/custom_ops_lib.py): prepack copies a constant into
  // the GPU's layout, the identity on values. Identity is written as aten.clone (the row above).
  r.push_back(row("et_vk.prepack.default", "Identity", {in(0, "x"), out()}));
  r.push_back(row("aten.gelu.default", "Gelu", {in(), arg(K::Str, "approximate", Attr("none")), out()},
                  {{"approximate", "approximate"}}, {}, nullptr, t::gelu_from));
  r.push_back(row("aten.leaky_relu.default", "LeakyRelu", {in(), arg(K::Number, "negative_slope", Attr(0.01)), out()},
                  {{"negative_slope", "alpha"}}));
  r.push_back(row("aten.elu.default", "Elu",
                  {in(), arg(K::Number, "alpha", Attr(int64_t{1})), arg(K::Number, "scale", Attr(int64_t{1})),
                   arg(K::Number, "input_scale", Attr(int64_t{1})), out()},
                  {{"alpha", "alpha"}}, {{"scale", Attr(1.0)}, {"input_scale", Attr(1.0)}}));
  // Clip: clamp first (a writer can always express Clip with it), then hardtanh.
  r.push_back(row("aten.clamp.default", "Clip", {in(), arg(K::OptNumber, "min"), arg(K::OptNumber, "max"), out()},
                  {{"min", "min"}, {"max", "max"}}));
  r.push_back(row("aten.hardtanh.default", "Clip",
                  {in(), arg(K::Number, "min_val", Attr(-1.0)), arg(K::Number, "max_val", Attr(1.0)), out()},
                  {{"min_val", "min"}, {"max_val", "max"}}));
  for (auto [aten, op] : {std::pair{"aten._softmax.default", "Softmax"}, {"aten._log_softmax.default", "LogSoftmax"}})
    r.push_back(row(aten, op, {in(), arg(K::Int, "dim"), arg(K::Bool, "half_to_float", Attr(false)), out()},
                    {{"dim", "axis"}}, {{"half_to_float", Attr(false)}}));

  // Convolution: aten.convolution.default(input, weight, bias?, stride, padding, dilation,
  // transposed, output_padding, groups) -- ExecuTorch Convolution.cpp reads these 10 args.
  std::vector<ArgSpec> conv{in(0, "input"),
                            in(1, "weight"),
                            opt_in(2, "bias"),
                            arg(K::Ints, "stride"),
                            arg(K::Ints, "padding"),
                            arg(K::Ints, "dilation"),
                            arg(K::Bool, "transposed"),
                            arg(K::Ints, "output_padding"),
                            arg(K::Int, "groups"),
                            out()};
  r.push_back(row("aten.convolution.default", "Conv", conv, {}, {{"transposed", Attr(false)}}, t::conv_to, t::conv_from));
  r.push_back(row("aten.convolution.default", "ConvTranspose", conv, {}, {{"transposed", Attr(true)}}, t::tconv_to,
                  t::tconv_from));
  r[r.size() - 2].loose = r.back().loose = {"kernel_shape"};  // checked against W by the transforms

  // Matrix products.
  std::vector<ArgSpec> linear{in(0, "input"), in(1, "weight"), opt_in(2, "bias"), out()};
  r.push_back(row("aten.mm.default", "MatMul", {in(0), in(1, "mat2"), out()}, {}, {}, t::mm_to, t::mm_from));
  r.push_back(row("aten.bmm.default", "MatMul", {in(0), in(1, "mat2"), out()}, {}, {}, t::bmm_to, t::bmm_from));
  r.push_back(row("aten.linear.default", "MatMul", linear, {}, {}, t::linear_matmul_to, t::linear_matmul_from));
  r.push_back(row("aten.addmm.default", "Gemm",
                  {in(2, "self"), in(0, "mat1"), in(1, "mat2"), arg(K::Number, "beta", Attr(int64_t{1})),
                   arg(K::Number, "alpha", Attr(int64_t{1})), out()},
                  {{"beta", "beta"}, {"alpha", "alpha"}}, {}, nullptr, t::addmm_from));
  r.push_back(row("aten.linear.default", "Gemm", linear, {}, {}, t::linear_gemm_to, t::linear_gemm_from));

  r.push_back(row("aten.native_layer_norm.default", "LayerNormalization",
                  {in(0, "input"), arg(K::Ints, "normalized_shape"), opt_in(1, "weight"), opt_in(2, "bias"),
                   arg(K::Number, "eps"), out_list()},
                  {{"eps", "epsilon"}}, {}, t::layer_norm_to, t::layer_norm_from));

  // Reductions. ATen's keepdim defaults to false, ONNX's keepdims to 1: the rename keeps it explicit.
  for (auto [aten, op] : {std::pair{"aten.mean.dim", "ReduceMean"}, {"aten.sum.dim_IntList", "ReduceSum"}})
    r.push_back(row(aten, op,
                    {in(), arg(K::OptInts, "dim"), arg(K::Bool, "keepdim", Attr(false)), arg(K::Any, "dtype"), out()},
                    {{"dim", "axes"}, {"keepdim", "keepdims", RenameKind::BoolAsInt}}, {}, nullptr, t::reduce_from));
  for (auto [aten, op] : {std::pair{"aten.amax.default", "ReduceMax"}, {"aten.amin.default", "ReduceMin"}})
    r.push_back(row(aten, op, {in(), arg(K::Ints, "dim", ints({})), arg(K::Bool, "keepdim", Attr(false)), out()},
                    {{"dim", "axes"}, {"keepdim", "keepdims", RenameKind::BoolAsInt}}, {}, nullptr, t::reduce_from));
  for (auto [aten, op] : {std::pair{"aten.argmax.default", "ArgMax"}, {"aten.argmin.default", "ArgMin"}})
    r.push_back(row(aten, op, {in(), arg(K::OptInt, "dim"), arg(K::Bool, "keepdim", Attr(false)), out()},
                    {{"dim", "axis"}, {"keepdim", "keepdims", RenameKind::BoolAsInt}}, {}, t::argmax_to));

  // Shape and data movement.
  for (const char* name : {"aten.permute_copy.default", "aten.permute.default"})
    r.push_back(row(name, "Transpose", {in(), arg(K::Ints, "dims"), out()}, {}, {}, t::permute_to, t::permute_from));
  for (const char* name : {"aten.view_copy.default", "aten.view.default"}) {
    r.push_back(row(name, "Reshape", {in(), arg(K::Ints, "size"), out()}, {}, {}, t::view_to, t::view_from));
    r.back().loose = {"shape", "allowzero"};
  }
  r.push_back(row("aten.unsqueeze_copy.default", "Unsqueeze", {in(), arg(K::Int, "dim"), out()},
                  {{"dim", "axes", RenameKind::IntAsInts}}));
  r.push_back(row("aten.squeeze_copy.dims", "Squeeze", {in(), arg(K::Ints, "dim"), out()}, {{"dim", "axes"}}, {},
                  t::squeeze_to));
  r.push_back(row("aten.cat.default", "Concat", {{K::InList, "tensors", 0, {}}, arg(K::Int, "dim", Attr(int64_t{0})), out()},
                  {{"dim", "axis"}}));
  r.push_back(row("aten.split_with_sizes_copy.default", "Split",
                  {in(), arg(K::Ints, "split_sizes"), arg(K::Int, "dim", Attr(int64_t{0})), out_list()}, {{"dim", "axis"}},
                  {}, t::split_to, t::split_from));
  r.back().loose = {"split"};
  r.push_back(row("aten.slice_copy.Tensor", "Slice",
                  {in(), arg(K::Int, "dim", Attr(int64_t{0})), arg(K::OptInt, "start"), arg(K::OptInt, "end"),
                   arg(K::Int, "step", Attr(int64_t{1})), out()},
                  {}, {}, t::slice_to, t::slice_from));
  // select(self, dim, index): one element along dim, the dim dropped -- StridedSlice's shrink_axis_mask.
  for (const char* name : {"aten.select_copy.int", "aten.select.int"}) {
    r.push_back(row(name, "StridedSlice", {in(), arg(K::Int, "dim"), arg(K::Int, "index"), out()}, {}, {}, t::select_to,
                    t::select_from));
    r.back().loose = {"begin", "end", "strides", "begin_mask", "end_mask", "shrink_axis_mask"};  // select_from checks them
  }
  // pixel_shuffle(self, upscale_factor): channel c*r*r + i*r + j to (c, h*r + i, w*r + j), ONNX
  // DepthToSpace mode CRD.
  r.push_back(row("aten.pixel_shuffle.default", "DepthToSpace", {in(), arg(K::Int, "upscale_factor"), out()},
                  {{"upscale_factor", "blocksize"}}, {}, t::pixel_shuffle_to, t::pixel_shuffle_from));
  r.push_back(row("aten.repeat.default", "Tile", {in(), arg(K::Ints, "repeats"), out()}, {{"repeats", "repeats"}}, {},
                  t::repeat_to));
  r.push_back(row("aten.constant_pad_nd.default", "Pad",
                  {in(), arg(K::Ints, "pad"), arg(K::Number, "value", Attr(int64_t{0})), out()}, {{"value", "value"}}, {},
                  t::pad_to, t::pad_from));
  r.push_back(row("aten.index_select.default", "Gather", {in(0), arg(K::Int, "dim"), in(1, "index"), out()},
                  {{"dim", "axis"}}, {}, t::index_select_to));
  r.push_back(row("aten.embedding.default", "Gather",
                  {in(0, "weight"), in(1, "indices"), arg(K::Any, "padding_idx", Attr(int64_t{-1})),
                   arg(K::Any, "scale_grad_by_freq", Attr(false)), arg(K::Any, "sparse", Attr(false)), out()},
                  {}, {}, t::embedding_to, t::embedding_from));
  r.push_back(row("aten.upsample_nearest2d.vec", "Resize",
                  {in(0, "input"), arg(K::OptInts, "output_size"), arg(K::Any, "scale_factors"), out()}, {}, {},
                  t::upsample_to, t::upsample_from));

  // Pooling (2-D, NCHW). ceil_mode maps where PyTorch and ONNX count the same windows: PyTorch
  // drops a last window that starts in the right padding, ONNX does not (the transforms compare
  // the output sizes; a call where they differ stays native, a node where they differ is refused).
  r.push_back(row("aten.max_pool2d.default", "MaxPool",
                  {in(), arg(K::Ints, "kernel_size"), arg(K::Ints, "stride", ints({})), arg(K::Ints, "padding", ints({0})),
                   arg(K::Ints, "dilation", ints({1})), arg(K::Bool, "ceil_mode", Attr(false)), out()},
                  {{"ceil_mode", "ceil_mode", RenameKind::BoolAsInt}}, {}, t::max_pool_to, t::max_pool_from));
  r.push_back(row("aten.avg_pool2d.default", "AveragePool",
                  {in(), arg(K::Ints, "kernel_size"), arg(K::Ints, "stride", ints({})), arg(K::Ints, "padding", ints({0})),
                   arg(K::Bool, "ceil_mode", Attr(false)), arg(K::Bool, "count_include_pad", Attr(true)),
                   arg(K::OptInt, "divisor_override"), out()},
                  {{"ceil_mode", "ceil_mode", RenameKind::BoolAsInt},
                   {"count_include_pad", "count_include_pad", RenameKind::BoolAsInt}},
                  {}, t::avg_pool_to, t::avg_pool_from));

  // Operators with no canonical form that backends still run: native rows (see native()).
  // max_pool2d_with_indices returns PyTorch's per-plane indices, not ONNX MaxPool's flat ones.
  r.push_back(native("aten.max_pool2d_with_indices.default",
                     {in(), arg(K::Ints, "kernel_size"), arg(K::Ints, "stride"), arg(K::Ints, "padding"),
                      arg(K::Ints, "dilation"), arg(K::Bool, "ceil_mode"), out_list()}));
  // conv_with_clamp (custom_ops_lib.py): aten.convolution, then clamp(output_min, output_max).
  r.push_back(native("et_vk.conv_with_clamp.default",
                     {in(0, "input"), in(1, "weight"), opt_in(2, "bias"), arg(K::Ints, "stride"), arg(K::Ints, "padding"),
                      arg(K::Ints, "dilation"), arg(K::Bool, "transposed"), arg(K::Ints, "output_padding"),
                      arg(K::Int, "groups"), arg(K::OptNumber, "output_min"), arg(K::OptNumber, "output_max"), out()}));
  return r;
}

struct Table {
  std::vector<OpRow> rows = build();
  std::map<std::string, std::vector<const OpRow*>, std::less<>> by_name, by_op;
  Table() {
    for (const OpRow& r : rows) {
      by_name[r.aten].push_back(&r);
      by_op[r.op].push_back(&r);
    }
  }
};

const Table& table() {
  static const Table t;
  return t;
}

bool numbers_equal(const Attr& a, const Attr& b) {
  auto num = [](const Attr& x) -> std::optional<double> {
    if (x.is<double>()) return x.get<double>();
    if (x.is<int64_t>()) return double(x.get<int64_t>());
    if (x.is<bool>()) return x.get<bool>() ? 1.0 : 0.0;
    return std::nullopt;
  };
  auto na = num(a), nb = num(b);
  if (na && nb) return *na == *nb || (std::isnan(*na) && std::isnan(*nb));
  return a == b;
}

const Attr* schema_default(std::string_view op, std::string_view name) {
  const OpSchema* s = find_schema(op);
  const AttrSpec* spec = s ? s->find_attr(name) : nullptr;
  return spec && spec->default_value ? &*spec->default_value : nullptr;
}

}  // namespace

int OpRow::tensor_inputs() const {
  int n = 0;
  for (const ArgSpec& a : args) {
    if (a.kind == K::InList) return -1;
    if (a.kind == K::In || a.kind == K::OptIn) n = std::max(n, a.slot + 1);
  }
  return n;
}
int OpRow::tensor_outputs() const {
  int n = 0;
  for (const ArgSpec& a : args) {
    if (a.kind == K::OutList) return -1;
    if (a.kind == K::Out) n = std::max(n, a.slot + 1);
  }
  return n;
}

const std::vector<OpRow>& op_rows() { return table().rows; }

bool vulkan_registers(std::string_view aten) {
  // VK_REGISTER_OP names of ExecuTorch backends/vulkan/runtime/graph/ops/impl/*.cpp at the commit
  // writer.cc's header names, restricted to those this table has rows for.
  static const std::set<std::string, std::less<>> names{
      "aten._log_softmax.default", "aten._softmax.default", "aten.abs.default", "aten.add.Tensor",
      "aten.addmm.default", "aten.amax.default", "aten.amin.default", "aten.argmax.default",
      "aten.argmin.default", "aten.avg_pool2d.default", "aten.bmm.default", "aten.cat.default",
      "aten.clamp.default", "aten.clone.default", "aten.constant_pad_nd.default", "aten.convolution.default",
      "aten.div.Tensor", "aten.embedding.default", "aten.eq.Tensor", "aten.exp.default", "aten.ge.Tensor",
      "aten.gelu.default", "aten.gt.Tensor", "aten.hardsigmoid.default", "aten.hardswish.default",
      "aten.hardtanh.default", "aten.index_select.default", "aten.le.Tensor", "aten.leaky_relu.default",
      "aten.linear.default", "aten.logical_and.default", "aten.logical_or.default", "aten.lt.Tensor",
      "aten.max_pool2d.default", "aten.max_pool2d_with_indices.default", "aten.mean.dim",
      "aten.minimum.default", "aten.mm.default", "aten.mul.Tensor", "aten.native_layer_norm.default",
      "aten.neg.default", "aten.permute.default", "aten.permute_copy.default", "aten.pixel_shuffle.default",
      "aten.pow.Tensor_Tensor", "aten.relu.default", "aten.repeat.default", "aten.round.default",
      "aten.rsqrt.default", "aten.select.int", "aten.select_copy.int", "aten.sigmoid.default", "aten.sin.default",
      "aten.slice_copy.Tensor", "aten.split_with_sizes_copy.default", "aten.sqrt.default",
      "aten.squeeze_copy.dims", "aten.sub.Tensor", "aten.sum.dim_IntList", "aten.tanh.default",
      "aten.unsqueeze_copy.default", "aten.upsample_nearest2d.vec", "aten.view_copy.default", "aten.where.self",
      "et_vk.conv_with_clamp.default", "et_vk.prepack.default",
      "quantized_decomposed.dequantize_per_tensor.default", "quantized_decomposed.quantize_per_tensor.default"};
  return names.count(aten) != 0;
}

std::vector<const OpRow*> rows_for_name(std::string_view aten) {
  auto it = table().by_name.find(aten);
  return it == table().by_name.end() ? std::vector<const OpRow*>{} : it->second;
}
std::vector<const OpRow*> rows_for_op(std::string_view op) {
  auto it = table().by_op.find(op);
  return it == table().by_op.end() ? std::vector<const OpRow*>{} : it->second;
}

std::optional<AttrMap> to_canonical(const OpRow& row, const AtenArgs& aten, const MapContext& c) {
  for (const auto& [name, want] : row.fixed) {
    auto it = aten.find(name);
    if (it == aten.end() || !numbers_equal(it->second, want)) return std::nullopt;
  }
  AttrMap out;
  for (const AttrRename& r : row.renames) {
    auto it = aten.find(r.field);
    if (it == aten.end()) continue;  // Null: the canonical attribute keeps its default
    out[r.attr] = rename_to_canonical(r, it->second);
  }
  if (row.to && !row.to(aten, c, out)) return std::nullopt;
  return out;
}

AtenArgs from_canonical(const OpRow& row, const AttrMap& attrs, const MapContext& c) {
  const AttrMap full = with_schema_defaults(row.op, attrs);
  AtenArgs out;
  for (const auto& [name, v] : row.fixed) out[name] = v;
  for (const AttrRename& r : row.renames) {
    auto it = full.find(r.attr);
    if (it == full.end()) continue;
    // An attribute at its schema default stays Null where the ATen argument is optional.
    bool optional = false;
    for (const ArgSpec& a : row.args)
      if (a.name == r.field) optional = a.kind == K::OptInt || a.kind == K::OptNumber || a.kind == K::OptInts;
    const Attr* def = schema_default(row.op, r.attr);
    if (optional && def && *def == it->second) continue;
    out[r.field] = rename_from_canonical(r, it->second, row.aten);
  }
  if (row.from) row.from(full, c, out);
  // Nothing may be lost on the way: what the operator can say must read back as the node's attributes.
  auto back = to_canonical(row, out, c);
  if (!back) throw Error(ErrorId::NoForm, row.aten + " cannot express this " + row.op);
  for (const auto& [name, v] : full) {
    if (name.find('.') != std::string::npos) continue;
    if (std::find(row.loose.begin(), row.loose.end(), name) != row.loose.end()) continue;
    auto it = back->find(name);
    const Attr* got = it != back->end() ? &it->second : schema_default(row.op, name);
    if (!got || !numbers_equal(*got, v))
      throw Error(ErrorId::NoForm, row.aten + " cannot express " + row.op + " attribute '" + name + "' = " +
                                              (v.is<double>() ? std::to_string(v.get<double>())
                                               : v.is<int64_t>() ? std::to_string(v.get<int64_t>())
                                                                 : std::string(to_string(v.type()))));
  }
  return out;
}

bool same_canonical(std::string_view op, const AttrMap& a, const AttrMap& b, const std::vector<std::string>& skip) {
  auto value = [&](const AttrMap& m, const std::string& name) -> const Attr* {
    auto it = m.find(name);
    return it != m.end() ? &it->second : schema_default(op, name);
  };
  for (const AttrMap* m : {&a, &b})
    for (const auto& [name, v] : *m) {
      if (name.find('.') != std::string::npos) continue;
      if (std::find(skip.begin(), skip.end(), name) != skip.end()) continue;
      const Attr* x = value(a, name);
      const Attr* y = value(b, name);
      if (!x || !y || !numbers_equal(*x, *y)) return false;
    }
  return true;
}

}  // namespace nnbridge::formats::vkgraph
