#include "nnbridge/error.h"

#include <utility>

namespace nnbridge {

const char* to_string(ErrorCode code) {
  switch (code) {
    case ErrorCode::Io: return "io";
    case ErrorCode::Malformed: return "malformed";
    case ErrorCode::Unsupported: return "unsupported";
    case ErrorCode::Invalid: return "invalid";
    case ErrorCode::Backend: return "backend";
  }
  return "unknown";
}

namespace {
std::string compose(const std::string& file, const std::string& where, const std::string& message) {
  std::string out;
  for (const std::string* part : {&file, &where, &message}) {
    if (part->empty()) continue;
    if (!out.empty()) out += ": ";
    out += *part;
  }
  return out;
}
}  // namespace

Error::Error(ErrorCode code, std::string message, std::string file, std::string where)
    : std::runtime_error(compose(file, where, message)),
      code_(code),
      message_(std::move(message)),
      file_(std::move(file)),
      where_(std::move(where)) {}

Error Error::with_file(std::string file) const { return Error(code_, message_, std::move(file), where_); }

}  // namespace nnbridge
