// ONNX-style case folders (model + test_data_set_<k>/input_<i>.pb, output_<j>.pb): TensorProto
// files written by protoc --encode from text form, expected values by hand (Arm NN 20.08's
// Addition network from tests/golden/armnn/add_float: y = a + b elementwise, shape [1, 2, 2, 3]).
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/paths.h"
#include "support/shell_cli.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

/// Encodes the TensorProto text `text` with protoc into `out`.
void encode(const fs::path& out, const std::string& text) {
  fs::create_directories(out.parent_path());
  const fs::path txt = out.string() + ".txt";
  std::ofstream(txt) << text;
  const fs::path proto = NNBRIDGE_ONNX_PROTO;  // ONNX's own onnx.proto (libonnx-dev)
  const std::string cmd = std::string(NNBRIDGE_PROTOC) + " --encode=onnx.TensorProto -I " +
                          q(proto.parent_path()) + " " + q(proto) + " < " + q(txt) + " > " + q(out);
  REQUIRE(std::system(cmd.c_str()) == 0);
  fs::remove(txt);
}

const char* kDims = "data_type: 1 dims: 1 dims: 2 dims: 2 dims: 3 ";

/// float_data with values first, first + step, ...
std::string floats(float first, float step) {
  std::string s = kDims;
  for (int i = 0; i < 12; ++i) s += "float_data: " + std::to_string(first + step * i) + " ";
  return s;
}

/// The same through raw_data: twelve little-endian float32 0.5 (0x3F000000).
std::string raw_halves() {
  std::string s = std::string(kDims) + "raw_data: \"";
  for (int i = 0; i < 12; ++i) s += "\\000\\000\\000?";
  return s + "\"";
}

fs::path onnx_case() {
  const fs::path d = temp_dir() / "suite" / "add";
  fs::create_directories(d);
  fs::copy_file(source_dir() / "tests/golden/armnn/add_float/model.armnn", d / "model.armnn");
  // Set 0: a = 0, 1, ..., 11 (float_data); b = 0.5 everywhere (raw_data); y = i + 0.5.
  encode(d / "test_data_set_0" / "input_0.pb", floats(0, 1));
  encode(d / "test_data_set_0" / "input_1.pb", raw_halves());
  encode(d / "test_data_set_0" / "output_0.pb", floats(0.5f, 1));
  // Set 1: a = -3, -2.5, ..., b = 0.5; y = -2.5 + 0.5 i.
  encode(d / "test_data_set_1" / "input_0.pb", floats(-3, 0.5f));
  encode(d / "test_data_set_1" / "input_1.pb", raw_halves());
  encode(d / "test_data_set_1" / "output_0.pb", floats(-2.5f, 0.5f));
  return d;
}

}  // namespace

TEST_CASE("conformance onnx-style: inputs by position, every data set run and compared") {
  const fs::path d = onnx_case();
  Result r = cli("conformance " + q(d.parent_path()) + " --json");
  CAPTURE(r.out);
  REQUIRE(r.rc == 0);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["cases"].size() == 1);
  CHECK(j["cases"][0]["name"] == "suite/add");
  CHECK(j["cases"][0]["checks"] ==
        nlohmann::json::array({"decode", "roundtrip", "run:cpu:test_data_set_0", "run:cpu:test_data_set_1"}));
}

TEST_CASE("conformance onnx-style: a wrong expected value fails naming the data set") {
  const fs::path d = onnx_case();
  encode(d / "test_data_set_1" / "output_0.pb", floats(-2.5f, 0.25f));  // not a + b
  Result r = cli("conformance " + q(d.parent_path()));
  CAPTURE(r.out);
  CHECK(r.rc == 1);
  CHECK(r.out.find("FAIL suite/add: run:cpu:test_data_set_1: output \"y\": values differ") != std::string::npos);
}

TEST_CASE("conformance onnx-style: unreadable or inconsistent TensorProto files fail naming the file") {
  const fs::path d = onnx_case();
  std::ofstream(d / "test_data_set_0" / "input_0.pb", std::ios::binary) << "\xff\xff\xff";
  Result r = cli("conformance " + q(d.parent_path()));
  CAPTURE(r.out);
  CHECK(r.rc == 1);
  CHECK(r.out.find("Malformed: ") != std::string::npos);
  CHECK(r.out.find("test_data_set_0/input_0.pb: not an ONNX TensorProto") != std::string::npos);

  // Eleven elements for dims needing twelve.
  encode(d / "test_data_set_0" / "input_0.pb", std::string(kDims) + "raw_data: \"" + std::string(44, 'A') + "\"");
  r = cli("conformance " + q(d.parent_path()));
  CAPTURE(r.out);
  CHECK(r.out.find("input_0.pb: raw_data: holds 44 bytes of data, the dims need 12 elements of 4 bytes") !=
        std::string::npos);
  // A missing input file.
  fs::remove(d / "test_data_set_0" / "input_0.pb");
  r = cli("conformance " + q(d.parent_path()));
  CHECK(r.out.find("no file for graph input 0") != std::string::npos);
}
