// Network ops of the opencl backend: Softmax (softmax.cl), Gemm and MatMul (gemm.cl), Reduce*
// (reduce.cl), BatchNormalization (normalization.cl); it registers the windowed ops (ops_window.cc),
// the other normalizations (ops_norm.cc) and the losses (ops_loss.cc). Geometry and attribute
// rules are cpu_ref's (the comments name its file), so both backends read a node alike.
#include <algorithm>
#include <cmath>

#include "nnbridge/exec/gemm.h"
#include "ops_util.h"

namespace nnbridge::gpu {

namespace {


OpFactory softmax(bool log) {
  return [log](const OpContext& c) -> Launch {
    const Shape& s = c.k.in[0].shape;
    const int64_t rank = static_cast<int64_t>(s.size());
    if (rank == 0) c.k.unsupported("a 0-d input");
    const int64_t axis = c.k.attr_axis("axis", -1, rank);
    const float beta = static_cast<float>(c.k.attr_float("beta", 1.0));
    int64_t outer = 1, inner = 1;
    for (int64_t d = 0; d < axis; ++d) outer *= s[d];
    for (int64_t d = axis + 1; d < rank; ++d) inner *= s[d];
    const int len = c.to_int(s[axis]), in_ = c.to_int(inner);
    const int64_t cols = c.to_int(outer * inner);
    c.to_int(numel(s));
    cl::Kernel k = c.kernel("softmax.cl", "softmax");
    return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
      set_args(k, in[0], out[0], len, in_, beta, log ? 1 : 0);
      if (in_ > 0) enqueue(dev, k, cols);
    };
  };
}

// cpu_ref/src/kernels/gemm.cc: A of rank != 2 is read as [numel / K, K].
Launch gemm(const OpContext& c) {
  const KernelContext& k = c.k;
  const exec::GemmParams p = exec::gemm_params(k);  // attributes and shape checks, shared with cpu
  const bool ta = p.trans_a, tb = p.trans_b, has_c = p.has_c;
  const float alpha = p.alpha, beta = p.beta;
  const int64_t M = p.M, N = p.N, K = p.K, cm = p.c_rows, cn = p.c_cols;
  std::vector<float> cscale = p.c_scale;
  if (cscale.empty()) cscale.assign(static_cast<std::size_t>(std::max<int64_t>(N, 1)), 1.0f);
  std::vector<int> g;
  for (int64_t v : {M, N, K}) g.push_back(c.to_int(v));
  for (int64_t v : {int64_t{ta}, int64_t{tb}, int64_t{has_c}, cm, cn}) g.push_back(c.to_int(v));
  const int64_t total = c.to_int(M * N);
  cl::Buffer gb = c.ints(g), sb = c.floats(cscale);
  cl::Kernel kern = c.kernel("gemm.cl", "gemm");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], in[1], has_c ? in[2] : in[0], sb, out[0], gb, alpha, beta);
    enqueue(dev, kern, total);
  };
}

// ONNX MatMul-13 = numpy.matmul (a 1-D A is [1, K], a 1-D B is [K, 1], the added dim dropped
// from the output; batch dims broadcast numpy-style), plus Arm NN BatchMatMul's transA/transB
// (cpu_ref/src/kernels/gemm.cc, which does not take 1-D operands).
Launch matmul(const OpContext& c) {
  const KernelContext& k = c.k;
  Shape a = k.in[0].shape, b = k.in[1].shape;
  const bool ta = k.attr_int("transA", 0) != 0, tb = k.attr_int("transB", 0) != 0;
  if (a.empty() || b.empty()) k.invalid(ErrorId::Shape, "MatMul inputs must have rank >= 1");
  if ((a.size() == 1 && ta) || (b.size() == 1 && tb)) k.invalid(ErrorId::Shape, "transA/transB need an operand of rank >= 2");
  if (a.size() == 1) a.insert(a.begin(), 1);
  if (b.size() == 1) b.push_back(1);
  const int64_t M = ta ? a.back() : a[a.size() - 2], K = ta ? a[a.size() - 2] : a.back();
  const int64_t N = tb ? b[b.size() - 2] : b.back();
  if ((tb ? b.back() : b[b.size() - 2]) != K) k.invalid(ErrorId::Shape, "A and B disagree on K");
  const std::size_t nd = std::max(a.size(), b.size()) - 2;
  // Output batch dims, and each operand's batch strides in matrices (0 where it broadcasts).
  Shape batch(nd, 1), sa(nd, 0), sb(nd, 0);
  auto strides = [&](const Shape& s, Shape& st) {
    int64_t acc = 1;
    for (std::size_t i = 0; i + 2 < s.size(); ++i) {
      const std::size_t d = s.size() - 3 - i, od = nd - 1 - i;
      if (s[d] != 1) {
        if (batch[od] != 1 && batch[od] != s[d]) k.invalid(ErrorId::Shape, "batch dims of A and B do not broadcast");
        batch[od] = s[d];
        st[od] = acc;
      }
      acc *= s[d];
    }
  };
  strides(a, sa);
  strides(b, sb);
  const int64_t total = numel(batch) * M * N;
  if (numel(k.out[0].shape) != total) k.invalid(ErrorId::Shape, "output size is not batch * M * N");
  std::vector<int> g;
  for (int64_t v : {M, N, K, int64_t{ta}, int64_t{tb}, static_cast<int64_t>(nd)}) g.push_back(c.to_int(v));
  for (const Shape* s : {&batch, &sa, &sb})
    for (int64_t v : *s) g.push_back(c.to_int(v));
  c.to_int(total);
  c.to_int(numel(a));
  c.to_int(numel(b));
  cl::Buffer gb = c.ints(g);
  cl::Kernel kern = c.kernel("gemm.cl", "matmul");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], in[1], out[0], gb);
    enqueue(dev, kern, total);
  };
}

