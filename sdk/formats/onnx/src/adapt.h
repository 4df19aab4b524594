// One node between its ONNX form and its IR form, through the table in ops.cc: canonical when a
// row fits, native (`onnx.<op_type>`) otherwise.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "internal.h"

namespace nnbridge::formats::onnx {

/// A NodeProto's attributes in file order, as Attr values (TENSOR ones as Bytes).
using OnnxAttrs = std::vector<std::pair<std::string, Attr>>;

/// Reader: makes `n` (inputs: the ONNX inputs; outputs set) the canonical node of `op_type`
/// when a row fits. Returns false, leaving `n` as it was, when the node stays native. Throws
/// Error(Unsupported) naming `where` and the input when an ONNX input the canonical op takes as
/// an attribute is not a constant (or not one it can read).
bool to_canonical(const std::string& op_type, const OnnxAttrs& attrs, Node& n, Graph& g, const std::string& where);
/// Reader: `n` as the native op `onnx.<op_type>` with its attributes as they are.
void to_native(const std::string& op_type, const OnnxAttrs& attrs, Node& n);

/// What the writer's node mapping needs from the rest of the writer.
struct NodeWriter {
  const Graph& g;
  /// The ONNX name of each value (unique, non-empty), "" for an absent output.
  const std::vector<std::string>& names;
  /// The constant value named `name` in `g`, or nullptr.
  std::function<const Value*(const std::string& name)> constant_named;
  /// Adds an initializer for an operand the node needs; returns the name it was given (unique).
  std::function<std::string(const std::string& hint, ::onnx::TensorProto t)> add_initializer;
};

/// Writer: the NodeProto of IR node `n` (op_type, domain, inputs, outputs, attributes; not the
/// name or doc_string). Throws Error(Unsupported) naming `where` for an op or attribute value
/// that ONNX opset 17 cannot express.
void write_node(const Node& n, ::onnx::NodeProto& out, NodeWriter& w, const std::string& where);

}  // namespace nnbridge::formats::onnx
