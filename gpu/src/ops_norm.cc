// Normalizations of the opencl backend beside BatchNormalization (ops_nn.cc), in
// kernels/normalization.cl: LayerNormalization, InstanceNormalization, LRN,
// MeanVarianceNormalization.
// Shapes, attributes and refusals are cpu_ref's (each op names its file).
#include <string>
#include <vector>

#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

// cpu_ref/src/kernels/layer_norm.cc (ONNX LayerNormalization-17): optional outputs Mean and
// InvStdDev, one value per row.
Launch layer_norm(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& x = k.in[0].shape;
  const int64_t rank = static_cast<int64_t>(x.size());
  const int64_t axis = k.attr_axis("axis", -1, rank);
  int64_t rows = 1, n = 1;
  for (int64_t d = 0; d < rank; ++d) (d < axis ? rows : n) *= x[d];
  auto per_row_size = [&](std::size_t i) -> int64_t {
    if (!k.has_input(i)) return 0;
    const int64_t cnt = numel(k.in[i].shape);
    if (cnt != n && cnt != 1) k.unsupported("scale and B must have one value or one per normalized element");
    return cnt;
  };
  const int ns = c.to_int(per_row_size(1)), nb = c.to_int(per_row_size(2));
  if (ns == 0) k.invalid(ErrorId::Arity, "needs the scale input");
  const float eps = static_cast<float>(k.attr_float("epsilon", 1e-5));
  c.to_int(numel(x));
  const int n_ = c.to_int(n);
  const int outs = static_cast<int>(k.out.size());
  for (int o = 1; o < outs; ++o)
    if (numel(k.out[o].shape) != rows) k.invalid(ErrorId::Shape, "Mean and InvStdDev must hold one value per row");
  const int64_t rows_ = n > 0 ? rows : 0;
  cl::Kernel kern = c.kernel("normalization.cl", "layer_norm");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], in[1], nb ? in[2] : in[1], out[0], outs > 1 ? out[1] : out[0], outs > 2 ? out[2] : out[0], n_, ns, nb,
             eps, outs);
    enqueue(dev, kern, rows_);
  };
}

// cpu_ref/src/kernels/normalization.cc make_instancenorm (ONNX InstanceNormalization-6; Arm NN's
// scalar gamma / beta attributes when scale / B are absent).
Launch instance_norm(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape& s = k.in[0].shape;
  const int64_t r = static_cast<int64_t>(s.size());
  const bool nhwc = k.attr_string("data_layout", "NCHW") == "NHWC";
  if (r < 3) k.invalid(ErrorId::Shape, "X must have rank >= 3");
  const int64_t N = s[0], C = nhwc ? s[r - 1] : s[1], S = N * C == 0 ? 0 : numel(s) / (N * C);
  const int has_scale = k.has_input(1), has_b = k.has_input(2);
  const float gamma = static_cast<float>(k.attr_float("gamma", 1.0)), beta = static_cast<float>(k.attr_float("beta", 0.0));
  const float eps = static_cast<float>(k.attr_float("epsilon", 1e-5));
  c.to_int(numel(s));
  const int C_ = c.to_int(C), S_ = c.to_int(S);
  const int64_t items = S > 0 ? N * C : 0;
  cl::Kernel kern = c.kernel("normalization.cl", "instance_norm");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], has_scale ? in[1] : in[0], has_b ? in[2] : in[0], out[0], C_, S_, nhwc ? 1 : 0, has_scale, has_b, gamma,
             beta, eps);
    enqueue(dev, kern, items);
  };
}

// The channel axis of normalization.cc: 1 (NCHW) or the last (NHWC); X of rank >= 2.
int64_t channel_axis(const KernelContext& k) {
  const int64_t r = static_cast<int64_t>(k.in[0].shape.size());
  if (r < 2) k.invalid(ErrorId::Shape, "X must have rank >= 2");
  return k.attr_string("data_layout", "NCHW") == "NHWC" ? r - 1 : 1;
}

struct ChannelView {
  int64_t outer = 1, c = 1, inner = 1;
  ChannelView(const Shape& s, int64_t axis) {
    for (int64_t d = 0; d < axis; ++d) outer *= s[d];
    c = s[axis];
    for (std::size_t d = axis + 1; d < s.size(); ++d) inner *= s[d];
  }
};

// cpu_ref/src/kernels/normalization.cc make_lrn (ONNX LRN-13).
Launch lrn(const OpContext& c) {
  const KernelContext& k = c.k;
  const ChannelView v(k.in[0].shape, channel_axis(k));
  const int64_t size = k.attr_int("size", 1);
  if (size < 1) k.invalid(ErrorId::AttributeValue, "size must be >= 1");
  const float alpha = static_cast<float>(k.attr_float("alpha", 1e-4)), beta = static_cast<float>(k.attr_float("beta", 0.75));
  const float bias = static_cast<float>(k.attr_float("bias", 1.0));
  const int lo = c.to_int((size - 1) / 2), hi = c.to_int(size - 1 - (size - 1) / 2);
  const int64_t n = c.to_int(numel(k.in[0].shape));
  const int C = c.to_int(v.c), inner = c.to_int(v.inner), size_ = c.to_int(size);
  cl::Kernel kern = c.kernel("normalization.cl", "lrn");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], out[0], C, inner, size_, lo, hi, alpha, beta, bias);
    enqueue(dev, kern, n);
  };
}

