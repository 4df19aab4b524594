// What Arm NN 20.08's deserializer makes of a file: `inspect` prints it as JSON, `run` executes it
// on CpuRef. The visitor records every layer the deserialized INetwork contains, in Arm NN's order.
#include <armnn/LayerVisitorBase.hpp>
#include <armnnDeserializer/IDeserializer.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>

#include "harness.h"

namespace peer {
namespace {

using namespace armnn;

std::string dtype_name(DataType t) { return GetDataTypeName(t); }

// One override per ILayerVisitor method of Arm NN 20.08 (signatures as in LayerVisitorBase.hpp).
class Recorder : public ILayerVisitor {
 public:
  nlohmann::json layers = nlohmann::json::array();
  std::vector<peer::Binding> inputs, outputs;

  void Seen(const IConnectableLayer* layer, const char* type) {
    nlohmann::json l;
    l["name"] = layer->GetName();
    l["type"] = type;
    nlohmann::json outs = nlohmann::json::array();
    for (unsigned i = 0; i < layer->GetNumOutputSlots(); ++i) {
      const IOutputSlot& s = layer->GetOutputSlot(i);
      if (!s.IsTensorInfoSet()) {
        outs.push_back(nullptr);
        continue;
      }
      const TensorInfo& info = s.GetTensorInfo();
      std::vector<unsigned> shape;
      for (unsigned d = 0; d < info.GetNumDimensions(); ++d) shape.push_back(info.GetShape()[d]);
      outs.push_back({{"shape", shape}, {"dtype", dtype_name(info.GetDataType())}});
    }
    l["num_inputs"] = layer->GetNumInputSlots();
    l["outputs"] = outs;
    layers.push_back(l);
  }
  void Bound(const IConnectableLayer* layer, const char* type, LayerBindingId id) {
    Seen(layer, type);
    layers.back()["binding_id"] = id;
    (std::string(type) == "Input" ? inputs : outputs).push_back({layer->GetName(), id});
  }

