#include "nnbridge/buffer.h"

#include <cerrno>
#include <cstring>
#include <string>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnbridge/error.h"

namespace nnbridge {

Buffer Buffer::owned(std::vector<std::byte> bytes) {
  auto holder = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
  Buffer b;
  b.data_ = holder->data();
  b.size_ = holder->size();
  b.owner_ = std::move(holder);
  b.is_view_ = false;
  return b;
}

Buffer Buffer::copy_of(std::span<const std::byte> bytes) {
  return owned(std::vector<std::byte>(bytes.begin(), bytes.end()));
}

Buffer Buffer::view(std::shared_ptr<const void> owner, std::span<const std::byte> bytes) {
  Buffer b;
  b.owner_ = std::move(owner);
  b.data_ = bytes.data();
  b.size_ = bytes.size();
  b.is_view_ = true;
  return b;
}

Buffer Buffer::slice(std::size_t offset, std::size_t length) const {
  // Written as two comparisons so that offset + length cannot overflow.
  if (offset > size_ || length > size_ - offset)
    throw Error(ErrorId::InvalidOther, "slice [" + std::to_string(offset) + ", +" + std::to_string(length) +
                                        ") is outside a buffer of " + std::to_string(size_) + " bytes");
  Buffer b = *this;
  b.data_ = data_ ? data_ + offset : nullptr;
  b.size_ = length;
  return b;
}

bool operator==(const Buffer& a, const Buffer& b) {
  if (a.size_ != b.size_) return false;
  if (a.size_ == 0 || a.data_ == b.data_) return true;
  return std::memcmp(a.data_, b.data_, a.size_) == 0;
}

namespace {
struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};
}  // namespace

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path) {
  const std::string file = path.string();
  Fd fd;
  fd.fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd.fd < 0) throw Error(ErrorId::IoOpen, std::string("cannot open: ") + std::strerror(errno), file);
  struct stat st {};
  if (::fstat(fd.fd, &st) != 0) throw Error(ErrorId::IoRead, std::string("cannot stat: ") + std::strerror(errno), file);
  if (!S_ISREG(st.st_mode)) throw Error(ErrorId::IoNotRegular, "not a regular file", file);

  std::shared_ptr<MappedFile> m(new MappedFile());
  m->path_ = path;
  m->size_ = static_cast<std::size_t>(st.st_size);
  if (m->size_ > 0 && m->size_ < kMapThreshold) {
    m->read_.resize(m->size_);
    std::size_t done = 0;
    while (done < m->size_) {
      const ssize_t n = ::read(fd.fd, m->read_.data() + done, m->size_ - done);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) throw Error(ErrorId::IoRead, std::string("cannot read: ") + std::strerror(errno), file);
      if (n == 0) throw Error(ErrorId::IoRead, "file shrank while being read", file);
      done += static_cast<std::size_t>(n);
    }
    m->data_ = m->read_.data();
  } else if (m->size_ > 0) {
    // mmap rejects a zero length, so an empty file keeps a null pointer and an empty span.
    void* p = ::mmap(nullptr, m->size_, PROT_READ, MAP_PRIVATE, fd.fd, 0);
    if (p == MAP_FAILED) {
      m->size_ = 0;
      throw Error(ErrorId::IoRead, std::string("cannot map: ") + std::strerror(errno), file);
    }
    m->data_ = static_cast<const std::byte*>(p);
    m->mapped_ = true;
  }
  return m;
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<std::byte*>(data_), size_);
}

Buffer MappedFile::buffer(const std::shared_ptr<const MappedFile>& self) const {
  return Buffer::view(self, bytes());
}

}  // namespace nnbridge
