// Lossless round-trips of bare VkGraphs compiled by flatc (the independent peer): every union
// kind, every enum value, absent fields, orphan and shared values, the default-elision trap.
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::vk;

namespace {

// flatc JSON -> binary -> nnbridge read -> nnbridge write -> flatc JSON must be unchanged.
Graph round_trip(const std::string& json, const std::string& stem) {
  auto bin = flatc_binary(json, stem);
  REQUIRE(!bin.empty());
  Graph g = read(bin);
  auto out = write(g, stem + "_out");
  std::string a = flatc_json(bin), b = flatc_json(out);
  REQUIRE(!a.empty());
  CHECK(a == b);
  return g;
}

}  // namespace

TEST_CASE("vkgraph round-trip: union kinds 1..11 in one table") {
  std::string values =
      "{\"value_type\": \"Null\", \"value\": {}},"
      "{\"value_type\": \"Int\", \"value\": {\"int_val\": -7}},"
      "{\"value_type\": \"Double\", \"value\": {\"double_val\": 2.5}},"
      "{\"value_type\": \"Bool\", \"value\": {\"bool_val\": true}}," +
      tensor_json("[1, 2]", -1, 0) +
      ",{\"value_type\": \"IntList\", \"value\": {\"items\": [1, -2, 3]}},"
      "{\"value_type\": \"DoubleList\", \"value\": {\"items\": [0.5, -1.25]}},"
      "{\"value_type\": \"BoolList\", \"value\": {\"items\": [true, false, true]}},"
      "{\"value_type\": \"ValueList\", \"value\": {\"items\": [1, 2]}},"
      "{\"value_type\": \"String\", \"value\": {\"string_val\": \"hello\"}},"
      "{\"value_type\": \"SymInt\", \"value\": {\"value\": 42}}," +
      tensor_json("[1, 2]", -1, 1);
  std::string json = graph_json(values, "{\"node_id\": 9, \"name\": \"et_vk.custom.default\", \"args\": [4, 0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11]}",
                                "[4]", "[11]");
  Graph g = round_trip(json, "kinds");
  CHECK(g.metadata.at("vk.value_kinds").get<std::vector<int64_t>>() ==
        std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 5});
  CHECK(g.metadata.at("vk.value.1").get<int64_t>() == -7);
  CHECK(g.metadata.at("vk.value.2").get<double>() == 2.5);
  CHECK(g.metadata.at("vk.value.3").get<bool>() == true);
  CHECK(g.metadata.at("vk.value.5").get<std::vector<int64_t>>() == std::vector<int64_t>{1, -2, 3});
  CHECK(g.metadata.at("vk.value.7").get<std::vector<bool>>() == std::vector<bool>{true, false, true});
  CHECK(g.metadata.at("vk.value.9").get<std::string>() == "hello");
  CHECK(g.metadata.at("vk.value.10").get<int64_t>() == 42);
  REQUIRE(g.nodes.size() == 1);
  CHECK(g.nodes[0].op == "vk.et_vk.custom.default");  // not in the mapping table: native, verbatim
  CHECK(g.nodes[0].attrs.at("vk.node_id").get<int64_t>() == 9);
  CHECK(g.nodes[0].inputs.size() == 1);
  CHECK(g.nodes[0].outputs.size() == 1);
  CHECK(g.values[g.nodes[0].outputs[0]].name == "output_0");
}

