// libFuzzer harness for the IR's JSON form (sdk/core json.h): text -> from_json() -> check()
// -> to_json() -> from_json() of what was written.
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
  std::string again;
  if (!fuzz::clean([&] { again = to_json(g); })) return 0;
  fuzz::clean([&] { (void)from_json(again); });
  return 0;
}
