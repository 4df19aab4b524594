// `nnbridge run MODEL --inputs DIR --outputs DIR`: execute a graph on a backend (issue 3).
//
// Inputs are DIR/<graph input name>.npy in the graph's dtype (quantized inputs as their
// storage integers) and exact shape; outputs are written as <graph output name>.npy, each
// through a temporary file and a rename, so no half-written file is ever left.
#include <chrono>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "commands.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
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
  bool json = false;
};

std::string shape_str(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

// A graph value name used as a file name must stay inside the folder.
void check_file_name(const std::string& name, const char* what) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos || name.find('\0') != std::string::npos)
    throw Error(ErrorCode::Unsupported, std::string(what) + " \"" + name + "\" cannot be used as a file name");
}

int run_run(const RunArgs& a) {
  using Clock = std::chrono::steady_clock;
  cpu_ref::register_backend();
#ifdef NNBRIDGE_HAVE_OPENCL
  gpu::register_backend();
#endif
  auto backend = find_backend(a.backend);
  if (!backend) {
    std::string names;
    for (const auto& b : all_backends()) names += (names.empty() ? "" : ", ") + b->name();
    std::cerr << "nnbridge: error: no backend named \"" << a.backend << "\" (available: " << names << ")\n";
    return kUsage;
  }
  LoadOptions load_options;
  if (!a.named_data.empty()) {
    // ExecuTorch keeps some Vulkan constants outside the payload, by key (nnbridge/formats/vkgraph.h).
    const std::string format = detect_format(a.model);
    if (format != "vkgraph" && format != "vkdelegate") {
      std::cerr << "nnbridge: error: --named-data applies to vkgraph and vkdelegate models, not " << format << "\n";
      return kUsage;
    }
    load_options.options[format + ".named_data"] = a.named_data;
  }
  Graph g = load(a.model, load_options);
  BackendOptions options;
  options.threads = a.threads;
  options.extensions = a.extensions;  // loaded by prepare(); a bad library is an Error naming it
  if (!a.device.empty()) options.options["opencl.device"] = a.device;
  if (!a.fallback.empty()) options.options["opencl.fallback"] = a.fallback;
  if ((!a.device.empty() || !a.fallback.empty()) && a.backend != "opencl") {
    std::cerr << "nnbridge: error: --device and --fallback apply to --backend opencl\n";
    return kUsage;
  }
  auto t0 = Clock::now();
  std::unique_ptr<Plan> plan = backend->prepare(g, options);
  auto t1 = Clock::now();

  // Inputs: exactly one file per graph input, nothing else.
  const fs::path in_dir = a.inputs;
  if (!fs::is_directory(in_dir)) throw Error(ErrorCode::Io, "not a folder", a.inputs);
  std::set<std::string> names;
  for (const auto& [name, type] : plan->input_types()) {
    check_file_name(name, "graph input");
    names.insert(name + ".npy");
  }
  for (const auto& e : fs::directory_iterator(in_dir)) {
    const std::string f = e.path().filename().string();
    if (!names.count(f))
      throw Error(ErrorCode::Invalid, "\"" + f + "\" is not a graph input (inputs: " + [&] {
        std::string s;
        for (const auto& [n, t] : plan->input_types()) s += (s.empty() ? "" : ", ") + n;
        return s;
      }() + ")", e.path().string());
  }
  TensorMap inputs;
  for (const auto& [name, type] : plan->input_types()) {
    const fs::path p = in_dir / (name + ".npy");
    if (!fs::exists(p)) throw Error(ErrorCode::Invalid, "missing the file for graph input \"" + name + "\"", p.string());
    HostTensor t = read_npy(p);
    if (t.shape() != type.shape)
      throw Error(ErrorCode::Invalid, "graph input \"" + name + "\" needs shape " + shape_str(type.shape) + ", the file has " +
                                          shape_str(t.shape()), p.string());
    if (t.dtype() != storage_type(type.dtype))
      throw Error(ErrorCode::Invalid, "graph input \"" + name + "\" needs dtype " + std::string(to_string(storage_type(type.dtype))) +
                                          ", the file has " + std::string(to_string(t.dtype())), p.string());
    inputs[name] = HostTensor::from_buffer(type, t.buffer());
  }
  auto t2 = Clock::now();
  TensorMap outputs = plan->run(inputs);
  auto t3 = Clock::now();

  const fs::path out_dir = a.outputs;
  fs::create_directories(out_dir);
  nlohmann::json summary;
  summary["model"] = a.model;
  summary["backend"] = a.backend;
  summary["threads"] = a.threads;
  summary["prepare_ms"] = std::chrono::duration<double, std::milli>(t1 - t0).count();
  summary["run_ms"] = std::chrono::duration<double, std::milli>(t3 - t2).count();
  summary["outputs"] = nlohmann::json::array();
  for (const auto& [name, type] : plan->output_types()) {
    check_file_name(name, "graph output");
    const fs::path p = out_dir / (name + ".npy");
    const HostTensor& t = outputs.at(name);
    write_npy(p, t);
    summary["outputs"].push_back({{"name", name}, {"dtype", std::string(to_string(t.dtype()))}, {"shape", t.shape()},
                                  {"file", p.string()}});
    if (!a.json) std::cout << name << ": " << to_string(t.dtype()) << " " << shape_str(t.shape()) << " -> " << p.string() << "\n";
  }
  if (a.json) std::cout << summary.dump(2) << "\n";
  return kOk;
}

}  // namespace

void add_run(CLI::App& app, Action& action) {
  auto args = std::make_shared<RunArgs>();
  auto* sub = app.add_subcommand("run", "Run a graph on a backend: DIR/<input>.npy in, <output>.npy out");
  sub->add_option("MODEL", args->model, "The graph file")->required();
  sub->add_option("--inputs", args->inputs, "Folder holding <graph input name>.npy for every graph input")->required();
  sub->add_option("--outputs", args->outputs, "Folder to write <graph output name>.npy into (created if needed)")
      ->required();
  sub->add_option("--backend", args->backend, "The backend (default: cpu)");
  sub->add_option("--threads", args->threads, "Worker threads (default 0: all cores)")->check(CLI::NonNegativeNumber);
  sub->add_option("--extension", args->extensions,
                  "A cpu extension library (.so) registering custom kernels; repeatable (nnbridge/cpu_kernel_api.h)")
      ->allow_extra_args(false);
  sub->add_option("--device", args->device,
                  "opencl: the device by index or by a substring of \"platform: device\" (default: the first GPU, else any)");
  sub->add_option("--fallback", args->fallback, "opencl: run nodes without an opencl kernel on cpu (`cpu`) or fail (`none`, default)")
      ->check(CLI::IsMember({"none", "cpu"}));
  sub->add_option("--named-data", args->named_data,
                  "vkgraph/vkdelegate: folder holding the named-data constants, one file per key");
  sub->add_flag("--json", args->json, "Print a JSON summary with timings");
  sub->callback([&action, args] { action = [args] { return run_run(*args); }; });
}

}  // namespace nnbridge::cli
