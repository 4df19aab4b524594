// armnn.Lstm: one time step of Arm NN's LSTM layer, computed as Arm NN 20.08 CpuRef does
// (armnn/src/backends/reference/workloads/RefLstmWorkload.cpp and LstmUtils.cpp, themselves a
// port of Android NN's LSTM::Eval). Float32 only: other dtypes are Error(Unsupported); missing
// or mis-sized parameters, Error(Invalid).
//
// Inputs: input [B, nIn], output_state_in [B, nOut], cell_state_in [B, nCell], then the
// LstmInputParams the file carries (named by armnn.constInputs): W_x* [nCell, nIn],
// W_h* [nCell, nOut], biases [nCell]; optional input gate (no CIFG), peephole vectors
// cellTo*Weights [nCell], projectionWeights [nOut, nCell] and projectionBias [nOut], and
// *LayerNormWeights [nCell]. Attributes: armnn.descriptor.{activationFunc, cifgEnabled,
// peepholeEnabled, projectionEnabled, layerNormEnabled, clippingThresCell, clippingThresProj}.
// Outputs: scratch [B, 4 nCell] (CIFG: [B, 3 nCell]), output_state_out [B, nOut],
// cell_state_out [B, nCell], output [B, nOut].
//
// Per gate g in {i, f, c, o} (pre = bias + W_xg x + W_hg h_in; Arm NN accumulates each row in
// order, starting from the bias, or from 0 with layer norm where the bias is added after it):
//   i = sigmoid(pre_i + p_i * c_in), f = sigmoid(pre_f + p_f * c_in)    (peephole terms optional)
//   layer norm (when enabled) replaces pre by LN_w * (pre - mean) / stddev + bias, with
//   stddev = sqrt(E[x^2] - mean^2), or sqrt(1e-8) when that variance is exactly 0
//   g = act(pre_c); c_out = clip(f * c_in + g * i), with i = 1 - f under CIFG
//   o = sigmoid(pre_o + p_o * c_out); h = o * act(c_out)
//   output = clip(P h + P_bias) with projection, else h; output_state_out = output.
// act is the TfLite fused-activation code in activationFunc: 0 none, 1 relu, 3 relu6, 4 tanh,
// 6 sigmoid (LstmUtils SetActivationParameters; other codes are Error(Unsupported)). With code
// 0 CpuRef applies no activation at all, so h = o * pre_c: kept as CpuRef computes it. Clipping
// thresholds <= 0 mean no clipping.
//
// The scratch output is CpuRef's working buffer after the step, gate-major and batch-major
// inside a gate: CIFG [cell, forget, output], else [input, cell, forget, output], each B x nCell,
// holding i, act(c_out) (or pre_c with code 0), f (1 - f under CIFG) and o * act(c_out).
//
// The node is read and checked by the exec floor (nnbridge/exec/armnn_lstm.h), as the opencl
// backend reads it. The cell itself (everything after the pre-activations) is lstm_cell
// (lstm_cell.h), defined here and shared with ONNX LSTM (rnn.cc), with the scalar activations of
// the recurrent kernels.
#include <algorithm>
#include <cmath>

#include "armnn_params.h"
#include "lstm_cell.h"
#include "nnbridge/exec/armnn_lstm.h"