TEST_CASE("vkgraph round-trip: every enum value the schema defines") {
  const char* dtypes[] = {"BOOL", "UINT8", "INT8", "INT32", "FLOAT16", "FLOAT32", "FLOAT64", "INT64"};
  const char* storage[] = {"BUFFER", "TEXTURE_3D", "TEXTURE_2D", "DEFAULT_STORAGE"};
  const char* layouts[] = {"TENSOR_WIDTH_PACKED", "TENSOR_HEIGHT_PACKED", "TENSOR_CHANNELS_PACKED", "PACKED_INT8_4W4C",
                           "PACKED_INT8_4H4W", "PACKED_INT8_4W", "PACKED_INT8_4C", "PACKED_INT8_4C1W",
                           "PACKED_INT8_CONV2D", "DEFAULT_LAYOUT"};
  std::string values;
  int n = 0;
  for (int i = 0; i < 10; ++i) {
    if (n) values += ",";
    values += std::string("{\"value_type\": \"VkTensor\", \"value\": {\"datatype\": \"") + dtypes[i % 8] +
              "\", \"dims\": [2], \"constant_id\": -1, \"mem_obj_id\": " + std::to_string(i) + ", \"storage_type\": \"" +
              storage[i % 4] + "\", \"memory_layout\": \"" + layouts[i] + "\", \"staging_datatype\": \"" +
              (i == 9 ? "UNSET" : dtypes[(i + 3) % 8]) + "\"}}";
    ++n;
  }
  std::string json = "{\"version\": \"1.4\", \"chain\": [], \"values\": [" + values +
                     "], \"input_ids\": [0, 1], \"output_ids\": [], \"constants\": [], \"shaders\": [],"
                     " \"storage_type_override\": \"TEXTURE_2D\", \"memory_layout_override\": \"PACKED_INT8_CONV2D\"}";
  Graph g = round_trip(json, "enums");
  CHECK(g.values[7].attrs.at("vk.memory_layout").get<std::string>() == "PACKED_INT8_4C1W");
  CHECK(g.values[6].type.dtype == DataType::Float64);
  CHECK(g.values[7].type.dtype == DataType::Int64);
  CHECK(g.metadata.at("vk.memory_layout_override").get<std::string>() == "PACKED_INT8_CONV2D");
}

TEST_CASE("vkgraph round-trip: absent fields stay absent, empty ones stay empty") {
  // No version, no constants, no shaders; a tensor without dims; lists and a string without items.
  std::string values = "{\"value_type\": \"VkTensor\", \"value\": {\"datatype\": \"FLOAT32\", \"constant_id\": -1, "
                       "\"mem_obj_id\": -1}},"
                       "{\"value_type\": \"IntList\", \"value\": {}}, {\"value_type\": \"IntList\", \"value\": {\"items\": []}},"
                       "{\"value_type\": \"String\", \"value\": {}}, {\"value_type\": \"DoubleList\", \"value\": {}}";
  std::string json = "{\"chain\": [], \"values\": [" + values + "], \"input_ids\": [0], \"output_ids\": []}";
  Graph g = round_trip(json, "absent");
  CHECK(g.values[0].type.shape.empty());
  CHECK(!g.metadata.count("vk.value.1"));
  CHECK(g.metadata.count("vk.value.2"));
  // flatc prints no "shaders" key for an absent vector, "shaders": [] for an empty one: the
  // round_trip comparison above would catch either being confused with the other.
  auto out = write(g, "absent2");
  CHECK(flatc_json(out).find("shaders") == std::string::npos);
}

TEST_CASE("vkgraph round-trip: constant named keys, named-data entries, orphans and shared scalars") {
  // Two adds share the Int 1 (deduplicated alpha); value 6 is an orphan; constant 1 is named
  // data (offset 0xFFFFFFFFFFFFFFFF) and constant 0 has no named_key field at all.
  std::string values = tensor_json("[2]", -1, 0) + "," + tensor_json("[2]", 0) + ",{\"value_type\": \"Int\", \"value\": {\"int_val\": 1}}," +
                       tensor_json("[2]", -1, 1) + "," + tensor_json("[2]", 1) + "," + tensor_json("[2]", -1, 2) +
                       ",{\"value_type\": \"Double\", \"value\": {\"double_val\": 0.25}}";
  std::string chain = "{\"node_id\": 3, \"name\": \"aten.add.Tensor\", \"args\": [0, 1, 2, 3]},"
                      "{\"node_id\": 4, \"name\": \"aten.add.Tensor\", \"args\": [3, 4, 2, 5]}";
  std::string constants = "{\"offset\": 0, \"length\": 8}, {\"offset\": 18446744073709551615, \"length\": 8, "
                          "\"named_key\": \"5c1d\"}";
  Graph g = round_trip(graph_json(values, chain, "[0]", "[5]", constants), "shared");
  REQUIRE(g.nodes.size() == 2);
  CHECK(g.nodes[0].op == "Add");
  CHECK(g.nodes[1].op == "Add");
  CHECK(g.metadata.at("vk.constants.offset").get<std::vector<int64_t>>() == std::vector<int64_t>{0, -1});
  CHECK(g.metadata.at("vk.constants.named_key").get<std::vector<std::string>>() == std::vector<std::string>{"", "5c1d"});
}

