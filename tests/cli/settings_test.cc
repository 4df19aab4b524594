// `run`/`validate` with --settings (TFLite acceleration settings choosing backend, threads and
// fallback; explicit flags win) and --benchmark-event (decoded by protoc, an independent decoder).
// Settings documents are written here by hand; the mapping they must give is the table in
// nnbridge/config/tflite_execution.h.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "exec_cli.h"
#include "nnbridge/io.h"
#ifdef NNBRIDGE_HAVE_OPENCL
#include "nnbridge/gpu.h"
#endif
#include "support/paths.h"

using namespace nnbridge;
using namespace nnbridge::test;
namespace fs = std::filesystem;

namespace {

bool have_opencl() {
#ifdef NNBRIDGE_HAVE_OPENCL
  if (!gpu::list_devices().empty()) return true;
  skip("no OpenCL platform or device (install pocl-opencl-icd)");
#else
  skip("this build has no opencl backend");
#endif
  return false;
}

// x [1, 1, 2, 3] float32 -> armnn.StandIn named "ScaledTanh" -> y [1, 1, 2, 3], with
// x = [[[[3, 4, 0], [1, 2, 2]]]] in in/. No backend has a built-in kernel for it; the example cpu
// extension (examples/extension, passed with --extension) gives cpu one (y = 1.7159 tanh(2/3 x)),
// so GPU settings must fall back to cpu to run it.
struct Model {
  fs::path dir, model, in;
};
constexpr const char* kNoOpenclKernel = "armnn.StandIn";
Model scaled_tanh_model() {
  Model m{temp_dir(), {}, {}};
  m.model = m.dir / "model.json";
  m.in = m.dir / "in";
  Graph g;
  g.values.push_back(Value{"x", TensorType{DataType::Float32, {1, 1, 2, 3}, false, std::nullopt}, {}, {}});
  g.values.push_back(Value{"y", TensorType{DataType::Float32, {1, 1, 2, 3}, false, std::nullopt}, {}, {}});
  g.nodes.push_back(Node{kNoOpenclKernel, "ScaledTanh", {0}, {1}, {}});
  g.inputs = {0};
  g.outputs = {1};
  save(g, m.model);
  fs::create_directories(m.in);
  // A version 1.0 .npy written by hand: '<f4', shape (1, 1, 2, 3), header padded to 128 bytes as NumPy does.
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (1, 1, 2, 3), }";
  header.resize(128 - 10 - 1, ' ');
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8) + char(header.size()) + '\0' + header;
  const float x[] = {3, 4, 0, 1, 2, 2};
  bytes.append(reinterpret_cast<const char*>(x), sizeof x);
  write_file(m.in / "x.npy", bytes);
  return m;
}

std::string run_args(const Model& m, const std::string& out = "out") {
  return "run " + q(m.model) + " --inputs " + q(m.in) + " --outputs " + q(m.dir / out) + " --json --extension " +
         q(NNBRIDGE_EXAMPLE_EXT);
}

fs::path settings_file(const std::string& name, const std::string& text) {
  const fs::path p = temp_dir() / name;
  write_file(p, text);
  return p;
}

nlohmann::json summary(const Result& r) {
  try {
    return nlohmann::json::parse(r.out);
  } catch (const std::exception&) {
    FAIL("not JSON: " << r.out);
    return {};
  }
}

const char* kGpuFallback =
    "delegate: GPU\ngpu_settings { force_backend: OPENCL }\n"
    "fallback_settings { allow_automatic_fallback_on_compilation_error: true }\n";

}  // namespace

