// Command-line usage: help, version, and exit code 2 for every malformed command line.
#include <doctest/doctest.h>

#include "process.h"

using nnbridge::test::run_cli;
using nnbridge::test::RunResult;

namespace {
bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }
}  // namespace

TEST_CASE("cli usage: --help lists every subcommand and exits 0") {
  RunResult r = run_cli({"--help"});
  CHECK(r.code == 0);
  for (const char* sub : {"info", "dump", "convert", "check", "formats"}) CHECK(contains(r.out, sub));
  for (const char* sub : {"info", "dump", "convert", "check", "formats"}) {
    CAPTURE(sub);
    RunResult s = run_cli({sub, "--help"});
    CHECK(s.code == 0);
    CHECK(contains(s.out, sub));
  }
  CHECK(contains(run_cli({"convert", "--help"}).out, "--to"));
  CHECK(contains(run_cli({"info", "--help"}).out, "--json"));
}

TEST_CASE("cli usage: an unknown command is named, with the commands there are") {
  RunResult r = run_cli({"bogus"});
  CHECK(r.code == 2);
  CHECK(contains(r.err, "unknown command 'bogus'"));
  CHECK(contains(r.err, "convert"));
  // A bad number is reported without CLI11's full double range.
  RunResult t = run_cli({"run", "m.armnn", "--inputs", "i", "--outputs", "o", "--threads", "abc"});
  CHECK(t.code == 2);
  CHECK(contains(t.err, "--threads"));
  CHECK(t.err.size() < 200);
}

TEST_CASE("cli usage: --version prints the project version") {
  // NNBRIDGE_PROJECT_VERSION is CMake's PROJECT_VERSION (tests/cli/CMakeLists.txt), the numbers
  // nnbridge/version.h and nnbridge::version() are made from; the whole line, nothing else.
  RunResult r = run_cli({"--version"});
  CHECK(r.code == 0);
  CHECK(r.out == std::string("nnbridge ") + NNBRIDGE_PROJECT_VERSION + "\n");
  CHECK(r.err.empty());
}

TEST_CASE("cli usage: malformed command lines exit 2 without touching files") {
  const std::vector<std::vector<std::string>> lines{
      {},                                             // no subcommand
      {"nosuch"},                                     // unknown subcommand
      {"info"},                                       // missing FILE
      {"info", "a.armnn", "b.armnn"},                 // extra argument
      {"info", "--bogus", "a.armnn"},                 // unknown flag
      {"dump"},                                       //
      {"check"},                                      //
      {"convert", "a.armnn"},                         // missing OUT
      {"convert", "a.armnn", "b.json", "--to", "nosuch"},        // unknown format name
      {"convert", "a.armnn", "b.json", "--from", "nosuch"},      //
      {"convert", "a.armnn", "b.json", "-O", "novalue"},         // option without '='
      {"convert", "a.armnn", "b.json", "-O", "=1"},              // option without a key
      {"convert", "a.armnn", "b.json", "-I", "armnn.layout"},    //
      {"formats", "extra"},                                      //
  };
  for (const auto& args : lines) {
    std::string shown;
    for (const auto& a : args) shown += a + " ";
    CAPTURE(shown);
    RunResult r = run_cli(args);
    CHECK(r.code == 2);
    CHECK(r.signal == 0);
    CHECK_FALSE(r.err.empty());
  }
}

TEST_CASE("cli usage: formats lists armnn and json with their extensions") {
  RunResult r = run_cli({"formats"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "armnn"));
  CHECK(contains(r.out, ".armnn"));
  CHECK(contains(r.out, "json"));
  CHECK(contains(r.out, ".json"));
}