  void VisitAbsLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Abs"); }
  void VisitActivationLayer(const IConnectableLayer* layer, const ActivationDescriptor&, const char*) override { Seen(layer, "Activation"); }
  void VisitAdditionLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Addition"); }
  void VisitArgMinMaxLayer(const IConnectableLayer* layer, const ArgMinMaxDescriptor&, const char*) override { Seen(layer, "ArgMinMax"); }
  void VisitBatchNormalizationLayer(const IConnectableLayer* layer, const BatchNormalizationDescriptor&, const ConstTensor&, const ConstTensor&, const ConstTensor&, const ConstTensor&, const char*) override { Seen(layer, "BatchNormalization"); }
  void VisitBatchToSpaceNdLayer(const IConnectableLayer* layer, const BatchToSpaceNdDescriptor&, const char*) override { Seen(layer, "BatchToSpaceNd"); }
  void VisitComparisonLayer(const IConnectableLayer* layer, const ComparisonDescriptor&, const char*) override { Seen(layer, "Comparison"); }
  void VisitConcatLayer(const IConnectableLayer* layer, const ConcatDescriptor&, const char*) override { Seen(layer, "Concat"); }
  void VisitConstantLayer(const IConnectableLayer* layer, const ConstTensor&, const char*) override { Seen(layer, "Constant"); }
  void VisitConvolution2dLayer(const IConnectableLayer* layer, const Convolution2dDescriptor&, const ConstTensor&, const Optional<ConstTensor>&, const char*) override { Seen(layer, "Convolution2d"); }
  void VisitDepthToSpaceLayer(const IConnectableLayer* layer, const DepthToSpaceDescriptor&, const char*) override { Seen(layer, "DepthToSpace"); }
  void VisitDepthwiseConvolution2dLayer(const IConnectableLayer* layer, const DepthwiseConvolution2dDescriptor&, const ConstTensor&, const Optional<ConstTensor>&, const char*) override { Seen(layer, "DepthwiseConvolution2d"); }
  void VisitDequantizeLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Dequantize"); }
  void VisitDetectionPostProcessLayer(const IConnectableLayer* layer, const DetectionPostProcessDescriptor&, const ConstTensor&, const char*) override { Seen(layer, "DetectionPostProcess"); }
  void VisitDivisionLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Division"); }
  void VisitElementwiseUnaryLayer(const IConnectableLayer* layer, const ElementwiseUnaryDescriptor&, const char*) override { Seen(layer, "ElementwiseUnary"); }
  void VisitEqualLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Equal"); }
  void VisitFillLayer(const IConnectableLayer* layer, const FillDescriptor&, const char*) override { Seen(layer, "Fill"); }
  void VisitFloorLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Floor"); }
  void VisitFullyConnectedLayer(const IConnectableLayer* layer, const FullyConnectedDescriptor&, const ConstTensor&, const Optional<ConstTensor>&, const char*) override { Seen(layer, "FullyConnected"); }
  void VisitGatherLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Gather"); }
  void VisitGatherLayer(const IConnectableLayer* layer, const GatherDescriptor&, const char*) override { Seen(layer, "Gather"); }
  void VisitGreaterLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Greater"); }
  void VisitInputLayer(const IConnectableLayer* layer, LayerBindingId id, const char*) override { Bound(layer, "Input", id); }
  void VisitInstanceNormalizationLayer(const IConnectableLayer* layer, const InstanceNormalizationDescriptor&, const char*) override { Seen(layer, "InstanceNormalization"); }
  void VisitL2NormalizationLayer(const IConnectableLayer* layer, const L2NormalizationDescriptor&, const char*) override { Seen(layer, "L2Normalization"); }
  void VisitLogSoftmaxLayer(const IConnectableLayer* layer, const LogSoftmaxDescriptor&, const char*) override { Seen(layer, "LogSoftmax"); }
  void VisitLstmLayer(const IConnectableLayer* layer, const LstmDescriptor&, const LstmInputParams&, const char*) override { Seen(layer, "Lstm"); }
  void VisitMaximumLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Maximum"); }
  void VisitMeanLayer(const IConnectableLayer* layer, const MeanDescriptor&, const char*) override { Seen(layer, "Mean"); }
  void VisitMergeLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Merge"); }
  void VisitMergerLayer(const IConnectableLayer* layer, const MergerDescriptor&, const char*) override { Seen(layer, "Merger"); }
  void VisitMinimumLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Minimum"); }
  void VisitMultiplicationLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Multiplication"); }
  void VisitNormalizationLayer(const IConnectableLayer* layer, const NormalizationDescriptor&, const char*) override { Seen(layer, "Normalization"); }
  void VisitOutputLayer(const IConnectableLayer* layer, LayerBindingId id, const char*) override { Bound(layer, "Output", id); }
  void VisitPadLayer(const IConnectableLayer* layer, const PadDescriptor&, const char*) override { Seen(layer, "Pad"); }
  void VisitPermuteLayer(const IConnectableLayer* layer, const PermuteDescriptor&, const char*) override { Seen(layer, "Permute"); }
  void VisitPooling2dLayer(const IConnectableLayer* layer, const Pooling2dDescriptor&, const char*) override { Seen(layer, "Pooling2d"); }
  void VisitPreluLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Prelu"); }
  void VisitQuantizeLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Quantize"); }
  void VisitQLstmLayer(const IConnectableLayer* layer, const QLstmDescriptor&, const LstmInputParams&, const char*) override { Seen(layer, "QLstm"); }
  void VisitQuantizedLstmLayer(const IConnectableLayer* layer, const QuantizedLstmInputParams&, const char*) override { Seen(layer, "QuantizedLstm"); }
  void VisitRankLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Rank"); }
  void VisitReshapeLayer(const IConnectableLayer* layer, const ReshapeDescriptor&, const char*) override { Seen(layer, "Reshape"); }
  void VisitResizeBilinearLayer(const IConnectableLayer* layer, const ResizeBilinearDescriptor&, const char*) override { Seen(layer, "ResizeBilinear"); }
  void VisitResizeLayer(const IConnectableLayer* layer, const ResizeDescriptor&, const char*) override { Seen(layer, "Resize"); }
  void VisitRsqrtLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Rsqrt"); }
  void VisitSliceLayer(const IConnectableLayer* layer, const SliceDescriptor&, const char*) override { Seen(layer, "Slice"); }
  void VisitSoftmaxLayer(const IConnectableLayer* layer, const SoftmaxDescriptor&, const char*) override { Seen(layer, "Softmax"); }
  void VisitSpaceToBatchNdLayer(const IConnectableLayer* layer, const SpaceToBatchNdDescriptor&, const char*) override { Seen(layer, "SpaceToBatchNd"); }
  void VisitSpaceToDepthLayer(const IConnectableLayer* layer, const SpaceToDepthDescriptor&, const char*) override { Seen(layer, "SpaceToDepth"); }
  void VisitSplitterLayer(const IConnectableLayer* layer, const ViewsDescriptor&, const char*) override { Seen(layer, "Splitter"); }
  void VisitStackLayer(const IConnectableLayer* layer, const StackDescriptor&, const char*) override { Seen(layer, "Stack"); }
  void VisitStandInLayer(const IConnectableLayer* layer, const StandInDescriptor&, const char*) override { Seen(layer, "StandIn"); }
  void VisitStridedSliceLayer(const IConnectableLayer* layer, const StridedSliceDescriptor&, const char*) override { Seen(layer, "StridedSlice"); }
  void VisitSubtractionLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Subtraction"); }
  void VisitSwitchLayer(const IConnectableLayer* layer, const char*) override { Seen(layer, "Switch"); }
  void VisitTransposeConvolution2dLayer(const IConnectableLayer* layer, const TransposeConvolution2dDescriptor&, const ConstTensor&, const Optional<ConstTensor>&, const char*) override { Seen(layer, "TransposeConvolution2d"); }
  void VisitTransposeLayer(const IConnectableLayer* layer, const TransposeDescriptor&, const char*) override { Seen(layer, "Transpose"); }
};

armnn::INetworkPtr deserialize(const std::string& file, Recorder& rec) {
  std::ifstream f(file, std::ios::binary);
  if (!f) throw std::runtime_error("cannot read " + file);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto parser = armnnDeserializer::IDeserializer::Create();
  armnn::INetworkPtr net = parser->CreateNetworkFromBinary(bytes);
  net->Accept(rec);
  return net;
}

}  // namespace

int cmd_inspect(const std::string& file) {
  try {
    Recorder rec;
    auto net = deserialize(file, rec);
    nlohmann::json j;
    j["file"] = file;
    j["num_layers"] = rec.layers.size();
    j["layers"] = rec.layers;
    for (const auto& b : rec.inputs) j["inputs"].push_back({{"name", b.name}, {"binding_id", b.id}});
    for (const auto& b : rec.outputs) j["outputs"].push_back({{"name", b.name}, {"binding_id", b.id}});
    std::cout << j.dump(1) << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cout << nlohmann::json({{"file", file}, {"error", e.what()}}).dump() << "\n";
    return 1;
  }
}

int cmd_run(const std::string& file, const std::string& indir, const std::string& outdir) {
  try {
    Recorder rec;
    auto net = deserialize(file, rec);
    std::vector<NpyArray> in_data;
    in_data.reserve(rec.inputs.size());
    std::vector<std::pair<LayerBindingId, const NpyArray*>> ins;
    for (const auto& b : rec.inputs) in_data.push_back(read_npy(std::filesystem::path(indir) / (b.name + ".npy")));
    for (size_t i = 0; i < rec.inputs.size(); ++i) ins.emplace_back(rec.inputs[i].id, &in_data[i]);
    std::vector<LayerBindingId> outs;
    for (const auto& b : rec.outputs) outs.push_back(b.id);
    auto results = run_on_cpuref(*net, ins, outs);
    std::filesystem::create_directories(outdir);
    for (size_t i = 0; i < results.size(); ++i)
      write_npy(std::filesystem::path(outdir) / (rec.outputs[i].name + ".npy"), results[i]);
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "run " << file << ": " << e.what() << "\n";
    return 1;
  }
}

int cmd_time(const std::string& file, const std::string& indir, int runs) {
  try {
    Recorder rec;
    auto net = deserialize(file, rec);
    std::vector<NpyArray> in_data;
    for (const auto& b : rec.inputs) in_data.push_back(read_npy(std::filesystem::path(indir) / (b.name + ".npy")));
    std::vector<std::pair<LayerBindingId, const NpyArray*>> ins;
    for (size_t i = 0; i < rec.inputs.size(); ++i) ins.emplace_back(rec.inputs[i].id, &in_data[i]);
    std::vector<LayerBindingId> outs;
    for (const auto& b : rec.outputs) outs.push_back(b.id);
    CpuRefTiming timing;
    timing.runs = runs;
    run_on_cpuref(*net, ins, outs, &timing);
    std::vector<double> ms;
    for (double s : timing.run_s) ms.push_back(s * 1e3);
    std::vector<double> sorted = ms;
    std::sort(sorted.begin(), sorted.end());
    nlohmann::json j;
    j["file"] = file;
    j["prepare_ms"] = timing.prepare_s * 1e3;
    j["run_ms"] = ms;
    j["median_ms"] = sorted[sorted.size() / 2];
    std::vector<double> cpu;
    for (double c : timing.run_cpu_s) cpu.push_back(c * 1e3);
    std::sort(cpu.begin(), cpu.end());
    j["median_cpu_ms"] = cpu[cpu.size() / 2];
    std::cout << j.dump() << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "time " << file << ": " << e.what() << "\n";
    return 1;
  }
}

}  // namespace peer
