// The JSON form: exact round trips and errors that name the JSON path.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>

#include "nnbridge/error.h"
#include "nnbridge/json.h"
#include "support/paths.h"

using namespace nnbridge;

namespace {

std::vector<std::byte> pattern(std::size_t n, int seed) {
  std::vector<std::byte> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::byte((i * 31 + seed) & 0xFF);
  return v;
}

// Attr's defaulted == compares doubles with ==, under which NaN != NaN; compare floats by bits.
bool same_bits(double a, double b) { return std::bit_cast<uint64_t>(a) == std::bit_cast<uint64_t>(b) || (std::isnan(a) && std::isnan(b)); }

bool same_attr(const Attr& a, const Attr& b) {
  if (a.type() != b.type()) return false;
  if (a.is<double>()) return same_bits(a.get<double>(), b.get<double>());
  if (a.is<std::vector<double>>()) {
    auto& x = a.get<std::vector<double>>();
    auto& y = b.get<std::vector<double>>();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!same_bits(x[i], y[i])) return false;
    return true;
  }
  return a == b;
}

bool same_attrs(const AttrMap& a, const AttrMap& b) {
  if (a.size() != b.size()) return false;
  for (auto ia = a.begin(), ib = b.begin(); ia != a.end(); ++ia, ++ib)
    if (ia->first != ib->first || !same_attr(ia->second, ib->second)) return false;
  return true;
}

bool same_type(const TensorType& a, const TensorType& b) {
  if (a.dtype != b.dtype || a.shape != b.shape || a.unknown_rank != b.unknown_rank) return false;
  if (a.quantization.has_value() != b.quantization.has_value()) return false;
  if (!a.quantization) return true;
  const auto& qa = *a.quantization;
  const auto& qb = *b.quantization;
  if (qa.zero_points != qb.zero_points || qa.axis != qb.axis || qa.scales.size() != qb.scales.size()) return false;
  for (std::size_t i = 0; i < qa.scales.size(); ++i)
    if (!same_bits(qa.scales[i], qb.scales[i])) return false;
  return true;
}

