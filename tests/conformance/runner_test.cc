// `nnbridge conformance` on small case folders built here from the Arm NN 20.08 corpus: passing,
// failing (an expected output tampered with), crashing and hanging cases (test-only extensions,
// misbehaving_kernel.cc), expected errors, --filter, --json and the exit codes.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/paths.h"
#include "support/shell_cli.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

const fs::path kGolden = source_dir() / "tests" / "golden" / "armnn";

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A copy of a golden Arm NN case under `root/name`.
fs::path copy_case(const std::string& golden, const fs::path& root, const std::string& name) {
  const fs::path d = root / name;
  fs::create_directories(d);
  fs::copy(kGolden / golden, d, fs::copy_options::recursive);
  return d;
}

/// The StandIn network (Arm NN 20.08, output y declared float32 [4]) with a kernel from
/// `extension`; y.npy holds four zeros (the kernel never returns, so nothing is compared).
fs::path misbehaving_case(const fs::path& root, const std::string& name, const char* extension) {
  const fs::path d = copy_case("stand_in", root, name);
  fs::create_directories(d / "outputs");
  // NPY 1.0 (numpy.lib.format): magic, version, header length, the header padded so the data starts at a multiple of 64, data.
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }";
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  write(d / "outputs" / "y.npy", std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header +
                                     std::string(16, '\0'));
  write(d / "case.json", nlohmann::json{{"extensions", {extension}}}.dump());
  return d;
}

/// Five cases: pass, tampered, crash, hang, expected error.
fs::path mixed_root() {
  const fs::path root = temp_dir() / "cases";
  copy_case("add_float", root, "pass");
  const fs::path t = copy_case("add_float", root, "tampered");
  std::string y = read(t / "outputs" / "y.npy");
  y[y.size() - 2] ^= 0x40;  // a high bit of the last float32 (little-endian): 0.5 here
  write(t / "outputs" / "y.npy", y);
  misbehaving_case(root, "crash", NNBRIDGE_TEST_CRASH_EXT);
  misbehaving_case(root, "hang", NNBRIDGE_TEST_HANG_EXT);
  const fs::path e = root / "truncated";
  write(e / "model.armnn", read(kGolden / "add_float" / "model.armnn").substr(0, 100));
  write(e / "case.json", R"({"format": "armnn", "expect_error": {"code": "Malformed", "message_contains": "model.armnn"}})");
  return root;
}

bool has_line(const std::string& out, const std::string& prefix) {
  std::size_t at = 0;
  while (at < out.size()) {
    std::size_t end = out.find('\n', at);
    if (end == std::string::npos) end = out.size();
    if (out.compare(at, prefix.size(), prefix) == 0) return true;
    at = end + 1;
  }
  return false;
}

}  // namespace

TEST_CASE("conformance: pass, tampered output, crash, hang and expected error, one line each") {
  const fs::path root = mixed_root();
  Result r = cli("conformance " + q(root) + " --jobs 3 --timeout 5");
  CAPTURE(r.out);
  CHECK(r.rc == 1);
  CHECK(has_line(r.out, "PASS cases/pass"));
  CHECK(has_line(r.out, "FAIL cases/tampered: run:cpu: output \"y\": values differ"));
  // The kernel writes through a null pointer: SIGSEGV, or SIGABRT when AddressSanitizer (make
  // test-sanitize, abort_on_error=1) catches the fault first and aborts after its report.
  CHECK((has_line(r.out, "FAIL cases/crash: crashed: signal 11 (SIGSEGV)") ||
         (std::getenv("ASAN_OPTIONS") && has_line(r.out, "FAIL cases/crash: crashed: signal 6 (SIGABRT)"))));
  CHECK(has_line(r.out, "FAIL cases/hang: timed out after 5 s"));
  CHECK(has_line(r.out, "PASS cases/truncated"));
  CHECK(has_line(r.out, "2 passed, 3 failed"));
}

