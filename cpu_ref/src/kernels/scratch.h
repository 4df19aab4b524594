// Per-thread scratch memory of the kernels that stage their input (im2col, padded planes).
#pragma once

#include <cstddef>

namespace nnbridge::cpu_ref {

/// A 64-byte aligned buffer of at least `count` floats owned by the calling thread, reused by every later call
/// on that thread (the blocks of successive nodes and runs), so that a run allocates and
/// page-faults no fresh staging memory. Contents are unspecified; the previous pointer is invalid
/// after a call with a larger count. Grows, never shrinks: it holds the largest block asked for.
/// Slot 0 holds a work item's block; slot 1 a whole node's staged input (other threads read it
/// while the node runs), so a node's items can use slot 0 on the same thread.
float* thread_scratch(std::size_t count, int slot = 0);

}  // namespace nnbridge::cpu_ref
