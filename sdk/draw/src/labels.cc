// Label text of a drawing (labels.h).
#include "labels.h"

#include <charconv>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <vector>

#include "nnbridge/dtype.h"

namespace nnbridge::draw_detail {

namespace {

/// Length of the valid UTF-8 sequence at s[i], or 0 (overlong forms and surrogates refused).
std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto b = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k)
    if ((b(i + k) & 0xC0) != 0x80) return 0;
  if (n == 2 && c < 0xC2) return 0;
  if (n == 3) {
    const unsigned cp = ((c & 0x0Fu) << 12) | ((b(i + 1) & 0x3Fu) << 6) | (b(i + 2) & 0x3Fu);
    if (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  }
  if (n == 4) {
    const unsigned cp = ((c & 0x07u) << 18) | ((b(i + 1) & 0x3Fu) << 12) | ((b(i + 2) & 0x3Fu) << 6) | (b(i + 3) & 0x3Fu);
    if (cp < 0x10000 || cp > 0x10FFFF) return 0;
  }
  return n;
}

std::string number_text(double d) {
  char buf[64];
  // Values held as float32 (Arm NN descriptors, quantization scales) print as float32.
  const float f = static_cast<float>(d);
  auto r = static_cast<double>(f) == d ? std::to_chars(buf, buf + sizeof buf, f) : std::to_chars(buf, buf + sizeof buf, d);
  return std::string(buf, r.ptr);
}

template <class T>
std::string list_text(const std::vector<T>& items) {
  const auto one = [](const T& x) -> std::string {
    if constexpr (std::is_same_v<T, std::string>) return cut_keep_end(x, 16);
    else if constexpr (std::is_same_v<T, bool>) return x ? "true" : "false";
    else if constexpr (std::is_same_v<T, double>) return number_text(x);
    else return std::to_string(x);
  };
  const std::size_t n = items.size();
  const bool cut = n > kMaxListItems;
  std::string s = "[";
  for (std::size_t i = 0; i < n; ++i) {
    if (cut && i == kMaxListItems / 2) {
      s += ", ...";
      i = n - kMaxListItems / 2;
    }
    if (i) s += ", ";
    s += one(items[i]);
  }
  s += "]";
  if (cut) s += " (" + std::to_string(n) + ")";
  return s;
}

/// The `count` elements at `data` (little-endian `T`; `Bool`: bytes, nonzero true) as text.
template <class T, bool kBool = false>
std::string values_of(const std::byte* data, std::size_t count) {
  using Shown = std::conditional_t<kBool, bool, std::conditional_t<std::is_floating_point_v<T>, double, int64_t>>;
  std::vector<Shown> out;
  for (std::size_t i = 0; i < count; ++i) {
    T x;
    std::memcpy(&x, data + i * sizeof(T), sizeof(T));
    if constexpr (kBool) out.push_back(x != 0);
    else out.push_back(static_cast<Shown>(x));
  }
  if constexpr (std::is_floating_point_v<T>) {
    // Four significant digits: a note shows what the constant is, not its exact bits.
    std::string s;
    for (std::size_t i = 0; i < count; ++i) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.4g", out[i]);
      s += (i ? ", " : "") + std::string(buf);
    }
    return count == 1 ? s : "[" + s + "]";
  } else {
    if (count != 1) return list_text(out);
    if constexpr (kBool) return out[0] ? "true" : "false";
    else return std::to_string(out[0]);
  }
}

}  // namespace

