// Running programs in a child process for the CLI tests.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace nnbridge::test {

struct RunResult {
  int code = -1;    ///< exit status; -1 when killed by a signal
  int signal = 0;   ///< the signal that ended the child, 0 if none
  std::string out;  ///< standard output
  std::string err;  ///< standard error
};

/// Runs `argv` (argv[0] is the program's path) with no core dumps; waits for it.
RunResult run_program(const std::vector<std::string>& argv);
/// Runs the nnbridge binary under test with `args`.
RunResult run_cli(const std::vector<std::string>& args);

/// The Arm NN schema's path, or nullopt when schemas/armnn/ArmnnSchema.fbs is absent.
std::optional<std::filesystem::path> armnn_schema();
/// flatc's decoding of a .armnn file against the released Arm NN schema
/// (`--raw-binary --json --strict-json --defaults-json`); nullopt when flatc fails.
std::optional<std::string> flatc_decode(const std::filesystem::path& armnn_file);

/// Every Arm NN model the tests convert: ../shared/samples/armnn/*/model.armnn,
/// ../shared/samples/armnn_upstream_compat/*.armnn and examples/models/*.armnn, sorted;
/// with `with_golden`, also tests/golden/armnn/*/model.armnn (the peer's corpus, every layer type).
std::vector<std::filesystem::path> armnn_models(bool with_golden = false);
/// The Arm NN 20.08 peer program, if one has been built (this build, else build*/bin of the checkout).
std::optional<std::filesystem::path> armnn_peer();

std::string read_file(const std::filesystem::path& p);
void write_file(const std::filesystem::path& p, const std::string& bytes);

}  // namespace nnbridge::test
