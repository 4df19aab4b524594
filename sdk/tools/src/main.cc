// `nnbridge`: inspect, dump, check and convert neural-network graph files.
//
// Every failure ends in a one-line message and an exit code (commands.h); nothing escapes
// main as a signal or a stack trace, whatever the input.
#include <filesystem>
#include <iostream>
#include <new>

#include "commands.h"
#include "nnbridge/error.h"

namespace {

int run(int argc, char** argv) {
  using namespace nnbridge::cli;
  CLI::App app{"nnbridge: read, write and convert neural-network graph files through one graph IR"};
  app.name("nnbridge");
  app.set_version_flag("--version", std::string("nnbridge ") + NNBRIDGE_VERSION);
  app.require_subcommand(1);
  app.footer("Exit codes: 0 success, 1 a check failed, 2 usage error, 3 bad or unsupported input, 4 internal error.");

  Action action;
  add_info(app, action);
  add_dump(app, action);
  add_convert(app, action);
  add_check(app, action);
  add_formats(app, action);
  add_run(app, action);
  add_afcm(app, action);
  add_config(app, action);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
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
