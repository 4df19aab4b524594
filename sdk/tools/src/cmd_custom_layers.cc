// `nnbridge custom-layers check XML...`: OpenVINO custom-layer files (nnbridge/config/openvino_custom.h).
//
// Prints one line per layer, or every problem of the files as `file:line: text`. Exit codes as
// for every subcommand (commands.h): 1 when a file breaks a rule, 3 when one cannot be read or
// is not well-formed XML.
#include <iostream>
#include <memory>

#include "commands.h"
#include "nnbridge/config/openvino_custom.h"
#include "nnbridge/error.h"

namespace nnbridge::cli {
namespace {

namespace ovc = nnbridge::config::openvino_custom;

struct CheckArgs {
  std::vector<std::string> files;
  bool no_sources = false, allow_override = false;
};

std::string joined(const std::vector<std::string>& v) {
  if (v.empty()) return "-";
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ",") + x;
  return s;
}

int run_check(const CheckArgs& a) {
  ovc::LoadCustomLayersOptions options;
  options.require_sources = !a.no_sources;
  options.allow_override = a.allow_override;
  ovc::CustomLayerConfig all;
  try {
    for (const auto& f : a.files) ovc::merge_custom_layers(all, ovc::load_custom_layers(f, options), options);
  } catch (const Error& e) {
    if (e.code() != ErrorCode::Invalid) throw;  // unreadable or not XML: exit 3 from main
    std::cout << e.what() << "\n";
    return kCheckFailed;
  }
  for (const Issue& w : all.warnings) std::cerr << w.where << ": warning: " << w.message << "\n";
  for (const auto& l : all.gpu_layers) {
    std::cout << l.where.text() << ": " << l.name << " (SimpleGPU, entry " << l.entry << ", " << l.sources.size() << " source(s), "
              << l.defines.size() << " define(s), " << l.tensors.size() << " tensor(s), " << l.data.size() << " data, global "
              << (l.global.empty() ? "B*F*Y*X" : joined(l.global)) << ", local " << joined(l.local) << ", dim "
              << (l.dim.input ? "input," + std::to_string(l.dim.index) : std::string("output")) << ")\n";
  }
  for (const auto& l : all.mvcl_layers) {
    std::string where;
    for (const auto& [k, v] : l.where_params) where += (where.empty() ? ", where " : " ") + k + "=" + v;
    std::cout << l.where.text() << ": " << l.name << " (MVCL, " << l.kernels.size() << (l.kernels.size() == 1 ? " stage" : " stages")
              << where << ", not executable by nnbridge)\n";
  }
  std::cout << all.gpu_layers.size() << " SimpleGPU layer(s), " << all.mvcl_layers.size() << " MVCL layer(s)\n";
  return kOk;
}

}  // namespace

void add_custom_layers(CLI::App& app, Action& action) {
  auto* cmd = app.add_subcommand("custom-layers", "OpenVINO custom-layer XML (GPU SimpleGPU kernels, MYRIAD MVCL bindings)");
  cmd->require_subcommand(1);
  auto args = std::make_shared<CheckArgs>();
  auto* check = cmd->add_subcommand("check", "Parse and check custom-layer files; print their layers or every problem with its line");
  check->add_option("XML", args->files, "Custom-layer files (one or more; later files may not redefine a layer)")->required();
  check->add_flag("--no-sources", args->no_sources, "Do not require the kernel source files to exist");
  check->add_flag("--allow-override", args->allow_override, "A later layer of the same name replaces an earlier one (a warning)");
  check->callback([&action, args] { action = [args] { return run_check(*args); }; });
}

}  // namespace nnbridge::cli
