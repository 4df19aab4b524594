// slim_model (slim.h): the protobuf wire format (protobuf's encoding guide: a field is a varint
// tag, number << 3 | wire type, then a varint (0), 8 bytes (1), a varint length and that many
// bytes (2) or 4 bytes (5); groups (3, 4) are not in onnx.proto).
#include "slim.h"

#include <cstdint>
#include <unordered_set>

namespace nnbridge::formats::onnx {

namespace {

constexpr uint64_t kGraph = 7;        // ModelProto.graph
constexpr uint64_t kInitializer = 5;  // GraphProto.initializer
constexpr uint64_t kName = 8;         // TensorProto.name
constexpr uint64_t kRawData = 9;      // TensorProto.raw_data
constexpr int kLengthDelimited = 2;

void put_varint(std::string& out, uint64_t v) {
  for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>(v | 0x80));
  out.push_back(static_cast<char>(v));
}

// One field at p: [begin, end) all of it, [payload, end) a length-delimited field's bytes.
struct Field {
  uint64_t number = 0;
  int wire = 0;
  const uint8_t *begin = nullptr, *payload = nullptr, *end = nullptr;
};

bool next_field(const uint8_t*& p, const uint8_t* end, Field& f) {
  f.begin = p;
  uint64_t tag = 0, n = 0;
  if (!read_varint(p, end, tag) || (tag >> 3) == 0) return false;
  f.number = tag >> 3;
  f.wire = static_cast<int>(tag & 7);
  switch (f.wire) {
    case 0:
      if (!read_varint(p, end, n)) return false;
      break;
    case 1:
      if (end - p < 8) return false;
      p += 8;
      break;
    case 5:
      if (end - p < 4) return false;
      p += 4;
      break;
    case kLengthDelimited:
      if (!read_varint(p, end, n) || n > uint64_t(end - p)) return false;
      f.payload = p;
      p += n;
      break;
    default:
      return false;
  }
  f.end = p;
  return true;
}

void append(std::string& out, const uint8_t* b, const uint8_t* e) { out.append(reinterpret_cast<const char*>(b), std::size_t(e - b)); }

void put_message(std::string& out, uint64_t number, const std::string& payload) {
  put_varint(out, number << 3 | kLengthDelimited);
  put_varint(out, payload.size());
  out += payload;
}

class Walk {
 public:
  explicit Walk(std::size_t threshold) : threshold_(threshold) {}

  bool model(const uint8_t* p, const uint8_t* end, std::string& out) {
    return rewrite(p, end, out, kGraph, [this](const uint8_t* b, const uint8_t* e, std::string& o) { return graph(b, e, o); });
  }

  std::unordered_map<std::string, std::span<const std::byte>> raw_data;

 private:
  bool graph(const uint8_t* p, const uint8_t* end, std::string& out) {
    return rewrite(p, end, out, kInitializer, [this](const uint8_t* b, const uint8_t* e, std::string& o) { return tensor(b, e, o); });
  }

  // The fields of one message copied to `out`, each length-delimited field `number` rewritten by
  // `inner` (protobuf merges a message field given twice: each is rewritten alone).
  template <class Inner>
  static bool rewrite(const uint8_t* p, const uint8_t* end, std::string& out, uint64_t number, Inner inner) {
    for (Field f; p < end;) {
      if (!next_field(p, end, f)) return false;
      if (f.number == number && f.wire == kLengthDelimited) {
        std::string sub;
        if (!inner(f.payload, f.end, sub)) return false;
        put_message(out, number, sub);
      } else {
        append(out, f.begin, f.end);
      }
    }
    return true;
  }

  bool tensor(const uint8_t* p, const uint8_t* end, std::string& out) {
    std::string name;
    std::span<const std::byte> large;  // the last raw_data, when it is over the threshold
    bool has_large = false;
    for (Field f; p < end;) {
      if (!next_field(p, end, f)) return false;
      if (f.number == kRawData && f.wire == kLengthDelimited && std::size_t(f.end - f.payload) > threshold_) {
        put_varint(out, kRawData << 3 | kLengthDelimited);
        put_varint(out, 1);
        out.push_back('\0');
        large = std::as_bytes(std::span(f.payload, f.end));
        has_large = true;
        continue;
      }
      if (f.number == kRawData) has_large = false;  // a later raw_data replaces it
      if (f.number == kName && f.wire == kLengthDelimited) name.assign(reinterpret_cast<const char*>(f.payload), std::size_t(f.end - f.payload));
      append(out, f.begin, f.end);
    }
    // Every initializer's name once: a tensor is found again by its name alone.
    if (!names_.insert(name).second) return false;
    if (has_large) {
      if (name.empty()) return false;
      raw_data.emplace(name, large);
    }
    return true;
  }

  std::size_t threshold_;
  std::unordered_set<std::string> names_;
};

}  // namespace

bool read_varint(const uint8_t*& p, const uint8_t* end, uint64_t& v) {
  v = 0;
  for (int shift = 0; shift < 64 && p < end; shift += 7) {
    const uint8_t b = *p++;
    v |= uint64_t(b & 0x7f) << shift;
    if (!(b & 0x80)) return true;
  }
  return false;
}

std::optional<SlimModel> slim_model(std::span<const std::byte> file, std::size_t threshold) {
  const auto* p = reinterpret_cast<const uint8_t*>(file.data());
  Walk walk(threshold);
  SlimModel slim;
  if (!walk.model(p, p + file.size(), slim.bytes) || walk.raw_data.empty()) return std::nullopt;
  slim.raw_data = std::move(walk.raw_data);
  return slim;
}

}  // namespace nnbridge::formats::onnx
