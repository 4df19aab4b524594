// The integer products of ONNX on the opencl backend (kernels/qlinear.cl): ConvInteger-10,
// QLinearConv-10 (NCHW X, OIHW W, 1 to 3 spatial dims, unit dims put in front of fewer as
// cpu's Lifted does), MatMulInteger-10 and QLinearMatMul-10 (batches broadcast). The node is
// read by cpu_ref/src/kernels/qlinear.cc's rules, conv3d.cc's geometry and spatial.cc's
// window_attrs (auto_pad), with the same refusals; scales and zero points are read on the
// device at run time (they may be graph inputs).
#include <algorithm>
#include <string>
#include <vector>

#include "nnbridge/exec/integer_ops.h"
#include "ops_util.h"

namespace nnbridge::gpu {

namespace {

using exec::per_channel_count;
using exec::require_plain_integers;
using exec::requantized_range;

// Input i of a run, or input 0 standing for an absent one (the kernel does not read it).
cl::Buffer input_or(std::span<const cl::Buffer> in, std::size_t i, bool present) { return present && i < in.size() ? in[i] : in[0]; }

// Unit entries in front of `v` until it has 3.
Shape lift3(Shape v, int64_t unit) {
  v.insert(v.begin(), 3 - std::min<std::size_t>(v.size(), 3), unit);
  return v;
}

// ConvInteger (qlinear false) and QLinearConv (true).
OpFactory integer_conv(bool qlinear) {
  return [qlinear](const OpContext& c) -> Launch {
    const KernelContext& k = c.k;
    const std::size_t wi = qlinear ? 3 : 1, xzp = 2, wzp = qlinear ? 5 : 3;
    const Shape& xs = k.in[0].shape;
    const Shape& ws = k.in[wi].shape;
    const Shape& ys = k.out[0].shape;
    const std::size_t r = xs.size();
    if (r < 3 || r > 5) k.unsupported("only 1-D, 2-D and 3-D convolutions (X of rank 3, 4 or 5) are implemented");
    require_plain_integers(k, {0, wi, xzp, wzp});
    if (ws.size() != r || ys.size() != r) k.invalid(ErrorId::Shape, "3-D Conv needs rank-5 X, W and Y");
    const std::size_t ns = r - 2;
    const int64_t group = k.attr_int("group", 1), N = xs[0], C = xs[1], M = ys[1];
    const Shape in(xs.begin() + 2, xs.end()), on(ys.begin() + 2, ys.end()), kernel(ws.begin() + 2, ws.end());
    if (group < 1 || C % group != 0 || M % group != 0 || ws[1] * group != C || ws[0] != M || ys[0] != N)
      k.invalid(ErrorId::Shape, "W's channels do not match X, Y and group");
    // spatial.cc window_attrs.
    Shape strides = k.attr_ints("strides", Shape(ns, 1)), dil = k.attr_ints("dilations", Shape(ns, 1));
    Shape pads = k.attr_ints("pads", Shape(2 * ns, 0));
    if (strides.size() != ns || dil.size() != ns || pads.size() != 2 * ns)
      k.invalid(ErrorId::Shape, "kernel_shape/strides/dilations/pads sizes do not match " + std::to_string(ns) + " spatial dims");
    for (std::size_t i = 0; i < ns; ++i)
      if (strides[i] < 1 || dil[i] < 1 || kernel[i] < 1) k.invalid(ErrorId::AttributeValue, "kernel, strides and dilations must be >= 1");
    const std::string auto_pad = k.attr_string("auto_pad", "NOTSET");
    if (auto_pad == "VALID") {
      pads.assign(2 * ns, 0);
    } else if (auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER") {
      for (std::size_t i = 0; i < ns; ++i) {
        const int64_t total = std::max<int64_t>(0, (on[i] - 1) * strides[i] + dil[i] * (kernel[i] - 1) + 1 - in[i]);
        pads[i] = auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      }
    } else if (auto_pad != "NOTSET") {
      k.unsupported("auto_pad " + auto_pad);
    }
    for (int64_t p : pads)
      if (p < 0) k.invalid(ErrorId::AttributeValue, "pads must be >= 0");
    if (per_channel_count(k, xzp, 1, "x_zero_point") > 1) k.invalid(ErrorId::Shape, "x_zero_point must be a scalar");
    const int64_t xz_count = k.has_input(xzp) ? 1 : 0;
    const int64_t wz_count = per_channel_count(k, wzp, M, "w_zero_point");
    int64_t ws_count = 0, b_count = 0;
    float lo = 0, hi = 0;
    if (qlinear) {
      if (per_channel_count(k, 1, 1, "x_scale") != 1 || per_channel_count(k, 6, 1, "y_scale") != 1 ||
          per_channel_count(k, 7, 1, "y_zero_point") != 1)
        k.invalid(ErrorId::Shape, "x_scale, y_scale and y_zero_point must be scalars");
      ws_count = per_channel_count(k, 4, M, "w_scale");
      if (ws_count == 0) k.invalid(ErrorId::Arity, "w_scale is required");
      b_count = k.has_input(8) ? numel(k.in[8].shape) : 0;
      if (b_count && b_count != M) k.invalid(ErrorId::Shape, "B must have one value per output channel");
      require_plain_integers(k, {7, 8});
      requantized_range(k, lo, hi);
    }
    std::vector<int> g;
    for (int64_t v : {N, C, M, group, int64_t{qlinear}, xz_count, wz_count, ws_count, b_count}) g.push_back(c.to_int(v));
    for (const Shape& s : {lift3(in, 1), lift3(on, 1), lift3(kernel, 1), lift3(strides, 1), lift3(dil, 1),
                           lift3(Shape(pads.begin(), pads.begin() + static_cast<std::ptrdiff_t>(ns)), 0)})
      for (int64_t v : s) g.push_back(c.to_int(v));
    c.to_int(numel(xs));
    c.to_int(numel(ws));
    const int64_t total = c.to_int(numel(ys));
    cl::Buffer gb = c.ints(g);
    cl::Kernel kern = c.kernel("qlinear.cl", "int_conv");
    const bool has_xz = xz_count > 0, has_wz = wz_count > 0, has_b = b_count > 0;
    return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
      set_args(kern, in[0], in[wi], input_or(in, xzp, has_xz), input_or(in, wzp, has_wz), input_or(in, 1, qlinear),
               input_or(in, 4, qlinear), input_or(in, 6, qlinear), input_or(in, 7, qlinear), input_or(in, 8, has_b), out[0],
               gb, lo, hi);
      enqueue(dev, kern, total);
    };
  };
}

// MatMulInteger (qlinear false) and QLinearMatMul (true).
OpFactory integer_matmul(bool qlinear) {
  return [qlinear](const OpContext& c) -> Launch {
    const KernelContext& k = c.k;
    const std::size_t b_in = qlinear ? 3 : 1, azp = 2, bzp = qlinear ? 5 : 3;
    require_plain_integers(k, {0, b_in, azp, bzp});
    const Shape a = k.in[0].shape, b = k.in[b_in].shape, o = k.out[0].shape;
    if (a.size() < 2 || b.size() < 2 || o.size() < 2) k.unsupported("operands of rank < 2 are not implemented");
    const int64_t M = a[a.size() - 2], K = a.back(), N = b.back();
    if (b[b.size() - 2] != K) k.invalid(ErrorId::Shape, "A and B disagree on K");
    if (o[o.size() - 2] != M || o.back() != N) k.invalid(ErrorId::Shape, "output shape does not match [..., M, N]");
    const Shape batch(o.begin(), o.end() - 2);
    const Shape sa = exec::broadcast_strides(Shape(a.begin(), a.end() - 2), batch);
    const Shape sb = exec::broadcast_strides(Shape(b.begin(), b.end() - 2), batch);
    const int64_t rows_a = numel(a) / std::max<int64_t>(K, 1), cols_b = numel(b) / std::max<int64_t>(K, 1);
    auto per = [&](std::size_t i, int64_t one, int64_t all, const char* what) -> int64_t {
      if (!k.has_input(i)) return 0;
      const int64_t n = numel(k.in[i].shape);
      if (n != 1 && n != one && n != all) k.invalid(ErrorId::Shape, std::string(what) + " must be a scalar or one value per row / column");
      return n;
    };
    const int64_t az = per(azp, M, rows_a, "A's zero point"), bz = per(bzp, N, cols_b, "B's zero point");
    int64_t as = 0, bs = 0;
    float lo = 0, hi = 0;
    if (qlinear) {
      as = per(1, M, rows_a, "a_scale");
      bs = per(4, N, cols_b, "b_scale");
      if (!as || !bs || per_channel_count(k, 6, 1, "y_scale") != 1 || per_channel_count(k, 7, 1, "y_zero_point") != 1)
        k.invalid(ErrorId::Arity, "needs a_scale, b_scale and scalar y_scale, y_zero_point");
      require_plain_integers(k, {7});
      requantized_range(k, lo, hi);
    }
    std::vector<int> g;
    for (int64_t v : {M, K, N, static_cast<int64_t>(batch.size()), int64_t{qlinear}, az, as, bz, bs}) g.push_back(c.to_int(v));
    for (const Shape* s : {&batch, &sa, &sb})
      for (int64_t v : *s) g.push_back(c.to_int(v));
    c.to_int(numel(a));
    c.to_int(numel(b));
    const int64_t total = c.to_int(numel(o));
    cl::Buffer gb = c.ints(g);
    cl::Kernel kern = c.kernel("qlinear.cl", "int_matmul");
    const bool has_az = az > 0, has_bz = bz > 0;
    return [=](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
      set_args(kern, in[0], in[b_in], input_or(in, azp, has_az), input_or(in, bzp, has_bz), input_or(in, 1, qlinear),
               input_or(in, 4, qlinear), input_or(in, 6, qlinear), input_or(in, 7, qlinear), out[0], gb, lo, hi);
      enqueue(dev, kern, total);
    };
  };
}

}  // namespace

void add_qlinear_ops(OpTable& t) {
  t["ConvInteger"] = integer_conv(false);
  t["QLinearConv"] = integer_conv(true);
  t["MatMulInteger"] = integer_matmul(false);
  t["QLinearMatMul"] = integer_matmul(true);
}

}  // namespace nnbridge::gpu
