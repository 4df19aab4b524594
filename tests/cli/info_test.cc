// `nnbridge info --json` and `check` on the real Arm NN samples; the expected inputs and
// outputs come from the .npy files Arm NN 20.08 wrote next to each model, named after the
// input and output layers.
#include <doctest/doctest.h>

#include <cstring>
#include <nlohmann/json.hpp>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

struct NpyHeader {
  std::string descr;
  std::vector<int64_t> shape;
};

/// The dtype and shape from a .npy header (NumPy format spec: magic, version, header length,
/// then a Python dict literal with 'descr', 'fortran_order' and 'shape').
NpyHeader read_npy_header(const fs::path& p) {
  const std::string bytes = read_file(p);
  REQUIRE(bytes.size() >= 10);
  REQUIRE(bytes.compare(0, 6, "\x93NUMPY") == 0);
  const std::size_t len_size = bytes[6] == 1 ? 2 : 4;
  std::size_t header_len = 0;
  for (std::size_t i = 0; i < len_size; ++i)
    header_len |= static_cast<std::size_t>(static_cast<unsigned char>(bytes[8 + i])) << (8 * i);
  const std::string header = bytes.substr(8 + len_size, header_len);
  NpyHeader h;
  auto d = header.find("'descr':");
  REQUIRE(d != std::string::npos);
  auto q1 = header.find('\'', d + 8);
  auto q2 = header.find('\'', q1 + 1);
  h.descr = header.substr(q1 + 1, q2 - q1 - 1);
  auto s = header.find("'shape':");
  REQUIRE(s != std::string::npos);
  auto open = header.find('(', s), close = header.find(')', s);
  std::string dims = header.substr(open + 1, close - open - 1);
  std::size_t pos = 0;
  while (pos < dims.size()) {
    while (pos < dims.size() && (dims[pos] == ' ' || dims[pos] == ',')) ++pos;
    if (pos >= dims.size()) break;
    std::size_t used = 0;
    h.shape.push_back(std::stoll(dims.substr(pos), &used));
    pos += used;
  }
  return h;
}

/// nnbridge dtype names a NumPy descr can stand for (quantized data is stored as its integer type).
bool dtype_matches(const std::string& descr, const std::string& dtype) {
  const std::string kind = descr.substr(1);
  if (kind == "f4") return dtype == "float32";
  if (kind == "f2") return dtype == "float16";
  if (kind == "i4") return dtype == "int32";
  if (kind == "u1") return dtype == "uint8" || dtype == "qasymmu8";
  if (kind == "i1") return dtype == "int8" || dtype == "qasymms8" || dtype == "qsymms8";
  if (kind == "i2") return dtype == "int16" || dtype == "qsymms16";
  if (kind == "b1") return dtype == "bool";
  return false;
}

void check_tensors(const nlohmann::json& listed, const fs::path& npy_dir) {
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(npy_dir)) {
    if (e.path().extension() != ".npy") continue;
    ++files;
    const std::string name = e.path().stem().string();
    CAPTURE(name);
    const nlohmann::json* found = nullptr;
    for (const auto& t : listed)
      if (t.at("name") == name) found = &t;
    REQUIRE_MESSAGE(found != nullptr, "no tensor named after the layer: ", listed.dump());
    NpyHeader h = read_npy_header(e.path());
    CHECK(found->at("shape").get<std::vector<int64_t>>() == h.shape);
    CHECK(dtype_matches(h.descr, found->at("dtype").get<std::string>()));
  }
  CHECK(listed.size() == files);
}

}  // namespace

TEST_CASE("cli info: inputs and outputs agree with the .npy files Arm NN wrote") {
  auto root = shared_sample("armnn");
  NNBRIDGE_REQUIRE_SHARED(root);
  for (const auto& e : fs::directory_iterator(*root)) {
    const fs::path model = e.path() / "model.armnn";
    if (!fs::exists(model)) continue;
    CAPTURE(model);
    RunResult r = run_cli({"info", "--json", model.string()});
    REQUIRE(r.code == 0);
    nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK(j.at("format") == "armnn");
    check_tensors(j.at("inputs"), e.path() / "inputs");
    check_tensors(j.at("outputs"), e.path() / "outputs");
    CHECK(j.at("nodes").get<int>() > 0);

    RunResult text = run_cli({"info", model.string()});
    CHECK(text.code == 0);
    CHECK(text.out.find("inputs:") != std::string::npos);
    CHECK(text.out.find("outputs:") != std::string::npos);
  }
}

TEST_CASE("cli info: the op histogram of add_softmax is one Add and one Softmax") {
  // examples/models/add_softmax.armnn was built by the Arm NN peer with INetwork as
  // Input, Input -> Addition -> Softmax -> Output (examples/models/README.md).
  const auto model = source_dir() / "examples" / "models" / "add_softmax.armnn";
  RunResult r = run_cli({"info", "--json", model.string()});
  REQUIRE(r.code == 0);
  nlohmann::json ops = nlohmann::json::parse(r.out).at("ops");
  CHECK(ops.value("Add", 0) == 1);
  CHECK(ops.value("Softmax", 0) == 1);
}

TEST_CASE("cli check: Arm NN's own files pass the checker") {
  auto models = armnn_models(true);
  if (models.empty()) {
    nnbridge::test::skip("no .armnn models (../shared/samples or examples/models)");
    return;
  }
  for (const fs::path& model : models) {
    CAPTURE(model);
    RunResult r = run_cli({"check", model.string()});
    CAPTURE(r.out);
    CHECK(r.code == 0);
    CHECK(r.out.find(" 0 error(s)") != std::string::npos);
  }
}

