// What a file format implements: the reader/writer contract between io and sdk/formats/*.
#pragma once

#include <cstddef>
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

/// Bounds applied to untrusted input (FlatBuffers verifier and friends).
struct VerifierLimits {
  unsigned max_depth = 64;
  unsigned max_tables = 100'000'000;  ///< enough for 1M-node graphs
};

struct LoadOptions {
  std::string format;  ///< empty: sniff the content, then the extension
  /// Format-specific options, e.g. {"armnn.layout", "seed"}.
  std::map<std::string, std::string, std::less<>> options;
  VerifierLimits limits;
};

struct SaveOptions {
  std::string format;  ///< empty: from the output extension, else the graph's source format
  /// Format-specific options, e.g. {"armnn.bindingIdsScheme", "1"}.
  std::map<std::string, std::string, std::less<>> options;
};

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
  std::string description;
  std::vector<std::string> extensions;  ///< without dot: {"armnn"}
  /// The option names its reader and writer accept (full names: "armnn.layout"). load() and
  /// save() reject any other name with Error(Unsupported), so a misspelt option never passes silently.
  std::vector<std::string> reader_options, writer_options;
  /// True when the bytes are this format (content sniffing); may be empty.
  std::function<bool(std::span<const std::byte>)> sniff;
  /// Reads a graph. Throws nnbridge::Error naming the place in the file.
  std::function<Graph(const Source&, const LoadOptions&)> read;
  /// Writes `g` to `path`. Use write_file_atomic; never leave a half-written file.
  std::function<void(const Graph& g, const std::filesystem::path& path, const SaveOptions&)> write;
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
  std::filesystem::path path;
  std::span<const std::byte> bytes;
};

/// Writes several files that belong together (a document and its sidecar): all are written
/// to temporaries first, then renamed in the order given, so a failed write changes none of
/// them. Only a failing rename (after every write succeeded) can leave earlier ones replaced.
/// Throws Error(Io) naming the file that failed.
void write_files_atomic(std::span<const FileContents> files);

}  // namespace nnbridge
