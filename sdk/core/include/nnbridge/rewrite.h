// Format-neutral rewrites of a Graph into more explicit but equivalent forms, for writers whose
// format needs them (a format without ONNX's defaults, auto_pad or shape inputs). Each changes
// only the nodes and values it names, keeps every other field as it is, and says in its
// return value how many it changed; none of them changes what the graph computes.
#pragma once

#include <cstddef>
#include <string_view>

#include "nnbridge/graph.h"

namespace nnbridge {

/// Fills what the file left unknown of each value's type (dtype Undefined, unknown rank,
/// dims -1) from op-schema shape inference (op_schema.h), nodes in topological order, as ONNX
/// shape inference does for a model without value_info (PyTorch's exports). Declared parts are
/// kept; quantization is never inferred. A node without a schema or whose inference fails
/// leaves its outputs as they are (the checker reports it). A cyclic graph is left unchanged.
/// Returns the number of values whose type changed.
std::size_t infer_missing_types(Graph& g);

/// Transpose without `perm` gets the perm ONNX Transpose-13 means, the dims reversed
/// ([r-1, ..., 0]), where its input's rank is known. Returns the number of nodes changed.
std::size_t explicit_transpose_perm(Graph& g);

/// Conv, MaxPool, AveragePool and LpPool with auto_pad SAME_UPPER, SAME_LOWER or VALID get
/// auto_pad NOTSET and the `pads` ONNX Conv-11 / MaxPool-12 define, where the input's spatial
/// dims are known: per spatial dim, total = max(0, (ceil(in / stride) - 1) * stride +
/// dilation * (kernel - 1) + 1 - in), SAME_UPPER puts total / 2 at the beginning (the extra one
/// at the end), SAME_LOWER the extra one at the beginning; VALID is all 0. Returns the number
/// of nodes changed (ConvTranspose keeps its auto_pad: its rule depends on output_shape).
std::size_t explicit_pads(Graph& g);

/// Reshape whose second input is a constant int64 tensor gets the `shape` attribute instead
/// (Reshape-1's form, which the canonical op also takes): the output's shape when it is fully
/// known, else the constant with its 0s resolved from the input shape (ONNX Reshape-14 with
/// allowzero 0). The constant stays in the graph if anything else reads it. Returns the
/// number of nodes changed.
std::size_t reshape_shape_as_attribute(Graph& g);

/// Tile whose `repeats` input is a constant int64 tensor gets the `repeats` attribute instead
/// (the attribute form the canonical op also takes; same values, ONNX Tile-13). Returns the
/// number of nodes changed.
std::size_t tile_repeats_as_attribute(Graph& g);

/// Identity nodes (ONNX Identity-16: the output is the input) without attributes in
/// `keep_prefix` (the target format's own fields, e.g. "armnn." for the node an Arm NN Output
/// layer reads as; empty: none kept) are removed:
/// readers of the output read the input instead. When the output is a graph output, the
/// input's producer writes the output value itself (so the graph output keeps its name),
/// provided the input is produced by a node, is not itself a graph output and has the same
/// type; otherwise the Identity stays. Returns the number of nodes removed.
std::size_t drop_identity(Graph& g, std::string_view keep_prefix = {});

/// GlobalAveragePool / GlobalMaxPool (ONNX -1: the mean / max over every spatial dim) become
/// AveragePool / MaxPool with kernel_shape = the spatial dims, strides 1 and no padding (one
/// window covering the plane: the same mean and max), where the input's spatial dims are
/// known. Returns the number of nodes changed.
std::size_t global_pools_as_windows(Graph& g);

/// Flatten, Squeeze and Unsqueeze (ONNX -13: the same elements in a new shape) become Reshape
/// with the `shape` attribute set to the output's shape, where that shape is fully known (their
/// axes inputs and axis/axes attributes, if any, are dropped from the node), except nodes with
/// attributes in `keep_prefix` (as drop_identity). Returns the number of nodes changed.
std::size_t shape_ops_as_reshape(Graph& g, std::string_view keep_prefix = {});

/// Conv, MaxPool and AveragePool with count_include_pad 1 whose `pads` differ between the
/// beginning and the end of a spatial dim (TensorFlow-style SAME, which ATen's symmetric
/// `padding` cannot say) get an explicit Pad in front (mode constant; value 0 for Conv and
/// AveragePool, -inf for MaxPool, the values a padded window sees in ONNX) and no pads of their
/// own: the same windows over the same values. Float inputs of known rank only; AveragePool
/// with count_include_pad 0 is left as it is (its divisor depends on the padding). Returns the
/// number of nodes changed.
std::size_t asymmetric_pads_as_pad(Graph& g);

}  // namespace nnbridge
