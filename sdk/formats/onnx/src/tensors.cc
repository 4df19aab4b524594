// TensorProto <-> typed constants, and the element types.
//
// Storage rules from onnx/onnx.proto (IR version 8): raw_data holds fixed-width little-endian
// elements (bool one byte each); otherwise float_data (FLOAT), int32_data (INT32, INT16, INT8,
// UINT8, BOOL, and the bits of FLOAT16 / BFLOAT16), int64_data (INT64), double_data (DOUBLE).
// External data (data_location EXTERNAL): `location` relative to the model's folder, `offset`
// and `length` in bytes.
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <utility>

#include "internal.h"
#include "nnbridge/error.h"

namespace nnbridge::formats::onnx {

namespace {

using ::onnx::TensorProto;

[[noreturn]] void fail(ErrorId id, const std::string& where, const std::string& msg) { throw Error(id, msg, {}, where); }

// Data of the wrong size: too few bytes is a truncation, too many is some other damage.
ErrorId size_id(uint64_t have, uint64_t need) { return have < need ? ErrorId::Truncated : ErrorId::MalformedOther; }

float half_to_float(uint16_t h) {
  const uint32_t sign = uint32_t(h & 0x8000) << 16;
  const uint32_t exp = (h >> 10) & 0x1F, man = h & 0x3FF;
  if (exp == 0) {  // zero or subnormal: man * 2^-24
    float f = std::ldexp(float(man), -24);
    return sign ? -f : f;
  }
  uint32_t bits = exp == 0x1F ? sign | 0x7F800000u | (man << 13) : sign | ((exp + 112) << 23) | (man << 13);
  return std::bit_cast<float>(bits);
}

uint16_t float_to_half(float f) {
  const uint32_t x = std::bit_cast<uint32_t>(f);
  const uint16_t sign = uint16_t((x >> 16) & 0x8000);
  const uint32_t ax = x & 0x7FFFFFFFu;
  if (ax >= 0x7F800000u) return uint16_t(sign | 0x7C00 | (ax > 0x7F800000u ? 0x200 : 0));
  if (ax >= 0x477FF000u) return uint16_t(sign | 0x7C00);  // rounds past the largest half: inf
  if (ax < 0x38800000u) {                                 // below the smallest normal half
    float m = std::bit_cast<float>(ax) * 16777216.0f;     // in units of 2^-24, exact in float
    return uint16_t(sign | uint16_t(std::nearbyint(m)));
  }
  uint32_t r = ax + 0x0FFF + ((ax >> 13) & 1);  // round to nearest even at bit 13
  return uint16_t(sign | ((r - 0x38000000u) >> 13));
}

std::size_t checked_count(const TensorProto& t, const std::string& where) {
  uint64_t n = 1;
  for (int i = 0; i < t.dims_size(); ++i) {
    const int64_t d = t.dims(i);
    if (d < 0) fail(ErrorId::BadEncoding, where + ".dims[" + std::to_string(i) + "]", "is negative (" + std::to_string(d) + ")");
    if (d > 0 && n > (uint64_t{1} << 62) / uint64_t(d))
      fail(ErrorId::BadEncoding, where + ".dims", "the element count overflows");
    n *= uint64_t(d);
  }
  return std::size_t(n);
}

template <class Dst, class Field>
std::vector<std::byte> copy_field(const Field& field, const std::string& where, const char* name) {
  std::vector<std::byte> out(std::size_t(field.size()) * sizeof(Dst));
  for (int i = 0; i < field.size(); ++i) {
    const auto v = field.Get(i);
    Dst d;
    if constexpr (std::is_integral_v<Dst> && std::is_integral_v<decltype(v)>) {
      if (!std::in_range<Dst>(v))
        fail(ErrorId::BadEncoding, where + "." + name + "[" + std::to_string(i) + "]",
             std::to_string(v) + " does not fit the tensor's type");
    }
    d = static_cast<Dst>(v);
    std::memcpy(out.data() + std::size_t(i) * sizeof(Dst), &d, sizeof(Dst));
  }
  return out;
}

// The typed field a dtype's elements live in, and its count.
const char* typed_field(DataType dt) {
  switch (dt) {
    case DataType::Float32: return "float_data";
    case DataType::Float64: return "double_data";
    case DataType::Int64: return "int64_data";
    case DataType::UInt32: case DataType::UInt64: return "uint64_data";  // onnx.proto: UINT32 and UINT64
    default: return "int32_data";
  }
}

int typed_size(const TensorProto& t, DataType dt) {
  switch (dt) {
    case DataType::Float32: return t.float_data_size();
    case DataType::Float64: return t.double_data_size();
    case DataType::Int64: return t.int64_data_size();
    case DataType::UInt32: case DataType::UInt64: return t.uint64_data_size();
    default: return t.int32_data_size();
  }
}

bool any_typed(const TensorProto& t) {
  return t.float_data_size() || t.int32_data_size() || t.string_data_size() || t.int64_data_size() ||
         t.double_data_size() || t.uint64_data_size();
}

// A relative location that stays inside `folder` (symbolic links resolved), or an error.
std::filesystem::path resolve_location(const std::string& location, const ExternalData& ext, const std::string& where) {
  namespace fs = std::filesystem;
  if (ext.folder.empty())
    fail(ErrorId::Feature, where, "external data (\"" + location + "\") needs the model's folder: load the model from its file");
  const fs::path rel(location);
  if (location.empty()) fail(ErrorId::BadEncoding, where, "external data has an empty location");
  if (rel.is_absolute() || location.find('\0') != std::string::npos)
    fail(ErrorId::AttributeValue, where, "external data location \"" + location + "\" is absolute: only paths inside the model's folder are read");
  for (const auto& part : rel)
    if (part == "..")
      fail(ErrorId::AttributeValue, where, "external data location \"" + location + "\" leaves the model's folder");
  std::error_code ec;
  const fs::path base = fs::weakly_canonical(ext.folder, ec);
  const fs::path full = fs::weakly_canonical(ext.folder / rel, ec);
  if (ec) fail(ErrorId::IoOpen, where, "cannot resolve external data location \"" + location + "\": " + ec.message());
  auto b = base.begin(), f = full.begin();
  for (; b != base.end(); ++b, ++f)
    if (f == full.end() || *b != *f)
      fail(ErrorId::AttributeValue, where, "external data location \"" + location + "\" resolves outside the model's folder");
  return full;
}

uint64_t parse_u64(const std::string& text, const std::string& where, const std::string& key) {
  uint64_t v = 0;
  if (text.empty() || text.size() > 19) fail(ErrorId::BadEncoding, where, "external data " + key + " \"" + text + "\" is not a byte count");
  for (char c : text) {
    if (c < '0' || c > '9') fail(ErrorId::BadEncoding, where, "external data " + key + " \"" + text + "\" is not a byte count");
    v = v * 10 + uint64_t(c - '0');
  }
  return v;
}

Buffer external(const TensorProto& t, std::size_t bytes, const ExternalData& ext, const std::string& where, AttrMap& attrs) {
  std::string location;
  std::optional<uint64_t> offset, length;
  std::vector<std::string> keys, values;
  for (int i = 0; i < t.external_data_size(); ++i) {
    const auto& e = t.external_data(i);
    keys.push_back(e.key());
    values.push_back(e.value());
    const std::string at = where + ".external_data[" + std::to_string(i) + "]";
    if (e.key() == "location") location = e.value();
    else if (e.key() == "offset") offset = parse_u64(e.value(), at, "offset");
    else if (e.key() == "length") length = parse_u64(e.value(), at, "length");
  }
  attrs[keys::kExternalKeys] = Attr(keys);
  attrs[keys::kExternalValues] = Attr(values);
  if (location.empty()) fail(ErrorId::BadEncoding, where + ".external_data", "has no location");
  if (t.has_raw_data() || any_typed(t)) fail(ErrorId::MalformedOther, where, "external data with data in the file as well");
  const auto path = resolve_location(location, ext, where + ".external_data");
  std::shared_ptr<const MappedFile> file;
  try {
    file = MappedFile::open(path);
  } catch (const Error& e) {
    fail(e.id(), where + ".external_data", "cannot read external data file \"" + location + "\": " + e.message());
  }
  const uint64_t size = file->bytes().size();
  const uint64_t off = offset.value_or(0);
  if (off > size)
    fail(ErrorId::Truncated, where + ".external_data",
         "offset " + std::to_string(off) + " is past the end of \"" + location + "\" (" + std::to_string(size) + " bytes)");
  const uint64_t len = length.value_or(size - off);
  if (len > size - off)
    fail(ErrorId::Truncated, where + ".external_data",
         "offset " + std::to_string(off) + " + length " + std::to_string(len) + " is past the end of \"" + location + "\" (" +
             std::to_string(size) + " bytes)");
  if (len != bytes)
    fail(size_id(len, bytes), where + ".external_data",
         "holds " + std::to_string(len) + " bytes, the dims and data_type need " + std::to_string(bytes));
  return Buffer::view(file, file->bytes().subspan(std::size_t(off), std::size_t(len)));
}

}  // namespace

std::optional<DataType> dtype_from_onnx(int32_t e) {
  switch (e) {
    case TensorProto::UNDEFINED: return DataType::Undefined;
    case TensorProto::FLOAT: return DataType::Float32;
    case TensorProto::UINT8: return DataType::UInt8;
    case TensorProto::INT8: return DataType::Int8;
    case TensorProto::INT16: return DataType::Int16;
    case TensorProto::INT32: return DataType::Int32;
    case TensorProto::INT64: return DataType::Int64;
    case TensorProto::BOOL: return DataType::Bool;
    case TensorProto::FLOAT16: return DataType::Float16;
    case TensorProto::DOUBLE: return DataType::Float64;
    case TensorProto::BFLOAT16: return DataType::BFloat16;
    case TensorProto::UINT16: return DataType::UInt16;
    case TensorProto::UINT32: return DataType::UInt32;
    case TensorProto::UINT64: return DataType::UInt64;
    default: return std::nullopt;
  }
}

std::optional<int32_t> dtype_to_onnx(DataType t) {
  switch (t) {
    case DataType::Undefined: return TensorProto::UNDEFINED;
    case DataType::Float32: return TensorProto::FLOAT;
    case DataType::Float16: return TensorProto::FLOAT16;
    case DataType::BFloat16: return TensorProto::BFLOAT16;
    case DataType::Float64: return TensorProto::DOUBLE;
    case DataType::Int8: return TensorProto::INT8;
    case DataType::Int16: return TensorProto::INT16;
    case DataType::Int32: return TensorProto::INT32;
    case DataType::Int64: return TensorProto::INT64;
    case DataType::UInt8: return TensorProto::UINT8;
    case DataType::Bool: return TensorProto::BOOL;
    case DataType::UInt16: return TensorProto::UINT16;
    case DataType::UInt32: return TensorProto::UINT32;
    case DataType::UInt64: return TensorProto::UINT64;
    default: return std::nullopt;
  }
}

std::string onnx_type_name(int32_t e) {
  return TensorProto::DataType_IsValid(e) ? TensorProto::DataType_Name(TensorProto::DataType(e)) : std::to_string(e);
}

DecodedTensor decode_tensor(const TensorProto& t, const std::shared_ptr<const void>& owner, const ExternalData& ext,
                            const std::string& where, std::optional<std::span<const std::byte>> raw_data) {
  DecodedTensor out;
  auto dt = dtype_from_onnx(t.data_type());
  if (t.data_type() == TensorProto::STRING)
    fail(ErrorId::DataType, where + ".data_type", "string tensors have no nnbridge dtype");
  if (!dt || *dt == DataType::Undefined)
    fail(ErrorId::DataType, where + ".data_type", "data_type " + onnx_type_name(t.data_type()) + " has no nnbridge dtype");
  if (t.has_segment()) fail(ErrorId::Feature, where + ".segment", "segmented tensors are not supported");
  out.type.dtype = *dt;
  for (int i = 0; i < t.dims_size(); ++i) out.type.shape.push_back(t.dims(i));
  const std::size_t count = checked_count(t, where);
  const std::size_t esize = element_size(*dt);
  if (count > (std::size_t(1) << 62) / esize) fail(ErrorId::BadEncoding, where + ".dims", "the byte size overflows");
  const std::size_t bytes = count * esize;
  if (t.has_doc_string()) out.attrs[keys::kTensorDocString] = Attr(t.doc_string());
  if (t.data_location() == TensorProto::EXTERNAL) {
    out.data = external(t, bytes, ext, where, out.attrs);
    return out;
  }
  if (t.has_data_location()) out.attrs[keys::kLocationSet] = Attr(true);
  if (t.external_data_size()) fail(ErrorId::MalformedOther, where + ".external_data", "set, but data_location is not EXTERNAL");
  if (t.has_raw_data()) {
    if (any_typed(t)) fail(ErrorId::MalformedOther, where, "has both raw_data and a typed data field");
    const std::span<const std::byte> raw = raw_data ? *raw_data : std::as_bytes(std::span(t.raw_data().data(), t.raw_data().size()));
    if (raw.size() != bytes)
      fail(size_id(raw.size(), bytes), where + ".raw_data",
           "holds " + std::to_string(raw.size()) + " bytes, the dims and data_type need " + std::to_string(bytes));
    out.data = Buffer::view(owner, raw);
    return out;
  }
  const char* field = typed_field(*dt);
  if (!any_typed(t)) {
    if (count != 0) fail(ErrorId::Truncated, where, "has no data (" + std::to_string(count) + " elements expected)");
    out.attrs[keys::kStorage] = Attr("none");
    return out;
  }
  if (std::size_t(typed_size(t, *dt)) != count || (t.float_data_size() && *dt != DataType::Float32) ||
      t.string_data_size() || (t.uint64_data_size() && *dt != DataType::UInt32 && *dt != DataType::UInt64) || (t.double_data_size() && *dt != DataType::Float64) ||
      (t.int64_data_size() && *dt != DataType::Int64))
    fail(std::size_t(typed_size(t, *dt)) < count ? ErrorId::Truncated : ErrorId::MalformedOther, where + "." + field,
         "must hold the " + std::to_string(count) + " elements of a " + onnx_type_name(t.data_type()) + " tensor");
  std::vector<std::byte> data;
  switch (*dt) {
    case DataType::Float32: data = copy_field<float>(t.float_data(), where, field); break;
    case DataType::Float64: data = copy_field<double>(t.double_data(), where, field); break;
    case DataType::Int64: data = copy_field<int64_t>(t.int64_data(), where, field); break;
    case DataType::Int32: data = copy_field<int32_t>(t.int32_data(), where, field); break;
    case DataType::Int16: data = copy_field<int16_t>(t.int32_data(), where, field); break;
    case DataType::Int8: data = copy_field<int8_t>(t.int32_data(), where, field); break;
    case DataType::UInt8:
    case DataType::Bool: data = copy_field<uint8_t>(t.int32_data(), where, field); break;
    case DataType::UInt32: data = copy_field<uint32_t>(t.uint64_data(), where, field); break;
    case DataType::UInt64: data = copy_field<uint64_t>(t.uint64_data(), where, field); break;
    default: data = copy_field<uint16_t>(t.int32_data(), where, field); break;  // FLOAT16, BFLOAT16 bits
  }
  out.attrs[keys::kStorage] = Attr(field);
  out.data = Buffer::owned(std::move(data));
  return out;
}

namespace {

template <class T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

std::optional<double> element(const Value& v, std::size_t i) {
  const std::byte* p = v.constant->data() + i * element_size(v.type.dtype);
  switch (v.type.dtype) {
    case DataType::Float32: return load<float>(p);
    case DataType::Float64: return load<double>(p);
    case DataType::Float16: return half_to_float(load<uint16_t>(p));
    case DataType::BFloat16: return std::bit_cast<float>(uint32_t(load<uint16_t>(p)) << 16);
    case DataType::Int8: return load<int8_t>(p);
    case DataType::Int16: return load<int16_t>(p);
    case DataType::Int32: return load<int32_t>(p);
    case DataType::Int64: return double(load<int64_t>(p));
    case DataType::UInt8:
    case DataType::Bool: return load<uint8_t>(p);
    case DataType::UInt16: return load<uint16_t>(p);
    case DataType::UInt32: return load<uint32_t>(p);
    case DataType::UInt64: return double(load<uint64_t>(p));
    default: return std::nullopt;
  }
}

bool readable(const Value& v) {
  if (!v.is_constant() || v.type.unknown_rank || v.type.shape.size() > 1) return false;
  auto n = v.type.byte_size();
  return n && std::size_t(*n) == v.constant->size();
}

}  // namespace

std::optional<std::vector<int64_t>> constant_ints(const Value& v) {
  if (!readable(v) || (v.type.dtype != DataType::Int64 && v.type.dtype != DataType::Int32)) return std::nullopt;
  std::vector<int64_t> out(std::size_t(*v.type.element_count()));
  for (std::size_t i = 0; i < out.size(); ++i)
    out[i] = v.type.dtype == DataType::Int64 ? load<int64_t>(v.constant->data() + 8 * i)
                                             : load<int32_t>(v.constant->data() + 4 * i);
  return out;
}

std::optional<std::vector<double>> constant_floats(const Value& v) {
  if (!readable(v)) return std::nullopt;
  std::vector<double> out(std::size_t(*v.type.element_count()));
  for (std::size_t i = 0; i < out.size(); ++i) {
    auto e = element(v, i);
    if (!e) return std::nullopt;
    out[i] = *e;
  }
  return out;
}

void encode_tensor(const Value& v, TensorProto& t, const std::string& where) {
  auto et = dtype_to_onnx(v.type.dtype);
  if (!et || *et == TensorProto::UNDEFINED)
    fail(ErrorId::DataType, where,
         "constant '" + v.name + "' has dtype " + std::string(to_string(v.type.dtype)) + ", which ONNX has no type for");
  t.set_name(v.name);
  for (int64_t d : v.type.shape) t.add_dims(d);
  t.set_data_type(*et);
  if (auto it = v.attrs.find(keys::kTensorDocString); it != v.attrs.end() && it->second.is<std::string>())
    t.set_doc_string(it->second.get<std::string>());
  if (auto it = v.attrs.find(keys::kLocationSet); it != v.attrs.end()) t.set_data_location(TensorProto::DEFAULT);
  const auto bytes = v.type.byte_size();
  if (!v.constant || v.type.unknown_rank || !bytes || std::size_t(*bytes) != v.constant->size())
    fail(ErrorId::Shape, where,
         "constant '" + v.name + "' has " + std::to_string(v.constant ? v.constant->size() : 0) +
             " bytes of data, its type needs " + (bytes ? std::to_string(*bytes) : std::string("a known shape")));
  std::string storage = "raw_data";
  if (auto it = v.attrs.find(keys::kStorage); it != v.attrs.end() && it->second.is<std::string>())
    storage = it->second.get<std::string>();
  const std::byte* p = v.constant->data();
  const std::size_t n = std::size_t(*v.type.element_count());
  if (storage == "none" && n == 0) return;
  if (storage == typed_field(v.type.dtype)) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::byte* e = p + i * element_size(v.type.dtype);
      switch (v.type.dtype) {
        case DataType::Float32: t.add_float_data(load<float>(e)); break;
        case DataType::Float64: t.add_double_data(load<double>(e)); break;
        case DataType::Int64: t.add_int64_data(load<int64_t>(e)); break;
        case DataType::Int32: t.add_int32_data(load<int32_t>(e)); break;
        case DataType::Int16: t.add_int32_data(load<int16_t>(e)); break;
        case DataType::Int8: t.add_int32_data(load<int8_t>(e)); break;
        case DataType::UInt8:
        case DataType::Bool: t.add_int32_data(load<uint8_t>(e)); break;
        case DataType::UInt32: t.add_uint64_data(load<uint32_t>(e)); break;
        case DataType::UInt64: t.add_uint64_data(load<uint64_t>(e)); break;
        default: t.add_int32_data(load<uint16_t>(e)); break;
      }
    }
    return;
  }
  t.set_raw_data(reinterpret_cast<const char*>(p), v.constant->size());
}

