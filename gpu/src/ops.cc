// Elementwise and data-movement ops of the opencl backend (kernels/elementwise.cl).
#include <algorithm>
#include <climits>
#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "ops.h"

namespace nnbridge::gpu {

cl::Kernel OpContext::kernel(const char* file, const char* name) const {
  return cl::Kernel(get_embedded_program(dev, file, label), name);
}

cl::Buffer OpContext::ints(const std::vector<int>& v) const {
  std::vector<int> data = v.empty() ? std::vector<int>{0} : v;
  return cl::Buffer(dev.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(int), data.data());
}

cl::Buffer OpContext::floats(const std::vector<float>& v) const {
  std::vector<float> data = v.empty() ? std::vector<float>{0.0f} : v;
  return cl::Buffer(dev.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, data.size() * sizeof(float), data.data());
}

int OpContext::to_int(int64_t v) const {
  if (v < 0 || v > INT_MAX) k.unsupported("a size of " + std::to_string(v) + " does not fit the kernels' 32-bit indexing");
  return static_cast<int>(v);
}

void enqueue(const Device& dev, const cl::Kernel& k, int64_t n) {
  if (n > 0) dev.queue.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(static_cast<std::size_t>(n)));
}

namespace {


// Codes of kernels/elementwise.cl's unary_op and binary_op.
enum class Unary : int {
  Relu, Sigmoid, Tanh, ScaledTanh, Affine, Clip, LeakyRelu, Elu, Softplus, HardSwish, GeluErf, GeluTanh, Abs, Neg,
  Sqrt, Rsqrt, Exp, Log, Reciprocal, Square, Sin, Ceil, Floor, Sign, Round, Not, Cos, Tan, Asin, Acos, Atan, Sinh,
  Cosh, Asinh, Acosh, Atanh, Erf, IsNaN, IsInf, Selu, Celu, HardSigmoid, ThresholdedRelu, Shrink, Softsign, DivideBy
};
enum class Binary : int {
  Add, Sub, Mul, Div, Max, Min, Pow, SquaredDifference, Equal, NotEqual, Greater, GreaterOrEqual, Less, LessOrEqual,
  And, Or, PRelu, Xor, FMod, IntMod, IntFMod, AddScaled, SubScaled
};

// The kernels' broadcast table: the output's dims, then for each input its strides as read at
// each output index (exec::broadcast_strides: Error(Invalid) for an input that does not
// broadcast to the output), all as ints.
cl::Buffer broadcast_meta(const OpContext& c, const std::vector<Shape>& inputs) {
  const Shape& os = c.k.out[0].shape;
  std::vector<int> meta;
  for (int64_t d : os) meta.push_back(c.to_int(d));
  for (const Shape& s : inputs)
    for (int64_t d : exec::broadcast_strides(s, os)) meta.push_back(c.to_int(d));
  c.to_int(numel(os));
  return c.ints(meta);
}

// unary_op over input 0 with the parameters a and b.
Launch unary_launch(const OpContext& c, Unary op, float a, float b) {
  const int64_t n = numel(c.k.out[0].shape);
  if (numel(c.k.in[0].shape) != n) c.k.invalid(ErrorId::Shape, "output size differs from the input's");
  c.to_int(n);
  cl::Kernel k = c.kernel("elementwise.cl", "unary_op");
  return [k, op, a, b, n](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    k.setArg(0, in[0]);
    k.setArg(1, out[0]);
    k.setArg(2, static_cast<int>(op));
    k.setArg(3, a);
    k.setArg(4, b);
    enqueue(dev, k, n);
  };
}

OpFactory unary(Unary op, const char* a_name = nullptr, double a_default = 0, const char* b_name = nullptr,
                double b_default = 0) {
  return [=](const OpContext& c) -> Launch {
    if (c.k.in.size() != 1) c.k.invalid(ErrorId::Arity, "takes one input");
    const float a = a_name ? static_cast<float>(c.k.attr_float(a_name, a_default)) : 0.0f;
    const float b = b_name ? static_cast<float>(c.k.attr_float(b_name, b_default)) : 0.0f;
    return unary_launch(c, op, a, b);
  };
}

// ONNX Clip-13: min (input 1) and max (input 2) are one-element constants read at prepare; an
// absent one does not clip (cpu_ref/src/kernels/activation.cc).
Launch clip(const OpContext& c) {
  auto bound = [&c](std::size_t i, const char* what, float none) {
    if (!c.k.has_input(i)) return none;
    const exec::FloatConstant& v = c.k.value(i, what);
    if (v.size() != 1) c.k.invalid(ErrorId::Shape, std::string(what) + " must hold one value");
    return v[0];
  };
  return unary_launch(c, Unary::Clip, bound(1, "min", -INFINITY), bound(2, "max", INFINITY));
}

// binary_op over inputs 0 and 1 broadcast to the output; `alpha` is AddScaled's / SubScaled's factor.
OpFactory binary(Binary op, const char* alpha_name = nullptr) {
  return [=](const OpContext& c) -> Launch {
    if (c.k.in.size() != 2) c.k.invalid(ErrorId::Arity, "takes two inputs");
    const Shape& os = c.k.out[0].shape;
    cl::Buffer mb = broadcast_meta(c, {c.k.in[0].shape, c.k.in[1].shape});
    const int64_t n = numel(os);
    const int rank = static_cast<int>(os.size());
    const float alpha = alpha_name ? static_cast<float>(c.k.attr_float(alpha_name, 1.0)) : 0.0f;
    cl::Kernel k = c.kernel("elementwise.cl", "binary_op");
    return [k, mb, op, rank, n, alpha](const Device& dev, std::span<const cl::Buffer> in,
                                       std::span<const cl::Buffer> out) mutable {
      k.setArg(0, in[0]);
      k.setArg(1, in[1]);
      k.setArg(2, out[0]);
      k.setArg(3, static_cast<int>(op));
      k.setArg(4, rank);
      k.setArg(5, mb);
      k.setArg(6, alpha);
      enqueue(dev, k, n);
    };
  };
}

// Div of plain integers, as the cpu backend's rule (ONNX Div-14: truncation toward zero): the
// float kernel's quotients are read back and a division by zero (an infinite or NaN quotient) or
// a quotient outside the output type (INT_MIN / -1) is Error(Invalid) naming the element, never a
// saturated value. The read-back synchronises the queue; only integer Div pays it.
OpFactory div() {
  return [](const OpContext& c) -> Launch {
    Launch l = binary(Binary::Div)(c);
    double lo = 0, hi = 0;
    switch (c.k.out[0].dtype) {
      case DataType::Int8: lo = -128, hi = 127; break;
      case DataType::Int16: lo = -32768, hi = 32767; break;
      case DataType::Int32: lo = -2147483648.0, hi = 2147483647.0; break;
      case DataType::Int64: lo = -9223372036854775808.0, hi = 9223372036854775807.0; break;
      case DataType::UInt8: lo = 0, hi = 255; break;
      default: return l;
    }
    const std::size_t n = static_cast<std::size_t>(numel(c.k.out[0].shape));
    const std::string label = "node \"" + c.k.node.name + "\" (Div)";
    return [l, lo, hi, n, label](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) {
      l(dev, in, out);
      if (n == 0) return;
      std::vector<float> q(n);
      dev.queue.enqueueReadBuffer(out[0], CL_TRUE, 0, n * sizeof(float), q.data());
      for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(q[i]))
          throw Error(ErrorId::InvalidOther, label + ": integer division by zero at output element " + std::to_string(i) +
                                              " (undefined in ONNX; nnbridge refuses rather than saturate)");
        if (q[i] < lo || q[i] > hi)
          throw Error(ErrorId::Narrowing, label + ": the quotient at output element " + std::to_string(i) +
                                              " does not fit the output type (e.g. INT_MIN / -1)");
      }
    };
  };
}

