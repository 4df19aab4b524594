// What the IR cannot hold is refused, never dropped: each model of make_models.py's refused/
// (functions, training_info, sequence / map / optional / sparse types, an If body, sparse
// initializers, quantization annotations, string tensors, complex64, a dangling input) and what
// ONNX's own IR refuses (no opset_import from IR version 3 on, as onnx.checker says) fails to
// load with the error identifier, the place (ONNX's field path) and the name refused.json
// states, naming the file. And bytes that are not a whole ModelProto (a truncated model, text)
// are Malformed naming the file: oracle, protobuf's own parser refusing them (python3-onnx's
// onnx.load as well); bytes that parse but hold no graph are not an ONNX model at all.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "nnbridge/check.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/exec.h"
#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
namespace fs = std::filesystem;
namespace ox = nnbridge::test::onnx;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

}  // namespace

TEST_CASE("onnx refused: each field the IR cannot hold is named") {
  NNBRIDGE_REQUIRE_ONNX();
  const auto want = nlohmann::json::parse(read(ox::models() / "refused.json"));
  CHECK(want.size() >= 18);
  for (const auto& [name, w] : want.items()) {
    const auto& name_ = name;  // CAPTURE cannot name a structured binding (clang 14)
    CAPTURE(name_);
    const fs::path f = ox::models() / "refused" / (name + ".onnx");
    try {
      (void)load(f);
      FAIL("loaded without error");
    } catch (const Error& e) {
      CAPTURE(e.what());
      CHECK(to_string(e.id()) == w["id"].get<std::string>());
      CHECK(e.where() == w["where"].get<std::string>());
      if (!w["contains"].is_null()) CHECK(e.message().find(w["contains"].get<std::string>()) != std::string::npos);
      CHECK(e.file() == f.string());
    }
  }
}

TEST_CASE("onnx checked: a native ONNX op with an input or output count outside its schema is an Arity finding") {
  // make_models.py's checked/: models onnx.checker refuses (the oracle, asserted there) whose
  // operator the reader keeps native; nnbridge::check reports each with the identifier and place
  // checked.json states, and the cpu backend's prepare refuses the graph with that identifier.
  NNBRIDGE_REQUIRE_ONNX();
  const auto want = nlohmann::json::parse(read(ox::models() / "checked.json"));
  CHECK(want.size() == 2);
  for (const auto& [name, w] : want.items()) {
    const auto& name_ = name;  // CAPTURE cannot name a structured binding (clang 14)
    CAPTURE(name_);
    const Graph g = load(ox::models() / "checked" / (name + ".onnx"));
    const std::vector<Issue> issues = check(g);
    REQUIRE(issues.size() == 1);
    CHECK(issues[0].severity == Issue::Severity::Error);
    CHECK(to_string(issues[0].id) == w["id"].get<std::string>());
    CHECK(issues[0].where == w["where"].get<std::string>());
    CHECK(issues[0].message.find(w["contains"].get<std::string>()) != std::string::npos);
    cpu_ref::register_backend();
    try {
      (void)find_backend("cpu")->prepare(g, {});
      FAIL("prepared without error");
    } catch (const Error& e) {
      CHECK(to_string(e.id()) == w["id"].get<std::string>());
    }
  }
}

TEST_CASE("onnx malformed: a truncated model and text are Malformed, naming the file") {
  NNBRIDGE_REQUIRE_ONNX();
  const std::string bytes = read(ox::models() / "lossless/fields.onnx");
  REQUIRE(bytes.size() > 100);
  const fs::path dir = test::temp_dir();
  std::string onnx_load_says;
  for (auto [name, content] : {std::pair{"truncated.onnx", bytes.substr(0, bytes.size() / 2)},
                               std::pair{"text.onnx", std::string("this is not a model\n")},
                               std::pair{"empty.onnx", std::string()}}) {
    const auto& name_ = name;  // CAPTURE cannot name a structured binding (clang 14)
    CAPTURE(name_);
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << content;
    // python3-onnx refuses the same bytes (an empty file parses as an empty ModelProto: no graph).
    if (content.size()) CHECK(ox::shell(std::string(ox::kPython) + " -c 'import onnx, sys; onnx.load(sys.argv[1])' '" + p.string() + "'") != 0);
    try {
      (void)load(p);
      FAIL("loaded without error");
    } catch (const Error& e) {
      CAPTURE(e.what());
      // protobuf's parser refuses the truncated model and the text (docs/errors.md: .203); an empty
      // file is an empty ModelProto, not an ONNX model (.202).
      CHECK(e.id() == (content.empty() ? ErrorId::BadIdentifier : ErrorId::VerifyFailed));
      CHECK(e.file() == p.string());
    }
  }
}

TEST_CASE("onnx sniffing: the content says onnx whatever the extension, a truncated file does not") {
  NNBRIDGE_REQUIRE_ONNX();
  const std::string bytes = read(ox::models() / "lossless/fields.onnx");
  const fs::path dir = test::temp_dir();
  std::ofstream(dir / "model.bin", std::ios::binary) << bytes;
  CHECK(detect_format(dir / "model.bin") == "onnx");
  std::ofstream(dir / "cut.bin", std::ios::binary) << bytes.substr(0, bytes.size() - 3);
  CHECK_THROWS_AS(detect_format(dir / "cut.bin"), Error);
  // Other formats' files are not claimed (an Arm NN network, an IR JSON document).
  CHECK(detect_format(test::source_dir() / "tests/golden/armnn/add_float/model.armnn") == "armnn");
}

TEST_CASE("onnx limits: node and file-size limits are reader options") {
  NNBRIDGE_REQUIRE_ONNX();
  const fs::path f = ox::models() / "lossless/constants.onnx";
  LoadOptions o;
  o.options["onnx.max_nodes"] = "2";
  try {
    (void)load(f, o);
    FAIL("loaded");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::ResourceLimit);
    CHECK(e.message().find("onnx.max_nodes") != std::string::npos);
  }
  auto error_of = [&](const LoadOptions& opts) {
    try {
      (void)load(f, opts);
    } catch (const Error& e) {
      return e;
    }
    FAIL("loaded");
    return Error(ErrorCode::Io, "");
  };
  o.options = {{"onnx.max_size", "16"}};
  Error size = error_of(o);
  CHECK(size.id() == ErrorId::IoTooLarge);
  CHECK(size.message().find("onnx.max_size") != std::string::npos);
  o.options = {{"onnx.max_tensors", "3"}};
  Error tensors = error_of(o);
  CHECK(tensors.id() == ErrorId::ResourceLimit);
  CHECK(tensors.message().find("onnx.max_tensors") != std::string::npos);
  o.options = {{"onnx.max_nodes", "0"}};
  CHECK(error_of(o).id() == ErrorId::OptionValue);
}