namespace nnbridge::cpu_ref {

namespace {

// activationFunc as a cell activation; nullptr for code 0 (CpuRef applies none).
const CellAct* armnn_act(int code) {
  static const CellAct relu{CellAct::Relu}, relu6{CellAct::Relu6}, tanh_act{CellAct::Tanh}, sigmoid{CellAct::Sigmoid};
  switch (code) {
    case 1: return &relu;
    case 3: return &relu6;
    case 4: return &tanh_act;
    case 6: return &sigmoid;
    default: return nullptr;
  }
}

float clip(float x, float limit) { return std::max(-limit, std::min(limit, x)); }

// acc[b][r] += sum_c m[r][c] * v[b][c], one product at a time (LstmUtils
// MatrixBatchVectorMultiplyAccumulate).
void matvec_acc(const float* m, int64_t rows, int64_t cols, const float* v, int64_t batch, float* acc) {
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t r = 0; r < rows; ++r) {
      float s = acc[b * rows + r];
      for (int64_t c = 0; c < cols; ++c) s = s + m[r * cols + c] * v[b * cols + c];
      acc[b * rows + r] = s;
    }
}

// In place per batch row: LN_w * (x - mean) / stddev + bias (LstmUtils MeanStddevNormalization,
// VectorBatchVectorCwiseProduct, VectorBatchVectorAdd).
void layer_norm(float* x, int64_t n, int64_t batch, const float* w, const float* bias) {
  constexpr float kEpsilon = 1e-8f;  // RefLstmWorkload m_LayerNormEpsilon
  for (int64_t b = 0; b < batch; ++b) {
    float* row = x + b * n;
    float sum = 0.f, sum_sq = 0.f;
    for (int64_t i = 0; i < n; ++i) {
      sum += row[i];
      sum_sq += row[i] * row[i];
    }
    const float mean = sum / static_cast<float>(n);
    const float variance = sum_sq / static_cast<float>(n) - mean * mean;
    const float inv = 1.0f / std::sqrt(variance == 0 ? kEpsilon : variance);
    for (int64_t i = 0; i < n; ++i) row[i] = (row[i] - mean) * inv;
    for (int64_t i = 0; i < n; ++i) row[i] = w[i] * row[i];
    for (int64_t i = 0; i < n; ++i) row[i] = row[i] + bias[i];
  }
}

Kernel make_lstm(const KernelContext& ctx) {
  const exec::ArmnnLstm lstm = exec::armnn_lstm(ctx);
  const exec::ArmnnLstm::Dims s = lstm.shape;
  const exec::ArmnnLstm::Params p = lstm.params;
  const exec::ArmnnLstm::Config cfg = lstm.config;
  return [s, p, cfg](std::span<const float* const> in, std::span<float* const> out) {
    const int64_t B = s.batch, n = s.n_cell, gs = B * n;
    const float *x = in[0], *h_in = in[1], *c_in = in[2];
    float* scratch = out[0];
    float* c_out = out[2];
    float* y = out[3];
    float* gi = cfg.cifg ? nullptr : scratch;
    float* gc = scratch + (cfg.cifg ? 0 : 1) * gs;
    float* gf = scratch + (cfg.cifg ? 1 : 2) * gs;
    float* go = scratch + (cfg.cifg ? 2 : 3) * gs;

    // Pre-activations: bias (or 0 under layer norm) + W_x x + W_h h_in.
    auto init = [&](float* g, int bias) {
      for (int64_t b = 0; b < B; ++b)
        for (int64_t k = 0; k < n; ++k) g[b * n + k] = cfg.layer_norm ? 0.f : in[bias][k];
    };
    if (!cfg.cifg) init(gi, p.b_i);
    init(gf, p.b_f);
    init(gc, p.b_c);
    init(go, p.b_o);
    if (!cfg.cifg) matvec_acc(in[p.w_xi], n, s.n_in, x, B, gi);
    matvec_acc(in[p.w_xf], n, s.n_in, x, B, gf);
    matvec_acc(in[p.w_xc], n, s.n_in, x, B, gc);
    matvec_acc(in[p.w_xo], n, s.n_in, x, B, go);
    if (!cfg.cifg) matvec_acc(in[p.w_hi], n, s.n_out, h_in, B, gi);
    matvec_acc(in[p.w_hf], n, s.n_out, h_in, B, gf);
    matvec_acc(in[p.w_hc], n, s.n_out, h_in, B, gc);
    matvec_acc(in[p.w_ho], n, s.n_out, h_in, B, go);

    LstmCellStep step;
    step.batch = B, step.n = n;
    step.i = gi, step.f = gf, step.c = gc, step.o = go;
    if (cfg.peephole) {
      step.p_i = cfg.cifg ? nullptr : in[p.p_i];
      step.p_f = in[p.p_f], step.p_o = in[p.p_o];
    }
    step.c_in = c_in, step.c_out = c_out;
    step.gate = CellAct{CellAct::Sigmoid};
    step.cell_in = step.cell_out = armnn_act(cfg.act);
    step.clip_cell = cfg.clip_cell;
    if (cfg.layer_norm)
      step.before_act = [&](float* g, LstmGate which) {
        const int ln = which == LstmGate::Input ? p.ln_i : which == LstmGate::Forget ? p.ln_f : which == LstmGate::Cell ? p.ln_c : p.ln_o;
        const int bias = which == LstmGate::Input ? p.b_i : which == LstmGate::Forget ? p.b_f : which == LstmGate::Cell ? p.b_c : p.b_o;
        layer_norm(g, n, B, in[ln], in[bias]);
      };
    lstm_cell(step);

    const int64_t ys = B * s.n_out;
    if (cfg.projection) {
      for (int64_t b = 0; b < B; ++b)
        for (int64_t k = 0; k < s.n_out; ++k) y[b * s.n_out + k] = p.proj_b >= 0 ? in[p.proj_b][k] : 0.f;
      matvec_acc(in[p.proj_w], s.n_out, n, go, B, y);
      if (cfg.clip_proj > 0)
        for (int64_t i = 0; i < ys; ++i) y[i] = clip(y[i], cfg.clip_proj);
    } else {
      std::copy(go, go + ys, y);
    }
    std::copy(y, y + ys, out[1]);
  };
}

}  // namespace

