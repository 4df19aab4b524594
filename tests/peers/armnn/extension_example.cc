// `nnbridge-armnn-peer extension-example OUTDIR`: the model of the example cpu extension
// (examples/extension/README.md), written by Arm NN's serializer: Input "x" [2, 4] float32 ->
// StandIn layer "ScaledTanh" (1 input, 1 output, [2, 4]) -> Output "y". Arm NN CpuRef cannot run a
// StandIn layer, so only the model and its input (OUTDIR/inputs/x.npy) are written.
#include <armnnSerializer/ISerializer.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "harness.h"

namespace peer {

int cmd_extension_example(const std::string& outdir) {
  const std::filesystem::path dir(outdir);
  std::filesystem::create_directories(dir / "inputs");
  Builder b("extension_scaled_tanh");
  auto& x = b.input("x", tinfo({2, 4}), -3, 3);
  b.output("y", b.op("StandIn", b.net().AddStandInLayer(armnn::StandInDescriptor(1, 1), "ScaledTanh"), {&x}, tinfo({2, 4})));
  const auto model = dir / "scaled_tanh.armnn";
  auto s = armnnSerializer::ISerializer::Create();
  s->Serialize(b.net());
  std::ofstream f(model, std::ios::binary | std::ios::trunc);
  if (!s->SaveSerializedToStream(f) || !f) throw std::runtime_error("cannot write " + model.string());
  f.close();
  write_npy(dir / "inputs" / "x.npy", b.input_data()[0]);
  std::cout << model.string() << "\n";
  return 0;
}

}  // namespace peer
