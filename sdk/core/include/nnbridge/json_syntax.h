// nlohmann_json's parse failures as nnbridge errors, one wording for every JSON document nnbridge
// reads (the IR, conformance manifests and results, known-failure lists).
#pragma once

#include <nlohmann/json.hpp>

#include <string>

#include "nnbridge/error.h"

namespace nnbridge {

/// Error(Syntax, nnbridge.malformed.204) for `e` thrown while parsing the JSON text of `file`:
/// nlohmann's own "[json.exception.parse_error.101] " prefix is dropped (its ids are not
/// nnbridge's), the message keeps its "line L, column C" and `where` is "byte N", the 0-based
/// offset of the byte the parser stopped at (nlohmann counts from 1).
inline Error json_syntax_error(const nlohmann::json::exception& e, const std::string& file) {
  std::string text = e.what();
  if (text.rfind("[json.exception.", 0) == 0) {
    const std::size_t close = text.find("] ");
    if (close != std::string::npos) text.erase(0, close + 2);
  }
  std::string where;
  if (const auto* p = dynamic_cast<const nlohmann::json::parse_error*>(&e); p && p->byte > 0)
    where = "byte " + std::to_string(p->byte - 1);
  return Error(ErrorId::Syntax, "not JSON: " + text, file, where);
}

}  // namespace nnbridge
