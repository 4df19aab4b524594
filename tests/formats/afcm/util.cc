#include "util.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "nnbridge/buffer.h"
#include "nnbridge/formats/afcm.h"
#include "support/flatc.h"
#include "support/paths.h"

namespace nnbridge::test::afcm {

std::filesystem::path schema() { return NNBRIDGE_AFCM_SCHEMA; }
std::filesystem::path cl_schema() { return NNBRIDGE_AFCM_CL_SCHEMA; }

std::string flatc_json(const std::filesystem::path& binary, const std::filesystem::path& schema_path) {
  return test::flatc_json(binary, schema_path);
}

std::filesystem::path flatc_binary(const std::string& json, const std::string& stem,
                                   const std::filesystem::path& schema_path) {
  return test::flatc_binary(json, stem, schema_path);
}

Graph read(const std::filesystem::path& p) {
  auto m = MappedFile::open(p);
  Source s{m->bytes(), m, p.filename().string(), p};
  return formats::afcm::format_handler().read(s, {});
}

Graph read_bytes(std::vector<uint8_t> bytes) {
  auto owner = std::make_shared<std::vector<uint8_t>>(std::move(bytes));
  Source s{std::as_bytes(std::span<const uint8_t>(*owner)), owner, "memory.flow", {}};
  return formats::afcm::format_handler().read(s, {});
}

std::filesystem::path write(const Graph& g, const std::string& stem) {
  auto p = temp_dir() / (stem + ".flow");
  formats::afcm::format_handler().write(g, p, {});
  return p;
}

std::vector<uint8_t> file_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

nlohmann::json base_model() {
  using J = nlohmann::json;
  auto param = [](const char* name, const char* type, const char* tag, J data) {
    return J{{"name", name}, {"type", type}, {"data_type", tag}, {"data", {{"data", data}}}};
  };
  J program0 = {
      {"objects",
       J::array({J{{"access", "READ"}, {"binding", 0}, {"data_type", "FLOAT32"}, {"type", "BUFFER"},
                   {"size_type", "Uint1"}, {"size", {{"x", 1}}}, {"object_type", "ObjectData"},
                   {"object", {{"data", {0, 0, 128, 63, 0, 0, 0, 64, 0, 0, 64, 64, 0, 0, 128, 64}}}}},
                 J{{"access", "READ"}, {"binding", 0}, {"data_type", "FLOAT16"}, {"type", "TEXTURE"},
                   {"size_type", "Uint2"}, {"size", {{"x", 2}, {"y", 2}}}, {"object_type", "ObjectRef"},
                   {"object", {{"global_id", 3}}}},
                 J{{"access", "WRITE"}, {"binding", 1}, {"data_type", "FLOAT32"}, {"type", "BUFFER"},
                   {"size_type", "Uint3"}, {"size", {{"x", 1}, {"y", 2}, {"z", 3}}}, {"object_type", "ObjectRef"},
                   {"object", {{"global_id", 4}}}}})},
      {"parameters", J::array({param("i", "INT32", "DataInt32", {7}), param("u", "UINT32", "DataUint32", {1, 2, 3, 4}),
                               param("f", "FLOAT32", "DataFloat", {0.5, -0.5}),
                               param("p", "INT32_2", "DataInt32", {1, 2, 3, 4})})},
      {"number_workgroups", {{"x", 4}, {"y", 1}, {"z", 1}}},
      {"workgroup_size", {{"x", 8}, {"y", 4}, {"z", 2}}},
      {"shader_index", 0}};
  J program1 = {{"objects", J::array({J{{"access", "READ_WRITE"}, {"binding", 0}, {"data_type", "FLOAT32"},
                                        {"type", "BUFFER"}, {"size_type", "Uint1"}, {"size", {{"x", 6}}},
                                        {"object_type", "ObjectRef"}, {"object", {{"global_id", 4}}}}})},
                {"parameters", J::array()},
                {"number_workgroups", {{"x", 1}, {"y", 1}, {"z", 1}}},
                {"workgroup_size", {{"x", 1}, {"y", 1}, {"z", 1}}},
                {"shader_index", 1}};
  return J{{"parameters", {{"dynamic_batch", false}}},
           {"shaders", {"\nvoid main() {}\n", "\nvoid main() { }\n"}},
           {"programs", {program0, program1}}};
}

Graph compile(const nlohmann::json& model, const std::string& stem) {
  auto p = flatc_binary(model.dump(), stem);
  REQUIRE_MESSAGE(!p.empty(), "flatc refused: " << model.dump());
  return read(p);
}

std::vector<Issue> findings(const Graph& g) {
  std::vector<Issue> out;
  formats::afcm::check_graph(g, out);
  return out;
}

std::vector<Issue> at(const std::vector<Issue>& issues, const std::string& where, Issue::Severity s) {
  std::vector<Issue> out;
  for (const auto& i : issues)
    if (i.where == where && i.severity == s) out.push_back(i);
  return out;
}

std::string describe(const std::vector<Issue>& issues) {
  std::string s;
  for (const auto& i : issues)
    s += std::string(i.severity == Issue::Severity::Error ? "error " : "warning ") + i.where + ": " + i.message + "\n";
  return s;
}

}  // namespace nnbridge::test::afcm
