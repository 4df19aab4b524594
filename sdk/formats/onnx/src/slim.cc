// slim_model (slim.h): the protobuf wire format read with protobuf's own CodedInputStream (a
// field is a tag, number << 3 | wire type, then a varint (0), 8 bytes (1), a length and that many
// bytes (2) or 4 bytes (5); groups (3, 4) are not in onnx.proto), written with CodedOutputStream's
// varints.
#include "slim.h"

#include <climits>
#include <cstdint>
#include <unordered_set>

#include <google/protobuf/io/coded_stream.h>

namespace nnbridge::formats::onnx {

namespace {

using google::protobuf::io::CodedInputStream;
using google::protobuf::io::CodedOutputStream;

constexpr uint64_t kGraph = 7;        // ModelProto.graph
constexpr uint64_t kInitializer = 5;  // GraphProto.initializer
constexpr uint64_t kName = 8;         // TensorProto.name
constexpr uint64_t kRawData = 9;      // TensorProto.raw_data
constexpr int kLengthDelimited = 2;

void put_varint(std::string& out, uint64_t v) {
  uint8_t buf[10];
  const uint8_t* end = CodedOutputStream::WriteVarint64ToArray(v, buf);
  out.append(reinterpret_cast<const char*>(buf), std::size_t(end - buf));
}

// One field: [begin, end) all of it, [payload, end) a length-delimited field's bytes.
struct Field {
  uint64_t number = 0;
  int wire = 0;
  const uint8_t *begin = nullptr, *payload = nullptr, *end = nullptr;
};

// The fields of the message [p, end), one at a time.
class Fields {
 public:
  Fields(const uint8_t* p, const uint8_t* end) : base_(p), size_(int(end - p)), in_(p, int(end - p)) {}
  bool done() const { return in_.CurrentPosition() >= size_; }
  bool next(Field& f) {
    f.begin = base_ + in_.CurrentPosition();
    const uint32_t tag = in_.ReadTagNoLastTag();
    if (tag == 0) return false;
    f.number = tag >> 3;
    f.wire = static_cast<int>(tag & 7);
    uint64_t v = 0;
    uint32_t n = 0;
    switch (f.wire) {
      case 0:
        if (!in_.ReadVarint64(&v)) return false;
        break;
      case 1:
        if (!in_.Skip(8)) return false;
        break;
      case 5:
        if (!in_.Skip(4)) return false;
        break;
      case kLengthDelimited:
        if (!in_.ReadVarint32(&n) || n > uint32_t(INT_MAX)) return false;
        f.payload = base_ + in_.CurrentPosition();
        if (!in_.Skip(int(n))) return false;
        break;
      default:
        return false;
    }
    f.end = base_ + in_.CurrentPosition();
    return true;
  }

 private:
  const uint8_t* base_;
  int size_;
  CodedInputStream in_;
};

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
    Fields fields(p, end);
    for (Field f; !fields.done();) {
      if (!fields.next(f)) return false;
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
    Fields fields(p, end);
    for (Field f; !fields.done();) {
      if (!fields.next(f)) return false;
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

std::optional<SlimModel> slim_model(std::span<const std::byte> file, std::size_t threshold) {
  const auto* p = reinterpret_cast<const uint8_t*>(file.data());
  Walk walk(threshold);
  SlimModel slim;
  if (!walk.model(p, p + file.size(), slim.bytes) || walk.raw_data.empty()) return std::nullopt;
  slim.raw_data = std::move(walk.raw_data);
  return slim;
}

}  // namespace nnbridge::formats::onnx
