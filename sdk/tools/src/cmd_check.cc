// `nnbridge check FILE`: the checker's findings, errors with their identifier; exit 1 when any is an error.
#include <iostream>
#include <memory>

#include "commands.h"
#include "model_io.h"
#include "nnbridge/check.h"
#include "nnbridge/io.h"

namespace nnbridge::cli {
namespace {

struct CheckArgs {
  std::string file, from;
  std::vector<std::string> reader_options;
};

int run_check(const CheckArgs& a) {
  LoadOptions lo;
  if (!a.from.empty()) lo.format = resolve_format_name(a.from);
  lo.options = key_values(a.reader_options);
  Graph g = load_model(a.file, lo);
  std::size_t errors = 0, warnings = 0;
  for (const Issue& issue : check(g)) {
    const bool is_error = issue.severity == Issue::Severity::Error;
    (is_error ? errors : warnings)++;
    // An error starts with its identifier, as every command's error line does ("error: [id] ...").
    std::cout << a.file << ": " << (is_error ? "error: [" + to_string(issue.id) + "] " : std::string("warning: "))
              << (issue.where.empty() ? "" : issue.where + ": ") << issue.message << "\n";
  }
  std::cout << a.file << ": " << errors << " error(s), " << warnings << " warning(s)\n";
  return errors ? kCheckFailed : kOk;
}

}  // namespace

void add_check(CLI::App& app, Action& action) {
  auto args = std::make_shared<CheckArgs>();
  auto* sub = app.add_subcommand("check", "Run the graph checker; exit 1 when it finds an error");
  sub->add_option("FILE", args->file, "The graph file")->required();
  sub->add_option("--from", args->from, "Read as this format (name or extension) instead of sniffing")
      ->check(check_format_name);
  sub->add_option("-I,--reader-option", args->reader_options, "A reader option key=value, e.g. armnn.layout=seed")
      ->check(check_key_value);
  sub->callback([&action, args] { action = [args] { return run_check(*args); }; });
}

}  // namespace nnbridge::cli
