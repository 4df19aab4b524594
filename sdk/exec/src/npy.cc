// NumPy .npy reading and writing. The layout follows numpy/lib/format.py: magic "\x93NUMPY",
// major and minor version bytes, a little-endian header length (uint16 in 1.0, uint32 in
// 2.0 and 3.0), then a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': (...)}
// padded with spaces and ended by '\n', then the raw data.
#include "nnbridge/npy.h"

#include <unistd.h>

#include <cstring>
#include <fstream>

#include "nnbridge/error.h"
#include "nnbridge/format.h"

namespace nnbridge {

namespace {

constexpr char kMagic[] = "\x93NUMPY";

struct DescrMap {
  const char* descr;
  DataType dtype;
};
constexpr DescrMap kDescrs[] = {
    {"f2", DataType::Float16}, {"f4", DataType::Float32}, {"f8", DataType::Float64}, {"i1", DataType::Int8},
    {"i2", DataType::Int16},   {"i4", DataType::Int32},   {"i8", DataType::Int64},   {"u1", DataType::UInt8},
    {"u2", DataType::UInt16},  {"u4", DataType::UInt32},  {"u8", DataType::UInt64},  {"b1", DataType::Bool},
};

[[noreturn]] void malformed(ErrorId id, const std::string& file, const std::string& where, const std::string& msg) {
  throw Error(id, msg, file, where);
}

// A tiny reader of the header's Python literal: only what numpy writes.
struct HeaderParser {
  std::string_view s;
  std::size_t i = 0;
  const std::string& file;

  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  bool eat(char c) {
    ws();
    if (i < s.size() && s[i] == c) {
      ++i;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c)) malformed(ErrorId::Syntax, file, "header", std::string("expected '") + c + "' at offset " + std::to_string(i));
  }
  std::string str() {
    ws();
    if (i >= s.size() || (s[i] != '\'' && s[i] != '"')) malformed(ErrorId::Syntax, file, "header", "expected a string at offset " + std::to_string(i));
    char q = s[i++];
    std::size_t start = i;
    while (i < s.size() && s[i] != q) ++i;
    if (i >= s.size()) malformed(ErrorId::Syntax, file, "header", "unterminated string");
    return std::string(s.substr(start, i++ - start));
  }
  bool boolean() {
    ws();
    if (s.substr(i, 4) == "True") return i += 4, true;
    if (s.substr(i, 5) == "False") return i += 5, false;
    malformed(ErrorId::Syntax, file, "header", "expected True or False at offset " + std::to_string(i));
  }
  std::vector<int64_t> shape() {
    expect('(');
    std::vector<int64_t> dims;
    while (!eat(')')) {
      ws();
      std::size_t start = i;
      int64_t v = 0;
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') {
        const int digit = s[i] - '0';
        // Exactly the values that overflow int64 (encode_npy writes any int64 dim, INT64_MAX too)
        if (v > (INT64_MAX - digit) / 10) malformed(ErrorId::BadEncoding, file, "header.shape", "dimension too large");
        v = v * 10 + digit;
        ++i;
      }
      if (i < s.size() && s[i] == 'L') ++i;  // Python 2 longs
      if (i == start) malformed(ErrorId::Syntax, file, "header.shape", "expected a non-negative integer at offset " + std::to_string(i));
      dims.push_back(v);
      if (!eat(',')) {
        expect(')');
        break;
      }
    }
    return dims;
  }
};

}  // namespace

