// Arm NN's quantized LSTM layer (armnn.QLstm, one time step) as both backends read it: the
// quantized storage formats, the descriptor, the sizes and where each QLstmInputParams tensor
// sits among the node's inputs, read and checked once (cpu_ref/src/kernels/qlstm.cc and
// gpu/src/ops_qlstm.cc compute from this), and the activation tables the opencl kernel looks up.
//
// Both backends hold a quantized tensor as float32 real values (nnbridge/exec/convert.h
// to_float: scale * (q - zero_point)), so a kernel reads dequantized inputs and writes
// dequantized outputs; the steps in between round into quantized buffers (QFormat).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "nnbridge/exec/armnn_params.h"

namespace nnbridge::exec {

/// A quantized storage format: armnn::Quantize / armnn::Dequantize in float32.
/// quantize: clamp(std::round(v / scale) + zero_point) to [lo, hi] (round half away from zero),
/// then int32 (a NaN becomes INT32_MIN, as x86-64's conversion makes it).
struct QFormat {
  float scale = 1;
  int32_t zero = 0;
  float lo = -32768, hi = 32767;
  int32_t quantize(float v) const {
    const float r = std::min(std::max(std::round(v / scale) + static_cast<float>(zero), lo), hi);
    // A NaN passes both clamps; converting it is undefined in C++, so it is spelt out as the
    // x86-64 conversion (cvttss2si) gives it: INT32_MIN, what the opencl kernel's qz returns.
    return std::isnan(r) ? INT32_MIN : static_cast<int32_t>(r);
  }
  float dequantize(int32_t q) const { return static_cast<float>(q - zero) * scale; }
};

/// The int16 buffer CpuRef rounds a step into: [-32768, 32767] with `scale` and `zero`.
inline QFormat int16_format(float scale, int32_t zero = 0) { return QFormat{scale, zero, -32768.f, 32767.f}; }

/// The storage format of `t` (named `what` in messages): its one scale and zero point (0 when
/// absent), the range of its dtype (QAsymmS8 / QSymmS8 [-128, 127], QAsymmU8 [0, 255], QSymmS16
/// [-32768, 32767]). Error(Invalid, TypeMismatch) without exactly one scale; Error(Unsupported,
/// DataType) for another dtype; Error(Invalid, AttributeValue) for a scale that is not positive.
QFormat quantized_format(const NodeContext& ctx, const TensorType& t, const char* what);

/// One armnn.QLstm node, read as Arm NN 20.08 CpuRef (RefQLstmWorkload) reads its layer.
struct QLstmConfig : ArmnnLstmFlags {
  /// Gate order of the per-gate arrays below.
  enum Gate { kI = 0, kF = 1, kC = 2, kO = 3 };
  float cell_clip = 0, proj_clip = 0;  ///< <= 0: no clipping
  /// batch and inputSize from the input, outputSize and numUnits from the state inputs (CpuRef).
  int64_t batch = 0, n_in = 0, n_cell = 0, n_out = 0;
  float inter[4] = {};     ///< intermediate scales of i, f, c, o (descriptor)
  float ln_scale[4] = {};  ///< scales of the layer-norm weights of i, f, c, o
  float proj_bias_scale = 0;  ///< the projection bias's Int32 scale; 0: its raw values
  float input_scale = 1;      ///< the input's scale (layer norm's intermediate scale uses it)
  QFormat cell;       ///< cell_state_out's format
  QFormat hidden;     ///< hiddenStateScale / hiddenStateZeroPoint, int8
  QFormat output;     ///< output's format
  QFormat state_out;  ///< output_state_out's format
  /// Node input index of each parameter, -1 where the configuration has none: w_x [n_cell, n_in],
  /// w_h [n_cell, n_out], bias [n_cell], layer-norm weights ln [n_cell], peephole [n_cell] (i, f,
  /// o; never c), projection weights [n_out, n_cell] and bias [n_out] (optional). The input gate's
  /// are -1 under CIFG.
  int w_x[4] = {-1, -1, -1, -1}, w_h[4] = {-1, -1, -1, -1}, bias[4] = {-1, -1, -1, -1}, ln[4] = {-1, -1, -1, -1};
  int peep[4] = {-1, -1, -1, -1};
  int proj_w = -1, proj_b = -1;
  /// Layer norm reads the gate biases' raw Int32 values; the plan dequantizes an Int32 input
  /// that has a quantization, so this keeps its scale to undo that (0: the values are raw).
  float bias_type_scale[4] = {0, 0, 0, 0};
};

/// The armnn.QLstm node `ctx`: inputs input [B, nIn] (QAsymmS8), output_state_in [B, nOut]
/// (QAsymmS8), cell_state_in [B, nCell] (QSymmS16), then the parameters named by
/// armnn.constInputs (exec::ArmnnConstInputs); the descriptor from armnn.descriptor.{cifgEnabled
/// (default 1), peepholeEnabled, projectionEnabled, layerNormEnabled, cellClip, projectionClip,
/// input/forget/cell/outputIntermediateScale, hiddenStateZeroPoint, hiddenStateScale}; outputs
/// output_state_out [B, nOut], cell_state_out [B, nCell], output [B, nOut] (element counts
/// checked).
/// Error(Invalid) for fewer than 3 inputs or other than 3 outputs, a parameter count that
/// armnn.constInputs does not explain, a hiddenStateScale, tensor scale or intermediate scale (of
/// a gate present) that is not positive, an input or state that is not 2-D, mismatched batch or
/// output sizes, nOut != nCell without projection, a missing or mis-sized parameter the
/// descriptor asks for, a tensor or layer-norm weight without exactly one scale;
/// Error(Unsupported) for an input or output of a type that is not quantized.
QLstmConfig armnn_qlstm(const NodeContext& ctx);

/// Arm NN CpuRef's activations as cpu_ref's qlstm kernel applies them (Activation.cpp, float32):
/// sigmoid 1 / (1 + exp(-x)), tanh with a = b = 1.
inline float qlstm_sigmoid(float x) { return 1.f / (1.f + std::exp(-x)); }
inline float qlstm_tanh(float x) { return 1.f * std::tanh(1.f * x); }

/// Entries of an activation table: the int16 range, then INT_MIN (what a NaN quantizes to).
constexpr int kQLstmTableSize = 65537;
/// Index of `q` in an activation table: q + 32768 for an int16, else the last entry.
inline int qlstm_table_index(int32_t q) { return q >= -32768 && q <= 32767 ? q + 32768 : 65536; }

/// The activation of a step whose input is stored in `in` (an int16 buffer, so one of 65536
/// values, or INT_MIN from a NaN): out.quantize(f(in.dequantize(q))) for every q, f sigmoid or
/// tanh as above, indexed by qlstm_table_index. The host's exp / tanh computed once, so a
/// device that looks a step up rounds exactly as cpu, whatever its own exp / tanh would give.
std::vector<int32_t> qlstm_activation_table(const QFormat& in, const QFormat& out, bool tanh);

}  // namespace nnbridge::exec
