#include <cmath>
#include <cstring>
#include <limits>

#include "ops/ops.h"

namespace nnbridge::ops {

AttrSpec optional_attr(std::string name, AttrType type, Attr default_value, std::string doc) {
  return AttrSpec{std::move(name), type, false, std::move(default_value), std::move(doc)};
}
AttrSpec optional_attr(std::string name, AttrType type, std::string doc) {
  return AttrSpec{std::move(name), type, false, std::nullopt, std::move(doc)};
}
AttrSpec required_attr(std::string name, AttrType type, std::string doc) {
  return AttrSpec{std::move(name), type, true, std::nullopt, std::move(doc)};
}
AttrSpec data_layout_attr() {
  return optional_attr("data_layout", AttrType::String, Attr("NCHW"),
                       "\"NCHW\" (channels after batch, ONNX) or \"NHWC\" (channels last, TensorFlow/Arm NN); "
                       "named for rank 4, the same rule at any rank (rank 5: NCDHW / NDHWC)");
}

OpSchema make_op(std::string name, int min_in, int max_in, std::vector<AttrSpec> attrs, std::string doc,
                 std::string source, ShapeInferenceFn infer) {
  OpSchema s;
  s.name = std::move(name);
  s.min_inputs = min_in;
  s.max_inputs = max_in;
  s.attrs = std::move(attrs);
  s.doc = std::move(doc);
  s.source = std::move(source);
  s.infer = std::move(infer);
  return s;
}

std::vector<TensorType> same_as_input0(const InferenceContext& ctx) {
  if (ctx.input_types.empty()) fail(ErrorId::Arity, "needs an input");
  TensorType t = ctx.input_types[0];
  t.quantization.reset();
  return {t};
}

void fail(const std::string& message) { throw Error(ErrorId::Shape, message); }
void fail(ErrorId id, const std::string& message) { throw Error(id, message); }

const TensorType& input(const InferenceContext& ctx, std::size_t i) {
  if (i >= ctx.input_types.size())
    fail(ErrorId::Arity, "needs input " + std::to_string(i) + ", has " + std::to_string(ctx.input_types.size()) + " inputs");
  return ctx.input_types[i];
}

TensorType unknown_rank(DataType dtype) {
  TensorType t;
  t.dtype = dtype;
  t.unknown_rank = true;
  return t;
}

bool rank_known(const TensorType& t) { return !t.unknown_rank; }

std::vector<int64_t> broadcast_shapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
  // NumPy rule (ONNX "Broadcasting in ONNX"): align from the right; equal dims or a 1 broadcast.
  std::size_t r = std::max(a.size(), b.size());
  std::vector<int64_t> out(r);
  for (std::size_t i = 0; i < r; ++i) {
    int64_t da = i < r - a.size() ? 1 : a[i - (r - a.size())];
    int64_t db = i < r - b.size() ? 1 : b[i - (r - b.size())];
    if (da == 1) out[i] = db;
    else if (db == 1) out[i] = da;
    else if (da == -1 || db == -1) out[i] = da == -1 ? db : da;  // the unknown one must be 1 or equal
    else if (da == db) out[i] = da;
    else fail("cannot broadcast dim " + std::to_string(da) + " with dim " + std::to_string(db));
  }
  return out;
}

TensorType broadcast_inputs(const InferenceContext& ctx, std::optional<DataType> dtype) {
  TensorType out;
  bool first = true;
  for (std::size_t i = 0; i < ctx.input_types.size(); ++i) {
    if (ctx.node.inputs[i] == kNoValue) continue;
    const TensorType& t = ctx.input_types[i];
    if (first) out.dtype = t.dtype;
    if (t.unknown_rank) out.unknown_rank = true;
    else if (!out.unknown_rank) out.shape = first ? t.shape : broadcast_shapes(out.shape, t.shape);
    first = false;
  }
  if (out.unknown_rank) out.shape.clear();
  if (dtype) out.dtype = *dtype;
  return out;
}

std::optional<std::vector<int64_t>> constant_ints(const InferenceContext& ctx, std::size_t input) {
  if (input >= ctx.input_constants.size() || !ctx.input_constants[input]) return std::nullopt;
  const Buffer& b = *ctx.input_constants[input];
  const TensorType& t = ctx.input_types[input];
  std::size_t es = t.dtype == DataType::Int64 ? 8 : t.dtype == DataType::Int32 ? 4 : 0;
  if (es == 0 || b.size() % es != 0) return std::nullopt;
  std::vector<int64_t> out(b.size() / es);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (es == 8) {
      std::memcpy(&out[i], b.data() + i * 8, 8);
    } else {
      int32_t v;
      std::memcpy(&v, b.data() + i * 4, 4);
      out[i] = v;
    }
  }
  return out;
}

