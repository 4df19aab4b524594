// float16 graphs on opencl: computed in float32 on the device and rounded to binary16 after each
// node by cpu's own conversion (gpu.h), so the bits equal cpu's. Inputs and expected outputs are
// IEEE binary16 bit patterns worked out by hand (10 fraction bits, ulp 2^-10 at 1; ties away
// from zero, the half library's default that Arm NN's Half.hpp uses, as cpu does).
#include <doctest/doctest.h>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/gpu.h"
#include "support/paths.h"

using namespace nnbridge;

TEST_CASE("opencl float16: y = (x0 + x1) + x1 rounded per node, bit-equal to cpu") {
  if (gpu::list_devices().empty()) {
    test::skip("no OpenCL platform or device (install pocl-opencl-icd)");
    return;
  }
  const TensorType t{DataType::Float16, {4}, false, std::nullopt};
  Graph g;
  for (const char* name : {"x0", "x1", "z", "y"}) g.values.push_back(Value{name, t, {}, {}});
  g.nodes.push_back(Node{"Add", "a1", {0, 1}, {2}, {}});
  g.nodes.push_back(Node{"Add", "a2", {2, 1}, {3}, {}});
  g.inputs = {0, 1};
  g.outputs = {3};
  TensorMap in;
  // x0 = [1, 1, 65504, -1], x1 = [2^-12, 2^-11, 65504, -2^-11].
  in["x0"] = HostTensor::from_values<uint16_t>(t, std::vector<uint16_t>{0x3C00, 0x3C00, 0x7BFF, 0xBC00});
  in["x1"] = HostTensor::from_values<uint16_t>(t, std::vector<uint16_t>{0x0C00, 0x1000, 0x7BFF, 0x9000});
  // [0] 1 + 2^-12 -> 1 (under half an ulp), twice -> 1 (0x3C00); in float32 throughout it would
  //     be 1 + 2^-11, a tie -> 0x3C01.
  // [1] 1 + 2^-11 (tie) -> 1 + 2^-10; + 2^-11 = 1 + 3 * 2^-11 (tie) -> 1 + 2^-9 (0x3C02); in
  //     float32 throughout 1 + 2^-10 exactly (0x3C01).
  // [2] 65504 + 65504 overflows -> +inf; inf + 65504 = +inf (0x7C00).
  // [3] the mirror of [1]: 0xBC02.
  const std::vector<uint16_t> want{0x3C00, 0x3C02, 0x7C00, 0xBC02};
  const TensorMap out = gpu::backend()->prepare(g, {})->run(in);
  REQUIRE(out.at("y").dtype() == DataType::Float16);
  auto y = out.at("y").values<uint16_t>();
  CHECK(std::vector<uint16_t>(y.begin(), y.end()) == want);
  const TensorMap ref = cpu_ref::backend()->prepare(g, {})->run(in);
  auto r = ref.at("y").values<uint16_t>();
  CHECK(std::vector<uint16_t>(r.begin(), r.end()) == std::vector<uint16_t>(y.begin(), y.end()));
}
