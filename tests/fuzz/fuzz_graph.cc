// Fuzz harness for one graph format's reader, through its FormatHandler (NNBRIDGE_FUZZ_FORMAT:
// armnn, vkgraph, vkdelegate, pte, ptd, afcm; NNBRIDGE_FUZZ_HANDLER: the function returning it):
// bytes -> read -> check() -> write in the same format -> read of what was written, which must
// succeed and agree with the first read (harness.h expect_same_graph). Linking the one format
// library (not nnbridge_io) keeps each harness's coverage on its own reader.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

#include "harness.h"
#include "nnbridge/check.h"
#include "nnbridge/format.h"
#include NNBRIDGE_FUZZ_HEADER

#ifndef NNBRIDGE_FUZZ_FORMAT
#error "define NNBRIDGE_FUZZ_FORMAT, NNBRIDGE_FUZZ_HEADER and NNBRIDGE_FUZZ_HANDLER"
#endif

namespace {

nnbridge::Graph read(const nnbridge::FormatHandler& h, std::shared_ptr<std::vector<uint8_t>> bytes,
                     const std::filesystem::path& path = {}) {
  nnbridge::Source src{std::as_bytes(std::span<const uint8_t>(*bytes)), bytes, "fuzz." NNBRIDGE_FUZZ_FORMAT, path};
  return h.read(src, {});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace nnbridge;
  static const FormatHandler handler = NNBRIDGE_FUZZ_HANDLER();
  Graph g;
  auto bytes = std::make_shared<std::vector<uint8_t>>(data, data + size);
  if (!fuzz::clean([&] { g = read(handler, bytes); })) return 0;
  (void)check(g);  // never throws (check.h)
  const auto& out = fuzz::scratch_file("." NNBRIDGE_FUZZ_FORMAT);
  if (!fuzz::clean([&] { handler.write(g, out, {}); })) return 0;
  // The writer accepted the graph: its file must read back (with its path, so that files the
  // writer put beside it are found) and agree with the first read.
  std::ifstream in(out, std::ios::binary);
  auto again = std::make_shared<std::vector<uint8_t>>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  Graph back;
  fuzz::must("read back the " NNBRIDGE_FUZZ_FORMAT " file the writer wrote", [&] { back = read(handler, again, out); });
  fuzz::expect_same_graph(g, back, NNBRIDGE_FUZZ_FORMAT " write then read");
  fuzz::completed();
  return 0;
}
