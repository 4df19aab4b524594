#include "nnbridge/attr.h"

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

}  // namespace nnbridge