std::string clean_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = utf8_length(text, i);
    if (n == 0 || (n == 1 && (static_cast<unsigned char>(text[i]) < 0x20 || text[i] == 0x7F))) {
      out += '?';
      ++i;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

std::string cut_keep_end(std::string_view text, std::size_t max_chars) {
  std::string s = clean_utf8(text);
  std::vector<std::size_t> starts;  // byte offset of each code point
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) starts.push_back(i);
  if (starts.size() <= max_chars || max_chars < 4) return s;
  return "..." + s.substr(starts[starts.size() - (max_chars - 3)]);
}

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string type_text(const TensorType& t) {
  if (t.dtype == DataType::Undefined && t.unknown_rank) return {};
  std::string s = t.dtype == DataType::Undefined ? "?" : std::string(to_string(t.dtype));
  if (t.unknown_rank) {
    s += " [*]";
  } else {
    s += " [";
    for (std::size_t i = 0; i < t.shape.size(); ++i) {
      if (i) s += ", ";
      s += t.shape[i] < 0 ? "?" : std::to_string(t.shape[i]);
    }
    s += "]";
  }
  if (const auto& q = t.quantization) {
    if (q->axis) {
      s += " per-axis " + std::to_string(q->scales.size()) + " scales";
    } else {
      if (q->scales.size() == 1) s += " scale=" + number_text(q->scales[0]);
      if (q->zero_points.size() == 1) s += " zero_point=" + std::to_string(q->zero_points[0]);
    }
  }
  return s;
}

std::string attr_value_text(const Attr& a) {
  switch (a.type()) {
    case AttrType::Int: return std::to_string(a.get<int64_t>());
    case AttrType::Float: return number_text(a.get<double>());
    case AttrType::Bool: return a.get<bool>() ? "true" : "false";
    case AttrType::String: return cut_keep_end(a.get<std::string>());
    case AttrType::Ints: return list_text(a.get<std::vector<int64_t>>());
    case AttrType::Floats: return list_text(a.get<std::vector<double>>());
    case AttrType::Bools: return list_text(a.get<std::vector<bool>>());
    case AttrType::Strings: return cut_keep_end(list_text(a.get<std::vector<std::string>>()), 3 * kMaxTextChars / 2);
    case AttrType::Bytes: return "<" + std::to_string(a.get<Bytes>().data.size()) + " bytes>";
  }
  return {};
}

std::string constant_note(const Value& v, std::string_view consumer) {
  // "conv1.weight" read by node "conv1" shows as "weight": the node's label already names it.
  std::string_view name = v.name;
  if (!consumer.empty() && name.size() > consumer.size() + 1 && name.substr(0, consumer.size()) == consumer &&
      std::string_view(".:/_").find(name[consumer.size()]) != std::string_view::npos)
    name.remove_prefix(consumer.size() + 1);
  std::string s = cut_keep_end(name, 28);
  const std::string type = type_text(v.type);
  if (!type.empty()) s += (s.empty() ? "" : " ") + type;
  if (!v.constant) {
    auto k = v.attrs.find(kExternalDataKey);
    if (k != v.attrs.end() && k->second.is<std::string>())
      return s + " (external data " + cut_keep_end(k->second.get<std::string>(), 24) + ")";
    return s;
  }
  const auto count = v.type.element_count();
  if (!count || *count < 1 || static_cast<std::size_t>(*count) > kMaxValues || v.type.quantization) return s;
  const auto n = static_cast<std::size_t>(*count);
  if (v.constant->size() < n * element_size(v.type.dtype)) return s;
  const std::byte* d = v.constant->data();
  std::string vals;
  switch (v.type.dtype) {
    case DataType::Float32: vals = values_of<float>(d, n); break;
    case DataType::Float64: vals = values_of<double>(d, n); break;
    case DataType::Int8: vals = values_of<int8_t>(d, n); break;
    case DataType::Int16: vals = values_of<int16_t>(d, n); break;
    case DataType::Int32: vals = values_of<int32_t>(d, n); break;
    case DataType::Int64: vals = values_of<int64_t>(d, n); break;
    case DataType::UInt8: vals = values_of<uint8_t>(d, n); break;
    case DataType::UInt16: vals = values_of<uint16_t>(d, n); break;
    case DataType::UInt32: vals = values_of<uint32_t>(d, n); break;
    case DataType::Bool: vals = values_of<uint8_t, true>(d, n); break;
    default: break;  // float16, bfloat16, uint64: the type only
  }
  return vals.empty() ? s : s + " = " + vals;
}

}  // namespace nnbridge::draw_detail
