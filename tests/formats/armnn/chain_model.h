// Large Arm NN networks for the verifier-limit tests, built with FlatBuffers' own builder from
// the released schema (not with nnbridge's writer): Input -> `layers` Activation (ReLU) layers
// in a chain -> Output, every tensor Float32 [1, 4].
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace nnbridge::test::armnn {

/// The bytes of that SerializedGraph (no file identifier, as Arm NN writes). Tables per
/// Activation layer: AnyLayer, ActivationLayer, LayerBase, InputSlot, OutputSlot, TensorInfo,
/// ActivationDescriptor (7), so `layers` = 150'000 passes FlatBuffers' default of 1M tables.
std::vector<uint8_t> relu_chain(std::size_t layers);

}  // namespace nnbridge::test::armnn
