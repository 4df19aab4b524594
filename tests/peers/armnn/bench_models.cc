// Larger networks, written by Arm NN's serializer: the bundled example models and the load
// benchmark's files (a 10,000-layer chain and a network holding 256 MiB of weights).
#include <armnnSerializer/ISerializer.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "harness.h"

namespace peer {
namespace {

void save(Builder& b, const std::filesystem::path& path) {
  auto s = armnnSerializer::ISerializer::Create();
  s->Serialize(b.net());
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  if (!s->SaveSerializedToStream(f) || !f) throw std::runtime_error("cannot write " + path.string());
  f.close();
  std::cout << path.string() << "\n";
}

/// Saves an example model as OUTDIR/<name>.armnn with its generated inputs in OUTDIR/<name>/inputs/
/// and the outputs Arm NN CpuRef computes from the saved file (deserialized, as `run` does) in
/// OUTDIR/<name>/outputs/.
void save_example(Builder& b, const std::filesystem::path& outdir, const std::string& name) {
  const auto model = outdir / (name + ".armnn");
  save(b, model);
  const auto inputs = outdir / name / "inputs";
  std::filesystem::create_directories(inputs);
  for (size_t i = 0; i < b.inputs().size(); ++i)
    write_npy(inputs / (b.inputs()[i].name + ".npy"), b.input_data()[i]);
  if (cmd_run(model.string(), inputs.string(), (outdir / name / "outputs").string()) != 0)
    throw std::runtime_error("Arm NN CpuRef cannot run " + model.string());
}

}  // namespace

int cmd_examples(const std::string& outdir) {
  std::filesystem::create_directories(outdir);
  {  // A small image classifier: conv 3x3 + ReLU, max-pool, fully connected, softmax.
    Builder b("conv_relu_fc");
    armnn::Convolution2dDescriptor cd;
    cd.m_PadLeft = cd.m_PadRight = cd.m_PadTop = cd.m_PadBottom = 1;
    cd.m_StrideX = cd.m_StrideY = 1;
    cd.m_BiasEnabled = true;
    cd.m_DataLayout = armnn::DataLayout::NHWC;
    auto& x = b.input("image", tinfo({1, 8, 8, 1}), 0, 1);
    auto& c = b.op("Convolution2d", b.net().AddConvolution2dLayer(cd, b.constant(tinfo({4, 3, 3, 1})),
                   armnn::Optional<armnn::ConstTensor>(b.constant(tinfo({4}))), "conv"), {&x}, tinfo({1, 8, 8, 4}));
    armnn::ActivationDescriptor ad;
    ad.m_Function = armnn::ActivationFunction::ReLu;
    auto& r = b.op("Activation", b.net().AddActivationLayer(ad, "relu"), {&c}, tinfo({1, 8, 8, 4}));
    armnn::Pooling2dDescriptor pd;
    pd.m_PoolType = armnn::PoolingAlgorithm::Max;
    pd.m_PoolWidth = pd.m_PoolHeight = pd.m_StrideX = pd.m_StrideY = 2;
    pd.m_DataLayout = armnn::DataLayout::NHWC;
    auto& p = b.op("Pooling2d", b.net().AddPooling2dLayer(pd, "pool"), {&r}, tinfo({1, 4, 4, 4}));
    armnn::FullyConnectedDescriptor fd;
    fd.m_BiasEnabled = true;
    fd.m_TransposeWeightMatrix = true;
    auto& f = b.op("FullyConnected", b.net().AddFullyConnectedLayer(fd, b.constant(tinfo({10, 64}), -0.2, 0.2),
                   armnn::Optional<armnn::ConstTensor>(b.constant(tinfo({10}))), "fc"), {&p}, tinfo({1, 10}));
    armnn::SoftmaxDescriptor sd;
    b.output("probs", b.op("Softmax", b.net().AddSoftmaxLayer(sd, "softmax"), {&f}, tinfo({1, 10})));
    save_example(b, outdir, "conv_relu_fc");
  }
  {  // Addition then softmax.
    Builder b("add_softmax");
    auto& a = b.input("a", tinfo({1, 8}));
    auto& c = b.input("b", tinfo({1, 8}));
    auto& s = b.op("Addition", b.net().AddAdditionLayer("add"), {&a, &c}, tinfo({1, 8}));
    b.output("probs", b.op("Softmax", b.net().AddSoftmaxLayer(armnn::SoftmaxDescriptor(), "softmax"), {&s}, tinfo({1, 8})));
    save_example(b, outdir, "add_softmax");
  }
  {  // A quantized pair: uint8 addition then ReLU.
    Builder b("quant_add_relu");
    auto t = tinfo({1, 16}, armnn::DataType::QAsymmU8, 0.05f, 128);
    auto& a = b.input("qa", t, 0, 255);
    auto& c = b.input("qb", t, 0, 255);
    auto& s = b.op("Addition", b.net().AddAdditionLayer("qadd"), {&a, &c}, tinfo({1, 16}, armnn::DataType::QAsymmU8, 0.1f, 128));
    armnn::ActivationDescriptor ad;
    ad.m_Function = armnn::ActivationFunction::ReLu;
    b.output("qy", b.op("Activation", b.net().AddActivationLayer(ad, "relu"), {&s}, tinfo({1, 16}, armnn::DataType::QAsymmU8, 0.1f, 128)));
    save_example(b, outdir, "quant_add_relu");
  }
  return 0;
}

int cmd_bench_models(const std::string& outdir) {
  std::filesystem::create_directories(outdir);
  {  // 10,000 layers: alternating ReLU activations and additions of the running sum with the input.
    Builder b("chain_10k");
    const auto t = tinfo({1, 16});
    auto* x = &b.input("x", t);
    auto* cur = x;
    armnn::ActivationDescriptor ad;
    ad.m_Function = armnn::ActivationFunction::ReLu;
    for (int i = 0; i < 4999; ++i) {
      cur = &b.op("Activation", b.net().AddActivationLayer(ad, ("relu_" + std::to_string(i)).c_str()), {cur}, t);
      cur = &b.op("Addition", b.net().AddAdditionLayer(("add_" + std::to_string(i)).c_str()), {cur, x}, t);
    }
    b.output("y", *cur);  // 1 + 9998 + 1 = 10,000 layers
    save(b, std::filesystem::path(outdir) / "chain_10k.armnn");
  }
  {  // 256 MiB of float32 weights: four FullyConnected layers of 4096x4096.
    Builder b("weights_256mib");
    const unsigned n = 4096;
    auto* cur = &b.input("x", tinfo({1, n}));
    armnn::FullyConnectedDescriptor fd;
    fd.m_BiasEnabled = false;
    fd.m_TransposeWeightMatrix = true;
    for (int i = 0; i < 4; ++i)
      cur = &b.op("FullyConnected", b.net().AddFullyConnectedLayer(fd, b.constant(tinfo({n, n}), -0.01, 0.01), armnn::EmptyOptional(),
                                                                 ("fc_" + std::to_string(i)).c_str()), {cur}, tinfo({1, n}));
    b.output("y", *cur);
    save(b, std::filesystem::path(outdir) / "weights_256mib.armnn");
  }
  return 0;
}

}  // namespace peer
