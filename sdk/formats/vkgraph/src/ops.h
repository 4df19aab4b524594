// The VkGraph mapping table: ATen operators (as the Vulkan delegate names them) <-> canonical ops.
//
// One row per (operator name, canonical op). A row lists the operator's arguments in ATen
// schema order, output(s) last -- exactly the OperatorCall.args layout, see ExecuTorch
// backends/vulkan/runtime/graph/ops/impl/*.cpp -- saying for each argument whether it is a
// tensor (and which input/output slot of the canonical node it is), a scalar or list (and which
// canonical attribute it becomes), or ignored. The reader and the writer use the same rows in
// opposite directions: to_canonical() turns collected ATen arguments into canonical attributes
// (or declines: the operator then stays native), from_canonical() the reverse.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/attr_rename.h"
#include "nnbridge/graph.h"
#include "raw.h"

namespace nnbridge::formats::vkgraph {

enum class ArgKind : uint8_t {
  In,         ///< a VkTensor: canonical input `slot`
  OptIn,      ///< a VkTensor or Null (absent optional input)
  InList,     ///< a ValueList of VkTensors: canonical inputs from `slot` on
  Out,        ///< a VkTensor: canonical output `slot`
  OutList,    ///< a ValueList of VkTensors: the canonical outputs
  Int,        ///< Int
  Bool,       ///< Bool
  Number,     ///< Int or Double (ATen Scalar), read as a float
  Str,        ///< String
  Ints,       ///< IntList, or a ValueList of Int values
  OptInt,     ///< Int or Null
  OptNumber,  ///< Int, Double or Null
  OptInts,    ///< IntList (or ValueList of Ints) or Null
  Any,        ///< any value; not used by the mapping (written fresh as `def`, Null without one)
};

struct ArgSpec {
  ArgKind kind;
  std::string name;  ///< the ATen argument name
  int slot = 0;      ///< tensor kinds: the canonical input/output index
  std::optional<Attr> def;  ///< what a writer creates when the canonical node does not say (ATen default)
};

/// Input and output types of the node, in canonical order; `constant` (when given) says which
/// inputs are constants (ExecuTorch's Vulkan runtime prepacks some arguments and needs them so).
struct MapContext {
  const std::vector<TensorType>& in;
  const std::vector<TensorType>& out;
  const std::vector<bool>* constant = nullptr;
  bool is_constant(std::size_t i) const { return constant && i < constant->size() && (*constant)[i]; }
};

/// Collected ATen arguments by name (Null / absent optional arguments have no entry; Number
/// arguments are doubles, Bool arguments bools, list arguments int lists).
using AtenArgs = AttrMap;
/// Extra step after the renames; returns false when the op cannot be this canonical op.
using ToFn = bool (*)(const AtenArgs& a, const MapContext& c, AttrMap& out);
/// Extra step after the renames; throws Error(Unsupported) for what the operator cannot express.
using FromFn = void (*)(const AttrMap& attrs, const MapContext& c, AtenArgs& out);

struct OpRow {
  std::string aten;  ///< "aten.add.Tensor"
  std::string op;    ///< "Add"
  std::vector<ArgSpec> args;
  std::vector<AttrRename> renames;  ///< ATen arguments that are canonical attributes (nnbridge/attr_rename.h)
  /// Arguments that must have this value for the row to apply (e.g. alpha = 1).
  std::vector<std::pair<std::string, Attr>> fixed;
  ToFn to = nullptr;
  FromFn from = nullptr;
  /// Canonical attributes the writer may express differently (e.g. Reshape's `shape` from the
  /// output type): left out of the writer's round-trip check.
  std::vector<std::string> loose;