// cpu_ref/src/kernels/axis_ops.cc make_mvn (ONNX MeanVarianceNormalization-13): statistics over
// the dims in `axes` (default 0, 2, 3), one group per index of the others.
Launch mvn(const OpContext& c) {
  const KernelContext& k = c.k;
  const Shape xs = k.in[0].shape;
  if (k.out[0].shape != xs) k.invalid(ErrorId::Shape, "output shape differs from the input's");
  const int64_t r = static_cast<int64_t>(xs.size());
  std::vector<bool> red(static_cast<std::size_t>(r), false);
  for (int64_t a : k.attr_ints("axes", {0, 2, 3})) red[normalize_axis(a, r, "axes value")] = true;
  const Shape st = strides_of(xs);
  std::vector<int> kd, ks, rd, rs;
  int64_t groups = 1, count = 1;
  for (int64_t d = 0; d < r; ++d) {
    if (red[d]) rd.push_back(c.to_int(xs[d])), rs.push_back(c.to_int(st[d])), count *= xs[d];
    else kd.push_back(c.to_int(xs[d])), ks.push_back(c.to_int(st[d])), groups *= xs[d];
  }
  std::vector<int> meta{static_cast<int>(kd.size())};
  meta.insert(meta.end(), kd.begin(), kd.end());
  meta.insert(meta.end(), ks.begin(), ks.end());
  meta.push_back(static_cast<int>(rd.size()));
  meta.insert(meta.end(), rd.begin(), rd.end());
  meta.insert(meta.end(), rs.begin(), rs.end());
  c.to_int(numel(xs));
  const int cnt = c.to_int(count);
  const int64_t items = count > 0 ? groups : 0;
  cl::Buffer mb = c.ints(meta);
  cl::Kernel kern = c.kernel("normalization.cl", "mvn");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], out[0], mb, cnt);
    enqueue(dev, kern, items);
  };
}

// cpu_ref/src/kernels/normalization.cc make_lpnorm (ONNX LpNormalization-1 with p = 2; Arm NN
// L2Normalization with its eps): x / sqrt(max(sum over the axis of x^2, epsilon)), the sum in
// float32 in index order as cpu adds it.
Launch lp_norm(const OpContext& c) {
  const KernelContext& k = c.k;
  if (k.attr_int("p", 2) != 2) k.unsupported("LpNormalization with p != 2");
  const int64_t r = static_cast<int64_t>(k.in[0].shape.size());
  const ChannelView v(k.in[0].shape, k.attr_axis("axis", -1, r));
  const float eps = static_cast<float>(k.attr_float("epsilon", 0.0));
  c.to_int(numel(k.in[0].shape));
  const int C = c.to_int(v.c), inner = c.to_int(v.inner);
  const int64_t items = v.c > 0 ? v.outer * v.inner : 0;
  cl::Kernel kern = c.kernel("normalization.cl", "lp_norm2");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], out[0], C, inner, eps);
    enqueue(dev, kern, items);
  };
}

// cpu_ref/src/kernels/conv_transpose.cc make_armnn_normalization (Arm NN NormalizationLayer,
// RefNormalizationWorkload: LocalBrightness, Across or Within channels, NHWC or NCHW): x / (k +
// alpha * sum x^2)^beta over normSize / 2 neighbours each side, without ONNX LRN's division by
// the size; the descriptor fields as cpu reads them (absent: 0).
Launch armnn_normalization(const OpContext& c) {
  const KernelContext& k = c.k;
  auto fi = [&](const char* n) { return k.attr_int(std::string("armnn.descriptor.") + n, 0); };
  auto ff = [&](const char* n) { return static_cast<float>(k.attr_float(std::string("armnn.descriptor.") + n, 0.0)); };
  if (fi("normMethodType") != 0) k.unsupported("Normalization method LocalContrast");
  const Shape& s = k.in[0].shape;
  if (s.size() != 4) k.unsupported("only rank-4 input is implemented");
  if (k.out[0].shape != s) k.invalid(ErrorId::Shape, "output shape differs from the input's");
  const int nhwc = fi("dataLayout") == 0 ? 1 : 0, within = fi("normChannelType") == 1 ? 1 : 0;
  const int C = c.to_int(nhwc ? s[3] : s[1]), H = c.to_int(nhwc ? s[1] : s[2]), W = c.to_int(nhwc ? s[2] : s[3]);
  const int radius = c.to_int(fi("normSize") / 2);
  const float alpha = ff("alpha"), beta = ff("beta"), kk = ff("k");
  const int64_t n = c.to_int(numel(s));
  cl::Kernel kern = c.kernel("normalization.cl", "armnn_normalization");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], out[0], C, H, W, nhwc, within, radius, alpha, beta, kk);
    enqueue(dev, kern, n);
  };
}

}  // namespace

void add_norm_ops(OpTable& t) {
  t["LpNormalization"] = lp_norm;
  t["armnn.Normalization"] = armnn_normalization;
  t["LayerNormalization"] = layer_norm;
  t["InstanceNormalization"] = instance_norm;
  t["LRN"] = lrn;
  t["MeanVarianceNormalization"] = mvn;
}

}  // namespace nnbridge::gpu
