// The `json` format as a file format: sniffing, the sidecar for large constants, options,
// errors naming the file. (The JSON form's own field-by-field round-trip is tested in core.)
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>

#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "support/paths.h"

using namespace nnbridge;
namespace fs = std::filesystem;

namespace {

bool sniff_text(const std::string& s) {
  return find_format("json")->sniff(std::as_bytes(std::span(s.data(), s.size())));
}

void write_text(const fs::path& p, const std::string& s) {
  std::ofstream f(p, std::ios::binary);
  f << s;
}

std::string read_text(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

/// y = x + w with x: float32 [1, n] and w a constant float32 [n] holding 0.5 * i.
Graph add_graph(int n) {
  Graph g;
  Value x;
  x.name = "x";
  x.type.dtype = DataType::Float32;
  x.type.shape = {1, n};
  Value w;
  w.name = "w";
  w.type.dtype = DataType::Float32;
  w.type.shape = {n};
  std::vector<float> data(n);
  for (int i = 0; i < n; ++i) data[i] = 0.5f * static_cast<float>(i);
  w.constant = Buffer::copy_of(std::as_bytes(std::span(data)));
  Value y = x;
  y.name = "y";
  ValueId xi = g.add_value(std::move(x)), wi = g.add_value(std::move(w)), yi = g.add_value(std::move(y));
  Node add;
  add.op = "Add";
  add.name = "add0";
  add.inputs = {xi, wi};
  add.outputs = {yi};
  g.add_node(std::move(add));
  g.inputs = {xi};
  g.outputs = {yi};
  return g;
}

float constant_at(const Graph& g, std::string_view name, std::size_t i) {
  auto id = g.find_value(name);
  REQUIRE(id.has_value());
  const auto& c = g.values[*id].constant;
  REQUIRE(c.has_value());
  REQUIRE(c->size() >= (i + 1) * sizeof(float));
  float f;
  std::memcpy(&f, c->data() + i * sizeof(float), sizeof f);
  return f;
}

}  // namespace

TEST_CASE("io json sniff: the top-level \"format\" member decides") {
  CHECK(sniff_text(R"({"format": "nnbridge-ir"})"));
  CHECK(sniff_text("\xEF\xBB\xBF \n\t{ \"format\" : \"nnbridge-ir\", \"values\": [] }"));
  // The marker after a large nested member is still found.
  CHECK(sniff_text(R"({"a": {"b": [1, 2.5, null, true, {"format": "x"}]}, "format": "nnbridge-ir"})"));
  // Only the top level counts.
  CHECK_FALSE(sniff_text(R"({"values": [{"format": "nnbridge-ir"}], "format": "other"})"));
  CHECK_FALSE(sniff_text(R"({"values": {"format": "nnbridge-ir"}})"));
  CHECK_FALSE(sniff_text(R"([{"format": "nnbridge-ir"}])"));
  CHECK_FALSE(sniff_text(R"({"format": 1})"));
  CHECK_FALSE(sniff_text(R"({"format": ["nnbridge-ir"]})"));
  CHECK_FALSE(sniff_text(R"({"format": "nnbri)"));
  CHECK_FALSE(sniff_text(R"({"format")"));
  CHECK_FALSE(sniff_text(""));
  CHECK_FALSE(sniff_text(std::string("\x10\x00\x00\x00{\"format\"", 14)));
}

TEST_CASE("io json: save then load gives the same graph, constants inline when small") {
  fs::path dir = test::temp_dir();
  Graph g = add_graph(4);
  save(g, dir / "small.json");
  CHECK_FALSE(fs::exists(dir / "small.bin"));
  CHECK(detect_format(dir / "small.json") == "json");
  Graph r = load(dir / "small.json");
  CHECK(r.source_format == "json");
  REQUIRE(r.values.size() == 3);
  REQUIRE(r.nodes.size() == 1);
  CHECK(r.nodes[0].op == "Add");
  CHECK(r.nodes[0].name == "add0");
  CHECK(r.inputs == std::vector<ValueId>{*r.find_value("x")});
  CHECK(r.outputs == std::vector<ValueId>{*r.find_value("y")});
  CHECK(r.values[*r.find_value("x")].type.shape == std::vector<int64_t>{1, 4});
  CHECK(constant_at(r, "w", 3) == 1.5f);
}

TEST_CASE("io json: a large constant goes to <stem>.bin next to the JSON") {
  fs::path dir = test::temp_dir();
  const int n = 20000;  // 80000 bytes, far above the 4096-byte inline limit
  save(add_graph(n), dir / "big.json");
  REQUIRE(fs::exists(dir / "big.bin"));
  CHECK(fs::file_size(dir / "big.bin") >= n * sizeof(float));
  CHECK(fs::file_size(dir / "big.json") < n * sizeof(float));  // the data is not inline
  Graph r = load(dir / "big.json");
  CHECK(constant_at(r, "w", 0) == 0.0f);
  CHECK(constant_at(r, "w", n - 1) == 0.5f * (n - 1));
  CHECK(r.values[*r.find_value("w")].constant->size() == n * sizeof(float));

  // Moved together, the pair still loads: the sidecar is found next to the JSON.
  fs::create_directories(dir / "moved");
  fs::rename(dir / "big.json", dir / "moved" / "big.json");
  fs::rename(dir / "big.bin", dir / "moved" / "big.bin");
  CHECK(constant_at(load(dir / "moved" / "big.json"), "w", 7) == 3.5f);

  // Without its sidecar the JSON is refused, naming the file.
  fs::remove(dir / "moved" / "big.bin");
  try {
    load(dir / "moved" / "big.json");
    FAIL("loaded a JSON file whose sidecar is missing");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoOpen);  // the sidecar's own identifier, kept
    CHECK(e.file() == (dir / "moved" / "big.json").string());
    CHECK(e.where() == "sidecar");
  }
}

TEST_CASE("io json: options choose inlining, unknown options are refused") {
  fs::path dir = test::temp_dir();
  SaveOptions inline_all;
  inline_all.options["json.inline_limit"] = "1000000";
  save(add_graph(20000), dir / "inline.json", inline_all);
  CHECK_FALSE(fs::exists(dir / "inline.bin"));
  CHECK(constant_at(load(dir / "inline.json"), "w", 19999) == 0.5f * 19999);

  SaveOptions one_line;
  one_line.options["json.indent"] = "-1";
  save(add_graph(2), dir / "line.json", one_line);
  std::string text = read_text(dir / "line.json");
  CHECK(text.find('\n') >= text.size() - 1);

  SaveOptions bad;
  bad.options["json.inline_limit"] = "lots";
  CHECK_THROWS_AS(save(add_graph(2), dir / "bad.json", bad), Error);
  SaveOptions unknown;
  unknown.options["json.nosuch"] = "1";
  CHECK_THROWS_AS(save(add_graph(2), dir / "bad.json", unknown), Error);
  CHECK_FALSE(fs::exists(dir / "bad.json"));
}

TEST_CASE("io json: an output named .bin does not collide with its own sidecar") {
  fs::path dir = test::temp_dir();
  SaveOptions as_json;
  as_json.format = "json";
  save(add_graph(20000), dir / "model.bin", as_json);
  REQUIRE(fs::exists(dir / "model.bin.bin"));
  LoadOptions lo;
  lo.format = "json";
  // The document names its sidecar, so the reader finds model.bin.bin too.
  CHECK(constant_at(load(dir / "model.bin", lo), "w", 2) == 1.0f);
}

TEST_CASE("io json: malformed documents are refused with the file named") {
  fs::path dir = test::temp_dir();
  write_text(dir / "bad.json", R"({"format": "nnbridge-ir", "values": 5})");
  try {
    load(dir / "bad.json");
    FAIL("loaded a malformed document");
  } catch (const Error& e) {
    CHECK(e.file() == (dir / "bad.json").string());
  }
  write_text(dir / "trunc.json", R"({"format": "nnbridge-ir", "values": [)");
  CHECK_THROWS_AS(load(dir / "trunc.json"), Error);
}

TEST_CASE("io json: a .bin beside the output that is not its sidecar is refused unless json.overwrite_sidecar") {
  // Oracle: the foreign file's own bytes, written here, and w[i] = 0.5 * i (add_graph).
  fs::path dir = test::temp_dir();
  write_text(dir / "model.bin", "OpenVINO weights");
  try {
    save(add_graph(20000), dir / "model.json");  // 80000 bytes of w: above the 4096-byte inline limit
    FAIL("replaced a foreign model.bin");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::IoWrite);
    CHECK(e.where() == "sidecar");
    CHECK(std::string(e.what()).find((dir / "model.bin").string()) != std::string::npos);
    CHECK(std::string(e.what()).find("json.overwrite_sidecar=true") != std::string::npos);  // names the option
  }
  CHECK(read_text(dir / "model.bin") == "OpenVINO weights");
  CHECK_FALSE(fs::exists(dir / "model.json"));
  // A graph whose constants all inline needs no sidecar: written, model.bin untouched.
  save(add_graph(2), dir / "model.json");
  CHECK(read_text(dir / "model.bin") == "OpenVINO weights");
  // That model.json names no sidecar, so model.bin is still not its own.
  CHECK_THROWS_AS(save(add_graph(20000), dir / "model.json"), Error);
  SaveOptions bad;
  bad.options["json.overwrite_sidecar"] = "yes";
  CHECK_THROWS_AS(save(add_graph(20000), dir / "model.json", bad), Error);
  CHECK(read_text(dir / "model.bin") == "OpenVINO weights");

  SaveOptions force;
  force.options["json.overwrite_sidecar"] = "true";
  save(add_graph(20000), dir / "model.json", force);
  CHECK(read_text(dir / "model.bin") != "OpenVINO weights");
  CHECK(constant_at(load(dir / "model.json"), "w", 7) == 3.5f);
  // Rewriting the pair in place (model.json names model.bin), from constants viewing the old
  // model.bin: no option needed, and the result reads the same.
  Graph back = load(dir / "model.json");
  save(back, dir / "model.json");
  CHECK(constant_at(load(dir / "model.json"), "w", 19999) == 0.5f * 19999);
}
