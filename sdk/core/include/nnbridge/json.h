// The IR's JSON form (nlohmann_json): round-trips a Graph exactly, constants included.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

#include "nnbridge/graph.h"

namespace nnbridge {

struct JsonWriteOptions {
  /// Constants up to this many bytes are inlined as base64; larger ones go to the sidecar.
  std::size_t inline_limit = 4096;
  /// Sidecar file name for large constants, relative to the JSON file; empty inlines everything.
  std::string sidecar;
  int indent = 2;
};

/// The JSON text of `g`. Large constants are appended to `*sidecar_bytes` (their offsets
/// recorded in the JSON) when it is non-null and options.sidecar is set.
std::string to_json(const Graph& g, const JsonWriteOptions& options = {},
                    std::vector<std::byte>* sidecar_bytes = nullptr);

/// Parses the JSON form. `sidecar` supplies the bytes of the sidecar file (may be empty
/// when none is referenced). Throws Error(Malformed) naming the JSON path on bad input.
Graph from_json(std::string_view text, const Buffer& sidecar = {}, const std::string& file = {});

}  // namespace nnbridge