TEST_CASE("run --settings: GPU + allow_automatic_fallback_on_compilation_error runs an op without an opencl kernel on cpu") {
  if (!have_opencl()) return;
#ifdef NNBRIDGE_HAVE_OPENCL
  const auto ops = gpu::supported_ops();
  REQUIRE(std::find(ops.begin(), ops.end(), kNoOpenclKernel) == ops.end());  // the fallback path is what runs
#endif
  const Model m = scaled_tanh_model();
  const fs::path s = settings_file("gpu_fallback.txtpb", kGpuFallback);
  Result r = cli(run_args(m) + " --settings " + q(s));
  REQUIRE(r.rc == 0);
  // The one node ran on cpu: the summary says so, never "opencl" (the backend asked for).
  CHECK(summary(r)["backend"] == "cpu");
  CHECK(summary(r)["requested_backend"] == "opencl");
  CHECK(summary(r)["backends"] == nlohmann::json{{"cpu", 1}});
  REQUIRE(summary(r)["nodes"].size() == 1);
  CHECK(summary(r)["nodes"][0]["op"] == kNoOpenclKernel);
  CHECK(summary(r)["nodes"][0]["backend"] == "cpu");
  // LeCun's scaled tanh, the extension's formula: 1.7159 tanh(2/3 x); tanh(0) = 0 exactly.
  const std::string y = read_file(m.dir / "out/y.npy");
  const float x[] = {3, 4, 0, 1, 2, 2};
  CHECK(npy_float(y, 2) == 0.0f);
  for (int i = 0; i < 6; ++i) CHECK(npy_float(y, i) == doctest::Approx(1.7159 * std::tanh(2.0 / 3.0 * x[i])).epsilon(1e-6));

  // Without the fallback the op is refused, naming it (exit 3); --fallback none beats the settings.
  r = cli(run_args(m, "out2") + " --settings " + q(settings_file("gpu.txtpb", "delegate: GPU\n")));
  CHECK(r.rc == 3);
  CHECK(contains(r.out, kNoOpenclKernel));
  r = cli(run_args(m, "out3") + " --settings " + q(s) + " --fallback none");
  CHECK(r.rc == 3);
  CHECK(contains(r.out, kNoOpenclKernel));
  CHECK(!fs::exists(m.dir / "out3"));
  // --backend cpu beats delegate GPU.
  r = cli(run_args(m, "out4") + " --settings " + q(s) + " --backend cpu");
  CHECK(r.rc == 0);
  CHECK(summary(r)["backend"] == "cpu");
}

TEST_CASE("run --settings: NONE and XNNPACK choose cpu, num_threads gives threads unless --threads is given") {
  const Model m = scaled_tanh_model();
  struct Case {
    const char* file;
    const char* text;
    int threads;
  };
  // Expected threads from the mapping: -1 -> 0 (all cores), n -> n, XNNPACK's own num_threads first.
  for (const Case& c : {Case{"a.txtpb", "delegate: NONE\ncpu_settings { num_threads: 3 }\n", 3},
                        Case{"b.txtpb", "cpu_settings { num_threads: -1 }\n", 0},
                        Case{"c.json", "{ delegate: XNNPACK, xnnpack_settings: { num_threads: 5 } }", 5},
                        Case{"d.pb.json", R"({"tfliteSettings": {"delegate": "XNNPACK", "cpuSettings": {"numThreads": 2}}})", 2}}) {
    CAPTURE(c.file);
    const fs::path s = settings_file(c.file, c.text);
    Result r = cli(run_args(m, std::string("o_") + c.file) + " --settings " + q(s));
    REQUIRE(r.rc == 0);
    CHECK(summary(r)["backend"] == "cpu");
    CHECK(summary(r)["threads"] == c.threads);
    r = cli(run_args(m, std::string("p_") + c.file) + " --settings " + q(s) + " --threads 1");
    REQUIRE(r.rc == 0);
    CHECK(summary(r)["threads"] == 1);
  }
}

TEST_CASE("run --settings: TFLite's own XNNPACK settings file (../shared/samples/tflite_settings)") {
  auto dir = shared_sample("tflite_settings");
  NNBRIDGE_REQUIRE_SHARED(dir);
  const Model m = scaled_tanh_model();
  // The file says delegate XNNPACK, xnnpack_settings.num_threads 5.
  const Result r = cli(run_args(m) + " --settings " + q(*dir / "test_xnnpack_settings.json"));
  REQUIRE(r.rc == 0);
  CHECK(summary(r)["backend"] == "cpu");
  CHECK(summary(r)["threads"] == 5);
  // {"invalid": "invalid"} is no settings document: exit 3 naming the file.
  const Result bad = cli(run_args(m, "bad") + " --settings " + q(*dir / "test_invalid_settings.json"));
  CHECK(bad.rc == 3);
  CHECK(contains(bad.out, "test_invalid_settings.json"));
}

