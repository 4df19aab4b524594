// What a file format implements: the reader/writer contract between io and sdk/formats/*.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/check.h"
#include "nnbridge/graph.h"

namespace nnbridge {

/// Bounds applied to untrusted input by the FlatBuffers readers (armnn, afcm, vkgraph,
/// vkdelegate): flatbuffers::Verifier's nesting depth and table count, and the input size.
/// The defaults let a 1M-layer Arm NN graph load (about 6 tables per layer; flatbuffers'
/// own default of 1M tables would refuse anything past ~150k layers) while still bounding
/// the work a hostile file can cause. Each reader takes them as reader options too (below).
struct VerifierLimits {
  unsigned max_depth = 64;            ///< nesting of tables and vectors (flatbuffers' default)
  unsigned max_tables = 100'000'000;  ///< tables verified in one file: enough for 1M-node graphs
  /// Input bytes. FlatBuffers' 32-bit signed offsets cap a buffer at 2^31 - 1 bytes anyway.
  std::uint64_t max_size = (std::uint64_t{1} << 31) - 1;
};

/// How load() reads a file.
struct LoadOptions {
  std::string format;  ///< empty: sniff the content, then the extension
  /// Format-specific options, e.g. {"armnn.layout", "seed"}.
  std::map<std::string, std::string, std::less<>> options;
  VerifierLimits limits;  ///< bounds for untrusted bytes (reader options `<format>.max_*` override them)
};

/// How save() writes a file.
struct SaveOptions {
  std::string format;  ///< empty: from the output extension, else the graph's source format
  /// Format-specific options, e.g. {"armnn.bindingIdsScheme", "1"}.
  std::map<std::string, std::string, std::less<>> options;
};

/// What a reader or writer option means: `nnbridge formats --verbose` prints it, and load() and
/// save() list it when they refuse an option the format does not have.
struct OptionDoc {
  std::string meaning;        ///< one line: what the option does and the values it takes
  std::string default_value;  ///< its value when not given, as text ("64"); empty when there is none
};

/// The reader option names of the limits for `format`: "<format>.max_depth",
/// "<format>.max_tables", "<format>.max_size" (a FormatHandler lists them in reader_options).
std::vector<std::string> verifier_limit_options(std::string_view format);
/// The OptionDoc of each of verifier_limit_options(format), with VerifierLimits' defaults.
std::map<std::string, OptionDoc, std::less<>> verifier_limit_option_docs(std::string_view format);
/// options.limits with those reader options applied (decimal integers, at least 1;
/// max_depth and max_tables at most 2^32 - 1, max_size at most 2^31 - 1). Throws Error(Invalid)
/// naming the option for any other value.
VerifierLimits verifier_limits(const LoadOptions& options, std::string_view format);
/// Throws Error(Unsupported) when `size` bytes exceed limits.max_size, naming the option
/// "<format>.max_size" that raises it.
void check_input_size(std::size_t size, const VerifierLimits& limits, std::string_view format);

/// The bytes a reader sees: a view kept alive by `owner` (a MappedFile or a copy).
struct Source {
  std::span<const std::byte> bytes;
  std::shared_ptr<const void> owner;
  std::string file;  ///< for messages; empty for in-memory input
  std::filesystem::path path;  ///< the file's path, when read from disk (for sidecars)

  /// A Buffer viewing bytes[offset, offset+length) that shares `owner` (no copy; a copy only
  /// when `owner` is null). Throws Error(Malformed) naming `file` when the range is outside.
  Buffer view(std::size_t offset, std::size_t length) const;
};

/// One file format: how to recognise, read and write it.
struct FormatHandler {
  std::string name;                     ///< "armnn", "json", ...
  std::string description;              ///< one line for `nnbridge formats`
  std::vector<std::string> extensions;  ///< without dot: {"armnn"}
  /// The option names its reader and writer accept (full names: "armnn.layout"). load() and
  /// save() reject any other name with Error(Unsupported), so a misspelt option never passes silently.
  std::vector<std::string> reader_options, writer_options;
  /// What each name of reader_options and writer_options means, with its default (one entry per name).
  std::map<std::string, OptionDoc, std::less<>> option_docs;
  /// True when the bytes are this format (content sniffing); may be empty.
  std::function<bool(std::span<const std::byte>)> sniff;
  /// Reads a graph. Throws nnbridge::Error naming the place in the file.
  std::function<Graph(const Source&, const LoadOptions&)> read;
  /// Writes `g` to `path`. Use write_file_atomic; never leave a half-written file.
  std::function<void(const Graph& g, const std::filesystem::path& path, const SaveOptions&)> write;
  /// The operator a node of a graph read from this format has in the format's own vocabulary
  /// (an Arm NN layer type, a VkGraph operator name, an ONNX op_type), for `nnbridge info`; empty
  /// for a node the file does not hold as an operator (one the reader added). Empty function: the
  /// format has no vocabulary of its own beside the canonical ops.
  std::function<std::string(const Node&)> native_op;
  /// The namespace of the format's native ops that `check` knows ("gl" for gl.Program); may be empty.
  std::string native_ops;
  /// Rules for graphs holding `native_ops` ops or metadata, or read from this format, beyond what
  /// core checks (the format registry hands them to check() through register_native_check); may be empty.
  NativeCheck check;
};

/// Writes bytes to `path` atomically (temporary file in the same folder, then rename).
/// Throws Error(Io) naming the file; never leaves a partial file behind.
void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes);

/// One file of a multi-file write.
struct FileContents {
  std::filesystem::path path;        ///< where it goes
  std::span<const std::byte> bytes;  ///< its whole contents
};

/// Writes several files that belong together (a document and its sidecar): all are written
/// to temporaries first, then renamed in the order given, so a failed write changes none of
/// them. Only a failing rename (after every write succeeded) can leave earlier ones replaced.
/// Throws Error(Io) naming the file that failed.
void write_files_atomic(std::span<const FileContents> files);

}  // namespace nnbridge
