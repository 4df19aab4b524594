#include "layer_zoo.h"

#include <doctest/doctest.h>

#include <cstring>

namespace nnbridge::test::armnn {

namespace {

using Ints = std::vector<int64_t>;

// A [1, 2, 2, 2] float32 tensor as Arm NN writes it.
const char* kInfo = R"({"dimensions": [1, 2, 2, 2], "dataType": "Float32", "quantizationScale": 0.0})";

// A float32 ConstTensor of `dims` (data as IntData bit patterns; 0x3F800000 is 1.0f).
std::string const_tensor(const std::string& dims, int count) {
  std::string data;
  for (int i = 0; i < count; ++i) data += (i ? ", " : "") + std::to_string(1065353216 + i);
  return R"({"info": {"dimensions": )" + dims + R"(, "dataType": "Float32", "quantizationScale": 0.0},
             "data_type": "IntData", "data": {"data": [)" + data + "]}}";
}

const Attr& at(const Node& n, const char* k) {
  static const Attr none;
  auto it = n.attrs.find(k);
  REQUIRE_MESSAGE(it != n.attrs.end(), "missing attribute " << k);
  return it == n.attrs.end() ? none : it->second;
}

// Input `i` of `n`: a constant (an operand ONNX opset 13+ takes as an input) read as int64 or
// float32 values.
Ints operand_ints(const Graph& g, const Node& n, std::size_t i) {
  REQUIRE(i < n.inputs.size());
  const Value& v = g.values[n.inputs[i]];
  REQUIRE(v.constant);
  REQUIRE(v.type.dtype == DataType::Int64);
  Ints out(v.constant->size() / 8);
  std::memcpy(out.data(), v.constant->data(), v.constant->size());
  return out;
}
std::vector<float> operand_floats(const Graph& g, const Node& n, std::size_t i) {
  REQUIRE(i < n.inputs.size());
  const Value& v = g.values[n.inputs[i]];
  REQUIRE(v.constant);
  REQUIRE(v.type.dtype == DataType::Float32);
  std::vector<float> out(v.constant->size() / 4);
  std::memcpy(out.data(), v.constant->data(), v.constant->size());
  return out;
}

std::string lstm_params(const std::vector<const char*>& names) {
  std::string s = R"("inputParams": {)";
  for (size_t i = 0; i < names.size(); ++i) s += (i ? ", " : "") + std::string("\"") + names[i] + "\": " + const_tensor("[2]", 2);
  return s + "}";
}

}  // namespace

