// The Arm NN mapping table: layer types <-> canonical ops (ONNX vocabulary; the core op registry in sdk/core/src/ops/).
//
// One row per (layer type, canonical op). A row names the union member, the canonical op (or
// none: the layer stays the format-native op `armnn.<LayerType>`), an optional discriminator
// (a descriptor field whose value selects the op, e.g. Activation's activationFunction),
// plain field <-> attribute renames, and optional transforms for what renames cannot say
// (pads from padTop/padLeft/..., Permute's inverse vector). The reader and the writer use the
// same rows in opposite directions; whatever a row does not derive is kept as `armnn.*`
// attributes (see tensor_info.h, "derive and diff").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fields.h"
#include "nnbridge/attr_rename.h"
#include "nnbridge/graph.h"

namespace nnbridge::formats::armnn {

/// What the transforms may look at besides the fields: the node's input and output types
/// (inputs in node order: slot inputs, then constant fields in the row's const_fields order).
struct MapContext {
  const std::vector<TensorType>& inputs;
  const std::vector<TensorType>& outputs;
  /// featureVersions.weightsLayoutScheme in force (depthwise weights [M,I,H,W] or [1,H,W,I*M]).
  int64_t weights_layout_scheme = 0;
};

/// Fields -> canonical attrs; false when this layer cannot be that op (then the next row,
/// finally the native op, is tried).
using ToCanonical = bool (*)(const FieldMap& f, const reflection::Object& layer, const MapContext& c, AttrMap& out);
/// Canonical attrs -> fields (only the fields the transform derives).
using FromCanonical = void (*)(const AttrMap& a, const MapContext& c, FieldMap& f);

struct OpRow {
  std::string layer;  ///< union member without the "Layer" suffix ("Convolution2d")
  std::string op;     ///< canonical op; empty for the native row
  std::string disc_field;
  int64_t disc_value = 0;
  std::vector<AttrRename> renames;  ///< descriptor fields that are canonical attributes (nnbridge/attr_rename.h)
  ToCanonical to = nullptr;
  FromCanonical from = nullptr;
  /// ConstTensor fields of the layer that become node inputs, in canonical input order.
  std::vector<std::string> const_fields;

  // Filled from the schema when the table is built.
  uint8_t tag = 0;          ///< Layer union tag
  uint32_t layer_type = 0;  ///< LayerType value
  const reflection::Object* object = nullptr;  ///< the layer table
  std::string ir;           ///< ir_op(), computed once
  /// True when neither `to` nor `from` is set: the row's result depends on the fields only.
  bool fields_only = false;

  /// The op the IR uses: `op`, or `armnn.<layer>`.
  const std::string& ir_op() const { return ir; }
};

/// Every row; canonical rows first in writer preference order, then one native row per layer.
const std::vector<OpRow>& op_rows();
/// Rows for a union tag (canonical rows first, the native row last); empty for an unknown tag.
const std::vector<const OpRow*>& rows_for_tag(uint8_t tag);
/// The row a writer uses for `op`, preferring `layer` when the node names one (hash lookup).
const OpRow* row_for_op(std::string_view op, std::string_view layer);
/// ConstTensor field paths' first segments plus "base": the fields read_fields skips for `row`.
const std::vector<std::string>& skipped_top_fields(const OpRow& row);
/// Number of members of the Layer union (73 for the released schema).
std::size_t layer_type_count();

/// Canonical attrs and residual-free fields for a row (reader side). nullopt: the row does not apply.
std::optional<AttrMap> to_canonical(const OpRow& row, const FieldMap& f, const MapContext& c);
/// The fields a writer derives from canonical attrs (markers included).
FieldMap from_canonical(const OpRow& row, const AttrMap& attrs, const MapContext& c);

/// The writer's closure rule: reads `written` (the fields a writer made for a node with
/// canonical `attrs`) back through the row as the reader would, and names the first canonical
/// attribute (schema defaults completed on both sides) that would come back different, e.g.
/// DepthToSpace mode "CRD" (Arm NN's DepthToSpace is DCR only). nullopt when nothing is lost.
/// Float attributes compare as float32 (Arm NN descriptors store float).
std::optional<std::string> lost_attribute(const OpRow& row, const AttrMap& attrs, const FieldMap& written,
                                          const MapContext& c);

/// Transforms (ops_transforms.cc), referenced by the table.
namespace transforms {
bool conv_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void conv_from(const AttrMap&, const MapContext&, FieldMap&);
bool dwconv_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void dwconv_from(const AttrMap&, const MapContext&, FieldMap&);
bool tconv_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void tconv_from(const AttrMap&, const MapContext&, FieldMap&);
bool pool_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void pool_from(const AttrMap&, const MapContext&, FieldMap&);
/// ceil_mode, count_include_pad and L2 (p, mean): the rules Pooling2d and Pooling3d share.
void pool_rules_to(const FieldMap&, const reflection::Object&, AttrMap&);
void pool_rules_from(const AttrMap&, FieldMap&);
bool permute_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void permute_from(const AttrMap&, const MapContext&, FieldMap&);
bool layout_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void layout_from(const AttrMap&, const MapContext&, FieldMap&);
bool act_ab_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void act_ab_from(const AttrMap&, const MapContext&, FieldMap&);
bool act_a_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void act_a_from(const AttrMap&, const MapContext&, FieldMap&);
bool clip_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void clip_from(const AttrMap&, const MapContext&, FieldMap&);
bool concat_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void concat_from(const AttrMap&, const MapContext&, FieldMap&);
bool split_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void split_from(const AttrMap&, const MapContext&, FieldMap&);
bool pad_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void pad_from(const AttrMap&, const MapContext&, FieldMap&);
bool resize_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void resize_from(const AttrMap&, const MapContext&, FieldMap&);
bool slice_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void slice_from(const AttrMap&, const MapContext&, FieldMap&);
bool stack_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void stack_from(const AttrMap&, const MapContext&, FieldMap&);
bool l2norm_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void l2norm_from(const AttrMap&, const MapContext&, FieldMap&);
void reduce_sum_from(const AttrMap&, const MapContext&, FieldMap&);
bool argminmax_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void argminmax_from(const AttrMap&, const MapContext&, FieldMap&);
bool lrn_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void lrn_from(const AttrMap&, const MapContext&, FieldMap&);
bool gemm_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void gemm_from(const AttrMap&, const MapContext&, FieldMap&);
// ops_transforms_nd.cc: layers newer than Arm NN 20.08.
bool conv3d_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void conv3d_from(const AttrMap&, const MapContext&, FieldMap&);
bool pool3d_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void pool3d_from(const AttrMap&, const MapContext&, FieldMap&);
bool bmm_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
bool scatter_to(const FieldMap&, const reflection::Object&, const MapContext&, AttrMap&);
void scatter_from(const AttrMap&, const MapContext&, FieldMap&);
}  // namespace transforms

}  // namespace nnbridge::formats::armnn
