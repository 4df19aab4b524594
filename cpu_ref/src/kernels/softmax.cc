// Softmax and LogSoftmax along `axis` with Arm NN's beta:
// softmax(x)_i = exp(beta * (x_i - max)) / sum_j exp(beta * (x_j - max))
// (ONNX Softmax-13 for axis; Arm NN SoftmaxDescriptor.m_Beta, armnn/src/backends/reference/
// workloads/Softmax.cpp), log_softmax(x)_i = beta * (x_i - max) - log(sum_j exp(beta * (x_j - max))).
#include <cmath>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

KernelFactory softmax(bool log) {
  return [log](const KernelContext& ctx) -> Kernel {
    const Shape s = ctx.in[0].shape;
    const int64_t rank = static_cast<int64_t>(s.size());
    const int64_t axis = norm_axis(ctx.attr_int("axis", -1), rank);
    const float beta = static_cast<float>(ctx.attr_float("beta", 1.0));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= s[d];
    for (int64_t d = axis + 1; d < rank; ++d) inner *= s[d];
    const int64_t len = rank ? s[axis] : 1;
    return [=](std::span<const float* const> in, std::span<float* const> out) {
      const float* x = in[0];
      float* y = out[0];
      for (int64_t o = 0; o < outer; ++o)
        for (int64_t k = 0; k < inner; ++k) {
          const float* xp = x + o * len * inner + k;
          float* yp = y + o * len * inner + k;
          float mx = -INFINITY;
          for (int64_t i = 0; i < len; ++i) mx = std::max(mx, xp[i * inner]);
          float sum = 0;
          for (int64_t i = 0; i < len; ++i) {
            float e = std::exp(beta * (xp[i * inner] - mx));
            if (!log) yp[i * inner] = e;
            sum += e;
          }
          if (log) {
            float ls = std::log(sum);
            for (int64_t i = 0; i < len; ++i) yp[i * inner] = beta * (xp[i * inner] - mx) - ls;
          } else {
            for (int64_t i = 0; i < len; ++i) yp[i * inner] /= sum;
          }
        }
    };
  };
}

}  // namespace

void add_softmax_kernels(KernelTable& t) {
  t["Softmax"] = softmax(false);
  t["LogSoftmax"] = softmax(true);
}

}  // namespace nnbridge::cpu_ref