TEST_CASE("conformance: a case's own timeout_s replaces --timeout for it, and a bad one fails naming the key") {
  const fs::path root = temp_dir() / "timeouts";
  const fs::path h = misbehaving_case(root, "hang", NNBRIDGE_TEST_HANG_EXT);
  write(h / "case.json", nlohmann::json{{"extensions", {NNBRIDGE_TEST_HANG_EXT}}, {"timeout_s", 2}}.dump());
  const fs::path bad = copy_case("add_float", root, "bad");
  write(bad / "case.json", R"({"timeout_s": -1})");
  Result r = cli("conformance " + q(root) + " --timeout 600");
  CAPTURE(r.out);
  CHECK(r.rc == 1);
  CHECK(has_line(r.out, "FAIL timeouts/hang: timed out after 2 s"));
  // The bad case's own line names the key and the rule.
  const auto bad_at = r.out.find("FAIL timeouts/bad:");
  REQUIRE(bad_at != std::string::npos);
  const std::string bad_line = r.out.substr(bad_at, r.out.find('\n', bad_at) - bad_at);
  CHECK(bad_line.find("timeout_s") != std::string::npos);
  CHECK(bad_line.find("from 0.01 to 86400") != std::string::npos);
}

TEST_CASE("conformance: --filter keeps the cases whose name matches, and all passing exits 0") {
  const fs::path root = mixed_root();
  Result r = cli("conformance " + q(root) + " --filter '*/pass'");
  CAPTURE(r.out);
  CHECK(r.rc == 0);
  CHECK(has_line(r.out, "PASS cases/pass"));
  CHECK(r.out.find("tampered") == std::string::npos);
  CHECK(has_line(r.out, "1 passed, 0 failed"));
  Result none = cli("conformance " + q(root) + " --filter 'nothing*'");
  CHECK(none.rc == 3);
  // A -B key of no backend is a usage error; a misspelt key of cpu fails each case it prepares
  // with nnbridge.unsupported.305 (docs/errors.md), never a run with the default.
  Result typo = cli("conformance " + q(root) + " --filter '*/pass' -B cpux.threads=1");
  CAPTURE(typo.out);
  CHECK(typo.rc == 2);
  CHECK(typo.out.find("option \"cpux.threads\" names no backend") != std::string::npos);
  Result unknown = cli("conformance " + q(root) + " --filter '*/pass' -B cpu.bogus=1");
  CAPTURE(unknown.out);
  CHECK(unknown.rc == 1);
  CHECK(unknown.out.find("[nnbridge.unsupported.305]") != std::string::npos);
  CHECK(unknown.out.find("\"cpu.bogus\"") != std::string::npos);
}

TEST_CASE("conformance: --json reports every case with its status, checks and the counts") {
  const fs::path root = mixed_root();
  Result r = cli("conformance " + q(root) + " --json --timeout 5 --filter '*/[pt]*' 2>/dev/null");
  CAPTURE(r.out);
  CHECK(r.rc == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["passed"] == 2);
  CHECK(j["failed"] == 1);
  CHECK(j["skipped"] == 0);
  std::map<std::string, nlohmann::json> by_name;
  for (const auto& c : j["cases"]) by_name[c["name"]] = c;
  REQUIRE(by_name.size() == 3);
  CHECK(by_name["cases/pass"]["status"] == "PASS");
  const auto checks = by_name["cases/pass"]["checks"].get<std::vector<std::string>>();
  CHECK(checks == std::vector<std::string>{"decode", "roundtrip", "run:cpu"});
  CHECK(by_name["cases/tampered"]["status"] == "FAIL");
  CHECK(by_name["cases/truncated"]["checks"] == nlohmann::json::array({"expect_error"}));
}

