// The LSTM cell both LSTM kernels share (lstm.cc): armnn.Lstm (Arm NN CpuRef) and ONNX LSTM
// (rnn.cc), which agree on the maths once each has its gate pre-activations; and the scalar
// activations of the recurrent kernels.
#pragma once

#include <functional>
#include <string>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

/// One scalar activation of a recurrent cell: ONNX RNN / GRU / LSTM's activation functions
/// (alpha, beta as the ONNX operators of the same name define them) and Arm NN's Relu6.
struct CellAct {
  enum Kind { Sigmoid, Tanh, Relu, Relu6, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus };
  Kind kind = Sigmoid;
  float alpha = 0, beta = 0;
  float operator()(float x) const;
};

/// Which gate a pre-activation buffer holds.
enum class LstmGate { Input, Forget, Cell, Output };

/// One LSTM step over `batch` rows of `n` cells, in place on the gate pre-activations (each
/// [batch, n], already holding bias + W x + R h):
///   i = gate(pre_i + p_i * c_in), f = gate(pre_f + p_f * c_in)    (peephole terms when given)
///   c_out = f * c_in + cell_in(pre_c) * i, clipped to [-clip_cell, clip_cell] when clip_cell > 0
///   o = gate(pre_o + p_o * c_out), h = o * cell_out(c_out)
/// `before_act`, when set, rewrites each gate's buffer just before its activation (after the
/// peephole term): Arm NN's layer normalisation, ONNX's clip. Without an input gate (i nullptr,
/// Arm NN CIFG) i = 1 - f. Without cell_in / cell_out (Arm NN activationFunc 0, which CpuRef
/// applies no function for) the cell gate stays pre_c, so c_out = f * c_in + pre_c * i and
/// h = o * pre_c. Afterwards the buffers hold what Arm NN CpuRef's scratch holds: i, f (1 - f
/// under CIFG), cell_out(c_out) (pre_c without cell_out) and h in o.
struct LstmCellStep {
  int64_t batch = 1, n = 0;
  float *i = nullptr, *f = nullptr, *c = nullptr, *o = nullptr;
  const float *p_i = nullptr, *p_f = nullptr, *p_o = nullptr;  ///< peephole weights [n], or nullptr
  const float* c_in = nullptr;
  float* c_out = nullptr;
  CellAct gate;
  const CellAct* cell_in = nullptr;
  const CellAct* cell_out = nullptr;
  float clip_cell = 0;
  std::function<void(float*, LstmGate)> before_act;
};
void lstm_cell(const LstmCellStep& s);

}  // namespace nnbridge::cpu_ref
