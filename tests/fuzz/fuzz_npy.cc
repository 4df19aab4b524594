// Fuzz harness for NumPy .npy decoding (sdk/exec npy.h): bytes -> parse_npy() -> encode_npy()
// -> parse_npy() of what was written, which must succeed and give the same type and bytes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "harness.h"
#include "nnbridge/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace nnbridge;
  HostTensor t;
  if (!fuzz::clean([&] { t = parse_npy(fuzz::as_bytes(data, size)); })) return 0;
  std::vector<std::byte> written;
  if (!fuzz::clean([&] { written = encode_npy(t); })) return 0;
  HostTensor back;
  fuzz::must("read back the .npy encode_npy() wrote", [&] { back = parse_npy(written); });
  fuzz::expect_same_tensor(t, back, ".npy write then read");
  fuzz::completed();
  return 0;
}
