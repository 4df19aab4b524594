// Replays every input kept in tests/fuzz/regressions/<reader>/ (what a fuzzer or the malformed
// corpus once crashed or misread, now fixed) through the CLI: each must end in exit 3 with a
// message naming the file, no signal, and no output. An input named *.valid.* is one the reader
// must accept (it crashed a later stage): exit 0.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>

#include "process.h"
#include "support/paths.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

// The CLI command that feeds a file to each reader; IN and OUT are substituted.
const std::map<std::string, std::vector<std::string>>& commands() {
  static const std::map<std::string, std::vector<std::string>> m = {
      {"armnn", {"convert", "--from", "armnn", "IN", "OUT", "--to", "json"}},
      {"vkgraph", {"convert", "--from", "vkgraph", "IN", "OUT", "--to", "json"}},
      {"vkdelegate", {"convert", "--from", "vkdelegate", "IN", "OUT", "--to", "json"}},
      {"afcm", {"convert", "--from", "afcm", "IN", "OUT", "--to", "json"}},
      {"pte", {"convert", "--from", "pte", "IN", "OUT", "--to", "json"}},
      {"ptd", {"convert", "--from", "ptd", "IN", "OUT", "--to", "json"}},
      {"ir_json", {"convert", "--from", "json", "IN", "OUT", "--to", "json"}},
      {"onnx", {"convert", "--from", "onnx", "IN", "OUT", "--to", "json"}},
      {"armnn_json", {"convert", "--from", "armnn-json", "IN", "OUT", "--to", "json"}},
      {"tflite_settings_protobinary", {"config", "convert", "--from", "proto-binary", "IN", "OUT", "--to", "proto-text"}},
      {"tflite_settings_prototext", {"config", "convert", "--from", "proto-text", "IN", "OUT", "--to", "proto-binary"}},
      {"tflite_settings_protojson", {"config", "convert", "--from", "proto-json", "IN", "OUT", "--to", "proto-text"}},
      {"tflite_settings_fb", {"config", "convert", "--from", "fb", "IN", "OUT", "--to", "proto-text"}},
      {"tflite_settings_fbjson", {"config", "convert", "--from", "fb-json", "IN", "OUT", "--to", "proto-text"}},
  };
  return m;
}

}  // namespace

TEST_CASE("fuzz regressions: every kept input ends in a clean error through the CLI") {
  const fs::path root = source_dir() / "tests" / "fuzz" / "regressions";
  REQUIRE(fs::is_directory(root));
  const fs::path dir = temp_dir();
  int replayed = 0;
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().filename() != "README.md") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const fs::path& file : files) {
    const std::string reader = file.parent_path().filename().string();
    // fuzz_run's inputs are graphs run with generated inputs, which the CLI cannot make: they are
    // replayed by the fuzz.smoke.run test (smoke tests read regressions/<harness>/ too).
    if (reader == "run") continue;
    // The CLI reads TensorProto files only inside an ONNX conformance case (input_<i>.pb):
    // fuzz.smoke.onnx_tensor replays these.
    if (reader == "onnx_tensor") continue;
    const bool valid = file.filename().string().find(".valid.") != std::string::npos;
    CAPTURE(file);
    std::vector<std::string> args;
    fs::path out = dir / "out";
    fs::path in = file;
    if (reader == "npy") {
      // add_softmax reads a.npy and b.npy: the kept input is a.npy.
      const fs::path model = source_dir() / "examples" / "models" / "add_softmax";
      fs::remove_all(dir / "in");
      fs::create_directories(dir / "in");
      fs::create_directories(out);
      fs::copy_file(file, dir / "in" / "a.npy");
      fs::copy_file(model / "inputs" / "b.npy", dir / "in" / "b.npy");
      in = dir / "in" / "a.npy";
      args = {"run", (model.string() + ".armnn"), "--inputs", (dir / "in").string(), "--outputs", out.string()};
    } else {
      auto it = commands().find(reader);
      REQUIRE_MESSAGE(it != commands().end(), "no CLI command for the reader folder '" << reader << "'");
      for (const std::string& a : it->second) args.push_back(a == "IN" ? in.string() : a == "OUT" ? out.string() : a);
    }
    RunResult r = run_cli(args);
    CHECK(r.signal == 0);
    if (valid) {
      CHECK(r.code == 0);
    } else {
      CHECK(r.code == 3);
      CHECK(r.err.find(in.string()) != std::string::npos);
      if (fs::is_directory(out)) CHECK(fs::is_empty(out));
      else CHECK_FALSE(fs::exists(out));
    }
    fs::remove_all(out);
    ++replayed;
  }
  MESSAGE(replayed << " regression inputs replayed");
  CHECK(replayed > 0);
}
