// Matrix ops of the opencl backend (kernels/matrix.cl): Trilu, EyeLike, Det, Einsum, as
// cpu_ref/src/kernels/matrix.cc computes them (its shapes, refusals and formulas; Einsum's
// equation read by nnbridge/einsum.h, the one parser both backends use).
#include <string>
#include <vector>

#include "nnbridge/einsum.h"
#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

// cpu_ref/src/kernels/matrix.cc make_trilu (ONNX Trilu-14): k (input 1) read by the device.
Launch trilu(const OpContext& c) {
  const Shape xs = c.k.in[0].shape;
  if (xs.size() < 2) c.k.invalid(ErrorId::Shape, "input must have rank >= 2");
  if (c.k.out[0].shape != xs) c.k.invalid(ErrorId::Shape, "output shape differs from the input's");
  const bool has_k = c.k.has_input(1);
  if (has_k && numel(c.k.in[1].shape) != 1) c.k.invalid(ErrorId::Shape, "k must be a scalar");
  const int upper = c.k.attr_int("upper", 1) != 0;
  const int rows = c.to_int(xs[xs.size() - 2]), cols = c.to_int(xs.back());
  const int64_t n = c.to_int(numel(xs));
  cl::Kernel kern = c.kernel("matrix.cl", "trilu");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], has_k ? in[1] : in[0], out[0], rows, cols, has_k ? 1 : 0, upper);
    enqueue(dev, kern, n);
  };
}

// cpu_ref/src/kernels/matrix.cc make_eye_like (ONNX EyeLike-9).
Launch eye_like(const OpContext& c) {
  const Shape os = c.k.out[0].shape;
  if (os.size() != 2 || c.k.in[0].shape != os) c.k.invalid(ErrorId::Shape, "input and output must be 2-D of one shape");
  const int64_t k = c.k.attr_int("k", 0), rows = os[0], cols = os[1];
  const int kk = signed_int(c, k >= cols || k <= -rows ? cols : k);  // no column matches: cols, which no j reaches
  const int cw = c.to_int(cols);
  const int64_t n = c.to_int(numel(os));
  cl::Kernel kern = c.kernel("matrix.cl", "eye_like");
  return [=](const Device& dev, std::span<const cl::Buffer>, std::span<const cl::Buffer> out) mutable {
    set_args(kern, out[0], cw, kk);
    enqueue(dev, kern, n);
  };
}

// cpu_ref/src/kernels/matrix.cc make_det (ONNX Det-11).
Launch det(const OpContext& c) {
  const Shape xs = c.k.in[0].shape;
  if (xs.size() < 2 || xs[xs.size() - 1] != xs[xs.size() - 2]) c.k.invalid(ErrorId::Shape, "input must be [*, M, M]");
  const int64_t m = xs.back(), mats = numel(Shape(xs.begin(), xs.end() - 2));
  if (numel(c.k.out[0].shape) != mats) c.k.invalid(ErrorId::Shape, "output must hold one element per matrix");
  c.to_int(numel(xs));
  const int m_ = c.to_int(m);
  // Room for the matrices in double, whether or not the device computes in it.
  const cl::Buffer scratch(c.dev.context, CL_MEM_READ_WRITE, static_cast<std::size_t>(std::max<int64_t>(numel(xs), 1)) * sizeof(double));
  cl::Kernel kern = c.kernel("matrix.cl", "det");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], out[0], scratch, m_);
    enqueue(dev, kern, mats);
  };
}

// cpu_ref/src/kernels/matrix.cc make_einsum (ONNX Einsum-12): a label's dims agree, or a 1
// stretches where the label stands for ellipsis dims; a repeated label takes the diagonal.
Launch einsum(const OpContext& c) {
  const KernelContext& k = c.k;
  const std::size_t n_in = k.in.size();
  if (n_in < 1 || n_in > 4) k.unsupported("Einsum of " + std::to_string(n_in) + " operands (the opencl kernel takes 1 to 4)");
  std::vector<int64_t> ranks;
  for (const TensorType& t : k.in) ranks.push_back(static_cast<int64_t>(t.shape.size()));
  const EinsumTerms e = parse_einsum(k.attr_string("equation"), ranks);
  const std::size_t labels = static_cast<std::size_t>(e.labels);
  Shape size(labels, -1);
  for (std::size_t i = 0; i < n_in; ++i)
    for (std::size_t d = 0; d < e.inputs[i].size(); ++d) {
      const std::size_t l = static_cast<std::size_t>(e.inputs[i][d]);
      const int64_t v = k.in[i].shape[d];
      if (size[l] < 0 || (e.broadcast[l] && size[l] == 1)) size[l] = v;
      else if (v != size[l] && !(e.broadcast[l] && v == 1))
        k.invalid(ErrorId::Shape, "a label has sizes " + std::to_string(size[l]) + " and " + std::to_string(v));
    }
  for (int64_t& s : size)
    if (s < 0) s = 1;
  std::vector<Shape> stride(4, Shape(labels, 0));
  for (std::size_t i = 0; i < n_in; ++i) {
    const Shape st = strides_of(k.in[i].shape);
    for (std::size_t d = 0; d < e.inputs[i].size(); ++d) {
      const std::size_t l = static_cast<std::size_t>(e.inputs[i][d]);
      if (!(k.in[i].shape[d] == 1 && size[l] != 1)) stride[i][l] += st[d];
    }
    c.to_int(numel(k.in[i].shape));
  }
  Shape os;
  std::vector<bool> in_out(labels, false);
  for (int l : e.output) {
    os.push_back(size[static_cast<std::size_t>(l)]);
    in_out[static_cast<std::size_t>(l)] = true;
  }
  if (k.out[0].shape != os) k.invalid(ErrorId::Shape, "output shape differs from the equation's");
  std::vector<int> meta{static_cast<int>(n_in), static_cast<int>(e.output.size()), 0};
  auto label = [&](std::size_t l) {
    meta.push_back(c.to_int(size[l]));
    for (std::size_t i = 0; i < 4; ++i) meta.push_back(c.to_int(stride[i][l]));
  };
  for (int l : e.output) label(static_cast<std::size_t>(l));
  int64_t terms = 1;
  for (std::size_t l = 0; l < labels; ++l)
    if (!in_out[l]) label(l), ++meta[2], terms *= size[l];
  const int terms_ = c.to_int(terms);
  const int64_t n = c.to_int(numel(os));
  cl::Buffer mb = c.ints(meta);
  cl::Kernel kern = c.kernel("matrix.cl", "einsum");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], in[n_in > 1 ? 1 : 0], in[n_in > 2 ? 2 : 0], in[n_in > 3 ? 3 : 0], out[0], mb, terms_);
    enqueue(dev, kern, n);
  };
}

}  // namespace

void add_matrix_ops(OpTable& t) {
  t["Trilu"] = trilu;
  t["EyeLike"] = eye_like;
  t["Det"] = det;
  t["Einsum"] = einsum;
}

}  // namespace nnbridge::gpu
