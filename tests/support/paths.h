// Where tests find their data.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace nnbridge::test {

/// The repository root.
std::filesystem::path source_dir();
/// The CMake build folder.
std::filesystem::path binary_dir();
/// `../shared/samples/<rel>` when the shared folder exists (a developer's checkout or CI),
/// else nullopt: callers skip with a message (a user's clone has no ../shared).
std::optional<std::filesystem::path> shared_sample(const std::string& rel);
/// A fresh empty temporary folder, removed at process exit.
std::filesystem::path temp_dir();
/// Reports the current test case as skipped, saying why. Under ctest (which sets
/// NNBRIDGE_CTEST_SKIP and SKIP_RETURN_CODE 77 on every test) the process exits with 77 so the
/// summary counts it as skipped; run by hand, it prints the reason and the caller returns.
void skip(const std::string& why);

}  // namespace nnbridge::test

/// Skips the current test case, with a message, when `opt` (an optional path) is empty.
#define NNBRIDGE_REQUIRE_SHARED(opt)                                                     \
  do {                                                                                   \
    if (!(opt)) {                                                                        \
      nnbridge::test::skip("../shared/samples is not present (a user's clone has none)"); \
      return;                                                                            \
    }                                                                                    \
  } while (0)
