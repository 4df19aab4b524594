// Elementwise binary ops with broadcasting, comparisons, logical ops and unary math.
//
// Broadcasting is NumPy's (shapes aligned at the right, size-1 dims stretched; ONNX
// "multidirectional broadcasting"); Arm NN CpuRef's rule (equal ranks, size-1 dims
// stretched: armnn/src/backends/reference/workloads/Broadcast.hpp) is a subset of it.
//
// At prepare time the output's dims are coalesced (size-1 dims dropped, neighbours merged where
// both inputs step through them alike), so the innermost run reads each input either
// contiguously or as one repeated value: the vector kernels of simd.h take it whole.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "../kernel.h"
#include "vector_ops.h"

namespace nnbridge::cpu_ref {

namespace {

// Elements per thread below which an elementwise kernel stays on one thread.
constexpr int64_t kGrain = int64_t{1} << 15;
// Element ranges split across threads start on a 64-byte boundary (16 floats).
constexpr int64_t kAlign = 16;

// The output as coalesced dims; the last one is the inner run (strides 0 or 1 there).
struct Loop {
  Shape dims, sa, sb;
  int64_t inner = 1, outer = 1;
};

Loop coalesce(const Shape& a, const Shape& b, const Shape& o) {
  const Shape fa = exec::broadcast_strides(a, o), fb = exec::broadcast_strides(b, o);
  Loop l;
  for (std::size_t d = 0; d < o.size(); ++d) {
    if (o[d] == 1) continue;
    if (!l.dims.empty() && l.sa.back() == fa[d] * o[d] && l.sb.back() == fb[d] * o[d]) {
      l.dims.back() *= o[d];
      l.sa.back() = fa[d], l.sb.back() = fb[d];
    } else {
      l.dims.push_back(o[d]), l.sa.push_back(fa[d]), l.sb.push_back(fb[d]);
    }
  }
  if (l.dims.empty()) l.dims = {1}, l.sa = {0}, l.sb = {0};
  l.inner = l.dims.back();
  l.outer = numel(l.dims) / std::max<int64_t>(l.inner, 1);
  return l;
}

// Calls run(a_offset, b_offset, y_offset) for outer rows [r0, r1) of `l`.
template <class Run>
void for_rows(const Loop& l, int64_t r0, int64_t r1, Run run) {
  const std::size_t r = l.dims.size() - 1;  // outer dims
  std::vector<int64_t> idx(r, 0);
  int64_t pa = 0, pb = 0, rem = r0;
  for (std::size_t d = r; d-- > 0;) {
    idx[d] = rem % l.dims[d];
    rem /= l.dims[d];
    pa += idx[d] * l.sa[d], pb += idx[d] * l.sb[d];
  }
  for (int64_t row = r0; row < r1; ++row) {
    run(pa, pb, row * l.inner);
    for (std::size_t d = r; d-- > 0;) {
      if (++idx[d] < l.dims[d]) {
        pa += l.sa[d], pb += l.sb[d];
        break;
      }
      pa -= l.sa[d] * (l.dims[d] - 1), pb -= l.sb[d] * (l.dims[d] - 1);
      idx[d] = 0;
    }
  }
}

Loop check_binary(const KernelContext& ctx) {
  if (ctx.in.size() != 2) ctx.invalid(ErrorId::Arity, "needs 2 inputs");
  const Shape &a = ctx.in[0].shape, &b = ctx.in[1].shape, &o = ctx.out[0].shape;
  if (a.size() > o.size() || b.size() > o.size()) ctx.invalid(ErrorId::Shape, "input rank exceeds the output rank");
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i] != 1 && a[i] != o[o.size() - a.size() + i]) ctx.invalid(ErrorId::Shape, "input 0 does not broadcast to the output");
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b[i] != 1 && b[i] != o[o.size() - b.size() + i]) ctx.invalid(ErrorId::Shape, "input 1 does not broadcast to the output");
  for (std::size_t d = 0; d < o.size(); ++d) {  // every output dim > 1 comes from an input
    auto dim = [&](const Shape& s) { return d + s.size() >= o.size() ? s[d + s.size() - o.size()] : int64_t{1}; };
    if (o[d] != 1 && dim(a) == 1 && dim(b) == 1) ctx.invalid(ErrorId::Shape, "output dim " + std::to_string(d) + " is 1 in both inputs");
  }
  return coalesce(a, b, o);
}

}  // namespace