// ONNX Mod-13 as cpu_ref/src/kernels/elementwise.cc computes it: fmod 1 is C's fmod (the
// dividend's sign); fmod 0 (integer inputs only) takes the divisor's sign. An integer remainder by
// zero, undefined in ONNX, is refused at run time: the kernel writes NaN there (no integer input
// is NaN) and the remainders are read back, as integer Div's quotients are.
Launch mod(const OpContext& c) {
  const bool fmod = c.k.attr_int("fmod", 0) != 0;
  const bool integer = is_integer(c.k.in[0].dtype);
  if (!fmod && !integer) c.k.invalid(ErrorId::AttributeValue, "fmod 0 on floating-point inputs (ONNX Mod-13 requires fmod 1 for floats)");
  Launch l = binary(!integer ? Binary::FMod : fmod ? Binary::IntFMod : Binary::IntMod)(c);
  if (!integer) return l;
  const std::size_t n = static_cast<std::size_t>(numel(c.k.out[0].shape));
  const std::string label = "node \"" + c.k.node.name + "\" (Mod)";
  return [l, n, label](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) {
    l(dev, in, out);
    if (n == 0) return;
    std::vector<float> r(n);
    dev.queue.enqueueReadBuffer(out[0], CL_TRUE, 0, n * sizeof(float), r.data());
    if (std::any_of(r.begin(), r.end(), [](float v) { return std::isnan(v); }))
      throw Error(ErrorId::InvalidOther, label + ": integer remainder by zero (undefined in ONNX)");
  };
}

