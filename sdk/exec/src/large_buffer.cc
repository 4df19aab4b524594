// large_alloc and large_free (nnbridge/exec/large_buffer.h).
#include "nnbridge/exec/large_buffer.h"

#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>
#include <new>
#if defined(__linux__)
#include <pthread.h>
#include <sys/mman.h>
#endif

namespace nnbridge::exec {

namespace {

constexpr std::size_t kHuge = std::size_t{2} << 20;  // a transparent huge page on x86-64 (and arm64 with 4 KiB pages)

// 2 MiB-aligned memory of `bytes` (a multiple of 2 MiB or not), its first `advised` bytes marked
// MADV_HUGEPAGE.
void* huge_aligned(std::size_t bytes, std::size_t advised) {
  const std::size_t rounded = (bytes + kHuge - 1) / kHuge * kHuge;  // aligned_alloc: a multiple of the alignment
  void* p = std::aligned_alloc(kHuge, rounded);
  if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (advised) madvise(p, advised, MADV_HUGEPAGE);  // advice only: its failure changes nothing
#else
  (void)advised;
#endif
  return p;
}

// Blocks from kPoolMin up to 2 MiB share chunks of kChunk bytes, each one huge-page-advised
// mapping, handed out in order (64-byte aligned) and freed whole when their last block is: the
// packed weights of a network's small layers (a few hundred KiB each) are then a few huge pages
// instead of thousands of 4 KiB first touches (mobilenet_v2's prepare: 1,950 page faults).
// Memory of a freed block is reused only once its whole chunk is free: the blocks these hold
// (weights, converted constants) live and die with their plans.
constexpr std::size_t kPoolMin = std::size_t{32} << 10;
constexpr std::size_t kChunk = std::size_t{4} << 20;

class Pool {
 public:
  void* get(std::size_t bytes) {
    bytes = (bytes + 63) / 64 * 64;
    std::lock_guard lock(mu_);
    if (!current_ || kChunk - current_->second.used < bytes) {
      void* base = huge_aligned(kChunk, kChunk);
      current_ = &*chunks_.emplace(reinterpret_cast<std::uintptr_t>(base), Chunk{}).first;
    }
    Chunk& c = current_->second;
    void* p = reinterpret_cast<void*>(current_->first + c.used);
    c.used += bytes;
    ++c.live;
    return p;
  }
  // Held across fork() (pool() below).
  void lock() { mu_.lock(); }
  void unlock() { mu_.unlock(); }
  // True when p is one of this pool's blocks (then freed here).
  bool put(void* p) {
    const auto at = reinterpret_cast<std::uintptr_t>(p);
    std::lock_guard lock(mu_);
    auto it = chunks_.upper_bound(at);
    if (it == chunks_.begin()) return false;
    --it;
    if (at >= it->first + kChunk) return false;
    if (--it->second.live == 0) {
      if (&*it == current_) {
        it->second.used = 0;  // the chunk being filled starts over
      } else {
        std::free(reinterpret_cast<void*>(it->first));
        chunks_.erase(it);
      }
    }
    return true;
  }

 private:
  struct Chunk {
    std::size_t used = 0;  // bytes handed out from the start
    std::size_t live = 0;  // blocks not yet freed
  };
  std::mutex mu_;
  std::map<std::uintptr_t, Chunk> chunks_;  // by base address
  std::map<std::uintptr_t, Chunk>::value_type* current_ = nullptr;  // the chunk being filled
};

Pool& pool() {
  // Never destroyed: blocks may outlive static destruction. fork() copies only the calling
  // thread, so a child forked while another thread held the pool's lock would wait on it
  // forever: the lock is taken before a fork and released after it on both sides (POSIX
  // pthread_atfork; glibc's malloc guards its arenas the same way).
  static Pool* p = [] {
    auto* created = new Pool;
#if defined(__linux__)
    pthread_atfork([] { pool().lock(); }, [] { pool().unlock(); }, [] { pool().unlock(); });
#endif
    return created;
  }();
  return *p;
}

// Made when the library is loaded, before the program can have threads of its own: a child
// forked while another thread was inside pool()'s first call (its static initialization, whose
// guard no fork handler can release) would wait on that guard forever.
[[maybe_unused]] const Pool& kPoolAtLoad = pool();

}  // namespace

void* large_alloc(std::size_t bytes) {
  if (bytes > SIZE_MAX - kHuge) throw std::bad_alloc();  // the rounding below would wrap
  if (bytes == 0) bytes = 1;                            // aligned_alloc(a, 0) may return null
  if (bytes >= kHuge) {
    // The last, partly used 2 MiB page is a huge page too when the buffer fills at least half of
    // it (at most 1 MiB resident beyond what is used), else it keeps 4 KiB pages.
    const std::size_t tail = bytes % kHuge;
    return huge_aligned(bytes, tail >= kHuge / 2 ? (bytes + kHuge - 1) / kHuge * kHuge : bytes - tail);
  }
  if (bytes >= kPoolMin) return pool().get(bytes);
  void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
  if (!p) throw std::bad_alloc();
  return p;
}

void large_free(void* p) noexcept {
  if (p && !pool().put(p)) std::free(p);
}

}  // namespace nnbridge::exec
