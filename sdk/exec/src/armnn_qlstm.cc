// nnbridge/exec/armnn_qlstm.h: the armnn.QLstm node, read and checked once for both backends,
// with cpu_ref/src/kernels/qlstm.cc's rules and refusals (in its order, so both report the same
// first error).
#include "nnbridge/exec/armnn_qlstm.h"

#include <limits>
#include <string>

namespace nnbridge::exec {

namespace {

// The Int32 scale of a bias parameter as the file declares it: the IR keeps it on the value
// (Arm NN stores Int32 tensors with a scale, which the IR's Int32 type does not carry).
float int32_scale(const NodeContext& ctx, int index) {
  const TensorType& t = ctx.in[static_cast<std::size_t>(index)];
  if (t.quantization && !t.quantization->scales.empty()) return 0;  // already dequantized by the plan
  if (static_cast<std::size_t>(index) < ctx.in_attrs.size() && ctx.in_attrs[index])
    if (auto it = ctx.in_attrs[index]->find("armnn.tensorInfo.quantizationScale"); it != ctx.in_attrs[index]->end()) {
      if (it->second.is<double>()) return static_cast<float>(it->second.get<double>());
    }
  return 0;
}

}  // namespace

QFormat quantized_format(const NodeContext& ctx, const TensorType& t, const char* what) {
  if (!t.quantization || t.quantization->scales.size() != 1) ctx.invalid(ErrorId::TypeMismatch, std::string(what) + " must have one quantization scale");
  QFormat f;
  f.scale = static_cast<float>(t.quantization->scales[0]);
  f.zero = t.quantization->zero_points.empty() ? 0 : static_cast<int32_t>(t.quantization->zero_points[0]);
  switch (t.dtype) {
    case DataType::QAsymmS8: case DataType::QSymmS8: f.lo = -128, f.hi = 127; break;
    case DataType::QAsymmU8: f.lo = 0, f.hi = 255; break;
    case DataType::QSymmS16: f.lo = -32768, f.hi = 32767; break;
    default: ctx.unsupported(ErrorId::DataType, std::string(what) + " is " + std::string(to_string(t.dtype)) + "; QLstm needs a quantized type");
  }
  if (!(f.scale > 0)) ctx.invalid(ErrorId::AttributeValue, std::string(what) + " has a non-positive scale");
  return f;
}

QLstmConfig armnn_qlstm(const NodeContext& ctx) {
  using G = QLstmConfig::Gate;
  if (ctx.in.size() < 3 || ctx.out.size() != 3) ctx.invalid(ErrorId::Arity, "needs 3 input slots and 3 outputs (output_state_out, cell_state_out, output)");
  const ArmnnConstInputs named(ctx, 3);
  QLstmConfig c;
  static_cast<ArmnnLstmFlags&>(c) = armnn_lstm_flags(ctx);
  c.cell_clip = static_cast<float>(ctx.attr_float("armnn.descriptor.cellClip", 0));
  c.proj_clip = static_cast<float>(ctx.attr_float("armnn.descriptor.projectionClip", 0));
  const char* inter_names[4] = {"inputIntermediateScale", "forgetIntermediateScale", "cellIntermediateScale", "outputIntermediateScale"};
  for (int g = 0; g < 4; ++g) c.inter[g] = static_cast<float>(ctx.attr_float(std::string("armnn.descriptor.") + inter_names[g], 0));
  c.hidden = QFormat{static_cast<float>(ctx.attr_float("armnn.descriptor.hiddenStateScale", 0)),
                     static_cast<int32_t>(ctx.attr_int("armnn.descriptor.hiddenStateZeroPoint", 0)), -128.f, 127.f};
  if (!(c.hidden.scale > 0)) ctx.invalid(ErrorId::AttributeValue, "hiddenStateScale must be positive");

  const QFormat in_fmt = quantized_format(ctx, ctx.in[0], "input");
  quantized_format(ctx, ctx.in[1], "output_state_in");
  quantized_format(ctx, ctx.in[2], "cell_state_in");
  c.input_scale = in_fmt.scale;
  c.state_out = quantized_format(ctx, ctx.out[0], "output_state_out");
  c.cell = quantized_format(ctx, ctx.out[1], "cell_state_out");
  c.output = quantized_format(ctx, ctx.out[2], "output");

  if (ctx.in[0].shape.size() != 2 || ctx.in[1].shape.size() != 2 || ctx.in[2].shape.size() != 2)
    ctx.invalid(ErrorId::Shape, "input, output_state_in and cell_state_in must be 2-D");
  c.batch = ctx.in[0].shape[0];
  c.n_in = ctx.in[0].shape[1];
  c.n_out = ctx.in[1].shape[1];  // as CpuRef: outputSize and numUnits from the state inputs
  c.n_cell = ctx.in[2].shape[1];
  if (ctx.in[1].shape[0] != c.batch || ctx.in[2].shape[0] != c.batch) ctx.invalid(ErrorId::Shape, "the states' batch differs from the input's");
  if (numel(ctx.out[0].shape) != c.batch * c.n_out || numel(ctx.out[1].shape) != c.batch * c.n_cell ||
      numel(ctx.out[2].shape) != c.batch * c.n_out)
    ctx.invalid(ErrorId::Shape, "output shapes do not match the states'");
  if (!c.projection && c.n_out != c.n_cell) ctx.invalid(ErrorId::Shape, "without projection outputSize must equal numUnits");

  const int64_t wx = c.n_cell * c.n_in, wh = c.n_cell * c.n_out, nc = c.n_cell;
  const char* gate_names[4] = {"Input", "Forget", "Cell", "Output"};
  for (int g = 0; g < 4; ++g) {
    if (g == G::kI && c.cifg) continue;
    const std::string name = gate_names[g];
    c.w_x[g] = named.require("inputParams.inputTo" + name + "Weights", wx);
    c.w_h[g] = named.require("inputParams.recurrentTo" + name + "Weights", wh);
    c.bias[g] = named.require(g == G::kC ? std::string("inputParams.cellBias")
                                         : "inputParams." + std::string(g == G::kI ? "input" : g == G::kF ? "forget" : "output") + "GateBias",
                              nc);
    if (c.peephole && g != G::kC) c.peep[g] = named.require("inputParams.cellTo" + name + "Weights", nc);
    if (c.layer_norm) {
      c.ln[g] = named.require("inputParams." + std::string(g == G::kI ? "input" : g == G::kF ? "forget" : g == G::kC ? "cell" : "output") +
                                  "LayerNormWeights",
                              nc);
      const TensorType& t = ctx.in[static_cast<std::size_t>(c.ln[g])];
      if (!t.quantization || t.quantization->scales.size() != 1) ctx.invalid(ErrorId::TypeMismatch, name + " layer-norm weights need one quantization scale");
      c.ln_scale[g] = static_cast<float>(t.quantization->scales[0]);
    }
    if (!(c.inter[g] > 0)) ctx.invalid(ErrorId::AttributeValue, name + " intermediate scale must be positive");
  }
  if (c.projection) {
    c.proj_w = named.require("inputParams.projectionWeights", c.n_out * nc);
    c.proj_b = named.optional("inputParams.projectionBias", c.n_out);
    if (c.proj_b >= 0) c.proj_bias_scale = int32_scale(ctx, c.proj_b);
  }
  for (int g = 0; g < 4; ++g)
    if (c.bias[g] >= 0) {
      const TensorType& t = ctx.in[static_cast<std::size_t>(c.bias[g])];
      if (t.quantization && !t.quantization->scales.empty()) c.bias_type_scale[g] = static_cast<float>(t.quantization->scales[0]);
    }
  return c;
}

std::vector<int32_t> qlstm_activation_table(const QFormat& in, const QFormat& out, bool tanh) {
  std::vector<int32_t> t(kQLstmTableSize);
  for (int i = 0; i < kQLstmTableSize; ++i) {
    const int32_t q = i < 65536 ? i - 32768 : std::numeric_limits<int32_t>::min();
    const float v = in.dequantize(q);
    t[static_cast<std::size_t>(i)] = out.quantize(tanh ? qlstm_tanh(v) : qlstm_sigmoid(v));
  }
  return t;
}

}  // namespace nnbridge::exec
