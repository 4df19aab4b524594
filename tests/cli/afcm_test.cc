// The CLI on TFLite GPU GL compiled models: info, dump, check, convert (afcm <-> json, judged by
// flatc) and `afcm shaders`; bad input exits 3 and leaves no output behind.
#include <doctest/doctest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

fs::path afcm_schema() { return source_dir() / "schemas/afcm/compiled_model.fbs"; }

std::string flatc_afcm(const fs::path& binary) {
  auto dir = temp_dir();
  RunResult r = run_program({NNBRIDGE_FLATC, "--no-warnings", "--raw-binary", "--json", "--strict-json",
                             "--defaults-json", "-o", dir.string(), afcm_schema().string(), "--", binary.string()});
  if (r.code != 0) return {};
  return read_file(dir / (binary.stem().string() + ".json"));
}

// Compiles flatc JSON against `schema` into DIR/<stem>.<ext>.
fs::path flatc_compile(const std::string& json, const std::string& stem, const fs::path& schema) {
  auto dir = temp_dir();
  write_file(dir / (stem + ".json"), json);
  RunResult r = run_program({NNBRIDGE_FLATC, "--no-warnings", "-b", "-o", dir.string(), schema.string(),
                             (dir / (stem + ".json")).string()});
  REQUIRE(r.code == 0);
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() != ".json") return e.path();
  return {};
}

}  // namespace

TEST_CASE("cli afcm: info, dump and check on the shared sample") {
  auto p = shared_sample("afcm/smoke_equivalent.flow");
  NNBRIDGE_REQUIRE_SHARED(p);
  RunResult r = run_cli({"info", p->string(), "--json"});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["format"] == "afcm");
  CHECK(j["nodes"] == 1);
  CHECK(j["ops"]["gl.Program"] == 1);
  CHECK(j["constants"] == 2);
  CHECK(j["constant_bytes"] == 18);  // 16 + 2 bytes of ObjectData in the sample's JSON
  CHECK(j["metadata"]["gl.dynamic_batch"] == true);

  r = run_cli({"dump", p->string()});
  REQUIRE(r.code == 0);
  auto d = nlohmann::json::parse(r.out);
  CHECK(d["nodes"][0]["op"] == "gl.Program");
  CHECK(d["nodes"][0]["attrs"]["gl.shader_index"] == nlohmann::json{{"int", 1}});

  r = run_cli({"check", p->string()});
  CHECK(r.code == 0);
  CHECK(r.out.find("shaders[0]: no program uses this shader") != std::string::npos);
  CHECK(r.out.find("0 error(s), 2 warning(s)") != std::string::npos);
}

TEST_CASE("cli afcm: check fails on the 16-byte empty model") {
  auto p = shared_sample("afcm/empty.flow");
  NNBRIDGE_REQUIRE_SHARED(p);
  RunResult r = run_cli({"check", p->string()});
  CHECK(r.code == 1);
  CHECK(r.out.find("3 error(s)") != std::string::npos);
  r = run_cli({"info", p->string()});
  CHECK(r.code == 0);
}

TEST_CASE("cli afcm: convert afcm -> json -> afcm, and afcm -> afcm, decode identically under flatc") {
  auto p = shared_sample("afcm/smoke_equivalent.flow");
  NNBRIDGE_REQUIRE_SHARED(p);
  const fs::path dir = temp_dir();
  REQUIRE(run_cli({"convert", p->string(), (dir / "model.json").string()}).code == 0);
  RunResult r = run_cli({"convert", (dir / "model.json").string(), (dir / "back.flow").string()});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("(afcm)") != std::string::npos);
  REQUIRE(run_cli({"convert", p->string(), (dir / "copy.flow").string()}).code == 0);
  const std::string want = flatc_afcm(*p);
  REQUIRE(!want.empty());
  CHECK(flatc_afcm(dir / "back.flow") == want);
  CHECK(flatc_afcm(dir / "copy.flow") == want);
  // A gl.Program has no Arm NN form: exit 3 naming the node, no output file.
  r = run_cli({"convert", p->string(), (dir / "model.armnn").string()});
  CHECK(r.code == 3);
  CHECK(!fs::exists(dir / "model.armnn"));
}

TEST_CASE("cli afcm shaders: one full GLSL file per program") {
  auto p = shared_sample("afcm/smoke_equivalent.flow");
  NNBRIDGE_REQUIRE_SHARED(p);
  const fs::path dir = temp_dir() / "glsl";
  RunResult r = run_cli({"afcm", "shaders", p->string(), dir.string()});
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path().filename());
  CHECK(files == std::vector<fs::path>{"program_0.comp"});
  // Program 0: shader 1 ("B"), workgroup_size 1x2x3 (the sample's JSON); TFLite's header.
  CHECK(read_file(dir / "program_0.comp") ==
        "#version 310 es\nlayout(local_size_x = 1, local_size_y = 2, local_size_z = 3) in;\nB");
}

TEST_CASE("cli afcm shaders: bad input exits 3 and writes nothing") {
  const fs::path schema = afcm_schema();
  // Program 1 names shader 7 of 1: no file at all is written, not even program 0's.
  auto bad = flatc_compile(R"({"shaders": ["\nvoid main() {}\n"], "programs": [
      {"workgroup_size": {"x": 1, "y": 1, "z": 1}, "shader_index": 0},
      {"workgroup_size": {"x": 1, "y": 1, "z": 1}, "shader_index": 7}]})",
                           "bad", schema);
  const fs::path dir = temp_dir() / "out";
  RunResult r = run_cli({"afcm", "shaders", bad.string(), dir.string()});
  CHECK(r.code == 3);
  CHECK(r.err.find("programs[1].shader_index") != std::string::npos);
  CHECK((!fs::exists(dir) || fs::is_empty(dir)));
  // Not a compiled model at all.
  r = run_cli({"afcm", "shaders", (source_dir() / "examples/models/add_softmax.armnn").string(), dir.string()});
  CHECK(r.code == 3);
  // Usage: the subcommand needs FILE and DIR.
  CHECK(run_cli({"afcm", "shaders"}).code == 2);
  CHECK(run_cli({"afcm"}).code == 2);
}

TEST_CASE("cli afcm: an OpenCL program cache is named for what it is (exit 3)") {
  auto cache = flatc_compile(R"({"driver_version": "3.0", "programs": [{"fingerprint": 7, "binary": [1, 2]}]})",
                             "cache", source_dir() / "tests/formats/afcm/data/compiled_program_cache.fbs");
  for (const char* cmd : {"info", "check", "dump"}) {
    RunResult r = run_cli({cmd, cache.string()});
    CHECK(r.code == 3);
    CHECK(r.err.find("OpenCL program cache") != std::string::npos);
  }
}