// Max, Min, Sum, Mean of any number of inputs (ONNX Max-13 / Min-13 / Sum-13 / Mean-13), as cpu
// folds them: each output element is the inputs' broadcast elements combined left to right
// (binary_op into the output: in0 with in1, then the output with each further input, which reads
// the output at its own index only), Mean then divided by the count.
OpFactory variadic(Binary op, bool mean) {
  return [op, mean](const OpContext& c) -> Launch {
    const std::size_t k = c.k.in.size();
    if (k == 0) c.k.invalid(ErrorId::Arity, "needs at least one input");
    const Shape& os = c.k.out[0].shape;
    for (std::size_t i = 0; i < k; ++i) {
      const Shape& s = c.k.in[i].shape;
      if (s.size() > os.size()) c.k.invalid(ErrorId::Shape, "input " + std::to_string(i) + " has a higher rank than the output");
      for (std::size_t d = 0; d < s.size(); ++d)
        if (s[d] != 1 && s[d] != os[os.size() - s.size() + d])
          c.k.invalid(ErrorId::Shape, "input " + std::to_string(i) + " does not broadcast to the output");
    }
    std::vector<cl::Buffer> metas;  // step j combines (j == 0: input 0, else the output) with input j + 1
    metas.push_back(broadcast_meta(c, {c.k.in[0].shape, c.k.in[k > 1 ? 1 : 0].shape}));
    for (std::size_t i = 2; i < k; ++i) metas.push_back(broadcast_meta(c, {os, c.k.in[i].shape}));
    const int64_t n = numel(os);
    const int rank = static_cast<int>(os.size());
    const float count = static_cast<float>(k);
    cl::Kernel bk = c.kernel("elementwise.cl", "binary_op"), uk = c.kernel("elementwise.cl", "unary_op");
    return [bk, uk, metas, op, mean, k, n, rank, count](const Device& dev, std::span<const cl::Buffer> in,
                                                         std::span<const cl::Buffer> out) mutable {
      if (k == 1) {  // one input (of the output's shape): max(a, a), which is a
        bk.setArg(0, in[0]);
        bk.setArg(1, in[0]);
        bk.setArg(3, static_cast<int>(Binary::Max));
      }
      for (std::size_t j = 0; j < metas.size(); ++j) {
        if (k > 1) {
          bk.setArg(0, j == 0 ? in[0] : out[0]);
          bk.setArg(1, in[j + 1]);
          bk.setArg(3, static_cast<int>(op));
        }
        bk.setArg(2, out[0]);
        bk.setArg(4, rank);
        bk.setArg(5, metas[j]);
        bk.setArg(6, 0.0f);
        enqueue(dev, bk, n);
      }
      if (!mean) return;
      uk.setArg(0, out[0]);
      uk.setArg(1, out[0]);
      uk.setArg(2, static_cast<int>(Unary::DivideBy));
      uk.setArg(3, count);
      uk.setArg(4, 0.0f);
      enqueue(dev, uk, n);
    };
  };
}

