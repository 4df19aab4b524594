// Malformed and inconsistent VkGraphs and payloads: each is a clear Error naming the place in the
// file, never a crash or a misread, with the identifier docs/errors.md gives what is wrong.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>

#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "support/paths.h"
#include "util.h"
#include "vkgraph/schema_generated.h"

using namespace nnbridge;
using namespace nnbridge::test::vk;

namespace {

struct Failure {
  ErrorId id;
  std::string where, message;
};

Failure failure(const std::vector<uint8_t>& bytes, bool delegate = false, const LoadOptions& o = {}) {
  try {
    read_bytes(bytes, delegate, o);
  } catch (const Error& e) {
    return {e.id(), e.where(), e.message()};
  }
  FAIL("accepted");
  return {};
}

std::vector<uint8_t> compiled(const std::string& json, const std::string& stem) {
  auto p = flatc_binary(json, stem);
  REQUIRE(!p.empty());
  return file_bytes(p);
}

const std::string kAdd = "{\"name\": \"aten.add.Tensor\", \"args\": [0, 1, 2, 3]}";
std::string add_values(int const_id = -1, const std::string& dims = "[2, 3]") {
  return tensor_json(dims, -1, 0) + "," + tensor_json(dims, const_id) + ",{\"value_type\": \"Int\", \"value\": {\"int_val\": 1}}," +
         tensor_json(dims, -1, 1);
}

}  // namespace

TEST_CASE("vkgraph malformed: identifier, size, truncation") {
  auto good = compiled(graph_json(add_values(), kAdd, "[0]", "[3]"), "good");
  CHECK(failure({1, 2, 3}).id == ErrorId::Truncated);
  auto no_id = good;
  no_id[4] = 'X';
  CHECK(failure(no_id).where == "(file identifier)");
  CHECK(failure(no_id).id == ErrorId::BadIdentifier);
  for (std::size_t cut : {good.size() / 2, good.size() - 9, std::size_t{12}}) {
    CAPTURE(cut);
    auto t = good;
    t.resize(cut);
    CHECK(failure(t).id == ErrorId::Truncated);
  }
  // The root offset (bytes 0..3) past the end of a whole file.
  auto root = good;
  root[0] = uint8_t(good.size() + 4), root[1] = uint8_t((good.size() + 4) >> 8), root[2] = root[3] = 0;
  CHECK(failure(root).id == ErrorId::Truncated);
  // A vtable size byte changed to an odd number: bytes that do not verify, all inside the file.
  auto odd = good;
  const auto* g = reinterpret_cast<const flatbuffers::Table*>(::vkgraph::GetVkGraph(good.data()));
  const std::size_t table = static_cast<std::size_t>(reinterpret_cast<const uint8_t*>(g) - good.data());
  int32_t back;
  std::memcpy(&back, good.data() + table, 4);
  odd[static_cast<std::size_t>(int64_t(table) - back)] |= 1;
  CHECK(failure(odd).id == ErrorId::VerifyFailed);
}

TEST_CASE("vkgraph malformed: input_ids / output_ids naming a value that is not a tensor") {
  // Oracle: ExecuTorch's Vulkan runtime (VulkanBackend.cpp: build_graph binds a VkTensor or a
  // SymInt as an input and a VkTensor as an output, execute() throws on anything else); the
  // blobs are compiled by flatc from hand-written JSON. Value 2 of add_values() is an Int.
  Failure in = failure(compiled(graph_json(add_values(), kAdd, "[0, 2]", "[3]"), "int_in"));
  CHECK(in.id == ErrorId::TypeMismatch);
  CHECK(in.where == "input_ids[1]");
  CHECK(in.message.find("Int") != std::string::npos);
  Failure out = failure(compiled(graph_json(add_values(), kAdd, "[0]", "[3, 2]"), "int_out"));
  CHECK(out.id == ErrorId::TypeMismatch);
  CHECK(out.where == "output_ids[1]");
  // A SymInt input is one the runtime takes (it sets the symbolic integer): it still loads.
  const std::string sym = add_values() + ",{\"value_type\": \"SymInt\", \"value\": {\"value\": 3}}";
  CHECK_NOTHROW(read_bytes(compiled(graph_json(sym, kAdd, "[0, 4]", "[3]"), "sym_in"), false, {}));
  Failure sym_out = failure(compiled(graph_json(sym, kAdd, "[0]", "[4]"), "sym_out"));
  CHECK(sym_out.where == "output_ids[0]");
  CHECK(sym_out.id == ErrorId::TypeMismatch);
}

