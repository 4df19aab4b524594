// `nnbridge validate`: golden Arm NN cases (tests/golden/armnn: inputs and outputs written by
// Arm NN 20.08 CpuRef, an independent runtime) pass; an expected file tampered by a known amount
// fails with that error measured; exit codes 0/1/2/3.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <nlohmann/json.hpp>

#include "exec_cli.h"
#ifdef NNBRIDGE_HAVE_OPENCL
#include "nnbridge/gpu.h"
#endif
#include "support/paths.h"

using namespace nnbridge::test;
namespace fs = std::filesystem;

namespace {

fs::path golden(const std::string& name) { return source_dir() / "tests/golden/armnn" / name; }

std::string validate_args(const fs::path& c, const std::string& expected_dir = "") {
  return "validate " + q(c / "model.armnn") + " --inputs " + q(c / "inputs") + " --expected " +
         q(expected_dir.empty() ? c / "outputs" : fs::path(expected_dir));
}

// A copy of the case's outputs/ with element 0 of y.npy raised by 0.5; returns the folder and
// the element before and after.
struct Tampered {
  fs::path dir;
  float before, after;
};
Tampered tamper(const fs::path& c) {
  Tampered t{temp_dir() / "expected", 0, 0};
  fs::create_directories(t.dir);
  std::string bytes = read_file(c / "outputs/y.npy");
  t.before = npy_float(bytes, 0);
  t.after = t.before + 0.5f;
  set_npy_float(bytes, 0, t.after);
  write_file(t.dir / "y.npy", bytes);
  return t;
}

bool have_opencl() {
#ifdef NNBRIDGE_HAVE_OPENCL
  if (!nnbridge::gpu::list_devices().empty()) return true;
  skip("no OpenCL platform or device (install pocl-opencl-icd)");
#else
  skip("this build has no opencl backend");
#endif
  return false;
}

}  // namespace

TEST_CASE("validate: golden Arm NN cases pass against Arm NN CpuRef's outputs (exit 0)") {
  for (const char* name : {"activation_relu", "activation_relu_qasymmu8", "conv2d_nhwc_stride2_dilated_pad2"}) {
    CAPTURE(name);
    const Result r = cli(validate_args(golden(name)));
    CHECK(r.rc == 0);
    CHECK(contains(r.out, "y [cpu]: max_abs_error "));
    CHECK(contains(r.out, ": pass\n"));
    CHECK(contains(r.out, "validate: PASS: 1 of 1 comparison(s) passed against "));
  }
  // ReLU is exact in IEEE 754 arithmetic: Arm NN's outputs and ours are the same floats.
  const Result r = cli(validate_args(golden("activation_relu")));
  CHECK(contains(r.out, "y [cpu]: max_abs_error 0, max_rel_error 0, max_ulp 0: pass"));
}

TEST_CASE("validate: an expected file tampered by +0.5 fails (exit 1) and measures the error") {
  const fs::path c = golden("activation_relu");
  const Tampered t = tamper(c);
  Result r = cli(validate_args(c, t.dir.string()));
  CHECK(r.rc == 1);
  CHECK(contains(r.out, "y [cpu]: "));
  CHECK(contains(r.out, "FAIL (values differ beyond the tolerance)"));
  CHECK(contains(r.out, "validate: FAIL: 0 of 1 comparison(s) passed"));

  r = cli(validate_args(c, t.dir.string()) + " --json");
  CHECK(r.rc == 1);
  const auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["results"].size() == 1);
  const auto& res = j["results"][0];
  CHECK(res["passed"] == false);
  // Element 0 is the only difference, so the maxima are its own (ReLU output >= 0, so the
  // ULP distance is the difference of the bit patterns read as integers).
  const double abs_err = static_cast<double>(t.after) - static_cast<double>(t.before);
  CHECK(res["max_abs_error"].get<double>() == doctest::Approx(abs_err).epsilon(1e-12));
  REQUIRE(t.before >= 0);
  CHECK(res["max_ulp"].get<uint64_t>() == std::bit_cast<uint32_t>(t.after) - std::bit_cast<uint32_t>(t.before));
  if (t.after != 0) CHECK(res["max_rel_error"].get<double>() >= abs_err / std::fabs(t.after) * 0.999);

  // --atol 0.6 admits it: exit 0.
  r = cli(validate_args(c, t.dir.string()) + " --atol 0.6");
  CHECK(r.rc == 0);
  CHECK(contains(r.out, "validate: PASS"));
}

