// The settings checker: each rule with a case that trips it and one that does not.
#include <doctest/doctest.h>

#include "util.h"

using namespace nnbridge::test::tflite_accel;
using Severity = nnbridge::Issue::Severity;

namespace {

std::vector<nnbridge::Issue> check_text(const std::string& text, const std::string& message = "TFLiteSettings") {
  return ta::Settings::parse(text, ta::Form::ProtoText, message).check();
}

std::vector<nnbridge::Issue> check_json(const std::string& fb_json) {
  return ta::Settings::parse(fb_json, ta::Form::FbJson).check();
}

constexpr auto E = Severity::Error;
constexpr auto W = Severity::Warning;

}  // namespace

TEST_CASE("tflite_accel checks: GPU inference priorities (AUTO only after every higher one is set)") {
  // configuration.proto's own VALID and INVALID examples.
  CHECK(check_text("delegate: GPU gpu_settings { inference_priority1: GPU_PRIORITY_MIN_LATENCY }").empty());
  CHECK(check_text("delegate: GPU gpu_settings { inference_priority1: GPU_PRIORITY_MIN_LATENCY "
                   "inference_priority2: GPU_PRIORITY_MAX_PRECISION }")
            .empty());
  CHECK(check_text("delegate: GPU gpu_settings { inference_priority1: GPU_PRIORITY_MIN_LATENCY "
                   "inference_priority2: GPU_PRIORITY_MAX_PRECISION inference_priority3: GPU_PRIORITY_MIN_MEMORY_USAGE }")
            .empty());
  auto f = check_text("delegate: GPU gpu_settings { inference_priority2: GPU_PRIORITY_MIN_LATENCY }");
  CAPTURE(show(f));
  CHECK(has_issue(f, E, "gpu_settings.inference_priority2", "after an AUTO inference_priority1"));
  f = check_text("delegate: GPU gpu_settings { inference_priority1: GPU_PRIORITY_MIN_LATENCY "
                 "inference_priority3: GPU_PRIORITY_MAX_PRECISION }");
  CHECK(has_issue(f, E, "gpu_settings.inference_priority3", "after an AUTO inference_priority2"));
  // Explicit AUTO counts as AUTO.
  f = check_text("delegate: GPU gpu_settings { inference_priority1: GPU_PRIORITY_AUTO inference_priority3: GPU_PRIORITY_MAX_PRECISION }");
  CHECK(has_issue(f, E, "gpu_settings.inference_priority3", "AUTO inference_priority1"));
  // A priority given twice (delegates/gpu/api.cc IsValid).
  f = check_text("delegate: GPU gpu_settings { inference_priority1: GPU_PRIORITY_MIN_LATENCY inference_priority2: GPU_PRIORITY_MIN_LATENCY }");
  CHECK(has_issue(f, E, "gpu_settings.inference_priority2", "twice"));
  // Found wherever a GPUSettings sits.
  f = check_text("settings_to_test { } settings_to_test { gpu_settings { inference_priority3: GPU_PRIORITY_MIN_LATENCY } }",
                 "MinibenchmarkSettings");
  CHECK(has_issue(f, E, "settings_to_test[1].gpu_settings.inference_priority3"));
}

TEST_CASE("tflite_accel checks: GPU legacy precision switch and serialization pair") {
  CHECK(check_text("delegate: GPU gpu_settings { is_precision_loss_allowed: true }").empty());
  CHECK(has_issue(check_text("delegate: GPU gpu_settings { is_precision_loss_allowed: true inference_priority1: GPU_PRIORITY_MIN_LATENCY }"),
                  W, "gpu_settings.is_precision_loss_allowed", "ignored"));
  CHECK(check_text("delegate: GPU gpu_settings { cache_directory: \"/c\" model_token: \"m\" }").empty());
  CHECK(has_issue(check_text("delegate: GPU gpu_settings { cache_directory: \"/c\" }"), W, "gpu_settings.cache_directory", "model_token"));
  CHECK(has_issue(check_text("delegate: GPU gpu_settings { model_token: \"m\" }"), W, "gpu_settings.model_token", "cache_directory"));
}

TEST_CASE("tflite_accel checks: CPU num_threads is -1 or > 0") {
  CHECK(check_text("cpu_settings { num_threads: -1 }").empty());
  CHECK(check_text("cpu_settings { num_threads: 4 }").empty());
  CHECK(check_text("cpu_settings { }").empty());
  CHECK(has_issue(check_text("cpu_settings { num_threads: 0 }"), E, "cpu_settings.num_threads", "-1"));
  CHECK(has_issue(check_text("cpu_settings { num_threads: -2 }"), E, "cpu_settings.num_threads"));
}

TEST_CASE("tflite_accel checks: the stable delegate loader needs delegate_path") {
  CHECK(check_text("stable_delegate_loader_settings { delegate_path: \"/lib/d.so\" }").empty());
  CHECK(has_issue(check_text("stable_delegate_loader_settings { delegate_name: \"google_edgetpu\" }"), E,
                  "stable_delegate_loader_settings.delegate_path"));
  CHECK(has_issue(check_text("stable_delegate_loader_settings { delegate_path: \"\" }"), E,
                  "stable_delegate_loader_settings.delegate_path", "empty"));
}

TEST_CASE("tflite_accel checks: settings of a delegate that is not the chosen one") {
  CHECK(check_text("delegate: GPU gpu_settings { }").empty());
  CHECK(has_issue(check_text("delegate: GPU nnapi_settings { }"), W, "nnapi_settings", "delegate is GPU"));
  CHECK(has_issue(check_text("delegate: NNAPI coral_settings { performance: HIGH }"), W, "coral_settings", "EDGETPU_CORAL"));
  // A stable delegate reads them whatever `delegate` says; XNNPack settings may serve the
  // default delegate.
  CHECK(check_text("delegate: NONE gpu_settings { } stable_delegate_loader_settings { delegate_path: \"/d.so\" }").empty());
  CHECK(check_text("xnnpack_settings { num_threads: 2 }").empty());
  CHECK(has_issue(check_text("delegate: GPU xnnpack_settings { }"), W, "xnnpack_settings"));
}

