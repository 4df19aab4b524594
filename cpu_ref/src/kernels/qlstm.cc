// armnn.QLstm: one time step of Arm NN's quantized LSTM, computed as Arm NN 20.08 CpuRef does
// (armnn/src/backends/reference/workloads/RefQLstmWorkload.cpp, a port of Android NN's QLSTM):
// every arithmetic step runs in float32, but its result is stored in a quantized buffer and read
// back, so each step rounds (armnn::Quantize: round half away from zero, clamp) exactly where
// CpuRef rounds. This file reproduces those buffers step by step.
//
// Inputs: input [B, nIn] (QAsymmS8), output_state_in [B, nOut] (QAsymmS8), cell_state_in
// [B, nCell] (QSymmS16), then the QLstmInputParams named in armnn.constInputs (weights QSymmS8,
// biases Int32, peephole and layer-norm weights QSymmS16), as for armnn.Lstm (lstm.cc).
// Attributes: armnn.descriptor.{cifgEnabled, peepholeEnabled, projectionEnabled,
// layerNormEnabled, cellClip, projectionClip, inputIntermediateScale, forgetIntermediateScale,
// cellIntermediateScale, outputIntermediateScale, hiddenStateZeroPoint, hiddenStateScale}.
// Outputs: output_state_out [B, nOut], cell_state_out [B, nCell], output [B, nOut], quantized
// as their declared types.
//
// CpuRef's steps, with Q_s(x) meaning "stored as int16 with scale s" (zero point 0):
//  1. gate g (i unless CIFG, f, c, o) = Q_{intermediate_g}(W_xg x + W_hg h_in), accumulated
//     one product at a time, each partial sum rounded; peephole terms (i, f on c_in) likewise.
//  2. layer norm (when enabled): normalize into Q_{s_x * s_LNw * 1024}, times LN weights into the
//     same, plus the bias read as Int32 with scale s_LNw / 1024 into Q_{1/4096}. Gate biases are
//     used only here: without layer norm CpuRef 20.08 adds no gate bias at all.
//  3. i, f, o = Q_{s_cell}(sigmoid(.)), c = Q_{s_cell}(tanh(.)) with s_cell the scale of
//     cell_state_out.
//  4. cell_state_out = f * c_in + c * i (i = Q(1 - f) under CIFG), each step rounded to
//     cell_state_out, then clipped to +-cellClip when cellClip > 0; o gets its peephole from it.
//  5. hidden = o * Q_{s_cell}(tanh(cell_state_out)), stored as QAsymmS8 with hiddenStateScale and
//     hiddenStateZeroPoint.
//  6. projection: int16 accumulator with output's scale and zero point, starting from the
//     projection bias (read with its own Int32 scale) or from raw 0, plus projectionWeights x
//     hidden, then stored as output and clipped to +-projectionClip when > 0; without projection
//     output = hidden. output_state_out = output.
// The node (formats, descriptor, sizes, parameters, refusals) is the exec floor's reading
// (nnbridge/exec/armnn_qlstm.h), the same the opencl kernel (gpu/src/ops_qlstm.cc) reads.
// Errors: Error(Invalid) for missing or mis-sized parameters, inconsistent shapes, or a scale
// that is not positive; Error(Unsupported) for an input or output that is not quantized.
#include <algorithm>
#include <cmath>
#include <limits>

#include "armnn_params.h"
#include "nnbridge/exec/armnn_qlstm.h"