const std::vector<ZooCase>& zoo() {
  static const std::vector<ZooCase> z = {
      {"ActivationLayer", R"("descriptor": {"activationFunction": "TanH", "a": 2.0, "b": 0.5})", 1, 1, "ScaledTanh",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "alpha") == Attr(2.0));
         CHECK(at(n, "beta") == Attr(0.5));
       }},
      {"AdditionLayer", "", 2, 1, "Add", {}},
      {"BatchToSpaceNdLayer", R"("descriptor": {"blockShape": [2, 1], "crops": [0, 1, 0, 0], "dataLayout": "NHWC"})", 1, 1,
       "BatchToSpaceND",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "block_shape") == Attr(Ints{2, 1}));
         CHECK(at(n, "crops") == Attr(Ints{0, 1, 0, 0}));
         CHECK(at(n, "data_layout") == Attr("NHWC"));
       }},
      {"BatchNormalizationLayer",
       R"("descriptor": {"eps": 0.001, "dataLayout": "NHWC"}, "mean": )" + const_tensor("[2]", 2) +
           R"(, "variance": )" + const_tensor("[2]", 2) + R"(, "beta": )" + const_tensor("[2]", 2) +
           R"(, "gamma": )" + const_tensor("[3]", 3),
       1, 1, "BatchNormalization",
       [](const Graph& g, const Node& n) {
         REQUIRE(n.inputs.size() == 5);
         // ONNX order X, scale (gamma), B (beta), mean, var: gamma is the one with 3 elements.
         CHECK(g.values[n.inputs[1]].type.shape == Ints{3});
         CHECK(at(n, "epsilon") == Attr(double(0.001f)));
       }},
      {"ConstantLayer", R"("input": )" + const_tensor("[1, 2, 2, 2]", 8), 0, 1, "", {}},
      {"Convolution2dLayer",
       R"("descriptor": {"padLeft": 1, "padTop": 2, "strideX": 2, "strideY": 1, "dilationX": 3, "biasEnabled": true},
          "weights": )" + const_tensor("[2, 2, 1, 1]", 4) + R"(, "biases": )" + const_tensor("[2]", 2),
       1, 1, "Conv",
       [](const Graph&, const Node& n) {
         CHECK(n.inputs.size() == 3);
         CHECK(at(n, "pads") == Attr(Ints{2, 1, 0, 0}));  // top, left, bottom, right
         CHECK(at(n, "strides") == Attr(Ints{1, 2}));
         CHECK(at(n, "dilations") == Attr(Ints{1, 3}));
         CHECK(at(n, "data_layout") == Attr("NCHW"));  // the schema default
         CHECK(at(n, "kernel_layout") == Attr("OIHW"));
         CHECK(at(n, "kernel_shape") == Attr(Ints{1, 1}));
       }},
      {"DepthwiseConvolution2dLayer",
       R"("descriptor": {"strideX": 1, "strideY": 1, "dataLayout": "NCHW"}, "weights": )" +
           const_tensor("[2, 2, 1, 1]", 4),
       1, 1, "Conv",
       [](const Graph& g, const Node& n) {
         // [M=2, I=2, H, W] -> [1, H, W, I*M]; output channel i*M + m.
         CHECK(at(n, "group") == Attr(int64_t{2}));
         CHECK(at(n, "kernel_layout") == Attr("1HWO"));
         const Value& w = g.values[n.inputs[1]];
         CHECK(w.type.shape == Ints{1, 1, 1, 4});
         std::vector<float> f(4);
         std::memcpy(f.data(), w.constant->data(), 16);
         // Source element (m, i) holds 1 + (m*2 + i); target o = i*2 + m.
         CHECK(f == std::vector<float>{1.0f, 1.0f + 1.1920929e-07f * 2, 1.0f + 1.1920929e-07f, 1.0f + 1.1920929e-07f * 3});
       }},
      {"FullyConnectedLayer",
       R"("descriptor": {"transposeWeightsMatrix": true}, "weights": )" + const_tensor("[2, 8]", 16), 1, 1, "Gemm",
       [](const Graph&, const Node& n) {
         CHECK(n.inputs.size() == 2);
         CHECK(at(n, "transB") == Attr(int64_t{1}));
       }},
      {"MultiplicationLayer", "", 2, 1, "Mul", {}},
      {"PermuteLayer", R"("descriptor": {"dimMappings": [0, 2, 3, 1]})", 1, 1, "Transpose",
       [](const Graph&, const Node& n) { CHECK(at(n, "perm") == Attr(Ints{0, 3, 1, 2})); }},
      {"Pooling2dLayer",
       R"("descriptor": {"poolType": "Average", "padRight": 1, "poolWidth": 2, "poolHeight": 3, "strideX": 2,
          "strideY": 1, "outputShapeRounding": "Ceiling", "paddingMethod": "IgnoreValue", "dataLayout": "NHWC"})",
       1, 1, "AveragePool",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "kernel_shape") == Attr(Ints{3, 2}));
         CHECK(at(n, "pads") == Attr(Ints{0, 0, 0, 1}));
         CHECK(at(n, "ceil_mode") == Attr(int64_t{1}));
         CHECK(at(n, "count_include_pad") == Attr(int64_t{1}));
       }},
      {"ReshapeLayer", R"("descriptor": {"targetShape": [1, 8]})", 1, 1, "Reshape",
       [](const Graph&, const Node& n) { CHECK(at(n, "shape") == Attr(Ints{1, 8})); }},
      {"SoftmaxLayer", R"("descriptor": {"beta": 0.5, "axis": 1})", 1, 1, "Softmax",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "beta") == Attr(0.5));
         CHECK(at(n, "axis") == Attr(int64_t{1}));
       }},
      {"SpaceToBatchNdLayer", R"("descriptor": {"blockShape": [1, 2], "padList": [0, 0, 1, 1]})", 1, 1, "SpaceToBatchND",
       [](const Graph&, const Node& n) { CHECK(at(n, "pads") == Attr(Ints{0, 0, 1, 1})); }},
      {"DivisionLayer", "", 2, 1, "Div", {}},
      {"MinimumLayer", "", 2, 1, "Min", {}},
      {"EqualLayer", "", 2, 1, "Equal", [](const Graph&, const Node& n) { CHECK(at(n, "armnn.layer") == Attr("Equal")); }},
      {"MaximumLayer", "", 2, 1, "Max", {}},
      {"NormalizationLayer", R"("descriptor": {"normSize": 3, "alpha": 0.5, "beta": 0.75, "k": 2.0})", 1, 1, "LRN",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "size") == Attr(int64_t{3}));
         CHECK(at(n, "bias") == Attr(2.0));
         CHECK(at(n, "alpha") == Attr(1.5));  // ONNX alpha / size = Arm NN alpha
       }},
      {"PadLayer", R"("descriptor": {"padList": [0, 0, 1, 2, 0, 0, 3, 0], "padValue": 0.5})", 1, 1, "Pad",
       [](const Graph& g, const Node& n) {  // Pad-13: pads and constant_value are inputs 1 and 2
         CHECK(operand_ints(g, n, 1) == Ints{0, 1, 0, 3, 0, 2, 0, 0});
         CHECK(operand_floats(g, n, 2) == std::vector<float>{0.5f});
         CHECK(g.values[n.inputs[1]].name == "the_layer.pads");
       }},
      {"RsqrtLayer", "", 1, 1, "Rsqrt", [](const Graph&, const Node& n) { CHECK(at(n, "armnn.layer") == Attr("Rsqrt")); }},
      {"FloorLayer", "", 1, 1, "Floor", {}},
      {"GreaterLayer", "", 2, 1, "Greater", {}},
      {"ResizeBilinearLayer", R"("descriptor": {"targetWidth": 5, "targetHeight": 4, "halfPixelCenters": true})", 1, 1,
       "Resize",
       [](const Graph& g, const Node& n) {  // Resize-13: sizes (input 3) for every dim, N and C X's
         REQUIRE(n.inputs.size() == 4);
         CHECK(n.inputs[1] == kNoValue);
         CHECK(n.inputs[2] == kNoValue);
         CHECK(operand_ints(g, n, 3) == Ints{1, 4, 5, 2});  // NHWC, the descriptor's default
         CHECK(at(n, "mode") == Attr("linear"));
         CHECK(at(n, "coordinate_transformation_mode") == Attr("half_pixel"));
         CHECK(at(n, "armnn.layer") == Attr("ResizeBilinear"));
       }},
      {"SubtractionLayer", "", 2, 1, "Sub", {}},
      {"StridedSliceLayer",
       R"("descriptor": {"begin": [0, 0, 0, 0], "end": [1, 2, 2, 2], "stride": [1, 1, 1, 2], "endMask": 4})", 1, 1,
       "StridedSlice",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "strides") == Attr(Ints{1, 1, 1, 2}));
         CHECK(at(n, "end_mask") == Attr(int64_t{4}));
       }},
      {"GatherLayer", R"("descriptor": {"axis": 1})", 2, 1, "Gather",
       [](const Graph&, const Node& n) { CHECK(at(n, "axis") == Attr(int64_t{1})); }},
      {"MeanLayer", R"("descriptor": {"axis": [1, 2]})", 1, 1, "ReduceMean",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "axes") == Attr(Ints{1, 2}));
         CHECK(at(n, "keepdims") == Attr(int64_t{0}));
       }},
      {"MergerLayer",
       R"("descriptor": {"concatAxis": 1, "numViews": 2, "numDimensions": 4,
          "viewOrigins": [{"data": [0, 0, 0, 0]}, {"data": [0, 2, 0, 0]}]})",
       2, 1, "Concat", [](const Graph&, const Node& n) { CHECK(at(n, "axis") == Attr(int64_t{1})); }},
      {"L2NormalizationLayer", R"("descriptor": {"dataLayout": "NHWC", "eps": 0.25})", 1, 1, "LpNormalization",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "axis") == Attr(int64_t{-1}));
         CHECK(at(n, "epsilon") == Attr(0.25));
       }},
      {"SplitterLayer",
       R"("descriptor": {"origins": {"numViews": 2, "numDimensions": 4,
            "viewOrigins": [{"data": [0, 0, 0, 0]}, {"data": [0, 1, 0, 0]}]},
          "viewSizes": [{"data": [1, 1, 2, 2]}, {"data": [1, 1, 2, 2]}]})",
       1, 2, "Split",
       [](const Graph& g, const Node& n) {
         CHECK(at(n, "axis") == Attr(int64_t{1}));
         CHECK(operand_ints(g, n, 1) == Ints{1, 1});  // Split-13: split is input 1
       }},
      {"DetectionPostProcessLayer",
       R"("descriptor": {"maxDetections": 3, "numClasses": 2, "nmsIouThreshold": 0.5, "scaleX": 10.0}, "anchors": )" +
           const_tensor("[2, 4]", 8),
       2, 4, "armnn.DetectionPostProcess", [](const Graph&, const Node& n) { CHECK(n.inputs.size() == 3); }},
      {"LstmLayer",
       R"("descriptor": {"activationFunc": 4, "cifgEnabled": false}, )" +
           lstm_params({"inputToForgetWeights", "cellBias", "inputToInputWeights"}),
       3, 4, "armnn.Lstm", [](const Graph&, const Node& n) { CHECK(n.inputs.size() == 6); }},
      {"QuantizedLstmLayer", lstm_params({"inputToInputWeights", "outputGateBias"}), 3, 2, "armnn.QuantizedLstm", {}},
      {"QuantizeLayer", "", 1, 1, "QuantizeLinear", {}},
      {"DequantizeLayer", "", 1, 1, "DequantizeLinear", {}},
      {"MergeLayer", "", 2, 1, "armnn.Merge", {}},
      {"SwitchLayer", "", 2, 2, "armnn.Switch", {}},
      {"ConcatLayer",
       R"("descriptor": {"concatAxis": 3, "numViews": 2, "numDimensions": 4,
          "viewOrigins": [{"data": [0, 0, 0, 0]}, {"data": [0, 0, 0, 2]}]})",
       2, 1, "Concat", [](const Graph&, const Node& n) { CHECK(at(n, "axis") == Attr(int64_t{3})); }},
      {"SpaceToDepthLayer", R"("descriptor": {"blockSize": 2, "dataLayout": "NHWC"})", 1, 1, "SpaceToDepth",
       [](const Graph&, const Node& n) { CHECK(at(n, "blocksize") == Attr(int64_t{2})); }},
      {"PreluLayer", "", 2, 1, "PRelu", {}},
      {"TransposeConvolution2dLayer",
       R"("descriptor": {"padBottom": 1, "strideX": 2, "strideY": 2, "dataLayout": "NHWC"}, "weights": )" +
           const_tensor("[2, 1, 1, 2]", 4),
       1, 1, "ConvTranspose",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "pads") == Attr(Ints{0, 0, 1, 0}));
         CHECK(at(n, "kernel_layout") == Attr("OHWI"));
       }},
      {"ResizeLayer", R"("descriptor": {"targetHeight": 3, "targetWidth": 6, "method": "Bilinear", "alignCorners": true})",
       1, 1, "Resize",
       [](const Graph& g, const Node& n) {
         CHECK(operand_ints(g, n, 3) == Ints{1, 3, 6, 2});  // NHWC
         CHECK(at(n, "coordinate_transformation_mode") == Attr("align_corners"));
       }},
      {"StackLayer", R"("descriptor": {"axis": 1, "numInputs": 2, "inputShape": [1, 2, 2, 2]})", 2, 1, "Stack",
       [](const Graph&, const Node& n) { CHECK(at(n, "axis") == Attr(int64_t{1})); }},
      {"AbsLayer", "", 1, 1, "Abs", [](const Graph&, const Node& n) { CHECK(at(n, "armnn.layer") == Attr("Abs")); }},
      {"ArgMinMaxLayer", R"("descriptor": {"argMinMaxFunction": "Max", "axis": 3})", 1, 1, "ArgMax",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "axis") == Attr(int64_t{3}));
         CHECK(at(n, "keepdims") == Attr(int64_t{0}));
       }},
      {"SliceLayer", R"("descriptor": {"begin": [0, 1, 0, 0], "size": [1, 1, 2, 1]})", 1, 1, "Slice",
       [](const Graph& g, const Node& n) {  // Slice-13: starts, ends, axes are inputs 1, 2, 3
         CHECK(operand_ints(g, n, 1) == Ints{0, 1, 0, 0});
         CHECK(operand_ints(g, n, 2) == Ints{1, 2, 2, 1});
         CHECK(operand_ints(g, n, 3) == Ints{0, 1, 2, 3});
       }},
      {"DepthToSpaceLayer", R"("descriptor": {"blockSize": 2, "dataLayout": "NCHW"})", 1, 1, "DepthToSpace",
       [](const Graph&, const Node& n) { CHECK(at(n, "data_layout") == Attr("NCHW")); }},
      {"InstanceNormalizationLayer", R"("descriptor": {"gamma": 2.0, "beta": 0.5, "eps": 0.125})", 1, 1,
       "InstanceNormalization",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "gamma") == Attr(2.0));
         CHECK(at(n, "epsilon") == Attr(0.125));
       }},
      {"LogSoftmaxLayer", R"("descriptor": {"beta": 2.0})", 1, 1, "LogSoftmax",
       [](const Graph&, const Node& n) { CHECK(at(n, "beta") == Attr(2.0)); }},
      {"ComparisonLayer", R"("descriptor": {"operation": "LessOrEqual"})", 2, 1, "LessOrEqual", {}},
      {"StandInLayer", R"("descriptor": {"numInputs": 1, "numOutputs": 2})", 1, 2, "armnn.StandIn", {}},
      {"ElementwiseUnaryLayer", R"("descriptor": {"operation": "Exp"})", 1, 1, "Exp", {}},
      {"TransposeLayer", R"("descriptor": {"dimMappings": [0, 2, 3, 1]})", 1, 1, "Transpose",
       [](const Graph&, const Node& n) { CHECK(at(n, "perm") == Attr(Ints{0, 2, 3, 1})); }},
      {"QLstmLayer", R"("descriptor": {"cellClip": 0.5, "hiddenStateZeroPoint": 3}, )" + lstm_params({"cellBias"}), 3, 3,
       "armnn.QLstm", {}},
      {"FillLayer", R"("descriptor": {"value": 2.5})", 1, 1, "ConstantOfShape",
       [](const Graph&, const Node& n) { CHECK(at(n, "value") == Attr(2.5)); }},
      {"RankLayer", "", 1, 1, "Rank", {}},
      {"LogicalBinaryLayer", R"("descriptor": {"operation": "LogicalOr"})", 2, 1, "Or", {}},
      {"ReduceLayer", R"("descriptor": {"keepDims": true, "axis": [1], "reduceOperation": "Max"})", 1, 1, "ReduceMax",
       [](const Graph&, const Node& n) { CHECK(at(n, "keepdims") == Attr(int64_t{1})); }},
      {"CastLayer", "", 1, 1, "Cast", {}},
      {"ShapeLayer", "", 1, 1, "Shape", {}},
      {"UnidirectionalSequenceLstmLayer", R"("descriptor": {"timeMajor": true}, )" + lstm_params({"forgetGateBias"}), 3, 3,
       "armnn.UnidirectionalSequenceLstm", {}},
      {"ChannelShuffleLayer", R"("descriptor": {"axis": 1, "numGroups": 2})", 1, 1, "ChannelShuffle",
       [](const Graph&, const Node& n) { CHECK(at(n, "group") == Attr(int64_t{2})); }},
      {"Convolution3dLayer", R"("descriptor": {"padFront": 1, "strideZ": 2, "dataLayout": "NCDHW"})", 2, 1, "Conv",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "kernel_layout") == Attr("HWIO"));
         CHECK(at(n, "data_layout") == Attr("NCHW"));
         CHECK(at(n, "pads") == Attr(Ints{1, 0, 0, 0, 0, 0}));  // [front, top, left, back, bottom, right]
         CHECK(at(n, "strides") == Attr(Ints{2, 0, 0}));        // [Z, Y, X] as stored
       }},
      {"Pooling3dLayer", R"("descriptor": {"poolType": "L2", "poolDepth": 2})", 1, 1, "armnn.Pooling3d", {}},
      {"GatherNdLayer", "", 2, 1, "GatherND", {}},
      // An adjoint is the adjugate matrix in Arm NN's reference, not a transpose: the native layer.
      {"BatchMatMulLayer", R"("descriptor": {"transposeY": true, "adjointX": true})", 2, 1, "armnn.BatchMatMul",
       [](const Graph&, const Node& n) { CHECK(at(n, "armnn.descriptor.adjointX") == Attr(true)); }},
      {"BatchMatMulLayer", R"("descriptor": {"transposeY": true})", 2, 1, "MatMul",
       [](const Graph&, const Node& n) { CHECK(at(n, "transB") == Attr(int64_t{1})); }},
      // BinaryOperation by number, as upstream Arm NN numbers it (SqDiff 6, Power 7).
      {"ElementwiseBinaryLayer", R"("descriptor": {"operation": 6})", 2, 1, "SquaredDifference", {}},
      {"ElementwiseBinaryLayer", R"("descriptor": {"operation": 7})", 2, 1, "Pow", {}},
      {"ReverseV2Layer", "", 2, 1, "ReverseV2", {}},
      {"TileLayer", R"("descriptor": {"m_Multiples": [1, 2, 1, 1]})", 1, 1, "Tile",
       [](const Graph&, const Node& n) { CHECK(at(n, "repeats") == Attr(Ints{1, 2, 1, 1})); }},
      {"NormalizationLayer", R"("descriptor": {"normChannelType": "Within", "normSize": 3, "alpha": 0.5})", 1, 1,
       "armnn.Normalization", [](const Graph&, const Node& n) {
         CHECK(at(n, "armnn.descriptor.normSize") == Attr(int64_t{3}));
         CHECK(at(n, "armnn.descriptor.normChannelType") == Attr(int64_t{1}));
       }},
      {"ScatterNdLayer", R"("descriptor": {"m_Function": "Add", "m_AxisEnabled": true})", 3, 1, "armnn.ScatterNd", {}},
      // ScatterNdFunction by number (upstream: Update 0, Add 1, Sub 2, Max 3, Min 4).
      {"ScatterNdLayer", R"("descriptor": {"m_Function": 2, "m_InputEnabled": false})", 3, 1, "ScatterND",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "reduction") == Attr("sub"));
         CHECK(at(n, "data_is_shape") == Attr(int64_t{1}));
         CHECK(at(n, "combine_with") == Attr("data"));
       }},
      {"Pooling3dLayer", R"("descriptor": {"poolType": "Average", "poolDepth": 2, "poolHeight": 1, "poolWidth": 1,
                          "strideZ": 1, "strideY": 1, "strideX": 1, "dataLayout": "NDHWC"})", 1, 1, "AveragePool",
       [](const Graph&, const Node& n) {
         CHECK(at(n, "kernel_shape") == Attr(Ints{2, 1, 1}));
         CHECK(at(n, "data_layout") == Attr("NHWC"));
         CHECK(at(n, "count_include_pad") == Attr(int64_t{1}));  // PaddingMethod IgnoreValue (0), the default
       }},
  };
  return z;
}

