// Loading a model in a subcommand, with the phase line of progress.h on a terminal for a large file.
#pragma once

#include <cstdint>
#include <string>

#include "nnbridge/format.h"
#include "nnbridge/graph.h"

namespace nnbridge::cli {

/// The size of `path` in bytes; 0 when it cannot be read (load() then says why).
std::uint64_t file_bytes(const std::string& path);

/// nnbridge::load(path, options), showing "reading <path> (<size>), 3s elapsed" on stderr while it
/// runs when stderr is a terminal and the file has file_progress_min_bytes() or more (100 MB,
/// NNBRIDGE_PROGRESS_MIN_BYTES); the line is erased before it returns or throws. Throws as load().
Graph load_model(const std::string& path, const LoadOptions& options);

}  // namespace nnbridge::cli
