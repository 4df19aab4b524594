// Immutable byte buffers: owned, or views into a memory-mapped file.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <span>
#include <vector>

namespace nnbridge {

/// Immutable bytes with shared ownership. Copying a Buffer never copies the bytes.
///
/// A Buffer is either owned (holds a std::vector) or a view into memory kept alive by an
/// owner object, typically a MappedFile: loading a model never copies its constant data.
class Buffer {
 public:
  Buffer() = default;  ///< an empty buffer
  /// Takes ownership of `bytes`.
  static Buffer owned(std::vector<std::byte> bytes);
  /// Copies `bytes` into a new owned buffer.
  static Buffer copy_of(std::span<const std::byte> bytes);
  /// A view of `bytes`; `owner` keeps the memory alive for as long as any copy of the view lives.
  static Buffer view(std::shared_ptr<const void> owner, std::span<const std::byte> bytes);

  /// The bytes; valid for as long as this Buffer or a copy of it lives.
  std::span<const std::byte> bytes() const noexcept { return {data_, size_}; }
  /// The first byte (nullptr when empty). No alignment is promised beyond the owner's.
  const std::byte* data() const noexcept { return data_; }
  /// Size in bytes.
  std::size_t size() const noexcept { return size_; }
  /// True when size() is 0.
  bool empty() const noexcept { return size_ == 0; }
  /// True when this buffer is a view into memory it does not own (e.g. a mapped file).
  bool is_view() const noexcept { return is_view_; }
  /// A sub-range view sharing the same owner. Throws Error(Invalid) when out of range.
  Buffer slice(std::size_t offset, std::size_t length) const;

  /// Byte-wise equality of contents.
  friend bool operator==(const Buffer& a, const Buffer& b);

 private:
  std::shared_ptr<const void> owner_;
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  bool is_view_ = false;
};

/// A read-only file in memory: memory-mapped (POSIX mmap) from kMapThreshold bytes up,
/// read into one owned block below it, where the page faults of a fresh mapping cost more
/// than the read (the same trade LLVM's MemoryBuffer makes). Either way, views of the
/// file's bytes are never copied again. Empty files give an empty span.
class MappedFile {
 public:
  /// Files smaller than this are read rather than mapped.
  static constexpr std::size_t kMapThreshold = 64 * 1024;

  /// Maps or reads `path`. Throws Error(Io) naming the file when it cannot be opened, read or mapped.
  static std::shared_ptr<const MappedFile> open(const std::filesystem::path& path);
  ~MappedFile();  ///< unmaps the file if it was mapped
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  /// The whole file's bytes, valid while this object lives.
  std::span<const std::byte> bytes() const noexcept { return {data_, size_}; }
  /// The path it was opened with.
  const std::filesystem::path& path() const noexcept { return path_; }
  /// A Buffer viewing the whole file that keeps this mapping alive.
  Buffer buffer(const std::shared_ptr<const MappedFile>& self) const;

 private:
  MappedFile() = default;
  const std::byte* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
  std::vector<std::byte> read_;  ///< the contents of a small file
  std::filesystem::path path_;
};

}  // namespace nnbridge