int64_t binary_plane_row_parts(const KernelContext& ctx) {
  const Loop l = check_binary(ctx);
  const Shape& os = ctx.out[0].shape;
  const int64_t h = os.size() >= 3 ? os[os.size() - 2] : 0, w = os.size() >= 3 ? os.back() : 0;
  const int64_t planes = h * w > 0 ? numel(os) / (h * w) : 0;
  const int64_t parts = std::clamp<int64_t>(l.inner / kGrain, 1, std::max(ctx.threads, 1));
  return !ctx.channels_last && l.outer == 1 && parts > 1 && planes > 1 && h >= parts ? parts : 0;
}

namespace {

// A binary op of simd.h over the broadcast output, split into row ranges across threads.
Kernel binary(const KernelContext& ctx, simd::Binary op) {
  const Loop l = check_binary(ctx);
  const int threads = ctx.threads;
  const auto* k = &simd::kernels();
  if (numel(ctx.out[0].shape) == 0) return [](std::span<const float* const>, std::span<float* const>) {};
  const simd::Operands form = l.sa.back() == 0 ? (l.sb.back() == 0 ? simd::Operands::VecVec : simd::Operands::ScalarVec)
                              : l.sb.back() == 0 ? simd::Operands::VecScalar : simd::Operands::VecVec;
  const int64_t rows_grain = std::max<int64_t>(1, kGrain / std::max<int64_t>(l.inner, 1));
  // One run over an output of rank >= 3 (an NCHW image, say) is split by the rows of each plane
  // (the last two dims), rows r0 = h * t / parts: the cut of the convolutions' blocks of output
  // rows (conv.cc) and depthwise bands (depthwise.cc), so that each core reads the rows it wrote.
  // (Split flat, a residual Add's halves are channel halves; by rows mobilenet_v2 at 2 threads
  // ran 1.03x faster.) Channels-last tensors (ctx.channels_last: [N, H, W, C], whose
  // convolutions split by rows of H) are split flat, which for one image is that cut already.
  const Shape& os = ctx.out[0].shape;
  const int64_t h = os.size() >= 3 ? os[os.size() - 2] : 0, w = os.size() >= 3 ? os.back() : 0;
  const int64_t planes = h * w > 0 ? numel(os) / (h * w) : 0;
  const int64_t parts = binary_plane_row_parts(ctx);
  const bool by_plane_rows = parts > 0;
  return [l, threads, k, op, form, rows_grain, h, w, planes, parts, by_plane_rows](std::span<const float* const> in,
                                                                                    std::span<float* const> out) {
    const float *x = in[0], *y = in[1];
    float* z = out[0];
    if (by_plane_rows) {
      parallel_for(static_cast<int>(parts), parts, [&](int64_t t) {
        const int64_t b = h * t / parts * w, e = h * (t + 1) / parts * w;
        for (int64_t p = 0; p < planes; ++p) {
          const int64_t at = p * h * w + b;
          k->binary(op, form, form == simd::Operands::ScalarVec ? x : x + at, form == simd::Operands::VecScalar ? y : y + at,
                    z + at, static_cast<std::size_t>(e - b));
        }
      });
      return;
    }
    if (l.outer == 1) {  // one run: split it
      parallel_ranges(
          threads, l.inner, kGrain,
          [&](int64_t b, int64_t e) {
            const float* pa = form == simd::Operands::ScalarVec ? x : x + b;
            const float* pb = form == simd::Operands::VecScalar ? y : y + b;
            k->binary(op, form, pa, pb, z + b, static_cast<std::size_t>(e - b));
          },
          kAlign);
      return;
    }
    parallel_ranges(threads, l.outer, rows_grain, [&](int64_t r0, int64_t r1) {
      for_rows(l, r0, r1, [&](int64_t pa, int64_t pb, int64_t po) {
        k->binary(op, form, x + pa, y + pb, z + po, static_cast<std::size_t>(l.inner));
      });
    });
  };
}

// A binary op with a scalar formula only (Pow), on the same coalesced loop.
template <class F>
Kernel binary_scalar(const KernelContext& ctx, F f) {
  const Loop l = check_binary(ctx);
  return [l, f](std::span<const float* const> in, std::span<float* const> out) {
    const float *x = in[0], *y = in[1];
    float* z = out[0];
    const int64_t ia = l.sa.back(), ib = l.sb.back();
    for_rows(l, 0, l.outer, [&](int64_t pa, int64_t pb, int64_t po) {
      for (int64_t k = 0; k < l.inner; ++k) z[po + k] = f(x[pa + k * ia], y[pb + k * ib]);
    });
  };
}

// Div of plain integers (ONNX Div-14 on int types: truncation toward zero). Division by zero and
// a quotient outside the type (INT_MIN / -1) are undefined in ONNX and trap or wrap in C++ (Arm NN
// CpuRef divides with std::divides): refused at run time as Error(Invalid) naming the element,
// never a saturated value.
Kernel integer_div(const KernelContext& ctx) {
  const Loop l = check_binary(ctx);
  double lo = 0, hi = 0;
  switch (ctx.out[0].dtype) {
    case DataType::Int8: lo = -128, hi = 127; break;
    case DataType::Int16: lo = -32768, hi = 32767; break;
    case DataType::Int32: lo = -2147483648.0, hi = 2147483647.0; break;
    case DataType::Int64: lo = -9223372036854775808.0, hi = 9223372036854775807.0; break;
    case DataType::UInt8: lo = 0, hi = 255; break;
    case DataType::UInt16: lo = 0, hi = 65535; break;
    case DataType::UInt32: lo = 0, hi = 4294967295.0; break;
    case DataType::UInt64: lo = 0, hi = 18446744073709551615.0; break;
    default: ctx.unsupported(ErrorId::DataType, "integer Div of this dtype");
  }
  const std::string label = "node \"" + ctx.node.name + "\" (Div)";
  return [l, lo, hi, label](std::span<const float* const> in, std::span<float* const> out) {
    const float *x = in[0], *y = in[1];
    float* z = out[0];
    const int64_t ia = l.sa.back(), ib = l.sb.back();
    for_rows(l, 0, l.outer, [&](int64_t pa, int64_t pb, int64_t po) {
      for (int64_t k = 0; k < l.inner; ++k) {
        const double a = x[pa + k * ia], b = y[pb + k * ib];
        if (b == 0)
          throw Error(ErrorId::InvalidOther, label + ": integer division by zero at output element " + std::to_string(po + k) +
                                              " (undefined in ONNX; nnbridge refuses rather than saturate)");
        const double q = std::trunc(a / b);
        if (q < lo || q > hi)
          throw Error(ErrorId::Narrowing, label + ": the quotient at output element " + std::to_string(po + k) +
                                              " does not fit the output type (e.g. INT_MIN / -1)");
        z[po + k] = static_cast<float>(q);
      }
    });
  };
}

template <class F>
KernelFactory unary(F f) {
  return [f](const KernelContext& ctx) -> Kernel {
    const int64_t n = numel(ctx.out[0].shape);
    if (numel(ctx.in[0].shape) != n) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
    return [n, f](std::span<const float* const> in, std::span<float* const> out) {
      const float* x = in[0];
      float* y = out[0];
      for (int64_t i = 0; i < n; ++i) y[i] = f(x[i]);
    };
  };
}

// Max, Min, Sum, Mean of any number of inputs (ONNX Max-13 / Min-13 / Sum-13 / Mean-13): each
// output element folds the inputs' broadcast elements left to right; Mean divides by the count.
// Two inputs take the vector kernels of binary() (same arithmetic, one fold step).
enum class Fold { Max, Min, Sum, Mean };

Kernel variadic(const KernelContext& ctx, Fold f) {
  const std::size_t k = ctx.in.size();
  if (k == 0) ctx.invalid(ErrorId::Arity, "needs at least one input");
  if (k == 2 && f != Fold::Mean)
    return binary(ctx, f == Fold::Max ? simd::Binary::Max : f == Fold::Min ? simd::Binary::Min : simd::Binary::Add);
  const Shape out = ctx.out[0].shape;
  std::vector<Shape> st;
  for (std::size_t i = 0; i < k; ++i) {
    const Shape& s = ctx.in[i].shape;
    if (s.size() > out.size()) ctx.invalid(ErrorId::Shape, "input " + std::to_string(i) + " has a higher rank than the output");
    for (std::size_t d = 0; d < s.size(); ++d)
      if (s[d] != 1 && s[d] != out[out.size() - s.size() + d])
        ctx.invalid(ErrorId::Shape, "input " + std::to_string(i) + " does not broadcast to the output");
    st.push_back(exec::broadcast_strides(s, out));
  }
  const int64_t total = numel(out);
  return [out, st, total, k, f](std::span<const float* const> in, std::span<float* const> o) {
    const std::size_t r = out.size();
    Shape idx(r, 0);
    std::vector<int64_t> off(k, 0);
    for (int64_t e = 0; e < total; ++e) {
      float a = in[0][off[0]];
      for (std::size_t i = 1; i < k; ++i) {
        const float b = in[i][off[i]];
        a = f == Fold::Max ? std::max(a, b) : f == Fold::Min ? std::min(a, b) : a + b;
      }
      o[0][e] = f == Fold::Mean ? a / static_cast<float>(k) : a;
      for (std::size_t d = r; d-- > 0;) {  // odometer over the output index
        ++idx[d];
        for (std::size_t i = 0; i < k; ++i) off[i] += st[i][d];
        if (idx[d] < out[d]) break;
        for (std::size_t i = 0; i < k; ++i) off[i] -= st[i][d] * out[d];
        idx[d] = 0;
      }
    }
  };
}

// ONNX Mod-13. fmod 0 (integer inputs only): the remainder takes the divisor's sign, a - b * floor(a / b);
// fmod 1: C's fmod, the dividend's sign. An integer remainder by zero is undefined in ONNX and is
// refused at run time, as integer Div is.
Kernel make_mod(const KernelContext& ctx) {
  const bool fmod = ctx.attr_int("fmod", 0) != 0;
  const bool integer = is_integer(ctx.in[0].dtype);
  if (!fmod && !integer) ctx.invalid(ErrorId::AttributeValue, "fmod 0 on floating-point inputs (ONNX Mod-13 requires fmod 1 for floats)");
  const std::string label = "node \"" + ctx.node.name + "\" (Mod)";
  if (fmod && !integer) return binary_scalar(ctx, [](float a, float b) { return std::fmod(a, b); });
  return binary_scalar(ctx, [fmod, label](float a, float b) {
    if (b == 0) throw Error(ErrorId::InvalidOther, label + ": integer remainder by zero (undefined in ONNX)");
    const double x = a, y = b;
    const double r = std::fmod(x, y);
    return static_cast<float>(fmod || r == 0 || (r < 0) == (y < 0) ? r : r + y);
  });
}

}  // namespace

