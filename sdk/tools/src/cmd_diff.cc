// `nnbridge diff A B`: the semantic diff of two graph files (nnbridge/diff.h).
#include <iostream>
#include <memory>

#include "commands.h"
#include "model_io.h"
#include "nnbridge/diff.h"
#include "nnbridge/io.h"

namespace nnbridge::cli {
namespace {

struct DiffArgs {
  std::string a, b;
  std::vector<std::string> reader_options;
  bool json = false;
  DiffOptions options;
};

// -I options are namespaced by format: each file takes those of its own format, and an option
// of neither format goes to A, whose load() refuses it naming the option (exit 3).
Graph load_one(const std::string& path, const std::string& other_path, const std::vector<std::string>& reader_options,
               bool first) {
  LoadOptions lo;
  lo.format = detect_format(path);
  const std::string other = detect_format(other_path);
  for (const auto& [k, v] : key_values(reader_options)) {
    const bool mine = k.rfind(lo.format + ".", 0) == 0, theirs = k.rfind(other + ".", 0) == 0;
    if (mine || (first && !theirs)) lo.options.emplace(k, v);
  }
  return load_model(path, lo);
}

int run_diff(const DiffArgs& a) {
  // A file that cannot be read is Error, exit 3 naming it (main.cc), before anything is printed.
  const Graph ga = load_one(a.a, a.b, a.reader_options, true);
  const Graph gb = load_one(a.b, a.a, a.reader_options, false);
  const GraphDiff d = diff(ga, gb, a.options);
  std::cout << (a.json ? to_json(d, a.a, a.b) : to_text(d, a.a, a.b, detect_format(a.a), detect_format(a.b)));
  return d.same() ? kOk : kCheckFailed;
}

}  // namespace

void add_diff(CLI::App& app, Action& action) {
  auto args = std::make_shared<DiffArgs>();
  auto* sub = app.add_subcommand(
      "diff", "Compare two graph files semantically (ops, attributes, types, constants); exit 0 same, 1 different");
  sub->add_option("A", args->a, "The first graph file")->required();
  sub->add_option("B", args->b, "The second graph file")->required();
  sub->add_flag("--json", args->json, "Print the report as JSON (docs/api.md \"Semantic diff\")");
  sub->add_flag("--ignore-names", args->options.ignore_names,
                "Pair by topology and position only; do not report names of inputs, outputs and nodes");
  sub->add_flag("--ignore-metadata", args->options.ignore_metadata,
                "Do not compare format vocabulary (source format, metadata, armnn.* / vk.* / onnx.* attributes)");
  sub->add_option("-I,--reader-option", args->reader_options,
                  "A reader option key=value for the file of that format, e.g. vkdelegate.named_data=DIR")
      ->check(check_key_value);
  sub->footer(
      "Both graphs are compared in one normal form (the format-neutral rewrites writers apply), so a file and its "
      "conversion compare by what they compute; names and format vocabulary are reported under their own headings. "
      "Rules: sdk/diff/include/nnbridge/diff.h.");
  sub->callback([&action, args] { action = [args] { return run_diff(*args); }; });
}

}  // namespace nnbridge::cli