// cpu_ref/src/kernels/reduce.cc: no axes reduces every axis; ReduceSum-13 takes axes as input 1
// (empty with noop_with_empty_axes 1: none), the others as the attribute.
OpFactory reduce(int op) {
  return [op](const OpContext& c) -> Launch {
    const KernelContext& k = c.k;
    const Shape& is = k.in[0].shape;
    const int64_t r = static_cast<int64_t>(is.size());
    Shape axes;
    bool none = false;
    if (k.node.op == "ReduceSum") {
      if (k.has_input(1)) axes = exec::to_ints(k.value(1, "axes"));
      none = axes.empty() && k.attr_int("noop_with_empty_axes", 0) != 0;
    } else {
      if (k.in.size() > 1) k.unsupported("axes as an input is not implemented");
      axes = k.attr_ints("axes");
    }
    std::vector<bool> red(static_cast<std::size_t>(r), axes.empty() && !none);
    for (int64_t a : axes) red[normalize_axis(a, r, "axes value")] = true;
    const Shape st = strides_of(is);
    std::vector<int> kd, ks, rd, rs;
    int64_t on = 1, count = 1;
    for (int64_t d = 0; d < r; ++d) {
      if (red[d]) rd.push_back(c.to_int(is[d])), rs.push_back(c.to_int(st[d])), count *= is[d];
      else kd.push_back(c.to_int(is[d])), ks.push_back(c.to_int(st[d])), on *= is[d];
    }
    if (numel(k.out[0].shape) != on) k.invalid(ErrorId::Shape, "output size does not match the reduction");
    std::vector<int> meta{static_cast<int>(kd.size())};
    meta.insert(meta.end(), kd.begin(), kd.end());
    meta.insert(meta.end(), ks.begin(), ks.end());
    meta.push_back(static_cast<int>(rd.size()));
    meta.insert(meta.end(), rd.begin(), rd.end());
    meta.insert(meta.end(), rs.begin(), rs.end());
    const int cnt = c.to_int(count);
    const int64_t total = c.to_int(on);
    c.to_int(numel(is));
    cl::Buffer mb = c.ints(meta);
    cl::Kernel kern = c.kernel("reduce.cl", "reduce");
    return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
      set_args(kern, in[0], out[0], mb, op, cnt);
      enqueue(dev, kern, total);
    };
  };
}

// cpu_ref/src/kernels/normalization.cc: channel axis 1 (NCHW) or the last (NHWC).
Launch batchnorm(const OpContext& c) {
  const KernelContext& k = c.k;
  if (k.in.size() < 5) k.invalid(ErrorId::Arity, "needs X, scale, B, mean, var");
  const Shape& s = k.in[0].shape;
  const int64_t r = static_cast<int64_t>(s.size());
  if (r < 2) k.invalid(ErrorId::Shape, "X must have rank >= 2");
  const int64_t axis = k.attr_string("data_layout", "NCHW") == "NHWC" ? r - 1 : 1;
  int64_t inner = 1;
  for (int64_t d = axis + 1; d < r; ++d) inner *= s[d];
  for (int i = 1; i < 5; ++i)
    if (numel(k.in[i].shape) != s[axis]) k.invalid(ErrorId::Shape, "parameters must have one value per channel");
  const int channels = c.to_int(s[axis]), in_ = c.to_int(inner);
  const float eps = static_cast<float>(k.attr_float("epsilon", 1e-5));
  const int64_t total = c.to_int(numel(s));
  cl::Kernel kern = c.kernel("normalization.cl", "batchnorm");
  return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    set_args(kern, in[0], in[1], in[2], in[3], in[4], out[0], channels, in_, eps);
    enqueue(dev, kern, total);
  };
}

}  // namespace

void add_nn_ops(OpTable& t) {
  t["Softmax"] = softmax(false);
  t["LogSoftmax"] = softmax(true);
  t["Gemm"] = gemm;
  t["MatMul"] = matmul;
  t["ReduceMean"] = reduce(0);
  t["ReduceSum"] = reduce(1);
  t["ReduceMax"] = reduce(2);
  t["ReduceMin"] = reduce(3);
  t["ReduceProd"] = reduce(4);
  t["ReduceL1"] = reduce(5);
  t["ReduceL2"] = reduce(6);
  t["ReduceSumSquare"] = reduce(7);
  t["ReduceLogSum"] = reduce(8);
  t["ReduceLogSumExp"] = reduce(9);
  t["BatchNormalization"] = batchnorm;
  add_norm_ops(t);
  add_loss_ops(t);
  add_window_ops(t);
}

}  // namespace nnbridge::gpu
