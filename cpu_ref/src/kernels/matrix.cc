// Matrix structure (semantics: sdk/core/src/ops/matrix.cc).
// - Trilu (ONNX Trilu-14): per matrix of the last two dims, keeps (i, j) with j - i >= k (upper)
//   or j - i <= k (lower), zeroes the rest; k arrives on the optional input 1 on each run.
// - EyeLike (ONNX EyeLike-9): ones at (i, i + k) of a 2-D output, zeros elsewhere.
// - Det (ONNX Det-11): per matrix, LU decomposition with partial pivoting in double; the
//   determinant of a 0 x 0 matrix is 1.
// - Einsum (ONNX Einsum-12): the equation read by nnbridge/einsum.h; each output element sums,
//   over every index of the labels the output does not name, the product of the operands'
//   elements (in double). A label's dims must agree, except that a 1 stretches in the dims an
//   ellipsis stands for (NumPy broadcasting).
#include <algorithm>
#include <cmath>

#include "../kernel.h"
#include "nnbridge/einsum.h"

namespace nnbridge::cpu_ref {

namespace {

Kernel make_trilu(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape;
  if (xs.size() < 2) ctx.invalid(ErrorId::Shape, "input must have rank >= 2");
  if (ctx.out[0].shape != xs) ctx.invalid(ErrorId::Shape, "output shape differs from the input's");
  const bool has_k = ctx.has_input(1);
  if (has_k && numel(ctx.in[1].shape) != 1) ctx.invalid(ErrorId::Shape, "k must be a scalar");
  const bool upper = ctx.attr_int("upper", 1) != 0;
  const int64_t rows = xs[xs.size() - 2], cols = xs.back();
  const int64_t mats = rows * cols == 0 ? 0 : numel(xs) / (rows * cols);
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    // k as read: any float, so compare in double (a huge k keeps or zeroes everything).
    const double k = has_k ? static_cast<double>(in[1][0]) : 0.0;
    for (int64_t m = 0; m < mats; ++m)
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
          const int64_t at = (m * rows + i) * cols + j;
          const double diff = static_cast<double>(j - i);
          out[0][at] = (upper ? diff >= k : diff <= k) ? in[0][at] : 0.0f;
        }
  };
}

Kernel make_eye_like(const KernelContext& ctx) {
  const Shape os = ctx.out[0].shape;
  if (os.size() != 2 || ctx.in[0].shape != os) ctx.invalid(ErrorId::Shape, "input and output must be 2-D of one shape");
  const int64_t k = ctx.attr_int("k", 0), rows = os[0], cols = os[1];
  return [=](std::span<const float* const>, std::span<float* const> out) {
    std::fill(out[0], out[0] + rows * cols, 0.0f);
    for (int64_t i = 0; i < rows; ++i) {
      // Column i + k, computed without overflow for any k.
      if (k >= cols || k <= -rows) break;
      const int64_t j = i + k;
      if (j >= 0 && j < cols) out[0][i * cols + j] = 1.0f;
    }
  };
}

Kernel make_det(const KernelContext& ctx) {
  const Shape xs = ctx.in[0].shape;
  if (xs.size() < 2 || xs[xs.size() - 1] != xs[xs.size() - 2]) ctx.invalid(ErrorId::Shape, "input must be [*, M, M]");
  const int64_t m = xs.back(), mats = numel(Shape(xs.begin(), xs.end() - 2));
  if (numel(ctx.out[0].shape) != mats) ctx.invalid(ErrorId::Shape, "output must hold one element per matrix");
  return [m, mats](std::span<const float* const> in, std::span<float* const> out) {
    std::vector<double> a(static_cast<std::size_t>(m * m));
    for (int64_t k = 0; k < mats; ++k) {
      std::copy_n(in[0] + k * m * m, m * m, a.begin());
      double det = 1;
      for (int64_t c = 0; c < m && det != 0; ++c) {
        int64_t p = c;  // the pivot: the largest magnitude in column c at or below the diagonal
        for (int64_t r = c + 1; r < m; ++r)
          if (std::fabs(a[r * m + c]) > std::fabs(a[p * m + c])) p = r;
        if (a[p * m + c] == 0) {
          det = 0;
          break;
        }
        if (p != c) {
          for (int64_t j = 0; j < m; ++j) std::swap(a[p * m + j], a[c * m + j]);
          det = -det;
        }
        det *= a[c * m + c];
        for (int64_t r = c + 1; r < m; ++r) {
          const double f = a[r * m + c] / a[c * m + c];
          for (int64_t j = c; j < m; ++j) a[r * m + j] -= f * a[c * m + j];
        }
      }
      out[0][k] = static_cast<float>(det);
    }
  };
}

