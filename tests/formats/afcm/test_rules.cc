// Every rule of check_graph(), each with a passing and a failing model. The models are written
// as flatc JSON and compiled by flatc, so that what is judged is a real buffer.
#include <doctest/doctest.h>

#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::afcm;
using nlohmann::json;
using S = Issue::Severity;

namespace {

std::size_t errors(const std::vector<Issue>& v) {
  std::size_t n = 0;
  for (const auto& i : v) n += i.severity == S::Error;
  return n;
}

// The model has exactly one finding, at `where`, of severity `s`.
void expect_only(const json& model, const std::string& where, S s) {
  auto issues = findings(compile(model));
  INFO(describe(issues));
  CHECK(issues.size() == 1);
  CHECK(at(issues, where, s).size() == 1);
}

void expect_clean(const json& model) {
  auto issues = findings(compile(model));
  INFO(describe(issues));
  CHECK(issues.empty());
}

json& program0(json& m) { return m["programs"][0]; }
json& param(json& m, int k) { return m["programs"][0]["parameters"][k]; }
json& object(json& m, int j) { return m["programs"][0]["objects"][j]; }

json with_param(const char* type, const char* tag, json data) {
  json m = base_model();
  param(m, 0) = json{{"name", "x"}, {"type", type}, {"data_type", tag}, {"data", {{"data", data}}}};
  return m;
}

}  // namespace

TEST_CASE("afcm rules: the base model passes") { expect_clean(base_model()); }

TEST_CASE("afcm rules: shader_index in range") {
  json m = base_model();
  program0(m)["shader_index"] = 1;  // the last shader: fine (shader 0 is then unused)
  expect_only(m, "shaders[0]", S::Warning);
  program0(m)["shader_index"] = 2;
  auto issues = findings(compile(m));
  INFO(describe(issues));
  CHECK(at(issues, "programs[0].shader_index", S::Error).size() == 1);
  CHECK(errors(issues) == 1);
}

TEST_CASE("afcm rules: unused shaders are reported") {
  json m = base_model();
  m["shaders"].push_back("\nvoid main() {  }\n");
  expect_only(m, "shaders[2]", S::Warning);
}

TEST_CASE("afcm rules: parameter type and union member agree") {
  expect_clean(with_param("INT32_2", "DataInt32", {1, 2}));
  expect_only(with_param("INT32", "DataFloat", {1.0}), "programs[0].parameters[0].data_type", S::Error);
  expect_only(with_param("UINT32", "DataInt32", {1}), "programs[0].parameters[0].data_type", S::Error);
  expect_only(with_param("FLOAT32", "DataUint32", {1}), "programs[0].parameters[0].data_type", S::Error);
  expect_only(with_param("INT32_2", "DataUint32", {1, 2}), "programs[0].parameters[0].data_type", S::Error);
  json m = base_model();
  param(m, 0)["type"] = 9;  // not a ParameterType
  expect_only(m, "programs[0].parameters[0].type", S::Error);
}

TEST_CASE("afcm rules: parameter lengths (TFLite ParseParameter)") {
  const std::string where = "programs[0].parameters[0].data.data";
  for (json v : {json{1}, json{1, 2}, json{1, 2, 3, 4}}) expect_clean(with_param("INT32", "DataInt32", v));
  for (json v : {json::array(), json{1, 2, 3}, json{1, 2, 3, 4, 5, 6, 7, 8}})
    expect_only(with_param("INT32", "DataInt32", v), where, S::Error);
  for (json v : {json{1}, json{1, 2, 3, 4}}) expect_clean(with_param("UINT32", "DataUint32", v));
  for (json v : {json{1, 2}, json{1, 2, 3}}) expect_only(with_param("UINT32", "DataUint32", v), where, S::Error);
  for (json v : {json{0.5}, json{0.5, 1.5}, json{1, 2, 3, 4}}) expect_clean(with_param("FLOAT32", "DataFloat", v));
  for (json v : {json{1, 2, 3}, json{1, 2, 3, 4, 5}}) expect_only(with_param("FLOAT32", "DataFloat", v), where, S::Error);
  for (json v : {json::array(), json{1, 2}, json{1, 2, 3, 4, 5, 6}})
    expect_clean(with_param("INT32_2", "DataInt32", v));
  for (json v : {json{1}, json{1, 2, 3}}) expect_only(with_param("INT32_2", "DataInt32", v), where, S::Error);
}

