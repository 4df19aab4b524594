// convert armnn -> json -> armnn (and armnn -> armnn, dump -> armnn, in place) on real
// Arm NN files; flatc, decoding both files against the released Arm NN schema, is the judge.
#include <doctest/doctest.h>

#include <fstream>
#include <iterator>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

bool have_inputs() {
  if (armnn_models().empty()) {
    nnbridge::test::skip("no .armnn models (../shared/samples or examples/models)");
    return false;
  }
  if (!armnn_schema()) {
    nnbridge::test::skip("schemas/armnn/ArmnnSchema.fbs is not there yet");
    return false;
  }
  return true;
}

/// Converts `in` to `out` (extra args appended) and checks it succeeded.
void convert(const fs::path& in, const fs::path& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"convert", in.string(), out.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  RunResult r = run_cli(args);
  CAPTURE(r.err);
  REQUIRE(r.code == 0);
  REQUIRE(fs::exists(out));
}

void same_under_flatc(const fs::path& original, const fs::path& result) {
  auto a = flatc_decode(original);
  auto b = flatc_decode(result);
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  CHECK(*a == *b);
}

}  // namespace

TEST_CASE("cli roundtrip: armnn -> json -> armnn decodes identically under flatc") {
  if (!have_inputs()) return;
  for (const fs::path& model : armnn_models(true)) {
    CAPTURE(model);
    const fs::path dir = temp_dir();
    convert(model, dir / "model.json");
    convert(dir / "model.json", dir / "back.armnn");
    same_under_flatc(model, dir / "back.armnn");
    fs::remove_all(dir);
  }
}

TEST_CASE("cli roundtrip: armnn -> armnn decodes identically under flatc") {
  if (!have_inputs()) return;
  for (const fs::path& model : armnn_models(true)) {
    CAPTURE(model);
    const fs::path dir = temp_dir();
    convert(model, dir / "copy.armnn");
    same_under_flatc(model, dir / "copy.armnn");
    fs::remove_all(dir);
  }
  // --to by name and by extension, onto a name whose extension says nothing.
  const fs::path model = armnn_models().front();
  const fs::path dir = temp_dir();
  convert(model, dir / "copy.data", {"--to", "armnn"});
  same_under_flatc(model, dir / "copy.data");
  convert(model, dir / "copy2.data", {"--to", ".armnn"});
  same_under_flatc(model, dir / "copy2.data");
}

TEST_CASE("cli roundtrip: dump output is a json file that converts back identically") {
  if (!have_inputs()) return;
  for (const fs::path& model : armnn_models()) {
    CAPTURE(model);
    const fs::path dir = temp_dir();
    RunResult r = run_cli({"dump", model.string()});
    REQUIRE(r.code == 0);
    write_file(dir / "dumped.json", r.out);
    convert(dir / "dumped.json", dir / "back.armnn");
    same_under_flatc(model, dir / "back.armnn");
    fs::remove_all(dir);
  }
}

TEST_CASE("cli roundtrip: convert IN IN rewrites in place and keeps the content") {
  if (!have_inputs()) return;
  const fs::path model = armnn_models().front();
  const fs::path dir = temp_dir();
  fs::copy_file(model, dir / "self.armnn");
  convert(dir / "self.armnn", dir / "self.armnn");
  same_under_flatc(model, dir / "self.armnn");
  // json in place too, sidecar included.
  convert(model, dir / "self.json", {"-O", "json.inline_limit=0"});
  convert(dir / "self.json", dir / "self.json", {"-O", "json.inline_limit=0"});
  convert(dir / "self.json", dir / "again.armnn");
  same_under_flatc(model, dir / "again.armnn");
}

TEST_CASE("cli convert: a .bin beside OUT that is not OUT's sidecar is kept unless --force") {
  // Oracle: the foreign file's own bytes, written here, must be unchanged after the refusal.
  if (!have_inputs()) return;
  // Has weights, so json.inline_limit=0 puts them in the sidecar out.bin.
  const fs::path model = source_dir() / "examples" / "models" / "conv_relu_fc.armnn";
  const fs::path dir = temp_dir();
  { std::ofstream(dir / "out.bin", std::ios::binary) << "another tool's weights"; }
  auto foreign = [&] {
    std::ifstream in(dir / "out.bin", std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {}) == "another tool's weights";
  };
  RunResult r = run_cli({"convert", model.string(), (dir / "out.json").string(), "-O", "json.inline_limit=0"});
  CAPTURE(r.err);
  CHECK(r.code == 3);
  CHECK(r.err.find((dir / "out.bin").string()) != std::string::npos);
  CHECK(r.err.find("--force") != std::string::npos);
  CHECK(foreign());
  CHECK_FALSE(fs::exists(dir / "out.json"));
  convert(model, dir / "out.json", {"-O", "json.inline_limit=0", "--force"});
  CHECK_FALSE(foreign());
  // out.bin is now out.json's own sidecar: converting over the pair again needs no --force.
  convert(model, dir / "out.json", {"-O", "json.inline_limit=0"});
  convert(dir / "out.json", dir / "again.armnn");
  same_under_flatc(model, dir / "again.armnn");
}
