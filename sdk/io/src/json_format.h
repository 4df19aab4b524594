// The `json` format: the IR's own JSON form (sdk/core json.h) as a file format.
#pragma once

#include <cstddef>
#include <span>

#include "nnbridge/format.h"

namespace nnbridge::io_detail {

/// The value of the top-level "format" member that marks an nnbridge IR JSON document.
inline constexpr const char* kJsonFormatMarker = "nnbridge-ir";

/// True when `bytes` are JSON text whose top-level object has "format": "nnbridge-ir".
/// Stops parsing as soon as that member is seen, so sniffing a large file stays cheap.
bool sniff_json_ir(std::span<const std::byte> bytes);

/// The handler registered as format "json" (extension .json).
///
/// Reader: the sidecar named by the document (a plain file name) is mapped from the JSON
/// file's folder; constants are views into it. The reader takes no options.
/// Writer options (SaveOptions::options):
///   json.inline_limit = N  -- constants above N bytes go to the sidecar `<stem>.bin` (default 4096)
///   json.indent = N        -- pretty-print indent; -1 for one line (default 2)
///   json.overwrite_sidecar = true|false -- replace an existing `<stem>.bin` that is not the
///                             sidecar of the JSON document being replaced (default false: refused,
///                             Error(Io) naming it; nnbridge/json.h write_json_file)
/// The sidecar (`<name>.bin` for an output itself named *.bin) is written atomically before
/// the JSON, so a JSON file never names a sidecar that is not there yet.
FormatHandler json_format_handler();

}  // namespace nnbridge::io_detail
