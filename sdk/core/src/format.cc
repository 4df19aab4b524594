#include "nnbridge/format.h"

#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnbridge/error.h"

namespace nnbridge {

Buffer Source::view(std::size_t offset, std::size_t length) const {
  if (offset > bytes.size() || length > bytes.size() - offset)
    throw Error(ErrorCode::Malformed,
                "range [" + std::to_string(offset) + ", +" + std::to_string(length) + ") is outside the " +
                    std::to_string(bytes.size()) + "-byte input",
                file);
  auto sub = bytes.subspan(offset, length);
  // Without an owner the caller's memory might not outlive the Buffer: copy instead.
  if (!owner) return Buffer::copy_of(sub);
  return Buffer::view(owner, sub);
}

namespace {

// Writes `bytes` to a new temporary file beside `path` (same folder, so that rename() is
// atomic), synced and with the mode the target has or an ordinary create would give.
// Returns the temporary's path; on failure removes it and throws Error(Io) naming `path`.
std::string stage(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  const std::string file = path.string();
  std::filesystem::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  std::string tmpl = (dir / ("." + path.filename().string() + ".tmp-XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) throw Error(ErrorCode::Io, std::string("cannot create a temporary file: ") + std::strerror(errno), file);

  auto fail = [&](const char* what) {
    int e = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(tmpl.c_str());
    throw Error(ErrorCode::Io, std::string(what) + ": " + std::strerror(e), file);
  };

  const std::byte* p = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("cannot write");
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  // mkstemp creates 0600: keep the mode of the file being replaced, else what an ordinary
  // create would give (0666 & ~umask; umask can only be read by setting it).
  mode_t mode = 0;
  struct stat st {};
  if (::stat(file.c_str(), &st) == 0) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(022);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd, mode) != 0) fail("cannot set permissions");
  if (::fsync(fd) != 0) fail("cannot sync");
  int rc = ::close(fd);
  fd = -1;
  if (rc != 0) fail("cannot close");
  return tmpl;
}

}  // namespace

void write_files_atomic(std::span<const FileContents> files) {
  // Every file is written in full before any is renamed: a failed write (a full disk, a
  // missing folder) leaves all targets as they were.
  std::vector<std::string> temps;
  try {
    for (const auto& f : files) temps.push_back(stage(f.path, f.bytes));
  } catch (...) {
    for (const auto& t : temps) ::unlink(t.c_str());
    throw;
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (::rename(temps[i].c_str(), files[i].path.c_str()) != 0) {
      const int e = errno;
      for (std::size_t j = i; j < temps.size(); ++j) ::unlink(temps[j].c_str());
      throw Error(ErrorCode::Io, std::string("cannot rename into place: ") + std::strerror(e), files[i].path.string());
    }
  }
}

void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  const FileContents one{path, bytes};
  write_files_atomic(std::span(&one, 1));
}

}  // namespace nnbridge
