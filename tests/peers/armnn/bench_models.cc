// Larger networks, written by Arm NN's serializer: the bundled example models, the load
// benchmark's files (a 10,000-layer chain and a network holding 256 MiB of weights) and the run
// benchmark's MobileNet v1.
#include <armnnSerializer/ISerializer.hpp>

#include <algorithm>
#include <cmath>
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

// "SAME" padding of TensorFlow for one spatial dim: output ceil(in / stride), the total padding
// split with the extra row at the end (MobileNet's published graphs use it).
std::pair<unsigned, unsigned> same_pad(unsigned in, unsigned k, unsigned stride, unsigned& out) {
  out = (in + stride - 1) / stride;
  const int total = std::max(0, static_cast<int>((out - 1) * stride + k) - static_cast<int>(in));
  return {static_cast<unsigned>(total / 2), static_cast<unsigned>(total - total / 2)};
}

// BatchNormalization (random statistics) then ReLU6 (BoundedReLu a = 6, b = 0), NHWC.
armnn::IOutputSlot& bn_relu6(Builder& b, armnn::IOutputSlot& x, const armnn::TensorInfo& t, const std::string& name) {
  armnn::BatchNormalizationDescriptor d;
  d.m_DataLayout = armnn::DataLayout::NHWC;
  d.m_Eps = 1e-3f;
  const auto c = tinfo({t.GetShape()[3]});
  auto mean = b.constant(c, -0.1, 0.1), var = b.constant(c, 0.5, 2), beta = b.constant(c, -0.1, 0.1),
       gamma = b.constant(c, 0.5, 1.5);
  auto& y = b.op("BatchNormalization", b.net().AddBatchNormalizationLayer(d, mean, var, beta, gamma, (name + "_bn").c_str()), {&x}, t);
  armnn::ActivationDescriptor ad;
  ad.m_Function = armnn::ActivationFunction::BoundedReLu;
  ad.m_A = 6;
  ad.m_B = 0;
  return b.op("Activation", b.net().AddActivationLayer(ad, (name + "_relu6").c_str()), {&y}, t);
}

// MobileNet v1 (Howard et al. 2017, width 1.0) on a 112x112x3 NHWC image: a 3x3/2 convolution,
// 13 depthwise-separable blocks (3x3 depthwise + 1x1 pointwise, each followed by batch
// normalization and ReLU6), global average pooling, a 1000-way FullyConnected layer, softmax.
// Convolution weights are uniform in +-sqrt(6 / fan_in) (He et al. 2015), the classifier's in
// +-1 so that the softmax is far from uniform.
void mobilenet_v1(Builder& b) {
  const unsigned n = 112;
  unsigned h = n, c = 3, oh = 0;
  auto* cur = &b.input("image", tinfo({1, n, n, 3}), -1, 1);
  auto bound = [](unsigned fan_in) { return std::sqrt(6.0 / fan_in); };
  {
    armnn::Convolution2dDescriptor d;
    auto [p0, p1] = same_pad(h, 3, 2, oh);
    d.m_PadTop = d.m_PadLeft = p0;
    d.m_PadBottom = d.m_PadRight = p1;
    d.m_StrideX = d.m_StrideY = 2;
    d.m_BiasEnabled = false;
    d.m_DataLayout = armnn::DataLayout::NHWC;
    const auto t = tinfo({1, oh, oh, 32});
    cur = &b.op("Convolution2d", b.net().AddConvolution2dLayer(d, b.constant(tinfo({32, 3, 3, c}), -bound(27), bound(27)),
                                                                 armnn::EmptyOptional(), "conv0"), {cur}, t);
    cur = &bn_relu6(b, *cur, t, "conv0");
    h = oh, c = 32;
  }
  const std::pair<unsigned, unsigned> blocks[] = {{64, 1},  {128, 2}, {128, 1}, {256, 2}, {256, 1}, {512, 2}, {512, 1},
                                                  {512, 1}, {512, 1}, {512, 1}, {512, 1}, {1024, 2}, {1024, 1}};
  int i = 1;
  for (const auto& [co, stride] : blocks) {
    const std::string name = "block" + std::to_string(i++);
    armnn::DepthwiseConvolution2dDescriptor dd;
    auto [p0, p1] = same_pad(h, 3, stride, oh);
    dd.m_PadTop = dd.m_PadLeft = p0;
    dd.m_PadBottom = dd.m_PadRight = p1;
    dd.m_StrideX = dd.m_StrideY = stride;
    dd.m_BiasEnabled = false;
    dd.m_DataLayout = armnn::DataLayout::NHWC;
    const auto td = tinfo({1, oh, oh, c});
    // Arm NN 20.08 depthwise weights: [M, I, H, W].
    cur = &b.op("DepthwiseConvolution2d",
                b.net().AddDepthwiseConvolution2dLayer(dd, b.constant(tinfo({1, c, 3, 3}), -bound(9), bound(9)),
                                                       armnn::EmptyOptional(), (name + "_dw").c_str()), {cur}, td);
    cur = &bn_relu6(b, *cur, td, name + "_dw");
    armnn::Convolution2dDescriptor pd;
    pd.m_StrideX = pd.m_StrideY = 1;
    pd.m_BiasEnabled = false;
    pd.m_DataLayout = armnn::DataLayout::NHWC;
    const auto tp = tinfo({1, oh, oh, co});
    cur = &b.op("Convolution2d", b.net().AddConvolution2dLayer(pd, b.constant(tinfo({co, 1, 1, c}), -bound(c), bound(c)),
                                                                 armnn::EmptyOptional(), (name + "_pw").c_str()), {cur}, tp);
    cur = &bn_relu6(b, *cur, tp, name + "_pw");
    h = oh, c = co;
  }
  armnn::Pooling2dDescriptor pool;
  pool.m_PoolType = armnn::PoolingAlgorithm::Average;
  pool.m_PoolWidth = pool.m_PoolHeight = h;
  pool.m_StrideX = pool.m_StrideY = 1;
  pool.m_DataLayout = armnn::DataLayout::NHWC;
  cur = &b.op("Pooling2d", b.net().AddPooling2dLayer(pool, "avgpool"), {cur}, tinfo({1, 1, 1, c}));
  armnn::FullyConnectedDescriptor fd;
  fd.m_BiasEnabled = true;
  fd.m_TransposeWeightMatrix = true;
  cur = &b.op("FullyConnected", b.net().AddFullyConnectedLayer(fd, b.constant(tinfo({1000, c}), -1, 1),
                                                              armnn::Optional<armnn::ConstTensor>(b.constant(tinfo({1000}), -0.1, 0.1)),
                                                              "fc"), {cur}, tinfo({1, 1000}));
  b.output("probs", b.op("Softmax", b.net().AddSoftmaxLayer(armnn::SoftmaxDescriptor(), "softmax"), {cur}, tinfo({1, 1000})));
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

int cmd_bench_models(const std::string& outdir, const std::string& only) {
  std::filesystem::create_directories(outdir);
  auto wanted = [&](const char* name) { return only.empty() || only == name; };
  if (wanted("mobilenet_v1")) {  // the run benchmark's network, with its input and Arm NN CpuRef's output
    Builder b("mobilenet_v1");
    mobilenet_v1(b);
    save_example(b, outdir, "mobilenet_v1");
  }
  if (wanted("chain_10k")) {  // 10,000 layers: alternating ReLU activations and additions of the running sum with the input.
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
  if (wanted("weights_256mib")) {  // 256 MiB of float32 weights: four FullyConnected layers of 4096x4096.
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
