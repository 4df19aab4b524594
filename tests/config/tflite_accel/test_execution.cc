// Settings -> backend choice and BenchmarkEvent (nnbridge/config/tflite_execution.h). Documents
// are written by hand here in each form, or encoded by protoc and flatc (independent tools);
// expected choices come from the mapping table in the header; events are decoded by protoc.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>

#include "../../cli/process.h"
#include "nnbridge/config/tflite_execution.h"
#include "nnbridge/error.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test;
using namespace nnbridge::test::tflite_accel;
namespace fs = std::filesystem;

namespace {

ta::ExecutionChoice choice_of(const std::string& text, const std::string& message = "TFLiteSettings") {
  return ta::execution_choice(ta::Settings::parse(text, ta::Form::ProtoText, message), "doc.txtpb");
}

// The Error execution_choice throws for `text`.
Error choice_error(const std::string& text, const std::string& message = "TFLiteSettings") {
  try {
    choice_of(text, message);
  } catch (const Error& e) {
    return e;
  }
  FAIL("no error for: " << text);
  return Error(ErrorCode::Io, "");
}

}  // namespace

TEST_CASE("tflite settings -> backend: delegates NONE, XNNPACK, GPU (UNSET, OPENCL)") {
  for (const char* text : {"", "delegate: NONE", "delegate: XNNPACK"}) {
    CAPTURE(text);
    const auto c = choice_of(text);
    CHECK(c.backend == "cpu");
    CHECK_FALSE(c.threads);
    CHECK_FALSE(c.opencl_fallback);
  }
  for (const char* text : {"delegate: GPU", "delegate: GPU gpu_settings { force_backend: UNSET }",
                           "delegate: GPU gpu_settings { force_backend: OPENCL }"}) {
    CAPTURE(text);
    const auto c = choice_of(text);
    CHECK(c.backend == "opencl");
    CHECK(c.delegate == "GPU");
  }
  // ComputeSettings reads its tflite_settings; none at all is an empty TFLiteSettings.
  CHECK(choice_of("tflite_settings { delegate: GPU }", "ComputeSettings").backend == "opencl");
  CHECK(choice_of("preference: LOW_LATENCY", "ComputeSettings").backend == "cpu");
}

TEST_CASE("tflite settings -> backend: other delegates are not available, named with the field") {
  for (const char* d : {"NNAPI", "HEXAGON", "EDGETPU", "EDGETPU_CORAL", "CORE_ML", "ARMNN", "MTK_NEURON"}) {
    CAPTURE(d);
    const Error e = choice_error(std::string("delegate: ") + d);
    CHECK(e.id() == ErrorId::Feature);  // a delegate nnbridge does not implement
    CHECK(e.message().find(d) != std::string::npos);
    CHECK(e.file() == "doc.txtpb");
    CHECK(e.where() == "delegate");
  }
  Error e = choice_error("delegate: GPU gpu_settings { force_backend: OPENGL }");
  CHECK(e.id() == ErrorId::Feature);
  CHECK(e.message().find("OPENGL") != std::string::npos);
  CHECK(e.where() == "gpu_settings.force_backend");
  e = choice_error("tflite_settings { delegate: EDGETPU }", "ComputeSettings");
  CHECK(e.where() == "tflite_settings.delegate");
  // A value outside the enum (fb-json takes integers; it is kept as an unknown field).
  const auto s = ta::Settings::parse(std::string_view("{ delegate: 42 }"), ta::Form::FbJson);
  CHECK(ta::requested_delegate(s) == "42");
  try {
    ta::execution_choice(s, "doc.json");
    FAIL("delegate 42 accepted");
  } catch (const Error& err) {
    CHECK(err.message().find("delegate 42") != std::string::npos);
    CHECK(err.where() == "delegate");
  }
}

