// Typed attribute values of nodes, values and graphs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace nnbridge {

/// Raw bytes held by an attribute (distinct from a string).
struct Bytes {
  std::vector<uint8_t> data;
  friend bool operator==(const Bytes&, const Bytes&) = default;
};

/// Attribute kinds (the JSON form writes these names).
enum class AttrType { Int, Float, Bool, String, Ints, Floats, Bools, Strings, Bytes };

/// A typed attribute value. Floats are stored as double, which holds every float32 exactly.
using AttrValue = std::variant<int64_t, double, bool, std::string, std::vector<int64_t>,
                               std::vector<double>, std::vector<bool>, std::vector<std::string>, Bytes>;

/// One attribute value. Implicit constructors take each alternative of AttrValue; integer and
/// float32 arguments widen to int64 and double, a C string becomes a std::string.
struct Attr {
  AttrValue value;  ///< the value; its index is the AttrType

  Attr() = default;  ///< the integer 0
  Attr(int64_t v) : value(v) {}
  Attr(int v) : value(int64_t{v}) {}
  Attr(uint32_t v) : value(int64_t{v}) {}
  Attr(double v) : value(v) {}
  Attr(float v) : value(double{v}) {}
  Attr(bool v) : value(v) {}
  Attr(std::string v) : value(std::move(v)) {}
  Attr(const char* v) : value(std::string(v)) {}
  Attr(std::vector<int64_t> v) : value(std::move(v)) {}
  Attr(std::vector<double> v) : value(std::move(v)) {}
  Attr(std::vector<bool> v) : value(std::move(v)) {}
  Attr(std::vector<std::string> v) : value(std::move(v)) {}
  Attr(Bytes v) : value(std::move(v)) {}

  /// The kind of value held.
  AttrType type() const { return static_cast<AttrType>(value.index()); }
  /// True when the value is a `T` (one of AttrValue's alternatives).
  template <class T> bool is() const { return std::holds_alternative<T>(value); }
  /// The value as `T`; throws std::bad_variant_access when it holds another type (check is<T>()).
  template <class T> const T& get() const { return std::get<T>(value); }
  friend bool operator==(const Attr&, const Attr&) = default;
};

/// Attributes by name, ordered so that iteration (and every writer) is deterministic.
/// Names without a dot are canonical (ONNX vocabulary); `armnn.*`, `vk.*`, `gl.*` are
/// format-specific fields kept for lossless round-trips.
using AttrMap = std::map<std::string, Attr, std::less<>>;

/// The name the JSON form writes for an attribute kind: "int", "float", "bool", "string",
/// "ints", "floats", "bools", "strings", "bytes".
std::string_view to_string(AttrType t);

}  // namespace nnbridge
