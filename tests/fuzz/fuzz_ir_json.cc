// Fuzz harness for the IR's JSON form (sdk/core json.h): text -> from_json() -> check()
// -> to_json() -> from_json() of what was written, which must succeed, agree with the first
// read (harness.h expect_same_graph) and write the same text again (json.h: the writer is
// deterministic and the form round-trips a Graph exactly).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "harness.h"
#include "nnbridge/check.h"
#include "nnbridge/json.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace nnbridge;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Graph g;
  if (!fuzz::clean([&] { g = from_json(text); })) return 0;
  (void)check(g);
  std::string written;
  if (!fuzz::clean([&] { written = to_json(g); })) return 0;
  Graph back;
  fuzz::must("read back the IR JSON to_json() wrote", [&] { back = from_json(written); });
  fuzz::expect_same_graph(g, back, "IR JSON write then read");
  std::string again;
  fuzz::must("write the IR JSON read back", [&] { again = to_json(back); });
  fuzz::expect_same_text(written, again, "IR JSON written, read back and written again");
  fuzz::completed();
  return 0;
}
