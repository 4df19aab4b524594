// A one-file program built with `pkg-config --cflags --libs nnbridge` (tests/package/pkg_config.sh):
// prints a model's graph inputs and outputs, one name per line, as check_consumer.py's format.
#include <cstdio>

#include <nnbridge/error.h>
#include <nnbridge/io.h>

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  try {
    const nnbridge::Graph g = nnbridge::load(argv[1]);
    for (auto id : g.inputs) std::printf("input %s\n", g.values[id].name.c_str());
    for (auto id : g.outputs) std::printf("output %s\n", g.values[id].name.c_str());
  } catch (const nnbridge::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 3;
  }
  return 0;
}
