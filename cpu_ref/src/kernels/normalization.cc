// BatchNormalization (ONNX inference form: scale * (x - mean) / sqrt(var + epsilon) + B),
// InstanceNormalization (ONNX; Arm NN scalar gamma/beta attributes when scale/B are absent)
// and LpNormalization with p = 2 as Arm NN L2Normalization: x / sqrt(max(sum x^2, epsilon))
// over the channel axis (armnn/src/backends/reference/workloads/RefL2NormalizationWorkload.cpp).
#include <algorithm>
#include <cmath>

#include "vector_ops.h"

namespace nnbridge::cpu_ref {

namespace {

// [outer][C][inner] view of a tensor with its channel axis at `axis`.
struct ChannelView {
  int64_t outer = 1, c = 1, inner = 1;
  ChannelView(const Shape& s, int64_t axis) {
    for (int64_t d = 0; d < axis; ++d) outer *= s[d];
    c = s[axis];
    for (std::size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  }
};

int64_t channel_axis(const KernelContext& ctx) {
  const int64_t r = static_cast<int64_t>(ctx.in[0].shape.size());
  if (r < 2) ctx.invalid(ErrorId::Shape, "X must have rank >= 2");
  return ctx.attr_string("data_layout", "NCHW") == "NHWC" ? r - 1 : 1;
}

// Per channel: mul = scale / sqrt(var + epsilon), then y = (x - mean) * mul + B, one vector run
// per channel (NCHW) or per pixel (NHWC, channels innermost).
Kernel make_batchnorm(const KernelContext& ctx) {
  if (ctx.in.size() < 5) ctx.invalid(ErrorId::Arity, "needs X, scale, B, mean, var");
  ChannelView v(ctx.in[0].shape, channel_axis(ctx));
  for (int i = 1; i < 5; ++i)
    if (numel(ctx.in[i].shape) != v.c) ctx.invalid(ErrorId::Shape, "parameters must have one value per channel");
  const float eps = static_cast<float>(ctx.attr_float("epsilon", 1e-5));
  const int threads = ctx.threads;
  const auto* k = &simd::kernels();
  return [v, eps, threads, k](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<float> mul(static_cast<std::size_t>(v.c));
    for (int64_t c = 0; c < v.c; ++c) mul[c] = in[1][c] / std::sqrt(in[4][c] + eps);
    const float *mean = in[3], *b = in[2];
    if (v.inner == 1) {
      parallel_ranges(threads, v.outer, std::max<int64_t>(1, (int64_t{1} << 15) / std::max<int64_t>(v.c, 1)),
                      [&](int64_t o0, int64_t o1) {
                        for (int64_t o = o0; o < o1; ++o)
                          k->scale_shift(in[0] + o * v.c, out[0] + o * v.c, static_cast<std::size_t>(v.c), mean, mul.data(), b, true);
                      });
      return;
    }
    parallel_ranges(threads, v.outer * v.c, std::max<int64_t>(1, (int64_t{1} << 15) / std::max<int64_t>(v.inner, 1)), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const int64_t c = r % v.c;
        k->scale_shift(in[0] + r * v.inner, out[0] + r * v.inner, static_cast<std::size_t>(v.inner), mean + c, &mul[c], b + c,
                       false);
      }
    });
  };
}

Kernel make_instancenorm(const KernelContext& ctx) {
  const Shape& s = ctx.in[0].shape;
  const int64_t r = static_cast<int64_t>(s.size());
  const bool nhwc = ctx.attr_string("data_layout", "NCHW") == "NHWC";
  if (r < 3) ctx.invalid(ErrorId::Shape, "X must have rank >= 3");
  const int64_t N = s[0], C = nhwc ? s[r - 1] : s[1], S = numel(s) / (N * C);
  const bool has_scale = ctx.has_input(1), has_b = ctx.has_input(2);
  const float gamma = static_cast<float>(ctx.attr_float("gamma", 1.0)), beta = static_cast<float>(ctx.attr_float("beta", 0.0));
  const float eps = static_cast<float>(ctx.attr_float("epsilon", 1e-5));
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    auto at = [&](int64_t n, int64_t c, int64_t i) { return nhwc ? (n * S + i) * C + c : (n * C + c) * S + i; };
    for (int64_t n = 0; n < N; ++n)
      for (int64_t c = 0; c < C; ++c) {
        double mean = 0, var = 0;
        for (int64_t i = 0; i < S; ++i) mean += in[0][at(n, c, i)];
        mean /= static_cast<double>(S);
        for (int64_t i = 0; i < S; ++i) {
          double d = in[0][at(n, c, i)] - mean;
          var += d * d;
        }
        var /= static_cast<double>(S);
        const float g = has_scale ? in[1][c] : gamma, b = has_b ? in[2][c] : beta;
        const float inv = static_cast<float>(1.0 / std::sqrt(var + eps));
        for (int64_t i = 0; i < S; ++i)
          out[0][at(n, c, i)] = (in[0][at(n, c, i)] - static_cast<float>(mean)) * inv * g + b;
      }
  };
}