TEST_CASE("run/validate --settings: other delegates exit 3, naming the delegate and the file") {
  const Model m = scaled_tanh_model();
  for (const char* d : {"NNAPI", "HEXAGON", "EDGETPU", "EDGETPU_CORAL", "CORE_ML", "ARMNN", "MTK_NEURON"}) {
    CAPTURE(d);
    const fs::path s = settings_file(std::string(d) + ".txtpb", std::string("delegate: ") + d + "\n");
    const Result r = cli(run_args(m, d) + " --settings " + q(s));
    CHECK(r.rc == 3);
    CHECK(contains(r.out, s.string()));
    CHECK(contains(r.out, std::string("delegate ") + d + " is not available"));
  }
  const fs::path gl = settings_file("gl.txtpb", "delegate: GPU\ngpu_settings { force_backend: OPENGL }\n");
  Result r = cli(run_args(m, "gl") + " --settings " + q(gl));
  CHECK(r.rc == 3);
  CHECK(contains(r.out, "gpu_settings.force_backend"));
  CHECK(contains(r.out, "OPENGL"));
  r = cli("validate " + q(m.model) + " --inputs " + q(m.in) + " --backends cpu,cpu --settings " + q(gl));
  CHECK(r.rc == 3);  // the settings are read before the backends are checked
  r = cli("validate " + q(m.model) + " --inputs " + q(m.in) + " --settings " + q(gl));
  CHECK(r.rc == 3);
  CHECK(contains(r.out, "OPENGL"));
}

TEST_CASE("validate --settings: the settings' backend is checked against cpu") {
  if (!have_opencl()) return;
  const Model m = scaled_tanh_model();
  const fs::path s = settings_file("gpu_fallback.pb.json",
                                   R"({"delegate": "GPU", "fallbackSettings": {"allowAutomaticFallbackOnCompilationError": true}})");
  const Result r = cli("validate " + q(m.model) + " --inputs " + q(m.in) + " --settings " + q(s) + " --extension " +
                       q(NNBRIDGE_EXAMPLE_EXT));
  CHECK(r.rc == 0);
  CHECK(contains(r.out, "y [opencl]: "));
  CHECK(contains(r.out, "against backend cpu"));
}

