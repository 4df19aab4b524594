// Golden-file conformance: find case folders, check each one (decode, IR, round-trip,
// conversions, execution against expected outputs, expected errors), each case in its own
// child process with a timeout, and report (docs/architecture.md "Golden files and conformance").
//
// The case layout and every case.json key are documented in docs/conformance.md. Two kinds of
// case folder are recognised:
//   - a folder holding `case.json` (the golden layout: model.<ext>, model.json, inputs/*.npy,
//     outputs/*.npy);
//   - an ONNX-style folder without case.json: one `model.<ext>` nnbridge reads plus
//     `test_data_set_<k>/input_<i>.pb` / `output_<j>.pb` (ONNX TensorProto, onnx/onnx.proto):
//     input i feeds graph input i, output j is compared with graph output j. A case.json folder
//     may hold test_data_set_<k> folders too.
// Case folders are not searched further for cases.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/exec.h"

namespace nnbridge::conformance {

/// A case folder found under a root.
struct FoundCase {
  std::filesystem::path dir;
  /// The folder's path relative to the root's parent, '/'-separated ("golden/armnn/add_float" for
  /// root "tests/golden"); the name --filter matches and reports show.
  std::string name;
  /// The folder's path relative to the root it was found under, '/'-separated
  /// ("armnn/add_float"; "." for a root that is itself a case): what sharding hashes, so a
  /// case's shard does not depend on where the corpus is or what its folder is called.
  std::string relative;
};

/// Every case folder under `roots` (a root may itself be a case), sorted by name, keeping those
/// whose name matches `filter` (a POSIX fnmatch glob in which '*' also matches '/'; empty keeps
/// all). Throws Error(Io) naming a root that is not a folder.
std::vector<FoundCase> find_cases(std::span<const std::filesystem::path> roots, const std::string& filter = {});

/// How each case is checked.
struct CaseOptions {
  /// Backends to execute on (registered names: "cpu", "opencl"); a case may narrow them.
  std::vector<std::string> backends{"cpu"};
  /// Passed to every backend's prepare() (e.g. {"opencl.fallback", "cpu"}).
  std::map<std::string, std::string, std::less<>> backend_options;
  /// When set, the same-format round-trip also decodes the original and the rewritten file with
  /// this flatc against `schemas_dir`/<format schema> and requires identical JSON (docs/architecture.md
  /// fidelity rule 1) for the FlatBuffers formats armnn, afcm and vkgraph.
  std::string flatc;
  std::filesystem::path schemas_dir;
};

enum class Status { Pass, Fail, Skip };
const char* to_string(Status s);  ///< "PASS", "FAIL", "SKIP"
/// The Status named "PASS", "FAIL" or "SKIP". Throws Error(Invalid) for any other text.
Status status_from_string(const std::string& s);

/// How one backend did on a case: Pass (every execution on it matched), Fail (the first one
/// that did not, with its reason), Skip (the case leaves the backend out, with the case's reason).
struct BackendResult {
  Status status = Status::Pass;
  std::string reason;
};

/// The outcome of one case.
struct CaseResult {
  std::string name;
  Status status = Status::Fail;
  /// Why it failed or was skipped (the first failing check); empty for a pass.
  std::string reason;
  /// The checks that ran and passed, in order ("decode", "ir", "roundtrip", "convert:vkgraph",
  /// "run:cpu", "run:cpu:test_data_set_0", "expect_error"); with notes on what was left out.
  std::vector<std::string> checks;
  std::vector<std::string> notes;
  double seconds = 0;
  /// Per requested backend that the case reached: executed (Pass or Fail) or left out by the case
  /// (Skip). A backend the case never got to (a decode failure, no data set) is absent.
  std::map<std::string, BackendResult, std::less<>> backends;
};

/// Checks the case in `dir` in this process. Never throws: every error, also a malformed
/// case.json, is a failed result naming the file. Backends must be registered by the caller.
CaseResult run_case(const std::filesystem::path& dir, const std::string& name, const CaseOptions& options);

/// How run_cases() starts children.
struct RunOptions {
  CaseOptions case_options;
  /// Cases checked at once (each in its own process).
  int jobs = 1;
  /// A child running longer is killed (SIGKILL) and its case fails. A case's own case.json
  /// `timeout_s` replaces it for that case.
  std::chrono::milliseconds timeout{std::chrono::seconds(120)};
  /// The child's argv before the case arguments: run_cases() appends
  /// `<case options as JSON> <dir> <name>`; the child must call child_main() with those three
  /// (the CLI: {"/proc/self/exe", "__conformance-case"}).
  std::vector<std::string> child_command;
  /// Called in the parent for each finished case, in completion order (done counts it).
  std::function<void(const CaseResult&, std::size_t done, std::size_t total)> on_result;
  /// Cases known to fail, by name, with the reason (an issue, a peer's defect). Such a case that
  /// fails is reported as skipped, its reason prefixed "known failure: "; one that passes fails
  /// ("listed as a known failure but passes"), so the list cannot go stale silently.
  std::map<std::string, std::string, std::less<>> known_failures;
  /// Called in the parent when a case starts (for a progress display).
  std::function<void(const FoundCase&, std::size_t started, std::size_t total)> on_start;
};

/// Checks every case, each in a child process, `jobs` at a time. A child killed by a signal,
/// timed out, or exiting without a result fails its case with the reason (signal name, the last
/// lines it printed) and the run goes on. Results come back in the order of `cases`.
/// Throws Error(Invalid) for an empty child_command or jobs < 1, Error(Io) when no child can
/// be started at all.
std::vector<CaseResult> run_cases(std::span<const FoundCase> cases, const RunOptions& options);

/// Reads a known-failures file: a JSON object {"<case name>": "<reason>", ...}. Throws
/// Error(Io) when it cannot be read, Error(Invalid) naming the file when it is not such an object.
std::map<std::string, std::string, std::less<>> read_known_failures(const std::filesystem::path& file);

/// `r` as a run with `known` reports it: a listed case that failed is Skip with the reason
/// "known failure: <listed reason> (<what failed>)"; a listed case that passed is Fail ("listed as
/// a known failure but passes"); anything else is unchanged. run_cases() applies
/// RunOptions::known_failures this way.
CaseResult apply_known_failure(CaseResult r, const std::map<std::string, std::string, std::less<>>& known);

// ---- Sharding: one run split over machines by a batch engine (docs/conformance.md) ----

/// Shard `index` of `count` (0 <= index < count): 0-based, as Slurm's SLURM_ARRAY_TASK_ID for
/// `--array=0-(N-1)` and Kubernetes' JOB_COMPLETION_INDEX are.
struct Shard {
  std::size_t index = 0;
  std::size_t count = 1;
};

/// Parses "K/N": decimal integers, 1 <= N <= 1000000, 0 <= K < N. Throws Error(Invalid) quoting
/// the text otherwise.
Shard parse_shard(const std::string& text);

/// The 64-bit FNV-1a hash of `bytes` (offset basis 0xcbf29ce484222325, prime 0x100000001b3; the
/// FNV specification, draft-eastlake-fnv): the same value on every build, compiler and machine.
uint64_t fnv1a_64(std::string_view bytes);

/// The shard of a case among `count`: (fnv1a_64(c.relative) >> 32) % count. The high half is
/// used because FNV-1a's low bits mix poorly and a count is often a power of two.
std::size_t shard_of(const FoundCase& c, std::size_t count);

/// The cases of `cases` in `shard`, in their order.
std::vector<FoundCase> select_shard(std::span<const FoundCase> cases, Shard shard);

/// A results file (`nnbridge conformance --results FILE.json`): what one shard of a run checked.
struct Results {
  Shard shard;
  /// Cases the whole run found (every shard; after --filter): merge checks that the shards hold
  /// them all.
  std::size_t total_cases = 0;
  /// What the run checked with, as JSON text (backends, backend options, filter, flatc): the
  /// shards of one run must agree on it.
  std::string run;
  /// The case results as checked, known failures NOT applied (merge applies its own list).
  std::vector<CaseResult> cases;
};

/// The `run` text of Results for these options and --filter.
std::string run_description(const CaseOptions& options, const std::string& filter);

/// Writes `r` as JSON {"format": "nnbridge-conformance-results", "version": 1, "shard": {"index",
/// "count"}, "total_cases", "run": {...}, "cases": [{"name", "status", "reason", "checks",
/// "notes", "seconds", "backends": {"<backend>": {"status", "reason"}}}...]}, atomically (a
/// temporary file beside it, then rename). Throws Error(Io) naming the file.
void write_results(const std::filesystem::path& file, const Results& r);

/// Reads a file write_results() wrote. Throws Error(Io) when it cannot be read, Error(Invalid)
/// naming the file and the place for anything else.
Results read_results(const std::filesystem::path& file);

/// The case results of a whole run from the results files of its shards, in name order (known
/// failures not applied). Throws Error(Invalid) naming the files when they are not the shards of
/// one run: different shard counts or run descriptions, a shard given twice, a shard missing,
/// a case in two files, or fewer cases than the run found.
std::vector<CaseResult> merge_results(std::span<const std::filesystem::path> files);

/// The child side: parses the case options (JSON), runs run_case() and prints the result line
/// on stdout. Returns the process exit code (0 whenever a result was printed).
int child_main(const std::string& options_json, const std::string& dir, const std::string& name);

/// Options to and from the JSON text passed to a child.
std::string options_to_json(const CaseOptions& o);
CaseOptions options_from_json(const std::string& text);

/// The machine-readable report: {"cases": [{"name", "status", "reason", "checks", "notes",
/// "seconds", "backends"}...], "passed": N, "failed": N, "skipped": N}.
std::string report_json(std::span<const CaseResult> results);
/// "N passed, N failed" and ", N skipped" when any were.
std::string summary_line(std::span<const CaseResult> results);

}  // namespace nnbridge::conformance
