// `nnbridge run MODEL --inputs DIR --outputs DIR`: execute a graph on a backend (issue 3).
//
// Inputs are DIR/<graph input name>.npy in the graph's dtype (quantized inputs as their
// storage integers) and exact shape; outputs are written as <graph output name>.npy, each
// through a temporary file and a rename, so no half-written file is ever left. Names are spelt
// as nnbridge/tensor_files.h says ("dense/Softmax" is dense%2FSoftmax.npy).
//
// --settings FILE picks the backend, threads and opencl fallback from TFLite acceleration
// settings (explicit flags win); --benchmark-event OUT writes the run as a TFLite BenchmarkEvent
// (exec_settings.h, nnbridge/config/tflite_execution.h). --repeat N runs N times (run_ms is the
// median); --profile times each step (Plan::run_profiled) and prints them, or adds them to --json.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "commands.h"
#include "model_io.h"
#include "exec_settings.h"
#include "nnbridge/config/openvino_custom.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "nnbridge/format.h"
#ifdef NNBRIDGE_HAVE_OPENCL
#include "nnbridge/gpu.h"
#endif
#include "nnbridge/io.h"
#include "nnbridge/npy.h"

namespace nnbridge::cli {
namespace {

namespace fs = std::filesystem;

struct RunArgs {
  std::string model, inputs, outputs, backend = "cpu";
  int threads = 0;
  std::vector<std::string> extensions;
  std::string device, fallback;  // opencl.device, opencl.fallback (nnbridge/gpu.h)
  std::string named_data;        // vkgraph / vkdelegate: folder of named-data constants
  std::vector<std::string> custom_layers;  // --custom-layers XML, repeatable (nnbridge/config/openvino_custom.h)
  bool json = false;
  bool profile = false;          // --profile: per-step times (Plan::run_profiled)
  int repeat = 1;                // --repeat: runs; run_ms and the step times are their medians
  bool backend_given = false;    // --backend on the command line (it wins over --settings)
  ExecFlags flags;               // --settings, --benchmark-event (exec_settings.h)
};

using Stage = config::tflite_accel::BenchmarkRun::Stage;

std::string shape_str(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// The median of `v` (not empty): the middle value, or the mean of the middle two.
double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Per step, in run order: node, name, op, backend and the median of its ms over the runs (every
// run of a plan has the same steps).
nlohmann::json profile_json(const std::vector<std::vector<NodeTime>>& runs) {
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t s = 0; s < runs.front().size(); ++s) {
    std::vector<double> ms;
    for (const auto& r : runs) ms.push_back(r[s].ms);
    const NodeTime& t = runs.front()[s];
    out.push_back({{"node", t.node}, {"name", t.name}, {"op", t.op}, {"backend", t.backend}, {"ms", median(ms)}});
  }
  return out;
}

// The --profile table: one line per step in run order, its share of the run (the median run:
// each step's median over the runs against the median of the runs' times, which are not the
// same statistic, so the shares need not add up to 100%), then the steps' sum and the run.
void print_profile(const nlohmann::json& steps, double run_ms, int runs) {
  double sum = 0;
  for (const auto& st : steps) sum += st["ms"].get<double>();
  char line[160];
  std::cout << "profile (" << (runs > 1 ? "median of " + std::to_string(runs) + " runs" : std::string("1 run")) << "):\n";
  std::cout << "      ms  % of run  node  op / name\n";
  for (const auto& st : steps) {
    const double ms = st["ms"].get<double>();
    std::snprintf(line, sizeof line, "%8.3f    %5.1f%%  %4zu  ", ms, run_ms > 0 ? 100 * ms / run_ms : 0.0, st["node"].get<std::size_t>());
    std::cout << line << st["op"].get<std::string>() << " " << st["name"].get<std::string>() << "\n";
  }
  std::snprintf(line, sizeof line, "%8.3f ms in the steps (added), %.3f ms the whole run%s\n", sum, run_ms,
                runs > 1 ? " (each a median over the runs)" : "");
  std::cout << line;
}

/// Runs `f`; an Error it throws without a file names the model ("m.armnn: nodes[3]: ..."): the
/// backends report the node, not the file it came from.
template <class F>
auto naming_model(const std::string& model, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    if (e.file().empty()) throw e.with_file(model);
    throw;
  }
}

int run_body(const RunArgs& a, BenchmarkEventWriter& event, Stage& stage, std::string& source) {
  using Clock = std::chrono::steady_clock;
  cpu_ref::register_backend();
#ifdef NNBRIDGE_HAVE_OPENCL
  gpu::register_backend();
#endif
  const ExecSetup setup = resolve(a.flags, event, source);
  const std::string backend_name = a.backend_given ? a.backend : setup.default_backend();
  source = config::tflite_accel::delegate_of_backend(backend_name);
  auto backend = find_backend(backend_name);
  if (!backend) {
    std::string names;
    for (const auto& b : all_backends()) names += (names.empty() ? "" : ", ") + b->name();
    std::cerr << "nnbridge: error: no backend named \"" << backend_name << "\" (available: " << names << ")\n";
    return kUsage;
  }
  LoadOptions load_options;
  if (!named_data_option(a.model, a.named_data, load_options)) return kUsage;
  Graph g = load_model(a.model, load_options);
  BackendOptions options = setup.options({backend_name});  // threads, opencl.fallback: flags over settings
  options.extensions = a.extensions;  // loaded by prepare(); a bad library is an Error naming it
  if (!a.device.empty()) options.options["opencl.device"] = a.device;
  if (!a.custom_layers.empty()) {
    if (backend_name != "opencl") {
      std::cerr << "nnbridge: error: --custom-layers applies to --backend opencl\n";
      return kUsage;
    }
    options.custom_kernels.push_back(
        config::openvino_custom::custom_layer_set(std::vector<std::filesystem::path>(a.custom_layers.begin(), a.custom_layers.end())));
  }
  if ((!a.device.empty() || !a.fallback.empty()) && backend_name != "opencl") {
    std::cerr << "nnbridge: error: --device and --fallback apply to --backend opencl\n";
    return kUsage;
  }
  auto t0 = Clock::now();
  std::unique_ptr<Plan> plan = naming_model(a.model, [&] { return backend->prepare(g, options); });
  auto t1 = Clock::now();
  event.run().initialization_time_us.push_back(BenchmarkEventWriter::micros(t1 - t0));

  // Inputs: exactly one file per graph input, nothing else.
  const TensorMap inputs = read_npy_folder(a.inputs, plan->input_types());
  stage = Stage::Inference;
  TensorMap outputs;
  std::vector<double> run_ms;
  std::vector<std::vector<NodeTime>> profiles;
  for (int r = 0; r < a.repeat; ++r) {
    std::vector<NodeTime> times;
    auto t2 = Clock::now();
    outputs = naming_model(a.model, [&] { return a.profile ? plan->run_profiled(inputs, times) : plan->run(inputs); });
    auto t3 = Clock::now();
    event.run().inference_time_us.push_back(BenchmarkEventWriter::micros(t3 - t2));
    run_ms.push_back(std::chrono::duration<double, std::milli>(t3 - t2).count());
    if (a.profile) profiles.push_back(std::move(times));
  }
  stage = Stage::Unknown;

  const fs::path out_dir = a.outputs;
  const bool created = make_output_folder(out_dir, "--outputs");
  nlohmann::json summary;
  summary["model"] = a.model;
  // Which backend ran what: per node, and per backend with node counts. "backend" names the
  // backends that ran nodes ("opencl", "cpu", or "opencl+cpu" when some fell back), so a run that
  // fell back wholly to cpu never says "opencl"; "requested_backend" is what --backend asked for.
  const auto counts = backend_counts(*plan);
  std::string ran;
  nlohmann::json per_backend = nlohmann::json::object();
  for (const auto& c : counts) {
    ran += (ran.empty() ? "" : "+") + c.first;
    per_backend[c.first] = c.second;
  }
  summary["backend"] = ran.empty() ? backend_name : ran;
  summary["requested_backend"] = backend_name;
  summary["backends"] = per_backend;
  summary["nodes"] = nlohmann::json::array();
  for (const NodePlacement& p : plan->placement()) {
    nlohmann::json node = {{"node", p.node}, {"name", p.name}, {"op", p.op}, {"backend", p.backend}};
    if (p.fused_into_node) node["fused_into"] = p.fused_into, node["fused_into_node"] = *p.fused_into_node;
    summary["nodes"].push_back(std::move(node));
  }
#ifdef NNBRIDGE_HAVE_OPENCL
  // The OpenCL device the opencl plan holds (its buffers live there even when every node fell
  // back), as `nnbridge devices --json` lists it. An input-bound plan prepares per run with these
  // options, so the device is the one their opencl.device selects (nnbridge/gpu.h plan_device).
  if (backend_name == "opencl") {
    std::optional<gpu::DeviceInfo> d = gpu::plan_device(*plan);
    if (!d) {
      auto spec = options.options.find("opencl.device");
      d = gpu::select_device(spec == options.options.end() ? std::string() : spec->second);
    }
    summary["device"] = {{"index", d->index}, {"platform", d->platform}, {"name", d->name}, {"gpu", d->gpu},
                         {"version", d->version}, {"driver", d->driver}};
  }
#endif
  summary["threads"] = options.threads;
  summary["prepare_ms"] = std::chrono::duration<double, std::milli>(t1 - t0).count();
  summary["run_ms"] = median(run_ms);
  summary["runs"] = a.repeat;
  if (a.profile) summary["profile"] = profile_json(profiles);
  summary["outputs"] = nlohmann::json::array();
  // Every output is encoded and staged before any is renamed into place: an output that cannot
  // be written leaves none of them behind (write_files_atomic).
  const std::vector<std::string> names = npy_file_names(plan->output_types(), "graph output");
  std::vector<std::vector<std::byte>> encoded;
  std::vector<FileContents> files;
  for (const auto& [name, type] : plan->output_types()) encoded.push_back(encode_npy(outputs.at(name)));
  for (std::size_t k = 0; k < names.size(); ++k) files.push_back({out_dir / names[k], encoded[k]});
  try {
    write_files_atomic(files);
  } catch (...) {
    remove_created_folder(out_dir, created);
    throw;
  }
  for (std::size_t k = 0; k < files.size(); ++k) {
    const std::string& name = plan->output_types()[k].first;
    const fs::path& p = files[k].path;
    const HostTensor& t = outputs.at(name);
    summary["outputs"].push_back({{"name", name}, {"dtype", std::string(to_string(t.dtype()))}, {"shape", t.shape()},
                                  {"file", p.string()}});
    if (!a.json) std::cout << name << ": " << to_string(t.dtype()) << " " << shape_str(t.shape()) << " -> " << p.string() << "\n";
  }
  if (a.json) std::cout << summary.dump(2) << "\n";
  else if (a.profile) print_profile(summary["profile"], summary["run_ms"].get<double>(), a.repeat);
  event.end(true);
  return kOk;
}

// A failure after --settings loaded leaves an ERROR BenchmarkEvent behind (--benchmark-event).
int run_run(const RunArgs& a) {
  BenchmarkEventWriter event(a.flags);
  Stage stage = Stage::Initialization;
  std::string source = "NONE";
  try {
    return run_body(a, event, stage, source);
  } catch (...) {
    event.error(stage, source);
    throw;
  }
}

}  // namespace

void add_run(CLI::App& app, Action& action) {
  auto args = std::make_shared<RunArgs>();
  auto* sub = app.add_subcommand("run", "Run a graph on a backend: DIR/<input>.npy in, <output>.npy out");
  sub->add_option("MODEL", args->model, "The graph file")->required();
  sub->add_option("--inputs", args->inputs, "Folder holding <graph input name>.npy for every graph input")->required();
  sub->add_option("--outputs", args->outputs, "Folder to write <graph output name>.npy into (created if missing; the folder above it must exist)")
      ->required();
  sub->add_option("--backend", args->backend, "The backend (default: cpu)");
  sub->add_option("--threads", args->threads, "Worker threads (default 0: all cores)")->check(CLI::Range(0, 4096));
  sub->add_option("--extension", args->extensions,
                  "A cpu extension library (.so) registering custom kernels; repeatable (nnbridge/cpu_kernel_api.h)")
      ->allow_extra_args(false);
  sub->add_option("--device", args->device,
                  "opencl: the device by index or by a substring of \"platform: device\" (default: the first GPU, else any)");
  sub->add_option("--fallback", args->fallback, "opencl: run nodes without an opencl kernel on cpu (`cpu`) or fail (`none`, default)")
      ->check(CLI::IsMember({"none", "cpu"}));
  sub->add_option("--named-data", args->named_data,
                  "vkgraph/vkdelegate: folder holding the named-data constants, one file per key; pte: the .ptd file "
                  "(default: the .ptd beside the .pte with its stem)");
  add_exec_flags(sub, args->flags);
  sub->add_option("--custom-layers", args->custom_layers,
                  "opencl: OpenVINO custom-layer XML (SimpleGPU kernels run for nodes of the layer's name); repeatable")
      ->allow_extra_args(false);
  sub->add_flag("--json", args->json, "Print a JSON summary with timings");
  sub->add_flag("--profile", args->profile,
                "Time each step (node) of the run: a table, or \"profile\" in --json (cpu backend; medians over --repeat)");
  sub->add_option("--repeat", args->repeat,
                  "Run N times on the same inputs (default 1): run_ms and the --profile times are medians, the outputs the last run's")
      ->check(CLI::Range(1, 1000000));
  sub->callback([&action, args, sub] {
    args->backend_given = sub->count("--backend") > 0;
    if (sub->count("--threads")) args->flags.threads = args->threads;
    if (sub->count("--fallback")) args->flags.fallback = args->fallback;
    action = [args] { return run_run(*args); };
  });
}

}  // namespace nnbridge::cli
