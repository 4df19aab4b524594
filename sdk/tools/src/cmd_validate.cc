// `nnbridge validate MODEL --inputs DIR [--backends cpu,opencl] [--expected DIR]`: run a graph on
// each backend and compare every output with the expected .npy files, or with the first
// backend's outputs (issue 7, docs/architecture.md "Backends": validate()).
//
// Per output and backend it prints max abs error, max rel error, max ULP distance
// (nnbridge/exec.h OutputReport) and pass/fail under atol + rtol * |expected| (numpy.allclose;
// without --atol, atol scales with the expected output: nnbridge::default_atol(); quantized
// outputs within one storage step), then one closing line. Exit codes: 0 every
// comparison passed, 1 one failed, 2 usage, 3 bad input (unreadable model or files, a backend
// that cannot prepare or run the model, a settings delegate that is not available).
//
// Without --backends (and no --settings naming a delegate) the backend is cpu, compared with
// --expected; without --expected either, cpu and opencl, compared with each other, when this build
// has the opencl backend and OpenCL lists a device (else exit 2). Without --expected the first
// backend is the reference; a single backend other than cpu is compared with cpu (put first); a
// single cpu with nothing to compare with is a usage error.
#include <cmath>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "commands.h"
#include "exec_settings.h"
#include "nnbridge/config/openvino_custom.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#ifdef NNBRIDGE_HAVE_OPENCL
#include "nnbridge/gpu.h"
#endif
#include "nnbridge/io.h"
#include "progress.h"

