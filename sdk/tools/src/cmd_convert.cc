// `nnbridge convert IN OUT`: read one file, write another, possibly in another format.
#include <filesystem>
#include <iostream>
#include <memory>

#include "commands.h"
#include "model_io.h"
#include "nnbridge/io.h"
#include "progress.h"

namespace nnbridge::cli {
namespace {

struct ConvertArgs {
  std::string in, out, from, to;
  std::vector<std::string> reader_options, writer_options;
  bool force = false;  // --force: the json writer may replace a .bin that is not its own sidecar
};

int run_convert(const ConvertArgs& a) {
  // An output format nobody can name is a usage error, found before the input is read.
  if (a.to.empty() && !find_format_by_path(a.out)) {
    std::cerr << "nnbridge: error: " << a.out
              << ": cannot tell the output format from its extension: use --to FORMAT (see `nnbridge formats`)\n";
    return kUsage;
  }
  LoadOptions lo;
  if (!a.from.empty()) lo.format = resolve_format_name(a.from);
  lo.options = key_values(a.reader_options);
  const std::string in_format = lo.format.empty() ? detect_format(a.in) : lo.format;
  lo.format = in_format;
  // On a terminal, for a large input: reading, then converting until the writer's temporary
  // file appears, then writing with the bytes written so far.
  const std::uint64_t in_bytes = file_bytes(a.in);
  PhaseProgress progress(in_bytes);
  progress.phase("reading " + a.in + " (" + size_text(in_bytes) + ")");
  Graph g = load(a.in, lo);
  SaveOptions so;
  if (!a.to.empty()) so.format = resolve_format_name(a.to);
  so.options = key_values(a.writer_options);
  const FormatHandler* out_handler =
      so.format.empty() ? find_format_by_extension(std::filesystem::path(a.out).extension().string()) : find_format(so.format);
  if (a.force && out_handler && out_handler->name == "json") so.options.emplace("json.overwrite_sidecar", "true");
  if (a.force && out_handler && out_handler->name == "pte") so.options.emplace("pte.overwrite_ptd", "true");
  // save() writes a temporary file and renames it: IN may equal OUT, since the mapped
  // input keeps its old inode alive until the graph is gone.
  const std::string out_format = so.format.empty() ? (out_handler ? out_handler->name : std::string()) : so.format;
  progress.phase([&a, in_bytes, out_format] {
    const std::uint64_t written = staged_bytes(a.out);
    if (written == 0) return "converting " + a.in + " (" + size_text(in_bytes) + ") to " + out_format;
    return "writing " + a.out + ": " + size_text(written) + " written";
  });
  save(g, a.out, so);
  progress.stop();
  std::cout << a.in << " (" << in_format << ") -> " << a.out << " ("
            << (so.format.empty() ? find_format_by_path(a.out)->name
                                : so.format) << ")\n";
  return kOk;
}

}  // namespace

void add_convert(CLI::App& app, Action& action) {
  auto args = std::make_shared<ConvertArgs>();
  auto* sub = app.add_subcommand("convert", "Convert a graph file; formats by name or by extension");
  sub->add_option("IN", args->in, "The input file")->required();
  sub->add_option("OUT", args->out, "The output file (written atomically)")->required();
  sub->add_option("--from", args->from, "Read as this format (name or extension) instead of sniffing")
      ->check(check_format_name);
  sub->add_option("--to", args->to, "Write this format (name or extension) instead of OUT's extension")
      ->check(check_format_name);
  sub->add_option("-I,--reader-option", args->reader_options, "A reader option key=value, e.g. armnn.layout=seed")
      ->check(check_key_value);
  sub->add_option("-O,--writer-option", args->writer_options,
                  "A writer option key=value, e.g. armnn.bindingIdsScheme=1")
      ->check(check_key_value);
  sub->add_flag("--force", args->force,
                "json: replace an existing <stem>.bin beside OUT even when it is not the sidecar of the OUT it replaces; "
                "pte: likewise an existing <stem>.ptd");
  sub->callback([&action, args] { action = [args] { return run_convert(*args); }; });
}

}  // namespace nnbridge::cli
