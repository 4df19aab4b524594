// Fuzz harness for ONNX TensorProto files (the conformance runner's input_<i>.pb / output_<j>.pb,
// sdk/conformance read_tensor_proto): bytes -> a file -> read_tensor_proto(), whose tensor must
// then hold as many bytes as its type says (encode_npy() checks that) and survive an .npy
// write and read unchanged.
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <vector>

#include "harness.h"
#include "internal.h"  // sdk/conformance/src: read_tensor_proto
#include "nnbridge/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  using namespace nnbridge;
  const auto& path = fuzz::scratch_file(".pb");
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  HostTensor t;
  if (!fuzz::clean([&] { t = conformance::read_tensor_proto(path); })) return 0;
  std::vector<std::byte> npy;
  if (!fuzz::clean([&] { npy = encode_npy(t); })) return 0;  // a dtype .npy has no form for
  HostTensor back;
  fuzz::must("read back the .npy of the tensor", [&] { back = parse_npy(npy); });
  fuzz::expect_same_tensor(t, back, "TensorProto read, then .npy write and read");
  fuzz::completed();
  return 0;
}
