#include <armnn/Exceptions.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <ctime>
#include <stdexcept>

#include "harness.h"

namespace peer {

Rng::Rng(const std::string& seed) : state_(1469598103934665603ull) {
  for (unsigned char c : seed) state_ = (state_ ^ c) * 1099511628211ull;  // FNV-1a of the case name
}

uint64_t Rng::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

float Rng::uniform(float lo, float hi) {
  // 24 random bits: exactly representable steps, so every platform gets the same floats.
  const float u = static_cast<float>(next() >> 40) / 16777216.0f;
  return lo + (hi - lo) * u;
}

int64_t Rng::integer(int64_t lo, int64_t hi) {
  return lo + static_cast<int64_t>(next() % static_cast<uint64_t>(hi - lo + 1));
}

std::string npy_descr(armnn::DataType t) {
  switch (t) {
    case armnn::DataType::Float16: return "<f2";
    case armnn::DataType::Float32: return "<f4";
    case armnn::DataType::QAsymmU8: return "|u1";
    case armnn::DataType::QAsymmS8:
    case armnn::DataType::QSymmS8: return "|i1";
    case armnn::DataType::QSymmS16: return "<i2";
    case armnn::DataType::Signed32: return "<i4";
    case armnn::DataType::Boolean: return "|b1";
    default: throw std::runtime_error("no NumPy dtype for this Arm NN data type");
  }
}

armnn::TensorInfo tinfo(std::vector<unsigned> shape, armnn::DataType t, float scale, int32_t offset) {
  return armnn::TensorInfo(armnn::TensorShape(static_cast<unsigned>(shape.size()), shape.data()), t, scale, offset);
}

// IEEE 754 binary16 from binary32, round to nearest even; enough for the small values used here.
static uint16_t to_half(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  const uint32_t sign = (x >> 16) & 0x8000u;
  const int32_t exp = static_cast<int32_t>((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (exp <= 0) return static_cast<uint16_t>(sign);  // flush tiny values to zero
  if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
  uint32_t h = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
  const uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
  return static_cast<uint16_t>(h);
}

static void put(std::vector<uint8_t>& bytes, size_t i, armnn::DataType t, double v, const armnn::TensorInfo& info,
                bool raw) {
  auto clampq = [](double q, double lo, double hi) { return std::min(hi, std::max(lo, std::nearbyint(q))); };
  auto quant = [&](double lo, double hi) {
    return raw ? clampq(v, lo, hi) : clampq(v / info.GetQuantizationScale() + info.GetQuantizationOffset(), lo, hi);
  };
  switch (t) {
    case armnn::DataType::Float32: { float f = static_cast<float>(v); std::memcpy(&bytes[i * 4], &f, 4); break; }
    case armnn::DataType::Float16: { uint16_t h = to_half(static_cast<float>(v)); std::memcpy(&bytes[i * 2], &h, 2); break; }
    case armnn::DataType::QAsymmU8: bytes[i] = static_cast<uint8_t>(quant(0, 255)); break;
    case armnn::DataType::QAsymmS8:
    case armnn::DataType::QSymmS8: bytes[i] = static_cast<uint8_t>(static_cast<int8_t>(quant(-128, 127))); break;
    case armnn::DataType::QSymmS16: { int16_t s = static_cast<int16_t>(quant(-32768, 32767)); std::memcpy(&bytes[i * 2], &s, 2); break; }
    case armnn::DataType::Signed32: { int32_t s = static_cast<int32_t>(std::nearbyint(v)); std::memcpy(&bytes[i * 4], &s, 4); break; }
    case armnn::DataType::Boolean: bytes[i] = v != 0 ? 1 : 0; break;
    default: throw std::runtime_error("unsupported data type in harness");
  }
}

Builder::Builder(const std::string& case_name) : net_(armnn::INetwork::Create()), rng_(case_name) {}

void Builder::note(const char* type) {
  for (const auto& t : types_) if (t == type) return;
  types_.emplace_back(type);
}

std::vector<uint8_t> Builder::random_bytes(const armnn::TensorInfo& info, double lo, double hi) {
  std::vector<uint8_t> bytes(info.GetNumBytes());
  const auto t = info.GetDataType();
  const bool integral = t != armnn::DataType::Float32 && t != armnn::DataType::Float16;
  for (size_t i = 0; i < info.GetNumElements(); ++i) {
    double v = integral ? static_cast<double>(rng_.integer(static_cast<int64_t>(lo), static_cast<int64_t>(hi)))
                        : rng_.uniform(static_cast<float>(lo), static_cast<float>(hi));
    put(bytes, i, t, v, info, /*raw=*/true);
  }
  return bytes;
}

armnn::IOutputSlot& Builder::input(const char* name, const armnn::TensorInfo& info, double lo, double hi) {
  const auto id = static_cast<armnn::LayerBindingId>(inputs_.size());
  auto* layer = net_->AddInputLayer(id, name);
  layer->GetOutputSlot(0).SetTensorInfo(info);
  note("Input");
  inputs_.push_back({name, id});
  NpyArray a;
  a.descr = npy_descr(info.GetDataType());
  for (unsigned d = 0; d < info.GetNumDimensions(); ++d) a.shape.push_back(info.GetShape()[d]);
  a.data = random_bytes(info, lo, hi);
  input_data_.push_back(std::move(a));
  return layer->GetOutputSlot(0);
}

void Builder::output(const char* name, armnn::IOutputSlot& src) {
  const auto id = static_cast<armnn::LayerBindingId>(outputs_.size());
  auto* layer = net_->AddOutputLayer(id, name);
  src.Connect(layer->GetInputSlot(0));
  note("Output");
  outputs_.push_back({name, id});
}

armnn::IConnectableLayer* Builder::add(const char* type, armnn::IConnectableLayer* layer,
                                       std::initializer_list<armnn::IOutputSlot*> ins,
                                       std::vector<armnn::TensorInfo> outs) {
  unsigned slot = 0;
  for (auto* src : ins) src->Connect(layer->GetInputSlot(slot++));
  for (unsigned i = 0; i < outs.size(); ++i) layer->GetOutputSlot(i).SetTensorInfo(outs[i]);
  note(type);
  return layer;
}

armnn::ConstTensor Builder::constant(const armnn::TensorInfo& info, double lo, double hi) {
  storage_.push_back(random_bytes(info, lo, hi));
  return armnn::ConstTensor(info, storage_.back().data());
}

armnn::ConstTensor Builder::constant_of(const armnn::TensorInfo& info, const std::vector<double>& values) {
  if (values.size() != info.GetNumElements()) throw std::runtime_error("constant_of: element count mismatch");
  std::vector<uint8_t> bytes(info.GetNumBytes());
  for (size_t i = 0; i < values.size(); ++i) put(bytes, i, info.GetDataType(), values[i], info, /*raw=*/false);
  storage_.push_back(std::move(bytes));
  return armnn::ConstTensor(info, storage_.back().data());
}

std::vector<NpyArray> run_on_cpuref(const armnn::INetwork& net,
                                    const std::vector<std::pair<armnn::LayerBindingId, const NpyArray*>>& inputs,
                                    const std::vector<armnn::LayerBindingId>& outputs, CpuRefTiming* timing) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  armnn::IRuntime::CreationOptions options;
  options.m_DynamicBackendsPath = kDynamicBackendsPath;
  armnn::IRuntimePtr runtime = armnn::IRuntime::Create(options);
  std::vector<std::string> messages;
  armnn::IOptimizedNetworkPtr opt = armnn::Optimize(net, {armnn::BackendId("CpuRef")}, runtime->GetDeviceSpec(),
                                                    armnn::OptimizerOptions(), messages);
  if (!opt) {
    std::string m = "Optimize for CpuRef failed";
    for (const auto& s : messages) m += ": " + s;
    throw std::runtime_error(m);
  }
  armnn::NetworkId id = 0;
  std::string error;
  if (runtime->LoadNetwork(id, std::move(opt), error) != armnn::Status::Success)
    throw std::runtime_error("LoadNetwork failed: " + error);
  armnn::InputTensors in;
  for (const auto& [bid, arr] : inputs) {
    const armnn::TensorInfo info = runtime->GetInputTensorInfo(id, bid);
    if (arr->data.size() != info.GetNumBytes())
      throw std::runtime_error("input " + std::to_string(bid) + " has " + std::to_string(arr->data.size()) +
                               " bytes, the network expects " + std::to_string(info.GetNumBytes()));
    in.emplace_back(bid, armnn::ConstTensor(info, arr->data.data()));
  }
  std::vector<NpyArray> result(outputs.size());
  armnn::OutputTensors out;
  for (size_t i = 0; i < outputs.size(); ++i) {
    const armnn::TensorInfo info = runtime->GetOutputTensorInfo(id, outputs[i]);
    result[i].descr = npy_descr(info.GetDataType());
    for (unsigned d = 0; d < info.GetNumDimensions(); ++d) result[i].shape.push_back(info.GetShape()[d]);
    result[i].data.assign(info.GetNumBytes(), 0);
    out.emplace_back(outputs[i], armnn::Tensor(info, result[i].data.data()));
  }
  if (timing) timing->prepare_s = std::chrono::duration<double>(Clock::now() - t0).count();
  auto cpu_s = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  for (int r = 0; r < (timing ? std::max(timing->runs, 1) : 1); ++r) {
    const auto t1 = Clock::now();
    const double c1 = cpu_s();
    if (runtime->EnqueueWorkload(id, in, out) != armnn::Status::Success)
      throw std::runtime_error("EnqueueWorkload failed");
    if (timing) {
      timing->run_s.push_back(std::chrono::duration<double>(Clock::now() - t1).count());
      timing->run_cpu_s.push_back(cpu_s() - c1);
    }
  }
  return result;
}

}  // namespace peer
