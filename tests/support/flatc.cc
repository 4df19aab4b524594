#include "support/flatc.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "support/paths.h"

namespace nnbridge::test {
namespace {

std::string quoted(const std::filesystem::path& p) { return "'" + p.string() + "'"; }

}  // namespace

std::string flatc_json(const std::filesystem::path& binary, const std::filesystem::path& schema) {
  const auto dir = temp_dir();
  const std::string cmd = std::string(NNBRIDGE_FLATC) +
                          " --no-warnings --raw-binary --json --strict-json --defaults-json -o " + quoted(dir) +
                          " " + quoted(schema) + " -- " + quoted(binary) + " 2>/dev/null";
  if (std::system(cmd.c_str()) != 0) return {};
  std::ifstream in(dir / (binary.stem().string() + ".json"));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::filesystem::path flatc_binary(const std::string& json, const std::string& stem,
                                   const std::filesystem::path& schema) {
  const auto dir = temp_dir();
  const auto src = dir / (stem + ".json");
  std::ofstream(src) << json;
  const std::string cmd = std::string(NNBRIDGE_FLATC) + " --no-warnings -b -o " + quoted(dir) + " " +
                          quoted(schema) + " " + quoted(src) + " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) return {};
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path() != src) return e.path();
  return {};
}

}  // namespace nnbridge::test
