// The IR's JSON form (nlohmann_json): round-trips a Graph exactly, constants included.
//
// Layout (version 1). Keys are written in this order; readers reject unknown keys.
//
//   {
//     "format": "nnbridge-ir", "version": 1,
//     "source_format": "armnn",                 // Graph::source_format
//     "sidecar": "model.bin",                   // only when some constant lives in the sidecar
//     "metadata": { "<name>": <attr>, ... },    // Graph::metadata
//     "values": [ {
//         "name": "conv1/weights",
//         "type": { "dtype": "float32",         // to_string(DataType)
//                   "shape": [1, 3, -1, -1],    // -1: unknown dim
//                   "unknown_rank": true,       // only when true (then no "shape")
//                   "quantization": { "scales": [<float>...], "zero_points": [0], "axis": 0 } },
//         "constant": { "base64": "AAECAw==" }  // inline, or
//         "constant": { "offset": 0, "length": 4096 },  // bytes [offset, offset+length) of the sidecar
//         "attrs": { "<name>": <attr>, ... } } ],
//     "nodes": [ { "op": "Conv", "name": "conv1", "inputs": [0, 1, null],   // null: kNoValue
//                  "outputs": [3], "attrs": { ... } } ],
//     "inputs": [0], "outputs": [3]
//   }
//
// <attr> is a one-key object naming its type (AttrType's to_string), so that types survive
// even for empty lists: {"int": 3}, {"float": 0.5}, {"bool": true}, {"string": "NHWC"},
// {"ints": []}, {"floats": [1.0, "inf"]}, {"bools": [true]}, {"strings": ["a"]}, {"bytes": "<base64>"}.
// <float> is a JSON number printed with enough digits to re-parse to the same double, or one of
// the strings "nan", "inf", "-inf" (JSON has no non-finite numbers; a NaN's payload is not kept).
// Readers accept "name", "attrs", "metadata" and "source_format" left out (empty); writers
// leave out empty node names, attrs, metadata and source_format. Output is deterministic:
// the same Graph gives the same bytes.
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/graph.h"

namespace nnbridge {

/// How to_json() and write_json_file() lay out the JSON form.
struct JsonWriteOptions {
  /// Constants up to this many bytes are inlined as base64; larger ones go to the sidecar.
  std::size_t inline_limit = 4096;
  /// Sidecar file name for large constants, relative to the JSON file; empty inlines everything.
  std::string sidecar;
  int indent = 2;  ///< spaces per nesting level; -1 writes one line
  /// write_json_file(): replace an existing file at the sidecar's path even when it is not the
  /// sidecar of the document being replaced (see write_json_file).
  bool overwrite_sidecar = false;
};

/// Readers refuse JSON nested deeper than this (Error(Malformed)): the form itself needs 6
/// levels, and hostile nesting (50k levels) would otherwise exhaust the stack of what walks it.
inline constexpr std::size_t kJsonMaxDepth = 64;

/// Alignment of each constant's offset inside the sidecar (zero bytes pad between constants),
/// so that a mapped sidecar gives aligned constant views.
inline constexpr std::size_t kSidecarAlignment = 64;

/// The JSON text of `g`. Large constants are appended to `*sidecar_bytes` (their offsets
/// recorded in the JSON) when it is non-null and options.sidecar is set; otherwise every
/// constant is inlined. Throws Error(Unsupported) when a string is not valid UTF-8.
std::string to_json(const Graph& g, const JsonWriteOptions& options = {},
                    std::vector<std::byte>* sidecar_bytes = nullptr);

/// Supplies the bytes of the sidecar named in the JSON ("sidecar": name). Called at most once,
/// and only when a constant lives in the sidecar. Should throw nnbridge::Error when it cannot.
using SidecarResolver = std::function<Buffer(const std::string& sidecar_name)>;

/// Parses the JSON form. `sidecar` supplies the bytes of the sidecar file (may be empty
/// when none is referenced); constants are views into it (no copy). Throws Error(Malformed)
/// naming the JSON path ("values[3].type.shape[1]") and `file` on bad input, and
/// Error(Unsupported) for a newer "version".
Graph from_json(std::string_view text, const Buffer& sidecar = {}, const std::string& file = {});

/// As from_json, with the sidecar fetched by name through `resolve` (empty: a referenced
/// sidecar is an Error(Malformed)).
Graph from_json_resolving(std::string_view text, const SidecarResolver& resolve, const std::string& file = {});

/// Reads a JSON file; its sidecar (a plain file name, no folders) is memory-mapped from the
/// same folder, and constants are views into the mapping. Throws Error(Io) naming the file
/// that cannot be read, Error(Malformed) as from_json.
Graph read_json_file(const std::filesystem::path& path);

/// Writes `g` to `path` and, when options.sidecar is set and some constant exceeds
/// options.inline_limit, the sidecar next to it; both atomically (write_file_atomic).
/// options.sidecar must be a plain file name. A sidecar to be written over an existing file is
/// refused (Error(Io) naming that file, before anything is written) unless that file is the
/// sidecar of the document being replaced (`path` is an IR JSON document whose "sidecar" names
/// it: rewriting a JSON file in place, or over an earlier conversion) or
/// options.overwrite_sidecar is set: a `model.bin` beside `model.json` may be another tool's
/// (OpenVINO IR keeps its weights so). Throws Error(Io) naming the file.
void write_json_file(const Graph& g, const std::filesystem::path& path, const JsonWriteOptions& options = {});

}  // namespace nnbridge
