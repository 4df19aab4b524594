// QuantizeLinear, DequantizeLinear and Cast. In the backend's float32 domain these are
// copies: the input is already dequantized, and the plan rounds every node's result to the
// output's declared dtype (convert.h: requantize with round half away from zero and clamp,
// Arm NN armnn::Quantize; Cast to an integer type truncates toward zero).
#include <cstring>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_copy(const KernelContext& ctx) {
  if (ctx.in.size() > 1) ctx.unsupported("scale / zero point as inputs is not implemented (the tensor types' quantization is used)");
  const int64_t n = numel(ctx.out[0].shape);
  if (numel(ctx.in[0].shape) != n) ctx.invalid("output size differs from the input's");
  return [n](std::span<const float* const> in, std::span<float* const> out) {
    if (n) std::memcpy(out[0], in[0], static_cast<std::size_t>(n) * sizeof(float));
  };
}

}  // namespace

void add_quantize_kernels(KernelTable& t) {
  t["QuantizeLinear"] = make_copy;
  t["DequantizeLinear"] = make_copy;
  t["Cast"] = make_copy;
}

}  // namespace nnbridge::cpu_ref
