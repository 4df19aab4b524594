// Runs the nnbridge CLI under test through the shell, for tests whose arguments are easiest to
// write as one command line. The including test target defines NNBRIDGE_CLI (the binary's path).
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace nnbridge::test {

struct Result {
  int rc;           ///< exit status; -1 when the CLI did not exit normally
  std::string out;  ///< standard output and standard error, interleaved
};

/// Runs `NNBRIDGE_CLI args 2>&1` (args already shell-quoted, see q()).
inline Result cli(const std::string& args) {
  const std::string cmd = std::string("'") + NNBRIDGE_CLI + "' " + args + " 2>&1";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (p == nullptr) throw std::runtime_error("popen failed: " + cmd);
  std::string out;
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = ::pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

/// A path quoted for the shell (paths with a single quote are not supported).
inline std::string q(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

}  // namespace nnbridge::test
