#include "util.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "nnbridge/buffer.h"
#include "nnbridge/formats/armnn.h"
#include "support/flatc.h"
#include "support/paths.h"

namespace nnbridge::test::armnn {

std::filesystem::path schema() { return NNBRIDGE_ARMNN_SCHEMA; }
std::filesystem::path seed_schema() { return NNBRIDGE_ARMNN_SEED_SCHEMA; }

std::string flatc_json(const std::filesystem::path& binary, const std::filesystem::path& schema_path) {
  return test::flatc_json(binary, schema_path);
}

std::filesystem::path flatc_binary(const std::string& json, const std::string& stem,
                                   const std::filesystem::path& schema_path) {
  return test::flatc_binary(json, stem, schema_path);
}

Graph read(const std::filesystem::path& p, const LoadOptions& o) {
  auto m = MappedFile::open(p);
  Source s{m->bytes(), m, p.filename().string(), p};
  return formats::armnn::format_handler().read(s, o);
}

Graph read_bytes(std::vector<uint8_t> bytes, const LoadOptions& o) {
  auto owner = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  Source s{std::as_bytes(std::span<const uint8_t>(*owner)), owner, "memory.armnn", {}};
  return formats::armnn::format_handler().read(s, o);
}

std::filesystem::path write(const Graph& g, const std::string& stem, const SaveOptions& o) {
  auto p = temp_dir() / (stem + ".armnn");
  formats::armnn::format_handler().write(g, p, o);
  return p;
}

std::vector<uint8_t> file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

const Node* node_named(const Graph& g, const std::string& name) {
  for (const auto& n : g.nodes)
    if (n.name == name) return &n;
  return nullptr;
}
const Value* value_named(const Graph& g, const std::string& name) {
  auto id = g.find_value(name);
  return id ? &g.values[*id] : nullptr;
}

}  // namespace nnbridge::test::armnn