Kernel simd_unary(const KernelContext& ctx, simd::Unary op, simd::UnaryParams p) {
  const int64_t n = numel(ctx.out[0].shape);
  if (numel(ctx.in[0].shape) != n) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
  const int threads = ctx.threads;
  const auto* k = &simd::kernels();
  return [n, threads, k, op, p](std::span<const float* const> in, std::span<float* const> out) {
    const float* x = in[0];
    float* y = out[0];
    parallel_ranges(threads, n, kGrain, [&](int64_t b, int64_t e) { k->unary(op, p, x + b, y + b, static_cast<std::size_t>(e - b)); }, kAlign);
  };
}

void add_elementwise_kernels(KernelTable& t) {
  using simd::Binary;
  auto bin = [](Binary op) { return [op](const KernelContext& c) { return binary(c, op); }; };
  t["Add"] = bin(Binary::Add);
  t["Sub"] = bin(Binary::Sub);
  t["Mul"] = bin(Binary::Mul);
  t["Div"] = [](const KernelContext& c) {
    return is_integer(c.out[0].dtype) ? integer_div(c) : binary(c, Binary::Div);
  };
  // std::max(a, b) / std::min(a, b), as Arm NN CpuRef Maximum / Minimum, folded over the inputs.
  t["Max"] = [](const KernelContext& c) { return variadic(c, Fold::Max); };
  t["Min"] = [](const KernelContext& c) { return variadic(c, Fold::Min); };
  t["Sum"] = [](const KernelContext& c) { return variadic(c, Fold::Sum); };
  t["Mean"] = [](const KernelContext& c) { return variadic(c, Fold::Mean); };
  t["Mod"] = make_mod;
  t["Xor"] = [](const KernelContext& c) {
    return binary_scalar(c, [](float a, float b) { return (a != 0) != (b != 0) ? 1.0f : 0.0f; });
  };
  t["Pow"] = [](const KernelContext& c) { return binary_scalar(c, [](float a, float b) { return std::pow(a, b); }); };
  t["SquaredDifference"] = bin(Binary::SquaredDifference);
  t["Equal"] = bin(Binary::Equal);
  t["NotEqual"] = bin(Binary::NotEqual);
  t["Greater"] = bin(Binary::Greater);
  t["GreaterOrEqual"] = bin(Binary::GreaterOrEqual);
  t["Less"] = bin(Binary::Less);
  t["LessOrEqual"] = bin(Binary::LessOrEqual);
  t["And"] = bin(Binary::And);
  t["Or"] = bin(Binary::Or);

  // PyTorch aten.add.Tensor / aten.sub.Tensor with alpha != 1 (ExecuTorch VkGraph; the reader
  // keeps them native with the alpha attribute): self + alpha * other, self - alpha * other,
  // broadcast as Add / Sub.
  t["vk.aten.add.Tensor"] = [](const KernelContext& c) {
    const float k = static_cast<float>(c.attr_float("alpha", 1.0));
    return binary_scalar(c, [k](float a, float b) { return a + k * b; });
  };
  t["vk.aten.sub.Tensor"] = [](const KernelContext& c) {
    const float k = static_cast<float>(c.attr_float("alpha", 1.0));
    return binary_scalar(c, [k](float a, float b) { return a - k * b; });
  };

  // PRelu (ONNX PRelu-16; Arm NN Prelu): x if x >= 0 else slope * x, slope broadcast.
  t["PRelu"] = bin(Binary::PRelu);

  using simd::Unary;
  auto vec = [](Unary op) { return [op](const KernelContext& c) { return simd_unary(c, op, {}); }; };
  t["Not"] = unary([](float x) { return x == 0 ? 1.0f : 0.0f; });
  t["Abs"] = vec(Unary::Abs);
  t["Neg"] = vec(Unary::Neg);
  t["Sqrt"] = vec(Unary::Sqrt);
  t["Rsqrt"] = vec(Unary::Rsqrt);
  t["Exp"] = vec(Unary::Exp);
  t["Log"] = vec(Unary::Log);
  t["Sin"] = unary([](float x) { return std::sin(x); });
  t["Cos"] = unary([](float x) { return std::cos(x); });
  t["Tan"] = unary([](float x) { return std::tan(x); });
  t["Asin"] = unary([](float x) { return std::asin(x); });
  t["Acos"] = unary([](float x) { return std::acos(x); });
  t["Atan"] = unary([](float x) { return std::atan(x); });
  t["Sinh"] = unary([](float x) { return std::sinh(x); });
  t["Cosh"] = unary([](float x) { return std::cosh(x); });
  t["Asinh"] = unary([](float x) { return std::asinh(x); });
  t["Acosh"] = unary([](float x) { return std::acosh(x); });
  t["Atanh"] = unary([](float x) { return std::atanh(x); });
  t["Erf"] = unary([](float x) { return std::erf(x); });
  t["IsNaN"] = unary([](float x) { return std::isnan(x) ? 1.0f : 0.0f; });
  t["IsInf"] = [](const KernelContext& c) {
    const bool neg = c.attr_int("detect_negative", 1) != 0, pos = c.attr_int("detect_positive", 1) != 0;
    return unary([neg, pos](float x) { return std::isinf(x) && (x > 0 ? pos : neg) ? 1.0f : 0.0f; })(c);
  };
  t["Ceil"] = unary([](float x) { return std::ceil(x); });
  t["Floor"] = unary([](float x) { return std::floor(x); });
  t["Reciprocal"] = vec(Unary::Reciprocal);
  t["Square"] = vec(Unary::Square);
  t["Sign"] = unary([](float x) { return static_cast<float>((x > 0) - (x < 0)); });
  // ONNX Round: half to even.
  t["Round"] = unary([](float x) { return std::nearbyint(x); });
  // ONNX Dropout-13 in inference: output = data and mask all true. training_mode (input 2) true
  // with a ratio (input 1, default 0.5) above 0 draws random numbers: no reference result, refused.
  t["Dropout"] = [](const KernelContext& ctx) -> Kernel {
    const bool training = ctx.has_input(2) && ctx.value(2, "training_mode").at(0) != 0;
    const float ratio = ctx.has_input(1) ? ctx.value(1, "ratio").at(0) : 0.5f;
    if (training && ratio != 0) ctx.unsupported("training_mode true with ratio " + std::to_string(ratio) + " (random)");
    const int64_t n = numel(ctx.out[0].shape);
    if (numel(ctx.in[0].shape) != n) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
    return [n](std::span<const float* const> in, std::span<float* const> out) {
      if (n) std::memcpy(out[0], in[0], static_cast<std::size_t>(n) * sizeof(float));
      if (out.size() > 1 && out[1]) std::fill_n(out[1], n, 1.0f);
    };
  };
  // ONNX CastLike-15: Cast to input 1's dtype; in the float32 domain a copy, which the plan rounds
  // to the output dtype as it does Cast's. Quantized types (ONNX has none here) are refused.
  t["CastLike"] = [](const KernelContext& ctx) -> Kernel {
    if (is_quantized(ctx.in[0].dtype) || is_quantized(ctx.out[0].dtype)) ctx.unsupported(ErrorId::DataType, "quantized CastLike");
    const int64_t n = numel(ctx.out[0].shape);
    if (numel(ctx.in[0].shape) != n) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
    return [n](std::span<const float* const> in, std::span<float* const> out) {
      if (n) std::memcpy(out[0], in[0], static_cast<std::size_t>(n) * sizeof(float));
    };
  };
  t["Identity"] = [](const KernelContext& ctx) -> Kernel {
    const int64_t n = numel(ctx.out[0].shape);
    if (numel(ctx.in[0].shape) != n) ctx.invalid(ErrorId::Shape, "output size differs from the input's");
    return [n](std::span<const float* const> in, std::span<float* const> out) {
      if (n) std::memcpy(out[0], in[0], static_cast<std::size_t>(n) * sizeof(float));
    };
  };
}

}  // namespace nnbridge::cpu_ref