TEST_CASE("tflite settings -> threads: CPUSettings.num_threads, XNNPackSettings.num_threads") {
  CHECK(choice_of("cpu_settings { num_threads: -1 }").threads == 0);  // -1: all cores
  CHECK(choice_of("cpu_settings { num_threads: 3 }").threads == 3);
  CHECK(choice_of("delegate: GPU cpu_settings { num_threads: 2 }").threads == 2);
  CHECK(choice_of("cpu_settings { }").threads == std::nullopt);
  for (const char* bad : {"cpu_settings { num_threads: 0 }", "cpu_settings { num_threads: -2 }"}) {
    const Error e = choice_error(bad);
    CHECK(e.id() == ErrorId::AttributeValue);  // a field outside its domain (-1 or > 0)
    CHECK(e.where() == "cpu_settings.num_threads");
  }
  // XNNPACK: its own num_threads first; <= 0 means no thread pool, i.e. one thread.
  CHECK(choice_of("delegate: XNNPACK xnnpack_settings { num_threads: 5 } cpu_settings { num_threads: 2 }").threads == 5);
  CHECK(choice_of("delegate: XNNPACK xnnpack_settings { num_threads: 0 }").threads == 1);
  CHECK(choice_of("delegate: XNNPACK xnnpack_settings { } cpu_settings { num_threads: 2 }").threads == 2);
  // Another delegate's xnnpack_settings are not read.
  CHECK(choice_of("delegate: NONE xnnpack_settings { num_threads: 5 }").threads == std::nullopt);
}

TEST_CASE("tflite settings -> opencl.fallback: allow_automatic_fallback_on_compilation_error") {
  auto c = choice_of("delegate: GPU fallback_settings { allow_automatic_fallback_on_compilation_error: true }");
  CHECK(c.opencl_fallback == "cpu");
  CHECK(c.backend_options().at("opencl.fallback") == "cpu");
  c = choice_of("delegate: GPU fallback_settings { allow_automatic_fallback_on_compilation_error: false }");
  CHECK(c.opencl_fallback == "none");
  c = choice_of("delegate: GPU fallback_settings { allow_automatic_fallback_on_execution_error: true }");
  CHECK_FALSE(c.opencl_fallback);
  CHECK(c.backend_options().empty());
}

TEST_CASE("load_execution_settings: the same document in all five forms, as TFLiteSettings and ComputeSettings") {
  const std::string text =
      "delegate: GPU\ngpu_settings { force_backend: OPENCL }\ncpu_settings { num_threads: 3 }\n"
      "fallback_settings { allow_automatic_fallback_on_compilation_error: true }\n";
  const std::string pjson =
      R"({"delegate": "GPU", "gpuSettings": {"forceBackend": "OPENCL"}, "cpuSettings": {"numThreads": 3},
          "fallbackSettings": {"allowAutomaticFallbackOnCompilationError": true}})";
  const std::string fjson =
      R"({delegate: "GPU", gpu_settings: {force_backend: "OPENCL"}, cpu_settings: {num_threads: 3},
          fallback_settings: {allow_automatic_fallback_on_compilation_error: true}})";
  const fs::path dir = temp_dir();
  for (const bool compute : {false, true}) {
    CAPTURE(compute);
    const std::string root = compute ? "ComputeSettings" : "TFLiteSettings";
    const auto wrap = [&](const std::string& inner, const char* key, const char* open, const char* close) {
      return compute ? std::string(open) + key + inner + close : inner;
    };
    const auto bin = protoc_encode(root, wrap(text, "tflite_settings {\n", "", "}\n"));
    REQUIRE(bin);
    const auto fb = flatc_from_json(root, wrap(fjson, "tflite_settings: ", "{", "}"));
    REQUIRE(fb);
    const std::vector<std::pair<std::string, std::string>> files{
        {"doc.pb", *bin},
        {"doc.txtpb", wrap(text, "tflite_settings {\n", "", "}\n")},
        {"doc.pb.json", wrap(pjson, "\"tflite_settings\": ", "{", "}")},
        {"doc.fb", *fb},
        {"doc.json", wrap(fjson, "tflite_settings: ", "{", "}")}};
    for (const auto& [name, bytes] : files) {
      const auto& name_ = name;  // CAPTURE cannot name a structured binding (clang 14)
      CAPTURE(name_);
      write_file(dir / name, bytes);
      const ta::Settings s = ta::load_execution_settings(dir / name);
      CHECK(s.message_name() == root);
      const auto c = ta::execution_choice(s, name);
      CHECK(c.backend == "opencl");
      CHECK(c.threads == 3);
      CHECK(c.opencl_fallback == "cpu");
      CHECK(ta::tflite_settings_of(s).message_name() == "TFLiteSettings");
    }
  }
  // Naming the root; a root that is neither is refused.
  write_file(dir / "c.txtpb", "tflite_settings { delegate: XNNPACK }\n");
  CHECK(ta::execution_choice(ta::load_execution_settings(dir / "c.txtpb", std::nullopt, "ComputeSettings")).backend == "cpu");
  CHECK_THROWS_AS(ta::load_execution_settings(dir / "c.txtpb", std::nullopt, "TFLiteSettings"), Error);
  CHECK_THROWS_AS(ta::load_execution_settings(dir / "c.txtpb", std::nullopt, "BenchmarkEvent"), Error);
  // Neither root parses: TFLiteSettings' error.
  write_file(dir / "bad.txtpb", "no_such_field: 1\n");
  try {
    ta::load_execution_settings(dir / "bad.txtpb");
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.file() == (dir / "bad.txtpb").string());
    CHECK(std::string(e.what()).find("no_such_field") != std::string::npos);
    CHECK(std::string(e.what()).find("a TFLiteSettings or a ComputeSettings") != std::string::npos);
  }
}

