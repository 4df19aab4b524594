// The CLI's progress line (sdk/tools/src/progress.h): counts, failures, elapsed time and the ETA
// at the mean pace so far (hand-computed), drawn only when enabled; and the phase line of one long
// file operation, redrawn by its thread.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "progress.h"

using nnbridge::cli::duration_text;
using nnbridge::cli::Progress;

TEST_CASE("progress: durations read as seconds then minutes then hours") {
  CHECK(duration_text(0) == "0s");
  CHECK(duration_text(59.9) == "59s");
  CHECK(duration_text(65) == "1m05s");
  CHECK(duration_text(3600 + 7 * 60 + 59) == "1h07m");
  CHECK(duration_text(-3) == "0s");
}

TEST_CASE("progress: done/total and failures so far and elapsed and the ETA at the mean pace") {
  std::ostringstream out;
  Progress p(10, out, true);
  p.set_elapsed_for_test(6);
  CHECK(p.text("x") == "[0/10] 6s elapsed: x");  // no ETA before a step ends
  p.step(false, "a");
  p.step(true, "b");
  p.step(false, "c");
  // 3 steps in 6 s: 2 s a step, 7 steps left: 14 s.
  CHECK(p.text("next") == "[3/10] 1 failed, 6s elapsed, ETA 14s: next");
  CHECK(out.str().find("\r\033[K[3/10] 1 failed, ") != std::string::npos);
  p.clear();
  CHECK(out.str().substr(out.str().size() - 4) == "\r\033[K");
}

TEST_CASE("progress: nothing is drawn when disabled") {
  std::ostringstream out;
  {
    Progress p(2, out, false);
    p.show("a", true);
    p.step(true, "a");
    p.clear();
  }
  CHECK(out.str().empty());
}

// The phase line of one long file operation (convert, info, draw, ... on a large file).

using nnbridge::cli::file_progress_min_bytes;
using nnbridge::cli::kFileProgressMinBytes;
using nnbridge::cli::PhaseProgress;
using nnbridge::cli::size_text;
using nnbridge::cli::staged_bytes;

namespace {
std::size_t count_of(const std::string& s, const std::string& part) {
  std::size_t n = 0;
  for (std::size_t at = s.find(part); at != std::string::npos; at = s.find(part, at + part.size())) ++n;
  return n;
}
}  // namespace

TEST_CASE("progress: sizes in decimal units, as the 100 MB threshold") {
  CHECK(kFileProgressMinBytes == 100000000u);
  CHECK(size_text(950) == "950 B");
  CHECK(size_text(12500) == "12.5 kB");
  CHECK(size_text(412300000) == "412.3 MB");
  CHECK(size_text(2100000000) == "2.10 GB");
}

TEST_CASE("progress: NNBRIDGE_PROGRESS_MIN_BYTES replaces the threshold when it is a whole number") {
  ::unsetenv("NNBRIDGE_PROGRESS_MIN_BYTES");
  CHECK(file_progress_min_bytes() == 100000000u);
  ::setenv("NNBRIDGE_PROGRESS_MIN_BYTES", "0", 1);
  CHECK(file_progress_min_bytes() == 0u);
  ::setenv("NNBRIDGE_PROGRESS_MIN_BYTES", "4096", 1);
  CHECK(file_progress_min_bytes() == 4096u);
  ::setenv("NNBRIDGE_PROGRESS_MIN_BYTES", "4k", 1);  // not a number of bytes: the default, and a warning
  CHECK(file_progress_min_bytes() == 100000000u);
  ::unsetenv("NNBRIDGE_PROGRESS_MIN_BYTES");
}

TEST_CASE("progress: the bytes staged so far are this process's temporaries beside the target") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("nnbridge-staged-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string pid = std::to_string(::getpid());
  auto write = [&](const std::string& name, std::size_t n) { std::ofstream(dir / name) << std::string(n, 'x'); };
  CHECK(staged_bytes(dir / "out.json") == 0u);
  write(".out.json.tmp-" + pid + "-a1b2c3", 1234);  // the file being written
  write(".out.bin.tmp-" + pid + "-d4e5f6", 10);     // its sidecar
  write(".out.json.tmp-999999999-g7h8i9", 500);     // another process's
  write("out.json", 77);                            // the file it replaces
  CHECK(staged_bytes(dir / "out.json") == 1244u);
  fs::remove_all(dir);
}

TEST_CASE("progress: a phase line is drawn at once, redrawn by its thread, and erased") {
  std::ostringstream out;
  {
    PhaseProgress p(out, true, std::chrono::milliseconds(10));
    int polls = 0;
    p.phase([&polls] { return "writing m.armnn: " + std::to_string(++polls) + " polls"; });
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    p.stop();
    // Drawn once by phase(), then every 10 ms for 200 ms: well over 3 lines even on a busy machine.
    CHECK(count_of(out.str(), "\r\033[Kwriting m.armnn: ") >= 3);
    CHECK(out.str().rfind("\r\033[Kwriting m.armnn: 1 polls, 0s elapsed", 0) == 0);
    CHECK(out.str().substr(out.str().size() - 4) == "\r\033[K");
    const std::size_t size = out.str().size();
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CHECK(out.str().size() == size);  // nothing after stop()
  }
  PhaseProgress q(out, true);
  q.phase("reading big.onnx (412.3 MB)");
  q.set_elapsed_for_test(65);
  CHECK(q.text() == "reading big.onnx (412.3 MB), 1m05s elapsed");
}

TEST_CASE("progress: a disabled phase line draws nothing") {
  std::ostringstream out;
  {
    PhaseProgress p(out, false, std::chrono::milliseconds(1));
    p.phase("reading x");
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(out.str().empty());
}