// Field-by-field equality of two graphs (a test-local helper: the IR has no operator==).
void check_same(const Graph& a, const Graph& b) {
  CHECK(a.source_format == b.source_format);
  CHECK(same_attrs(a.metadata, b.metadata));
  CHECK(a.inputs == b.inputs);
  CHECK(a.outputs == b.outputs);
  REQUIRE(a.values.size() == b.values.size());
  for (std::size_t i = 0; i < a.values.size(); ++i) {
    INFO("values[" << i << "]");
    CHECK(a.values[i].name == b.values[i].name);
    CHECK(same_type(a.values[i].type, b.values[i].type));
    CHECK(a.values[i].constant.has_value() == b.values[i].constant.has_value());
    if (a.values[i].constant && b.values[i].constant) CHECK(*a.values[i].constant == *b.values[i].constant);
    CHECK(same_attrs(a.values[i].attrs, b.values[i].attrs));
  }
  REQUIRE(a.nodes.size() == b.nodes.size());
  for (std::size_t i = 0; i < a.nodes.size(); ++i) {
    INFO("nodes[" << i << "]");
    CHECK(a.nodes[i].op == b.nodes[i].op);
    CHECK(a.nodes[i].name == b.nodes[i].name);
    CHECK(a.nodes[i].inputs == b.nodes[i].inputs);
    CHECK(a.nodes[i].outputs == b.nodes[i].outputs);
    CHECK(same_attrs(a.nodes[i].attrs, b.nodes[i].attrs));
  }
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

Graph sample() {
  Graph g;
  g.source_format = "armnn";
  g.metadata["armnn.featureVersions.bindingIdsScheme"] = int64_t{1};
  g.metadata["note"] = "hello \"json\"";

  Value x{"x", {DataType::QAsymmU8, {1, -1, 3}, false, Quantization{{0.0039215686274509803}, {128}, std::nullopt}}, {}, {}};
  ValueId xid = g.add_value(x);
  Value w{"w", {DataType::QSymmS8, {2, 3}, false, Quantization{{0.1, 1.0 / 3.0}, {0, 0}, int64_t{0}}}, {}, {}};
  w.constant = Buffer::owned(pattern(6, 1));  // small: inline
  ValueId wid = g.add_value(w);
  Value big{"big", {DataType::Float32, {1000}, false, std::nullopt}, {}, {}};
  big.constant = Buffer::owned(pattern(4000, 2));  // large: sidecar
  big.attrs["armnn.bindingId"] = int64_t{-7};
  ValueId bid = g.add_value(big);
  Value big2{"big2", {DataType::Int8, {100}, false, std::nullopt}, {}, {}};
  big2.constant = Buffer::owned(pattern(100, 3));
  ValueId b2 = g.add_value(big2);
  Value empty{"empty", {DataType::Float32, {0, 3}, false, std::nullopt}, {}, {}};
  empty.constant = Buffer::owned({});
  g.add_value(empty);
  ValueId y = g.add_value(Value{"y", {DataType::Float32, {}, true, std::nullopt}, {}, {}});
  ValueId z = g.add_value(Value{"z", {DataType::Float32, {}, false, std::nullopt}, {}, {}});  // a scalar

  Node n;
  n.op = "armnn.StandIn";
  n.name = "every attr type";
  n.inputs = {xid, kNoValue, wid, bid, b2};
  n.outputs = {y};
  n.attrs["i"] = int64_t{-9007199254740993};  // not exactly representable as a double
  n.attrs["f"] = 0.1;
  n.attrs["f_int_valued"] = 2.0;
  n.attrs["f_tiny"] = 5e-324;
  n.attrs["f_neg_zero"] = -0.0;
  n.attrs["nan"] = kNaN;
  n.attrs["inf"] = kInf;
  n.attrs["ninf"] = -kInf;
  n.attrs["b"] = true;
  n.attrs["s"] = "NHWC";
  n.attrs["is"] = std::vector<int64_t>{1, -2, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()};
  n.attrs["fs"] = std::vector<double>{1.5, kNaN, -kInf, 1e300};
  n.attrs["bs"] = std::vector<bool>{true, false, true};
  n.attrs["ss"] = std::vector<std::string>{"a", "", "ü"};
  n.attrs["by"] = Bytes{{0, 1, 2, 255}};
  n.attrs["empty_is"] = std::vector<int64_t>{};
  n.attrs["empty_fs"] = std::vector<double>{};
  n.attrs["empty_bs"] = std::vector<bool>{};
  n.attrs["empty_ss"] = std::vector<std::string>{};
  n.attrs["empty_by"] = Bytes{};
  g.add_node(n);
  g.add_node(Node{"Relu", "", {y}, {z}, {}});
  g.inputs = {xid};
  g.outputs = {z, y};
  return g;
}

}  // namespace

TEST_CASE("JSON round trip, everything inline") {
  Graph g = sample();
  std::string text = to_json(g);
  Graph back = from_json(text);
  check_same(g, back);
  CHECK(to_json(back) == text);  // deterministic
  CHECK(text.find("\"format\": \"nnbridge-ir\"") != std::string::npos);
  CHECK(text.find("\"version\": 1") != std::string::npos);
  CHECK(std::isnan(back.nodes[0].attrs.at("nan").get<double>()));
  CHECK(std::signbit(back.nodes[0].attrs.at("f_neg_zero").get<double>()));
  CHECK(back.nodes[0].attrs.at("f_int_valued").is<double>());  // stays a float
}

TEST_CASE("JSON round trip with a sidecar: offsets aligned to 64 bytes") {
  Graph g = sample();
  JsonWriteOptions opt;
  opt.inline_limit = 64;
  opt.sidecar = "model.bin";
  std::vector<std::byte> side;
  std::string text = to_json(g, opt, &side);
  // big (4000 bytes) at 0; big2 (100 bytes) at the next multiple of 64: 4032.
  CHECK(side.size() == 4032 + 100);
  CHECK(text.find("\"sidecar\": \"model.bin\"") != std::string::npos);
  CHECK(text.find("\"offset\": 4032") != std::string::npos);
  Buffer sb = Buffer::owned(side);
  Graph back = from_json(text, sb);
  check_same(g, back);
  // Sidecar constants are views into the sidecar buffer, not copies.
  CHECK(back.values[2].constant->data() == sb.data());
  CHECK(back.values[3].constant->data() == sb.data() + 4032);
  CHECK(back.values[1].constant->size() == 6);  // inline
}

