// libFuzzer harness for one graph format's reader, through its FormatHandler (NNBRIDGE_FUZZ_FORMAT:
// armnn, vkgraph, vkdelegate, afcm; NNBRIDGE_FUZZ_HANDLER: the function returning it): bytes ->
// read -> check() -> write in the same format -> read of what was written. Linking the one
// format library (not nnbridge_io) keeps each harness's coverage on its own reader.
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

nnbridge::Graph read(const nnbridge::FormatHandler& h, std::shared_ptr<std::vector<uint8_t>> bytes) {
  nnbridge::Source src{std::as_bytes(std::span<const uint8_t>(*bytes)), bytes, "fuzz." NNBRIDGE_FUZZ_FORMAT, {}};
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
  std::ifstream in(out, std::ios::binary);
  auto again = std::make_shared<std::vector<uint8_t>>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  fuzz::clean([&] { (void)read(handler, again); });
  return 0;
}