// ONNX BitShift-11 on one unsigned integer dtype (cpu_ref/src/kernels/bitwise.cc): X shifted
// LEFT or RIGHT by Y bits, the two broadcast; bits shifted out of the type are lost.
Launch bit_shift(const OpContext& c) {
  const std::string dir = c.k.attr_string("direction");
  if (dir != "LEFT" && dir != "RIGHT") c.k.invalid(ErrorId::AttributeValue, "direction must be \"LEFT\" or \"RIGHT\", not \"" + dir + "\"");
  const DataType dt = c.k.in[0].dtype;
  if (std::string_view(to_string(dt)).substr(0, 4) != "uint" || c.k.in[1].dtype != dt)
    c.k.unsupported(ErrorId::DataType, "BitShift of " + std::string(to_string(dt)) + " and " + std::string(to_string(c.k.in[1].dtype)) +
                    " (one unsigned integer dtype only)");
  const int width = static_cast<int>(element_size(dt) * 8);
  const int left = dir == "LEFT" ? 1 : 0;
  cl::Buffer mb = broadcast_meta(c, {c.k.in[0].shape, c.k.in[1].shape});
  const int64_t n = numel(c.k.out[0].shape);
  const int rank = static_cast<int>(c.k.out[0].shape.size());
  cl::Kernel k = c.kernel("elementwise.cl", "bit_shift");
  return [k, mb, left, width, rank, n](const Device& dev, std::span<const cl::Buffer> in,
                                       std::span<const cl::Buffer> out) mutable {
    k.setArg(0, in[0]);
    k.setArg(1, in[1]);
    k.setArg(2, out[0]);
    k.setArg(3, left);
    k.setArg(4, width);
    k.setArg(5, rank);
    k.setArg(6, mb);
    enqueue(dev, k, n);
  };
}

// ONNX Where-16: condition ? X : Y, the three inputs broadcast to the output.
Launch where(const OpContext& c) {
  if (c.k.in.size() != 3) c.k.invalid(ErrorId::Arity, "needs condition, X and Y");
  cl::Buffer mb = broadcast_meta(c, {c.k.in[0].shape, c.k.in[1].shape, c.k.in[2].shape});
  const int64_t n = numel(c.k.out[0].shape);
  const int rank = static_cast<int>(c.k.out[0].shape.size());
  cl::Kernel k = c.kernel("elementwise.cl", "where_op");
  return [k, mb, rank, n](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    for (cl_uint i = 0; i < 3; ++i) k.setArg(i, in[i]);
    k.setArg(3, out[0]);
    k.setArg(4, rank);
    k.setArg(5, mb);
    enqueue(dev, k, n);
  };
}

// Ops that keep the bytes and change only the shape: a device copy of input 0.
Launch copy_launch(const OpContext& c) {
  const int64_t n = numel(c.k.out[0].shape);
  if (numel(c.k.in[0].shape) != n) c.k.invalid(ErrorId::Shape, "output size differs from the input's");
  return [n](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) {
    if (n > 0) dev.queue.enqueueCopyBuffer(in[0], out[0], 0, 0, static_cast<std::size_t>(n) * sizeof(float));
  };
}

Launch transpose(const OpContext& c) {
  const Shape& is = c.k.in[0].shape;
  const int64_t r = static_cast<int64_t>(is.size());
  Shape perm = c.k.attr_ints("perm");
  if (perm.empty())
    for (int64_t d = r - 1; d >= 0; --d) perm.push_back(d);
  if (static_cast<int64_t>(perm.size()) != r) c.k.invalid(ErrorId::Shape, "perm has " + std::to_string(perm.size()) + " entries for rank " + std::to_string(r));
  const Shape xs = strides_of(is);
  std::vector<int> meta;
  for (int64_t d = 0; d < r; ++d) meta.push_back(c.to_int(is[normalize_axis(perm[d], r)]));
  for (int64_t d = 0; d < r; ++d) meta.push_back(c.to_int(xs[normalize_axis(perm[d], r)]));
  const int64_t n = c.to_int(numel(is));
  if (numel(c.k.out[0].shape) != n) c.k.invalid(ErrorId::Shape, "output size differs from the input's");
  cl::Buffer mb = c.ints(meta);
  cl::Kernel k = c.kernel("elementwise.cl", "strided_copy");
  const int rank = static_cast<int>(r);
  return [k, mb, rank, n](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    k.setArg(0, in[0]);
    k.setArg(1, out[0]);
    k.setArg(2, rank);
    k.setArg(3, mb);
    enqueue(dev, k, n);
  };
}

