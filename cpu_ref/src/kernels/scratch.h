// Per-thread scratch memory of the kernels that stage their input (im2col, padded planes).
#pragma once

#include <cstddef>

namespace nnbridge::cpu_ref {

/// A buffer of at least `count` floats owned by the calling thread, reused by every later call
/// on that thread (the blocks of successive nodes and runs), so that a run allocates and
/// page-faults no fresh staging memory. Contents are unspecified; the previous pointer is invalid
/// after a call with a larger count. Grows, never shrinks: it holds the largest block asked for.
float* thread_scratch(std::size_t count);

}  // namespace nnbridge::cpu_ref