TEST_CASE("JSON files with a mapped sidecar") {
  Graph g = sample();
  auto dir = test::temp_dir();
  JsonWriteOptions opt;
  opt.inline_limit = 64;
  opt.sidecar = "weights.bin";
  write_json_file(g, dir / "m.json", opt);
  CHECK(std::filesystem::file_size(dir / "weights.bin") == 4132);
  Graph back = read_json_file(dir / "m.json");
  check_same(g, back);
  CHECK(back.values[2].constant->is_view());

  opt.sidecar = "../escape.bin";
  CHECK_THROWS_AS(write_json_file(g, dir / "n.json", opt), Error);
}

namespace {
// The Malformed error's place for a document, or "" when it parses.
std::string error_where(const std::string& text, ErrorCode want = ErrorCode::Malformed) {
  try {
    from_json(text, {}, "in.json");
  } catch (const Error& e) {
    CHECK(e.code() == want);
    CHECK(e.file() == "in.json");
    return e.where();
  }
  return "";
}
const std::string kHead = R"({"format": "nnbridge-ir", "version": 1, )";
}  // namespace

TEST_CASE("malformed JSON names the path") {
  CHECK(error_where("{not json").rfind("byte ", 0) == 0);
  // The 0-based offset of the byte the parser stopped at: ']' is byte 5 of "[1,2,]", 'x' byte 9
  // of "{\"a\": 1} x" (counted by hand); nlohmann's own exception ids stay out of the message.
  CHECK(error_where("[1,2,]") == "byte 5");
  CHECK(error_where("{\"a\": 1} x") == "byte 9");
  try {
    from_json("[1,2,]", {}, "in.json");
    FAIL("parsed");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::Syntax);
    CHECK(std::string(e.what()).find("json.exception") == std::string::npos);
    CHECK(std::string(e.what()).find("line 1, column 6") != std::string::npos);
  }
  CHECK(error_where(R"({"format": "onnx", "version": 1, "values": [], "nodes": [], "inputs": [], "outputs": []})") ==
        "format");
  CHECK(error_where(R"({"format": "nnbridge-ir", "version": 2, "values": [], "nodes": [], "inputs": [], "outputs": []})",
                    ErrorCode::Unsupported) == "version");
  CHECK(error_where(kHead + R"("values": [], "nodes": [], "inputs": []})") == "outputs");
  CHECK(error_where(kHead + R"("values": [{"name": "a", "type": {"dtype": "float32", "shape": [1]}},
      {"name": "b", "type": {"dtype": "float32", "shape": [2, "x"]}}], "nodes": [], "inputs": [], "outputs": []})") ==
        "values[1].type.shape[1]");
  CHECK(error_where(kHead + R"("values": [{"name": "a", "type": {"dtype": "float31", "shape": []}}],
      "nodes": [], "inputs": [], "outputs": []})") == "values[0].type.dtype");
  CHECK(error_where(kHead + R"("values": [{"name": "a", "type": {"dtype": "float32", "shape": []}}],
      "nodes": [{"op": "Relu", "inputs": [0], "outputs": [3]}], "inputs": [], "outputs": []})") == "nodes[0].outputs[0]");
  CHECK(error_where(kHead + R"("values": [], "nodes": [{"op": "Relu", "inputs": [], "outputs": [],
      "attrs": {"alpha": {"double": 1}}}], "inputs": [], "outputs": []})") == "nodes[0].attrs.alpha.double");
  CHECK(error_where(kHead + R"("values": [], "nodes": [{"op": "Relu", "inputs": [], "outputs": [],
      "attrs": {"alpha": {"float": "NaN?"}}}], "inputs": [], "outputs": []})") == "nodes[0].attrs.alpha.float");
  CHECK(error_where(kHead + R"("values": [{"name": "a", "type": {"dtype": "uint8", "shape": [4]},
      "constant": {"base64": "AB$="}}], "nodes": [], "inputs": [], "outputs": []})") == "values[0].constant.base64");
  CHECK(error_where(kHead + R"("sidecar": "s.bin", "values": [{"name": "a", "type": {"dtype": "uint8", "shape": [4]},
      "constant": {"offset": 0, "length": 4}}], "nodes": [], "inputs": [], "outputs": []})") == "values[0].constant");
  CHECK(error_where(kHead + R"("values": [], "nodes": [], "inputs": [], "outputs": [], "extra": 1})") == "extra");
  CHECK(error_where(kHead + R"("values": [], "nodes": [], "inputs": [null], "outputs": []})") == "inputs[0]");
  // A TFLite settings document (fb-json form) read as a graph: the message points to `nnbridge config`.
  try {
    (void)from_json(R"({"delegate": "XNNPACK", "xnnpack_settings": {"num_threads": 2}})");
    FAIL("read a settings document as a graph");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::MalformedOther);
    CHECK(e.where() == "delegate");
    CHECK(std::string(e.what()).find("nnbridge config") != std::string::npos);  // names the command to use
  }
}

