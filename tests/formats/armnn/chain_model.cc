#include "chain_model.h"

#include <string>

#include "armnn/ArmnnSchema_generated.h"

namespace nnbridge::test::armnn {

namespace fb = ::armnnSerializer;

std::vector<uint8_t> relu_chain(std::size_t layers) {
  flatbuffers::FlatBufferBuilder b(layers * 256 + 1024);
  const uint32_t dims[] = {1, 4};
  auto out_slot = [&] {
    auto info = fb::CreateTensorInfo(b, b.CreateVector(dims, 2), fb::DataType::Float32);
    return b.CreateVector(std::vector{fb::CreateOutputSlot(b, 0, info)});
  };
  auto in_slot = [&](uint32_t source) {
    const fb::Connection c(source, 0);
    return b.CreateVector(std::vector{fb::CreateInputSlot(b, 0, &c)});
  };
  std::vector<flatbuffers::Offset<fb::AnyLayer>> all;
  all.reserve(layers + 2);
  {
    // Arm NN writes both slot vectors on every layer, empty ones included.
    auto base = fb::CreateLayerBase(b, 0, b.CreateString("x"), fb::LayerType::Input,
                                    b.CreateVector(std::vector<flatbuffers::Offset<fb::InputSlot>>{}), out_slot());
    auto input = fb::CreateInputLayer(b, fb::CreateBindableLayerBase(b, base, 0));
    all.push_back(fb::CreateAnyLayer(b, fb::Layer::InputLayer, input.Union()));
  }
  for (std::size_t i = 1; i <= layers; ++i) {
    const auto index = static_cast<uint32_t>(i);
    auto base = fb::CreateLayerBase(b, index, b.CreateString("relu" + std::to_string(i)), fb::LayerType::Activation,
                                    in_slot(index - 1), out_slot());
    auto desc = fb::CreateActivationDescriptor(b, fb::ActivationFunction::ReLu);
    all.push_back(fb::CreateAnyLayer(b, fb::Layer::ActivationLayer, fb::CreateActivationLayer(b, base, desc).Union()));
  }
  {
    const auto index = static_cast<uint32_t>(layers + 1);
    auto base = fb::CreateLayerBase(b, index, b.CreateString("y"), fb::LayerType::Output, in_slot(index - 1),
                                    b.CreateVector(std::vector<flatbuffers::Offset<fb::OutputSlot>>{}));
    auto output = fb::CreateOutputLayer(b, fb::CreateBindableLayerBase(b, base, 0));
    all.push_back(fb::CreateAnyLayer(b, fb::Layer::OutputLayer, output.Union()));
  }
  const int32_t in_ids[] = {0};
  const int32_t out_ids[] = {static_cast<int32_t>(layers + 1)};
  b.Finish(fb::CreateSerializedGraph(b, b.CreateVector(all), b.CreateVector(in_ids, 1), b.CreateVector(out_ids, 1)));
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

}  // namespace nnbridge::test::armnn
