// `nnbridge conformance DIR...`: check golden case folders (docs/conformance.md, issue 9), the
// whole corpus or one shard of it (--shard K/N, --results FILE), and `nnbridge conformance merge`
// of the shards' results files (issue 22).
//
// Each case runs in a child: this binary again, as the hidden `__conformance-case` command, so a
// case that crashes or hangs fails alone and the run goes on.
#include <iostream>
#include <memory>
#include <thread>

#include "commands.h"
#include "nnbridge/conformance.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec/option_keys.h"
#ifdef NNBRIDGE_HAVE_OPENCL
#include "nnbridge/gpu.h"
#endif
#include "progress.h"

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
  std::string shard, results;
};

struct MergeArgs {
  std::vector<std::string> files;
  std::string known_failures;
  bool json = false;
};

struct ChildArgs {
  std::string options, dir, name;
};

// A missing input is bad input (exit 3, naming it) as for every other command, not a usage error.
void require_existing(const std::vector<std::string>& paths, bool folders) {
  for (const std::string& p : paths) {
    std::error_code ec;
    if (folders ? !fs::is_directory(p, ec) : !fs::is_regular_file(p, ec))
      throw Error(ErrorId::IoOpen, folders ? "no such folder" : "no such file", p);
  }
}

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

/// The closing summary (or the JSON report) of `raw` with `known` applied, and the exit code.
int report(const std::vector<conf::CaseResult>& raw, const std::map<std::string, std::string, std::less<>>& known,
           bool json) {
  std::vector<conf::CaseResult> results;
  for (const conf::CaseResult& r : raw) results.push_back(conf::apply_known_failure(r, known));
  if (json) std::cout << conf::report_json(results) << "\n";
  else std::cout << conf::summary_line(results) << "\n";
  for (const auto& r : results)
    if (r.status == conf::Status::Fail) return kCheckFailed;
  return kOk;
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
  try {  // -B key of no registered backend: a misspelt name, a usage error like --backends'
    BackendOptions keys;
    keys.options = {o.case_options.backend_options.begin(), o.case_options.backend_options.end()};
    exec::check_option_backends(keys);
  } catch (const Error& e) {
    std::cerr << "nnbridge: error: -B: " << e.message() << "\n";
    return kUsage;
  }
  if (!a.flatc.empty() && a.schemas.empty()) {
    std::cerr << "nnbridge: error: --flatc needs --schemas DIR (the folder holding armnn/, afcm/, vkgraph/ schemas)\n";
    return kUsage;
  }
  o.case_options.flatc = a.flatc;
  o.case_options.schemas_dir = a.schemas;
  o.jobs = a.jobs > 0 ? a.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  o.timeout = std::chrono::milliseconds(static_cast<int64_t>(a.timeout * 1000));
  o.child_command = {"/proc/self/exe", "__conformance-case"};

  conf::Shard shard;
  if (!a.shard.empty()) {
    try {
      shard = conf::parse_shard(a.shard);
    } catch (const Error& e) {
      std::cerr << "nnbridge: error: " << e.what() << "\n";
      return kUsage;
    }
  }
  if (!a.results.empty() && !fs::is_directory(fs::absolute(a.results).parent_path())) {
    // Said now, not after hours of cases.
    std::cerr << "nnbridge: error: --results " << a.results << ": the folder " << fs::absolute(a.results).parent_path()
              << " does not exist\n";
    return kUsage;
  }
  const auto known = a.known_failures.empty() ? std::map<std::string, std::string, std::less<>>{}
                                              : conf::read_known_failures(a.known_failures);

  std::vector<fs::path> roots(a.dirs.begin(), a.dirs.end());
  const std::vector<conf::FoundCase> found = conf::find_cases(roots, a.filter);
  if (found.empty()) {
    std::cerr << "nnbridge: error: no case folders" << (a.filter.empty() ? "" : " match \"" + a.filter + "\"") << " under "
              << a.dirs.front() << (a.dirs.size() > 1 ? " ..." : "") << "\n";
    return kBadInput;
  }
  const std::vector<conf::FoundCase> cases = conf::select_shard(found, shard);
  if (cases.empty())
    std::cerr << "nnbridge: note: shard " << shard.index << "/" << shard.count << " holds none of the " << found.size()
              << " cases\n";
  // Results as checked; known failures are applied to what is printed (a results file keeps the
  // cases' own results, and merge applies its own list).
  Progress progress(cases.size());
  o.on_start = [&](const conf::FoundCase& c, std::size_t, std::size_t) { progress.show(c.name); };
  o.on_result = [&](const conf::CaseResult& raw, std::size_t, std::size_t) {
    const conf::CaseResult r = conf::apply_known_failure(raw, known);
    progress.clear();
    if (!a.json) {
      std::cout << conf::to_string(r.status) << " " << r.name;
      if (!r.reason.empty()) std::cout << ": " << r.reason;
      std::cout << "\n" << std::flush;
    }
    progress.step(r.status == conf::Status::Fail, r.name);
  };
  const std::vector<conf::CaseResult> raw = conf::run_cases(cases, o);
  progress.clear();
  if (!a.results.empty())
    conf::write_results(a.results, {shard, found.size(), conf::run_description(o.case_options, a.filter), raw});
  return report(raw, known, a.json);
}