TEST_CASE("vkgraph malformed: value indices out of range") {
  auto args = compiled(graph_json(add_values(), "{\"name\": \"aten.add.Tensor\", \"args\": [0, 1, 2, 7]}", "[0]", "[3]"), "a");
  Failure f = failure(args);
  CHECK(f.id == ErrorId::DanglingReference);
  CHECK(f.where == "chain[0].args[3]");
  auto neg = compiled(graph_json(add_values(), "{\"name\": \"aten.add.Tensor\", \"args\": [0, -1, 2, 3]}", "[0]", "[3]"), "n");
  CHECK(failure(neg).where == "chain[0].args[1]");
  CHECK(failure(compiled(graph_json(add_values(), kAdd, "[4]", "[3]"), "i")).where == "input_ids[0]");
  CHECK(failure(compiled(graph_json(add_values(), kAdd, "[0]", "[3, 9]"), "o")).where == "output_ids[1]");
  Failure twice = failure(compiled(graph_json(add_values(), kAdd, "[0, 0]", "[3]"), "d"));
  CHECK(twice.where == "input_ids[1]");
  CHECK(twice.id == ErrorId::DuplicateName);
  auto list = compiled(graph_json(tensor_json("[1]") + ",{\"value_type\": \"ValueList\", \"value\": {\"items\": [0, 2]}}",
                                  "", "[0]", "[]"), "l");
  CHECK(failure(list).where == "values[1].value.items[1]");
  CHECK(failure(list).id == ErrorId::DanglingReference);
  Failure c = failure(compiled(graph_json(add_values(3), kAdd, "[0]", "[3]", "{\"offset\": 0, \"length\": 24}"), "c"));
  CHECK(c.where == "values[1].value.constant_id");
  CHECK(c.id == ErrorId::DanglingReference);
}

TEST_CASE("vkgraph malformed: union kinds outside 1..11 and enum values the schema does not define") {
  // Each is an enum value the schema does not define (docs/errors.md: malformed.206).
  Failure none = failure(compiled("{\"values\": [{\"value_type\": \"NONE\"}]}", "none"));
  CHECK(none.where == "values[0].value_type");
  CHECK(none.id == ErrorId::BadEncoding);
  // Kind 12: compile a SymInt, then patch its type tag.
  auto b = compiled("{\"values\": [{\"value_type\": \"SymInt\", \"value\": {\"value\": 3}}]}", "tag");
  auto* v = reinterpret_cast<const flatbuffers::Table*>(::vkgraph::GetVkGraph(b.data())->values()->Get(0));
  auto field = v->GetOptionalFieldOffset(::vkgraph::VkValue::VT_VALUE_TYPE);
  REQUIRE(field != 0);
  b[static_cast<std::size_t>(reinterpret_cast<const uint8_t*>(v) - b.data()) + field] = 12;
  Failure f = failure(b);
  CHECK(f.where == "values[0].value_type");
  CHECK(f.id == ErrorId::BadEncoding);
  CHECK(f.message.find("12") != std::string::npos);

  auto tensor = [](const std::string& fields) {
    return "{\"values\": [{\"value_type\": \"VkTensor\", \"value\": {\"dims\": [1], \"constant_id\": -1, " + fields + "}}]}";
  };
  CHECK(failure(compiled(tensor("\"datatype\": 8"), "e1")).where == "values[0].value.datatype");
  CHECK(failure(compiled(tensor("\"datatype\": 8"), "e1")).id == ErrorId::BadEncoding);
  // UNSET is defined, but only as a staging type: a value outside the field's domain.
  CHECK(failure(compiled(tensor("\"datatype\": \"UNSET\""), "e2")).id == ErrorId::AttributeValue);
  CHECK(failure(compiled(tensor("\"datatype\": \"INT8\", \"staging_datatype\": 9"), "e3")).where ==
        "values[0].value.staging_datatype");
  CHECK(failure(compiled(tensor("\"datatype\": \"INT8\", \"storage_type\": 3"), "e4")).where == "values[0].value.storage_type");
  CHECK(failure(compiled(tensor("\"datatype\": \"INT8\", \"memory_layout\": 7"), "e5")).where ==
        "values[0].value.memory_layout");  // 7 is the one unassigned layout
  CHECK(failure(compiled("{\"memory_layout_override\": 10}", "e6")).where == "memory_layout_override");
  CHECK(failure(compiled("{\"memory_layout_override\": 10}", "e6")).id == ErrorId::BadEncoding);
}

