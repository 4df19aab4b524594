// `nnbridge`: inspect, dump, check and convert neural-network graph files.
//
// Every failure ends in a one-line message and an exit code (commands.h); nothing escapes
// main as a signal or a stack trace, whatever the input.
#include <filesystem>
#include <iostream>
#include <new>
#include <string>

#include "commands.h"
#include "nnbridge/error.h"
#include "nnbridge/version.h"

namespace {

int run(int argc, char** argv) {
  using namespace nnbridge::cli;
  CLI::App app{"nnbridge: read, write and convert neural-network graph files through one graph IR"};
  app.name("nnbridge");
  // The linked library's version (nnbridge/version.h), the one Python's __version__ reports.
  app.set_version_flag("--version", "nnbridge " + std::string(nnbridge::version()));
  app.require_subcommand(1);
  app.footer("Exit codes: 0 success, 1 a check failed, 2 usage error, 3 bad or unsupported input, 4 internal error.");

  Action action;
  add_info(app, action);
  add_dump(app, action);
  add_convert(app, action);
  add_check(app, action);
  add_formats(app, action);
  add_run(app, action);
  add_validate(app, action);
  add_draw(app, action);
  add_afcm(app, action);
  add_config(app, action);
  add_custom_layers(app, action);
  add_conformance(app, action);
  add_diff(app, action);
  add_devices(app, action);
  add_ops(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // `nnbridge bogus`: CLI11 would only say that a subcommand is required.
    std::string names;
    bool known = false;
    for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; })) {
      known = known || (argc > 1 && s->check_name(argv[1]));
      if (s->get_group().empty()) continue;  // hidden (`__conformance-case`, the conformance runner's child)
      names += (names.empty() ? "" : ", ") + s->get_name();
    }
    if (argc > 1 && argv[1][0] != '-' && !known) {
      std::cerr << "nnbridge: error: unknown command '" << argv[1] << "' (commands: " << names << ")\n";
      return kUsage;
    }
    // --help and --version arrive here too, with exit code 0.
    int rc = app.exit(e);
    return rc == 0 ? kOk : kUsage;
  }
  if (!action) return kUsage;
  int rc = action();
  std::cout.flush();
  if (!std::cout) {
    std::cerr << "nnbridge: error: cannot write to standard output\n";
    return kBadInput;
  }
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace nnbridge::cli;
  try {
    return run(argc, argv);
  } catch (const nnbridge::Error& e) {
    std::cerr << "nnbridge: error: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::bad_alloc&) {
    // Sizes in an untrusted file that exceed memory: bad input, not a bug.
    std::cerr << "nnbridge: error: out of memory\n";
    return kBadInput;
  } catch (const std::filesystem::filesystem_error& e) {
    std::cerr << "nnbridge: error: " << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "nnbridge: internal error: " << e.what() << "\n";
    return kInternal;
  } catch (...) {
    std::cerr << "nnbridge: internal error: unknown exception\n";
    return kInternal;
  }
}