TEST_CASE("validate: usage errors exit 2, bad input exits 3") {
  const fs::path c = golden("activation_relu");
  const std::string model = q(c / "model.armnn");
  // No --inputs; a single cpu backend with nothing to compare with; an unknown backend; a backend twice.
  CHECK(cli("validate " + model).rc == 2);
  Result r = cli("validate " + model + " --inputs " + q(c / "inputs") + " --backends cpu");
  CHECK(r.rc == 2);
  CHECK(contains(r.out, "nothing to compare with"));
  r = cli(validate_args(c) + " --backends cpu,nosuch");
  CHECK(r.rc == 2);
  CHECK(contains(r.out, "no backend named \"nosuch\""));
  CHECK(cli(validate_args(c) + " --backends cpu,cpu").rc == 2);
  CHECK(cli(validate_args(c) + " --atol -1").rc == 2);

  // A missing inputs folder, an expected folder with a stray file, a missing expected file.
  r = cli("validate " + model + " --inputs " + q(c / "no_such_dir") + " --expected " + q(c / "outputs"));
  CHECK(r.rc == 3);
  CHECK(contains(r.out, "no_such_dir"));
  CHECK(contains(r.out, "[nnbridge.io.101]"));
  CHECK(contains(r.out, "no such folder"));
  r = cli("validate " + model + " --inputs " + q(c / "inputs/x.npy") + " --expected " + q(c / "outputs"));
  CHECK(r.rc == 3);
  CHECK(contains(r.out, "[nnbridge.io.105]"));
  CHECK(contains(r.out, "not a folder"));
  const fs::path extra = temp_dir() / "extra";
  fs::create_directories(extra);
  fs::copy_file(c / "outputs/y.npy", extra / "y.npy");
  write_file(extra / "z.npy", "x");
  r = cli(validate_args(c, extra.string()));
  CHECK(r.rc == 3);
  CHECK(contains(r.out, "\"z.npy\" is not a graph output"));
  CHECK(contains(r.out, "nnbridge.invalid.401"));  // docs/errors.md: DanglingReference
  // A stray file among the inputs is an input the graph does not have: MissingInput, as
  // conformance and Python's run() say.
  const fs::path stray_inputs = temp_dir() / "stray_inputs";
  fs::create_directories(stray_inputs);
  fs::copy_file(c / "inputs/x.npy", stray_inputs / "x.npy", fs::copy_options::overwrite_existing);
  fs::copy_file(c / "inputs/x.npy", stray_inputs / "w.npy", fs::copy_options::overwrite_existing);
  r = cli("validate " + model + " --inputs " + q(stray_inputs) + " --expected " + q(c / "outputs"));
  CHECK(r.rc == 3);
  CHECK(contains(r.out, "\"w.npy\" is not a graph input"));
  CHECK(contains(r.out, "nnbridge.invalid.410"));
  fs::remove(extra / "y.npy");
  fs::remove(extra / "z.npy");
  r = cli(validate_args(c, extra.string()));
  CHECK(r.rc == 3);
  CHECK(contains(r.out, "missing the file for graph output \"y\""));
  // An expected file of another shape (another case's output).
  fs::copy_file(golden("activation_relu_qasymmu8") / "outputs/y.npy", extra / "y.npy");
  r = cli(validate_args(c, extra.string()));
  CHECK(r.rc == 3);
  CHECK(contains(r.out, "graph output \"y\" needs shape [1, 2, 3, 4], the file has [1, 4, 4, 2]"));
}

TEST_CASE("validate: opencl against cpu and against Arm NN CpuRef") {
  if (!have_opencl()) return;
  const fs::path c = golden("conv2d_nhwc_stride2_dilated_pad2");
  Result r = cli("validate " + q(c / "model.armnn") + " --inputs " + q(c / "inputs") + " --backends cpu,opencl");
  CHECK(r.rc == 0);
  CHECK(contains(r.out, "y [opencl]: "));
  CHECK(contains(r.out, "against backend cpu"));
  r = cli(validate_args(c) + " --backends opencl,cpu");
  CHECK(r.rc == 0);
  CHECK(contains(r.out, "validate: PASS: 2 of 2 comparison(s) passed"));
  // A single non-cpu backend without --expected is compared with cpu.
  r = cli("validate " + q(c / "model.armnn") + " --inputs " + q(c / "inputs") + " --backends opencl");
  CHECK(r.rc == 0);
  CHECK(contains(r.out, "against backend cpu"));
}

TEST_CASE("validate: without --backends and --expected cpu is compared with opencl when OpenCL lists a device") {
  // The rule (README, `validate --help`): the default is cpu against opencl when an OpenCL device
  // is listed, else nothing to compare with (exit 2).
  const fs::path c = golden("activation_relu");
  const Result r = cli("validate " + q(c / "model.armnn") + " --inputs " + q(c / "inputs"));
#ifdef NNBRIDGE_HAVE_OPENCL
  const bool device = !nnbridge::gpu::list_devices().empty();
#else
  const bool device = false;
#endif
  if (device) {
    CHECK(r.rc == 0);
    CHECK(contains(r.out, "y [opencl]: "));
    CHECK(contains(r.out, "validate: PASS: 1 of 1 comparison(s) passed against backend cpu"));
  } else {
    CHECK(r.rc == 2);
    CHECK(contains(r.out, "nothing to compare with"));
    CHECK(contains(r.out, "OpenCL lists no device"));
  }
  // With --expected the default stays cpu alone: one comparison.
  const Result e = cli(validate_args(c));
  CHECK(e.rc == 0);
  CHECK(contains(e.out, "validate: PASS: 1 of 1 comparison(s) passed against "));
}

TEST_CASE("validate --quantized-steps: a quantized output 2 steps off passes with 2, fails with the default 1") {
  // The case's y.npy (uint8, Arm NN 20.08 CpuRef's) with element 0 moved by 2 storage steps: by
  // the rule |q_a - q_e| <= N, it fails with N = 1 and passes with N = 2.
  const fs::path c = golden("activation_relu_qasymmu8");
  const fs::path dir = temp_dir() / "expected";
  fs::create_directories(dir);
  std::string bytes = read_file(c / "outputs/y.npy");
  unsigned char& q = reinterpret_cast<unsigned char&>(bytes[npy_data_offset(bytes)]);
  q = q <= 253 ? q + 2 : q - 2;
  write_file(dir / "y.npy", bytes);
  Result r = cli(validate_args(c, dir.string()));
  CHECK(r.rc == 1);
  CHECK(contains(r.out, "FAIL"));
  r = cli(validate_args(c, dir.string()) + " --quantized-steps 2");
  CHECK(r.rc == 0);
  CHECK(contains(r.out, "quantized 2 step(s)"));
  r = cli(validate_args(c, dir.string()) + " --quantized-steps 2 --json");
  CHECK(r.rc == 0);
  CHECK(contains(r.out, "\"quantized_steps\": 2"));
  CHECK(cli(validate_args(c) + " --quantized-steps -1").rc == 2);
}
