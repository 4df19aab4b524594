// `nnbridge conformance` passes only what it checked: a case that executes nothing fails unless
// its case.json says it only decodes or round-trips (`checks`), a case whose every backend is
// left out is skipped, and the default float tolerance scales with the expected output.
//
// Oracle: hand values. The model is ONNX Relu on float32 [2] written by hand in the IR's JSON
// form; for positive x, Relu(x) = x, so the right expected output is the input itself.
#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "support/paths.h"
#include "support/shell_cli.h"

namespace fs = std::filesystem;
using namespace nnbridge::test;

namespace {

void write(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

/// An NPY 1.0 file (numpy.lib.format) of float32 values, shape [n].
void write_f32(const fs::path& p, const std::vector<float>& v) {
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + std::to_string(v.size()) + ",), }";
  header += std::string((64 - (10 + header.size() + 1) % 64) % 64, ' ') + "\n";
  std::string data(v.size() * 4, '\0');
  std::memcpy(data.data(), v.data(), data.size());
  write(p, std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header + data);
}

const char* kRelu = R"({"format": "nnbridge-ir", "version": 1,
  "values": [{"name": "x", "type": {"dtype": "float32", "shape": [2]}},
             {"name": "y", "type": {"dtype": "float32", "shape": [2]}}],
  "nodes": [{"op": "Relu", "name": "relu", "inputs": [0], "outputs": [1]}],
  "inputs": [0], "outputs": [1]})";

/// A case folder: graph.json (Relu), case.json, and optionally inputs/x.npy and outputs/y.npy.
fs::path relu_case(const fs::path& root, const std::string& name, const std::string& manifest,
                   const std::vector<float>* x = nullptr, const std::vector<float>* y = nullptr) {
  const fs::path d = root / name;
  write(d / "graph.json", kRelu);
  nlohmann::json c = nlohmann::json::parse(manifest);
  c["model"] = "graph.json";
  write(d / "case.json", c.dump());
  if (x) write_f32(d / "inputs" / "x.npy", *x);
  if (y) write_f32(d / "outputs" / "y.npy", *y);
  return d;
}

/// The line of `out` that starts with `prefix`, or "".
std::string line(const std::string& out, const std::string& prefix) {
  for (std::size_t at = 0; at < out.size();) {
    std::size_t end = out.find('\n', at);
    if (end == std::string::npos) end = out.size();
    if (out.compare(at, prefix.size(), prefix) == 0) return out.substr(at, end - at);
    at = end + 1;
  }
  return {};
}

}  // namespace

TEST_CASE("conformance: a case that executes nothing fails unless case.json says it only decodes or round-trips") {
  const fs::path root = temp_dir() / "honest";
  const std::vector<float> x{1.0f, 2.0f};
  relu_case(root, "no_data", "{}");
  relu_case(root, "inputs_only", "{}", &x);
  relu_case(root, "decode_only", R"({"checks": ["decode", "roundtrip"]})");
  relu_case(root, "absent_because", R"({"outputs_absent_because": "no peer computes it"})", &x);
  relu_case(root, "ir_missing", R"({"checks": ["decode", "ir"]})");
  relu_case(root, "bad_check", R"({"checks": ["decode", "outputs"]})");
  relu_case(root, "contradiction", R"({"checks": ["run"], "outputs_absent_because": "none"})", &x);
  relu_case(root, "runs", R"({"checks": ["decode", "run"]})", &x, &x);
  relu_case(root, "all_backends_skipped", R"({"skip_backends": {"cpu": "the kernel is not written yet"}})", &x, &x);
  Result r = cli("conformance " + q(root) + " --backends cpu --jobs 1");
  CAPTURE(r.out);
  CHECK(r.rc == 1);
  CHECK(line(r.out, "FAIL honest/no_data: nothing executed: no data set").size() > 0);
  CHECK(line(r.out, "FAIL honest/inputs_only: nothing executed: no expected output in ").find("outputs") !=
        std::string::npos);
  CHECK(line(r.out, "PASS honest/decode_only") == "PASS honest/decode_only");
  CHECK(line(r.out, "PASS honest/absent_because") == "PASS honest/absent_because");
  CHECK(line(r.out, "FAIL honest/ir_missing").find("checks lists \"ir\", which was not done: the case has no model.json") !=
        std::string::npos);
  CHECK(line(r.out, "FAIL honest/bad_check").find("checks[1]") != std::string::npos);
  CHECK(line(r.out, "FAIL honest/contradiction").find("outputs_absent_because") != std::string::npos);
  CHECK(line(r.out, "PASS honest/runs") == "PASS honest/runs");
  CHECK(line(r.out, "SKIP honest/all_backends_skipped") ==
        "SKIP honest/all_backends_skipped: nothing executed: cpu: skipped: the kernel is not written yet");
  CHECK(line(r.out, "3 passed, 5 failed, 1 skipped").size() > 0);
}

TEST_CASE("conformance: the default tolerance scales with the expected output, an explicit atol is applied as given") {
  const fs::path root = temp_dir() / "tiny";
  // Relu of positive values is the identity: the right output for x = [1e-16, 2e-16] is x.
  const std::vector<float> x{1e-16f, 2e-16f};
  // Off by 4e-16 and 2e-16: far below the former fixed atol 1e-5, yet wrong by 400% and 100%.
  const std::vector<float> wrong{5e-16f, 0.0f};
  // One float32 step above x[0] (1e-16f has exponent 2^-54, so a step is 2^-77 = 6.6e-24):
  // within rtol 1e-4 * 1e-16 = 1e-20.
  std::vector<float> close = x;
  close[0] = std::nextafter(close[0], 1.0f);
  relu_case(root, "right", "{}", &x, &x);
  relu_case(root, "close", "{}", &x, &close);
  relu_case(root, "wrong", "{}", &x, &wrong);
  relu_case(root, "wrong_explicit_atol", R"({"tolerance": {"float32": {"atol": 1e-5, "rtol": 1e-4}}})", &x, &wrong);
  relu_case(root, "wrong_rtol_only", R"({"tolerance": {"float32": {"rtol": 1e-4}}})", &x, &wrong);
  Result r = cli("conformance " + q(root) + " --backends cpu --jobs 1");
  CAPTURE(r.out);
  CHECK(r.rc == 1);
  CHECK(line(r.out, "PASS tiny/right") == "PASS tiny/right");
  CHECK(line(r.out, "PASS tiny/close") == "PASS tiny/close");
  // S = max|e| = 5e-16: atol = 1e-5 * 5e-16 = 5e-21, reported with the error measures.
  const std::string w = line(r.out, "FAIL tiny/wrong: run:cpu: output \"y\": values differ beyond the tolerance");
  CHECK(w.find("atol 5e-21") != std::string::npos);
  CHECK(line(r.out, "PASS tiny/wrong_explicit_atol") == "PASS tiny/wrong_explicit_atol");
  CHECK(line(r.out, "FAIL tiny/wrong_rtol_only").size() > 0);
  CHECK(line(r.out, "3 passed, 2 failed").size() > 0);
}
