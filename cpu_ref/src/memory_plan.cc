// First-fit arena planning and the arena pool.
#include "memory_plan.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <new>

#include "nnbridge/exec/large_buffer.h"

namespace nnbridge::cpu_ref {

namespace {

constexpr int64_t kAlign = 16;  // floats: 64 bytes

int64_t round_up(int64_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// Free blocks by offset, neighbours merged.
class FreeList {
 public:
  int64_t alloc(int64_t size, int64_t& end) {
    for (auto it = blocks_.begin(); it != blocks_.end(); ++it) {
      if (it->second < size) continue;
      const int64_t off = it->first, rest = it->second - size;
      blocks_.erase(it);
      if (rest) blocks_[off + size] = rest;
      return off;
    }
    // None fits: grow the arena, reusing a free block that ends at the top.
    if (!blocks_.empty()) {
      auto last = std::prev(blocks_.end());
      if (last->first + last->second == end) {
        const int64_t off = last->first;
        blocks_.erase(last);
        end = off + size;
        return off;
      }
    }
    const int64_t off = end;
    end += size;
    return off;
  }

  void free(int64_t off, int64_t size) {
    auto next = blocks_.lower_bound(off);
    if (next != blocks_.end() && off + size == next->first) {
      size += next->second;
      next = blocks_.erase(next);
    }
    if (next != blocks_.begin()) {
      auto prev = std::prev(next);
      if (prev->first + prev->second == off) {
        prev->second += size;
        return;
      }
    }
    blocks_[off] = size;
  }

 private:
  std::map<int64_t, int64_t> blocks_;
};

}  // namespace

MemoryPlan plan_memory(const std::vector<Lifetime>& tensors, std::size_t steps) {
  MemoryPlan plan;
  plan.offset.assign(tensors.size(), -1);
  std::vector<std::vector<std::size_t>> born(steps), dies(steps);
  for (std::size_t t = 0; t < tensors.size(); ++t) {
    if (tensors[t].floats <= 0 || tensors[t].first >= steps) continue;
    born[tensors[t].first].push_back(t);
    dies[std::min(std::max(tensors[t].last, tensors[t].first), steps - 1)].push_back(t);
  }
  FreeList free;
  int64_t end = 0;
  for (std::size_t s = 0; s < steps; ++s) {
    for (std::size_t t : born[s]) plan.offset[t] = free.alloc(round_up(tensors[t].floats), end);
    for (std::size_t t : dies[s]) free.free(plan.offset[t], round_up(tensors[t].floats));
  }
  plan.floats = end;
  return plan;
}

void ArenaPool::Free::operator()(float* p) const { exec::large_free(p); }

ArenaPool::Arena ArenaPool::acquire() const {
  {
    std::lock_guard lock(mu_);
    if (!free_.empty()) {
      Arena a = std::move(free_.back());
      free_.pop_back();
      return a;
    }
  }
  // Huge pages where the arena is 2 MiB or more (exec::large_alloc): a run's first touch of a
  // fresh arena otherwise page-faults every 4 KiB.
  const std::size_t bytes = static_cast<std::size_t>(std::max<int64_t>(floats_, kAlign)) * sizeof(float);
  return Arena(static_cast<float*>(exec::large_alloc(bytes)));
}

void ArenaPool::release(Arena a) const {
  std::lock_guard lock(mu_);
  free_.push_back(std::move(a));
}

std::shared_ptr<float[]> OutputPool::get(std::size_t floats) {
  float* p = nullptr;
  {
    std::lock_guard lock(mu_);
    for (auto it = free_.begin(); it != free_.end(); ++it)
      if (it->first == floats) {
        p = it->second;
        free_.erase(it);
        break;
      }
  }
  if (!p) {
    const std::size_t bytes = std::max<std::size_t>(floats, 1) * sizeof(float);
    p = static_cast<float*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64));
    if (!p) throw std::bad_alloc();
  }
  std::weak_ptr<OutputPool> home = weak_from_this();
  return std::shared_ptr<float[]>(p, [home, floats](float* q) {
    if (auto pool = home.lock()) pool->put(q, floats);
    else std::free(q);
  });
}

void OutputPool::put(float* p, std::size_t floats) {
  {
    std::lock_guard lock(mu_);
    if (free_.size() < kKeep) {
      free_.emplace_back(floats, p);
      return;
    }
  }
  std::free(p);
}

OutputPool::~OutputPool() {
  for (auto& [n, p] : free_) std::free(p);
}

}  // namespace nnbridge::cpu_ref
