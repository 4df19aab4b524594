// flatc as the independent decoder/encoder of FlatBuffers in tests (the format folders' test
// utilities forward to these with their own schema as the default).
#pragma once

#include <filesystem>
#include <string>

namespace nnbridge::test {

/// flatc's JSON of `binary` under `schema` (--raw-binary --json --strict-json --defaults-json);
/// "" when flatc refuses it.
std::string flatc_json(const std::filesystem::path& binary, const std::filesystem::path& schema);
/// Compiles `json` with `flatc -b` against `schema` into a fresh temporary folder as `stem.json`;
/// the binary's path (its extension is the schema's file_extension, else .bin), or "" when flatc
/// refuses the JSON.
std::filesystem::path flatc_binary(const std::string& json, const std::string& stem,
                                   const std::filesystem::path& schema);

}  // namespace nnbridge::test
