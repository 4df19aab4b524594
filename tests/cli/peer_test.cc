// Arm NN 20.08's own deserializer, through the peer program, loads what nnbridge writes.
// It runs in a child process: 20.08 aborts on graphs with more than one output, so only the
// samples whose case.json says it loads the original are used.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

/// The peer's report with the file's path taken out, so two files' reports compare.
std::string without(std::string text, const std::string& path) {
  for (auto p = text.find(path); p != std::string::npos; p = text.find(path))
    text.erase(p, path.size());
  return text;
}

}  // namespace

TEST_CASE("cli peer: Arm NN 20.08 loads nnbridge-written files and sees the same network") {
  auto peer = armnn_peer();
  if (!peer) {
    nnbridge::test::skip("nnbridge-armnn-peer is not built (NNBRIDGE_BUILD_PEERS=OFF or no Arm NN)");
    return;
  }
  // The shared samples whose case.json says 20.08 loads them, and the bundled examples.
  std::vector<fs::path> models;
  if (auto root = shared_sample("armnn"))
    for (const auto& e : fs::directory_iterator(*root)) {
      const fs::path case_json = e.path() / "case.json";
      if (!fs::exists(case_json)) continue;
      auto meta = nlohmann::json::parse(read_file(case_json));
      if (meta.value("armnn_20_08_deserializer_loads_it", false)) models.push_back(e.path() / "model.armnn");
    }
  for (const fs::path& m : armnn_models())
    if (m.parent_path() == source_dir() / "examples" / "models") models.push_back(m);
  int loaded = 0;
  for (const fs::path& model : models) {
    CAPTURE(model);
    const fs::path dir = temp_dir();
    const fs::path json = dir / "model.json", back = dir / "model.armnn";
    REQUIRE(run_cli({"convert", model.string(), json.string()}).code == 0);
    REQUIRE(run_cli({"convert", json.string(), back.string()}).code == 0);

    RunResult original = run_program({peer->string(), "inspect", model.string()});
    if (original.code != 0) {
      MESSAGE("Arm NN 20.08 does not load the original either: ", model.string());
      continue;
    }
    RunResult ours = run_program({peer->string(), "inspect", back.string()});
    CAPTURE(ours.err);
    CHECK(ours.signal == 0);
    CHECK(ours.code == 0);
    CHECK(without(ours.out, back.string()) == without(original.out, model.string()));
    ++loaded;
    fs::remove_all(dir);
  }
  CHECK(loaded > 0);
}
