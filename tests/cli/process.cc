#include "process.h"

#include <algorithm>
#include <cstdlib>
#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/paths.h"

namespace nnbridge::test {
namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(f), {}};
}

void write_file(const fs::path& p, const std::string& bytes) {
  std::ofstream f(p, std::ios::binary | std::ios::trunc);
  f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

RunResult run_program(const std::vector<std::string>& argv) {
  const fs::path dir = temp_dir();
  const std::string out_path = (dir / "stdout").string(), err_path = (dir / "stderr").string();
  std::vector<char*> cargs;
  for (const auto& a : argv) cargs.push_back(const_cast<char*>(a.c_str()));
  cargs.push_back(nullptr);

  RunResult r;
  pid_t pid = ::fork();
  if (pid == 0) {
    struct rlimit no_core {0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    int in = ::open("/dev/null", O_RDONLY);
    if (out < 0 || err < 0 || in < 0) ::_exit(126);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(cargs[0], cargs.data());
    ::_exit(127);
  }
  if (pid < 0) return r;
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
  }
  if (WIFEXITED(status)) r.code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  fs::remove_all(dir);
  return r;
}

RunResult run_cli(const std::vector<std::string>& args) {
  std::vector<std::string> argv{NNBRIDGE_CLI};
  argv.insert(argv.end(), args.begin(), args.end());
  return run_program(argv);
}

std::optional<fs::path> armnn_schema() {
  fs::path p = source_dir() / "schemas" / "armnn" / "ArmnnSchema.fbs";
  if (!fs::exists(p)) return std::nullopt;
  return p;
}

std::optional<std::string> flatc_decode(const fs::path& armnn_file) {
  auto schema = armnn_schema();
  if (!schema) return std::nullopt;
  const fs::path out = temp_dir();
  RunResult r = run_program({NNBRIDGE_FLATC, "--raw-binary", "--json", "--strict-json", "--defaults-json", "-o",
                             out.string(), schema->string(), "--", armnn_file.string()});
  const fs::path json = out / (armnn_file.stem().string() + ".json");
  if (r.code != 0 || !fs::exists(json)) return std::nullopt;
  std::string text = read_file(json);
  fs::remove_all(out);
  return text;
}

std::vector<fs::path> armnn_models(bool with_golden) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (auto root = shared_sample("armnn"))
    for (const auto& e : fs::directory_iterator(*root, ec))
      if (fs::exists(e.path() / "model.armnn")) out.push_back(e.path() / "model.armnn");
  if (auto root = shared_sample("armnn_upstream_compat"))
    for (const auto& e : fs::directory_iterator(*root, ec))
      if (e.path().extension() == ".armnn") out.push_back(e.path());
  const fs::path golden = source_dir() / "tests" / "golden" / "armnn";
  if (with_golden && fs::is_directory(golden, ec))
    for (const auto& e : fs::directory_iterator(golden, ec))
      if (fs::exists(e.path() / "model.armnn")) out.push_back(e.path() / "model.armnn");
  const fs::path examples = source_dir() / "examples" / "models";
  if (fs::is_directory(examples, ec))
    for (const auto& e : fs::directory_iterator(examples, ec))
      if (e.path().extension() == ".armnn") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::optional<fs::path> armnn_peer() {
  // The peer program of this build, when CMake built it (NNBRIDGE_BUILD_PEERS and Arm NN found).
  const fs::path peer = NNBRIDGE_ARMNN_PEER;
  if (peer.empty() || ::access(peer.c_str(), X_OK) != 0) return std::nullopt;
  return peer;
}

}  // namespace nnbridge::test
