// `nnbridge afcm shaders FILE DIR`: each program's full GLSL compute shader, header rebuilt
// (TFLite stores shader bodies without it), so that users can read or compile them.
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.h"
#include "model_io.h"
#include "nnbridge/error.h"
#include "nnbridge/format.h"
#include "nnbridge/formats/afcm.h"
#include "nnbridge/io.h"

namespace nnbridge::cli {
namespace {

namespace fs = std::filesystem;

struct ShadersArgs {
  std::string file, dir, from;
};

int run_shaders(const ShadersArgs& a) {
  LoadOptions lo;
  if (!a.from.empty()) lo.format = resolve_format_name(a.from);
  Graph g = load_model(a.file, lo);
  std::vector<std::string> sources;
  try {
    sources = formats::afcm::shader_sources(g);
  } catch (const Error& e) {
    throw e.with_file(a.file);
  }
  if (sources.empty()) throw Error(ErrorId::InvalidOther, "holds no gl.Program (not a compiled model?)", a.file);
  const fs::path dir = a.dir;
  const bool created = make_output_folder(dir, "shaders");
  // One file per program, named by its place in the file; all written, or none.
  std::vector<FileContents> files;
  files.reserve(sources.size());
  for (std::size_t i = 0; i < sources.size(); ++i)
    files.push_back({dir / ("program_" + std::to_string(i) + ".comp"), std::as_bytes(std::span(sources[i]))});
  try {
    write_files_atomic(files);
  } catch (...) {
    remove_created_folder(dir, created);
    throw;
  }
  for (const auto& f : files) std::cout << f.path.string() << "\n";
  return kOk;
}

}  // namespace

void add_afcm(CLI::App& app, Action& action) {
  auto* sub = app.add_subcommand("afcm", "Tools for TFLite GPU OpenGL compiled models (.flow)");
  sub->require_subcommand(1);
  auto args = std::make_shared<ShadersArgs>();
  auto* shaders = sub->add_subcommand(
      "shaders", "Write each program's full GLSL source (header rebuilt from its workgroup_size) to DIR/program_<i>.comp");
  shaders->add_option("FILE", args->file, "The compiled model (or its IR JSON)")->required();
  shaders->add_option("DIR", args->dir, "The folder to write into (created if missing; the folder above it must exist)")->required();
  shaders->add_option("--from", args->from, "Read as this format (name or extension) instead of sniffing")
      ->check(check_format_name);
  shaders->callback([&action, args] { action = [args] { return run_shaders(*args); }; });
}

}  // namespace nnbridge::cli
