#include "armnn_case_runner.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "nnbridge/npy.h"

namespace nnbridge::test {

namespace fs = std::filesystem;

namespace {

// Ops whose kernel has not landed yet: a case that needs one counts as unsupported instead of
// failing. Any other Unsupported error fails, so an op cannot go missing silently. Empty: every
// op the Arm NN reader produces for a layer CpuRef 20.08 runs has a kernel.
const std::set<std::string> kNotYetImplemented = {};

// Outputs whose expected values cannot follow the file, with the reason; checked to still
// differ (so the entry goes away when the cause does).
const std::map<std::string, std::string> kKnownMismatch = {
    {"activation_zoo/y_softrelu",
     "Arm NN 20.08's serializer writes SoftReLu as Sigmoid (see tests/golden/armnn/activation_soft_relu), but "
     "this sample's outputs were computed from the in-memory network (SoftReLu), not from the file"},
};

TensorMap read_dir(const fs::path& dir) {
  TensorMap m;
  if (!fs::exists(dir)) return m;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".npy") m[e.path().stem().string()] = read_npy(e.path());
  return m;
}

}  // namespace

void run_armnn_case(const fs::path& dir, bool need_listed_outputs, ArmnnCaseTally& tally, const CaseBackend& backend) {
  const fs::path model = dir / "model.armnn";
  if (!fs::exists(model) || !fs::exists(dir / "case.json")) return;
  std::ifstream f(dir / "case.json");
  nlohmann::json c = nlohmann::json::parse(f);
  const std::string name = dir.filename().string();
  if (c.contains("outputs_absent_because") || !fs::exists(dir / "outputs") ||
      (need_listed_outputs && !c.contains("outputs"))) {
    ++tally.skipped;
    return;
  }
  Tolerance tol{1e-5, 1e-4, 1};
  if (c.contains("tolerance")) {
    const auto& t = c["tolerance"];
    if (t.contains("float32")) tol.atol = t["float32"].value("atol", 1e-5), tol.rtol = t["float32"].value("rtol", 1e-4);
    if (t.contains("quantized")) tol.quantized_steps = t["quantized"].value("max_abs_diff_in_steps", 1);
  }
  Graph g = load(model);
  std::unique_ptr<Plan> plan;
  try {
    plan = find_backend(backend.name)->prepare(g, backend.options);
  } catch (const Error& e) {
    if (e.code() == ErrorCode::Unsupported) {
      for (const Node& n : g.nodes)
        if (backend.count_unsupported && std::string(e.what()).find("no kernel for op " + n.op + " ") != std::string::npos) {
          ++tally.unsupported;
          ++tally.unsupported_ops[n.op];
          return;
        }
      for (const Node& n : g.nodes)
        if (kNotYetImplemented.count(n.op) && std::string(e.what()).find(n.op) != std::string::npos) {
          ++tally.unsupported;
          MESSAGE(name << ": not yet implemented: " << n.op);
          return;
        }
    }
    tally.failures.push_back(name + ": prepare: " + e.what());
    return;
  }
  ++tally.ran;
  TensorMap outputs;
  try {
    outputs = plan->run(read_dir(dir / "inputs"));
  } catch (const Error& e) {
    tally.failures.push_back(name + ": run: " + e.what());
    return;
  }
  TensorMap expected = read_dir(dir / "outputs");
  if (expected.empty()) {
    tally.failures.push_back(name + ": no outputs/*.npy");
    return;
  }
  bool ok = true;
  for (const OutputReport& r : compare_outputs(outputs, expected, tol, backend.name)) {
    auto known = kKnownMismatch.find(name + "/" + r.output);
    if (known != kKnownMismatch.end()) {
      if (r.passed) tally.failures.push_back(name + ": output " + r.output + " now matches: remove it from kKnownMismatch");
      else MESSAGE(name << ": output " << r.output << " differs as known: " << known->second);
      continue;
    }
    if (r.passed) continue;
    ok = false;
    tally.failures.push_back(name + ": output " + r.output + ": " + r.message + " (max abs " +
                             std::to_string(r.max_abs_error) + ", max rel " + std::to_string(r.max_rel_error) +
                             ", steps " + std::to_string(r.max_steps) + ")");
  }
  if (ok) ++tally.matched;
}

void report_armnn_cases(const char* suite, const ArmnnCaseTally& t, const std::string& backend) {
  std::cout << suite << ": " << t.ran << " cases ran on " << backend << ", " << t.matched << " matched Arm NN CpuRef, "
            << t.unsupported << " need a kernel not yet implemented, " << t.skipped << " have no expected outputs\n";
  for (const auto& [op, n] : t.unsupported_ops) std::cout << "  unsupported: " << op << " (" << n << " cases)\n";
  for (const auto& f : t.failures) std::cout << "  FAIL " << f << "\n";
}

void run_armnn_cases(const fs::path& root, bool need_listed_outputs, ArmnnCaseTally& tally, const CaseBackend& backend) {
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(root))
    if (e.is_directory()) dirs.push_back(e.path());
  std::sort(dirs.begin(), dirs.end());
  for (const auto& d : dirs) run_armnn_case(d, need_listed_outputs, tally, backend);
}

}  // namespace nnbridge::test
