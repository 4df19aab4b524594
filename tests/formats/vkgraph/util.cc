#include "util.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "nnbridge/buffer.h"
#include "nnbridge/formats/vkgraph.h"
#include "support/flatc.h"
#include "support/paths.h"

namespace nnbridge::test::vk {

std::filesystem::path schema() { return NNBRIDGE_VKGRAPH_SCHEMA; }
std::filesystem::path legacy_schema() { return source_dir() / "tests/formats/vkgraph/data/legacy_schema.fbs"; }

std::string flatc_json(const std::filesystem::path& binary, const std::filesystem::path& schema_path) {
  return test::flatc_json(binary, schema_path);
}

std::filesystem::path flatc_binary(const std::string& json, const std::string& stem,
                                   const std::filesystem::path& schema_path) {
  return test::flatc_binary(json, stem, schema_path);
}

Graph read(const std::filesystem::path& p, bool delegate, const LoadOptions& o) {
  auto m = MappedFile::open(p);
  Source s{m->bytes(), m, p.filename().string(), p};
  auto h = delegate ? formats::vkgraph::delegate_handler() : formats::vkgraph::format_handler();
  return h.read(s, o);
}

Graph read_bytes(std::vector<uint8_t> bytes, bool delegate, const LoadOptions& o) {
  auto owner = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  Source s{std::as_bytes(std::span<const uint8_t>(*owner)), owner, "memory", {}};
  auto h = delegate ? formats::vkgraph::delegate_handler() : formats::vkgraph::format_handler();
  return h.read(s, o);
}

std::filesystem::path write(const Graph& g, const std::string& stem, bool delegate, const SaveOptions& o) {
  auto p = temp_dir() / (stem + (delegate ? ".vkdelegate" : ".bin"));
  auto h = delegate ? formats::vkgraph::delegate_handler() : formats::vkgraph::format_handler();
  h.write(g, p, o);
  return p;
}

std::vector<uint8_t> file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

void put_file(const std::filesystem::path& p, const std::vector<uint8_t>& bytes) {
  std::ofstream(p, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
}

std::string graph_json(const std::string& values, const std::string& chain, const std::string& inputs,
                       const std::string& outputs, const std::string& constants) {
  return "{\"version\": \"0\", \"chain\": [" + chain + "], \"values\": [" + values + "], \"input_ids\": " + inputs +
         ", \"output_ids\": " + outputs + ", \"constants\": [" + constants + "], \"shaders\": []}";
}

std::string tensor_json(const std::string& dims, int constant_id, int mem_obj_id, const std::string& dtype) {
  return "{\"value_type\": \"VkTensor\", \"value\": {\"datatype\": \"" + dtype + "\", \"dims\": " + dims +
         ", \"constant_id\": " + std::to_string(constant_id) + ", \"mem_obj_id\": " + std::to_string(mem_obj_id) +
         ", \"staging_datatype\": \"" + dtype + "\"}}";
}

std::vector<uint8_t> payload(const std::vector<uint8_t>& fb, const std::vector<uint8_t>& segment) {
  auto pad16 = [](std::size_t n) { return (n + 15) / 16 * 16; };
  formats::vkgraph::DelegateHeader h;
  h.flatbuffer_offset = 32;
  h.flatbuffer_size = static_cast<uint32_t>(fb.size());
  h.bytes_offset = static_cast<uint32_t>(32 + pad16(fb.size()));
  h.bytes_size = segment.size();
  std::vector<uint8_t> out = formats::vkgraph::encode_delegate_header(h);
  out.resize(32, 0);
  out.insert(out.end(), fb.begin(), fb.end());
  out.resize(32 + pad16(fb.size()), 0);
  out.insert(out.end(), segment.begin(), segment.end());
  return out;
}

const Node* node_with_op(const Graph& g, const std::string& op) {
  for (const auto& n : g.nodes)
    if (n.op == op) return &n;
  return nullptr;
}

}  // namespace nnbridge::test::vk
