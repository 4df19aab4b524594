// Rewrites before the Arm NN writer maps a graph (the core rewrites of nnbridge/rewrite.h),
// for graphs that say less than an Arm NN file must: value types left to shape inference
// (ONNX models without value_info), Transpose without perm (Arm NN's dimMappings are always
// given), auto_pad (Arm NN has explicit pads only), Reshape's shape and the other operand
// inputs (Tile repeats, Slice starts / ends / axes / steps, Pad pads and constant_value, Split
// split, Clip min / max, ReduceSum axes, Resize sizes: Arm NN's descriptors hold them, so they
// must be constants; operands_as_attributes gives the descriptor form the table's rows read,
// run last); and ops Arm NN has no layer
// for but can compute: Identity (dropped), GlobalAveragePool / GlobalMaxPool (a Pooling2d over
// the plane), Flatten / Squeeze / Unsqueeze (a Reshape). A graph from another format (no node with
// an `armnn.` field) also gets the pattern rewrites of rewrite.h for what exporters write: shape
// arithmetic folded to constants, HardSigmoid as HardSwish or Linear + BoundedReLu, the Erf form of
// GELU as Gelu, Pow(x, 2) as x * x, LayerNormalization decomposed (Arm NN has no layer), grouped
// convolutions as Splitter + convolutions + Concat (Convolution2d has no groups), MatMul by a
// constant as FullyConnected (Arm NN 20.08 has no BatchMatMul), operands of lower rank given
// leading 1s (20.08 broadcasts between equal ranks), Sqrt and Abs as Activation layers (what
// 20.08's CpuRef runs), Gather by a scalar as Gather by [1] + Reshape. A graph that needs none of
// them is not copied, so a graph read from an Arm NN file is written from itself. ONNX's QDQ form
// (QuantizeLinear / DequantizeLinear with scale inputs) becomes quantized tensors
// (qdq_as_quantized, nnbridge/rewrite_qdq.h); ONNX ConvTranspose weights [C_in, C_out, kH, kW]
// become TransposeConvolution2d's [O, I, H, W].
#include <optional>
#include <string>

#include "internal.h"
#include "nnbridge/rewrite.h"
#include "nnbridge/rewrite_qdq.h"

