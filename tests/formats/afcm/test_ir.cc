// The IR form both ways: presence and values TFLite drops survive a round-trip, a graph built by
// hand writes what flatc then decodes, and graphs that do not follow the form are refused.
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "nnbridge/json.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::afcm;
using nlohmann::json;

namespace {

// Compiles `m`, reads it, writes it back (directly and through the IR JSON form) and compares
// flatc's decodings. Returns the graph read.
Graph round_trip(const json& m, const std::string& stem) {
  auto path = flatc_binary(m.dump(), stem);
  REQUIRE_MESSAGE(!path.empty(), m.dump());
  Graph g = read(path);
  const std::string want = flatc_json(path);
  CHECK(flatc_json(write(g, stem + "_out")) == want);
  CHECK(flatc_json(write(from_json(to_json(g)), stem + "_json")) == want);
  return g;
}

ErrorCode write_error(const Graph& g, std::string* where = nullptr) {
  try {
    write(g, "bad");
  } catch (const Error& e) {
    if (where) *where = e.where();
    return e.code();
  }
  FAIL("the writer accepted the graph");
  return ErrorCode::Io;
}

Graph base_graph() { return compile(base_model(), "base"); }

}  // namespace

TEST_CASE("afcm IR: presence is kept (absent vs empty, tags without tables)") {
  json m = base_model();
  auto& p0 = m["programs"][0];
  p0["objects"][0]["object"] = json::object();          // ObjectData without its vector
  p0["objects"][1].erase("object");                      // ObjectRef tag without its table
  p0["objects"][2].erase("size");                        // size tag without its table
  p0["parameters"][0].erase("name");                     // no name
  p0["parameters"][1]["data"] = json::object();          // data table without its vector
  p0["parameters"][2].erase("data");                     // data tag without its table
  p0["parameters"][3].erase("data");                     // union NONE
  p0["parameters"][3].erase("data_type");
  m["programs"][1].erase("parameters");                  // absent vector, where program 0's is not
  m["programs"][1]["objects"] = json::array();           // empty vector
  m["programs"][1].erase("number_workgroups");
  Graph g = round_trip(m, "presence");
  const AttrMap& a = g.nodes[0].attrs;
  CHECK(a.at("gl.absent") ==
        Attr(std::vector<std::string>{"objects[0].object.data", "objects[2].size", "parameters[1].data.data"}));
  CHECK(g.nodes[0].inputs[1] == kNoValue);
  // Object 2's size table is absent: the size column holds only the other objects' components.
  const auto& sizes = a.at("gl.objects.size").get<std::vector<int64_t>>();
  const auto& size_types = a.at("gl.objects.size_type").get<std::vector<std::string>>();
  std::size_t want = 0;
  for (std::size_t j = 0; j < size_types.size(); ++j)
    if (j != 2) want += size_types[j] == "Uint1" ? 1 : size_types[j] == "Uint2" ? 2 : size_types[j] == "Uint3" ? 3 : 0;
  CHECK(sizes.size() == want);
  CHECK(!a.count("gl.parameters[0].name"));
  CHECK(g.nodes[1].attrs.at("gl.absent") == Attr(std::vector<std::string>{"parameters"}));
  CHECK(!g.nodes[1].attrs.count("gl.number_workgroups"));
  // An empty name and empty vectors are present, not absent.
  m = base_model();
  m["programs"][0]["parameters"][0]["name"] = "";
  m["programs"][0]["objects"][0]["object"]["data"] = json::array();
  m["shaders"] = json::array();
  m["programs"][0]["shader_index"] = 0;
  g = round_trip(m, "empty_present");
  CHECK(g.nodes[0].attrs.at("gl.parameters[0].name") == Attr(""));
  CHECK(!g.nodes[0].attrs.count("gl.absent"));
  CHECK(g.values[g.nodes[0].inputs[0]].constant->size() == 0);
}

