// Arm NN's float32 LSTM layer (armnn.Lstm, one time step) as both backends read it: the
// descriptor, the sizes and where each LstmInputParams tensor sits among the node's inputs, read
// and checked once (cpu_ref/src/kernels/lstm.cc and gpu/src/ops_lstm.cc compute from this).
#pragma once

#include <cstdint>

#include "nnbridge/exec/armnn_params.h"

namespace nnbridge::exec {

/// One armnn.Lstm node, read as Arm NN 20.08 CpuRef (RefLstmWorkload) reads its layer.
struct ArmnnLstm {
  /// The LstmDescriptor. act is the TfLite fused-activation code of activationFunc (0 none,
  /// 1 relu, 3 relu6, 4 tanh, 6 sigmoid); clipping thresholds <= 0 mean no clipping.
  struct Config : ArmnnLstmFlags {
    int act = 0;
    float clip_cell = 0, clip_proj = 0;
  };
  /// batch and inputSize from the input, numUnits (n_cell) from inputToOutputWeights' rows and
  /// outputSize (n_out) from recurrentToOutputWeights' columns, as CpuRef takes them.
  struct Dims {
    int64_t batch = 0, n_in = 0, n_cell = 0, n_out = 0;
  };
  /// Node input index of each parameter, -1 where the configuration has none: W_x* [n_cell, n_in],
  /// W_h* [n_cell, n_out], biases b_* [n_cell], peephole p_* [n_cell], proj_w [n_out, n_cell],
  /// proj_b [n_out] (optional with projection), layer-norm weights ln_* [n_cell]. The input gate's
  /// (w_xi, w_hi, b_i, p_i, ln_i) are -1 under CIFG.
  struct Params {
    int w_xi = -1, w_xf = -1, w_xc = -1, w_xo = -1, w_hi = -1, w_hf = -1, w_hc = -1, w_ho = -1;
    int b_i = -1, b_f = -1, b_c = -1, b_o = -1;
    int p_i = -1, p_f = -1, p_o = -1;
    int proj_w = -1, proj_b = -1;
    int ln_i = -1, ln_f = -1, ln_c = -1, ln_o = -1;
  };
  Config config;
  Dims shape;
  Params params;
};

/// The armnn.Lstm node `ctx`: inputs input [B, nIn], output_state_in [B, nOut], cell_state_in
/// [B, nCell], then the parameters named by armnn.constInputs (exec::ArmnnConstInputs); the
/// descriptor from armnn.descriptor.{cifgEnabled (default 1), peepholeEnabled, projectionEnabled,
/// layerNormEnabled, activationFunc, clippingThresCell, clippingThresProj}; outputs scratch
/// [B, 4 nCell] (CIFG: 3 nCell), output_state_out [B, nOut], cell_state_out [B, nCell], output
/// [B, nOut] (element counts checked).
/// Error(Unsupported) for a dtype other than float32 (inputs 0-2, every output) or an
/// activationFunc other than 0, 1, 3, 4, 6; Error(Invalid) for other than 3 input slots and 4
/// outputs, an input or inputToOutputWeights / recurrentToOutputWeights that is not 2-D, a missing or mis-sized parameter the descriptor asks for,
/// mismatched state or output sizes, or nOut != nCell without projection.
ArmnnLstm armnn_lstm(const NodeContext& ctx);

}  // namespace nnbridge::exec
