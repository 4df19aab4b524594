// Helpers of the afcm format tests: flatc (the independent judge and file maker) and the handler.
#pragma once

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "nnbridge/check.h"
#include "nnbridge/format.h"
#include "nnbridge/graph.h"

namespace nnbridge::test::afcm {

std::filesystem::path schema();     ///< schemas/afcm/compiled_model.fbs
std::filesystem::path cl_schema();  ///< tests/formats/afcm/data/compiled_program_cache.fbs

/// flatc's JSON of a binary (--raw-binary --strict-json --defaults-json); "" when flatc fails.
std::string flatc_json(const std::filesystem::path& binary, const std::filesystem::path& schema_path = schema());
/// Compiles `json` with flatc against `schema_path`; the binary's path, or "" when flatc fails.
std::filesystem::path flatc_binary(const std::string& json, const std::string& stem,
                                   const std::filesystem::path& schema_path = schema());

/// Reads a file / bytes with the afcm handler.
Graph read(const std::filesystem::path& p);
Graph read_bytes(std::vector<uint8_t> bytes);
/// Writes with the afcm handler into a temporary file and returns its path.
std::filesystem::path write(const Graph& g, const std::string& stem);
std::vector<uint8_t> file_bytes(const std::filesystem::path& p);

/// A small valid model in flatc's JSON form that check_graph() passes without findings: two
/// shaders, two programs (one per shader), objects of each kind, one parameter of each type.
nlohmann::json base_model();
/// Compiles `model` with flatc and reads it back with the handler (REQUIREs that flatc succeeds).
Graph compile(const nlohmann::json& model, const std::string& stem = "model");

/// check_graph()'s findings.
std::vector<Issue> findings(const Graph& g);
/// Findings at exactly `where` with the given severity.
std::vector<Issue> at(const std::vector<Issue>& issues, const std::string& where, Issue::Severity s);
/// "where: message" lines, for failure messages.
std::string describe(const std::vector<Issue>& issues);

}  // namespace nnbridge::test::afcm
