// Runs Arm NN golden-layout case folders (model.armnn, inputs/, outputs/ written by Arm NN 20.08
// CpuRef, case.json) on a backend ("cpu" unless told) and compares with the case's tolerance: float
// |a - e| <= atol + rtol |e| (default 1e-5, 1e-4), quantized <= 1 step. Shared by the tests on
// the committed corpus, the shared samples and the cases the peer harness generates at test time.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "nnbridge/exec.h"

namespace nnbridge::test {

struct ArmnnCaseTally {
  int ran = 0, matched = 0, unsupported = 0, skipped = 0;
  std::vector<std::string> failures;
  std::map<std::string, int> unsupported_ops;  ///< with CaseBackend::count_unsupported: op -> cases
};

/// The backend the cases run on. With `count_unsupported`, a prepare() that throws
/// Error(Unsupported) naming one of the graph's ops counts the case as unsupported (for a
/// backend still gaining kernels); otherwise only kNotYetImplemented ops do.
struct CaseBackend {
  std::string name = "cpu";
  BackendOptions options;
  bool count_unsupported = false;
};

/// Runs the case in `dir` (skipped, and counted so, when it has no expected outputs, or, with
/// `need_listed_outputs`, when case.json lists none). A case that needs a kernel listed as not
/// yet implemented counts as unsupported; every other error or mismatch is a failure.
void run_armnn_case(const std::filesystem::path& dir, bool need_listed_outputs, ArmnnCaseTally& tally,
                    const CaseBackend& backend = {});
/// Every sub-folder of `root`, in name order.
void run_armnn_cases(const std::filesystem::path& root, bool need_listed_outputs, ArmnnCaseTally& tally,
                     const CaseBackend& backend = {});
/// Prints one summary line for `suite` and one line per failure.
void report_armnn_cases(const char* suite, const ArmnnCaseTally& tally, const std::string& backend = "cpu");

}  // namespace nnbridge::test