TEST_CASE("vkgraph malformed: ExecuTorch 0.2 blobs (OperatorCall without node_id) are detected, never misread") {
  std::string values = tensor_json("[2]", -1, 0) + "," + tensor_json("[2]", -1, 1);
  std::string legacy = graph_json(values, "{\"name\": \"aten.relu.default\", \"args\": [0, 1]}", "[0]", "[1]");
  // The legacy schema has no staging_datatype: drop it from the tensors.
  for (auto pos = legacy.find(", \"staging_datatype\": \"FLOAT32\""); pos != std::string::npos;
       pos = legacy.find(", \"staging_datatype\": \"FLOAT32\""))
    legacy.erase(pos, std::string(", \"staging_datatype\": \"FLOAT32\"").size());
  auto p = flatc_binary(legacy, "legacy", legacy_schema());
  REQUIRE(!p.empty());
  Failure f = failure(file_bytes(p));
  CHECK(f.id == ErrorId::Version);  // a schema version nnbridge does not read
  CHECK(f.where == "chain[0]");
  CHECK(f.message.find("aten.relu.default") != std::string::npos);
  // The same graph in today's layout reads.
  auto cur = compiled(graph_json(values, "{\"node_id\": 5, \"name\": \"aten.relu.default\", \"args\": [0, 1]}", "[0]", "[1]"), "cur");
  CHECK(read_bytes(cur).nodes.at(0).op == "Relu");
  // A current call without args (which no writer produces) is malformed, not legacy.
  auto noargs = compiled(graph_json(values, "{\"node_id\": 5, \"name\": \"aten.relu.default\"}", "[0]", "[1]"), "noargs");
  Failure g = failure(noargs);
  CHECK(g.id == ErrorId::MalformedOther);
  CHECK(g.where == "chain[0].args");
}

