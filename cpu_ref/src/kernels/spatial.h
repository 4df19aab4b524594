// Helpers of the windowed kernels (Conv, ConvTranspose, the pools, their integer forms): a node
// seen with more spatial dims, and ONNX's auto_pad.
#pragma once

#include <initializer_list>
#include <string>

#include "../kernel.h"

namespace nnbridge::cpu_ref {

/// The node of `ctx` with unit spatial dims put in front of its own until it has `spatial` of
/// them: X (input 0), the inputs listed as data and every output get the unit dims where
/// data_layout puts the spatial dims, the inputs listed as weights where kernel_layout puts them
/// (OIHW / IOHW / MIHW after two dims, OHWI / 1HWO after one, HWIO first), and the window
/// attributes the values that leave a unit dim alone (kernel 1, stride 1, dilation 1, pads 0,
/// output_padding 0, output_shape 1). A window over the lifted node reads and writes the same
/// elements in the same order, so a 1-D Conv runs as a 2-D one with height 1. An attribute whose
/// length does not fit the node's rank is left as it is, for the kernel to refuse. ctx() lives
/// as long as this object; factories called with it must not keep references to it.
class Lifted {
 public:
  Lifted(const KernelContext& ctx, std::size_t spatial, std::initializer_list<std::size_t> weights = {},
         std::initializer_list<std::size_t> data = {0});
  Lifted(const Lifted&) = delete;
  Lifted& operator=(const Lifted&) = delete;
  const KernelContext& ctx() const { return ctx_; }

 private:
  Node node_;
  KernelContext ctx_;
};

/// ONNX auto_pad SAME_UPPER / SAME_LOWER: the padding that makes `out` windows of kernel k,
/// stride s and dilation d fit an input of `in`: total = max(0, (out - 1) * s + d * (k - 1) + 1 -
/// in), SAME_UPPER puts total / 2 at the beginning and the rest at the end, SAME_LOWER the
/// other way round (ONNX Conv-11, MaxPool-12, AveragePool-11). Returns {begin, end}.
struct PadPair {
  int64_t begin = 0, end = 0;
};
PadPair same_pads(const std::string& auto_pad, int64_t in, int64_t out, int64_t k, int64_t s, int64_t d);

/// The window attributes of a Conv / pool with `ns` spatial dims as ONNX orders them (pads:
/// begins, then ends), auto_pad applied: VALID gives zero pads, SAME_UPPER / SAME_LOWER the
/// pads of same_pads() for the resolved input and output sizes `in` / `out` (spatial dims only).
/// Wrong lengths are Error(Invalid); an auto_pad other than NOTSET, VALID, SAME_UPPER or
/// SAME_LOWER, Error(Unsupported).
struct WindowAttrs {
  Shape kernel, strides, dilations, pads;
};
WindowAttrs window_attrs(const KernelContext& ctx, const Shape& kernel, const Shape& in, const Shape& out);

}  // namespace nnbridge::cpu_ref
