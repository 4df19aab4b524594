// The memory plan of a CPU plan: where each intermediate tensor lives in one arena, so that a
// run allocates nothing per tensor and tensors whose lifetimes do not overlap share memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace nnbridge::cpu_ref {

/// One tensor to place: live from the start of step `first` to the end of step `last`
/// (first <= last), `floats` elements (0: not placed).
struct Lifetime {
  std::size_t first = 0, last = 0;
  int64_t floats = 0;
};

/// Offsets (in floats, multiples of 16 so every tensor is 64-byte aligned in a 64-byte aligned
/// arena) for `tensors`, and the arena size. Two tensors get overlapping memory only when their
/// lifetimes are disjoint: the steps are simulated in order with a first-fit free list.
struct MemoryPlan {
  std::vector<int64_t> offset;  ///< per tensor, -1 when not placed
  int64_t floats = 0;           ///< arena size
};
MemoryPlan plan_memory(const std::vector<Lifetime>& tensors, std::size_t steps);

/// 64-byte aligned float buffers of one size, handed out one per concurrent run and kept for
/// the next (a plan runs many times; runs on several threads each get their own).
class ArenaPool {
 public:
  explicit ArenaPool(int64_t floats) : floats_(floats) {}
  struct Free {
    void operator()(float* p) const;
  };
  using Arena = std::unique_ptr<float[], Free>;
  /// An arena for one run; give it back with release().
  Arena acquire() const;
  void release(Arena a) const;

 private:
  int64_t floats_;
  mutable std::mutex mu_;
  mutable std::vector<Arena> free_;
};

/// Buffers for float32 graph outputs, which callers receive as HostTensors viewing them: a buffer
/// comes back here when the last view of it is gone (while the pool lives), so a plan run in a
/// loop does not allocate, and fault in, fresh output memory every run. Thread-safe.
class OutputPool : public std::enable_shared_from_this<OutputPool> {
 public:
  /// A 64-byte aligned buffer of exactly `floats` elements (contents unspecified).
  std::shared_ptr<float[]> get(std::size_t floats);

 private:
  static constexpr std::size_t kKeep = 8;  // free buffers kept at most
  void put(float* p, std::size_t floats);
  std::mutex mu_;
  std::vector<std::pair<std::size_t, float*>> free_;

 public:
  ~OutputPool();
};

}  // namespace nnbridge::cpu_ref
