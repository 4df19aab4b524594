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

ErrorCode code_of(ErrorId id) {
  switch (static_cast<int>(id) / 100) {
    case 1: return ErrorCode::Io;
    case 2: return ErrorCode::Malformed;
    case 3: return ErrorCode::Unsupported;
    case 4: return ErrorCode::Invalid;
    default: return ErrorCode::Backend;
  }
}

ErrorId other_id(ErrorCode code) {
  switch (code) {
    case ErrorCode::Io: return ErrorId::IoOther;
    case ErrorCode::Malformed: return ErrorId::MalformedOther;
    case ErrorCode::Unsupported: return ErrorId::UnsupportedOther;
    case ErrorCode::Invalid: return ErrorId::InvalidOther;
    case ErrorCode::Backend: return ErrorId::BackendOther;
  }
  return ErrorId::BackendOther;
}

std::string to_string(ErrorId id) {
  return std::string("nnbridge.") + to_string(code_of(id)) + "." + std::to_string(static_cast<int>(id));
}

namespace {
std::string compose(ErrorId id, const std::string& file, const std::string& where, const std::string& message) {
  std::string out = "[" + to_string(id) + "]";
  bool first = true;
  for (const std::string* part : {&file, &where, &message}) {
    if (part->empty()) continue;
    out += first ? " " : ": ";
    out += *part;
    first = false;
  }
  return out;
}
}  // namespace

Error::Error(ErrorId id, std::string message, std::string file, std::string where)
    : std::runtime_error(compose(id, file, where, message)),
      id_(id),
      message_(std::move(message)),
      file_(std::move(file)),
      where_(std::move(where)) {}

Error::Error(ErrorCode code, std::string message, std::string file, std::string where)
    : Error(other_id(code), std::move(message), std::move(file), std::move(where)) {}

Error Error::with_file(std::string file) const { return Error(id_, message_, std::move(file), where_); }

}  // namespace nnbridge
