// What `run` and `validate` share beyond reading .npy folders: `--settings FILE` (TFLite
// acceleration settings choosing the backend, threads and opencl fallback) merged with the
// explicit flags, and `--benchmark-event OUT` (nnbridge/config/tflite_execution.h).
//
// Precedence: a flag given on the command line wins over the settings document, field by
// field (--backend/--backends over `delegate`, --threads over num_threads, --fallback over
// fallback_settings); the document wins over the built-in defaults (backend cpu, all cores,
// no fallback).
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "nnbridge/config/tflite_execution.h"
#include "nnbridge/exec.h"

namespace CLI {
class App;
}

namespace nnbridge::cli {

/// The settings-related flags as given (each unset unless on the command line).
struct ExecFlags {
  std::string settings;          ///< --settings FILE
  std::string settings_message;  ///< --settings-message NAME (TFLiteSettings or ComputeSettings; default: tried)
  std::string benchmark_event;   ///< --benchmark-event OUT
  // Filled by the command from its own --threads / --fallback when given explicitly.
  std::optional<int> threads;
  std::optional<std::string> fallback;
};

/// Adds --settings, --settings-message and --benchmark-event to `sub`.
void add_exec_flags(CLI::App* sub, ExecFlags& flags);

/// The flags merged with the settings document.
struct ExecSetup {
  std::optional<config::tflite_accel::Settings> settings;  ///< the document, when --settings was given
  std::optional<config::tflite_accel::ExecutionChoice> choice;  ///< its mapping
  int threads = 0;
  std::optional<std::string> fallback;  ///< opencl.fallback to pass, if any
  /// The backend to use when the command line names none: the document's, else "cpu".
  std::string default_backend() const { return choice ? choice->backend : "cpu"; }
  /// BackendOptions for `backends` (opencl.fallback only when opencl is among them).
  BackendOptions options(const std::vector<std::string>& backends) const;
};

class BenchmarkEventWriter;
/// Loads --settings (if any) and merges. Throws Error (exit 3) for an unreadable document or a
/// delegate that is not available, naming the file and the field. Hands the document to `event`
/// and sets `source` to the delegate it asks for, so that an ERROR event names that delegate.
ExecSetup resolve(const ExecFlags& flags, BenchmarkEventWriter& event, std::string& source);

/// Collects what --benchmark-event writes and writes it (temporary file + rename), in the form
/// OUT's extension names (as `config convert`), proto-binary when it names none.
class BenchmarkEventWriter {
 public:
  using Clock = std::chrono::steady_clock;
  explicit BenchmarkEventWriter(const ExecFlags& flags) : out_(flags.benchmark_event) {}
  bool enabled() const { return !out_.empty(); }
  config::tflite_accel::BenchmarkRun& run() { return run_; }
  /// The TFLiteSettings to copy into the event (once --settings loaded).
  void set_settings(const config::tflite_accel::Settings& s) { settings_ = s; }
  static int64_t micros(Clock::duration d) { return std::chrono::duration_cast<std::chrono::microseconds>(d).count(); }
  /// Writes END with run().ok = `ok`, the timings and metrics already in run(), and max_memory_kb.
  void end(bool ok);
  /// Writes ERROR at `stage` for the exception being handled (call inside a catch block), with
  /// the exit code main() gives it; `source` is the Delegate name of the failing backend.
  void error(config::tflite_accel::BenchmarkRun::Stage stage, const std::string& source);

 private:
  void write();
  std::string out_;
  std::optional<config::tflite_accel::Settings> settings_;
  config::tflite_accel::BenchmarkRun run_;
};

}  // namespace nnbridge::cli
