// TFLite acceleration settings applied to nnbridge's executors (issue 7, "validate and settings"):
// which backend a TFLiteSettings / ComputeSettings document asks for, and a run written back as
// the mini-benchmark's BenchmarkEvent.
//
// Layering (docs/architecture.md "Layers"): this lives in config/tflite_accel, beside the settings it
// reads, and knows core only. It does not depend on exec: it returns the backend name, the
// thread count and backend option strings (BackendOptions' units and keys, nnbridge/exec.h,
// nnbridge/gpu.h), and takes the run's numbers as plain values, so the CLI and the Python
// bindings fill their own BackendOptions and share one mapping.
//
// The mapping (TFLiteSettings fields; ComputeSettings reads its tflite_settings, an absent one
// reading as an empty TFLiteSettings):
//   delegate NONE (or absent), XNNPACK      -> backend "cpu" (nnbridge's CPU kernels stand for
//                                              TFLite's built-in and XNNPACK kernels)
//   delegate GPU, gpu_settings.force_backend UNSET (or absent) or OPENCL
//                                           -> backend "opencl" (UNSET: TFLite's GPU delegate tries
//                                              OpenCL first, configuration.proto GPUBackend)
//   delegate GPU with force_backend OPENGL, and NNAPI, HEXAGON, EDGETPU, EDGETPU_CORAL, CORE_ML,
//   ARMNN, MTK_NEURON, or a value outside the enum
//                                           -> Error(Unsupported) "... is not available", naming
//                                              the delegate, the file and the field
//   threads: delegate XNNPACK with xnnpack_settings.num_threads present: n > 0 -> n, n <= 0 ->
//              1 (TFLite xnnpack_delegate.h: "0 or negative value means no thread pool used");
//            otherwise cpu_settings.num_threads: -1 (its default: the runtime chooses) -> 0 (all
//              cores), n > 0 -> n, anything else Error(Invalid) (configuration.proto CPUSettings);
//            neither present -> unset (the caller's default).
//            With backend opencl the thread count applies to the nodes that fall back to cpu.
//   fallback_settings.allow_automatic_fallback_on_compilation_error present -> opencl.fallback
//            = cpu (true) or none (false). TFLite's "compilation" is the delegate taking over
//            the graph; nnbridge's counterpart is the opencl backend's prepare() (choosing and
//            building a kernel for every node), and its fallback is per node: with
//            opencl.fallback=cpu a node the opencl backend has no kernel for runs on cpu
//            (nnbridge/gpu.h). A kernel whose OpenCL build fails still fails prepare() with the
//            build log: the opencl backend does not (yet) fall back on build errors.
//   Not read (no executor counterpart): ComputeSettings preference and statistics labels,
//   settings_to_test_locally, allow_automatic_fallback_on_execution_error (nnbridge does not
//   re-run a failed inference elsewhere), every per-delegate tuning field (GPU precision and
//   priorities, caches, ...), max_delegated_partitions, disable_default_delegates,
//   stable_delegate_loader_settings (no delegate libraries are loaded).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/config/tflite_accel.h"

namespace nnbridge::config::tflite_accel {

/// What a settings document asks of the executors.
struct ExecutionChoice {
  std::string backend;                         ///< "cpu" or "opencl"
  std::optional<int> threads;                  ///< BackendOptions::threads (0: all cores); unset: not given
  std::optional<std::string> opencl_fallback;  ///< "cpu" or "none" (opencl.fallback); unset: not given
  std::string delegate;                        ///< the Delegate enum name the backend stands for ("NONE", "XNNPACK", "GPU")
  /// The choice as backend option keys: {"opencl.fallback": ...} when opencl_fallback is set.
  std::map<std::string, std::string, std::less<>> backend_options() const;
};

/// Reads a settings document whose root is TFLiteSettings or ComputeSettings, in `form` (unset:
/// from the file's extension, form_from_path). `message` names the root; when it is empty
/// the root is found by trying TFLiteSettings, then ComputeSettings: the text forms and fb-json
/// refuse fields their message lacks, so only one of them parses a non-empty document; the
/// binary forms take the first that reads without unknown fields (a TFLiteSettings document can,
/// rarely, also decode cleanly as ComputeSettings: name the root to be sure). Throws like
/// Settings::load, and Error(Unsupported) for another root message.
Settings load_execution_settings(const std::filesystem::path& path, std::optional<Form> form = std::nullopt,
                                 std::string_view message = {});

/// The TFLiteSettings a document holds: the root itself, ComputeSettings.tflite_settings, or an
/// empty TFLiteSettings when a ComputeSettings has none. Throws Error(Unsupported) for other roots.
Settings tflite_settings_of(const Settings& settings);

/// The mapping in the file comment. `file` names the document in errors, whose place is the
/// field path (e.g. "tflite_settings.gpu_settings.force_backend").
ExecutionChoice execution_choice(const Settings& settings, const std::string& file = {});

/// The Delegate a document asks for, by enum name ("NONE" when absent; the number, as text,
/// for a value outside the enum). Throws like tflite_settings_of().
std::string requested_delegate(const Settings& settings);

/// The Delegate enum name a backend stands for in a BenchmarkEvent: "NONE" for cpu, "GPU" for
/// opencl, "NONE" for anything else.
std::string delegate_of_backend(std::string_view backend);

/// One run of a model, as the mini-benchmark logs it (configuration.proto BenchmarkEvent).
struct BenchmarkRun {
  enum class Stage { Unknown = 0, Initialization = 1, Inference = 2 };  ///< BenchmarkStage
  bool failed = false;                         ///< false: event_type END with result; true: ERROR with error
  // END: BenchmarkResult
  std::vector<int64_t> initialization_time_us;  ///< microseconds, one per prepared plan
  std::vector<int64_t> inference_time_us;       ///< microseconds, one per inference
  std::optional<int32_t> max_memory_kb;         ///< peak resident set (getrusage ru_maxrss on Linux), KiB
  bool ok = false;                              ///< the run succeeded and, for validate, every output passed
  std::vector<std::pair<std::string, std::vector<float>>> metrics;  ///< BenchmarkMetric name, values
  // ERROR: BenchmarkError
  Stage stage = Stage::Unknown;
  int32_t exit_code = 0;                        ///< the CLI's exit code (commands.h)
  std::string error_source = "NONE";           ///< ErrorCode.source, a Delegate name (left unset when it names none)
  int32_t tflite_error = 1;                     ///< ErrorCode.tflite_error: TfLiteStatus kTfLiteError (1)
  /// ErrorCode.underlying_api_error: the CLI writes 1 + the nnbridge::ErrorCode (Io 1, Malformed 2,
  /// Unsupported 3, Invalid 4, Backend 5), 0 for a failure that is no nnbridge::Error.
  int64_t underlying_api_error = 0;
  // Both
  std::optional<int64_t> wallclock_us;          ///< microseconds since the Unix epoch
  std::optional<int64_t> boottime_us;           ///< microseconds since boot (CLOCK_BOOTTIME)
};

/// The run as a BenchmarkEvent: event_type END with `result` (initialization_time_us,
/// inference_time_us, max_memory_kb, ok, metrics) or ERROR with `error` (stage, exit_code, one
/// error_code); tflite_settings copied from `tflite_settings` (a TFLiteSettings or
/// ComputeSettings, see tflite_settings_of) when given. Save it with Settings::save (atomic).
Settings benchmark_event(const BenchmarkRun& run, const Settings* tflite_settings = nullptr);

}  // namespace nnbridge::config::tflite_accel
