// Quantized tensors between the IR's quantized dtypes and ONNX's QDQ form.
//
// The IR types a quantized tensor as qasymmu8 / qasymms8 / qsymms8 / qsymms16 with a scale and
// zero point (per tensor, or per axis): its elements are real values on that grid, and a backend
// rounds every result to the grid of its output (Arm NN's quantized layers compute on dequantized
// values and quantize their results: armnn::Quantize, reference workloads' Decoders/Encoders).
// ONNX (opset 13-17) has no quantized tensor type: it stores the integers as uint8 / int8 tensors
// and states the scale and zero point with DequantizeLinear / QuantizeLinear nodes around a float
// computation (the "QDQ" form ONNX Runtime's quantization tools write).
#pragma once

#include <cstddef>

#include "nnbridge/graph.h"

namespace nnbridge {

/// Rewrites every quantized tensor of `g` into ONNX's QDQ form (for the ONNX writer):
/// - the tensor keeps its name, id and shape, and takes its storage type: qasymmu8 -> uint8,
///   qasymms8 / qsymms8 -> int8, qsymms16 -> int16, with no quantization; a constant keeps its
///   bytes (the stored integers);
/// - a node producing it computes a new float32 tensor `<name>_real` instead, followed by
///   QuantizeLinear(real, scale, zero_point) -> the tensor (ONNX QuantizeLinear-13);
/// - the nodes reading it read `<name>_dequantized` = DequantizeLinear(tensor, scale, zero_point)
///   (ONNX DequantizeLinear-13), made once where the tensor becomes available;
/// - scale is a float32 scalar, or a 1-D float32 of one scale per slice with the `axis`
///   attribute (per-axis); zero_point has the storage type and the scale's shape;
/// - Arm NN's one-input Quantize (QuantizeLinear) and Dequantize (DequantizeLinear) nodes get the
///   scale and zero point as inputs and read / write the stored integers themselves;
/// - Cast reads and writes the stored integers (the canonical Cast converts a quantized tensor's
///   storage, as Arm NN's RefCastWorkload does);
/// - the Int32 bias (input 2) of Conv / ConvTranspose / Gemm whose X and W are quantized and whose
///   bias has no quantization of its own (Arm NN: bias scale = X scale * W scale, zero point 0)
///   is read through DequantizeLinear(bias, X scale * W scale per output channel, 0, axis 0);
/// - qsymms16 has no QuantizeLinear-13 / DequantizeLinear-13 form (uint8 / int8 only before
///   opset 21), so its nodes are the same arithmetic: Cast to float32, Sub zero point, Mul scale;
///   and Div scale, Round, Add zero point, Clip to [-32768, 32767], Cast to int16.
/// Rounding: ONNX QuantizeLinear and Round round half to even; Arm NN's armnn::Quantize rounds
/// half away from zero, so a result exactly halfway between two grid points can differ by one
/// step. A tensor whose quantization is missing or unusable (a scale <= 0 or not finite, a scale
/// count that is not 1 or the length of its axis) is left as it is, for the writer to refuse by
/// name. Returns the number of tensors rewritten.
std::size_t quantized_as_qdq(Graph& g);

/// The inverse, for formats with quantized tensor types (Arm NN): a graph in ONNX's QDQ form
/// gets quantized tensors back.
/// - A uint8 / int8 tensor read by DequantizeLinear or written by QuantizeLinear with a constant
///   float32 scale (scalar, or 1-D with `axis`) and a constant zero point (or none) takes that
///   grid: uint8 -> qasymmu8, int8 -> qasymms8, per-axis int8 with zero points 0 -> qsymms8 (Arm
///   NN's per-axis type). A tensor whose Q / DQ nodes disagree, or whose scale or zero point is
///   not a constant, is left, with its nodes.
/// - QuantizeLinear(r) -> q, where r is computed by an op that nothing else reads: the op writes q
///   itself (a quantized output is rounded to its grid). Otherwise the node stays as Arm NN's
///   Quantize (one input).
/// - DequantizeLinear(q) -> r, where r is not a graph output and no Cast reads it: r's readers
///   read q (an op dequantizes a quantized input). Otherwise the node stays as Arm NN's
///   Dequantize (one input).
/// - The bias of Conv / ConvTranspose / Gemm given as DequantizeLinear(Int32 constant, scales,
///   zero point 0) whose scales are X scale * W scale (per output channel, to a relative 1e-6):
///   the Int32 constant itself (Arm NN's quantized bias).
/// - Reshape, Transpose, Squeeze, Unsqueeze, Flatten, Identity, MaxPool, Slice, Gather, Split,
///   DepthToSpace, SpaceToDepth and Concat whose inputs are then quantized with one grid and whose
///   float32 outputs are not graph outputs give their outputs that grid: they move values, so the
///   values stay on it (Arm NN's layers take and give one data type).
/// Rounding: armnn::Quantize rounds half away from zero, ONNX QuantizeLinear half to even, so a
/// result exactly halfway between two grid points can differ by one step. Returns the number of
/// tensors given a quantized type.
std::size_t qdq_as_quantized(Graph& g);

}  // namespace nnbridge