Kernel make_lpnorm(const KernelContext& ctx) {
  if (ctx.attr_int("p", 2) != 2) ctx.unsupported("LpNormalization with p != 2");
  const int64_t r = static_cast<int64_t>(ctx.in[0].shape.size());
  ChannelView v(ctx.in[0].shape, ctx.attr_axis("axis", -1, r));
  const float eps = static_cast<float>(ctx.attr_float("epsilon", 0.0));
  return [v, eps](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t o = 0; o < v.outer; ++o)
      for (int64_t i = 0; i < v.inner; ++i) {
        float sum = 0;
        for (int64_t c = 0; c < v.c; ++c) {
          const float x = in[0][(o * v.c + c) * v.inner + i];
          sum += x * x;
        }
        const float inv = 1.0f / std::sqrt(std::max(sum, eps));
        for (int64_t c = 0; c < v.c; ++c) {
          const int64_t k = (o * v.c + c) * v.inner + i;
          out[0][k] = in[0][k] * inv;
        }
      }
  };
}

// ONNX LRN-13 across channels: x / (bias + alpha / size * sum x^2)^beta, the sum over channels
// [c - floor((size-1)/2), c + ceil((size-1)/2)]. (Arm NN Normalization LocalBrightness Across
// has no division by size; the Arm NN reader multiplies alpha by normSize.)
Kernel make_lrn(const KernelContext& ctx) {
  const int64_t r = static_cast<int64_t>(ctx.in[0].shape.size());
  if (r < 2) ctx.invalid(ErrorId::Shape, "X must have rank >= 2");
  ChannelView v(ctx.in[0].shape, channel_axis(ctx));
  const int64_t size = ctx.attr_int("size", 1);
  if (size < 1) ctx.invalid(ErrorId::AttributeValue, "size must be >= 1");
  const float alpha = static_cast<float>(ctx.attr_float("alpha", 1e-4)), beta = static_cast<float>(ctx.attr_float("beta", 0.75));
  const float bias = static_cast<float>(ctx.attr_float("bias", 1.0));
  const int64_t lo = (size - 1) / 2, hi = size - 1 - lo;
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    for (int64_t o = 0; o < v.outer; ++o)
      for (int64_t c = 0; c < v.c; ++c)
        for (int64_t i = 0; i < v.inner; ++i) {
          float sum = 0;
          for (int64_t k = std::max<int64_t>(0, c - lo); k <= std::min(v.c - 1, c + hi); ++k) {
            const float x = in[0][(o * v.c + k) * v.inner + i];
            sum += x * x;
          }
          const int64_t j = (o * v.c + c) * v.inner + i;
          out[0][j] = in[0][j] / std::pow(bias + alpha / static_cast<float>(size) * sum, beta);
        }
  };
}

}  // namespace

void add_normalization_kernels(KernelTable& t) {
  t["LRN"] = make_lrn;
  t["BatchNormalization"] = make_batchnorm;
  t["InstanceNormalization"] = make_instancenorm;
  t["LpNormalization"] = make_lpnorm;
}

}  // namespace nnbridge::cpu_ref
