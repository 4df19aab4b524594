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
// Errors: Error(Invalid) for missing or mis-sized parameters, inconsistent shapes, or a scale
// that is not positive; Error(Unsupported) for an input or output that is not quantized.
#include <algorithm>
#include <cmath>
#include <limits>

#include "armnn_params.h"

namespace nnbridge::cpu_ref {

namespace {

// A quantized storage format: armnn::Quantize / armnn::Dequantize in float32.
struct QFormat {
  float scale = 1;
  int32_t zero = 0;
  float lo = -32768, hi = 32767;
  int32_t quantize(float v) const {
    const float r = std::round(v / scale) + static_cast<float>(zero);
    return static_cast<int32_t>(std::min(std::max(r, lo), hi));
  }
  float dequantize(int32_t q) const { return static_cast<float>(q - zero) * scale; }
};

QFormat int16_format(float scale, int32_t zero = 0) { return QFormat{scale, zero, -32768.f, 32767.f}; }

QFormat format_of(const KernelContext& ctx, const TensorType& t, const char* what) {
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

struct QLstmConfig {
  bool cifg = true, peephole = false, projection = false, layer_norm = false;
  float cell_clip = 0, proj_clip = 0;
  int64_t batch = 0, n_in = 0, n_cell = 0, n_out = 0;
  float inter[4] = {};   // intermediate scales of i, f, c, o
  float ln_scale[4] = {};  // scales of the layer-norm weights of i, f, c, o
  float proj_bias_scale = 0;  // 0: raw Int32 values
  float input_scale = 1;
  QFormat cell, hidden, output, state_out;
  int w_x[4] = {-1, -1, -1, -1}, w_h[4] = {-1, -1, -1, -1}, bias[4] = {-1, -1, -1, -1}, ln[4] = {-1, -1, -1, -1};
  int peep[4] = {-1, -1, -1, -1};  // i, f, -, o
  int proj_w = -1, proj_b = -1;
};

enum Gate { kI = 0, kF = 1, kC = 2, kO = 3 };

// The Int32 scale of a bias parameter as the file declares it: the IR keeps it on the value
// (Arm NN stores Int32 tensors with a scale, which the IR's Int32 type does not carry).
float int32_scale(const KernelContext& ctx, int index) {
  const TensorType& t = ctx.in[static_cast<std::size_t>(index)];
  if (t.quantization && !t.quantization->scales.empty()) return 0;  // already dequantized by the plan
  if (static_cast<std::size_t>(index) < ctx.in_attrs.size() && ctx.in_attrs[index])
    if (auto it = ctx.in_attrs[index]->find("armnn.tensorInfo.quantizationScale"); it != ctx.in_attrs[index]->end()) {
      if (it->second.is<double>()) return static_cast<float>(it->second.get<double>());
    }
  return 0;
}

Kernel make_qlstm(const KernelContext& ctx) {
  if (ctx.in.size() < 3 || ctx.out.size() != 3) ctx.invalid(ErrorId::Arity, "needs 3 input slots and 3 outputs (output_state_out, cell_state_out, output)");
  const ArmnnConstInputs named(ctx, 3);
  QLstmConfig c;
  c.cifg = ctx.attr_int("armnn.descriptor.cifgEnabled", 1) != 0;
  c.peephole = ctx.attr_int("armnn.descriptor.peepholeEnabled", 0) != 0;
  c.projection = ctx.attr_int("armnn.descriptor.projectionEnabled", 0) != 0;
  c.layer_norm = ctx.attr_int("armnn.descriptor.layerNormEnabled", 0) != 0;
  c.cell_clip = static_cast<float>(ctx.attr_float("armnn.descriptor.cellClip", 0));
  c.proj_clip = static_cast<float>(ctx.attr_float("armnn.descriptor.projectionClip", 0));
  const char* inter_names[4] = {"inputIntermediateScale", "forgetIntermediateScale", "cellIntermediateScale", "outputIntermediateScale"};
  for (int g = 0; g < 4; ++g) c.inter[g] = static_cast<float>(ctx.attr_float(std::string("armnn.descriptor.") + inter_names[g], 0));
  c.hidden = QFormat{static_cast<float>(ctx.attr_float("armnn.descriptor.hiddenStateScale", 0)),
                     static_cast<int32_t>(ctx.attr_int("armnn.descriptor.hiddenStateZeroPoint", 0)), -128.f, 127.f};
  if (!(c.hidden.scale > 0)) ctx.invalid(ErrorId::AttributeValue, "hiddenStateScale must be positive");

  const QFormat in_fmt = format_of(ctx, ctx.in[0], "input");
  format_of(ctx, ctx.in[1], "output_state_in");
  format_of(ctx, ctx.in[2], "cell_state_in");
  c.input_scale = in_fmt.scale;
  c.state_out = format_of(ctx, ctx.out[0], "output_state_out");
  c.cell = format_of(ctx, ctx.out[1], "cell_state_out");
  c.output = format_of(ctx, ctx.out[2], "output");

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
    if (g == kI && c.cifg) continue;
    const std::string G = gate_names[g];
    c.w_x[g] = named.require("inputParams.inputTo" + G + "Weights", wx);
    c.w_h[g] = named.require("inputParams.recurrentTo" + G + "Weights", wh);
    c.bias[g] = named.require(g == kC ? std::string("inputParams.cellBias") : "inputParams." + std::string(g == kI ? "input" : g == kF ? "forget" : "output") + "GateBias", nc);
    if (c.peephole && g != kC) c.peep[g] = named.require("inputParams.cellTo" + G + "Weights", nc);
    if (c.layer_norm) {
      c.ln[g] = named.require("inputParams." + std::string(g == kI ? "input" : g == kF ? "forget" : g == kC ? "cell" : "output") + "LayerNormWeights", nc);
      const TensorType& t = ctx.in[static_cast<std::size_t>(c.ln[g])];
      if (!t.quantization || t.quantization->scales.size() != 1) ctx.invalid(ErrorId::TypeMismatch, G + " layer-norm weights need one quantization scale");
      c.ln_scale[g] = static_cast<float>(t.quantization->scales[0]);
    }
    if (!(c.inter[g] > 0)) ctx.invalid(ErrorId::AttributeValue, G + " intermediate scale must be positive");
  }
  if (c.projection) {
    c.proj_w = named.require("inputParams.projectionWeights", c.n_out * nc);
    c.proj_b = named.optional("inputParams.projectionBias", c.n_out);
    if (c.proj_b >= 0) c.proj_bias_scale = int32_scale(ctx, c.proj_b);
  }
  // Layer norm reads the biases' raw Int32 values; the plan dequantizes an Int32 that has a
  // quantization, so keep its scale to undo that.
  float bias_type_scale[4] = {0, 0, 0, 0};
  for (int g = 0; g < 4; ++g)
    if (c.bias[g] >= 0) {
      const TensorType& t = ctx.in[static_cast<std::size_t>(c.bias[g])];
      if (t.quantization && !t.quantization->scales.empty()) bias_type_scale[g] = static_cast<float>(t.quantization->scales[0]);
    }

  return [c, bias_type_scale](std::span<const float* const> in, std::span<float* const> out) {
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
        if (bias_type_scale[g] != 0) raw = std::round(raw / bias_type_scale[g]);
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
