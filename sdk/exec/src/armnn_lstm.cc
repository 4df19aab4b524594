// nnbridge/exec/armnn_lstm.h: armnn.Lstm read once for both backends, with the checks and
// refusals of Arm NN 20.08 CpuRef's RefLstmWorkload as cpu_ref has always made them.
#include "nnbridge/exec/armnn_lstm.h"

#include <string>

namespace nnbridge::exec {

ArmnnLstm armnn_lstm(const NodeContext& ctx) {
  if (ctx.in.size() < 3 || ctx.out.size() != 4) ctx.invalid(ErrorId::Arity, "needs 3 input slots and 4 outputs (scratch, output_state_out, cell_state_out, output)");
  for (std::size_t i = 0; i < 3; ++i)
    if (ctx.in[i].dtype != DataType::Float32) ctx.unsupported(ErrorId::DataType, "only float32 LSTM is implemented (input " + std::to_string(i) + " is " + std::string(to_string(ctx.in[i].dtype)) + ")");
  for (const TensorType& t : ctx.out)
    if (t.dtype != DataType::Float32) ctx.unsupported(ErrorId::DataType, "only float32 LSTM is implemented");
  const ArmnnConstInputs named(ctx, 3);
  ArmnnLstm l;
  ArmnnLstm::Config& cfg = l.config;
  static_cast<ArmnnLstmFlags&>(cfg) = armnn_lstm_flags(ctx);
  cfg.act = static_cast<int>(ctx.attr_int("armnn.descriptor.activationFunc", 0));
  cfg.clip_cell = static_cast<float>(ctx.attr_float("armnn.descriptor.clippingThresCell", 0));
  cfg.clip_proj = static_cast<float>(ctx.attr_float("armnn.descriptor.clippingThresProj", 0));
  if (cfg.act != 0 && cfg.act != 1 && cfg.act != 3 && cfg.act != 4 && cfg.act != 6)
    ctx.unsupported("activationFunc " + std::to_string(cfg.act) + " (Arm NN knows 0, 1, 3, 4, 6)");

  const Shape& xs = ctx.in[0].shape;
  if (xs.size() != 2) ctx.invalid(ErrorId::Shape, "input must be [batch, inputSize]");
  ArmnnLstm::Dims& s = l.shape;
  s.batch = xs[0];
  s.n_in = xs[1];
  const int i_xo = named.find("inputParams.inputToOutputWeights");
  const int i_ho = named.find("inputParams.recurrentToOutputWeights");
  if (i_xo < 0 || i_ho < 0 || ctx.in[i_xo].shape.size() != 2 || ctx.in[i_ho].shape.size() != 2)
    ctx.invalid(ErrorId::Shape, "needs 2-D inputToOutputWeights and recurrentToOutputWeights");
  s.n_cell = ctx.in[i_xo].shape[0];  // as CpuRef: nCell from W_xo, nOutput from W_ho
  s.n_out = ctx.in[i_ho].shape[1];
  if (numel(ctx.in[1].shape) != s.batch * s.n_out || numel(ctx.in[2].shape) != s.batch * s.n_cell)
    ctx.invalid(ErrorId::Shape, "output_state_in must be [batch, outputSize] and cell_state_in [batch, numUnits]");
  if (numel(ctx.out[0].shape) != s.batch * s.n_cell * (cfg.cifg ? 3 : 4) || numel(ctx.out[1].shape) != s.batch * s.n_out ||
      numel(ctx.out[2].shape) != s.batch * s.n_cell || numel(ctx.out[3].shape) != s.batch * s.n_out)
    ctx.invalid(ErrorId::Shape, "output shapes do not match the batch, numUnits and outputSize of the weights");
  if (!cfg.projection && s.n_out != s.n_cell) ctx.invalid(ErrorId::Shape, "without projection outputSize must equal numUnits");

  const int64_t wx = s.n_cell * s.n_in, wh = s.n_cell * s.n_out, nc = s.n_cell;
  ArmnnLstm::Params& p = l.params;
  p.w_xf = named.require("inputParams.inputToForgetWeights", wx);
  p.w_xc = named.require("inputParams.inputToCellWeights", wx);
  p.w_xo = named.require("inputParams.inputToOutputWeights", wx);
  p.w_hf = named.require("inputParams.recurrentToForgetWeights", wh);
  p.w_hc = named.require("inputParams.recurrentToCellWeights", wh);
  p.w_ho = named.require("inputParams.recurrentToOutputWeights", wh);
  p.b_f = named.require("inputParams.forgetGateBias", nc);
  p.b_c = named.require("inputParams.cellBias", nc);
  p.b_o = named.require("inputParams.outputGateBias", nc);
  if (!cfg.cifg) {
    p.w_xi = named.require("inputParams.inputToInputWeights", wx);
    p.w_hi = named.require("inputParams.recurrentToInputWeights", wh);
    p.b_i = named.require("inputParams.inputGateBias", nc);
  }
  if (cfg.peephole) {
    if (!cfg.cifg) p.p_i = named.require("inputParams.cellToInputWeights", nc);
    p.p_f = named.require("inputParams.cellToForgetWeights", nc);
    p.p_o = named.require("inputParams.cellToOutputWeights", nc);
  }
  if (cfg.projection) {
    p.proj_w = named.require("inputParams.projectionWeights", s.n_out * nc);
    p.proj_b = named.optional("inputParams.projectionBias", s.n_out);
  }
  if (cfg.layer_norm) {
    if (!cfg.cifg) p.ln_i = named.require("inputParams.inputLayerNormWeights", nc);
    p.ln_f = named.require("inputParams.forgetLayerNormWeights", nc);
    p.ln_c = named.require("inputParams.cellLayerNormWeights", nc);
    p.ln_o = named.require("inputParams.outputLayerNormWeights", nc);
  }
  return l;
}

}  // namespace nnbridge::exec
