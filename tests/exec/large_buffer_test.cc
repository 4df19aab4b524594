// exec::large_alloc (nnbridge/exec/large_buffer.h): 64-byte alignment below 2 MiB, 2 MiB from
// there up, and on Linux the 2 MiB pages marked for transparent huge pages (the kernel's own
// report, /proc/self/smaps "THPeligible", where THP is not disabled).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <new>
#include <sstream>
#include <string>
#include <vector>
#include <iterator>
#include <memory>
#include <atomic>
#include <thread>
#if defined(__linux__)
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#endif

#include "nnbridge/exec/large_buffer.h"

using namespace nnbridge;

namespace {

constexpr std::size_t kMiB = std::size_t{1} << 20;

// The "THPeligible" line of the /proc/self/smaps mapping holding `p`: 1, 0, or -1 when not found.
int thp_eligible(const void* p) {
  std::ifstream smaps("/proc/self/smaps");
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long lo = 0, hi = 0;
    char dash = 0;
    std::istringstream head(line);
    if (head >> std::hex >> lo >> dash >> hi && dash == '-' && line.find(':') > line.find(' ')) {
      inside = at >= lo && at < hi;
      continue;
    }
    if (inside && line.rfind("THPeligible:", 0) == 0) return std::stoi(line.substr(12));
  }
  return -1;
}

bool thp_enabled() {
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string s;
  std::getline(f, s);
  return !s.empty() && s.find("[never]") == std::string::npos;
}

}  // namespace

TEST_CASE("large_alloc: aligned, writable end to end, freed by LargeFree") {
  for (const std::size_t bytes : {std::size_t{0}, std::size_t{1}, std::size_t{4096} + 4, 2 * kMiB - 4, 2 * kMiB, 5 * kMiB + 12}) {
    CAPTURE(bytes);
    std::unique_ptr<std::byte[], exec::LargeFree> p(static_cast<std::byte*>(exec::large_alloc(bytes)));
    REQUIRE(p);  // zero bytes: a block of one
    const auto at = reinterpret_cast<std::uintptr_t>(p.get());
    CHECK(at % 64 == 0);
    if (bytes >= 2 * kMiB) CHECK(at % (2 * kMiB) == 0);
    const std::size_t used = bytes ? bytes : 1;
    std::memset(p.get(), 0x5a, used);
    CHECK(p[used - 1] == std::byte{0x5a});
  }
  // A size whose rounding up to 2 MiB would wrap around is refused, not a small block.
  CHECK_THROWS_AS(exec::large_alloc(SIZE_MAX - 100), std::bad_alloc);
  CHECK_THROWS_AS(exec::large_floats(SIZE_MAX / 2), std::bad_alloc);
  const exec::LargeFloats f = exec::large_floats(0);  // at least one element
  REQUIRE(f);
  f[0] = 1.5f;
  CHECK(f[0] == 1.5f);
}

TEST_CASE("large_alloc: the whole 2 MiB pages of a large block are eligible for transparent huge pages") {
#if defined(__linux__)
  if (!thp_enabled()) {
    MESSAGE("transparent huge pages are disabled here ([never]): nothing to check");
    return;
  }
  std::unique_ptr<std::byte[], exec::LargeFree> big(static_cast<std::byte*>(exec::large_alloc(6 * kMiB)));
  REQUIRE(thp_eligible(big.get()) == 1);
  // From 32 KiB to 2 MiB the blocks share advised chunks; below, no advice is given: the block
  // lies in malloc's heap or its own small mapping, which THP "madvise" does not make eligible
  // (under "always" everything is).
  std::unique_ptr<std::byte[], exec::LargeFree> pooled(static_cast<std::byte*>(exec::large_alloc(kMiB)));
  CHECK(thp_eligible(pooled.get()) == 1);
  std::ifstream f("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string mode;
  std::getline(f, mode);
  if (mode.find("[madvise]") != std::string::npos) {
    std::unique_ptr<std::byte[], exec::LargeFree> small(static_cast<std::byte*>(exec::large_alloc(16 << 10)));
    CHECK(thp_eligible(small.get()) == 0);
  }
#else
  MESSAGE("not Linux: no huge page advice to check");
#endif
}

TEST_CASE("large_alloc: blocks from 32 KiB to 2 MiB share chunks and do not overlap") {
  // 64-byte aligned and cut in order from 4 MiB chunks (1 MiB + 100,000 B + 1 MiB share one,
  // 2 MiB - 1 does not fit its rest and opens the next); each block is written whole with its
  // own byte and read back after all are written (an overlap would show another block's byte).
  constexpr std::size_t sizes[] = {kMiB, 100000, kMiB, 2 * kMiB - 1, 32 << 10, kMiB - 64, 40000};
  std::vector<std::unique_ptr<std::byte[], exec::LargeFree>> blocks;
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    blocks.emplace_back(static_cast<std::byte*>(exec::large_alloc(sizes[i])));
    REQUIRE(blocks.back());
    CHECK(reinterpret_cast<std::uintptr_t>(blocks.back().get()) % 64 == 0);
    std::memset(blocks.back().get(), static_cast<int>(i + 1), sizes[i]);
  }
  for (std::size_t i = 0; i < std::size(sizes); ++i) {
    CAPTURE(i);
    CHECK(blocks[i][0] == std::byte(i + 1));
    CHECK(blocks[i][sizes[i] / 2] == std::byte(i + 1));
    CHECK(blocks[i][sizes[i] - 1] == std::byte(i + 1));
  }
  // Freed in any order (the chunks go when their last block does), then allocated again.
  for (std::size_t i : {3u, 0u, 6u, 1u, 5u, 2u, 4u}) blocks[i].reset();
  std::unique_ptr<std::byte[], exec::LargeFree> again(static_cast<std::byte*>(exec::large_alloc(kMiB)));
  REQUIRE(again);
  std::memset(again.get(), 7, kMiB);
  CHECK(again[kMiB - 1] == std::byte{7});
  exec::large_free(nullptr);  // nothing
}

#if defined(__linux__)
TEST_CASE("large_alloc: a child forked while another thread allocates can allocate") {
  // fork() copies only the calling thread; without the pool's fork handlers a child forked while
  // the other thread held the pool's lock (here most of the time) waits on it forever. Each
  // child allocates and writes a pooled block and exits; one that has not exited after 5 s
  // counts as stuck (and is killed).
  exec::large_free(exec::large_alloc(64 << 10));  // the pool exists (made at load) before any fork
  std::atomic<bool> stop{false};
  std::thread churn([&] {
    while (!stop.load(std::memory_order_relaxed)) exec::large_free(exec::large_alloc(64 << 10));
  });
  int stuck = 0, failed = 0;
  for (int i = 0; i < 50 && stuck == 0; ++i) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      auto* p = static_cast<unsigned char*>(exec::large_alloc(64 << 10));
      p[0] = 1;
      exec::large_free(p);
      _exit(0);
    }
    int status = 0;
    bool exited = false;
    for (int ms = 0; ms < 5000 && !exited; ms += 2) {
      exited = waitpid(pid, &status, WNOHANG) == pid;
      if (!exited) usleep(2000);
    }
    if (!exited) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      ++stuck;
    } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      ++failed;
    }
  }
  stop = true;
  churn.join();
  CHECK(stuck == 0);
  CHECK(failed == 0);
}
#endif
