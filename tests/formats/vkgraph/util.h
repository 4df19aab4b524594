// Helpers of the VkGraph format tests: flatc (the independent peer) and the two handlers.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "nnbridge/format.h"
#include "nnbridge/graph.h"

namespace nnbridge::test::vk {

/// schemas/vkgraph/schema.fbs, and the ExecuTorch 0.2 layout (OperatorCall without node_id).
std::filesystem::path schema();
std::filesystem::path legacy_schema();

/// flatc's JSON of a bare VkGraph (--raw-binary --strict-json --defaults-json); "" when flatc fails.
std::string flatc_json(const std::filesystem::path& binary, const std::filesystem::path& schema_path = schema());
/// Compiles `json` with flatc into a binary VkGraph and returns its path ("" path on failure).
std::filesystem::path flatc_binary(const std::string& json, const std::string& stem,
                                   const std::filesystem::path& schema_path = schema());

/// Reads a file with the "vkgraph" / "vkdelegate" handler (memory-mapped).
Graph read(const std::filesystem::path& p, bool delegate = false, const LoadOptions& o = {});
/// Reads bytes held in memory.
Graph read_bytes(std::vector<uint8_t> bytes, bool delegate = false, const LoadOptions& o = {});
/// Writes with a handler into a temporary file and returns its path.
std::filesystem::path write(const Graph& g, const std::string& stem, bool delegate = false, const SaveOptions& o = {});
std::vector<uint8_t> file_bytes(const std::filesystem::path& p);
void put_file(const std::filesystem::path& p, const std::vector<uint8_t>& bytes);

/// A VkGraph JSON document (flatc's form) from its pieces: `values` and `chain` are JSON arrays'
/// contents; the other fields are JSON texts.
std::string graph_json(const std::string& values, const std::string& chain, const std::string& inputs,
                       const std::string& outputs, const std::string& constants = "");
/// JSON of one VkTensor value: FLOAT32 unless `dtype` says otherwise.
std::string tensor_json(const std::string& dims, int constant_id = -1, int mem_obj_id = -1,
                        const std::string& dtype = "FLOAT32");

/// A delegate payload laid out by hand (ExecuTorch's rules): header, flatbuffer, segment.
std::vector<uint8_t> payload(const std::vector<uint8_t>& flatbuffer, const std::vector<uint8_t>& segment);

/// The first node with op `op`, or nullptr.
const Node* node_with_op(const Graph& g, const std::string& op);

}  // namespace nnbridge::test::vk
