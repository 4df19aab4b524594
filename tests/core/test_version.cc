// nnbridge/version.h against its one source, the `project(nnbridge VERSION ...)` line of the
// top-level CMakeLists.txt, read here with a regular expression; NNBRIDGE_VERSION against the
// documented formula MAJOR * 10000 + MINOR * 100 + PATCH worked out from those numbers.
#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "nnbridge/version.h"
#include "support/paths.h"

namespace {

struct Numbers {
  int major = -1, minor = -1, patch = -1;
};

// "project(nnbridge VERSION 0.1.0 ...": a missing PATCH is 0, as sdk/core/CMakeLists.txt says.
Numbers project_version() {
  std::ifstream in(nnbridge::test::source_dir() / "CMakeLists.txt");
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  std::smatch m;
  const std::string s = text.str();
  REQUIRE(std::regex_search(s, m, std::regex(R"(project\(nnbridge\s+VERSION\s+(\d+)\.(\d+)(?:\.(\d+))?)")));
  return {std::stoi(m[1]), std::stoi(m[2]), m[3].matched ? std::stoi(m[3]) : 0};
}

}  // namespace

TEST_CASE("version.h: the macros are the numbers of project(nnbridge VERSION ...)") {
  const Numbers v = project_version();
  CHECK(NNBRIDGE_VERSION_MAJOR == v.major);
  CHECK(NNBRIDGE_VERSION_MINOR == v.minor);
  CHECK(NNBRIDGE_VERSION_PATCH == v.patch);
  CHECK(NNBRIDGE_VERSION == v.major * 10000 + v.minor * 100 + v.patch);
  const std::string dotted = std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
  CHECK(std::string(NNBRIDGE_VERSION_STRING) == dotted);
}

TEST_CASE("version(): the linked library reports MAJOR.MINOR.PATCH of the macros") {
  const std::string linked(nnbridge::version());
  std::smatch m;
  REQUIRE(std::regex_match(linked, m, std::regex(R"((\d+)\.(\d+)\.(\d+))")));
  CHECK(std::stoi(m[1]) == NNBRIDGE_VERSION_MAJOR);
  CHECK(std::stoi(m[2]) == NNBRIDGE_VERSION_MINOR);
  CHECK(std::stoi(m[3]) == NNBRIDGE_VERSION_PATCH);
  CHECK(std::stoi(m[1]) * 10000 + std::stoi(m[2]) * 100 + std::stoi(m[3]) == NNBRIDGE_VERSION);
  CHECK(linked == NNBRIDGE_VERSION_STRING);
}

// The combined number orders versions as the dotted ones do (the reason MINOR, PATCH < 100).
static_assert(NNBRIDGE_VERSION_MINOR < 100 && NNBRIDGE_VERSION_PATCH < 100);
static_assert(NNBRIDGE_VERSION / 10000 == NNBRIDGE_VERSION_MAJOR);
static_assert(NNBRIDGE_VERSION / 100 % 100 == NNBRIDGE_VERSION_MINOR);
static_assert(NNBRIDGE_VERSION % 100 == NNBRIDGE_VERSION_PATCH);
