// Helpers of the Arm NN format tests: flatc (the independent peer) and the handler.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "nnbridge/format.h"
#include "nnbridge/graph.h"

namespace nnbridge::test::armnn {

/// The released schema and the seed schema copy used by the tests.
std::filesystem::path schema();
std::filesystem::path seed_schema();

/// flatc's JSON of a binary (--raw-binary --strict-json --defaults-json); "" when flatc fails.
std::string flatc_json(const std::filesystem::path& binary, const std::filesystem::path& schema_path = schema());
/// Compiles `json` with flatc against `schema_path` into a binary file and returns its path.
std::filesystem::path flatc_binary(const std::string& json, const std::string& stem,
                                   const std::filesystem::path& schema_path = schema());

/// Reads a file with the Arm NN handler (memory-mapped; constants are views).
Graph read(const std::filesystem::path& p, const LoadOptions& o = {});
/// Reads bytes held in memory (copied into an owner that the graph keeps alive).
Graph read_bytes(std::vector<uint8_t> bytes, const LoadOptions& o = {});
/// Writes with the Arm NN handler into a temporary file and returns its path.
std::filesystem::path write(const Graph& g, const std::string& stem, const SaveOptions& o = {});
std::vector<uint8_t> file_bytes(const std::filesystem::path& p);

/// Node with the given name (first match) or nullptr.
const Node* node_named(const Graph& g, const std::string& name);
const Value* value_named(const Graph& g, const std::string& name);

}  // namespace nnbridge::test::armnn
