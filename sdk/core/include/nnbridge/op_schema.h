// The op-schema registry: one declaration per canonical op (arity, attributes, shape inference).
//
// The built-in schemas are declared in sdk/core/src/ops/<family>.cc (elementwise, activation,
// conv_pool, normalization, tensor_shape, slice_gather, reduce, quantize, misc); the op names
// and attribute names are the shared plan's (ONNX names where ONNX has the op). Everything else
// (checker, JSON form, format mappings, backends) reads names, arity and defaults from here.
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
  std::string name;                   ///< canonical (ONNX) attribute name
  AttrType type;                      ///< the only kind the checker accepts
  bool required = false;              ///< a node without it is an Error finding
  std::optional<Attr> default_value;  ///< used when absent and not required
  std::string doc;                    ///< meaning, units and allowed values
};

/// What shape inference sees of one node.
struct InferenceContext {
  const Node& node;
  std::span<const TensorType> input_types;           ///< one per node input (Undefined, unknown rank for kNoValue)
  std::span<const Buffer* const> input_constants;    ///< constant data of an input, or nullptr

  /// The attribute if present, else the schema default, else nullptr.
  const Attr* attr(std::string_view name) const;
  int64_t attr_int(std::string_view name) const;      ///< throws Error(Invalid) if missing or mistyped
  double attr_float(std::string_view name) const;                     ///< as attr_int, for a float
  const std::string& attr_string(std::string_view name) const;        ///< as attr_int, for a string
  const std::vector<int64_t>& attr_ints(std::string_view name) const;  ///< as attr_int, for a list of ints
  const std::vector<double>& attr_floats(std::string_view name) const; ///< as attr_int, for a list of floats
  const struct OpSchema* schema = nullptr;
  /// The output types the graph declares (may be empty). Only a dtype hint, for ops whose
  /// output type is a choice of the file rather than a function of the inputs (Cast, ArgMax, Shape).
  std::span<const TensorType> declared_output_types = {};
};

/// Output types from input types; throws Error(Invalid) with a message on inconsistent inputs.
///
/// Conventions of the result: dtype Undefined means "not inferred", a dim of -1 an unknown
/// dim, unknown_rank an unknown rank; quantization is never inferred (the file's is kept).
/// The checker compares only what is known.
using ShapeInferenceFn = std::function<std::vector<TensorType>(const InferenceContext&)>;

/// The declaration of one canonical op. `source` names where its semantics come from
/// (e.g. "ONNX Softmax-13; Arm NN SoftmaxDescriptor.beta").
struct OpSchema {
  std::string name;                      ///< canonical op name (ONNX's where ONNX has the op)
  int min_inputs = 0, max_inputs = 0;    ///< max -1: variadic
  int min_outputs = 1, max_outputs = 1;  ///< max -1: variadic
  std::vector<AttrSpec> attrs;           ///< every attribute it accepts
  ShapeInferenceFn infer;                ///< may be empty: outputs keep the types the file declared
  std::string doc;                       ///< what it computes
  std::string source;                    ///< where the semantics come from (see above)

  /// The attribute named `attr_name`, or nullptr.
  const AttrSpec* find_attr(std::string_view attr_name) const;
};

/// The schema of `op`, or nullptr for an unknown or format-native op.
const OpSchema* find_schema(std::string_view op);
/// Every registered schema, sorted by name.
std::vector<const OpSchema*> all_schemas();
/// Adds or replaces a schema (extensions register their own ops here).
void register_schema(OpSchema schema);

/// Runs the schema's shape inference for node `index` of `g` with its current input types.
/// Returns nullopt when the op has no schema or no inference function. Throws Error(Invalid)
/// (where = "nodes[i]") when `index` or an input id is out of range or inference fails.
std::optional<std::vector<TensorType>> infer_types(const Graph& g, std::size_t index);

/// Settles the output types of node `index` of `g` before a backend runs it, in place, from
/// `inferred` (the schema's or a custom kernel's inference; nullopt when it had nothing to say)
/// and what the file declares. Both backends follow the same rule:
/// - every dimension known on both sides must agree, and so must the rank when the declared
///   type is fully known (Error(Invalid): a file cannot make kernels index past a buffer);
/// - the declared dtype wins (the file's choice for Cast, ArgMax, ...); unknown dims and an
///   unknown rank are taken from the declaration; quantization is always the file's.
/// Throws Error(Unsupported) when an output type stays unknown, or Error(Invalid) carrying
/// `infer_error` (the message of a failed inference) when there is one. Messages start with
/// `label` (the node as the backend names it); `where` is the error's path ("nodes[i]").
void resolve_output_types(Graph& g, std::size_t index, const std::optional<std::vector<TensorType>>& inferred,
                          const std::string& infer_error, const std::string& label, const std::string& where);

}  // namespace nnbridge
