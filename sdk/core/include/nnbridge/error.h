// nnbridge error model: one exception family with a stable code.
#pragma once

#include <stdexcept>
#include <string>

namespace nnbridge {

/// Stable error codes shared by C++, Python and the CLI (docs/architecture.md "Errors").
enum class ErrorCode {
  Io,           ///< the file could not be opened, read, mapped or written
  Malformed,    ///< bytes that do not decode: bad offsets, failed verification, truncation
  Unsupported,  ///< well-formed input that nnbridge or the target format cannot express
  Invalid,      ///< well-formed but inconsistent content: dangling ids, wrong arity, bad shapes
  Backend,      ///< a backend failed to prepare or run a graph
};

/// Name of a code as printed in messages ("malformed", ...).
const char* to_string(ErrorCode code);

/// The exception thrown at every public API boundary.
///
/// `what()` is "<file>: <where>: <message>" with empty parts left out, e.g.
/// "model.armnn: layers[12].layer.base.index: refers to layer 40 of 12".
class Error : public std::runtime_error {
 public:
  /// An error with its code, its message, the file it is about and the place inside the file.
  Error(ErrorCode code, std::string message, std::string file = {}, std::string where = {});

  /// The stable code (the CLI exits 3 for Io, Malformed, Unsupported and Invalid).
  ErrorCode code() const noexcept { return code_; }
  /// The file the error is about; empty for in-memory input.
  const std::string& file() const noexcept { return file_; }
  /// The path inside the document, in the format's own field names.
  const std::string& where() const noexcept { return where_; }
  /// The message without file and place.
  const std::string& message() const noexcept { return message_; }

  /// A copy with `file` set (used by load/save to name the file after a reader threw).
  Error with_file(std::string file) const;

 private:
  ErrorCode code_;
  std::string message_, file_, where_;
};

}  // namespace nnbridge
