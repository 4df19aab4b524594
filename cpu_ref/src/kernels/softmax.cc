// Softmax and LogSoftmax along `axis` with Arm NN's beta:
// softmax(x)_i = exp(beta * (x_i - max)) / sum_j exp(beta * (x_j - max))
// (ONNX Softmax-13 for axis; Arm NN SoftmaxDescriptor.m_Beta, armnn/src/backends/reference/
// workloads/Softmax.cpp), log_softmax(x)_i = beta * (x_i - max) - log(sum_j exp(beta * (x_j - max))).
// The vector kernel (simd/simd.h) takes one [len][inner] block; blocks go to threads.
#include "vector_ops.h"

namespace nnbridge::cpu_ref {

namespace {

KernelFactory softmax(bool log) {
  return [log](const KernelContext& ctx) -> Kernel {
    const Shape s = ctx.in[0].shape;
    const int64_t rank = static_cast<int64_t>(s.size());
    const int64_t axis = ctx.attr_axis("axis", -1, rank);
    const float beta = static_cast<float>(ctx.attr_float("beta", 1.0));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= s[d];
    for (int64_t d = axis + 1; d < rank; ++d) inner *= s[d];
    const int64_t len = rank ? s[axis] : 1;
    if (numel(ctx.out[0].shape) != numel(s)) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
    const int threads = ctx.threads;
    const auto* k = &simd::kernels();
    const int64_t block = len * inner, grain = std::max<int64_t>(1, (int64_t{1} << 14) / std::max<int64_t>(block, 1));
    return [=](std::span<const float* const> in, std::span<float* const> out) {
      if (block == 0) return;
      parallel_ranges(threads, outer, grain, [&](int64_t o0, int64_t o1) {
        for (int64_t o = o0; o < o1; ++o)
          k->softmax(in[0] + o * block, out[0] + o * block, static_cast<std::size_t>(len), static_cast<std::size_t>(inner),
                     beta, log);
      });
    };
  };
}

}  // namespace

void add_softmax_kernels(KernelTable& t) {
  t["Softmax"] = softmax(false);
  t["LogSoftmax"] = softmax(true);
}

}  // namespace nnbridge::cpu_ref
