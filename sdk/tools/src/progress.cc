// The progress line (progress.h).
#include "progress.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
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

std::uint64_t file_progress_min_bytes() {
  const char* v = std::getenv(kFileProgressMinBytesVariable);
  if (!v || !*v) return kFileProgressMinBytes;
  std::uint64_t n = 0;
  for (const char* p = v; *p; ++p) {
    if (*p < '0' || *p > '9' || n > (UINT64_MAX - 9) / 10) {
      std::cerr << "nnbridge: warning: " << kFileProgressMinBytesVariable << "=" << v
                << " is not a whole number of bytes; using " << kFileProgressMinBytes << "\n";
      return kFileProgressMinBytes;
    }
    n = n * 10 + static_cast<std::uint64_t>(*p - '0');
  }
  return n;
}

std::string size_text(std::uint64_t bytes) {
  char buf[32];
  const double b = static_cast<double>(bytes);
  if (bytes < 1000) std::snprintf(buf, sizeof buf, "%llu B", static_cast<unsigned long long>(bytes));
  else if (bytes < 1000000) std::snprintf(buf, sizeof buf, "%.1f kB", b / 1e3);
  else if (bytes < 1000000000) std::snprintf(buf, sizeof buf, "%.1f MB", b / 1e6);
  else std::snprintf(buf, sizeof buf, "%.2f GB", b / 1e9);
  return buf;
}

std::uint64_t staged_bytes(const std::filesystem::path& target) {
  namespace fs = std::filesystem;
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  const std::string mark = ".tmp-" + std::to_string(::getpid()) + "-";
  std::uint64_t total = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.empty() || name[0] != '.' || name.find(mark) == std::string::npos) continue;
    std::error_code size_ec;
    const auto n = fs::file_size(it->path(), size_ec);
    if (!size_ec) total += n;
  }
  return total;
}

PhaseProgress::PhaseProgress(std::uint64_t bytes)
    : PhaseProgress(std::cerr, isatty(STDERR_FILENO) != 0 && bytes >= file_progress_min_bytes()) {}

PhaseProgress::PhaseProgress(std::ostream& out, bool enabled, std::chrono::milliseconds period)
    : out_(out), enabled_(enabled), period_(period), start_(Clock::now()) {}

PhaseProgress::~PhaseProgress() { stop(); }

void PhaseProgress::phase(std::string what) {
  phase(What([w = std::move(what)] { return w; }));
}

void PhaseProgress::phase(What what) {
  if (!enabled_) return;
  std::lock_guard<std::mutex> lock(mutex_);
  if (stopping_) return;
  what_ = std::move(what);
  draw_locked();
  if (!thread_.joinable()) thread_ = std::thread([this] { loop(); });
}

std::string PhaseProgress::text() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return line_locked();
}

std::string PhaseProgress::line_locked() const {
  const double elapsed =
      fixed_elapsed_ >= 0 ? fixed_elapsed_ : std::chrono::duration<double>(Clock::now() - start_).count();
  const std::string what = what_ ? what_() : std::string();
  return (what.empty() ? "" : what + ", ") + duration_text(elapsed) + " elapsed";
}

void PhaseProgress::draw_locked() {
  out_ << "\r\033[K" << line_locked() << std::flush;
  drawn_ = true;
}

void PhaseProgress::loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stopping_) {
    if (wake_.wait_for(lock, period_, [this] { return stopping_; })) break;
    draw_locked();
  }
}

void PhaseProgress::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
  std::lock_guard<std::mutex> lock(mutex_);
  if (drawn_) out_ << "\r\033[K" << std::flush;
  drawn_ = false;
}

}  // namespace nnbridge::cli
