// Load-time benchmark: nnbridge::load (read + verify + IR) against Arm NN 20.08's
// IDeserializer::CreateNetworkFromBinary on the same files. Each side runs in its own child
// process so that the peak resident set size (getrusage's ru_maxrss, from wait4) is that side's.
//
//   nnbridge-bench-load table FILE...          prints one row per file
//   nnbridge-bench-load child SIDE FILE REPS   (internal) SIDE = armnn | nnbridge | none; loads
//                                              the file 1 + REPS times;
//                                              prints the first load's seconds, then the
//                                              median of REPS loads after it
//
// The first load in a process pays what later loads do not (the library's one-time tables, cold
// caches and page tables), so it is reported on its own and the steady median is taken after it.
#include <armnnDeserializer/IDeserializer.hpp>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#ifdef NNBRIDGE_BENCH_HAS_NNBRIDGE
#include "nnbridge/io.h"
#endif

namespace {

using Clock = std::chrono::steady_clock;

// Arm NN's load as an application does it: read the file, then deserialize.
size_t load_armnn(const std::string& file) {
  std::ifstream f(file, std::ios::binary);
  std::vector<uint8_t> bytes(std::filesystem::file_size(file));
  f.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f) throw std::runtime_error("cannot read " + file);
  auto parser = armnnDeserializer::IDeserializer::Create();
  armnn::INetworkPtr net = parser->CreateNetworkFromBinary(bytes);
  return bytes.size();
}

#ifdef NNBRIDGE_BENCH_HAS_NNBRIDGE
size_t load_nnbridge(const std::string& file) {
  nnbridge::Graph g = nnbridge::load(file);
  return g.nodes.size();
}
#endif

int child(const std::string& side, const std::string& file, int reps) {
  std::vector<double> times;
  try {
    for (int i = 0; i <= reps; ++i) {
      const auto t0 = Clock::now();
      if (side == "armnn") {
        load_armnn(file);
#ifdef NNBRIDGE_BENCH_HAS_NNBRIDGE
      } else if (side == "nnbridge") {
        load_nnbridge(file);
#endif
      } else if (side != "none") {
        std::cerr << "side " << side << " not built\n";
        return 3;
      }
      times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    }
  } catch (const std::exception& e) {
    std::cerr << side << " " << file << ": " << e.what() << "\n";
    return 1;
  }
  const double first = times.front();
  times.erase(times.begin());
  std::sort(times.begin(), times.end());
  std::printf("%.9f %.9f\n", first, times.empty() ? first : times[times.size() / 2]);
  return 0;
}

struct Result {
  bool ok = false;
  double first_s = 0;   // the first load in the process
  double median_s = 0;  // the median of the loads after it
  long maxrss_kib = 0;
};

Result run_child(const std::string& self, const std::string& side, const std::string& file, int reps) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  std::cout.flush();
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], 1);
    close(fds[0]);
    const std::string r = std::to_string(reps);
    execl(self.c_str(), self.c_str(), "child", side.c_str(), file.c_str(), r.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  std::string out;
  char buf[256];
  ssize_t n;
  while ((n = read(fds[0], buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  Result r;
  r.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (r.ok && std::sscanf(out.c_str(), "%lf %lf", &r.first_s, &r.median_s) != 2) r.ok = false;
  r.maxrss_kib = ru.ru_maxrss;
  return r;
}

std::string ms(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", s * 1e3);
  return b;
}

std::string mib(long kib) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", static_cast<double>(kib) / 1024.0);
  return b;
}

int table(const std::string& self, const std::vector<std::string>& files) {
  const Result base = run_child(self, "none", files.empty() ? self : files[0], 1);
  std::cout << "Load time (median) and peak RSS of a child process per side; baseline child RSS "
            << mib(base.maxrss_kib) << " MiB (the libraries, no load).\n\n";
  std::printf("| %-28s | %10s | %14s | %14s | %8s | %14s | %14s | %12s | %12s |\n", "file", "size MiB",
              "nnbridge ms", "Arm NN ms", "ratio", "nnbridge 1st", "Arm NN 1st", "nnbridge MiB", "Arm NN MiB");
  std::printf("|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n", std::string(30, '-').c_str(), std::string(12, '-').c_str(),
              std::string(16, '-').c_str(), std::string(16, '-').c_str(), std::string(10, '-').c_str(),
              std::string(16, '-').c_str(), std::string(16, '-').c_str(), std::string(14, '-').c_str(),
              std::string(14, '-').c_str());
  int rc = 0;
  for (const auto& file : files) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(file, ec);
    if (ec) {  // a row that says so; the other files still run
      std::printf("| %-28s | %10s | %14s | %14s | %8s | %14s | %14s | %12s | %12s |\n",
                  std::filesystem::path(file).filename().string().c_str(), "-", "unreadable", "unreadable", "n/a", "-",
                  "-", "-", "-");
      std::fflush(stdout);
      rc = 1;
      continue;
    }
    const int reps = size > (64u << 20) ? 3 : size > (1u << 20) ? 21 : 51;
    const Result a = run_child(self, "armnn", file, reps);
    const Result nb = run_child(self, "nnbridge", file, reps);
    const std::string name = std::filesystem::path(file).filename().string();
    char ratio[32] = "n/a";
    if (a.ok && nb.ok && nb.median_s > 0) std::snprintf(ratio, sizeof ratio, "%.1fx", a.median_s / nb.median_s);
    std::printf("| %-28s | %10s | %14s | %14s | %8s | %14s | %14s | %12s | %12s |\n", name.c_str(),
                mib(static_cast<long>(size / 1024)).c_str(), nb.ok ? ms(nb.median_s).c_str() : "failed",
                a.ok ? ms(a.median_s).c_str() : "failed", ratio, nb.ok ? ms(nb.first_s).c_str() : "-",
                a.ok ? ms(a.first_s).c_str() : "-", nb.ok ? mib(nb.maxrss_kib).c_str() : "-",
                a.ok ? mib(a.maxrss_kib).c_str() : "-");
    if (!nb.ok) rc = 1;
  }
  std::cout << "\nms = median of the loads after the first in each process; ratio = Arm NN ms / nnbridge ms "
               "(target >= 5x); 1st = the first load in a fresh process (one-time setup, cold caches). "
               "nnbridge maps a file from 64 KiB up (smaller ones are read): constant data is not copied, so "
               "its RSS grows only by the pages verification touches.\n";
  return rc;
}

std::string self_path() {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "child") return child(argv[2], argv[3], std::stoi(argv[4]));
  if (argc >= 3 && std::string(argv[1]) == "table") return table(self_path(), std::vector<std::string>(argv + 2, argv + argc));
  std::cerr << "usage: nnbridge-bench-load table FILE...\n";
  return 2;
}