TEST_CASE("afcm rules: a vector<float4> (4n floats) reads, round-trips, and is only a warning") {
  const std::string where = "programs[0].parameters[0].data.data";
  for (json v : {json{1, 2, 3, 4, 5, 6, 7, 8}, json{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, json::array()}) {
    CAPTURE(v.dump());
    json m = with_param("FLOAT32", "DataFloat", v);
    auto path = flatc_binary(m.dump(), "float4s");
    REQUIRE(!path.empty());
    Graph g = read(path);
    CHECK(g.nodes[0].attrs.at("gl.parameters[0].data").get<std::vector<double>>() == v.get<std::vector<double>>());
    CHECK(flatc_json(write(g, "float4s_out")) == flatc_json(path));
    expect_only(m, where, S::Warning);
  }
}

TEST_CASE("afcm rules: parameter name and data present") {
  json m = base_model();
  param(m, 0).erase("name");
  expect_only(m, "programs[0].parameters[0].name", S::Error);
  m = base_model();
  param(m, 0).erase("data");
  param(m, 0).erase("data_type");  // union NONE: a run-time value, which TFLite's reader refuses
  expect_only(m, "programs[0].parameters[0].data", S::Error);
  m = base_model();
  param(m, 0).erase("data");  // the member tag without its table
  expect_only(m, "programs[0].parameters[0].data", S::Error);
  m = base_model();
  param(m, 0)["data"] = json::object();  // the table without its vector
  expect_only(m, "programs[0].parameters[0].data.data", S::Error);
}

TEST_CASE("afcm rules: object size and object unions set") {
  json m = base_model();
  object(m, 0).erase("size");
  object(m, 0).erase("size_type");
  expect_only(m, "programs[0].objects[0].size", S::Error);
  m = base_model();
  object(m, 0).erase("size");  // the tag without its table
  expect_only(m, "programs[0].objects[0].size", S::Error);
  m = base_model();
  object(m, 0).erase("object");
  object(m, 0).erase("object_type");
  expect_only(m, "programs[0].objects[0].object", S::Error);
  m = base_model();
  object(m, 1).erase("object");  // ObjectRef tag without its table
  expect_only(m, "programs[0].objects[1].object", S::Error);
  m = base_model();
  object(m, 0)["object"] = json::object();  // ObjectData without its bytes
  expect_only(m, "programs[0].objects[0].object.data", S::Error);
}

TEST_CASE("afcm rules: an object's element count must fit 64 bits") {
  // (2^32 - 1)^2 = 2^64 - 2^33 + 1 fits; times 2 it does not (TFLite multiplies in size_t).
  json m = base_model();
  object(m, 2)["size"] = json{{"x", 4294967295u}, {"y", 4294967295u}, {"z", 1}};
  expect_clean(m);
  object(m, 2)["size"]["z"] = 2;
  expect_only(m, "programs[0].objects[2].size", S::Error);
}

TEST_CASE("afcm rules: workgroup counts and sizes non-zero and present") {
  for (const char* axis : {"x", "y", "z"}) {
    json m = base_model();
    program0(m)["number_workgroups"][axis] = 0;
    expect_only(m, std::string("programs[0].number_workgroups.") + axis, S::Error);
    m = base_model();
    program0(m)["workgroup_size"][axis] = 0;
    expect_only(m, std::string("programs[0].workgroup_size.") + axis, S::Error);
  }
  json m = base_model();
  program0(m).erase("number_workgroups");
  expect_only(m, "programs[0].number_workgroups", S::Error);
  m = base_model();
  program0(m).erase("workgroup_size");
  expect_only(m, "programs[0].workgroup_size", S::Error);
}

TEST_CASE("afcm rules: bindings unique per program and object type") {
  // The base model binds a buffer and a texture both at 0: separate GL numberings, fine.
  json m = base_model();
  CHECK(object(m, 0)["binding"] == object(m, 1)["binding"]);
  object(m, 2)["binding"] = 0;  // a second buffer at binding 0
  expect_only(m, "programs[0].objects[2].binding", S::Error);
  // The same binding in two programs is fine.
  m = base_model();
  m["programs"][1]["objects"][0]["binding"] = 1;
  expect_clean(m);
}

TEST_CASE("afcm rules: object enums") {
  json m = base_model();
  object(m, 0)["access"] = 7;
  expect_only(m, "programs[0].objects[0].access", S::Error);
  m = base_model();
  object(m, 0)["type"] = "UNKNOWN";
  expect_only(m, "programs[0].objects[0].type", S::Error);
  m = base_model();
  object(m, 1)["data_type"] = 9;  // not a DataType: TFLite reads it as UNKNOWN
  expect_only(m, "programs[0].objects[1].data_type", S::Warning);
  m = base_model();
  object(m, 0)["data_type"] = "UNKNOWN";  // a constant buffer: SizeOf(UNKNOWN) = 0 in TFLite's runtime
  expect_only(m, "programs[0].objects[0].data_type", S::Warning);
  m = base_model();
  object(m, 1)["data_type"] = "UNKNOWN";  // a reference: nothing divides by its size here
  expect_clean(m);
}

TEST_CASE("afcm rules: absent vectors and tables that TFLite dereferences") {
  for (const char* field : {"shaders", "programs", "parameters"}) {
    json m = base_model();
    m.erase(field);
    auto issues = findings(compile(m));
    INFO(describe(issues));
    CHECK(at(issues, field, S::Error).size() == 1);
  }
  for (const char* field : {"objects", "parameters"}) {
    json m = base_model();
    program0(m).erase(field);
    expect_only(m, std::string("programs[0].") + field, S::Error);
  }
}