std::string zoo_json(const ZooCase& c) {
  std::string layers;
  auto slot_out = [](int n) {
    std::string s;
    for (int k = 0; k < n; ++k) s += std::string(k ? ", " : "") + R"({"index": )" + std::to_string(k) + R"(, "tensorInfo": )" + kInfo + "}";
    return s;
  };
  std::string ids_in, ids_out;
  for (int i = 0; i < c.inputs; ++i) {
    layers += R"({"layer_type": "InputLayer", "layer": {"base": {"base": {"index": )" + std::to_string(i) +
              R"(, "layerName": "in)" + std::to_string(i) + R"(", "layerType": "Input", "inputSlots": [], "outputSlots": [)" +
              slot_out(1) + R"(]}, "layerBindingId": )" + std::to_string(i) + "}}},\n";
    ids_in += (i ? ", " : "") + std::to_string(i);
  }
  std::string type = c.layer.substr(0, c.layer.size() - 5);
  std::string in_slots;
  for (int i = 0; i < c.inputs; ++i)
    in_slots += std::string(i ? ", " : "") + R"({"index": )" + std::to_string(i) + R"(, "connection": {"sourceLayerIndex": )" +
                std::to_string(i) + R"(, "outputSlotIndex": 0}})";
  layers += R"({"layer_type": ")" + c.layer + R"(", "layer": {"base": {"index": 10, "layerName": "the_layer", "layerType": ")" +
            type + R"(", "inputSlots": [)" + in_slots + R"(], "outputSlots": [)" + slot_out(c.outputs) + "]}" +
            (c.fields.empty() ? "" : ", " + c.fields) + "}}";
  for (int k = 0; k < c.outputs; ++k) {
    layers += R"(,
{"layer_type": "OutputLayer", "layer": {"base": {"base": {"index": )" + std::to_string(20 + k) +
              R"(, "layerName": "out)" + std::to_string(k) + R"(", "layerType": "Output", "inputSlots": [{"index": 0,
 "connection": {"sourceLayerIndex": 10, "outputSlotIndex": )" + std::to_string(k) +
              R"(}}], "outputSlots": []}, "layerBindingId": )" + std::to_string(k) + "}}}";
    ids_out += (k ? ", " : "") + std::to_string(k);
  }
  return R"({"layers": [)" + layers + R"(], "inputIds": [)" + ids_in + R"(], "outputIds": [)" + ids_out +
         R"(], "featureVersions": {"bindingIdsScheme": 1}})";
}

}  // namespace nnbridge::test::armnn
