// nnbridge/exec/torch_pool.h: PyTorch's max_pool2d geometry, read once for both backends.
#include "nnbridge/exec/torch_pool.h"

#include <string>
#include <string_view>

namespace nnbridge::exec {

namespace {

// PyTorch's pooling_output_shape (aten/src/ATen/native/Pool.h).
int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dilation, bool ceil_mode) {
  const int64_t span = in + 2 * pad - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0);
  int64_t out = (span >= 0 ? span / stride : -((-span + stride - 1) / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= in + pad) --out;
  return out;
}

}  // namespace

Shape aten_pair(const NodeContext& c, std::string_view name, const Shape& empty) {
  Shape v = c.attr_ints(name, empty);
  if (v.empty()) v = empty;
  if (v.size() == 1) v.push_back(v[0]);
  if (v.size() != 2) c.invalid(ErrorId::Shape, std::string(name) + " has " + std::to_string(v.size()) + " elements, not 1 or 2");
  return v;
}

TorchMaxPool torch_max_pool(const NodeContext& c) {
  const Shape& xs = c.in.at(0).shape;
  if (xs.size() != 3 && xs.size() != 4) c.unsupported("max_pool2d takes X of rank 3 or 4");
  TorchMaxPool m;
  m.k = aten_pair(c, "kernel_size", {});
  if (m.k.empty()) c.invalid(ErrorId::AttributeValue, "kernel_size is missing");
  m.s = aten_pair(c, "stride", m.k);
  m.p = aten_pair(c, "padding", {0, 0});
  m.d = aten_pair(c, "dilation", {1, 1});
  m.ceil_mode = c.has_attr("ceil_mode") && c.attr(std::string_view("ceil_mode"))->is<bool>() &&
                c.attr(std::string_view("ceil_mode"))->get<bool>();
  for (int i = 0; i < 2; ++i) {
    if (m.k[i] <= 0 || m.s[i] <= 0 || m.d[i] <= 0) c.invalid(ErrorId::AttributeValue, "kernel_size, stride and dilation must be positive");
    if (m.p[i] < 0 || m.p[i] > m.k[i] / 2) c.invalid(ErrorId::AttributeValue, "padding must be in [0, kernel_size / 2] (PyTorch's rule)");
  }
  const std::size_t r = xs.size();
  m.planes = r == 4 ? xs[0] * xs[1] : xs[0];
  m.H = xs[r - 2];
  m.W = xs[r - 1];
  m.OH = pooled_size(m.H, m.k[0], m.p[0], m.s[0], m.d[0], m.ceil_mode);
  m.OW = pooled_size(m.W, m.k[1], m.p[1], m.s[1], m.d[1], m.ceil_mode);
  if (m.OH <= 0 || m.OW <= 0) c.invalid(ErrorId::Shape, "the pooled output would be empty");
  Shape want = xs;
  want[r - 2] = m.OH;
  want[r - 1] = m.OW;
  for (std::size_t o = 0; o < c.out.size(); ++o)
    if (c.out[o].shape != want)
      c.invalid(ErrorId::Shape, "output " + std::to_string(o) + " is declared with another shape than max_pool2d gives");
  return m;
}

}  // namespace nnbridge::exec
