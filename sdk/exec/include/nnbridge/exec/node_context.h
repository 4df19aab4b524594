// What a backend's kernel factory sees of one node at prepare time: its resolved types, the
// float32 contents of its constant inputs and typed access to its attributes with the schema's
// defaults. Both backends ("cpu", "opencl") build their kernels from this one context, handed
// to them by the shared prepare loop (nnbridge/exec/prepare.h), so they read attributes and
// defaults the same way.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/error.h"
#include "nnbridge/exec/convert.h"
#include "nnbridge/graph.h"
#include "nnbridge/op_schema.h"

namespace nnbridge::exec {

/// Error(Unsupported, id Feature) thrown while preparing a node that needs the value of an input that is not
/// a constant (a Reshape shape, a Slice's starts computed from graph inputs), or whose output
/// shape depends on such values (NonZero). A backend's prepare() answers it with an input-bound
/// plan (nnbridge/exec/input_bound.h) when the graph has inputs to bind.
class NeedsValue : public Error {
 public:
  NeedsValue(std::string message, std::string where = {})
      : Error(ErrorId::Feature, std::move(message), {}, std::move(where)) {}
};

/// One node as its kernel factory sees it. Factories throw Error(Unsupported) for attribute
/// values they do not implement and Error(Invalid) for inconsistent shapes (unsupported() and
/// invalid() below); the prepare loop puts the node's label in front of the message.
struct NodeContext {
  const Node& node;
  const OpSchema* schema = nullptr;  ///< find_schema(node.op), nullptr for an op without one
  std::vector<TensorType> in;        ///< resolved input types (Undefined for an absent optional input)
  std::vector<TensorType> out;       ///< resolved output types (shapes fully known)
  std::vector<const FloatConstant*> constants;  ///< float32 contents of constant inputs (convert.h), else nullptr
  int threads = 1;                   ///< worker threads a kernel may use (BackendOptions::threads, resolved)
  /// Format-specific attributes of each input value (Value::attrs), nullptr for an absent input:
  /// what the IR's types do not carry, e.g. the scale of an Arm NN Int32 tensor.
  std::vector<const AttrMap*> in_attrs;
  /// Set by prepared_only(): per input, whether the kernel took that constant in at prepare
  /// (packed weights) and never reads it at run. Shared by the copies a factory makes of its
  /// context (a lifted rank, a derived node), so a mark made on a copy reaches the plan; null
  /// where nobody asks (the prepare loop makes one per node).
  std::shared_ptr<std::vector<bool>> read_at_prepare_only{};
  /// A hint a backend's plan may set: the node's rank-4 tensors are channels-last ([N, H, W, C]:
  /// an input comes from a node with data_layout NHWC, Arm NN's and TFLite's layout, directly or
  /// through elementwise nodes), so that a kernel splits its work across threads the way those
  /// producers did (by rows of H). Never changes what a kernel computes.
  bool channels_last = false;

  /// Declares that the kernel being built copied constant input `i` at prepare and does not
  /// read it at run: the plan then passes nullptr for it and never asks for its float32 form
  /// (FloatConstant converts on first use), so int8 weights a kernel packs itself are never
  /// widened to float32.
  void prepared_only(std::size_t i) const {
    if (read_at_prepare_only && i < read_at_prepare_only->size()) (*read_at_prepare_only)[i] = true;
  }

  bool has_input(std::size_t i) const { return i < in.size() && in[i].dtype != DataType::Undefined; }
  /// The node's attribute `name`, else the schema's default for it, else nullptr.
  const Attr* attr(std::string_view name) const;
  /// Whether the node itself sets `name` (schema defaults do not count).
  bool has_attr(std::string_view name) const { return node.attrs.find(name) != node.attrs.end(); }
  /// attr() read as one type, `fallback` when absent. A bool reads as an int (0/1) and an int as
  /// a float; any other type is Error(Invalid) naming the attribute.
  int64_t attr_int(std::string_view name, int64_t fallback = 0) const;
  double attr_float(std::string_view name, double fallback = 0) const;
  std::string attr_string(std::string_view name, std::string fallback = {}) const;
  std::vector<int64_t> attr_ints(std::string_view name, std::vector<int64_t> fallback = {}) const;
  /// The float32 contents of input `input` when it is a constant (ONNX operands such as Slice's
  /// starts, Pad's pads, Resize's sizes). Throws NeedsValue naming `what` when the input is not
  /// a constant, Error(Invalid) when it is absent.
  const FloatConstant& value(std::size_t input, std::string_view what) const;
  /// attr_int(name, fallback) normalized against `rank` (nnbridge/axis.h: ONNX's [-r, r-1]).
  int64_t attr_axis(std::string_view name, int64_t fallback, int64_t rank) const;
  /// Throws Error(id, what); `id` must be an Unsupported one (ErrorId::DataType for a dtype the
  /// kernel lacks, ErrorId::Feature for an attribute value or input form it does not implement).
  [[noreturn]] void unsupported(ErrorId id, const std::string& what) const;
  /// Throws Error(id, what); `id` must be an Invalid one (ErrorId::Shape, ErrorId::Arity,
  /// ErrorId::AttributeValue, ...).
  [[noreturn]] void invalid(ErrorId id, const std::string& what) const;
  /// unsupported(ErrorId::Feature, what).
  [[noreturn]] void unsupported(const std::string& what) const;
  /// invalid(ErrorId::InvalidOther, what).
  [[noreturn]] void invalid(const std::string& what) const;
};

/// Scale per output channel for an Int32 bias (input 2) that carries no quantization while X
/// (input 0) and W (input 1) are quantized: X's scale times W's (per-channel) scale, the
/// relation Arm NN requires of quantized Convolution2d / FullyConnected biases. Empty when
/// the bias needs no scaling.
std::vector<float> implied_bias_scale(const NodeContext& ctx, int64_t channels);

}  // namespace nnbridge::exec
