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
  bool contains(std::string_view s) const {
    if (s.empty()) return has_empty_;
    if (slots_.empty()) return false;
    for (std::size_t i = hash(s) & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      if (!slots_[i].data()) return false;
      if (slots_[i] == s) return true;
    }
  }
  /// Adds a copy of `s` (nothing when it is there already).
  void insert(std::string_view s) {
    if (s.empty()) {
      has_empty_ = true;
      return;
    }
    if (contains(s)) return;
    if (2 * (size_ + 1) > slots_.size()) rehash(slots_.empty() ? 16 : 2 * slots_.size());
    place(keep(s));
    ++size_;
  }

 private:
  static std::size_t hash(std::string_view s) { return std::hash<std::string_view>{}(s); }
  void place(std::string_view s) {
    std::size_t i = hash(s) & (slots_.size() - 1);
    while (slots_[i].data()) i = (i + 1) & (slots_.size() - 1);
    slots_[i] = s;
  }
  void rehash(std::size_t cap) {
    std::vector<std::string_view> old(cap);
    old.swap(slots_);
    for (std::string_view s : old)
      if (s.data()) place(s);
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
