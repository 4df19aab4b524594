// A progress line for long commands: "[done/total] N failed, 12s elapsed, ETA 30s: <label>" kept
// on stderr and rewritten in place, only when stderr is a terminal (a log or a pipe gets nothing);
// and, for one long file operation, a phase line ("reading big.onnx (412.3 MB), 3s elapsed")
// refreshed by a background thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <ostream>
#include <string>
#include <string_view>
#include <thread>

namespace nnbridge::cli {

/// "42s", "3m05s", "2h07m": a duration for people, rounded down to the unit shown.
std::string duration_text(double seconds);

class Progress {
 public:
  using Clock = std::chrono::steady_clock;

  /// Progress over `total` steps on stderr, drawn only when stderr is a terminal.
  explicit Progress(std::size_t total);
  /// The same on `out`, drawn when `enabled` (for tests: any stream, no terminal needed).
  Progress(std::size_t total, std::ostream& out, bool enabled);
  /// Erases the line.
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool enabled() const { return enabled_; }
  /// Redraws with `label` (what runs now), at most every 100 ms unless `force`.
  void show(std::string_view label, bool force = false);
  /// One step finished (`failed` counts it among the failures); redraws.
  void step(bool failed, std::string_view label);
  /// Erases the line, so that a result printed next starts on a clean one.
  void clear();
  /// The line as drawn now, without terminal controls: "[3/10] 1 failed, 4s elapsed, ETA 9s: x".
  std::string text(std::string_view label) const;
  /// For tests: text() reports this elapsed time instead of the clock's.
  void set_elapsed_for_test(double seconds) { fixed_elapsed_ = seconds; }

 private:
  std::size_t total_, done_ = 0, failed_ = 0;
  std::ostream& out_;
  bool enabled_;
  bool drawn_ = false;
  Clock::time_point start_, last_draw_;
  double fixed_elapsed_ = -1;  ///< negative: the clock
};

/// The smallest model file, in bytes, whose reading, converting or writing shows a phase line:
/// 100 MB (10^8 bytes). Smaller files load in well under a second.
inline constexpr std::uint64_t kFileProgressMinBytes = 100'000'000;
/// The environment variable that replaces kFileProgressMinBytes (a whole number of bytes; 0: every
/// file). Another value is ignored, with a warning on stderr.
inline constexpr const char* kFileProgressMinBytesVariable = "NNBRIDGE_PROGRESS_MIN_BYTES";
/// kFileProgressMinBytes, or the value of NNBRIDGE_PROGRESS_MIN_BYTES when that is a whole number.
std::uint64_t file_progress_min_bytes();
/// "950 B", "12.5 kB", "412.3 MB", "2.10 GB": decimal units, as `ls -h --si` and the threshold.
std::string size_text(std::uint64_t bytes);
/// The bytes written so far into the temporary files this process stages beside `target` before
/// renaming them into place (".<name>.tmp-<pid>-XXXXXX" in target's folder, write_file_atomic in
/// nnbridge/format.h): the main file and any sidecar. 0 when there are none (yet).
std::uint64_t staged_bytes(const std::filesystem::path& target);

/// A line for one long operation whose steps cannot be counted: "<what>, 12s elapsed", redrawn
/// by a background thread every `period` (4 times a second by default) until destroyed, when it
/// is erased. `what` is a function so that it can report what it finds at each redraw (bytes
/// written so far). Draws nothing when not enabled; then no thread runs.
class PhaseProgress {
 public:
  using Clock = std::chrono::steady_clock;
  using What = std::function<std::string()>;

  /// On stderr, enabled when stderr is a terminal and `bytes` (the file's size) is at least
  /// file_progress_min_bytes().
  explicit PhaseProgress(std::uint64_t bytes);
  /// On `out`, enabled when `enabled` (for tests).
  PhaseProgress(std::ostream& out, bool enabled, std::chrono::milliseconds period = std::chrono::milliseconds(250));
  /// Stops the thread and erases the line.
  ~PhaseProgress();
  PhaseProgress(const PhaseProgress&) = delete;
  PhaseProgress& operator=(const PhaseProgress&) = delete;

  bool enabled() const { return enabled_; }
  /// Shows `what` from now on (drawn at once, then at each redraw); starts the thread on first use.
  void phase(What what);
  void phase(std::string what);
  /// Erases the line and stops redrawing, so that a result printed next starts on a clean one.
  void stop();
  /// The line as drawn now, without terminal controls.
  std::string text() const;
  /// For tests: text() reports this elapsed time instead of the clock's.
  void set_elapsed_for_test(double seconds) { fixed_elapsed_ = seconds; }

 private:
  std::string line_locked() const;
  void draw_locked();
  void loop();

  std::ostream& out_;
  bool enabled_;
  std::chrono::milliseconds period_;
  Clock::time_point start_;
  double fixed_elapsed_ = -1;
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  What what_;
  bool drawn_ = false, stopping_ = false;
  std::thread thread_;
};

}  // namespace nnbridge::cli
