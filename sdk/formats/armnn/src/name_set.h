// A set of names for making value names unique while a file is read.
//
// Open addressing (linear probing, at most half full) over string_views whose bytes the set
// copies into its own arena: one allocation per 64 KiB of names instead of one node (and often
// one string) per name, which is what reading a 10k-layer Arm NN file spent most on after the
// IR itself.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

namespace nnbridge::formats::armnn {

class NameSet {
 public:
  /// Room for `n` names without rehashing.
  void reserve(std::size_t n) {
    std::size_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    if (cap > slots_.size()) rehash(cap);
  }
  /// The hash the calls below taking `h` expect: computed once for several of them.
  static std::size_t hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
  bool contains(std::string_view s) const { return contains(s, hash(s)); }
  bool contains(std::string_view s, std::size_t h) const {
    if (s.empty()) return has_empty_;
    if (slots_.empty()) return false;
    for (std::size_t i = h & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      if (!slots_[i].data()) return false;
      if (slots_[i] == s) return true;
    }
  }
  /// Adds a copy of `s` (nothing when it is there already).
  void insert(std::string_view s) { insert_new(s, hash(s)); }
  /// Adds a copy of `s` (hash `h`) unless it is there; whether it was added.
  bool insert_new(std::string_view s, std::size_t h) {
    if (s.empty()) return !std::exchange(has_empty_, true);
    if (contains(s, h)) return false;
    if (2 * (size_ + 1) > slots_.size()) rehash(slots_.empty() ? 16 : 2 * slots_.size());
    place(keep(s), h);
    ++size_;
    return true;
  }

 private:
  void place(std::string_view s, std::size_t h) {
    std::size_t i = h & (slots_.size() - 1);
    while (slots_[i].data()) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = s;
  }
  void rehash(std::size_t cap) {
    std::vector<std::string_view> old(cap);
    old.swap(slots_);
    for (std::string_view s : old)
      if (s.data()) place(s, hash(s));
  }
  // Copies the bytes into the arena; the view stays valid for the set's life.
  std::string_view keep(std::string_view s) {
    if (s.size() > left_) {
      const std::size_t n = std::max<std::size_t>(kChunk, s.size());
      chunks_.push_back(std::make_unique<char[]>(n));
      next_ = chunks_.back().get();
      left_ = n;
    }
    std::memcpy(next_, s.data(), s.size());
    std::string_view v(next_, s.size());
    next_ += s.size();
    left_ -= s.size();
    return v;
  }

  static constexpr std::size_t kChunk = 64 * 1024;
  std::vector<std::string_view> slots_;  // a default string_view (data() null) is a free slot
  std::size_t size_ = 0;
  bool has_empty_ = false;
  std::vector<std::unique_ptr<char[]>> chunks_;
  char* next_ = nullptr;
  std::size_t left_ = 0;
};

}  // namespace nnbridge::formats::armnn
