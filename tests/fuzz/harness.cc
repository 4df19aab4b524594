#include "harness.h"

#include <unistd.h>

#include <cstdlib>
#include <map>
#include <string>
#include <system_error>

namespace nnbridge::fuzz {
namespace {

struct Scratch {
  std::filesystem::path dir;
  std::map<std::string, std::filesystem::path, std::less<>> files;
  Scratch() {
    const char* tmp = std::getenv("TMPDIR");
    dir = std::filesystem::path(tmp && *tmp ? tmp : "/tmp") / ("nnbridge-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

}  // namespace

const std::filesystem::path& scratch_file(std::string_view extension) {
  static Scratch scratch;
  auto it = scratch.files.find(extension);
  if (it == scratch.files.end())
    it = scratch.files.emplace(std::string(extension), scratch.dir / ("out" + std::string(extension))).first;
  return it->second;
}

}  // namespace nnbridge::fuzz