  int tensor_inputs() const;   ///< highest In/OptIn slot + 1 (InList: -1, variadic)
  int tensor_outputs() const;  ///< Out slots; OutList: -1
};

/// Every row, in writer preference order per canonical op.
const std::vector<OpRow>& op_rows();
/// True when ExecuTorch's Vulkan runtime registers an operator of this name (the list and its
/// commit are in writer.cc's header). The writer makes new OperatorCalls of these only.
bool vulkan_registers(std::string_view aten);
/// Rows for an operator name (reader side), in table order.
std::vector<const OpRow*> rows_for_name(std::string_view aten);
/// Rows for a canonical op (writer side), in preference order.
std::vector<const OpRow*> rows_for_op(std::string_view op);

/// Canonical attributes from collected ATen arguments; nullopt when the row does not apply.
std::optional<AttrMap> to_canonical(const OpRow& row, const AtenArgs& aten, const MapContext& c);
/// ATen arguments from canonical attributes (completed with the op schema's defaults). Throws
/// Error(Unsupported) when the operator cannot express them: a fixed argument that would
/// differ, or canonical attributes that do not survive to_canonical(from_canonical(...)).
AtenArgs from_canonical(const OpRow& row, const AttrMap& attrs, const MapContext& c);
/// True when the canonical (undotted) attributes of `a` and `b` agree, absent ones read as the
/// schema default of `op`; attributes named in `skip` are not compared.
bool same_canonical(std::string_view op, const AttrMap& a, const AttrMap& b, const std::vector<std::string>& skip = {});

/// The ATen arguments and tensors of an OperatorCall read through `row`: tensors as table
/// indices in canonical slot order (-1: an absent optional input; trailing ones dropped).
/// nullopt when the call does not fit the row (argument count or kinds).
struct Collected {
  AtenArgs aten;
  std::vector<int64_t> in, out;
};
std::optional<Collected> collect(const OpRow& row, const std::vector<int32_t>& args, const std::vector<RawValue>& table);
/// A native call's tensors: those of every argument but the last (ValueList items included)
/// are inputs, those of the last its outputs.
void native_tensors(const std::vector<int32_t>& args, const std::vector<RawValue>& table, std::vector<int64_t>& in,
                    std::vector<int64_t>& out);

namespace transforms {
bool conv_to(const AtenArgs&, const MapContext&, AttrMap&);
void conv_from(const AttrMap&, const MapContext&, AtenArgs&);
bool tconv_to(const AtenArgs&, const MapContext&, AttrMap&);
void tconv_from(const AttrMap&, const MapContext&, AtenArgs&);
bool max_pool_to(const AtenArgs&, const MapContext&, AttrMap&);
void max_pool_from(const AttrMap&, const MapContext&, AtenArgs&);
bool avg_pool_to(const AtenArgs&, const MapContext&, AttrMap&);
void avg_pool_from(const AttrMap&, const MapContext&, AtenArgs&);
bool linear_matmul_to(const AtenArgs&, const MapContext&, AttrMap&);
void linear_matmul_from(const AttrMap&, const MapContext&, AtenArgs&);
bool linear_gemm_to(const AtenArgs&, const MapContext&, AttrMap&);
void linear_gemm_from(const AttrMap&, const MapContext&, AtenArgs&);
bool mm_to(const AtenArgs&, const MapContext&, AttrMap&);
void mm_from(const AttrMap&, const MapContext&, AtenArgs&);
bool bmm_to(const AtenArgs&, const MapContext&, AttrMap&);
void bmm_from(const AttrMap&, const MapContext&, AtenArgs&);
void addmm_from(const AttrMap&, const MapContext&, AtenArgs&);
void gelu_from(const AttrMap&, const MapContext&, AtenArgs&);
bool hardsigmoid_to(const AtenArgs&, const MapContext&, AttrMap&);
void hardsigmoid_from(const AttrMap&, const MapContext&, AtenArgs&);
void reduce_from(const AttrMap&, const MapContext&, AtenArgs&);
bool pixel_shuffle_to(const AtenArgs&, const MapContext&, AttrMap&);
void pixel_shuffle_from(const AttrMap&, const MapContext&, AtenArgs&);
bool repeat_to(const AtenArgs&, const MapContext&, AttrMap&);
bool layer_norm_to(const AtenArgs&, const MapContext&, AttrMap&);
void layer_norm_from(const AttrMap&, const MapContext&, AtenArgs&);
bool permute_to(const AtenArgs&, const MapContext&, AttrMap&);
void permute_from(const AttrMap&, const MapContext&, AtenArgs&);
bool view_to(const AtenArgs&, const MapContext&, AttrMap&);
void view_from(const AttrMap&, const MapContext&, AtenArgs&);
bool squeeze_to(const AtenArgs&, const MapContext&, AttrMap&);
bool split_to(const AtenArgs&, const MapContext&, AttrMap&);
void split_from(const AttrMap&, const MapContext&, AtenArgs&);
bool slice_to(const AtenArgs&, const MapContext&, AttrMap&);
void slice_from(const AttrMap&, const MapContext&, AtenArgs&);
bool select_to(const AtenArgs&, const MapContext&, AttrMap&);
void select_from(const AttrMap&, const MapContext&, AtenArgs&);
bool pad_to(const AtenArgs&, const MapContext&, AttrMap&);
void pad_from(const AttrMap&, const MapContext&, AtenArgs&);
bool argmax_to(const AtenArgs&, const MapContext&, AttrMap&);
bool embedding_to(const AtenArgs&, const MapContext&, AttrMap&);
void embedding_from(const AttrMap&, const MapContext&, AtenArgs&);
bool index_select_to(const AtenArgs&, const MapContext&, AttrMap&);
bool upsample_to(const AtenArgs&, const MapContext&, AttrMap&);
void upsample_from(const AttrMap&, const MapContext&, AtenArgs&);
}  // namespace transforms

}  // namespace nnbridge::formats::vkgraph