TEST_CASE("truncated or corrupted documents give Error, never a crash") {
  const std::string text = to_json(sample(), JsonWriteOptions{4096, "", -1});
  for (std::size_t n = 0; n < text.size(); n += 7) {
    INFO("prefix of " << n << " bytes");
    CHECK_THROWS_AS(from_json(text.substr(0, n)), Error);
  }
  int parsed = 0, rejected = 0;
  for (std::size_t i = 0; i < text.size(); i += 5) {
    std::string bad = text;
    bad[i] = bad[i] == '1' ? 'x' : '1';
    try {
      from_json(bad);
      ++parsed;
    } catch (const Error&) {
      ++rejected;
    }
  }
  CHECK(rejected > 0);
  CHECK(parsed + rejected > 0);
  // nlohmann reports a number out of the double range as out_of_range, not parse_error.
  CHECK_THROWS_AS(from_json(kHead + R"("values": [{"name": "a", "type": {"dtype": "float32", "shape": [1e400]}}],
      "nodes": [], "inputs": [], "outputs": []})"),
                  Error);
}

TEST_CASE("JSON nested deeper than kJsonMaxDepth is Error(Malformed), at any depth, never a crash") {
  // Oracle: the documented limit (nnbridge/json.h). 50k levels overflowed the stack before.
  const auto nested_metadata = [](std::size_t levels) {
    return kHead + R"("metadata": {"m": {"ints": )" + std::string(levels, '[') + std::string(levels, ']') +
           R"(}}, "values": [], "nodes": [], "inputs": [], "outputs": []})";
  };
  for (std::size_t levels : {std::size_t{kJsonMaxDepth}, std::size_t{50000}}) {
    INFO(levels << " levels");
    try {
      (void)from_json(nested_metadata(levels), {}, "deep.json");
      FAIL("expected an error");
    } catch (const Error& e) {
      CHECK(e.id() == ErrorId::DepthLimit);
      CHECK(e.file() == "deep.json");
    }
  }
  // The form's own depth passes the bound: metadata.m.ints is an array of ints at depth 4.
  CHECK(from_json(nested_metadata(1)).metadata.at("m").get<std::vector<int64_t>>().empty());
}

TEST_CASE("JSON with 100k metadata keys reads and writes back unchanged") {
  // Oracle: the keys written (k00000 ... k99999, values = their index). ordered_json made both
  // directions quadratic in the key count; this size took tens of seconds then (bench/ measures time).
  Graph g;
  for (int i = 0; i < 100000; ++i) {
    char key[16];
    std::snprintf(key, sizeof key, "k%05d", i);
    g.metadata.emplace(key, Attr(int64_t{i}));
  }
  const std::string text = to_json(g, JsonWriteOptions{4096, "", -1});
  const Graph back = from_json(text);
  REQUIRE(back.metadata.size() == 100000);
  CHECK(back.metadata.at("k00000").get<int64_t>() == 0);
  CHECK(back.metadata.at("k54321").get<int64_t>() == 54321);
  CHECK(to_json(back, JsonWriteOptions{4096, "", -1}) == text);
  CHECK(text.find("\"k00001\"") < text.find("\"k00002\""));  // keys in the map's (sorted) order
}
