// `nnbridge devices [--json]`: the registered backends and, for opencl, every OpenCL platform's
// devices as the ICD loader reports them (nnbridge::gpu::list_devices(), nnbridge/gpu.h), with the
// index `--device N` / opencl.device=N takes and the device the backend chooses by default
// (nnbridge::gpu::select_device("")). No OpenCL platform is not an error: the command says so.
#include <algorithm>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "commands.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#ifdef NNBRIDGE_HAVE_OPENCL
#include "nnbridge/gpu.h"
#endif

namespace nnbridge::cli {

namespace {

struct Row {
  int index = 0;
  std::string platform, name, version, driver;
  bool gpu = false;
};

int run_devices(bool json) {
  cpu_ref::register_backend();
  bool built = false;
  std::vector<Row> rows;
  int chosen = -1;
#ifdef NNBRIDGE_HAVE_OPENCL
  gpu::register_backend();
  built = true;
  for (const gpu::DeviceInfo& d : gpu::list_devices()) rows.push_back({d.index, d.platform, d.name, d.version, d.driver, d.gpu});
  if (!rows.empty()) {
    try {
      chosen = gpu::select_device("").index;
    } catch (const Error&) {
      chosen = -1;  // the ICD failed between the two listings: no default to show
    }
  }
#endif
  std::vector<std::string> backends;
  for (const auto& b : all_backends()) backends.push_back(b->name());

  if (json) {
    nlohmann::json out;
    out["backends"] = backends;
    nlohmann::json devices = nlohmann::json::array();
    for (const Row& r : rows)
      devices.push_back({{"index", r.index}, {"platform", r.platform}, {"name", r.name}, {"gpu", r.gpu},
                         {"version", r.version}, {"driver", r.driver}});
    out["opencl"] = {{"built", built}, {"devices", devices}, {"default", chosen < 0 ? nlohmann::json(nullptr) : nlohmann::json(chosen)}};
    std::cout << out.dump(2) << "\n";
    return kOk;
  }

  std::cout << "backends: ";
  for (std::size_t i = 0; i < backends.size(); ++i) std::cout << (i ? ", " : "") << backends[i];
  std::cout << "\n";
  if (!built) {
    std::cout << "opencl: not built into this nnbridge (no OpenCL headers or loader at build time)\n";
    return kOk;
  }
  if (rows.empty()) {
    std::cout << "opencl: no OpenCL platform is installed (or none has a device); install an ICD such as "
                 "pocl-opencl-icd or a GPU vendor's driver\n";
    return kOk;
  }
  std::cout << "opencl devices (--device INDEX, or a substring of \"platform: device\"; * = the default):\n";
  std::size_t pw = 8, nw = 6, vw = 7;
  for (const Row& r : rows) {
    pw = std::max(pw, r.platform.size());
    nw = std::max(nw, r.name.size());
    vw = std::max(vw, r.version.size());
  }
  auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w - std::min(w, s.size()) + 2, ' '); };
  std::cout << "  " << pad("INDEX", 6) << pad("PLATFORM", pw) << pad("DEVICE", nw) << "GPU  " << pad("VERSION", vw) << "DRIVER\n";
  for (const Row& r : rows)
    std::cout << "  " << pad(std::to_string(r.index) + (r.index == chosen ? " *" : ""), 6) << pad(r.platform, pw) << pad(r.name, nw)
              << (r.gpu ? "yes  " : "no   ") << pad(r.version, vw) << r.driver << "\n";
  return kOk;
}

}  // namespace

void add_devices(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("devices", "List the backends and the OpenCL platforms' devices (for --device)");
  auto json = std::make_shared<bool>(false);
  sub->add_flag("--json", *json, "Print the list as JSON");
  sub->callback([&action, json] {
    action = [json] { return run_devices(*json); };
  });
}

}  // namespace nnbridge::cli
