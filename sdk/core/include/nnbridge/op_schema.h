// The op-schema registry: one declaration per canonical op (arity, attributes, shape inference).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/attr.h"
#include "nnbridge/graph.h"

namespace nnbridge {

/// One attribute of an op.
struct AttrSpec {
  std::string name;
  AttrType type;
  bool required = false;
  std::optional<Attr> default_value;  ///< used when absent and not required
  std::string doc;
};

/// What shape inference sees of one node.
struct InferenceContext {
  const Node& node;
  std::span<const TensorType> input_types;           ///< one per node input (Undefined for kNoValue)
  std::span<const Buffer* const> input_constants;    ///< constant data of an input, or nullptr

  /// The attribute if present, else the schema default, else nullptr.
  const Attr* attr(std::string_view name) const;
  int64_t attr_int(std::string_view name) const;      ///< throws Error(Invalid) if missing or mistyped
  double attr_float(std::string_view name) const;
  const std::vector<int64_t>& attr_ints(std::string_view name) const;
  const struct OpSchema* schema = nullptr;
};

/// Output types from input types; throws Error(Invalid) with a message on inconsistent inputs.
using ShapeInferenceFn = std::function<std::vector<TensorType>(const InferenceContext&)>;

/// The declaration of one canonical op. `source` names where its semantics come from
/// (e.g. "ONNX Softmax-13; Arm NN SoftmaxDescriptor.beta").
struct OpSchema {
  std::string name;
  int min_inputs = 0, max_inputs = 0;    ///< max -1: variadic
  int min_outputs = 1, max_outputs = 1;  ///< max -1: variadic
  std::vector<AttrSpec> attrs;
  ShapeInferenceFn infer;                ///< may be empty: outputs keep the types the file declared
  std::string doc;
  std::string source;

  const AttrSpec* find_attr(std::string_view attr_name) const;
};

/// The schema of `op`, or nullptr for an unknown or format-native op.
const OpSchema* find_schema(std::string_view op);
/// Every registered schema, sorted by name.
std::vector<const OpSchema*> all_schemas();
/// Adds or replaces a schema (extensions register their own ops here).
void register_schema(OpSchema schema);

/// Runs the schema's shape inference for node `index` of `g` with its current input types.
/// Returns nullopt when the op has no schema or no inference function.
std::optional<std::vector<TensorType>> infer_types(const Graph& g, std::size_t index);

}  // namespace nnbridge
