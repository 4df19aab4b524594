// Elementwise and data-movement ops of the opencl backend (kernels/elementwise.cl).
#include <climits>
#include <cmath>
#include <string>
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
  Sqrt, Rsqrt, Exp, Log, Reciprocal, Square, Sin, Ceil, Floor, Sign, Round, Not
};
enum class Binary : int {
  Add, Sub, Mul, Div, Max, Min, Pow, SquaredDifference, Equal, NotEqual, Greater, GreaterOrEqual, Less, LessOrEqual,
  And, Or, PRelu
};

OpFactory unary(Unary op, const char* a_name = nullptr, double a_default = 0, const char* b_name = nullptr,
                double b_default = 0) {
  return [=](const OpContext& c) -> Launch {
    if (c.k.in.size() != 1) c.k.unsupported("takes one input (min/max as inputs are not implemented)");
    const int64_t n = numel(c.k.out[0].shape);
    if (numel(c.k.in[0].shape) != n) c.k.invalid("output size differs from the input's");
    c.to_int(n);
    const float a = a_name ? static_cast<float>(c.k.attr_float(a_name, a_default)) : 0.0f;
    const float b = b_name ? static_cast<float>(c.k.attr_float(b_name, b_default)) : 0.0f;
    cl::Kernel k = c.kernel("elementwise.cl", "unary_op");
    return [k, op, a, b, n](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
      k.setArg(0, in[0]);
      k.setArg(1, out[0]);
      k.setArg(2, static_cast<int>(op));
      k.setArg(3, a);
      k.setArg(4, b);
      enqueue(dev, k, n);
    };
  };
}

OpFactory binary(Binary op) {
  return [=](const OpContext& c) -> Launch {
    if (c.k.in.size() != 2) c.k.invalid("takes two inputs");
    const Shape& os = c.k.out[0].shape;
    const Shape sa = exec::broadcast_strides(c.k.in[0].shape, os), sb = exec::broadcast_strides(c.k.in[1].shape, os);
    std::vector<int> meta;
    for (int64_t d : os) meta.push_back(c.to_int(d));
    for (int64_t d : sa) meta.push_back(c.to_int(d));
    for (int64_t d : sb) meta.push_back(c.to_int(d));
    const int64_t n = c.to_int(numel(os));
    const int rank = static_cast<int>(os.size());
    cl::Buffer mb = c.ints(meta);
    cl::Kernel k = c.kernel("elementwise.cl", "binary_op");
    return [k, mb, op, rank, n](const Device& dev, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
      k.setArg(0, in[0]);
      k.setArg(1, in[1]);
      k.setArg(2, out[0]);
      k.setArg(3, static_cast<int>(op));
      k.setArg(4, rank);
      k.setArg(5, mb);
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
          throw Error(ErrorCode::Invalid, label + ": integer division by zero at output element " + std::to_string(i) +
                                              " (undefined in ONNX; nnbridge refuses rather than saturate)");
        if (q[i] < lo || q[i] > hi)
          throw Error(ErrorCode::Invalid, label + ": the quotient at output element " + std::to_string(i) +
                                              " does not fit the output type (e.g. INT_MIN / -1)");
      }
    };
  };
}

// Ops that keep the bytes and change only the shape: a device copy of input 0.
Launch copy_launch(const OpContext& c) {
  const int64_t n = numel(c.k.out[0].shape);
  if (numel(c.k.in[0].shape) != n) c.k.invalid("output size differs from the input's");
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
  if (static_cast<int64_t>(perm.size()) != r) c.k.invalid("perm has " + std::to_string(perm.size()) + " entries for rank " + std::to_string(r));
  const Shape xs = strides_of(is);
  std::vector<int> meta;
  for (int64_t d = 0; d < r; ++d) meta.push_back(c.to_int(is[normalize_axis(perm[d], r)]));
  for (int64_t d = 0; d < r; ++d) meta.push_back(c.to_int(xs[normalize_axis(perm[d], r)]));
  const int64_t n = c.to_int(numel(is));
  if (numel(c.k.out[0].shape) != n) c.k.invalid("output size differs from the input's");
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
    if (static_cast<int64_t>(t.shape.size()) != r) c.k.invalid("inputs differ in rank");
    const int64_t block = t.shape[axis] * inner;
    parts.push_back({c.to_int(block), c.to_int(offset), c.to_int(outer * block)});
    offset += block;
  }
  if (offset != os[axis] * inner) c.k.invalid("the inputs' sizes along the axis do not add up to the output's");
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
  t["Clip"] = unary(Unary::Clip, "min", -INFINITY, "max", INFINITY);
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
  t["Gelu"] = [](const OpContext& c) {
    return unary(c.k.attr_string("approximate", "none") == "tanh" ? Unary::GeluTanh : Unary::GeluErf)(c);
  };
  t["Add"] = binary(Binary::Add);
  t["Sub"] = binary(Binary::Sub);
  t["Mul"] = binary(Binary::Mul);
  t["Div"] = div();
  t["Max"] = binary(Binary::Max);
  t["Min"] = binary(Binary::Min);
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
  for (const char* op : {"Identity", "Reshape", "Flatten", "Squeeze", "Unsqueeze"}) t[op] = copy_launch;
  t["Transpose"] = transpose;
  t["Concat"] = concat;
}

const OpTable& ops() {
  static const OpTable table = [] {
    OpTable t;
    add_elementwise_ops(t);
    add_nn_ops(t);
    add_data_ops(t);
    return t;
  }();
  return table;
}

}  // namespace nnbridge::gpu
