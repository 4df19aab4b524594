// The progress line (progress.h).
#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>

namespace nnbridge::cli {

std::string duration_text(double seconds) {
  const long s = seconds < 0 ? 0 : static_cast<long>(seconds);
  char buf[32];
  if (s < 60) std::snprintf(buf, sizeof buf, "%lds", s);
  else if (s < 3600) std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s / 60 % 60);
  return buf;
}

Progress::Progress(std::size_t total) : Progress(total, std::cerr, isatty(STDERR_FILENO) != 0) {}

Progress::Progress(std::size_t total, std::ostream& out, bool enabled)
    : total_(total), out_(out), enabled_(enabled), start_(Clock::now()) {}

Progress::~Progress() { clear(); }

std::string Progress::text(std::string_view label) const {
  const double elapsed =
      fixed_elapsed_ >= 0 ? fixed_elapsed_ : std::chrono::duration<double>(Clock::now() - start_).count();
  std::string s = "[" + std::to_string(done_) + "/" + std::to_string(total_) + "] ";
  if (failed_) s += std::to_string(failed_) + " failed, ";
  s += duration_text(elapsed) + " elapsed";
  // The remaining steps at the mean pace so far; nothing before the first step ends.
  if (done_ > 0 && done_ < total_) s += ", ETA " + duration_text(elapsed / static_cast<double>(done_) * static_cast<double>(total_ - done_));
  if (!label.empty()) s += ": " + std::string(label);
  return s;
}

void Progress::show(std::string_view label, bool force) {
  if (!enabled_) return;
  const auto now = Clock::now();
  if (!force && drawn_ && now - last_draw_ < std::chrono::milliseconds(100)) return;
  last_draw_ = now;
  drawn_ = true;
  out_ << "\r\033[K" << text(label) << std::flush;
}

void Progress::step(bool failed, std::string_view label) {
  ++done_;
  failed_ += failed;
  show(label, true);
}

void Progress::clear() {
  if (!enabled_ || !drawn_) return;
  out_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

}  // namespace nnbridge::cli