int run_merge(const MergeArgs& a) {
  const std::vector<fs::path> files(a.files.begin(), a.files.end());
  const std::vector<conf::CaseResult> raw = conf::merge_results(files);
  const auto known = a.known_failures.empty() ? std::map<std::string, std::string, std::less<>>{}
                                              : conf::read_known_failures(a.known_failures);
  if (raw.empty()) {
    std::cerr << "nnbridge: error: the results files hold no case (the run found none)\n";
    return kBadInput;
  }
  if (!a.json)
    for (const conf::CaseResult& k : raw) {
      const conf::CaseResult r = conf::apply_known_failure(k, known);
      std::cout << conf::to_string(r.status) << " " << r.name << (r.reason.empty() ? "" : ": " + r.reason) << "\n";
    }
  return report(raw, known, a.json);
}

}  // namespace

void add_conformance(CLI::App& app, Action& action) {
  auto args = std::make_shared<ConformanceArgs>();
  auto* sub = app.add_subcommand("conformance",
                                 "Check golden case folders: decode, IR, round-trip, conversions, outputs, expected errors");
  // DIR is required unless `merge` follows (checked in the callback: a required positional would
  // be demanded of `conformance merge` too).
  auto* dirs = sub->add_option("DIR", args->dirs, "Folders searched for cases (a folder with case.json, or ONNX-style test_data_set_*)");
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
  sub->add_option("--schemas", args->schemas, "With --flatc: the folder holding armnn/, afcm/, vkgraph/ .fbs schemas");
  sub->add_option("--known-failures", args->known_failures,
                  "A JSON object {\"<case name>\": \"<reason>\"}: those cases count as skipped while they fail");
  sub->add_option("--shard", args->shard,
                  "K/N: check only shard K of N (K counted from 0, as SLURM_ARRAY_TASK_ID and JOB_COMPLETION_INDEX): the "
                  "cases whose path below DIR hashes to K (FNV-1a 64, docs/conformance.md)");
  sub->add_option("--results", args->results,
                  "Write every case's result to this JSON file (atomically), for `nnbridge conformance merge`");
  sub->footer("Exit codes: 0 every case passed or was skipped, 1 a case failed, 2 usage, 3 no cases found.\n"
              "`nnbridge conformance merge FILES...` combines the --results files of the shards of one run.");

  auto merge_args = std::make_shared<MergeArgs>();
  auto* merge = sub->add_subcommand("merge",
                                    "Combine the --results files of a run's shards: the summary and exit code of the whole run");
  merge->add_option("FILES", merge_args->files, "Results files, one per shard (every shard K/N of one run, each once)")
      ->required();
  merge->add_option("--known-failures", merge_args->known_failures,
                    "A JSON object {\"<case name>\": \"<reason>\"}: those cases count as skipped while they fail");
  merge->add_flag("--json", merge_args->json, "Print the JSON report of the whole run instead of one line per case");
  merge->footer("Prints one line per case in name order and the summary, as the unsharded run would. Exit codes: 0 every "
                "case passed or was skipped, 1 a case failed, 2 usage, 3 unreadable results files, or files that are "
                "not every shard of one run exactly once.");
  merge->callback([&action, merge_args] {
    action = [merge_args] {
      require_existing(merge_args->files, false);
      if (!merge_args->known_failures.empty()) require_existing({merge_args->known_failures}, false);
      return run_merge(*merge_args);
    };
  });

  // Runs after merge's callback (CLI11 runs a parent's last).
  sub->callback([&action, args, merge, dirs] {
    if (merge->parsed()) {
      if (dirs->count()) throw CLI::ValidationError("merge", "takes results files, not folders before it");
      return;
    }
    if (args->dirs.empty()) throw CLI::RequiredError("DIR");
    action = [args] {
      require_existing(args->dirs, true);
      if (!args->schemas.empty()) require_existing({args->schemas}, true);
      if (!args->known_failures.empty()) require_existing({args->known_failures}, false);
      return run_conformance(*args);
    };
  });

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
