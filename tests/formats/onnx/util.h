// What the onnx format tests share: Debian's python3-onnx (the independent side of every check)
// and the models make_models.py builds with it, once per test process.
#pragma once

#include <filesystem>
#include <string>

namespace nnbridge::test::onnx {

/// Debian's interpreter (python3-onnx, NumPy); the python3 first on PATH may have neither.
inline constexpr const char* kPython = "/usr/bin/python3";

/// True when `import onnx, numpy` works.
bool have_onnx();
/// The folder make_models.py wrote (lossless/, run/, refused/, refused.json, external/).
const std::filesystem::path& models();
/// Runs `cmd` through the shell; returns its exit status and fills `out` with stdout + stderr.
int shell(const std::string& cmd, std::string* out = nullptr);
/// compare.py: python3-onnx decodes both files to the same ModelProto (MessageToDict) and
/// `written` passes onnx.checker.check_model(full_check=True). Returns "" or why not.
std::string same_model(const std::filesystem::path& original, const std::filesystem::path& written);
/// onnx.checker.check_model(path, full_check=True); returns "" or the checker's message.
std::string full_check(const std::filesystem::path& path);

}  // namespace nnbridge::test::onnx

/// Skips the current test case when python3-onnx is missing.
#define NNBRIDGE_REQUIRE_ONNX()                                                                         \
  do {                                                                                                  \
    if (!nnbridge::test::onnx::have_onnx()) {                                                           \
      nnbridge::test::skip("Debian's python3-onnx is not installed (scripts/install-deps.sh installs it)"); \
      return;                                                                                           \
    }                                                                                                   \
  } while (0)