TEST_CASE("load_execution_settings: TFLite's own settings files (../shared/samples/tflite_settings)") {
  auto dir = shared_sample("tflite_settings");
  NNBRIDGE_REQUIRE_SHARED(dir);
  struct Want {
    const char* file;
    std::optional<int> threads;
  };
  // Read by hand from each file: XNNPACK with xnnpack_settings.num_threads 5, or NONE.
  for (const Want& w : {Want{"test_xnnpack_settings.json", 5}, Want{"test_stable_xnnpack_settings.json", 5},
                        Want{"test_missing_stable_delegate_settings.json", std::nullopt},
                        Want{"test_missing_delegate_path_settings.json", std::nullopt},
                        Want{"test_sample_stable_delegate_settings.json", std::nullopt}}) {
    CAPTURE(w.file);
    const auto c = ta::execution_choice(ta::load_execution_settings(*dir / w.file), w.file);
    CHECK(c.backend == "cpu");
    CHECK(c.threads == w.threads);
  }
  // {"invalid": "invalid"}: a key neither root has.
  CHECK_THROWS_AS(ta::load_execution_settings(*dir / "test_invalid_settings.json"), Error);
}

TEST_CASE("benchmark_event: END and ERROR events, decoded by protoc") {
  ta::BenchmarkRun run;
  run.initialization_time_us = {1500};
  run.inference_time_us = {250, 260};
  run.max_memory_kb = 4096;
  run.ok = true;
  run.metrics = {{"cpu.max_abs_error", {0.5f, 0.25f}}};
  run.wallclock_us = 1700000000000000;
  const ta::Settings settings = ta::Settings::parse(std::string_view("tflite_settings { delegate: XNNPACK }"),
                                                    ta::Form::ProtoText, "ComputeSettings");
  auto decoded = protoc_decode("BenchmarkEvent", ta::benchmark_event(run, &settings).serialize(ta::Form::ProtoBinary));
  REQUIRE(decoded);
  CHECK(*decoded ==
        "tflite_settings {\n  delegate: XNNPACK\n}\nevent_type: END\nresult {\n  initialization_time_us: 1500\n"
        "  inference_time_us: 250\n  inference_time_us: 260\n  max_memory_kb: 4096\n  ok: true\n  metrics {\n"
        "    name: \"cpu.max_abs_error\"\n    values: 0.5\n    values: 0.25\n  }\n}\nwallclock_us: 1700000000000000\n");

  ta::BenchmarkRun failed;
  failed.failed = true;
  failed.stage = ta::BenchmarkRun::Stage::Initialization;
  failed.exit_code = 3;
  failed.error_source = "GPU";
  failed.underlying_api_error = 3;
  decoded = protoc_decode("BenchmarkEvent", ta::benchmark_event(failed).serialize(ta::Form::ProtoBinary));
  REQUIRE(decoded);
  CHECK(*decoded ==
        "event_type: ERROR\nerror {\n  stage: INITIALIZATION\n  exit_code: 3\n  error_code {\n    source: GPU\n"
        "    tflite_error: 1\n    underlying_api_error: 3\n  }\n}\n");
  // A source that names no Delegate is left out.
  failed.error_source = "42";
  decoded = protoc_decode("BenchmarkEvent", ta::benchmark_event(failed).serialize(ta::Form::ProtoBinary));
  REQUIRE(decoded);
  CHECK(decoded->find("source") == std::string::npos);
}