TEST_CASE("--benchmark-event: END from run and validate, ERROR with stage and codes, decoded by protoc") {
  const Model m = scaled_tanh_model();
  const fs::path s = settings_file("cpu3.txtpb", "delegate: XNNPACK\ncpu_settings { num_threads: 3 }\n");
  const fs::path ev = m.dir / "event.pb";
  Result r = cli(run_args(m) + " --settings " + q(s) + " --benchmark-event " + q(ev));
  REQUIRE(r.rc == 0);
  auto d = protoc_decode_event(ev);
  REQUIRE(d);
  CHECK(d->rfind("tflite_settings {\n  delegate: XNNPACK\n  cpu_settings {\n    num_threads: 3\n  }\n}\nevent_type: END\n", 0) == 0);
  CHECK(contains(*d, "  initialization_time_us: "));
  CHECK(contains(*d, "  inference_time_us: "));
  CHECK(contains(*d, "  max_memory_kb: "));
  CHECK(contains(*d, "  ok: true\n"));
  CHECK(contains(*d, "wallclock_us: "));
  CHECK(d->find("error {") == std::string::npos);

  // Unavailable delegate: ERROR at INITIALIZATION, sourced to that delegate, exit code 3,
  // underlying_api_error 1 + ErrorCode::Unsupported (2).
  const fs::path nnapi = settings_file("nnapi.txtpb", "delegate: NNAPI\n");
  r = cli(run_args(m, "o2") + " --settings " + q(nnapi) + " --benchmark-event " + q(m.dir / "err.pb"));
  CHECK(r.rc == 3);
  d = protoc_decode_event(m.dir / "err.pb");
  REQUIRE(d);
  CHECK(*d ==
        "tflite_settings {\n  delegate: NNAPI\n}\nevent_type: ERROR\nerror {\n  stage: INITIALIZATION\n  exit_code: 3\n"
        "  error_code {\n    source: NNAPI\n    tflite_error: 1\n    underlying_api_error: 3\n  }\n}\n" +
            d->substr(d->find("boottime_us")));

  // validate against a tampered expected file: END with ok false and the error per output.
  const fs::path c = source_dir() / "tests/golden/armnn/activation_relu";
  const fs::path expected = m.dir / "expected";
  fs::create_directories(expected);
  std::string bytes = read_file(c / "outputs/y.npy");
  const float before = npy_float(bytes, 0);
  set_npy_float(bytes, 0, before + 0.5f);
  write_file(expected / "y.npy", bytes);
  r = cli("validate " + q(c / "model.armnn") + " --inputs " + q(c / "inputs") + " --expected " + q(expected) +
          " --benchmark-event " + q(m.dir / "validate.txtpb"));
  CHECK(r.rc == 1);
  // The text form, by extension; protoc reads it back through --encode, so check its text here.
  const std::string text = read_file(m.dir / "validate.txtpb");
  CHECK(contains(text, "event_type: END\n"));
  CHECK(contains(text, "  ok: false\n"));
  CHECK(contains(text, "    name: \"cpu.max_abs_error\"\n    values: 0.5\n"));
  CHECK(contains(text, "    name: \"cpu.max_ulp\"\n"));

  // An unknown extension writes proto-binary.
  r = cli("validate " + q(c / "model.armnn") + " --inputs " + q(c / "inputs") + " --expected " + q(c / "outputs") +
          " --benchmark-event " + q(m.dir / "validate.event"));
  CHECK(r.rc == 0);
  d = protoc_decode_event(m.dir / "validate.event");
  REQUIRE(d);
  CHECK(contains(*d, "event_type: END\n"));
  CHECK(contains(*d, "  ok: true\n"));
  CHECK(contains(*d, "    name: \"cpu.max_abs_error\"\n    values: 0\n"));
}

TEST_CASE("--benchmark-event: ERROR at INITIALIZATION sourced to GPU when the opencl plan cannot be built") {
  if (!have_opencl()) return;
  const Model m = scaled_tanh_model();
  const Result r = cli(run_args(m) + " --backend opencl --benchmark-event " + q(m.dir / "gpu.pb"));
  CHECK(r.rc == 3);
  const auto d = protoc_decode_event(m.dir / "gpu.pb");
  REQUIRE(d);
  CHECK(contains(*d, "event_type: ERROR\nerror {\n  stage: INITIALIZATION\n  exit_code: 3\n  error_code {\n    source: GPU\n"));
  CHECK(d->find("tflite_settings") == std::string::npos);  // none given
}

TEST_CASE("run --settings-message: names the root instead of trying TFLiteSettings, then ComputeSettings") {
  const Model m = scaled_tanh_model();
  const fs::path s = settings_file("compute.txtpb", "tflite_settings { delegate: NNAPI }\n");
  // Tried in order: a ComputeSettings asking for NNAPI.
  Result r = cli(run_args(m, "a") + " --settings " + q(s));
  CHECK(r.rc == 3);
  CHECK(contains(r.out, "tflite_settings.delegate: delegate NNAPI is not available"));
  r = cli(run_args(m, "b") + " --settings " + q(s) + " --settings-message ComputeSettings");
  CHECK(r.rc == 3);
  CHECK(contains(r.out, "tflite_settings.delegate: delegate NNAPI is not available"));
  // Read as TFLiteSettings it does not parse: the parser's complaint, naming the file.
  r = cli(run_args(m, "c") + " --settings " + q(s) + " --settings-message TFLiteSettings");
  CHECK(r.rc == 3);
  CHECK(contains(r.out, s.string()));
  CHECK(r.out.find("NNAPI is not available") == std::string::npos);
  CHECK(cli(run_args(m, "d") + " --settings " + q(s) + " --settings-message BenchmarkEvent").rc == 2);
}
