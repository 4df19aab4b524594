// The shared afcm samples (compiled by flatc 2.0.8 from TFLite's schema): the IR holds what flatc
// decodes, writing back decodes identically, and the checker says what TFLite would trip over.
#include <doctest/doctest.h>

#include <cstring>

#include "nnbridge/error.h"
#include "nnbridge/json.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::afcm;
using nlohmann::json;

namespace {

const Attr& attr(const AttrMap& m, const std::string& k) {
  auto it = m.find(k);
  REQUIRE_MESSAGE(it != m.end(), "missing attribute " << k);
  return it->second;
}
int64_t int_of(const AttrMap& m, const std::string& k) { return attr(m, k).get<int64_t>(); }
std::string str_of(const AttrMap& m, const std::string& k) { return attr(m, k).get<std::string>(); }

std::vector<int64_t> xyz(const json& t, int n = 3) {
  std::vector<int64_t> out;
  for (const char* c : {"x", "y", "z"})
    if (int(out.size()) < n) out.push_back(t[c].get<int64_t>());
  return out;
}

// The IR of one program against flatc's decoding of it (strict JSON, defaults included).
void expect_program_matches(const Graph& g, const Node& n, const json& jp) {
  CHECK(n.op == "gl.Program");
  CHECK(int_of(n.attrs, "gl.shader_index") == jp["shader_index"].get<int64_t>());
  CHECK(attr(n.attrs, "gl.number_workgroups").get<std::vector<int64_t>>() == xyz(jp["number_workgroups"]));
  CHECK(attr(n.attrs, "gl.workgroup_size").get<std::vector<int64_t>>() == xyz(jp["workgroup_size"]));
  REQUIRE(n.inputs.size() == jp["objects"].size());
  std::size_t size_at = 0;
  for (std::size_t j = 0; j < n.inputs.size(); ++j) {
    CAPTURE(j);
    const json& jo = jp["objects"][j];
    // One column entry per object (afcm.h); sizes run flat, components(size_type) per object.
    auto col = [&](const char* key) { return attr(n.attrs, key).get<std::vector<std::string>>().at(j); };
    CHECK(col("gl.objects.access") == jo["access"].get<std::string>());
    CHECK(attr(n.attrs, "gl.objects.binding").get<std::vector<int64_t>>().at(j) == jo["binding"].get<int64_t>());
    CHECK(col("gl.objects.data_type") == jo["data_type"].get<std::string>());
    CHECK(col("gl.objects.type") == jo["type"].get<std::string>());
    const std::string size_type = jo["size_type"].get<std::string>();
    CHECK(col("gl.objects.size_type") == size_type);
    const auto& sizes = attr(n.attrs, "gl.objects.size").get<std::vector<int64_t>>();
    const std::size_t c = std::size_t(size_type.back() - '0');
    REQUIRE(size_at + c <= sizes.size());
    CHECK(std::vector<int64_t>(sizes.begin() + long(size_at), sizes.begin() + long(size_at + c)) == xyz(jo["size"], int(c)));
    size_at += c;
    const std::string object_type = jo["object_type"].get<std::string>();
    CHECK(col("gl.objects.object_type") == object_type);
    REQUIRE(n.inputs[j] < g.values.size());
    const Value& v = g.values[n.inputs[j]];
    if (object_type == "ObjectData") {
      REQUIRE(v.constant);
      auto want = jo["object"]["data"].get<std::vector<uint8_t>>();
      CHECK(std::vector<uint8_t>(reinterpret_cast<const uint8_t*>(v.constant->data()),
                                 reinterpret_cast<const uint8_t*>(v.constant->data()) + v.constant->size()) == want);
      CHECK(v.type.dtype == DataType::UInt8);
      CHECK(v.type.shape == std::vector<int64_t>{int64_t(want.size())});
    } else {
      CHECK(!v.constant);
      CHECK(int_of(v.attrs, "gl.global_id") == jo["object"]["global_id"].get<int64_t>());
    }
  }
  for (std::size_t k = 0; k < jp["parameters"].size(); ++k) {
    CAPTURE(k);
    const json& ju = jp["parameters"][k];
    const std::string key = "gl.parameters[" + std::to_string(k) + "].";
    CHECK(str_of(n.attrs, key + "name") == ju["name"].get<std::string>());
    CHECK(str_of(n.attrs, key + "type") == ju["type"].get<std::string>());
    const std::string tag = ju["data_type"].get<std::string>();
    CHECK(str_of(n.attrs, key + "data_type") == tag);
    if (tag == "DataFloat")
      CHECK(attr(n.attrs, key + "data").get<std::vector<double>>() == ju["data"]["data"].get<std::vector<double>>());
    else
      CHECK(attr(n.attrs, key + "data").get<std::vector<int64_t>>() == ju["data"]["data"].get<std::vector<int64_t>>());
  }
  CHECK(!n.attrs.count("gl.parameters[" + std::to_string(jp["parameters"].size()) + "].type"));
}

std::vector<std::filesystem::path> samples() {
  std::vector<std::filesystem::path> out;
  for (const char* f : {"afcm/smoke_equivalent.flow", "afcm/empty.flow"})
    if (auto p = test::shared_sample(f)) out.push_back(*p);
  return out;
}

}  // namespace

