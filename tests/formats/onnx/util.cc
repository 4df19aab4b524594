#include "util.h"

#include <array>
#include <cstdio>
#include <stdexcept>
#include <sys/wait.h>

#include "support/paths.h"

namespace nnbridge::test::onnx {

namespace fs = std::filesystem;

namespace {
std::string q(const fs::path& p) { return "'" + p.string() + "'"; }
}  // namespace

int shell(const std::string& cmd, std::string* out) {
  FILE* p = ::popen((cmd + " 2>&1").c_str(), "r");
  if (!p) throw std::runtime_error("popen failed: " + cmd);
  std::string text;
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), p)) text.append(buf.data(), n);
  const int status = ::pclose(p);
  if (out) *out = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool have_onnx() {
  static const bool ok = shell(std::string(kPython) + " -c 'import onnx, numpy'") == 0;
  return ok;
}

const fs::path& models() {
  static const fs::path dir = [] {
    fs::path d = temp_dir() / "models";
    std::string out;
    const std::string cmd = std::string(kPython) + " " + q(source_dir() / "tests/formats/onnx/make_models.py") + " " + q(d);
    if (shell(cmd, &out) != 0) throw std::runtime_error("make_models.py failed: " + out);
    return d;
  }();
  return dir;
}

std::string same_model(const fs::path& original, const fs::path& written) {
  std::string out;
  const std::string cmd =
      std::string(kPython) + " " + q(source_dir() / "tests/formats/onnx/compare.py") + " " + q(original) + " " + q(written);
  return shell(cmd, &out) == 0 ? std::string() : (out.empty() ? std::string("compare.py failed") : out);
}

std::string full_check(const fs::path& path) {
  std::string out;
  const std::string cmd = std::string(kPython) + " -c 'import onnx, sys; onnx.checker.check_model(sys.argv[1], full_check=True)' " + q(path);
  return shell(cmd, &out) == 0 ? std::string() : (out.empty() ? std::string("the checker failed") : out);
}

}  // namespace nnbridge::test::onnx