TEST_CASE("cli check: an Add with three inputs is an error finding, exit 1") {
  // ONNX Add takes exactly two inputs (A, B); the IR's JSON form is edited by hand to give
  // add_softmax's Add a third one.
  auto model = shared_sample("armnn/add_softmax/model.armnn");
  NNBRIDGE_REQUIRE_SHARED(model);
  RunResult dump = run_cli({"dump", model->string()});
  REQUIRE(dump.code == 0);
  nlohmann::json j = nlohmann::json::parse(dump.out);
  bool edited = false;
  for (auto& node : j.at("nodes"))
    if (node.at("op") == "Add") {
      node.at("inputs").push_back(node.at("inputs").at(0));
      edited = true;
    }
  REQUIRE(edited);
  const fs::path dir = temp_dir();
  write_file(dir / "bad_arity.json", j.dump(1));
  RunResult r = run_cli({"check", (dir / "bad_arity.json").string()});
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.code == 1);
  CHECK(r.out.find(": error: ") != std::string::npos);
  CHECK(r.out.find("1 error(s)") != std::string::npos);

  // The unedited dump passes.
  write_file(dir / "good.json", dump.out);
  CHECK(run_cli({"check", (dir / "good.json").string()}).code == 0);
}

TEST_CASE("cli check: an error finding starts with its identifier, the one run refuses the graph with") {
  // ONNX Add takes exactly two inputs: a third one, given by hand in the IR's JSON form, is the
  // wrong number of inputs, nnbridge.invalid.402 (docs/errors.md). Other commands print an error
  // as "error: [<id>] ..." (README, exit codes); check prints its error lines so too.
  const fs::path model = source_dir() / "tests/golden/armnn/add_float/model.armnn";
  RunResult dump = run_cli({"dump", model.string()});
  REQUIRE(dump.code == 0);
  nlohmann::json j = nlohmann::json::parse(dump.out);
  std::size_t add = j.at("nodes").size();
  for (std::size_t i = 0; i < j.at("nodes").size(); ++i)
    if (j.at("nodes")[i].at("op") == "Add") add = i;
  REQUIRE(add < j.at("nodes").size());
  auto& inputs = j.at("nodes")[add].at("inputs");
  inputs.push_back(inputs.at(0));
  const fs::path dir = temp_dir();
  const fs::path bad = dir / "add_three.json";
  write_file(bad, j.dump(1));
  const std::string where = "nodes[" + std::to_string(add) + "].inputs: ";
  RunResult r = run_cli({"check", bad.string()});
  CAPTURE(r.out);
  CAPTURE(r.err);
  CHECK(r.code == 1);
  CHECK(r.out.find(bad.string() + ": error: [nnbridge.invalid.402] " + where) != std::string::npos);
  // `run` refuses the same graph at prepare with the same identifier and place, exit 3.
  fs::create_directory(dir / "in");
  r = run_cli({"run", bad.string(), "--inputs", (dir / "in").string(), "--outputs", (dir / "out").string()});
  CAPTURE(r.err);
  CHECK(r.code == 3);
  CHECK(r.err.find("nnbridge: error: [nnbridge.invalid.402] " + bad.string() + ": nodes[" + std::to_string(add) + "].inputs: ") !=
        std::string::npos);
}

TEST_CASE("cli info: a JSON file shows json as its format and armnn as where it came from") {
  auto model = shared_sample("armnn/add_softmax/model.armnn");
  NNBRIDGE_REQUIRE_SHARED(model);
  const fs::path out = temp_dir() / "m.json";
  REQUIRE(run_cli({"convert", model->string(), out.string()}).code == 0);
  nlohmann::json j = nlohmann::json::parse(run_cli({"info", "--json", out.string()}).out);
  CHECK(j.at("format") == "json");
  CHECK(j.at("source_format") == "armnn");
}

TEST_CASE("cli info: a long metadata list is shortened in the text form and whole in --json") {
  // Hand-written IR JSON: metadata "ids" holds 0..999 (an AFCM file's object columns are such lists).
  std::string ids;
  for (int i = 0; i < 1000; ++i) ids += (i ? "," : "") + std::to_string(i);
  const fs::path dir = temp_dir();
  write_file(dir / "m.json", R"({"format": "nnbridge-ir", "version": 1, "metadata": {"ids": {"ints": [)" + ids +
                                 R"(]}}, "values": [{"name": "x", "type": {"dtype": "float32", "shape": [1]}}, {"name": "y",
                                 "type": {"dtype": "float32", "shape": [1]}}], "nodes": [{"op": "Relu", "inputs": [0],
                                 "outputs": [1]}], "inputs": [0], "outputs": [1]})");
  const RunResult text = run_cli({"info", (dir / "m.json").string()});
  INFO(text.err);
  REQUIRE(text.code == 0);
  CHECK(text.out.find("ids = [0, 1, 2, 3, ..., 996, 997, 998, 999] (1000 items)") != std::string::npos);
  const RunResult js = run_cli({"info", "--json", (dir / "m.json").string()});
  REQUIRE(js.code == 0);
  const nlohmann::json j = nlohmann::json::parse(js.out);
  CHECK(j.at("metadata").at("ids").size() == 1000);
  CHECK(j.at("metadata").at("ids").back() == 999);
}
