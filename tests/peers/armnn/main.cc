// nnbridge-armnn-peer: an independent peer built on Debian's Arm NN 20.08 (libarmnn22).
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <iostream>
#include <string>

#include "harness.h"

namespace {

std::string self_path(const char* argv0) {
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string(argv0);
}

int usage() {
  std::cerr << "usage: nnbridge-armnn-peer generate OUTDIR [CASE]\n"
               "       nnbridge-armnn-peer inspect FILE.armnn\n"
               "       nnbridge-armnn-peer run FILE.armnn INDIR OUTDIR\n"
               "       nnbridge-armnn-peer time FILE.armnn INDIR RUNS\n"
               "       nnbridge-armnn-peer bench-models OUTDIR [NAME]\n"
               "       nnbridge-armnn-peer examples OUTDIR\n"
               "       nnbridge-armnn-peer extension-example OUTDIR\n"
               "       nnbridge-armnn-peer list\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage();
  const std::string cmd = argv[1];
  if (cmd == "generate" && (argc == 3 || argc == 4)) return peer::cmd_generate(self_path(argv[0]), argv[2], argc == 4 ? argv[3] : "");
  if (cmd == "inspect" && argc == 3) return peer::cmd_inspect(argv[2]);
  if (cmd == "run" && argc == 5) return peer::cmd_run(argv[2], argv[3], argv[4]);
  if (cmd == "time" && argc == 5) return peer::cmd_time(argv[2], argv[3], std::max(1, std::atoi(argv[4])));
  if (cmd == "bench-models" && (argc == 3 || argc == 4)) return peer::cmd_bench_models(argv[2], argc == 4 ? argv[3] : "");
  if (cmd == "examples" && argc == 3) return peer::cmd_examples(argv[2]);
  if (cmd == "extension-example" && argc == 3) return peer::cmd_extension_example(argv[2]);
  if (cmd == "list" && argc == 2) {
    for (const auto& c : peer::all_cases()) std::cout << c.name << "\n";
    return 0;
  }
  return usage();
}