namespace nnbridge::cpu_ref {

namespace {

using exec::int16_format;
using exec::QFormat;
using exec::QLstmConfig;
enum Gate { kI = QLstmConfig::kI, kF = QLstmConfig::kF, kC = QLstmConfig::kC, kO = QLstmConfig::kO };

Kernel make_qlstm(const KernelContext& ctx) {
  const QLstmConfig c = exec::armnn_qlstm(ctx);  // the node as both backends read it
  return [c](std::span<const float* const> in, std::span<float* const> out) {
    const int64_t B = c.batch, n = c.n_cell, size = B * n;
    const float *x = in[0], *h_in = in[1], *c_in = in[2];
    std::vector<int32_t> gate[4];
    QFormat fmt[4];
    for (int g = 0; g < 4; ++g) {
      if (g == kI && c.cifg) continue;
      fmt[g] = int16_format(c.inter[g]);
      gate[g].assign(static_cast<std::size_t>(size), fmt[g].quantize(0.f));
    }
    // acc[b][r] = Q(D(acc) + m[r][k] * v[b][k]) for each k in turn.
    auto mac = [&](std::vector<int32_t>& acc, const QFormat& f, const float* m, int64_t rows, int64_t cols, const float* v) {
      for (int64_t b = 0; b < B; ++b)
        for (int64_t r = 0; r < rows; ++r) {
          int32_t& q = acc[static_cast<std::size_t>(b * rows + r)];
          for (int64_t k = 0; k < cols; ++k) q = f.quantize(f.dequantize(q) + m[r * cols + k] * v[b * cols + k]);
        }
    };
    for (int g = 0; g < 4; ++g)
      if (!gate[g].empty()) mac(gate[g], fmt[g], in[c.w_x[g]], n, c.n_in, x);
    for (int g = 0; g < 4; ++g)
      if (!gate[g].empty()) mac(gate[g], fmt[g], in[c.w_h[g]], n, c.n_out, h_in);

    auto peephole = [&](int g, const std::vector<float>& cell) {
      for (int64_t b = 0; b < B; ++b)
        for (int64_t k = 0; k < n; ++k) {
          int32_t& q = gate[g][static_cast<std::size_t>(b * n + k)];
          q = fmt[g].quantize(fmt[g].dequantize(q) + in[c.peep[g]][k] * cell[static_cast<std::size_t>(b * n + k)]);
        }
    };
    auto layer_norm = [&](int g) {
      constexpr float kEpsilon = 1e-8f;  // RefQLstmWorkload m_LayerNormEpsilon
      const QFormat norm = int16_format(c.input_scale * c.ln_scale[g] * 1024);
      const QFormat biased = int16_format(1.f / 4096);
      const float bias_scale = c.ln_scale[g] / 1024;
      std::vector<int32_t>& q = gate[g];
      for (int64_t b = 0; b < B; ++b) {
        float sum = 0.f, sum_sq = 0.f;
        for (int64_t k = 0; k < n; ++k) {
          const float v = fmt[g].dequantize(q[static_cast<std::size_t>(b * n + k)]);
          sum += v;
          sum_sq += v * v;
        }
        const float mean = sum / static_cast<float>(n);
        const float variance = sum_sq / static_cast<float>(n) - mean * mean;
        const float inv = 1.0f / std::sqrt(variance == 0 ? kEpsilon : variance);
        for (int64_t k = 0; k < n; ++k) {
          int32_t& e = q[static_cast<std::size_t>(b * n + k)];
          e = norm.quantize((fmt[g].dequantize(e) - mean) * inv);
        }
      }
      for (int64_t i = 0; i < size; ++i) q[i] = norm.quantize(in[c.ln[g]][i % n] * norm.dequantize(q[i]));
      for (int64_t i = 0; i < size; ++i) {
        float raw = in[c.bias[g]][i % n];
        if (c.bias_type_scale[g] != 0) raw = std::round(raw / c.bias_type_scale[g]);
        q[i] = biased.quantize(norm.dequantize(q[i]) + raw * bias_scale);
      }
      fmt[g] = biased;
    };
    auto activate = [&](int g, bool tanh_act) {
      for (auto& e : gate[g]) {
        const float v = fmt[g].dequantize(e);
        e = c.cell.quantize(tanh_act ? armnn_tanh(1.f, 1.f, v) : armnn_sigmoid(v));
      }
      fmt[g] = int16_format(c.cell.scale);  // the gate buffers keep zero point 0
    };

    std::vector<float> cell_in(c_in, c_in + size);
    if (!c.cifg) {
      if (c.peephole) peephole(kI, cell_in);
      if (c.layer_norm) layer_norm(kI);
      activate(kI, false);
    }
    if (c.peephole) peephole(kF, cell_in);
    if (c.layer_norm) layer_norm(kF);
    activate(kF, false);
    if (c.layer_norm) layer_norm(kC);
    activate(kC, true);

    // Cell state, in cell_state_out's format.
    std::vector<int32_t> cell(static_cast<std::size_t>(size));
    for (int64_t i = 0; i < size; ++i) cell[i] = c.cell.quantize(fmt[kF].dequantize(gate[kF][i]) * cell_in[i]);
    if (c.cifg)
      for (int64_t i = 0; i < size; ++i) gate[kF][i] = fmt[kF].quantize(1.0f - fmt[kF].dequantize(gate[kF][i]));
    const int other = c.cifg ? kF : kI;
    for (int64_t i = 0; i < size; ++i)
      cell[i] = c.cell.quantize(c.cell.dequantize(cell[i]) + fmt[kC].dequantize(gate[kC][i]) * fmt[other].dequantize(gate[other][i]));
    if (c.cell_clip > 0)
      for (auto& e : cell) e = c.cell.quantize(std::max(-c.cell_clip, std::min(c.cell_clip, c.cell.dequantize(e))));
    std::vector<float> cell_f(static_cast<std::size_t>(size));
    for (int64_t i = 0; i < size; ++i) cell_f[i] = c.cell.dequantize(cell[i]);

    if (c.peephole) peephole(kO, cell_f);
    if (c.layer_norm) layer_norm(kO);
    activate(kO, false);
    for (int64_t i = 0; i < size; ++i) gate[kC][i] = fmt[kC].quantize(armnn_tanh(1.f, 1.f, cell_f[i]));
    std::vector<int32_t> hidden(static_cast<std::size_t>(size));
    for (int64_t i = 0; i < size; ++i)
      hidden[i] = c.hidden.quantize(fmt[kO].dequantize(gate[kO][i]) * fmt[kC].dequantize(gate[kC][i]));

    const int64_t ys = B * c.n_out;
    std::vector<int32_t> output(static_cast<std::size_t>(ys));
    if (c.projection) {
      const QFormat acc_fmt = int16_format(c.output.scale, c.output.zero);
      std::vector<int32_t> acc(static_cast<std::size_t>(ys), 0);  // CpuRef's buffer starts as raw zeros
      if (c.proj_b >= 0)
        for (int64_t i = 0; i < ys; ++i) {
          const float raw = in[c.proj_b][i % c.n_out];
          acc[i] = acc_fmt.quantize(c.proj_bias_scale != 0 ? raw * c.proj_bias_scale : raw);
        }
      std::vector<float> hidden_f(static_cast<std::size_t>(size));
      for (int64_t i = 0; i < size; ++i) hidden_f[i] = c.hidden.dequantize(hidden[i]);
      mac(acc, acc_fmt, in[c.proj_w], c.n_out, n, hidden_f.data());
      for (int64_t i = 0; i < ys; ++i) output[i] = c.output.quantize(acc_fmt.dequantize(acc[i]));
      if (c.proj_clip > 0)
        for (auto& e : output) e = c.output.quantize(std::max(-c.proj_clip, std::min(c.proj_clip, c.output.dequantize(e))));
    } else {
      for (int64_t i = 0; i < ys; ++i) output[i] = c.output.quantize(c.hidden.dequantize(hidden[i]));
    }
    for (int64_t i = 0; i < ys; ++i) {
      out[2][i] = c.output.dequantize(output[i]);
      out[0][i] = c.state_out.dequantize(c.state_out.quantize(out[2][i]));
    }
    for (int64_t i = 0; i < size; ++i) out[1][i] = cell_f[i];
  };
}

}  // namespace

void add_qlstm_kernels(KernelTable& t) { t["armnn.QLstm"] = make_qlstm; }

}  // namespace nnbridge::cpu_ref