TEST_CASE("afcm IR: what TFLite drops is kept: ProgramBinary, enum numbers, INT8-as-UNKNOWN") {
  json m = base_model();
  m["programs"][0]["binary"] = {{"format", 34624}, {"binary", {1, 2, 3}}};
  m["programs"][1]["binary"] = json::object();  // the table without its blob
  m["programs"][0]["objects"][0]["access"] = 7;
  m["programs"][0]["objects"][1]["data_type"] = 9;
  m["programs"][0]["objects"][2]["data_type"] = "UNKNOWN";
  Graph g = round_trip(m, "dropped");
  const AttrMap& a = g.nodes[0].attrs;
  CHECK(a.at("gl.binary.format") == Attr(int64_t{34624}));
  CHECK(a.at("gl.binary.binary") == Attr(Bytes{{1, 2, 3}}));
  CHECK(g.nodes[1].attrs.at("gl.binary.format") == Attr(int64_t{0}));
  CHECK(!g.nodes[1].attrs.count("gl.binary.binary"));
  CHECK(a.at("gl.objects.access").get<std::vector<std::string>>()[0] == "7");
  CHECK(a.at("gl.objects.data_type").get<std::vector<std::string>>()[1] == "9");
  CHECK(a.at("gl.objects.data_type").get<std::vector<std::string>>()[2] == "UNKNOWN");
}

TEST_CASE("afcm IR: extreme values round-trip") {
  json m = base_model();
  auto& p0 = m["programs"][0];
  p0["parameters"][0]["data"]["data"] = {-2147483648};
  p0["parameters"][1]["data"]["data"] = {4294967295u, 0, 1, 2};
  p0["parameters"][2]["data"]["data"] = {3.4028234663852886e38, -1.401298464324817e-45};
  p0["objects"][1]["object"]["global_id"] = 4294967295u;
  p0["number_workgroups"] = {{"x", 4294967295u}, {"y", 1}, {"z", 1}};
  p0["objects"][0]["binding"] = 4294967295u;
  round_trip(m, "extremes");
}

TEST_CASE("afcm IR: a graph built by hand writes what flatc decodes") {
  Graph g;
  g.metadata["gl.dynamic_batch"] = Attr(true);
  g.metadata["gl.shaders"] = Attr(std::vector<std::string>{"\nvoid main() {}\n"});
  Value data;
  data.name = "weights";
  data.type.dtype = DataType::Float32;
  data.type.shape = {1};
  const float one = 1.0f;
  data.constant = Buffer::copy_of(std::as_bytes(std::span(&one, 1)));
  ValueId d = g.add_value(data);
  Value ref;
  ref.name = "output";
  ref.attrs["gl.global_id"] = Attr(int64_t{5});
  ValueId r = g.add_value(ref);
  Node n;
  n.op = "gl.Program";
  n.inputs = {d, r};
  n.attrs = {{"gl.shader_index", Attr(int64_t{0})},
             {"gl.number_workgroups", Attr(std::vector<int64_t>{2, 3, 4})},
             {"gl.workgroup_size", Attr(std::vector<int64_t>{8, 1, 1})},
             {"gl.objects.access", Attr(std::vector<std::string>{"READ", "WRITE"})},
             {"gl.objects.binding", Attr(std::vector<int64_t>{1, 2})},
             {"gl.objects.data_type", Attr(std::vector<std::string>{"FLOAT32", "FLOAT16"})},
             {"gl.objects.type", Attr(std::vector<std::string>{"BUFFER", "TEXTURE"})},
             {"gl.objects.size_type", Attr(std::vector<std::string>{"Uint1", "Uint3"})},
             {"gl.objects.size", Attr(std::vector<int64_t>{1, 4, 5, 6})},  // 1 component, then 3
             {"gl.objects.object_type", Attr(std::vector<std::string>{"ObjectData", "ObjectRef"})},
             {"gl.parameters[0].name", Attr("scale")},
             {"gl.parameters[0].type", Attr("FLOAT32")},
             {"gl.parameters[0].data_type", Attr("DataFloat")},
             {"gl.parameters[0].data", Attr(std::vector<double>{0.25})}};
  g.add_node(n);
  auto path = write(g, "hand");
  const json j = json::parse(flatc_json(path));
  CHECK(j["parameters"]["dynamic_batch"] == true);
  CHECK(j["shaders"] == json{"\nvoid main() {}\n"});
  const json& p = j["programs"][0];
  CHECK(p["number_workgroups"] == json{{"x", 2}, {"y", 3}, {"z", 4}});
  CHECK(p["workgroup_size"] == json{{"x", 8}, {"y", 1}, {"z", 1}});
  CHECK(p["objects"][0]["object"]["data"] == json{0, 0, 128, 63});  // 1.0f, little-endian
  CHECK(p["objects"][0]["size"] == json{{"x", 1}});
  CHECK(p["objects"][1]["type"] == "TEXTURE");
  CHECK(p["objects"][1]["access"] == "WRITE");
  CHECK(p["objects"][1]["object"]["global_id"] == 5);
  CHECK(p["objects"][1]["size"] == json{{"x", 4}, {"y", 5}, {"z", 6}});
  CHECK(p["parameters"][0] == json{{"name", "scale"}, {"type", "FLOAT32"}, {"data_type", "DataFloat"},
                                   {"data", {{"data", {0.25}}}}});
  CHECK(!p.contains("binary"));
  CHECK(findings(g).empty());
}

