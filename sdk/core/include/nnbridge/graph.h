// The format-neutral graph IR (docs/architecture.md "The IR").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/attr.h"
#include "nnbridge/buffer.h"
#include "nnbridge/dtype.h"

namespace nnbridge {

/// Value attribute of a constant whose bytes live outside the file that was read and were not
/// loaded (ExecuTorch named data without its .ptd or folder): the key they are stored under.
/// Such a value has no `constant` data; backends name the key when a node needs it.
inline const std::string kExternalDataKey = "external_data.key";
/// Graph metadata set with kExternalDataKey: how to supply the data (the reader option to pass).
inline const std::string kExternalDataHint = "external_data.hint";

/// Index of a Value in Graph::values.
using ValueId = uint32_t;
/// Marks an absent optional input of a Node (ONNX: an empty input name).
inline constexpr ValueId kNoValue = UINT32_MAX;

/// Quantization parameters: real = scale * (q - zero_point).
///
/// Per-tensor when `scales` has one element and `axis` is unset; per-axis (Arm NN
/// `quantizationScales` + `quantizationDim`) when `axis` is set, with one scale per slice.
struct Quantization {
  std::vector<double> scales;        ///< one, or one per slice along `axis`
  std::vector<int64_t> zero_points;  ///< empty, one, or one per scale
  std::optional<int64_t> axis;       ///< the quantized dimension (per-axis only)
  friend bool operator==(const Quantization&, const Quantization&) = default;
};

/// Element type, shape and quantization of a tensor.
struct TensorType {
  DataType dtype = DataType::Undefined;  ///< element type (Undefined: not known)
  /// Dimensions, outermost first; -1 marks an unknown dimension.
  std::vector<int64_t> shape;
  /// True when even the rank is unknown (then `shape` is empty and meaningless).
  bool unknown_rank = false;
  std::optional<Quantization> quantization;  ///< set for the quantized dtypes

  /// Product of the dimensions; nullopt when a dimension or the rank is unknown, or on overflow.
  std::optional<int64_t> element_count() const;
  /// element_count() * element_size(dtype); nullopt as element_count().
  std::optional<int64_t> byte_size() const;
  /// True when the dtype, the rank and every dimension are known: what a backend needs to run.
  bool fully_known() const;
  friend bool operator==(const TensorType&, const TensorType&) = default;
};

/// A tensor: a graph input, an intermediate result, a graph output or a constant.
struct Value {
  std::string name;  ///< unique within the graph
  TensorType type;   ///< dtype, shape (-1: unknown dim) and quantization
  /// Constant data, little-endian, C order, `type.byte_size()` bytes, when the value is a constant.
  std::optional<Buffer> constant;
  /// Format-specific fields of the tensor (`armnn.*`, ...), kept for lossless round-trips.
  AttrMap attrs;

  /// True when the value holds constant data.
  bool is_constant() const { return constant.has_value(); }
};

/// One operation.
struct Node {
  std::string op;    ///< canonical op (ONNX name) or a format-native op (`armnn.StandIn`, `vk.*`, `gl.Program`)
  std::string name;  ///< the node's name in its source file; may be empty, need not be unique
  std::vector<ValueId> inputs;   ///< kNoValue for an absent optional input
  std::vector<ValueId> outputs;  ///< the values it produces
  AttrMap attrs;                 ///< canonical attributes (ONNX names) and `<format>.*` fields
};

/// A graph: values, nodes, inputs and outputs.
///
/// Order rule: a graph is valid when its data flow is acyclic, whatever order its nodes are
/// stored in. `nodes` keeps the source file's order (Arm NN files written through Arm NN's
/// TfLite parser store a layer before the layer that feeds it), so reading and writing a format
/// keeps it; whoever needs producers before consumers (backends, the VkGraph writer) runs
/// topological_order() (nnbridge/order.h).
struct Graph {
  std::vector<Value> values;     ///< every tensor; a ValueId indexes this vector
  std::vector<Node> nodes;       ///< in the source's order (not necessarily topological)
  std::vector<ValueId> inputs;   ///< graph inputs (non-constant values fed by the caller)
  std::vector<ValueId> outputs;  ///< graph outputs, in the source format's order
  AttrMap metadata;              ///< graph-level fields (`armnn.featureVersions.*`, ...)
  std::string source_format;     ///< name of the format it was read from ("armnn", "json", ...), or empty

  /// Appends a value and returns its id.
  ValueId add_value(Value v);
  /// Appends a node and returns its index (any order: see topological_order()).
  std::size_t add_node(Node n);
  /// Id of the value named `name`, or nullopt. Linear search: build a map for repeated lookups.
  std::optional<ValueId> find_value(std::string_view name) const;
  /// For each value, the index of the node that produces it, or SIZE_MAX for inputs/constants.
  std::vector<std::size_t> producers() const;
};

}  // namespace nnbridge
