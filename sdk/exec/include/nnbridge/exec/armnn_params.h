// The constant parameters of an Arm NN layer (LSTM weights, anchors, ...), which the Arm NN
// reader wires as extra node inputs after the layer's input slots, found by their field path.
// Both backends read armnn.Lstm, armnn.QLstm and armnn.DetectionPostProcess through this.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/exec/node_context.h"
#include "nnbridge/exec/shape.h"

namespace nnbridge::exec {

/// The constant inputs of an `armnn.<Layer>` node: the reader (sdk/formats/armnn, "ConstTensors
/// inside layers") appends them after the `slots` input slots and lists their field paths, in
/// order, in the attribute `armnn.constInputs` (e.g. "inputParams.cellBias").
/// Error(Invalid, Arity) when the node's input count is not slots + the names listed.
class ArmnnConstInputs {
 public:
  ArmnnConstInputs(const NodeContext& ctx, std::size_t slots) : ctx_(ctx), slots_(slots) {
    if (const Attr* a = ctx.attr("armnn.constInputs"); a && a->is<std::vector<std::string>>()) names_ = a->get<std::vector<std::string>>();
    if (ctx.in.size() != slots + names_.size())
      ctx.invalid(ErrorId::Arity, "has " + std::to_string(ctx.in.size()) + " inputs; expected " + std::to_string(slots) +
                  " input slots and the " + std::to_string(names_.size()) + " parameters named in armnn.constInputs");
  }
  /// Node input index of `field`, or -1 when the layer does not carry it.
  int find(std::string_view field) const {
    for (std::size_t i = 0; i < names_.size(); ++i)
      if (names_[i] == field) return static_cast<int>(slots_ + i);
    return -1;
  }
  /// As find(); Error(Invalid) when absent or when its element count is not `count`.
  int require(std::string_view field, int64_t count) const {
    const int i = find(field);
    if (i < 0) ctx_.invalid(ErrorId::Arity, "lacks the parameter " + std::string(field) + " that its descriptor asks for");
    check(i, field, count);
    return i;
  }
  /// As find(), checking the element count of a parameter that is present.
  int optional(std::string_view field, int64_t count) const {
    const int i = find(field);
    if (i >= 0) check(i, field, count);
    return i;
  }

 private:
  void check(int i, std::string_view field, int64_t count) const {
    if (numel(ctx_.in[static_cast<std::size_t>(i)].shape) != count)
      ctx_.invalid(ErrorId::Shape, "parameter " + std::string(field) + " has " + std::to_string(numel(ctx_.in[static_cast<std::size_t>(i)].shape)) +
                   " elements, expected " + std::to_string(count));
  }
  const NodeContext& ctx_;
  std::size_t slots_;
  std::vector<std::string> names_;
};

/// The four switches Arm NN's LstmDescriptor and QLstmDescriptor share (armnn/Descriptors.hpp:
/// m_CifgEnabled, default true; m_PeepholeEnabled, m_ProjectionEnabled, m_LayerNormEnabled,
/// default false), as the reader keeps them: armnn.descriptor.{cifgEnabled, peepholeEnabled,
/// projectionEnabled, layerNormEnabled}.
struct ArmnnLstmFlags {
  bool cifg = true, peephole = false, projection = false, layer_norm = false;
};
inline ArmnnLstmFlags armnn_lstm_flags(const NodeContext& ctx) {
  ArmnnLstmFlags f;
  f.cifg = ctx.attr_int("armnn.descriptor.cifgEnabled", 1) != 0;
  f.peephole = ctx.attr_int("armnn.descriptor.peepholeEnabled", 0) != 0;
  f.projection = ctx.attr_int("armnn.descriptor.projectionEnabled", 0) != 0;
  f.layer_norm = ctx.attr_int("armnn.descriptor.layerNormEnabled", 0) != 0;
  return f;
}

}  // namespace nnbridge::exec