float CellAct::operator()(float x) const {
  switch (kind) {
    case Sigmoid: return armnn_sigmoid(x);
    case Tanh: return std::tanh(x);
    case Relu: return std::max(0.f, x);
    case Relu6: return std::min(6.f, std::max(0.f, x));
    case Affine: return alpha * x + beta;
    case LeakyRelu: return x < 0 ? alpha * x : x;
    case ThresholdedRelu: return x > alpha ? x : 0.f;
    case ScaledTanh: return alpha * std::tanh(beta * x);
    case HardSigmoid: return std::max(0.f, std::min(1.f, alpha * x + beta));
    case Elu: return x < 0 ? alpha * (std::exp(x) - 1.f) : x;
    case Softsign: return x / (1.f + std::fabs(x));
    case Softplus: return std::log1p(std::exp(x));
  }
  return x;
}

void lstm_cell(const LstmCellStep& s) {
  const int64_t n = s.n, gs = s.batch * n;
  auto peephole = [&](float* g, const float* w, const float* c) {
    for (int64_t b = 0; b < s.batch; ++b)
      for (int64_t k = 0; k < n; ++k) g[b * n + k] = g[b * n + k] + w[k] * c[b * n + k];
  };
  auto activate = [&](float* g, LstmGate which) {
    if (s.before_act) s.before_act(g, which);
    for (int64_t i = 0; i < gs; ++i) g[i] = s.gate(g[i]);
  };
  if (s.i) {
    if (s.p_i) peephole(s.i, s.p_i, s.c_in);
    activate(s.i, LstmGate::Input);
  }
  if (s.p_f) peephole(s.f, s.p_f, s.c_in);
  activate(s.f, LstmGate::Forget);
  if (s.before_act) s.before_act(s.c, LstmGate::Cell);

  for (int64_t i = 0; i < gs; ++i) s.c_out[i] = s.f[i] * s.c_in[i];
  if (s.cell_in)
    for (int64_t i = 0; i < gs; ++i) s.c[i] = (*s.cell_in)(s.c[i]);
  if (!s.i) {
    for (int64_t i = 0; i < gs; ++i) s.f[i] = 1.0f - s.f[i];
    for (int64_t i = 0; i < gs; ++i) s.c_out[i] = s.c_out[i] + s.c[i] * s.f[i];
  } else {
    for (int64_t i = 0; i < gs; ++i) s.c_out[i] = s.c_out[i] + s.c[i] * s.i[i];
  }
  if (s.clip_cell > 0)
    for (int64_t i = 0; i < gs; ++i) s.c_out[i] = clip(s.c_out[i], s.clip_cell);

  if (s.p_o) peephole(s.o, s.p_o, s.c_out);
  activate(s.o, LstmGate::Output);
  if (s.cell_out)
    for (int64_t i = 0; i < gs; ++i) s.c[i] = (*s.cell_out)(s.c_out[i]);
  for (int64_t i = 0; i < gs; ++i) s.o[i] = s.o[i] * s.c[i];
}

void add_lstm_kernels(KernelTable& t) { t["armnn.Lstm"] = make_lstm; }

}  // namespace nnbridge::cpu_ref
