// A progress line for long commands: "[done/total] N failed, 12s elapsed, ETA 30s: <label>" kept
// on stderr and rewritten in place, only when stderr is a terminal (a log or a pipe gets nothing).
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

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

}  // namespace nnbridge::cli
