// flatc as the independent decoder of the round-trip check (docs/architecture.md "Fidelity rules"): the
// original and the rewritten file must decode to the same JSON under the format's schema.
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <fstream>
#include <sstream>

#include "internal.h"

extern char** environ;

namespace nnbridge::conformance {

namespace fs = std::filesystem;

std::string flatc_json(const std::string& flatc, const fs::path& schema, const fs::path& file) {
  char tmpl[] = "/tmp/nnbridge-flatc-XXXXXX";
  if (!mkdtemp(tmpl)) return {};
  const fs::path out = tmpl;
  // The same flags as the project's flatc tests: every field printed, defaults included.
  std::vector<std::string> args{flatc,          "--no-warnings", "--raw-binary", "--json", "--strict-json",
                                "--defaults-json", "-o",          out.string(),   schema.string(), "--",
                                file.string()};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  std::string text;
  if (posix_spawnp(&pid, flatc.c_str(), &fa, nullptr, argv.data(), environ) == 0) {
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
      std::ifstream in(out / (file.stem().string() + ".json"));
      std::stringstream ss;
      ss << in.rdbuf();
      text = ss.str();
    }
  }
  posix_spawn_file_actions_destroy(&fa);
  std::error_code ec;
  fs::remove_all(out, ec);
  return text;
}

}  // namespace nnbridge::conformance