namespace nnbridge::cli {
namespace {

namespace ta = nnbridge::config::tflite_accel;
using Stage = ta::BenchmarkRun::Stage;

struct ValidateArgs {
  std::string model, inputs, expected;
  std::vector<std::string> backends;
  Tolerance tol;
  double atol = 0;  // --atol, copied into tol.atol only when given
  int threads = 0;
  std::string fallback, device;
  std::vector<std::string> extensions;
  std::vector<std::string> custom_layers;  // --custom-layers XML, repeatable (nnbridge/config/openvino_custom.h)
  std::string named_data;                 // vkgraph / vkdelegate: folder of named-data constants; pte: the .ptd
  bool json = false;
  ExecFlags flags;
};

/// The backends validate runs when --backends is not given: the --settings document's, else cpu
/// and, with nothing else to compare cpu with (no --expected) and an OpenCL device to run it,
/// opencl (cpu first: the reference).
std::vector<std::string> default_backends(const ExecSetup& setup, bool expected) {
  if (setup.choice) return {setup.default_backend()};
  std::vector<std::string> out{"cpu"};
#ifdef NNBRIDGE_HAVE_OPENCL
  if (!expected && !gpu::list_devices().empty()) out.push_back("opencl");
#endif
  return out;
}

std::string ulp_text(uint64_t ulp) { return ulp == kUlpNaNMismatch ? "inf (a NaN against a number)" : std::to_string(ulp); }

std::string number(double v) {
  std::ostringstream s;
  s.precision(3);
  s << v;
  return s.str();
}

int run_validate(const ValidateArgs& a) {
  using Clock = BenchmarkEventWriter::Clock;
  cpu_ref::register_backend();
#ifdef NNBRIDGE_HAVE_OPENCL
  gpu::register_backend();
#endif
  BenchmarkEventWriter event(a.flags);
  Stage stage = Stage::Initialization;
  std::string source = "NONE";  // the Delegate of the backend at work, for an ERROR event
  try {
    const ExecSetup setup = resolve(a.flags, event, source);
    std::vector<std::string> backends = a.backends.empty() ? default_backends(setup, !a.expected.empty()) : a.backends;
    std::set<std::string> seen;
    for (const std::string& b : backends) {
      if (!find_backend(b)) {
        std::string names;
        for (const auto& r : all_backends()) names += (names.empty() ? "" : ", ") + r->name();
        std::cerr << "nnbridge: error: no backend named \"" << b << "\" (available: " << names << ")\n";
        return kUsage;
      }
      if (!seen.insert(b).second) {
        std::cerr << "nnbridge: error: backend \"" << b << "\" is named twice in --backends\n";
        return kUsage;
      }
    }
    if (a.expected.empty() && backends.size() == 1) {
      if (backends[0] == "cpu") {
        std::cerr << "nnbridge: error: nothing to compare with: give --expected DIR or a second backend"
                  << (a.backends.empty() ? " (the default compares cpu with opencl, and OpenCL lists no device)" : "")
                  << "\n";
        return kUsage;
      }
      backends.insert(backends.begin(), "cpu");
    }
    if ((!a.device.empty() || !a.fallback.empty()) && !seen.count("opencl")) {
      std::cerr << "nnbridge: error: --device and --fallback apply to the opencl backend\n";
      return kUsage;
    }
    BackendOptions options = setup.options(backends);
    options.extensions = a.extensions;
    if (!a.device.empty()) options.options["opencl.device"] = a.device;
    if (!a.custom_layers.empty()) {
      // OpenVINO SimpleGPU kernels run on opencl only; cpu's counterpart comes from --extension.
      if (!seen.count("opencl")) {
        std::cerr << "nnbridge: error: --custom-layers applies to the opencl backend\n";
        return kUsage;
      }
      options.custom_kernels.push_back(config::openvino_custom::custom_layer_set(
          std::vector<std::filesystem::path>(a.custom_layers.begin(), a.custom_layers.end())));
    }

    LoadOptions load_options;
    if (!named_data_option(a.model, a.named_data, load_options)) return kUsage;
    Progress progress(1 + 2 * backends.size());  // on a terminal: loading, then each prepare and run
    progress.show("loading " + a.model, true);
    const Graph g = load(a.model, load_options);
    progress.step(false, "loaded");
    std::vector<std::unique_ptr<Plan>> plans;
    for (const std::string& b : backends) {
      source = ta::delegate_of_backend(b);
      const auto t0 = Clock::now();
      progress.show("preparing on " + b, true);
      try {
        plans.push_back(find_backend(b)->prepare(g, options));
      } catch (const Error& e) {
        throw Error(e.id(), "backend " + b + ": " + e.message(), e.file().empty() ? a.model : e.file(), e.where());
      }
      event.run().initialization_time_us.push_back(BenchmarkEventWriter::micros(Clock::now() - t0));
      progress.step(false, "prepared on " + b);
    }
    const TensorMap inputs = read_npy_folder(a.inputs, plans[0]->input_types());
    TensorMap expected;
    if (!a.expected.empty()) expected = read_npy_folder(a.expected, plans[0]->output_types(), "graph output");

    stage = Stage::Inference;
    std::vector<TensorMap> outputs;
    for (std::size_t i = 0; i < backends.size(); ++i) {
      source = ta::delegate_of_backend(backends[i]);
      const auto t0 = Clock::now();
      progress.show("running on " + backends[i], true);
      try {
        outputs.push_back(plans[i]->run(inputs));
      } catch (const Error& e) {
        throw Error(e.id(), "backend " + backends[i] + ": " + e.message(), e.file().empty() ? a.model : e.file(), e.where());
      }
      event.run().inference_time_us.push_back(BenchmarkEventWriter::micros(Clock::now() - t0));
      progress.step(false, "ran on " + backends[i]);
    }
    progress.clear();
    stage = Stage::Unknown;

    // Reports in backend order, then graph output order.
    const std::string reference = a.expected.empty() ? backends[0] : a.expected;
    std::vector<OutputReport> reports;
    for (std::size_t i = a.expected.empty() ? 1 : 0; i < backends.size(); ++i) {
      auto r = compare_outputs(outputs[i], a.expected.empty() ? outputs[0] : expected, a.tol, backends[i]);
      for (const auto& [name, type] : plans[0]->output_types())
        for (OutputReport& o : r)
          if (o.output == name) reports.push_back(std::move(o));
    }
    std::size_t failed = 0;
    nlohmann::json results = nlohmann::json::array();
    std::map<std::string, std::vector<float>> metrics;
    for (const OutputReport& r : reports) {
      failed += !r.passed;
      results.push_back({{"output", r.output}, {"backend", r.backend}, {"max_abs_error", r.max_abs_error},
                         {"max_rel_error", r.max_rel_error}, {"max_ulp", r.max_ulp}, {"atol", r.atol},
                         {"passed", r.passed}, {"message", r.message}});
      metrics[r.backend + ".max_abs_error"].push_back(static_cast<float>(r.max_abs_error));
      metrics[r.backend + ".max_rel_error"].push_back(static_cast<float>(r.max_rel_error));
      metrics[r.backend + ".max_ulp"].push_back(r.max_ulp == kUlpNaNMismatch ? INFINITY : static_cast<float>(r.max_ulp));
      if (!a.json)
        std::cout << r.output << " [" << r.backend << "]: max_abs_error " << number(r.max_abs_error) << ", max_rel_error "
                  << number(r.max_rel_error) << ", max_ulp " << ulp_text(r.max_ulp) << ": "
                  << (r.passed ? "pass" : "FAIL (" + r.message + ")") << "\n";
    }
    const bool passed = failed == 0 && !reports.empty();
    const std::string against = a.expected.empty() ? "backend " + reference : reference;
    if (a.json) {
      nlohmann::json j;
      j["model"] = a.model;
      j["reference"] = against;
      j["backends"] = backends;
      j["atol"] = a.tol.atol ? nlohmann::json(*a.tol.atol) : nlohmann::json("scaled");
      j["rtol"] = a.tol.rtol;
      j["quantized_steps"] = a.tol.quantized_steps;
      j["results"] = results;
      j["passed"] = passed;
      std::cout << j.dump(2) << "\n";
    } else {
      std::cout << "validate: " << (passed ? "PASS" : "FAIL") << ": " << reports.size() - failed << " of " << reports.size()
                << " comparison(s) passed against " << against << " (atol "
                << (a.tol.atol ? number(*a.tol.atol) : "1e-05 * min(1, max|expected|) per output") << ", rtol "
                << number(a.tol.rtol) << ", quantized " << a.tol.quantized_steps << " step(s))\n";
    }
    for (auto& [name, values] : metrics) event.run().metrics.emplace_back(name, std::move(values));
    event.end(passed);
    return passed ? kOk : kCheckFailed;
  } catch (...) {
    event.error(stage, source);
    throw;
  }
}

}  // namespace

void add_validate(CLI::App& app, Action& action) {
  auto args = std::make_shared<ValidateArgs>();
  auto* sub = app.add_subcommand("validate",
                                 "Run a graph on backends and compare each output with expected .npy files or the first backend; "
                                 "exit 1 when one differs");
  sub->add_option("MODEL", args->model, "The graph file")->required();
  sub->add_option("--inputs", args->inputs, "Folder holding <graph input name>.npy for every graph input")->required();
  sub->add_option("--expected", args->expected,
                  "Folder holding <graph output name>.npy for every graph output (default: compare with the first backend)");
  sub->add_option("--backends", args->backends,
                  "Backends to run, comma-separated (default: the --settings one, else cpu; without --expected, cpu "
                  "and opencl when OpenCL lists a device)")
      ->delimiter(',');
  sub->add_option("--atol", args->atol,
                  "Absolute tolerance, applied as given (default: scaled to each expected output, "
                  "1e-5 * min(1, max|expected|), at least the dtype's smallest normal number)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--rtol", args->tol.rtol, "Relative tolerance (default 1e-4)")->check(CLI::NonNegativeNumber);
  sub->add_option("--quantized-steps", args->tol.quantized_steps,
                  "Quantized outputs pass when they differ by at most N storage steps (default 1)")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--threads", args->threads, "Worker threads (default 0: all cores)")->check(CLI::Range(0, 4096));
  sub->add_option("--extension", args->extensions,
                  "A cpu extension library (.so) registering custom kernels; repeatable (nnbridge/cpu_kernel_api.h)")
      ->allow_extra_args(false);
  sub->add_option("--device", args->device, "opencl: the device by index or name substring (as `run`)");
  sub->add_option("--fallback", args->fallback, "opencl: run nodes without an opencl kernel on cpu (`cpu`) or fail (`none`)")
      ->check(CLI::IsMember({"none", "cpu"}));
  sub->add_option("--named-data", args->named_data,
                  "vkgraph/vkdelegate: folder holding the named-data constants, one file per key; pte: the .ptd file "
                  "(default: the .ptd beside the .pte with its stem)");
  sub->add_option("--custom-layers", args->custom_layers,
                  "opencl: OpenVINO custom-layer XML (SimpleGPU kernels run for nodes of the layer's name); repeatable")
      ->allow_extra_args(false);
  add_exec_flags(sub, args->flags);
  sub->add_flag("--json", args->json, "Print the comparisons as JSON");
  sub->callback([&action, args, sub] {
    if (sub->count("--threads")) args->flags.threads = args->threads;
    if (sub->count("--atol")) args->tol.atol = args->atol;
    if (sub->count("--fallback")) args->flags.fallback = args->fallback;
    action = [args] { return run_validate(*args); };
  });
}

}  // namespace nnbridge::cli