TEST_CASE("afcm IR: the writer refuses what does not follow the form, naming the place") {
  std::string where;
  Graph g = base_graph();
  g.nodes.push_back(Node{"Relu", "relu1", {}, {}, {}});
  CHECK(write_error(g, &where) == ErrorCode::Unsupported);
  CHECK(where == "nodes[2] 'relu1'");

  g = base_graph();
  g.nodes[0].attrs["gl.objects.bindng"] = Attr(std::vector<int64_t>{1});  // a typo would be lost
  CHECK(write_error(g, &where) == ErrorCode::Invalid);
  CHECK(where == "nodes[0].attrs.gl.objects.bindng");

  g = base_graph();
  std::get<std::vector<int64_t>>(g.nodes[0].attrs["gl.objects.binding"].value).push_back(1);  // no input for it
  CHECK(write_error(g, &where) == ErrorCode::Invalid);
  CHECK(where == "nodes[0].attrs.gl.objects.binding");

  g = base_graph();
  std::get<std::vector<int64_t>>(g.nodes[0].attrs["gl.objects.size"].value).push_back(1);  // one number too many
  CHECK(write_error(g, &where) == ErrorCode::Invalid);
  CHECK(where == "nodes[0].attrs.gl.objects.size");

  g = base_graph();
  g.values[g.nodes[0].inputs[1]].attrs.erase("gl.global_id");
  CHECK(write_error(g, &where) == ErrorCode::Invalid);
  CHECK(where == "nodes[0].inputs[1]");

  g = base_graph();
  g.values[g.nodes[0].inputs[0]].constant.reset();  // ObjectData must be a constant
  CHECK(write_error(g, &where) == ErrorCode::Invalid);
  CHECK(where == "nodes[0].inputs[0]");

  g = base_graph();
  g.nodes[0].attrs.erase("gl.parameters[1].type");  // a gap in the numbering
  CHECK(write_error(g, &where) == ErrorCode::Invalid);
  CHECK(where == "nodes[0].attrs.gl.parameters[1].type");

  g = base_graph();
  g.nodes[0].attrs["gl.parameters[0].data"] = Attr(std::vector<int64_t>{int64_t{1} << 31});
  CHECK(write_error(g, &where) == ErrorCode::Invalid);
  CHECK(where == "nodes[0].attrs.gl.parameters[0].data");

  g = base_graph();
  std::get<std::vector<std::string>>(g.nodes[0].attrs["gl.objects.access"].value)[1] = "READ_ONLY";
  CHECK(write_error(g, &where) == ErrorCode::Invalid);
  CHECK(where == "nodes[0].attrs.gl.objects.access[1]");

  g = base_graph();
  g.nodes[0].attrs["gl.workgroup_size"] = Attr(std::vector<int64_t>{1, 1});
  CHECK(write_error(g, &where) == ErrorCode::Invalid);
  CHECK(where == "nodes[0].attrs.gl.workgroup_size");

  g = base_graph();
  g.metadata["gl.dynamic_batch"] = Attr(int64_t{1});
  CHECK(write_error(g, &where) == ErrorCode::Invalid);
  CHECK(where == "metadata.gl.dynamic_batch");
}

TEST_CASE("afcm IR: the checker reports form problems as errors and still runs the rules") {
  Graph g = base_graph();
  g.nodes[0].attrs["gl.objects.bindng"] = Attr(std::vector<int64_t>{1});
  g.nodes[0].attrs["gl.shader_index"] = Attr(int64_t{9});
  g.nodes.push_back(Node{"Relu", "", {}, {}, {}});  // another op: not the afcm rules' business
  auto issues = findings(g);
  INFO(describe(issues));
  CHECK(issues.size() == 3);  // the typo, the shader index, the now unused shader 0
  CHECK(at(issues, "nodes[0].attrs.gl.objects.bindng", Issue::Severity::Error).size() == 1);
  CHECK(at(issues, "programs[0].shader_index", Issue::Severity::Error).size() == 1);
  CHECK(at(issues, "shaders[0]", Issue::Severity::Warning).size() == 1);
}
