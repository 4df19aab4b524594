// libFuzzer harness for NumPy .npy decoding (sdk/exec npy.h): bytes -> parse_npy() ->
// encode_npy() -> parse_npy() of what was written.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness.h"
#include "nnbridge/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace nnbridge;
  HostTensor t;
  if (!fuzz::clean([&] { t = parse_npy(fuzz::as_bytes(data, size)); })) return 0;
  std::vector<std::byte> again;
  if (!fuzz::clean([&] { again = encode_npy(t); })) return 0;
  fuzz::clean([&] { (void)parse_npy(again); });
  return 0;
}
