// `nnbridge config convert|check|dump` in a child process: exit codes (0 ok, 1 check found an
// error, 2 usage, 3 bad input or an output the form cannot express), messages, files left.
#include <doctest/doctest.h>

#include "../../cli/process.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge::test;
using namespace nnbridge::test::tflite_accel;
namespace fs = std::filesystem;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("tflite_accel cli: convert between forms by extension and by option") {
  const fs::path dir = temp_dir();
  write_file(dir / "in.txtpb", "delegate: XNNPACK xnnpack_settings { num_threads: 5 flags: TFLITE_XNNPACK_DELEGATE_FLAG_QS8 }");
  RunResult r = run_cli({"config", "convert", (dir / "in.txtpb").string(), (dir / "out.pb").string()});
  CHECK(r.code == 0);
  CHECK(r.err.empty());
  CHECK(contains(r.out, "(proto-text) -> "));
  CHECK(contains(r.out, "(proto-binary, TFLiteSettings)"));
  CHECK(hex(read_file(dir / "out.pb")) == "08 04 2a 04 08 05 10 01");
  r = run_cli({"config", "convert", (dir / "out.pb").string(), (dir / "out.data").string(), "--to", "fb-json"});
  CHECK(r.code == 0);
  CHECK(contains(read_file(dir / "out.data"), "\"TFLITE_XNNPACK_DELEGATE_FLAG_QS8\""));
  r = run_cli({"config", "dump", (dir / "out.data").string(), "--from", "fb-json"});
  CHECK(r.code == 0);
  CHECK(r.out == "delegate: XNNPACK\nxnnpack_settings {\n  num_threads: 5\n  flags: TFLITE_XNNPACK_DELEGATE_FLAG_QS8\n}\n");
  // Another root message.
  write_file(dir / "c.txtpb", "preference: LOW_LATENCY tflite_settings { delegate: GPU }");
  r = run_cli({"config", "convert", (dir / "c.txtpb").string(), (dir / "c.fb").string(), "--message", "ComputeSettings"});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "(fb, ComputeSettings)"));
  r = run_cli({"config", "dump", (dir / "c.fb").string(), "--message", "tflite.ComputeSettings"});
  CHECK(r.code == 0);
  CHECK(r.out == "preference: LOW_LATENCY\ntflite_settings {\n  delegate: GPU\n}\n");
}

TEST_CASE("tflite_accel cli: check exits 1 on an error, 0 on warnings alone") {
  const fs::path dir = temp_dir();
  write_file(dir / "bad.json", R"({ "cpu_settings": { "num_threads": 0 } })");
  RunResult r = run_cli({"config", "check", (dir / "bad.json").string()});
  CHECK(r.code == 1);
  CHECK(contains(r.out, "bad.json: error: cpu_settings.num_threads: 0: must be -1"));
  CHECK(contains(r.out, "1 error(s), 0 warning(s)"));
  write_file(dir / "warn.json", R"({ "delegate": "EDGETPU_CORAL", "coral_settings": { } })");
  r = run_cli({"config", "check", (dir / "warn.json").string()});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "warning: coral_settings.performance"));
  write_file(dir / "ok.json", R"({ "delegate": "XNNPACK", "xnnpack_settings": { "num_threads": 5 } })");
  r = run_cli({"config", "check", (dir / "ok.json").string()});
  CHECK(r.code == 0);
  CHECK(r.out == (dir / "ok.json").string() + ": 0 error(s), 0 warning(s)\n");
}

TEST_CASE("tflite_accel cli: the shared samples") {
  auto dir = shared_sample("tflite_settings");
  NNBRIDGE_REQUIRE_SHARED(dir);
  RunResult r = run_cli({"config", "check", (*dir / "test_missing_delegate_path_settings.json").string()});
  CHECK(r.code == 1);
  CHECK(contains(r.out, "error: stable_delegate_loader_settings.delegate_path"));
  r = run_cli({"config", "check", (*dir / "test_stable_xnnpack_settings.json").string()});
  CHECK(r.code == 0);
  const fs::path out = temp_dir() / "x.pb";
  r = run_cli({"config", "convert", (*dir / "test_invalid_settings.json").string(), out.string()});
  CHECK(r.code == 3);
  CHECK(contains(r.err, "test_invalid_settings.json: line 3, column 22: unknown field: invalid"));
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("tflite_accel cli: what the target form cannot express exits 3 and writes nothing") {
  const fs::path dir = temp_dir();
  write_file(dir / "mask.json", R"({ "xnnpack_settings": { "flags": 9 } })");
  RunResult r = run_cli({"config", "convert", (dir / "mask.json").string(), (dir / "mask.txtpb").string()});
  CHECK(r.code == 3);
  CHECK(contains(r.err, "mask.txtpb: xnnpack_settings.flags: 9 is not a value"));
  CHECK(contains(r.err, "mask.json: warning: xnnpack_settings.flags"));
  CHECK_FALSE(fs::exists(dir / "mask.txtpb"));
  // proto-binary keeps it (as protobuf itself does), with the warning.
  r = run_cli({"config", "convert", (dir / "mask.json").string(), (dir / "mask.pb").string()});
  CHECK(r.code == 0);
  CHECK(contains(r.err, "warning: xnnpack_settings.flags"));
  CHECK(hex(read_file(dir / "mask.pb")) == "2a 02 10 09");
}

TEST_CASE("tflite_accel cli: usage and input errors") {
  const fs::path dir = temp_dir();
  write_file(dir / "s.json", "{}");
  CHECK(run_cli({"config"}).code == 2);
  CHECK(run_cli({"config", "convert", (dir / "s.json").string()}).code == 2);
  CHECK(run_cli({"config", "dump", (dir / "s.json").string(), "--from", "yaml"}).code == 2);
  CHECK(run_cli({"config", "dump", (dir / "s.json").string(), "--message", "NoSuchMessage"}).code == 2);
  RunResult r = run_cli({"config", "dump", (dir / "missing.json").string()});
  CHECK(r.code == 3);
  CHECK(contains(r.err, "missing.json"));
  r = run_cli({"config", "convert", (dir / "s.json").string(), (dir / "s.unknown").string()});
  CHECK(r.code == 3);
  CHECK(contains(r.err, "s.unknown"));
  CHECK_FALSE(fs::exists(dir / "s.unknown"));
  write_file(dir / "garbage.fb", std::string(40, '\x07'));
  r = run_cli({"config", "check", (dir / "garbage.fb").string()});
  CHECK(r.code == 3);
  CHECK(contains(r.err, "garbage.fb"));
  CHECK_FALSE(contains(r.err, "internal error"));
}

TEST_CASE("tflite_accel cli: -I settings.max_size refuses a larger file, exit 3, naming the option") {
  const fs::path dir = temp_dir();
  write_file(dir / "s.txtpb", "delegate: GPU");  // 13 bytes
  RunResult r = run_cli({"config", "dump", (dir / "s.txtpb").string(), "-I", "settings.max_size=13"});
  CHECK(r.code == 0);
  r = run_cli({"config", "convert", (dir / "s.txtpb").string(), (dir / "s.pb").string(), "-I", "settings.max_size=12"});
  CHECK(r.code == 3);
  CHECK(contains(r.err, "s.txtpb"));
  CHECK(contains(r.err, "settings.max_size"));
  CHECK_FALSE(fs::exists(dir / "s.pb"));
  r = run_cli({"config", "check", (dir / "s.txtpb").string(), "-I", "settings.max_nodes=1"});
  CHECK(r.code != 0);
  CHECK(contains(r.err, "settings.max_depth"));
}