TEST_CASE("tflite_accel checks: fallback settings, deprecated NNAPI copy") {
  CHECK(check_text("fallback_settings { allow_automatic_fallback_on_compilation_error: true }").empty());
  CHECK(has_issue(check_text("delegate: NNAPI nnapi_settings { fallback_settings { } }"), W,
                  "nnapi_settings.fallback_settings", "deprecated"));
  CHECK(has_issue(check_text("delegate: NNAPI nnapi_settings { fallback_settings { allow_automatic_fallback_on_compilation_error: true } } "
                             "fallback_settings { allow_automatic_fallback_on_compilation_error: true }"),
                  W, "nnapi_settings.fallback_settings", "deprecated"));
  CHECK(has_issue(check_text("delegate: NNAPI nnapi_settings { fallback_settings { allow_automatic_fallback_on_execution_error: true } } "
                             "fallback_settings { }"),
                  E, "nnapi_settings.fallback_settings", "contradicts"));
}

TEST_CASE("tflite_accel checks: deprecated and process-bound NNAPI fields") {
  CHECK(check_text("delegate: NNAPI nnapi_settings { accelerator_name: \"dsp\" }").empty());
  CHECK(has_issue(check_text("delegate: NNAPI nnapi_settings { cache_directory: \"/c\" }"), W, "nnapi_settings.cache_directory",
                  "compilation_caching_settings"));
  CHECK(has_issue(check_text("delegate: NNAPI nnapi_settings { model_token: \"t\" }"), W, "nnapi_settings.model_token"));
  CHECK(has_issue(check_text("delegate: NNAPI nnapi_settings { support_library_handle: 140737488355328 }"), W,
                  "nnapi_settings.support_library_handle", "pointer"));
}

TEST_CASE("tflite_accel checks: Coral performance left unset reads differently per form") {
  CHECK(check_text("delegate: EDGETPU_CORAL coral_settings { performance: MAXIMUM }").empty());
  CHECK(has_issue(check_text("delegate: EDGETPU_CORAL coral_settings { device: \"usb\" }"), W, "coral_settings.performance",
                  "MAXIMUM"));
}

TEST_CASE("tflite_accel checks: Edge TPU log verbosity and public model id") {
  CHECK(check_text("delegate: EDGETPU google_edgetpu_settings { log_verbosity: 10 }").empty());
  CHECK(check_text("delegate: EDGETPU google_edgetpu_settings { log_verbosity: -1 }").empty());
  CHECK(has_issue(check_text("delegate: EDGETPU google_edgetpu_settings { log_verbosity: 11 }"), E,
                  "google_edgetpu_settings.log_verbosity"));
  CHECK(has_issue(check_text("delegate: EDGETPU google_edgetpu_settings { log_verbosity: -2 }"), E,
                  "google_edgetpu_settings.log_verbosity"));
  CHECK(check_text("delegate: EDGETPU edgetpu_settings { public_model_id: \"123456789012345678901234567890\" }").empty());
  CHECK(has_issue(check_text("delegate: EDGETPU edgetpu_settings { public_model_id: \"1234567890123456789012345678901\" }"),
                  W, "edgetpu_settings.public_model_id", "31 characters"));
}

TEST_CASE("tflite_accel checks: compilation caching needs a directory") {
  CHECK(check_text("compilation_caching_settings { cache_dir: \"/c\" model_token: \"t\" }").empty());
  CHECK(has_issue(check_text("compilation_caching_settings { model_token: \"t\" }"), W,
                  "compilation_caching_settings.cache_dir"));
}

TEST_CASE("tflite_accel checks: the mini-benchmark's model file") {
  CHECK(check_text("model_file { filename: \"m.tflite\" }", "MinibenchmarkSettings").empty());
  CHECK(check_text("model_file { fd: 3 length: 100 }", "MinibenchmarkSettings").empty());
  CHECK(has_issue(check_text("model_file { }", "MinibenchmarkSettings"), E, "model_file", "names no model"));
  CHECK(has_issue(check_text("model_file { fd: 3 offset: 10 }", "MinibenchmarkSettings"), E, "model_file.length", "missing"));
  const auto handle = check_text("model_file { buffer_handle: 4096 length: 10 }", "MinibenchmarkSettings");
  CHECK(has_issue(handle, W, "model_file.buffer_handle", "pointer"));
  CHECK_FALSE(has_issue(handle, E, "model_file.length"));
  // At the root, the path is "(root)".
  CHECK(has_issue(check_text("", "ModelFile"), E, "(root)", "names no model"));
}

TEST_CASE("tflite_accel checks: out-of-enum values (XNNPack flags are a bit mask)") {
  CHECK(check_json(R"({ xnnpack_settings: { flags: 9 } })").empty());     // QS8 | DYNAMIC_FULLY_CONNECTED
  CHECK(check_json(R"({ xnnpack_settings: { flags: 255 } })").empty());   // every flag
  CHECK(has_issue(check_json(R"({ xnnpack_settings: { flags: 256 } })"), E, "xnnpack_settings.flags", "no TFLITE_XNNPACK"));
  CHECK(has_issue(check_json(R"({ coral_settings: { performance: 77 } })"), E, "coral_settings.performance", "not a value"));
  CHECK(check_json(R"({ delegate: EDGETPU_CORAL, coral_settings: { performance: 4 } })").empty());
}
