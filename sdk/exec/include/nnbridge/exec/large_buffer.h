// Memory for large buffers that backends fill once and read many times (converted constants,
// packed weights, the arena of intermediate tensors).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <new>

namespace nnbridge::exec {

/// Frees a block from large_alloc (null: nothing).
void large_free(void* p) noexcept;

/// Frees what large_alloc returned (large_free).
struct LargeFree {
  void operator()(void* p) const noexcept { large_free(p); }
};

/// An array from large_floats(); its contents are not initialized.
using LargeFloats = std::unique_ptr<float[], LargeFree>;

/// `bytes` of uninitialized memory (at least one byte), 64-byte aligned; free it with
/// large_free (or LargeFree). From 2 MiB up the block is aligned to 2 MiB and, on Linux, its
/// whole 2 MiB pages are marked MADV_HUGEPAGE (advice: the kernel backs them with transparent
/// huge pages where they are enabled, "always" or "madvise", else with 4 KiB pages as before).
/// The first touch of each 4 KiB page is a page fault, which costs 10 to 15 us on the test
/// machine's virtual CPUs (a 16 MiB buffer 62 ms, with huge pages 1 to 31 ms). A last, partly
/// used 2 MiB page is advised too when the buffer fills half of it or more (so at most 1 MiB is
/// resident beyond what is touched), else it keeps 4 KiB pages. Blocks from 32 KiB to 2 MiB are
/// cut in order from shared 4 MiB chunks advised the same way (a chunk's memory returns when
/// all its blocks are freed; the chunk being filled stays mapped); smaller ones come from
/// aligned_alloc. Where the kernel compacts memory to find a huge page (THP defrag "madvise",
/// Debian's default) a first touch can wait for that instead; the zoo's load + prepare + first
/// run still came out faster. Thread-safe. Throws std::bad_alloc when the memory is not there.
void* large_alloc(std::size_t bytes);

/// large_alloc of `n` floats (at least one).
inline LargeFloats large_floats(std::size_t n) {
  if (n > SIZE_MAX / sizeof(float)) throw std::bad_alloc();
  return LargeFloats(static_cast<float*>(large_alloc((n ? n : 1) * sizeof(float))));
}

}  // namespace nnbridge::exec
