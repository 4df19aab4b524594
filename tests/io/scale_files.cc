#include "scale_files.h"

#include <doctest/doctest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>

#include "support/paths.h"

namespace nnbridge::test {

std::filesystem::path scale_file(const std::string& name, std::size_t n) {
  const auto dir = temp_dir();
  const std::string cmd = std::string("'") + NNBRIDGE_PYTHON + "' '" + NNBRIDGE_SCALE_GEN + "' --build '" +
                          binary_dir().string() + "' " + name + " " + std::to_string(n) + " '" + dir.string() + "'";
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  std::array<char, 4096> buf;
  while (std::size_t k = std::fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), k);
  const int status = ::pclose(p);
  INFO(cmd);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  REQUIRE(std::filesystem::is_regular_file(out));
  return out;
}

}  // namespace nnbridge::test