namespace nnbridge::formats::armnn {

namespace {

bool from_armnn(const Graph& g) {
  for (const Node& n : g.nodes)
    for (const auto& kv : n.attrs)
      if (kv.first.rfind("armnn.", 0) == 0) return true;
  return false;
}

// Nodes the pattern rewrites (rewrite.h) may change.
bool has_pattern(const Graph& g, const Node& n) {
  if (n.op == "HardSigmoid" || n.op == "Erf" || n.op == "Sqrt" || n.op == "Abs" || n.op == "Gather" || n.op == "Pow" || n.op == "Shape" || n.op == "Size" ||
      n.op == "LayerNormalization" || n.op == "ConstantOfShape" || n.op == "Expand" || n.op == "ScatterND" ||
      n.op == "Range" || n.op == "Tanh" || n.op == "Reciprocal")
    return true;
  if (n.op == "Transpose" && !n.inputs.empty() && n.inputs[0] < g.values.size() &&
      g.values[n.inputs[0]].type.shape.size() > 5)  // armnn::MaxNumOfTensorDimensions
    return true;
  if ((n.op.rfind("Reduce", 0) == 0 && n.attrs.count("axes")) || has_rank_mismatch(g, n)) return true;
  if (n.op == "MatMul" && n.inputs.size() == 2 && n.inputs[1] < g.values.size() && g.values[n.inputs[1]].constant)
    return true;
  if (n.op == "Conv") {
    auto it = n.attrs.find("group");
    return it != n.attrs.end() && it->second.is<int64_t>() && it->second.get<int64_t>() > 1;
  }
  return false;
}

bool needs_lowering(const Graph& g, bool patterns) {
  for (const Node& n : g.nodes) {
    if (patterns && has_pattern(g, n)) return true;
    // A dtype or rank left unknown (an Arm NN file has neither); single unknown dims are kept.
    for (ValueId v : n.outputs)
      if (v < g.values.size() && (g.values[v].type.dtype == DataType::Undefined || g.values[v].type.unknown_rank))
        return true;
    if (n.op == "Transpose" && !n.attrs.count("perm")) return true;
    if (n.op == "Reshape" && n.inputs.size() == 2) return true;
    if (has_operand_inputs(n)) return true;
    if (n.op == "Identity" && !n.attrs.count("armnn.layer")) return true;
    if (n.op == "Dropout") return true;
    if ((n.op == "QuantizeLinear" || n.op == "DequantizeLinear") && n.inputs.size() > 1) return true;  // ONNX's QDQ form
    if (n.op == "ConvTranspose" && !n.attrs.count("kernel_layout")) return true;  // ONNX's [C_in, C_out, kH, kW]
    if (n.op == "GlobalAveragePool" || n.op == "GlobalMaxPool" || n.op == "Flatten" || n.op == "Squeeze" ||
        n.op == "Unsqueeze")
      return true;
    if (auto it = n.attrs.find("auto_pad");
        it != n.attrs.end() && it->second.is<std::string>() && it->second.get<std::string>() != "NOTSET")
      return true;
  }
  return false;
}

// Sqrt and Abs of a graph from another format are written as Activation layers (functions Sqrt,
// Abs), not ElementwiseUnary: the same function, and the form Arm NN 20.08's CpuRef runs (it
// refuses to run the ElementwiseUnary Sqrt it serializes itself: tests/golden/armnn/unary_sqrt).
std::size_t unary_as_activation(Graph& g) {
  std::size_t changed = 0;
  for (Node& n : g.nodes)
    if ((n.op == "Sqrt" || n.op == "Abs") && !n.attrs.count("armnn.layer") && n.inputs.size() == 1 &&
        n.inputs[0] < g.values.size() && g.values[n.inputs[0]].type.dtype == DataType::Float32) {
      n.attrs["armnn.layer"] = Attr(std::string("Activation"));
      ++changed;
    }
  return changed;
}

// Arm NN validates the Signed32 bias of a quantized Convolution2d / DepthwiseConvolution2d /
// TransposeConvolution2d / FullyConnected against scale = input scale * weight scale, computed in
// float (per output channel, quantizationScales with dim 0, for per-axis weights). An Int32 bias
// from another format (ONNX's QDQ form) states no scale: it gets that one.
std::size_t bias_quantization_scales(Graph& g) {
  std::size_t changed = 0;
  for (const Node& n : g.nodes) {
    if ((n.op != "Conv" && n.op != "ConvTranspose" && n.op != "Gemm") || n.inputs.size() < 3) continue;
    const ValueId x = n.inputs[0], w = n.inputs[1], b = n.inputs[2];
    if (x >= g.values.size() || w >= g.values.size() || b >= g.values.size()) continue;
    const TensorType &xt = g.values[x].type, &wt = g.values[w].type;
    Value& bias = g.values[b];
    if (bias.type.dtype != DataType::Int32 || bias.type.quantization || bias.attrs.count("armnn.tensorInfo.quantizationScale") ||
        !is_quantized(xt.dtype) || !is_quantized(wt.dtype) || !xt.quantization || !wt.quantization ||
        xt.quantization->scales.empty() || wt.quantization->scales.empty())
      continue;
    std::vector<double> scales;
    for (double ws : wt.quantization->scales) scales.push_back(double(float(xt.quantization->scales[0]) * float(ws)));
    bias.attrs["armnn.tensorInfo.quantizationScale"] = Attr(scales[0]);
    if (wt.quantization->axis && scales.size() > 1) bias.attrs["armnn.tensorInfo.quantizationScales"] = Attr(scales);
    ++changed;
  }
  return changed;
}

}  // namespace

std::optional<Graph> lower_for_armnn(const Graph& g) {
  const bool patterns = !from_armnn(g);
  if (!needs_lowering(g, patterns)) return std::nullopt;
  Graph out = g;
  infer_missing_types(out);
  if (patterns) {
    // A folded chain can make the next one's types known: fold and infer until nothing changes.
    for (int round = 0; round < 8 && fold_shape_arithmetic(out) > 0; ++round) infer_missing_types(out);
    hard_sigmoid_as_activations(out);
    erf_gelu_as_gelu(out);
    square_pow_as_mul(out);
    layer_norm_decomposed(out);
    grouped_conv_as_split(out);
    matmul_as_gemm(out);
    same_rank_operands(out);  // Arm NN 20.08 broadcasts between equal ranks only
    scalar_gather_as_reshape(out);
    transpose_rank_reduced(out, 5);  // armnn::MaxNumOfTensorDimensions
    slice_steps_as_strided_slice(out);  // Arm NN's Slice has no steps
    tanh_as_scaled_tanh(out);        // Activation TanH
    reciprocal_sqrt_as_rsqrt(out);   // ElementwiseUnary Rsqrt
  }
  if (qdq_as_quantized(out) > 0) bias_quantization_scales(out);  // ONNX's QDQ form as quantized tensors
  conv_transpose_weights_as_oihw(out);
  inference_dropout_as_identity(out);
  drop_identity(out, "armnn.");
  global_pools_as_windows(out);
  shape_ops_as_reshape(out, "armnn.");
  explicit_transpose_perm(out);
  explicit_pads(out);
  reshape_shape_as_attribute(out);
  operands_as_attributes(out);
  nonnegative_axes(out);  // Arm NN's reduce descriptors hold unsigned axes
  if (patterns) unary_as_activation(out);
  require_constant_operands(out, "Arm NN");
  return out;
}

}  // namespace nnbridge::formats::armnn
