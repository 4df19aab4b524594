// `nnbridge dump FILE`: the IR in its JSON form on standard output, constants inline.
#include <iostream>
#include <limits>
#include <memory>

#include "commands.h"
#include "model_io.h"
#include "nnbridge/io.h"
#include "nnbridge/json.h"

namespace nnbridge::cli {
namespace {

struct DumpArgs {
  std::string file, from;
  std::vector<std::string> reader_options;
};

int run_dump(const DumpArgs& a) {
  LoadOptions lo;
  if (!a.from.empty()) lo.format = resolve_format_name(a.from);
  lo.options = key_values(a.reader_options);
  Graph g = load_model(a.file, lo);
  JsonWriteOptions jo;
  jo.inline_limit = std::numeric_limits<std::size_t>::max();
  jo.sidecar.clear();  // standard output has no "next to it" for a sidecar
  std::cout << to_json(g, jo) << "\n";
  return kOk;
}

}  // namespace

void add_dump(CLI::App& app, Action& action) {
  auto args = std::make_shared<DumpArgs>();
  auto* sub = app.add_subcommand("dump", "Print the graph as IR JSON (constants inline, base64)");
  sub->add_option("FILE", args->file, "The graph file")->required();
  sub->add_option("--from", args->from, "Read as this format (name or extension) instead of sniffing")
      ->check(check_format_name);
  sub->add_option("-I,--reader-option", args->reader_options, "A reader option key=value, e.g. armnn.layout=seed")
      ->check(check_key_value);
  sub->callback([&action, args] { action = [args] { return run_dump(*args); }; });
}

}  // namespace nnbridge::cli