TEST_CASE("afcm sample smoke_equivalent: the IR holds what flatc decodes") {
  auto p = test::shared_sample("afcm/smoke_equivalent.flow");
  NNBRIDGE_REQUIRE_SHARED(p);
  Graph g = read(*p);
  const json j = json::parse(flatc_json(*p));
  CHECK(g.source_format == "afcm");
  CHECK(g.metadata.at("gl.dynamic_batch") == Attr(j["parameters"]["dynamic_batch"].get<bool>()));
  CHECK(g.metadata.at("gl.shaders").get<std::vector<std::string>>() == j["shaders"].get<std::vector<std::string>>());
  CHECK(!g.metadata.count("gl.absent"));
  REQUIRE(g.nodes.size() == j["programs"].size());
  expect_program_matches(g, g.nodes[0], j["programs"][0]);

  // What the sample README promises: nine parameter kinds, three objects, dynamic_batch.
  const Node& n = g.nodes[0];
  CHECK(n.name == "programs[0]");
  CHECK(n.inputs.size() == 3);
  CHECK(n.attrs.count("gl.parameters[8].type"));
  CHECK(g.metadata.at("gl.dynamic_batch") == Attr(true));
  // objects[0] holds the float32 values 1, 2, 3, 4 (IEEE 754 little-endian bytes in the JSON).
  float f[4];
  REQUIRE(g.values[n.inputs[0]].constant->size() == sizeof f);
  std::memcpy(f, g.values[n.inputs[0]].constant->data(), sizeof f);
  CHECK(f[0] == 1.0f);
  CHECK(f[3] == 4.0f);
  // The reference (global id 100, WRITE) is a graph input and a graph output.
  const Value& ref = g.values[n.inputs[1]];
  CHECK(ref.name == "global_id_100");
  CHECK(g.inputs == std::vector<ValueId>{n.inputs[1]});
  CHECK(g.outputs == std::vector<ValueId>{n.inputs[1]});
  // The INT8-as-UNKNOWN object stays what the file says.
  CHECK(n.attrs.at("gl.objects.data_type").get<std::vector<std::string>>().at(2) == "UNKNOWN");
  // Constant data is a view into the file's bytes, not a copy.
  CHECK(g.values[n.inputs[0]].constant->is_view());
}

TEST_CASE("afcm samples: written back, flatc decodes them identically, writing is deterministic") {
  auto files = samples();
  if (files.empty()) {
    test::skip("../shared/samples is not present");
    return;
  }
  CHECK(files.size() == 2);
  for (const auto& f : files) {
    CAPTURE(f);
    Graph g = read(f);
    auto out = write(g, f.stem().string());
    const std::string a = flatc_json(f), b = flatc_json(out);
    REQUIRE(!a.empty());
    CHECK(a == b);
    CHECK(file_bytes(write(g, f.stem().string() + "_again")) == file_bytes(out));
    // Through the IR's JSON form as well (what `convert x.flow x.json` and back does).
    Graph again = from_json(to_json(g));
    CHECK(flatc_json(write(again, f.stem().string() + "_json")) == a);
  }
}

TEST_CASE("afcm sample empty.flow: a 16-byte model with no fields reads, writes back, and fails the check") {
  auto p = test::shared_sample("afcm/empty.flow");
  NNBRIDGE_REQUIRE_SHARED(p);
  CHECK(file_bytes(*p).size() == 16);
  Graph g = read(*p);
  CHECK(g.nodes.empty());
  CHECK(g.values.empty());
  CHECK(!g.metadata.count("gl.shaders"));
  CHECK(!g.metadata.count("gl.dynamic_batch"));
  CHECK(g.metadata.at("gl.absent") == Attr(std::vector<std::string>{"programs"}));
  CHECK(flatc_json(write(g, "empty")) == flatc_json(*p));
  // TFLite's reader dereferences all three: each is an error.
  auto issues = findings(g);
  INFO(describe(issues));
  CHECK(issues.size() == 3);
  for (const char* where : {"shaders", "programs", "parameters"})
    CHECK(at(issues, where, Issue::Severity::Error).size() == 1);
}

TEST_CASE("afcm sample smoke_equivalent: no errors, the unused shader and the UNKNOWN constant buffer are warnings") {
  auto p = test::shared_sample("afcm/smoke_equivalent.flow");
  NNBRIDGE_REQUIRE_SHARED(p);
  auto issues = findings(read(*p));
  INFO(describe(issues));
  CHECK(issues.size() == 2);
  CHECK(at(issues, "shaders[0]", Issue::Severity::Warning).size() == 1);
  CHECK(at(issues, "programs[0].objects[2].data_type", Issue::Severity::Warning).size() == 1);
}

TEST_CASE("afcm base model: the IR holds what flatc decodes, and it round-trips") {
  auto path = flatc_binary(base_model().dump(), "base");
  REQUIRE(!path.empty());
  Graph g = read(path);
  const json j = json::parse(flatc_json(path));
  REQUIRE(g.nodes.size() == 2);
  expect_program_matches(g, g.nodes[0], j["programs"][0]);
  expect_program_matches(g, g.nodes[1], j["programs"][1]);
  // Global id 4 is written by program 0 and read-written by program 1: one value, shared.
  CHECK(g.nodes[0].inputs[2] == g.nodes[1].inputs[0]);
  CHECK(g.inputs.size() == 2);
  CHECK(g.outputs == std::vector<ValueId>{g.nodes[0].inputs[2]});
  CHECK(flatc_json(write(g, "base_out")) == flatc_json(path));
}
