// Models built by python3-onnx (make_models.py) in ONNX's test layout, run on cpu by
// `nnbridge conformance`: expected outputs are NumPy evaluations of each ONNX operator's definition
// written out in make_models.py (numpy.pad, numpy.clip, a windowed sum for Conv, ...). Each model
// nnbridge writes from them, opset-11 and opset-13 ones included (converted to opset 17 on read),
// passes onnx.checker.check_model(full_check=True).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "nnbridge/io.h"
#include "support/paths.h"
#include "support/shell_cli.h"
#include "util.h"

using namespace nnbridge;
namespace fs = std::filesystem;
namespace ox = nnbridge::test::onnx;

TEST_CASE("onnx run: each case's outputs on cpu, after a round trip too") {
  NNBRIDGE_REQUIRE_ONNX();
  test::Result r = test::cli("conformance " + test::q(ox::models() / "run") + " --backends cpu --jobs 2 --json");
  CAPTURE(r.out);
  REQUIRE(r.rc == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["cases"].size() >= 14);
  CHECK(j["failed"] == 0);
  for (const auto& c : j["cases"]) {
    CAPTURE(c["name"]);
    CHECK(c["status"] == "PASS");
    CHECK(c["checks"] == nlohmann::json::array({"decode", "roundtrip", "run:cpu:test_data_set_0"}));
  }
}

TEST_CASE("onnx run: what nnbridge writes passes ONNX's full check, at opset 17") {
  NNBRIDGE_REQUIRE_ONNX();
  const fs::path out = test::temp_dir();
  for (const auto& e : fs::directory_iterator(ox::models() / "run")) {
    CAPTURE(e.path().filename().string());
    Graph g = load(e.path() / "model.onnx");
    const fs::path written = out / (e.path().filename().string() + ".onnx");
    save(g, written);
    CHECK(ox::full_check(written) == "");
    std::string opset;
    ox::shell(std::string(ox::kPython) + " -c 'import onnx, sys; print([o.version for o in onnx.load(sys.argv[1]).opset_import if o.domain in (\"\", \"ai.onnx\")][0])' " +
                  test::q(written),
              &opset);
    CHECK(opset == "17\n");
  }
}
