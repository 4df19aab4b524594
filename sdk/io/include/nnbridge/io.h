// Loading, saving and converting graph files; the format registry and sniffing.
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

#include "nnbridge/format.h"
#include "nnbridge/graph.h"

namespace nnbridge {

/// Adds a format (replacing one of the same name).
void register_format(FormatHandler handler);
/// The handler named `name`, or nullptr. Built-in formats are registered on first use.
const FormatHandler* find_format(std::string_view name);
/// Every registered format, in registration order.
std::vector<const FormatHandler*> all_formats();
/// The first registered format listing `extension` (with or without the leading dot,
/// case-insensitive), or nullptr.
const FormatHandler* find_format_by_extension(std::string_view extension);
/// The format whose extension ends the file name, the longest one winning ("m.armnn.json" is
/// armnn-json, "m.json" json; case-insensitive), or nullptr. What load() and save() use.
const FormatHandler* find_format_by_path(const std::filesystem::path& path);

/// Loads a graph from a file: sniffs the content, then the extension, unless options.format
/// names one. Constant data stays in the memory-mapped file. Throws Error naming the file:
/// Io (cannot open or map), Unsupported (no format recognised, an unknown options.format, or
/// an option not namespaced by the chosen format, e.g. "json.x" for an armnn file), or
/// whatever the reader throws. Graph::source_format is the reader's, else the format's name.
Graph load(const std::filesystem::path& path, const LoadOptions& options = {});
/// Loads from memory; `format` may be empty to sniff. The bytes must outlive the graph's
/// constants unless `owner` keeps them alive; pass nullptr to have them copied.
Graph load(std::span<const std::byte> bytes, std::string_view format, const LoadOptions& options = {},
           std::shared_ptr<const void> owner = nullptr);
/// Saves `g`; the format from options, else from the extension. An unknown or missing
/// extension without options.format is Error(Unsupported): the format is never guessed.
/// Writes a temporary file then renames it: on error no output file is left, and an existing
/// one is untouched. Saving over the file `g` was loaded from is safe: the old mapping stays
/// valid after the rename (POSIX keeps the replaced inode alive while it is mapped).
/// Throws Error(Unsupported) when no format can be chosen or an option is not the format's.
void save(const Graph& g, const std::filesystem::path& path, const SaveOptions& options = {});
/// The name of the format `path` would be read as (sniffed, then by extension); throws Error(Unsupported).
std::string detect_format(const std::filesystem::path& path);

}  // namespace nnbridge
