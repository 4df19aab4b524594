// nnbridge-armnn-large-graph [LAYERS] [FILE]: builds relu_chain(LAYERS) (default 1'000'000),
// optionally writes it to FILE, and loads it with the default verifier limits, printing the
// sizes and times. Not a ctest test (a 1M-layer load takes longer than `make test` should);
// tests/formats/armnn/test_limits.cc checks the same path at 200k layers.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <span>

#include "chain_model.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/armnn.h"

int main(int argc, char** argv) {
  using clock = std::chrono::steady_clock;
  const std::size_t layers = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1'000'000;
  auto t0 = clock::now();
  auto bytes = std::make_shared<std::vector<uint8_t>>(nnbridge::test::armnn::relu_chain(layers));
  auto t1 = clock::now();
  if (argc > 2) std::ofstream(argv[2], std::ios::binary).write(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  try {
    nnbridge::Source src{std::as_bytes(std::span<const uint8_t>(*bytes)), bytes, "large.armnn", {}};
    auto t2 = clock::now();
    nnbridge::Graph g = nnbridge::formats::armnn::format_handler().read(src, {});
    auto t3 = clock::now();
    auto s = [](auto a, auto b) { return std::chrono::duration<double>(b - a).count(); };
    std::printf("layers %zu, file %zu bytes, built in %.2f s; loaded %zu nodes, %zu values in %.2f s\n", layers,
                bytes->size(), s(t0, t1), g.nodes.size(), g.values.size(), s(t2, t3));
    return g.nodes.size() == layers + 1 ? 0 : 1;
  } catch (const nnbridge::Error& e) {
    std::fprintf(stderr, "nnbridge-armnn-large-graph: %s\n", e.what());
    return 3;
  }
}
