// nnbridge error model: one exception family with a stable code and a stable identifier.
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

/// Stable error identifiers, printed as "[nnbridge.<code>.<number>]" at the start of every
/// message (the form of nlohmann_json's "[json.exception.parse_error.101]").
///
/// The hundreds digit is the code: 1xx Io, 2xx Malformed, 3xx Unsupported, 4xx Invalid,
/// 5xx Backend; x00 is "any other error of that code". Numbers are never renumbered and a retired
/// number is never reused; docs/errors.md lists each one with what it means. Match errors on
/// the identifier, not on the prose, which may be reworded.
enum class ErrorId : int {
  IoOther = 100,
  IoOpen = 101,          ///< a file or folder cannot be opened, or does not exist
  IoRead = 102,          ///< reading or mapping failed after the open
  IoWrite = 103,         ///< a file cannot be created, written or renamed into place
  IoNoFolder = 104,      ///< the folder an output goes to does not exist
  IoNotRegular = 105,    ///< the path is not a regular file (a folder, a device such as /dev/zero)
  IoTooLarge = 106,      ///< the file is larger than the reader's size limit

  MalformedOther = 200,
  Truncated = 201,       ///< the input ends, or an offset or size points, past its end
  BadIdentifier = 202,   ///< a magic number, file identifier or header that is not the format's
  VerifyFailed = 203,    ///< the FlatBuffers verifier or the protobuf parser rejects the bytes
  Syntax = 204,          ///< a text form (JSON, XML, protobuf text) does not parse; names line and column
  DepthLimit = 205,      ///< nesting deeper than the reader's depth limit
  BadEncoding = 206,     ///< a field that decodes to nothing valid: an unknown enum value, bad base64,
                         ///< an element count that overflows, text that is not UTF-8
  ResourceLimit = 207,   ///< a count or size over a documented reader limit (nodes, bytes, objects)

  UnsupportedOther = 300,
  UnknownFormat = 301,   ///< no format of that name or file extension
  NoForm = 302,          ///< an operator or attribute value the target format cannot express
  DataType = 303,        ///< a data type the format or the backend cannot express
  Version = 304,         ///< a file, schema or opset version nnbridge does not read or write
  UnknownOption = 305,   ///< an option key the reader, writer or backend does not have
  Feature = 306,         ///< a feature of the format nnbridge does not implement
  UnknownOp = 307,       ///< an operator or layer type outside every schema nnbridge knows

  InvalidOther = 400,
  DanglingReference = 401,  ///< an id, index or name that refers to nothing
  Arity = 402,              ///< the wrong number of inputs, outputs or list elements
  Shape = 403,              ///< shapes or ranks that do not fit together
  AttributeValue = 404,     ///< an attribute missing or outside its domain (a stride of 0, negative pads)
  Cycle = 405,              ///< the graph is not acyclic
  Narrowing = 406,          ///< a value that does not fit the target field (a dim past uint32)
  DuplicateName = 407,      ///< two things that must be named apart share a name
  TypeMismatch = 408,       ///< a data type that differs from the one required
  OptionValue = 409,        ///< an option or argument with a value outside its domain
  MissingInput = 410,       ///< a graph input not supplied, or a supplied one the graph does not have

  BackendOther = 500,
  NoKernel = 501,        ///< the backend has no kernel for this operator, data type or attribute
  Device = 502,          ///< no device, or the device or its driver failed
  Build = 503,           ///< a kernel program did not compile or link
  Extension = 504,       ///< an extension library or custom-layer description could not be used
  Execution = 505,       ///< a kernel failed while running
};

/// The code an identifier belongs to (its hundreds digit).
ErrorCode code_of(ErrorId id);
/// The generic identifier of a code (x00).
ErrorId other_id(ErrorCode code);
/// The printed identifier, e.g. "nnbridge.malformed.201".
std::string to_string(ErrorId id);

/// The exception thrown at every public API boundary.
///
/// `what()` is "[<identifier>] <file>: <where>: <message>" with empty parts left out, e.g.
/// "[nnbridge.invalid.401] model.armnn: layers[12].layer.base.index: refers to layer 40 of 12".
class Error : public std::runtime_error {
 public:
  /// An error with its identifier (which implies its code), message, file and place in the file.
  Error(ErrorId id, std::string message, std::string file = {}, std::string where = {});
  /// An error with only a code: its identifier is the code's "other" one (x00).
  Error(ErrorCode code, std::string message, std::string file = {}, std::string where = {});

  /// The stable code (the CLI exits 3 for Io, Malformed, Unsupported and Invalid).
  ErrorCode code() const noexcept { return code_of(id_); }
  /// The stable identifier.
  ErrorId id() const noexcept { return id_; }
  /// The file the error is about; empty for in-memory input.
  const std::string& file() const noexcept { return file_; }
  /// The path inside the document, in the format's own field names.
  const std::string& where() const noexcept { return where_; }
  /// The message without identifier, file and place.
  const std::string& message() const noexcept { return message_; }

  /// A copy with `file` set (used by load/save to name the file after a reader threw).
  Error with_file(std::string file) const;

 private:
  ErrorId id_;
  std::string message_, file_, where_;
};

}  // namespace nnbridge