TEST_CASE("vkgraph default-elision trap: an absent constant_id is constant 0, and the writer stores -1") {
  // Value 0 has no constant_id and no mem_obj_id: by the schema it is constant 0 (mem_obj 0).
  std::string values = "{\"value_type\": \"VkTensor\", \"value\": {\"datatype\": \"FLOAT32\", \"dims\": [2]}}," +
                       tensor_json("[2]", -1, -1) + "," + tensor_json("[2]", -1, -1);
  std::string json = graph_json(values, "{\"name\": \"aten.mul.Tensor\", \"args\": [0, 1, 2]}", "[1]", "[2]",
                                "{\"offset\": 0, \"length\": 8}");
  auto bin = flatc_binary(json, "trap");
  Graph g = read(bin);
  CHECK(g.values[0].attrs.at("vk.constant_id").get<int64_t>() == 0);
  CHECK(g.values[0].attrs.at("vk.mem_obj_id").get<int64_t>() == 0);
  CHECK(!g.values[1].attrs.count("vk.constant_id"));  // -1: not a constant
  CHECK(!g.values[1].attrs.count("vk.mem_obj_id"));
  auto out = write(g, "trap_out");
  CHECK(flatc_json(out) == flatc_json(bin));
  // A graph built from scratch: non-constant tensors must carry -1 explicitly. flatc's JSON of
  // the buffer (without --defaults-json) prints only stored fields.
  Graph fresh;
  TensorType t{DataType::Float32, {2}, false, std::nullopt};
  fresh.add_value(Value{"a", t, std::nullopt, {}});
  fresh.add_value(Value{"b", t, std::nullopt, {}});
  fresh.inputs = {0};
  fresh.outputs = {1};
  fresh.add_node(Node{"Relu", "r", {0}, {1}, {}});
  auto fp = write(fresh, "fresh");
  Graph back = read(fp);
  CHECK(!back.values[0].attrs.count("vk.constant_id"));
  CHECK(!back.values[1].attrs.count("vk.constant_id"));
  CHECK(back.nodes[0].attrs.at("vk.name").get<std::string>() == "aten.relu.default");
}

TEST_CASE("vkgraph round-trip: operators the table does not know are native and verbatim") {
  std::string values = tensor_json("[1, 4]", -1, 0) + ",{\"value_type\": \"Int\", \"value\": {\"int_val\": 2}}," +
                       "{\"value_type\": \"ValueList\", \"value\": {\"items\": [3, 4]}}," + tensor_json("[1, 2]", -1, 1) +
                       "," + tensor_json("[1, 2]", -1, 2);
  std::string chain = "{\"node_id\": 1, \"name\": \"aten.some_future_op.default\", \"args\": [0, 1, 2]}";
  Graph g = round_trip(graph_json(values, chain, "[0]", "[3, 4]"), "unknown");
  REQUIRE(g.nodes.size() == 1);
  CHECK(g.nodes[0].op == "vk.aten.some_future_op.default");
  CHECK(g.nodes[0].outputs.size() == 2);  // the tensors of the last argument's ValueList
}

TEST_CASE("vkgraph round-trip: files flatc compiled from JSON laid out as ExecuTorch does rewrite byte for byte") {
  // flatc builds each table's strings and vectors in field order (OperatorCall: name, then
  // args), as ExecuTorch's serializer does through it; so must the writer, for golden-file
  // users who hash bytes. The corpus's VkGraphs (bare) and VH00 payloads, each read and written.
  int n = 0;
  for (const char* suite : {"vkgraph", "vkdelegate"})
    for (const auto& e : std::filesystem::directory_iterator(nnbridge::test::source_dir() / "tests/golden" / suite)) {
      const bool delegate = std::string(suite) == "vkdelegate";
      auto model = e.path() / (delegate ? "model.vkdelegate" : "model.vkgraph");
      if (!std::filesystem::exists(model)) continue;
      CAPTURE(model.string());
      SaveOptions o;
      if (!delegate) o.options["vkgraph.constants"] = "external";
      auto out = write(read(model, delegate), "bytes" + std::to_string(n++), delegate, o);
      CHECK(file_bytes(out) == file_bytes(model));
    }
  CHECK(n > 30);
}
