// ONNX models (.onnx: protobuf ModelProto), through Debian's ONNX 1.12 library (onnx.proto,
// onnx::checker, shape inference and the version converter).
#pragma once

#include <cstdint>
#include <optional>

#include "nnbridge/format.h"

namespace nnbridge::formats::onnx {

/// The handler registered as format "onnx" (extension .onnx).
///
/// Sniffing: protobuf has no magic number; bytes are ONNX when every top-level field is one of
/// ModelProto's with its wire type, every length stays inside the file, and ir_version (1..100)
/// and graph are present (one step per top-level field, whatever the file size).
///
/// Opset: canonical ops follow ONNX opset 17 (docs/api.md lists where they differ). A model
/// importing another version of the default domain is checked by onnx::checker and converted by
/// ONNX's version converter to opset 17 first (Error(Unsupported) with where = "opset_import"
/// and the converter's message when it cannot; an ir_version below 8 becomes 8); a model so
/// converted is written back at opset 17, not in its original form. A model of ir_version 3 or
/// later without opset_import, which ONNX's IR and onnx::checker refuse, is Error(Invalid) with
/// where = "opset_import"; one without ir_version is Error(Invalid) with where = "ir_version".
/// A model of ir_version 1 or 2 imports no opset: its operators are opset 1's (ONNX's IR.md),
/// converted from there.
///
/// How a ModelProto maps to the IR (the reader and the writer agree on it):
/// - graph.input: graph inputs (a ValueInfoProto's elem_type and shape: dim_value as is,
///   dim_param and unknown dims as -1, no shape as unknown rank). An input that an initializer
///   of the same name backs (ONNX's default value; IR < 4 lists every initializer so) is the
///   constant, not a graph input: `onnx.input_index` on it keeps its place in graph.input.
/// - graph.initializer: constant Values in their order, data as views: raw_data over 4 KiB
///   into the file itself (left out of what protobuf parses: neither copied nor read by the
///   load), shorter raw_data into the parsed model, external data into its mapped file; copied
///   once from the typed fields (float_data, int32_data, int64_data, double_data).
/// - Constant nodes: constant Values too (`onnx.constant_node` = its place in graph.node, with
///   `onnx.constant_node.attribute` = value | value_float(s) | value_int(s), and the node's name,
///   doc_string and domain), so that operands held in Constant nodes are constants like
///   initializers; the writer puts each back where it was.
/// - Every other node: one Node. In the default domain ("" or ai.onnx) an operator with a row in
///   the table (src/ops.cc, one row per operator with the opset-17 rule it follows) reads as the
///   canonical op, its inputs as they are (Squeeze/Unsqueeze axes, ReduceSum axes, Split split,
///   Pad pads and constant_value, Slice starts/ends/axes/steps, Clip min/max, Resize roi, scales
///   and sizes are inputs of the canonical ops too, constants or not). Cast `to` becomes the
///   dtype name; ConstantOfShape `value` becomes the float `value` and the output dtype (the
///   tensor kept as `onnx.tensor_attr.value`); Resize attributes the file leaves to ONNX's
///   default (half_pixel, round_prefer_floor) are set, named in `onnx.implied`. ONNX attributes
///   the canonical op lacks are kept as `onnx.attr.<name>` at their neutral value (MaxPool
///   storage_order 0, BatchNormalization momentum and training_mode 0, LayerNormalization
///   stash_type 1). Anything else (another operator or
///   domain, an arity the canonical op does not take, another value of a kept attribute such as
///   training_mode 1, an attribute outside ONNX's schema) is the native op `onnx.<op_type>` with
///   its attributes by their ONNX names (TENSOR ones as `onnx.tensor_attr.<name>`, the bytes of
///   the TensorProto): held and written back, run by no backend. nnbridge::check reports a
///   native op of ONNX's own domain whose input or output count lies outside its ONNX schema
///   (opset 17), as onnx::checker does: an Arity error (invalid.402), which prepare refuses.
/// - Node fields: name, `onnx.domain` (when set), `onnx.doc_string`, `onnx.name_set` (a name set
///   to ""), `onnx.attribute_order` (when not sorted by name), `onnx.attribute_doc.<name>`, an
///   absent input ("") as kNoValue, an absent output as an unnamed value with `onnx.absent`, and
///   trailing absent outputs as `onnx.trailing_absent_outputs`.
/// - Values: `onnx.doc_string`, `onnx.dim_param` (per dim, "" for none), `onnx.dim_denotation`,
///   `onnx.denotation`, `onnx.type_absent`, `onnx.elem_type_absent`, `onnx.value_info_index`
///   (its entry's place in graph.value_info), and the serialized entry when a second one for the
///   same name says more than its type (`onnx.input_info`, `onnx.output_info`, `onnx.value_info`);
///   tensors: `onnx.tensor.storage` (the typed field, "none" for an empty tensor without data;
///   absent: raw_data), `onnx.tensor.doc_string`, `onnx.tensor.name` (a Constant's tensor name),
///   `onnx.tensor.data_location_set`, `onnx.external_data.key` / `.value` (the entries).
/// - Graph metadata (present when the file sets the field): `onnx.ir_version`,
///   `onnx.opset_import.domain` / `.domain_set` / `.version`, `onnx.producer_name`,
///   `onnx.producer_version`, `onnx.domain`, `onnx.model_version`, `onnx.doc_string`,
///   `onnx.metadata_props.key` / `.value`, `onnx.graph.name`, `onnx.graph.doc_string`.
/// So an opset-17 model read and written decodes field by field to the same ModelProto.
///
/// Refused (Error(Unsupported) naming the field): model `functions` and `training_info`,
/// graph `sparse_initializer` and `quantization_annotation`, sequence / map / optional / sparse
/// tensor types, graph-valued attributes (If / Loop / Scan bodies), sparse and type attributes,
/// string tensors, the element types without an nnbridge dtype (uint16/32/64, complex), and a
/// field ONNX 1.12 does not know. External data: `location` relative to the model's folder
/// (absolute paths, `..` and links leading outside are Error(Invalid)), `offset` and `length`
/// checked against the file size and the tensor's size (Error(Malformed)); a model loaded from
/// memory cannot resolve it (Error(Unsupported)). Bytes protobuf cannot parse, or a ModelProto
/// without a graph, are Error(Malformed); a name no input, initializer or node defines, a value
/// defined twice, and (before conversion) a model onnx::checker refuses are Error(Invalid), except
/// a node of the default domain whose op_type ONNX 1.12 defines at no opset (a custom operator
/// left in ai.onnx): Error(Unsupported) naming the node, as such an operator is in an opset-17
/// model (it reads as the native onnx.<op_type>, which no backend runs). An op_type defined only
/// from a later opset than the model imports is Error(Invalid) naming the node.
///
/// Reader options: onnx.max_size (bytes of the .onnx file, default and at most 2^31 - 1),
/// onnx.max_nodes (default 10000000), onnx.max_tensors (initializers plus Constant nodes, default
/// 10000000); over a limit: Error naming the option, identifier IoTooLarge for onnx.max_size and
/// ResourceLimit for the counts (docs/errors.md), as the other readers' limits.
///
/// Writing: Arm NN's forms first become ONNX's (nnbridge/rewrite.h: an NHWC Conv, pool,
/// normalization or DepthToSpace/SpaceToDepth between Transposes to and from NCHW, nhwc_as_nchw;
/// FullyConnected's rank > 2 input reshaped to a matrix, gemm_input_as_matrix; weights to OIHW;
/// Affine as Mul and Add; Gelu, an ONNX operator only from opset 20, as Gelu-20's arithmetic,
/// gelu_as_arithmetic; Square, Rsqrt, ScaledTanh, NotEqual, SquaredDifference, Stack, Int32 ArgMax / ArgMin and
/// Fill shapes, InstanceNormalization's scalar gamma / beta, LpNormalization's epsilon and
/// LpPool's mean, StridedSlice, SpaceToBatchND, BatchToSpaceND, ReverseV2 with constant axes and
/// ChannelShuffle as the ONNX operators that compute them, onnx_forms); then
/// canonical ops through the same table (an attribute ONNX opset 17 cannot express, such as
/// data_layout NHWC of another op or MatMul transA, and canonical ops without
/// an ONNX operator such as Rank, are Error(Unsupported) naming
/// the node);
/// operands from the recorded constant when it still holds the attribute's value, else a new
/// int64 (or X-typed scalar) initializer named `<node>_<attribute>`; unnamed and repeated value
/// names get unique ones; nodes in stored order, or topological order when that is not. A graph
/// not read from ONNX gets ir_version 8, opset 17, producer_name "nnbridge", graph name
/// "nnbridge" and value_info for every typed intermediate value. Before anything is written the
/// model must pass onnx::checker::check_model and onnx::shape_inference::InferShapes with type
/// checks in strict mode (what onnx.checker.check_model(full_check=True) runs); otherwise
/// Error(Invalid) with the checker's message, naming the node where it can. The model and its
/// data files are written together atomically; writing is deterministic.
///
/// Writer options:
///   onnx.external_data = auto (default) | true | false -- auto: initializers read from external
///       data stay there (same location, and offset when it still fits), the rest inline unless
///       they pass 2 GiB together; true: every initializer of at least the threshold goes to a
///       data file; false: everything inline (past 2 GiB: Error(Unsupported)).
///   onnx.external_data_threshold = bytes (default 1024)
///   onnx.external_data_location = a file name beside the model (default "<model file name>.data")
///   onnx.overwrite_external_data = true -- replace a data file the replaced model does not name
///       (otherwise Error(Io) naming it and nothing is written, unless the file already holds
///       exactly these bytes: converting beside the source model shares its data file).
FormatHandler format_handler();

/// The nnbridge dtype of a TensorProto.DataType (onnx.proto: FLOAT 1 ... BFLOAT16 16; UNDEFINED 0
/// gives DataType::Undefined); nullopt for the ONNX types nnbridge has no dtype for (STRING,
/// COMPLEX64/128, UINT16/32/64). One table for the format and the conformance runner's .pb data.
std::optional<DataType> dtype_from_onnx(int32_t elem_type);

}  // namespace nnbridge::formats::onnx