HostTensor parse_npy(std::span<const std::byte> bytes, const std::string& file, std::shared_ptr<const void> owner) {
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  if (bytes.size() < 10 || std::memcmp(p, kMagic, 6) != 0) malformed(ErrorId::BadIdentifier, file, "magic", "not a NumPy .npy file");
  const unsigned major = p[6];
  if (major < 1 || major > 3)
    throw Error(ErrorId::Version, ".npy format version " + std::to_string(major) + " is not supported", file, "version");
  std::size_t header_len, offset;
  if (major == 1) {
    header_len = p[8] | (p[9] << 8);
    offset = 10;
  } else {
    if (bytes.size() < 12) malformed(ErrorId::Truncated, file, "header", "truncated header length");
    header_len = p[8] | (p[9] << 8) | (p[10] << 16) | (static_cast<std::size_t>(p[11]) << 24);
    offset = 12;
  }
  if (header_len > bytes.size() - offset) malformed(ErrorId::Truncated, file, "header", "header length " + std::to_string(header_len) + " runs past the end of the file");
  std::string_view header(reinterpret_cast<const char*>(p + offset), header_len);
  const std::size_t data_offset = offset + header_len;

  HeaderParser hp{header, 0, file};
  std::optional<std::string> descr;
  std::optional<bool> fortran;
  std::optional<std::vector<int64_t>> shape;
  hp.expect('{');
  while (!hp.eat('}')) {
    std::string key = hp.str();
    hp.expect(':');
    if (key == "descr") descr = hp.str();
    else if (key == "fortran_order") fortran = hp.boolean();
    else if (key == "shape") shape = hp.shape();
    else malformed(ErrorId::Syntax, file, "header", "unknown key '" + key + "'");
    if (!hp.eat(',')) {
      hp.expect('}');
      break;
    }
  }
  if (!descr || !fortran || !shape) malformed(ErrorId::Syntax, file, "header", "needs the keys 'descr', 'fortran_order' and 'shape'");
  if (*fortran) throw Error(ErrorId::Feature, "Fortran-order arrays are not supported", file, "header.fortran_order");
  const std::string& d = *descr;
  if (d.size() != 3 || (d[0] != '<' && d[0] != '|' && d[0] != '='))
    throw Error(ErrorId::DataType, "dtype '" + d + "' is not supported (little-endian numeric or bool only)", file, "header.descr");
  DataType dtype = DataType::Undefined;
  for (const auto& m : kDescrs)
    if (d.substr(1) == m.descr) dtype = m.dtype;
  if (dtype == DataType::Undefined)
    throw Error(ErrorId::DataType, "dtype '" + d + "' is not supported", file, "header.descr");
  if (element_size(dtype) > 1 && d[0] == '|') malformed(ErrorId::BadEncoding, file, "header.descr", "dtype '" + d + "' has no byte order");

  TensorType type{dtype, *shape, false, std::nullopt};
  auto size = type.byte_size();
  if (!size) malformed(ErrorId::BadEncoding, file, "header.shape", "the element count overflows");
  if (static_cast<uint64_t>(*size) > bytes.size() - data_offset)
    malformed(ErrorId::Truncated, file, "data", "needs " + std::to_string(*size) + " bytes, the file has " + std::to_string(bytes.size() - data_offset));
  if (static_cast<uint64_t>(*size) < bytes.size() - data_offset)
    malformed(ErrorId::MalformedOther, file, "data", "has " + std::to_string(bytes.size() - data_offset - *size) + " bytes after the array");
  auto data = bytes.subspan(data_offset, static_cast<std::size_t>(*size));
  if (!owner) return HostTensor::owned(std::move(type), std::vector<std::byte>(data.begin(), data.end()));
  return HostTensor::view(std::move(type), data, std::move(owner));
}

HostTensor read_npy(const std::filesystem::path& path) {
  auto file = MappedFile::open(path);
  return parse_npy(file->bytes(), path.string(), file);
}

std::vector<std::byte> encode_npy(const HostTensor& t) {
  const DataType st = storage_type(t.dtype());
  const char* code = nullptr;
  for (const auto& m : kDescrs)
    if (m.dtype == st) code = m.descr;
  if (!code) throw Error(ErrorId::DataType, "dtype " + std::string(to_string(t.dtype())) + " has no .npy equivalent");
  std::string header = std::string("{'descr': '") + (element_size(st) == 1 ? '|' : '<') + code +
                       "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < t.shape().size(); ++i) {
    header += std::to_string(t.shape()[i]);
    if (t.shape().size() == 1 || i + 1 < t.shape().size()) header += ",";
    if (i + 1 < t.shape().size()) header += " ";
  }
  header += "), }";
  // Pad with spaces so that the data starts on a 64-byte boundary, '\n' last.
  const bool v1 = header.size() + 1 + 10 <= 65535 + 10;
  const std::size_t prefix = v1 ? 10 : 12;
  std::size_t total = prefix + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<std::byte> out(prefix + header.size() + t.bytes().size());
  auto* o = reinterpret_cast<unsigned char*>(out.data());
  std::memcpy(o, kMagic, 6);
  o[6] = v1 ? 1 : 2;
  o[7] = 0;
  const std::size_t hl = header.size();
  o[8] = hl & 0xff;
  o[9] = (hl >> 8) & 0xff;
  if (!v1) {
    o[10] = (hl >> 16) & 0xff;
    o[11] = (hl >> 24) & 0xff;
  }
  std::memcpy(o + prefix, header.data(), hl);
  if (!t.bytes().empty()) std::memcpy(o + prefix + hl, t.bytes().data(), t.bytes().size());
  return out;
}

void write_npy(const std::filesystem::path& path, const HostTensor& t) {
  const std::vector<std::byte> bytes = encode_npy(t);
  write_file_atomic(path, bytes);
}

}  // namespace nnbridge