TEST_CASE("conformance: expected errors must match code and message, and a bad case.json fails naming the key") {
  const fs::path root = temp_dir() / "errors";
  const std::string truncated = read(kGolden / "add_float" / "model.armnn").substr(0, 100);
  write(root / "wrong_code" / "model.armnn", truncated);
  write(root / "wrong_code" / "case.json", R"({"format": "armnn", "expect_error": {"code": "Invalid"}})");
  write(root / "wrong_text" / "model.armnn", truncated);
  write(root / "wrong_text" / "case.json",
        R"({"format": "armnn", "expect_error": {"code": "Malformed", "message_contains": "no such words"}})");
  copy_case("add_float", root, "no_error");
  write(root / "no_error" / "case.json", R"({"expect_error": {"code": "Malformed"}})");
  copy_case("add_float", root, "bad_key");
  write(root / "bad_key" / "case.json", R"({"conversions": "json"})");
  copy_case("add_float", root, "skipped");
  write(root / "skipped" / "case.json", R"({"skip": "kept for a later release"})");
  // Identifiers: one no error has (its code right, its number not), one whose code disagrees with
  // the code beside it, one that is not an identifier.
  write(root / "wrong_id" / "model.armnn", truncated);
  write(root / "wrong_id" / "case.json", R"({"format": "armnn", "expect_error": {"id": "nnbridge.malformed.299"}})");
  write(root / "id_code" / "model.armnn", truncated);
  write(root / "id_code" / "case.json",
        R"({"format": "armnn", "expect_error": {"id": "nnbridge.malformed.201", "code": "Invalid"}})");
  write(root / "bad_id" / "model.armnn", truncated);
  write(root / "bad_id" / "case.json", R"({"format": "armnn", "expect_error": {"id": "malformed.201"}})");
  // docs/errors.md: the hundreds digit is the code, so io.201 names no identifier.
  write(root / "digit_id" / "model.armnn", truncated);
  write(root / "digit_id" / "case.json", R"({"format": "armnn", "expect_error": {"id": "nnbridge.io.201"}})");
  write(root / "no_id" / "model.armnn", truncated);
  write(root / "no_id" / "case.json", R"({"format": "armnn", "expect_error": {"message_contains": "past"}})");
  Result r = cli("conformance " + q(root) + " --jobs 1");
  CAPTURE(r.out);
  CHECK(r.rc == 1);
  CHECK(has_line(r.out, "FAIL errors/wrong_code: expected Invalid, got Malformed"));
  CHECK(has_line(r.out, "FAIL errors/wrong_text: the Malformed message lacks \"no such words\""));
  CHECK(has_line(r.out, "FAIL errors/no_error: loaded without error; expected Malformed"));
  CHECK(has_line(r.out, "FAIL errors/bad_key: Invalid: "));
  CHECK(r.out.find("case.json: conversions: must be an array of format names") != std::string::npos);
  CHECK(has_line(r.out, "SKIP errors/skipped: kept for a later release"));
  CHECK(has_line(r.out, "FAIL errors/wrong_id: expected nnbridge.malformed.299, got nnbridge.malformed."));
  // A case.json the runner refuses is a bad option value (nnbridge.invalid.409) at its key.
  CHECK(has_line(r.out, "FAIL errors/id_code: Invalid: [nnbridge.invalid.409] "));
  CHECK(r.out.find("case.json: expect_error.code: ") != std::string::npos);
  CHECK(has_line(r.out, "FAIL errors/bad_id: Invalid: [nnbridge.invalid.409] "));
  CHECK(r.out.find("case.json: expect_error.id: ") != std::string::npos);
  CHECK(has_line(r.out, "FAIL errors/digit_id: Invalid: [nnbridge.invalid.409] "));
  CHECK(r.out.find("\"nnbridge.io.201\": the hundreds digit of an identifier is its code") != std::string::npos);
  CHECK(has_line(r.out, "FAIL errors/no_id: Invalid: [nnbridge.invalid.409] "));
  CHECK(r.out.find("case.json: expect_error: names no error: give \"id\"") != std::string::npos);
  CHECK(has_line(r.out, "0 passed, 9 failed, 1 skipped"));
}

TEST_CASE("conformance: conversions and execution through them") {
  const fs::path root = temp_dir() / "conv";
  copy_case("add_float", root, "to_json");
  write(root / "to_json" / "case.json", R"({"conversions": ["json", "vkdelegate"]})");
  Result r = cli("conformance " + q(root) + " --json");
  CAPTURE(r.out);
  REQUIRE(r.rc == 0);
  const auto j = nlohmann::json::parse(r.out);
  const auto checks = j["cases"][0]["checks"].get<std::vector<std::string>>();
  CHECK(checks == std::vector<std::string>{"decode", "roundtrip", "convert:json", "convert:vkdelegate", "run:cpu",
                                           "run:cpu:json", "run:cpu:vkdelegate"});
}

TEST_CASE("conformance: usage errors exit 2, a missing corpus folder 3") {
  CHECK(cli("conformance").rc == 2);
  CHECK(cli("conformance " + q(temp_dir() / "absent")).rc == 3);  // bad input, not usage: no such folder
  CHECK(cli("conformance " + q(source_dir() / "tests" / "golden") + " --backends nosuch").rc == 2);
  CHECK(cli("conformance " + q(source_dir() / "tests" / "golden") + " --jobs 0").rc == 2);
}