namespace {

// IEEE 754 binary16 -> double (subnormals, infinities and NaN included).
double half_to_double(uint16_t h) {
  const int e = (h >> 10) & 0x1f, m = h & 0x3ff;
  const double sign = (h & 0x8000) ? -1.0 : 1.0;
  if (e == 0) return sign * std::ldexp(m, -24);
  if (e == 31) return m ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
  return sign * std::ldexp(m + 1024, e - 25);
}

template <class T>
double load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return static_cast<double>(v);
}

}  // namespace

std::optional<std::vector<double>> constant_values(const InferenceContext& ctx, std::size_t input) {
  if (input >= ctx.input_constants.size() || !ctx.input_constants[input]) return std::nullopt;
  const Buffer& b = *ctx.input_constants[input];
  const DataType dt = ctx.input_types[input].dtype;
  const std::size_t es = element_size(dt);
  if (es == 0 || is_quantized(dt) || b.size() % es != 0) return std::nullopt;
  std::vector<double> out(b.size() / es);
  const std::byte* p = b.data();
  for (std::size_t i = 0; i < out.size(); ++i, p += es) {
    switch (dt) {
      case DataType::Float32: out[i] = load<float>(p); break;
      case DataType::Float64: out[i] = load<double>(p); break;
      case DataType::Float16: out[i] = half_to_double(static_cast<uint16_t>(load<uint16_t>(p))); break;
      case DataType::BFloat16: {
        const uint32_t bits = static_cast<uint32_t>(load<uint16_t>(p)) << 16;
        float f;
        std::memcpy(&f, &bits, 4);
        out[i] = f;
        break;
      }
      case DataType::Int8: out[i] = load<int8_t>(p); break;
      case DataType::Int16: out[i] = load<int16_t>(p); break;
      case DataType::Int32: out[i] = load<int32_t>(p); break;
      case DataType::Int64: out[i] = load<int64_t>(p); break;
      case DataType::UInt8: out[i] = load<uint8_t>(p); break;
      case DataType::UInt16: out[i] = load<uint16_t>(p); break;
      case DataType::UInt32: out[i] = load<uint32_t>(p); break;
      case DataType::UInt64: out[i] = static_cast<double>(load<uint64_t>(p)); break;
      case DataType::Bool: out[i] = load<uint8_t>(p) != 0 ? 1.0 : 0.0; break;
      default: return std::nullopt;
    }
  }
  return out;
}

std::optional<std::vector<double>> constant_floats(const InferenceContext& ctx, std::size_t input) {
  if (input >= ctx.input_constants.size() || !ctx.input_constants[input]) return std::nullopt;
  const Buffer& b = *ctx.input_constants[input];
  const DataType dt = ctx.input_types[input].dtype;
  const std::size_t es = dt == DataType::Float64 ? 8 : dt == DataType::Float32 ? 4 : 0;
  if (es == 0 || b.size() % es != 0) return std::nullopt;
  std::vector<double> out(b.size() / es);
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (es == 8) {
      std::memcpy(&out[i], b.data() + i * 8, 8);
    } else {
      float v;
      std::memcpy(&v, b.data() + i * 4, 4);
      out[i] = v;
    }
  }
  return out;
}

bool input_given(const InferenceContext& ctx, std::size_t i) {
  return i < ctx.node.inputs.size() && ctx.node.inputs[i] != kNoValue;
}

int64_t length_of(const InferenceContext& ctx, std::size_t i) {
  if (!input_given(ctx, i) || i >= ctx.input_types.size()) return -1;
  const TensorType& t = ctx.input_types[i];
  if (t.unknown_rank) return -1;
  if (t.shape.empty()) return 1;  // a scalar holds one value
  return t.shape.size() == 1 ? t.shape[0] : -1;
}

DataType declared_dtype(const InferenceContext& ctx, std::size_t i, std::initializer_list<DataType> allowed,
                        DataType fallback) {
  if (i < ctx.declared_output_types.size())
    for (DataType d : allowed)
      if (ctx.declared_output_types[i].dtype == d) return d;
  return fallback;
}

bool is_nhwc(const InferenceContext& ctx) {
  const std::string& l = ctx.attr_string("data_layout");
  if (l == "NHWC") return true;
  if (l == "NCHW") return false;
  fail(ErrorId::AttributeValue, "data_layout must be \"NCHW\" or \"NHWC\", not \"" + l + "\"");
}

int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) fail("size arithmetic overflows int64");
  return r;
}

int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) fail("size arithmetic overflows int64");
  return r;
}

int64_t mul_dims(int64_t a, int64_t b) {
  if (a < 0 || b < 0) return -1;
  if (a != 0 && b > std::numeric_limits<int64_t>::max() / a) fail("dimension product overflows int64");
  return a * b;
}

int64_t product(const std::vector<int64_t>& shape, std::size_t from, std::size_t to) {
  int64_t p = 1;
  for (std::size_t i = from; i < to; ++i) p = mul_dims(p, shape[i]);
  return p;
}

void expect_size(const std::vector<int64_t>& v, std::size_t n, const char* what) {
  if (v.size() != n)
    fail(std::string(what) + " has " + std::to_string(v.size()) + " values, expected " + std::to_string(n));
}

}  // namespace nnbridge::ops
