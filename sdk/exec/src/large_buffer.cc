// large_alloc (nnbridge/exec/large_buffer.h).
#include "nnbridge/exec/large_buffer.h"

#include <cstdint>
#include <new>
#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace nnbridge::exec {

namespace {
constexpr std::size_t kHuge = std::size_t{2} << 20;  // a transparent huge page on x86-64 (and arm64 with 4 KiB pages)
}  // namespace

void* large_alloc(std::size_t bytes) {
  if (bytes > SIZE_MAX - kHuge) throw std::bad_alloc();  // the rounding below would wrap
  if (bytes == 0) bytes = 1;                            // aligned_alloc(a, 0) may return null
  const std::size_t align = bytes >= kHuge ? kHuge : 64;
  const std::size_t rounded = (bytes + align - 1) / align * align;  // aligned_alloc: a multiple of the alignment
  void* p = std::aligned_alloc(align, rounded);
  if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // The last, partly used 2 MiB page is a huge page too when the buffer fills at least half of
  // it (at most 1 MiB resident beyond what is used), else it keeps 4 KiB pages.
  const std::size_t tail = bytes % kHuge, advised = tail >= kHuge / 2 ? rounded : bytes - tail;
  if (align == kHuge) madvise(p, advised, MADV_HUGEPAGE);  // advice only: its failure changes nothing
#endif
  return p;
}

}  // namespace nnbridge::exec