void make_tensor(const std::string& name, int32_t elem_type, const std::vector<double>& values, std::vector<int64_t> dims,
                 TensorProto& t) {
  t.set_name(name);
  for (int64_t d : dims) t.add_dims(d);
  t.set_data_type(elem_type);
  std::string raw;
  auto put = [&](const auto& x) { raw.append(reinterpret_cast<const char*>(&x), sizeof(x)); };
  // Saturating: a double past an integer type's range (or NaN) must not be undefined behaviour.
  auto to = [](double v, auto lo) {
    using T = decltype(lo);
    if (!(v == v)) return T(0);
    if (v <= double(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
    if (v >= double(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
    return T(v);
  };
  for (double v : values) {
    switch (elem_type) {
      case TensorProto::INT64: put(to(v, int64_t{})); break;
      case TensorProto::INT32: put(to(v, int32_t{})); break;
      case TensorProto::INT16: put(to(v, int16_t{})); break;
      case TensorProto::INT8: put(to(v, int8_t{})); break;
      case TensorProto::UINT8: put(to(v, uint8_t{})); break;
      case TensorProto::UINT16: put(to(v, uint16_t{})); break;
      case TensorProto::UINT32: put(to(v, uint32_t{})); break;
      case TensorProto::UINT64: put(to(v, uint64_t{})); break;
      case TensorProto::BOOL: put(uint8_t(v != 0)); break;
      case TensorProto::DOUBLE: put(v); break;
      case TensorProto::FLOAT16: put(float_to_half(float(v))); break;
      case TensorProto::BFLOAT16: put(uint16_t(std::bit_cast<uint32_t>(float(v)) >> 16)); break;
      default: put(float(v)); break;
    }
  }
  t.set_raw_data(raw);
}

void make_int64_tensor(const std::string& name, const std::vector<int64_t>& values, TensorProto& t) {
  t.set_name(name);
  t.add_dims(int64_t(values.size()));
  t.set_data_type(TensorProto::INT64);
  t.set_raw_data(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(int64_t));
}

}  // namespace nnbridge::formats::onnx