TEST_CASE("vkdelegate malformed: constant extents, with overflow") {
  auto fb = [&](const std::string& dims, const std::string& constants) {
    return compiled(graph_json(add_values(0, dims), kAdd, "[0]", "[3]", constants), "ext");
  };
  std::vector<uint8_t> seg32(32, 0);
  // 24 bytes needed, 32 there: fine.
  CHECK_NOTHROW(read_bytes(payload(fb("[2, 3]", "{\"offset\": 0, \"length\": 24}"), seg32), true));
  // At offset 16 the tensor runs past the segment.
  Failure f = failure(payload(fb("[2, 3]", "{\"offset\": 16, \"length\": 24}"), seg32), true);
  CHECK(f.id == ErrorId::Shape);  // the tensor's shape needs more bytes than are there
  CHECK(f.where == "flatbuffer.values[1].value");
  // An offset beyond the segment refers to no bytes.
  Failure beyond = failure(payload(fb("[2, 3]", "{\"offset\": 48, \"length\": 24}"), seg32), true);
  CHECK(beyond.where == "flatbuffer.constants[0].offset");
  CHECK(beyond.id == ErrorId::DanglingReference);
  // 2^48 elements * 4 bytes: fits 64 bits, far past the segment.
  CHECK(failure(payload(fb("[65536, 65536, 65536]", "{\"offset\": 0, \"length\": 24}"), seg32), true).where ==
        "flatbuffer.values[1].value");
  // (2^32 - 1)^3 elements: the count itself overflows.
  Failure o = failure(payload(fb("[4294967295, 4294967295, 4294967295]", "{\"offset\": 0, \"length\": 24}"), seg32), true);
  CHECK(o.where == "flatbuffer.values[0].value.dims");  // every tensor has these dims
  // A segment entry that no tensor uses must still lie inside the segment.
  std::string orphan = graph_json(add_values(0) + "," + tensor_json("[1]"), kAdd, "[0]", "[3]",
                                  "{\"offset\": 0, \"length\": 24}, {\"offset\": 32, \"length\": 8}");
  CHECK(failure(payload(compiled(orphan, "orphan"), seg32), true).where == "flatbuffer.constants[1]");
  CHECK(failure(payload(compiled(orphan, "orphan"), seg32), true).id == ErrorId::DanglingReference);
  // A bad flatbuffer inside a payload is located inside the flatbuffer.
  auto bad = fb("[2, 3]", "{\"offset\": 0, \"length\": 24}");
  bad[4] = 'Z';
  CHECK(failure(payload(bad, seg32), true).where == "flatbuffer.(file identifier)");
  CHECK(failure(payload(bad, seg32), true).id == ErrorId::BadIdentifier);
}

TEST_CASE("vkdelegate: named-data constants stay external unless a folder resolves them") {
  std::string consts = "{\"offset\": 18446744073709551615, \"length\": 24, \"named_key\": \"abc123\"}";
  auto bytes = payload(compiled(graph_json(add_values(0), kAdd, "[0]", "[3]", consts), "named"), {});
  Graph g = read_bytes(bytes, true);
  CHECK(!g.values[1].constant);
  auto dir = test::temp_dir() / "named";
  std::filesystem::create_directories(dir);
  LoadOptions o;
  o.options["vkdelegate.named_data"] = dir.string();
  CHECK(failure(bytes, true, o).id == ErrorId::IoOpen);  // the key's file does not exist
  std::vector<uint8_t> data(24);
  for (int i = 0; i < 24; ++i) data[i] = uint8_t(i);
  put_file(dir / "abc123", data);
  Graph r = read_bytes(bytes, true, o);
  REQUIRE(r.values[1].constant);
  CHECK(r.values[1].constant->size() == 24);
  CHECK(std::to_integer<int>(r.values[1].constant->data()[23]) == 23);
  // Writing keeps the entry as named data (offset 0xFFFFFFFFFFFFFFFF, the key), no bytes inline.
  auto out = write(r, "named_out", true);
  Graph back = read(out, true);
  CHECK(back.metadata.at("vk.constants.offset").get<std::vector<int64_t>>() == std::vector<int64_t>{-1});
  CHECK(back.metadata.at("vk.constants.named_key").get<std::vector<std::string>>() == std::vector<std::string>{"abc123"});
}

TEST_CASE("vkgraph errors name the file through load()") {
  auto p = test::temp_dir() / "bad.vkgraph";
  auto b = compiled(graph_json(add_values(), "{\"name\": \"aten.add.Tensor\", \"args\": [0, 1, 2, 9]}", "[0]", "[3]"), "bad");
  put_file(p, b);
  try {
    load(p);
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.file() == p.string());
    CHECK(e.where() == "chain[0].args[3]");
    CHECK(e.id() == ErrorId::DanglingReference);
  }
}
