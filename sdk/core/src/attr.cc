#include "nnbridge/attr.h"
#include "nnbridge/attr_text.h"

#include <type_traits>

#include <nlohmann/json.hpp>

namespace nnbridge {

std::string_view to_string(AttrType t) {
  switch (t) {
    case AttrType::Int: return "int";
    case AttrType::Float: return "float";
    case AttrType::Bool: return "bool";
    case AttrType::String: return "string";
    case AttrType::Ints: return "ints";
    case AttrType::Floats: return "floats";
    case AttrType::Bools: return "bools";
    case AttrType::Strings: return "strings";
    case AttrType::Bytes: return "bytes";
  }
  return "unknown";
}

std::string attr_text(const Attr& a) {
  if (a.is<Bytes>()) return "<" + std::to_string(a.get<Bytes>().data.size()) + " bytes>";
  nlohmann::json j;
  std::visit(
      [&](const auto& v) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(v)>, Bytes>) j = v;
      },
      a.value);
  return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace nnbridge
