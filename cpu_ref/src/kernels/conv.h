// Shared pieces of the Conv kernels (conv.cc: im2col + Eigen GEMM; depthwise.cc: direct;
// conv3d.cc: direct 3-D loops, also under the integer convolutions of qlinear.cc).
#pragma once

#include <array>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "../kernel.h"
#include "vector_ops.h"

namespace nnbridge::cpu_ref {

enum class WLayout { OIHW, OHWI, HWO1, MIHW };

/// A 2-D convolution's geometry, resolved at prepare time (ONNX Conv-11 names).
struct ConvGeom {
  int64_t n, c, h, w, m, oh, ow, kh, kw, sh, sw, dh, dw, pt, pl, group;
  bool nhwc;
  std::string layout;  ///< kernel_layout of W: OIHW, OHWI, 1HWO or MIHW
  WLayout wl;          ///< the same, parsed
  Shape wshape;
  /// Where W[o][i][y][x] (output channel o, input channel i within its group) is in W's layout.
  int64_t w_index(int64_t o, int64_t i, int64_t y, int64_t x) const;
};

/// W (any kernel_layout) as OIHW: [m][c / group][kh][kw].
std::vector<float> to_oihw(const ConvGeom& g, const float* w);

/// Whether an NCHW Conv of this geometry, with constant W, multiplies with the output channels
/// across the vector lanes (sgemm/indirect.h) where the AVX-512 sgemm runs: one group and K = C x
/// kh x kw >= kIndirectMinK; a direct 1x1 convolution (stride 1, no padding: sgemm streams X's
/// planes as they lie) instead only on a plane that fills less than 90% of the lanes of its
/// vectors (7 x 7: 49 of 64; 14 x 14, 196 of 208, measured no faster that way, 13 x 13 slower),
/// and from K = kIndirectMinKDirect.
bool indirect_pays(const ConvGeom& g);

/// Bias of output channel o: B[o], times the implied scale of a quantized graph (see
/// implied_bias_scale); nullptr B gives zeros.
std::vector<float> conv_bias(const float* b, const std::vector<float>& bscale, int64_t m);

/// Depthwise convolution with channel multiplier 1 (group = C = M), computed directly: each
/// output is B[c] + the sum over the taps inside the image, in (ky, kx) order. Threads split
/// output rows. W is packed at prepare time when constant, else per run. The epilogue runs on
/// each output row (NHWC) or plane (NCHW) once it is complete.
EpilogueKernel make_depthwise(const KernelContext& ctx, const ConvGeom& g, bool has_bias, std::vector<float> bscale);

/// What make_depthwise_padded runs on each output plane (channel c, `count` floats at y) once it
/// is computed, with the node's inputs.
using PlaneFinish = std::function<void(std::span<const float* const> in, int64_t c, float* y, int64_t count)>;

/// Depthwise convolution as make_depthwise's NCHW path for strides 1 and 2, without bias, with the
/// padding read as `pad_value` instead of 0: each output is the sum over all kh x kw taps, in
/// (ky, kx) order, of W times X or pad_value. W must be a constant (input 1); null otherwise, or
/// for NHWC or a stride past 2. `finish` runs on each plane right after it (in the same thread).
Kernel make_depthwise_padded(const KernelContext& ctx, const ConvGeom& g, float pad_value, PlaneFinish finish);

/// Conv on rank-5 X (conv3d.cc): direct loops, kernel_layout OIHW, OHWI or HWIO.
Kernel make_conv3d(const KernelContext& ctx);

/// A 3-D convolution's geometry (conv3d.cc), resolved at prepare time: X is input 0 (NCDHW, or
/// NDHWC with data_layout NHWC), W input `w_input` in kernel_layout OIHW, OHWI or HWIO, Y output 0;
/// pads with auto_pad applied (spatial.h).
struct Conv3dGeom {
  bool nhwc = false;
  int64_t N = 0, C = 0, M = 0, group = 1, cg = 0, mg = 0;  // cg, mg: channels per group
  std::array<int64_t, 3> in{}, on{}, k{};
  Shape s, d, p;
  int wl = 0;  // W's layout: 0 OIHW, 1 OHWI, 2 HWIO
  int64_t w_at(int64_t o, int64_t i, int64_t z, int64_t y, int64_t x) const {
    if (wl == 0) return (((o * cg + i) * k[0] + z) * k[1] + y) * k[2] + x;
    if (wl == 1) return (((o * k[0] + z) * k[1] + y) * k[2] + x) * cg + i;
    return (((z * k[1] + y) * k[2] + x) * cg + i) * M + o;
  }
  int64_t x_at(int64_t n, int64_t c, int64_t z, int64_t y, int64_t x) const {
    return nhwc ? (((n * in[0] + z) * in[1] + y) * in[2] + x) * C + c : (((n * C + c) * in[0] + z) * in[1] + y) * in[2] + x;
  }
  int64_t y_at(int64_t n, int64_t m, int64_t z, int64_t y, int64_t x) const {
    return nhwc ? (((n * on[0] + z) * on[1] + y) * on[2] + x) * M + m : (((n * M + m) * on[0] + z) * on[1] + y) * on[2] + x;
  }
};
Conv3dGeom conv3d_geom(const KernelContext& ctx, std::size_t w_input);

/// QLinearConv-10's requantization multiplier as ONNX's reference implementation computes it:
/// x_scale * w_scale / y_scale in float32 (the scales' type), each step rounded to float32; the
/// integer sum (with B) is then multiplied by it in double, y_zero_point added, the result
/// rounded half to even and saturated.
inline double qlinear_multiplier(float x_scale, float w_scale, float y_scale) {
  const float xw = x_scale * w_scale;
  return static_cast<double>(xw / y_scale);
}

/// The values of constant input `i` read exactly from its stored Int32 bytes (QLinearConv's B,
/// whose float32 form rounds beyond 2^24 in magnitude), else null: not a constant, or stored
/// as another type.
inline std::shared_ptr<const std::vector<int64_t>> exact_int32_constant(const KernelContext& ctx, std::size_t i) {
  const exec::FloatConstant* c = i < ctx.constants.size() ? ctx.constants[i] : nullptr;
  if (!c || !c->stored() || !c->stored_type() || c->stored_type()->dtype != DataType::Int32 || c->stored_type()->quantization)
    return nullptr;
  auto v = std::make_shared<std::vector<int64_t>>(c->size());
  for (std::size_t k = 0; k < c->size(); ++k) {
    int32_t x;
    std::memcpy(&x, c->stored()->data() + 4 * k, 4);
    (*v)[k] = x;
  }
  return v;
}

/// Value k of a zero point / scale input holding `count` values: 0 (absent) gives 0, 1 is per
/// tensor, else one per channel (ONNX ConvInteger-10, QLinearConv-10, MatMulInteger-10).
inline float at_or(const float* p, int64_t count, int64_t k) { return count == 0 ? 0.0f : p[count == 1 ? 0 : k]; }
/// Input i of a run, nullptr when the node leaves it out.
inline const float* input_or_null(std::span<const float* const> in, std::size_t i) { return i < in.size() ? in[i] : nullptr; }

/// The range a QLinearConv kernel saturates its requantized outputs to, read each time the
/// kernel runs: the range of y_zero_point's type, which the plan narrows at prepare when the
/// DequantizeLinear -> Relu / Clip -> QuantizeLinear chain after the QLinearConv computes a clamp
/// of its values (backend.cc). Any other such chain the plan folds in as `finish`.
struct OutputRange {
  float lo = 0, hi = 0;
  /// Applied in place to each run of requantized outputs (y, n) as soon as it is written, before
  /// anything reads it: the folded chain (quantized_chain.h, run_quantized_chain; elementwise,
  /// so the same bits as its own step); empty when none.
  std::function<void(float* y, int64_t n)> finish;
};

/// The operands of ConvInteger-10 / QLinearConv-10 (qlinear.cc): input indices and how many
/// values each per-channel input holds (0: absent).
struct IntegerConvArgs {
  bool qlinear = false;                     ///< QLinearConv: requantize; ConvInteger: the Int32 sum
  std::size_t w = 1, xzp = 2, wzp = 3;      ///< inputs W, x_zero_point, w_zero_point
  int64_t xz_count = 0, wz_count = 0;       ///< x_zero_point (0 or 1), w_zero_point (0, 1 or M)
  int64_t ws_count = 0, b_count = 0;        ///< w_scale (1 or M), B (0 or M)
  std::shared_ptr<const OutputRange> range;  ///< QLinearConv: the requantized range (OutputRange)
  /// B's values read exactly when it is a constant (exact_int32_constant), else null: B from
  /// the run's float32 buffer, exact up to 2^24 in magnitude.
  std::shared_ptr<const std::vector<int64_t>> bias;
};

/// QLinearConv's kernel (qlinear.cc) and, where x_scale, w_scale and y_scale are constants whose
/// multipliers are all finite, its OutputRange for the plan to narrow at prepare (else null).
struct RangedKernel {
  Kernel kernel;
  std::shared_ptr<OutputRange> range;
};
RangedKernel qlinear_conv_ranged(const KernelContext& ctx);

/// ConvInteger / QLinearConv on a 2-D NCHW image (g lifted to 3-D with unit depth), exactly
/// (integer_conv.cc): on the int8 GEMM (igemm/igemm.h) where the CPU and the weights allow,
/// else on the float32 kernels: depthwise of at most 256 taps on the depthwise kernel, others
/// as im2col and the GEMM in slices of 256 products. The same integer sums and outputs as the
/// direct loops; null for other geometries (rank 5, NHWC).
Kernel make_integer_conv_fast(const KernelContext& ctx, const Conv3dGeom& g, const IntegerConvArgs& a);

/// The direct 3-D convolution: for each output element, emit(index in Y, output channel, sum)
/// with the sum of W * X over the taps inside the input, in (kz, ky, kx, c) order, accumulated
/// in Acc (float for Conv, int64 for the integer convolutions).
template <class Acc, class T, class Emit>
void conv3d_each(const Conv3dGeom& g, const T* X, const T* W, Emit&& emit) {
  for (int64_t n = 0; n < g.N; ++n)
    for (int64_t m = 0; m < g.M; ++m) {
      const int64_t c0 = (m / g.mg) * g.cg;
      for (int64_t oz = 0; oz < g.on[0]; ++oz)
        for (int64_t oy = 0; oy < g.on[1]; ++oy)
          for (int64_t ox = 0; ox < g.on[2]; ++ox) {
            Acc acc = 0;
            for (int64_t kz = 0; kz < g.k[0]; ++kz) {
              const int64_t iz = oz * g.s[0] - g.p[0] + kz * g.d[0];
              if (iz < 0 || iz >= g.in[0]) continue;
              for (int64_t ky = 0; ky < g.k[1]; ++ky) {
                const int64_t iy = oy * g.s[1] - g.p[1] + ky * g.d[1];
                if (iy < 0 || iy >= g.in[1]) continue;
                for (int64_t kx = 0; kx < g.k[2]; ++kx) {
                  const int64_t ix = ox * g.s[2] - g.p[2] + kx * g.d[2];
                  if (ix < 0 || ix >= g.in[2]) continue;
                  for (int64_t i = 0; i < g.cg; ++i)
                    acc += static_cast<Acc>(W[g.w_at(m, i, kz, ky, kx)]) * static_cast<Acc>(X[g.x_at(n, c0 + i, iz, iy, ix)]);
                }
              }
            }
            emit(g.y_at(n, m, oz, oy, ox), m, acc);
          }
    }
}

}  // namespace nnbridge::cpu_ref
