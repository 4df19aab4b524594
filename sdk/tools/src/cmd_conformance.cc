// `nnbridge conformance DIR...`: check golden case folders (docs/conformance.md, issue 9).
//
// Each case runs in a child: this binary again, as the hidden `__conformance-case` command, so a
// case that crashes or hangs fails alone and the run goes on.
#include <unistd.h>

#include <iostream>
#include <memory>
#include <thread>

#include "commands.h"
#include "nnbridge/conformance.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#ifdef NNBRIDGE_HAVE_OPENCL
#include "nnbridge/gpu.h"
#endif

namespace nnbridge::cli {
namespace {

namespace fs = std::filesystem;
namespace conf = nnbridge::conformance;

struct ConformanceArgs {
  std::vector<std::string> dirs;
  std::string backends = "cpu";
  std::vector<std::string> backend_options;
  int jobs = 0;
  bool json = false;
  std::string filter;
  double timeout = 120;
  std::string flatc, schemas, known_failures;
};

struct ChildArgs {
  std::string options, dir, name;
};

void register_backends() {
  cpu_ref::register_backend();
#ifdef NNBRIDGE_HAVE_OPENCL
  gpu::register_backend();
#endif
}

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::size_t at = 0;
  while (at <= s.size()) {
    std::size_t comma = s.find(',', at);
    if (comma == std::string::npos) comma = s.size();
    if (comma > at) out.push_back(s.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

int run_conformance(const ConformanceArgs& a) {
  register_backends();
  conf::RunOptions o;
  o.case_options.backends = split(a.backends);
  for (const std::string& b : o.case_options.backends)
    if (!find_backend(b)) {
      std::string names;
      for (const auto& x : all_backends()) names += (names.empty() ? "" : ", ") + x->name();
      std::cerr << "nnbridge: error: no backend named \"" << b << "\" (available: " << names << ")\n";
      return kUsage;
    }
  if (o.case_options.backends.empty()) {
    std::cerr << "nnbridge: error: --backends names no backend\n";
    return kUsage;
  }
  o.case_options.backend_options = key_values(a.backend_options);
  if (!a.flatc.empty() && a.schemas.empty()) {
    std::cerr << "nnbridge: error: --flatc needs --schemas DIR (the folder holding armnn/, afcm/, vkgraph/ schemas)\n";
    return kUsage;
  }
  o.case_options.flatc = a.flatc;
  o.case_options.schemas_dir = a.schemas;
  o.jobs = a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  o.timeout = std::chrono::milliseconds(static_cast<int64_t>(a.timeout * 1000));
  o.child_command = {"/proc/self/exe", "__conformance-case"};
  if (!a.known_failures.empty()) o.known_failures = conf::read_known_failures(a.known_failures);

  std::vector<fs::path> roots(a.dirs.begin(), a.dirs.end());
  const std::vector<conf::FoundCase> cases = conf::find_cases(roots, a.filter);
  if (cases.empty()) {
    std::cerr << "nnbridge: error: no case folders" << (a.filter.empty() ? "" : " match \"" + a.filter + "\"") << " under "
              << a.dirs.front() << (a.dirs.size() > 1 ? " ..." : "") << "\n";
    return kBadInput;
  }
  // A progress line on a terminal only: rewritten in place on stderr, cleared before each result.
  const bool progress = isatty(STDERR_FILENO);
  std::size_t finished = 0;
  auto show_progress = [&](const std::string& last) {
    if (!progress) return;
    std::cerr << "\r\033[K[" << finished << "/" << cases.size() << "] " << last << std::flush;
  };
  o.on_start = [&](const conf::FoundCase& c, std::size_t, std::size_t) { show_progress(c.name); };
  o.on_result = [&](const conf::CaseResult& r, std::size_t done, std::size_t) {
    finished = done;
    if (progress) std::cerr << "\r\033[K" << std::flush;
    if (!a.json) {
      std::cout << conf::to_string(r.status) << " " << r.name;
      if (!r.reason.empty()) std::cout << ": " << r.reason;
      std::cout << "\n" << std::flush;
    }
    show_progress(r.name);
  };
  const std::vector<conf::CaseResult> results = conf::run_cases(cases, o);
  if (progress) std::cerr << "\r\033[K" << std::flush;
  if (a.json) std::cout << conf::report_json(results) << "\n";
  else std::cout << conf::summary_line(results) << "\n";
  for (const auto& r : results)
    if (r.status == conf::Status::Fail) return kCheckFailed;
  return kOk;
}

}  // namespace

void add_conformance(CLI::App& app, Action& action) {
  auto args = std::make_shared<ConformanceArgs>();
  auto* sub = app.add_subcommand("conformance",
                                 "Check golden case folders: decode, IR, round-trip, conversions, outputs, expected errors");
  sub->add_option("DIR", args->dirs, "Folders searched for cases (a folder with case.json, or ONNX-style test_data_set_*)")
      ->required()
      ->check(CLI::ExistingDirectory);
  sub->add_option("--backends", args->backends, "Comma-separated backends to execute on (default: cpu)");
  sub->add_option("-B,--backend-option", args->backend_options, "A backend option key=value (opencl.fallback=cpu); repeatable")
      ->check(check_key_value)
      ->allow_extra_args(false);
  sub->add_option("--jobs,-j", args->jobs, "Cases checked at once, each in its own process (default: one per core)")
      ->check(CLI::Range(1, 1024));
  sub->add_flag("--json", args->json, "Print a JSON report instead of one line per case");
  sub->add_option("--filter", args->filter, "Only cases whose name as printed matches this glob: the root folder's name, then the path below it "
                  "(golden/armnn/add_float for the root tests/golden; vkgraph/add for tests/golden/vkgraph)");
  sub->add_option("--timeout", args->timeout, "Seconds a case may take before it is killed and fails (default 120)")
      ->check(CLI::Range(0.01, 86400.0));
  sub->add_option("--flatc", args->flatc, "flatc: the round-trip also compares flatc's JSON of both files");
  sub->add_option("--schemas", args->schemas, "With --flatc: the folder holding armnn/, afcm/, vkgraph/ .fbs schemas")
      ->check(CLI::ExistingDirectory);
  sub->add_option("--known-failures", args->known_failures,
                  "A JSON object {\"<case name>\": \"<reason>\"}: those cases count as skipped while they fail")
      ->check(CLI::ExistingFile);
  sub->footer("Exit codes: 0 every case passed or was skipped, 1 a case failed, 2 usage, 3 no cases found.");
  sub->callback([&action, args] { action = [args] { return run_conformance(*args); }; });

  // The child side of one case; not for users (no help entry).
  auto child = std::make_shared<ChildArgs>();
  auto* hidden = app.add_subcommand("__conformance-case", "");
  hidden->group("");
  hidden->add_option("OPTIONS", child->options)->required();
  hidden->add_option("DIR", child->dir)->required();
  hidden->add_option("NAME", child->name)->required();
  hidden->callback([&action, child] {
    action = [child] {
      register_backends();
      return conf::child_main(child->options, child->dir, child->name);
    };
  });
}

}  // namespace nnbridge::cli
