// Checked narrowing for writers: a value that does not fit the target field's type is an error
// naming the field, never a silent truncation (a dim of 2^40 written as a uint32 comes back as
// another dim, and the writer's own reader may then refuse the file).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <type_traits>

#include "nnbridge/error.h"

namespace nnbridge {

/// `value` as T. Throws Error(Unsupported) "<field>: <value> does not fit <T's range>" when it
/// does not (the format cannot express it).
template <class T>
T narrow_field(int64_t value, std::string_view field) {
  static_assert(std::is_integral_v<T>);
  bool fits;
  if constexpr (std::is_unsigned_v<T>) {
    fits = value >= 0 && static_cast<uint64_t>(value) <= std::numeric_limits<T>::max();
  } else {
    fits = value >= std::numeric_limits<T>::min() && value <= std::numeric_limits<T>::max();
  }
  if (!fits) {
    std::string range = std::to_string(+std::numeric_limits<T>::min()) + ".." + std::to_string(+std::numeric_limits<T>::max());
    throw Error(ErrorCode::Unsupported, std::string(field) + ": " + std::to_string(value) +
                                            " does not fit the field's type (" + range + ")");
  }
  return static_cast<T>(value);
}

}  // namespace nnbridge
