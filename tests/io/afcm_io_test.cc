// The afcm format through io: sniffed by its identifier, its rules part of check(), saved by
// extension, and through the IR JSON form back to a .flow that flatc decodes identically.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "nnbridge/check.h"
#include "nnbridge/io.h"
#include "support/paths.h"

using namespace nnbridge;
namespace fs = std::filesystem;

namespace {

std::string flatc_json(const fs::path& binary) {
  auto dir = test::temp_dir();
  const fs::path schema = test::source_dir() / "schemas/afcm/compiled_model.fbs";
  std::string cmd = std::string(NNBRIDGE_FLATC) + " --no-warnings --raw-binary --json --strict-json --defaults-json -o '" +
                    dir.string() + "' '" + schema.string() + "' -- '" + binary.string() + "' 2>/dev/null";
  if (std::system(cmd.c_str()) != 0) return {};
  std::ifstream in(dir / (binary.stem().string() + ".json"));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("io afcm: sniffed, checked with the format's rules, saved by extension and through JSON") {
  auto p = test::shared_sample("afcm/smoke_equivalent.flow");
  NNBRIDGE_REQUIRE_SHARED(p);
  CHECK(detect_format(*p) == "afcm");
  REQUIRE(find_format_by_extension("flow") != nullptr);
  CHECK(find_format_by_extension("flow")->name == "afcm");
  Graph g = load(*p);
  CHECK(g.source_format == "afcm");
  // nnbridge::check() applies the afcm rules: the sample's unused shader 0 is reported.
  bool unused_shader = false;
  for (const Issue& i : check(g)) {
    CHECK(i.severity == Issue::Severity::Warning);
    unused_shader |= i.where == "shaders[0]";
  }
  CHECK(unused_shader);
  const fs::path dir = test::temp_dir();
  save(g, dir / "out.flow");
  save(g, dir / "out.json");
  Graph back = load(dir / "out.json");
  CHECK(back.source_format == "afcm");
  save(back, dir / "back.flow");
  const std::string want = flatc_json(*p);
  REQUIRE(!want.empty());
  CHECK(flatc_json(dir / "out.flow") == want);
  CHECK(flatc_json(dir / "back.flow") == want);
}

TEST_CASE("io afcm: the empty model fails check() with three errors") {
  auto p = test::shared_sample("afcm/empty.flow");
  NNBRIDGE_REQUIRE_SHARED(p);
  auto issues = check(load(*p));
  CHECK(issues.size() == 3);
  for (const Issue& i : issues) CHECK(i.severity == Issue::Severity::Error);
}