Launch concat(const OpContext& c) {
  const Shape& os = c.k.out[0].shape;
  const int64_t r = static_cast<int64_t>(os.size());
  const int64_t axis = c.k.attr_axis("axis", 0, r);
  int64_t inner = 1, outer = 1;
  for (int64_t d = 0; d < axis; ++d) outer *= os[d];
  for (int64_t d = axis + 1; d < r; ++d) inner *= os[d];
  struct Part {
    int block, offset;
    int64_t n;
  };
  std::vector<Part> parts;
  int64_t offset = 0;
  for (const TensorType& t : c.k.in) {
    if (static_cast<int64_t>(t.shape.size()) != r) c.k.invalid(ErrorId::Shape, "inputs differ in rank");
    const int64_t block = t.shape[axis] * inner;
    parts.push_back({c.to_int(block), c.to_int(offset), c.to_int(outer * block)});
    offset += block;
  }
  if (offset != os[axis] * inner) c.k.invalid(ErrorId::Shape, "the inputs' sizes along the axis do not add up to the output's");
  const int out_block = c.to_int(os[axis] * inner);
  cl::Kernel k = c.kernel("elementwise.cl", "block_copy");
  return [k, parts, out_block](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    for (std::size_t p = 0; p < parts.size(); ++p) {
      k.setArg(0, in[p]);
      k.setArg(1, out[0]);
      k.setArg(2, parts[p].block);
      k.setArg(3, out_block);
      k.setArg(4, parts[p].offset);
      enqueue(dev, k, parts[p].n);
    }
  };
}

}  // namespace