Kernel make_einsum(const KernelContext& ctx) {
  const std::size_t n_in = ctx.in.size();
  std::vector<int64_t> ranks;
  for (const TensorType& t : ctx.in) ranks.push_back(static_cast<int64_t>(t.shape.size()));
  const EinsumTerms e = parse_einsum(ctx.attr_string("equation"), ranks);
  const std::size_t labels = static_cast<std::size_t>(e.labels);
  Shape size(labels, -1);
  for (std::size_t k = 0; k < n_in; ++k)
    for (std::size_t d = 0; d < e.inputs[k].size(); ++d) {
      const std::size_t l = static_cast<std::size_t>(e.inputs[k][d]);
      const int64_t v = ctx.in[k].shape[d];
      if (size[l] < 0 || (e.broadcast[l] && size[l] == 1)) size[l] = v;
      else if (v != size[l] && !(e.broadcast[l] && v == 1))
        ctx.invalid(ErrorId::Shape, "a label has sizes " + std::to_string(size[l]) + " and " + std::to_string(v));
    }
  for (int64_t& s : size)
    if (s < 0) s = 1;
  // Per operand, the stride each label steps by (a repeated label adds its dims' strides: the
  // diagonal; a stretched 1 steps by 0).
  std::vector<Shape> stride(n_in, Shape(labels, 0));
  for (std::size_t k = 0; k < n_in; ++k) {
    const Shape st = strides_of(ctx.in[k].shape);
    for (std::size_t d = 0; d < e.inputs[k].size(); ++d) {
      const std::size_t l = static_cast<std::size_t>(e.inputs[k][d]);
      if (!(ctx.in[k].shape[d] == 1 && size[l] != 1)) stride[k][l] += st[d];
    }
  }
  Shape os;
  std::vector<bool> in_out(labels, false);
  for (int l : e.output) {
    os.push_back(size[static_cast<std::size_t>(l)]);
    in_out[static_cast<std::size_t>(l)] = true;
  }
  if (ctx.out[0].shape != os) ctx.invalid(ErrorId::Shape, "output shape differs from the equation's");
  std::vector<int> summed;
  for (std::size_t l = 0; l < labels; ++l)
    if (!in_out[l]) summed.push_back(static_cast<int>(l));
  std::vector<int> outl = e.output;
  return [=](std::span<const float* const> in, std::span<float* const> out) {
    const int64_t n_out = numel(os);
    Shape sum_dims;
    for (int l : summed) sum_dims.push_back(size[static_cast<std::size_t>(l)]);
    const int64_t n_sum = numel(sum_dims);
    std::vector<int64_t> base(n_in), off(n_in), idx(summed.size());
    for (int64_t o = 0; o < n_out; ++o) {
      std::fill(base.begin(), base.end(), 0);
      for (int64_t rem = o, d = static_cast<int64_t>(outl.size()); d-- > 0;) {
        const std::size_t l = static_cast<std::size_t>(outl[d]);
        const int64_t i = rem % size[l];
        rem /= size[l];
        for (std::size_t k = 0; k < n_in; ++k) base[k] += i * stride[k][l];
      }
      off = base;
      std::fill(idx.begin(), idx.end(), 0);
      double acc = 0;
      for (int64_t s = 0; s < n_sum; ++s) {
        double p = 1;
        for (std::size_t k = 0; k < n_in; ++k) p *= in[k][off[k]];
        acc += p;
        for (std::size_t d = summed.size(); d-- > 0;) {
          const std::size_t l = static_cast<std::size_t>(summed[d]);
          for (std::size_t k = 0; k < n_in; ++k) off[k] += stride[k][l];
          if (++idx[d] < size[l]) break;
          for (std::size_t k = 0; k < n_in; ++k) off[k] -= stride[k][l] * size[l];
          idx[d] = 0;
        }
      }
      out[0][o] = static_cast<float>(acc);
    }
  };
}

}  // namespace

void add_matrix_kernels(KernelTable& t) {
  t["Trilu"] = make_trilu;
  t["EyeLike"] = make_eye_like;
  t["Det"] = make_det;
  t["Einsum"] = make_einsum;
}

}  // namespace nnbridge::cpu_ref
