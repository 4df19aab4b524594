#include "support/paths.h"

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <system_error>
#include <unistd.h>

namespace nnbridge::test {

std::filesystem::path source_dir() { return NNBRIDGE_SOURCE_DIR; }
std::filesystem::path binary_dir() { return NNBRIDGE_BINARY_DIR; }

std::optional<std::filesystem::path> shared_sample(const std::string& rel) {
  std::filesystem::path p = std::filesystem::path(NNBRIDGE_SHARED_DIR) / "samples" / rel;
  std::error_code ec;
  if (!std::filesystem::exists(p, ec)) return std::nullopt;
  return p;
}

namespace {
struct TempRoot {
  std::filesystem::path path;
  TempRoot() {
    std::string tmpl = (std::filesystem::temp_directory_path() / "nnbridge-test-XXXXXX").string();
    if (char* p = mkdtemp(tmpl.data())) path = p;
  }
  ~TempRoot() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};
}  // namespace

std::filesystem::path temp_dir() {
  static TempRoot root;
  static std::atomic<int> counter{0};
  auto p = root.path / std::to_string(counter++);
  std::filesystem::create_directories(p);
  return p;
}

void skip(const std::string& why) {
  std::cout << "skipped: " << why << std::endl;
  if (std::getenv("NNBRIDGE_CTEST_SKIP")) std::exit(77);
}

}  // namespace nnbridge::test
