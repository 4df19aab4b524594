// A main() for the fuzz harnesses in builds without libFuzzer (gcc; the `fuzz_smoke_<name>`
// programs and their ctests `fuzz.smoke.<name>`): feeds each input file once to
// LLVMFuzzerTestOneInput, as libFuzzer does when it is given files to run.
//
//   fuzz_smoke_<name> [--name GLOB]... [--optional] PATH...
//
// A PATH that is a folder is walked recursively, in sorted order, for the files whose name
// matches one of the --name globs given before it (every file when none is); a file PATH is run
// whatever its name.
// PATHs after --optional may be absent (samples outside the tree); an absent PATH before it is
// an error (exit 2). Prints how many inputs ran, in how long, how many went through every stage
// of the harness (harness.h completed()) and the slowest; exits 1 when no input ran or none went
// through. A finding aborts the program (harness.h) after naming the input it came from.
#include <fnmatch.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "harness.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

char g_current[4096];  // the input being run, for the crash note (async-signal-safe to read)

void on_crash(int sig) {
  static const char prefix[] = "fuzz_smoke: the input that crashed: ";
  (void)!::write(2, prefix, sizeof prefix - 1);
  (void)!::write(2, g_current, std::strlen(g_current));
  (void)!::write(2, "\n", 1);
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

bool matches(const fs::path& file, const std::vector<std::string>& globs) {
  if (globs.empty()) return true;
  const std::string name = file.filename().string();
  return std::any_of(globs.begin(), globs.end(), [&](const std::string& g) { return ::fnmatch(g.c_str(), name.c_str(), 0) == 0; });
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> globs;
  std::vector<fs::path> files;
  bool optional = false;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--name" && i + 1 < argc) {
      globs.push_back(argv[++i]);
      continue;
    }
    if (arg == "--optional") {
      optional = true;
      continue;
    }
    std::error_code ec;
    const fs::path path = arg;
    if (fs::is_directory(path, ec)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::recursive_directory_iterator(path, ec))
        if (e.is_regular_file(ec) && matches(e.path(), globs)) found.push_back(e.path());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (fs::is_regular_file(path, ec)) {
      files.push_back(path);
    } else if (!optional) {
      std::fprintf(stderr, "fuzz_smoke: %s: no such file or folder\n", arg.c_str());
      return 2;
    }
  }
  for (int sig : {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL}) ::signal(sig, on_crash);

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  double slowest = 0;
  std::string slowest_name;
  for (const fs::path& file : files) {
    std::snprintf(g_current, sizeof g_current, "%s", file.c_str());
    std::ifstream in(file, std::ios::binary);
    const std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto t0 = Clock::now();
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    const double s = std::chrono::duration<double>(Clock::now() - t0).count();
    if (s > slowest) slowest = s, slowest_name = file.string();
  }
  const double total = std::chrono::duration<double>(Clock::now() - start).count();
  const std::size_t through = nnbridge::fuzz::completed_count();
  std::printf("fuzz_smoke: %zu inputs in %.2f s, %zu through every stage", files.size(), total, through);
  if (!files.empty()) std::printf(" (slowest %.3f s: %s)", slowest, slowest_name.c_str());
  std::printf("\n");
  if (files.empty()) {
    std::fprintf(stderr, "fuzz_smoke: no input found: the seed paths given hold no file\n");
    return 1;
  }
  if (through == 0) {
    std::fprintf(stderr, "fuzz_smoke: no input went through every stage of the harness: the seeds only test rejections\n");
    return 1;
  }
  return 0;
}
