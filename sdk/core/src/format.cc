#include "nnbridge/format.h"

#include <cerrno>
#include <charconv>
#include <filesystem>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnbridge/error.h"

namespace nnbridge {

std::vector<std::string> verifier_limit_options(std::string_view format) {
  const std::string f(format);
  return {f + ".max_depth", f + ".max_tables", f + ".max_size"};
}

std::map<std::string, OptionDoc, std::less<>> verifier_limit_option_docs(std::string_view format) {
  const auto names = verifier_limit_options(format);
  const VerifierLimits d;
  return {
      {names[0], {"the FlatBuffers verifier's bound on nesting of tables and vectors (1 to 2^32 - 1)", std::to_string(d.max_depth)}},
      {names[1], {"the FlatBuffers verifier's bound on tables in one file (1 to 2^32 - 1)", std::to_string(d.max_tables)}},
      {names[2], {"bytes of input read at most; a larger file is refused naming this option (1 to 2^31 - 1)",
                  std::to_string(d.max_size)}},
  };
}

namespace {

std::uint64_t limit_value(const std::string& key, const std::string& text, std::uint64_t max) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v == 0 || v > max)
    throw Error(ErrorId::OptionValue, "reader option " + key + " must be an integer from 1 to " + std::to_string(max) +
                                        ", not '" + text + "'");
  return v;
}

}  // namespace

VerifierLimits verifier_limits(const LoadOptions& options, std::string_view format) {
  VerifierLimits l = options.limits;
  const auto names = verifier_limit_options(format);
  constexpr std::uint64_t kU32 = 0xFFFF'FFFFu;
  if (auto it = options.options.find(names[0]); it != options.options.end())
    l.max_depth = static_cast<unsigned>(limit_value(it->first, it->second, kU32));
  if (auto it = options.options.find(names[1]); it != options.options.end())
    l.max_tables = static_cast<unsigned>(limit_value(it->first, it->second, kU32));
  if (auto it = options.options.find(names[2]); it != options.options.end())
    l.max_size = limit_value(it->first, it->second, (std::uint64_t{1} << 31) - 1);
  return l;
}

void check_input_size(std::size_t size, const VerifierLimits& limits, std::string_view format) {
  if (size > limits.max_size)
    throw Error(ErrorId::IoTooLarge, "the input is " + std::to_string(size) + " bytes, over the limit of " +
                                            std::to_string(limits.max_size) + " (reader option " + std::string(format) +
                                            ".max_size)");
}

Buffer Source::view(std::size_t offset, std::size_t length) const {
  if (offset > bytes.size() || length > bytes.size() - offset)
    throw Error(ErrorId::Truncated,
                "range [" + std::to_string(offset) + ", +" + std::to_string(length) + ") is outside the " +
                    std::to_string(bytes.size()) + "-byte input",
                file);
  auto sub = bytes.subspan(offset, length);
  // Without an owner the caller's memory might not outlive the Buffer: copy instead.
  if (!owner) return Buffer::copy_of(sub);
  return Buffer::view(owner, sub);
}

namespace {

// Temporaries are named ".<target>.tmp-<pid>-XXXXXX". A process killed mid-write (SIGKILL, a
// power cut) cannot remove its own, so each write first removes the temporaries of the same
// target left by processes that no longer run. A live writer's temporary is never touched.
void remove_stale_temporaries(const std::filesystem::path& dir, const std::string& target) {
  const std::string prefix = "." + target + ".tmp-";
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::size_t dash = name.find('-', prefix.size());
    if (dash == std::string::npos || dash == prefix.size() || name.size() - dash != 7) continue;
    long pid = 0;
    bool digits = true;
    for (std::size_t i = prefix.size(); i < dash && digits; ++i) {
      digits = name[i] >= '0' && name[i] <= '9' && pid < 100000000;
      pid = pid * 10 + (name[i] - '0');
    }
    if (!digits || pid <= 0) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;  // alive, or not ours to judge
    std::error_code rm;
    std::filesystem::remove(it->path(), rm);
  }
}

// Writes `bytes` to a new temporary file beside `path` (same folder, so that rename() is
// atomic), synced and with the mode the target has or an ordinary create would give.
// Returns the temporary's path; on failure removes it and throws Error(Io) naming `path`.
std::string stage(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  const std::string file = path.string();
  std::filesystem::path dir = path.parent_path();
  if (dir.empty()) dir = ".";
  remove_stale_temporaries(dir, path.filename().string());
  std::string tmpl = (dir / ("." + path.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-XXXXXX")).string();
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    const int e = errno;
    std::error_code ec;
    if (e == ENOENT && !std::filesystem::is_directory(dir, ec))
      throw Error(ErrorId::IoNoFolder, "the folder " + dir.string() + " does not exist (create it first)", file);
    throw Error(ErrorId::IoWrite, std::string("cannot create a temporary file beside it: ") + std::strerror(e), file);
  }

  auto fail = [&](const char* what) {
    int e = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(tmpl.c_str());
    throw Error(ErrorId::IoWrite, std::string(what) + ": " + std::strerror(e), file);
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
      throw Error(ErrorId::IoWrite, std::string("cannot rename into place: ") + std::strerror(e), files[i].path.string());
    }
  }
}

void write_file_atomic(const std::filesystem::path& path, std::span<const std::byte> bytes) {
  const FileContents one{path, bytes};
  write_files_atomic(std::span(&one, 1));
}

}  // namespace nnbridge