void add_elementwise_ops(OpTable& t) {
  t["Relu"] = unary(Unary::Relu);
  t["Sigmoid"] = unary(Unary::Sigmoid);
  t["Tanh"] = unary(Unary::Tanh);
  t["ScaledTanh"] = unary(Unary::ScaledTanh, "alpha", 1.0, "beta", 1.0);
  t["Affine"] = unary(Unary::Affine, "alpha", 1.0, "beta", 0.0);
  t["Clip"] = clip;
  t["LeakyRelu"] = unary(Unary::LeakyRelu, "alpha", 0.01);
  t["Elu"] = unary(Unary::Elu, "alpha", 1.0);
  t["Softplus"] = unary(Unary::Softplus);
  t["HardSwish"] = unary(Unary::HardSwish);
  t["Abs"] = unary(Unary::Abs);
  t["Neg"] = unary(Unary::Neg);
  t["Sqrt"] = unary(Unary::Sqrt);
  t["Rsqrt"] = unary(Unary::Rsqrt);
  t["Exp"] = unary(Unary::Exp);
  t["Log"] = unary(Unary::Log);
  t["Reciprocal"] = unary(Unary::Reciprocal);
  t["Square"] = unary(Unary::Square);
  t["Sin"] = unary(Unary::Sin);
  t["Ceil"] = unary(Unary::Ceil);
  t["Floor"] = unary(Unary::Floor);
  t["Sign"] = unary(Unary::Sign);
  t["Round"] = unary(Unary::Round);
  t["Not"] = unary(Unary::Not);
  t["Cos"] = unary(Unary::Cos);
  t["Tan"] = unary(Unary::Tan);
  t["Asin"] = unary(Unary::Asin);
  t["Acos"] = unary(Unary::Acos);
  t["Atan"] = unary(Unary::Atan);
  t["Sinh"] = unary(Unary::Sinh);
  t["Cosh"] = unary(Unary::Cosh);
  t["Asinh"] = unary(Unary::Asinh);
  t["Acosh"] = unary(Unary::Acosh);
  t["Atanh"] = unary(Unary::Atanh);
  t["Erf"] = unary(Unary::Erf);
  t["IsNaN"] = unary(Unary::IsNaN);
  t["IsInf"] = [](const OpContext& c) {  // a: detect_negative, b: detect_positive
    const float neg = c.k.attr_int("detect_negative", 1) != 0 ? 1.0f : 0.0f;
    const float pos = c.k.attr_int("detect_positive", 1) != 0 ? 1.0f : 0.0f;
    if (c.k.in.size() != 1) c.k.invalid(ErrorId::Arity, "takes one input");
    return unary_launch(c, Unary::IsInf, neg, pos);
  };
  // The ONNX-only activations with the defaults and formulas of cpu_ref/src/kernels/activation.cc.
  t["Selu"] = unary(Unary::Selu, "alpha", 1.67326319217681884765625, "gamma", 1.05070102214813232421875);
  t["Celu"] = [](const OpContext& c) {
    if (c.k.attr_float("alpha", 1.0) == 0) c.k.invalid(ErrorId::AttributeValue, "alpha 0 (Celu divides by alpha)");
    return unary(Unary::Celu, "alpha", 1.0)(c);
  };
  t["HardSigmoid"] = unary(Unary::HardSigmoid, "alpha", 0.2, "beta", 0.5);
  t["ThresholdedRelu"] = unary(Unary::ThresholdedRelu, "alpha", 1.0);
  t["Shrink"] = unary(Unary::Shrink, "bias", 0.0, "lambd", 0.5);
  t["Softsign"] = unary(Unary::Softsign);
  t["Gelu"] = [](const OpContext& c) {
    return unary(c.k.attr_string("approximate", "none") == "tanh" ? Unary::GeluTanh : Unary::GeluErf)(c);
  };
  t["Add"] = binary(Binary::Add);
  t["Sub"] = binary(Binary::Sub);
  t["Mul"] = binary(Binary::Mul);
  t["Div"] = div();
  t["Max"] = variadic(Binary::Max, false);
  t["Min"] = variadic(Binary::Min, false);
  t["Pow"] = binary(Binary::Pow);
  t["SquaredDifference"] = binary(Binary::SquaredDifference);
  t["Equal"] = binary(Binary::Equal);
  t["NotEqual"] = binary(Binary::NotEqual);
  t["Greater"] = binary(Binary::Greater);
  t["GreaterOrEqual"] = binary(Binary::GreaterOrEqual);
  t["Less"] = binary(Binary::Less);
  t["LessOrEqual"] = binary(Binary::LessOrEqual);
  t["And"] = binary(Binary::And);
  t["Or"] = binary(Binary::Or);
  t["PRelu"] = binary(Binary::PRelu);
  t["Xor"] = binary(Binary::Xor);
  t["Mod"] = mod;
  t["Sum"] = variadic(Binary::Add, false);
  t["Mean"] = variadic(Binary::Add, true);
  t["Where"] = where;
  t["BitShift"] = bit_shift;
  // PyTorch aten.add.Tensor / aten.sub.Tensor with alpha != 1 (ExecuTorch VkGraph, kept native with
  // the alpha attribute): self + alpha * other, self - alpha * other, broadcast as Add / Sub.
  t["vk.aten.add.Tensor"] = binary(Binary::AddScaled, "alpha");
  t["vk.aten.sub.Tensor"] = binary(Binary::SubScaled, "alpha");
  for (const char* op : {"Identity", "Reshape", "Flatten"}) t[op] = copy_launch;
  // Squeeze-13 / Unsqueeze-13: the output shape (from axes, input 1) is resolved; the elements stay.
  for (const char* op : {"Squeeze", "Unsqueeze"})
    t[op] = [](const OpContext& c) {
      if (c.k.has_input(1)) c.k.value(1, "axes");
      return copy_launch(c);
    };
  t["Transpose"] = transpose;
  t["Concat"] = concat;
}

const OpTable& ops() {
  static const OpTable table = [] {
    OpTable t;
    add_elementwise_ops(t);
    add_nn_ops(t);
    add_convert_ops(t);
    add_data_ops(t);
    add_rnn_ops(t);
    add_qlinear_ops(t);
    add_executorch_ops(t);
    add_lstm_ops(t);
    add_qlstm_ops(t);
    add_detection_ops(t);
    return t;
  }();
  return table;
}

}  // namespace nnbridge::gpu
