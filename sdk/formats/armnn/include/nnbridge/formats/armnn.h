// The Arm NN serialized network format (.armnn, FlatBuffers, schemas/armnn/ArmnnSchema.fbs).
#pragma once

#include "nnbridge/format.h"

namespace nnbridge::formats::armnn {

/// The handler registered as format "armnn" (extension .armnn).
///
/// Sniffing: "ARMN" at bytes 4..7 (files made by flatc), or bytes that verify as a
/// SerializedGraph whose layers all carry a union member (files written by Arm NN itself,
/// which carry no identifier).
///
/// How a SerializedGraph maps to the IR (the reader and the writer agree on it):
/// - Input layer: a graph input Value named as the layer.
/// - Output layer: an `Identity` node named as the layer (attr `armnn.layer` = "Output"),
///   whose output Value, also named as the layer, is the graph output. Outputs are thus found
///   by the Output layer's name, as Arm NN users bind them. The writer names the Output layer
///   after that Value (its `armnn.layerName` when set: the reader sets it when it had to make
///   the Value's name unique), not after the node, so renaming a graph output renames the
///   binding. A graph output that no such node produces is written as a new Output layer
///   named as the value.
/// - Constant layer: a constant Value named as the layer (attr `armnn.layer` = "Constant").
///   One whose output feeds nothing is kept (a constant no node uses), and the writer writes
///   every such constant back as a Constant layer.
/// - ConstTensors inside layers (weights, biases, BatchNormalization's mean/variance/beta/
///   gamma, LSTM parameters...): constant Values wired as extra node inputs, after the slot
///   inputs, in the canonical op's order (BatchNormalization: scale=gamma, B=beta, mean, var).
///   With featureVersions.constantTensorsAsInputs = 1 the weights come from Constant layers
///   on input slots instead; both read into the same IR. Constant data is a view into the
///   file (no copy), except legacy depthwise weights (below).
/// - Depthwise weights always read as [1, H, W, I*M] (`kernel_layout` "1HWO", `group` = I);
///   weightsLayoutScheme 0 files ([M, I, H, W]) are permuted on read and back on write.
/// - An InputSlot with isOverridden (current Arm NN: the layer sees the producer's bytes as
///   overriddenTensorInfo, e.g. a broadcast reshape): a node of its own named
///   "<layer>:inputSlots[<k>]" between producer and consumer, attr `armnn.inputSlotOverride`
///   = true, whose output Value has the overridden type (so that type is the slot's type):
///   `Reshape` (attr shape) when only the shape differs and the element count agrees, else
///   the native `armnn.InputSlotOverride` (no kernel). The writer folds such a node back into
///   every slot it feeds (isOverridden, overriddenTensorInfo from the value's type).
/// - Slots Arm NN never reads (it reads as many as the layer kind has): input slots listed on
///   Input/Constant layers and output slots on Output layers, as Arm NN's own JSON fixtures
///   write them, are ignored for the graph and kept as `armnn.ignoredInputSlots` /
///   `armnn.ignoredOutputSlots[...]` for the writer; those vectors may also be absent
///   (`armnn.inputSlotsAbsent` / `armnn.outputSlotsAbsent`). Any other layer without its
///   slot vectors is Error(MalformedOther); slot counts other than the layer kind's are
///   Error(Arity).
/// - ElementwiseBinary: operation Add/Div/Maximum/Minimum/Mul/Sub -> Add/Div/Max/Min/Mul/Sub,
///   SqDiff (6) -> SquaredDifference, Power (7) -> Pow (the released BinaryOperation numbers).
/// - Splitter -> Split (axis; the view sizes as the split input) when the views cut the input
///   along one axis; with ViewsDescriptor.hasAxis the given axis (negative: from the end)
///   decides where the views alone do not, and views cutting elsewhere keep the layer native.
///   hasAxis/axis are kept as `armnn.descriptor.*` residuals, so they round-trip.
/// - Descriptor fields that ONNX opset 13+ takes as inputs become constant input values of the
///   canonical node (nnbridge/rewrite.h attributes_as_operands), named "<layer>.<ONNX input
///   name>" and placed after all other values, in layer order: Slice begin / size -> starts,
///   ends (begin + size), axes (0, 1, ...) as int64; Pad padList -> pads (ONNX order),
///   padValue -> constant_value (a float32 scalar, always the real value: for a quantized
///   output Arm NN 20.08 CpuRef stores padValue as is, rounded half away from zero and
///   saturated to the storage type (q), so it is read as scale * (q - zero_point) and written
///   back as round(value / scale) + zero_point);
///   Splitter view sizes -> split; Activation
///   BoundedReLu b / a -> Clip min / max (float32 scalars); Reduce Sum axis -> ReduceSum axes
///   (an empty list: every dim); Resize / ResizeBilinear targetHeight / targetWidth -> sizes
///   for every dim of X (N and C X's, at data_layout's places). Resize's method and
///   alignCorners / halfPixelCenters read as ONNX Resize-13 modes: bilinear asymmetric /
///   align_corners / half_pixel; nearest asymmetric + floor, align_corners + round_prefer_ceil
///   (Arm NN rounds), tf_half_pixel_for_nn + floor (Arm NN's nearest keeps the 0.5).
///   The writer turns constant inputs back into the fields and refuses (Error Unsupported,
///   naming the node and the input) one that is not a constant; a Resize `scales` whose
///   products with X's dims are whole is written as those sizes.
/// - Every other layer: one Node with a canonical op (ONNX vocabulary, from the core op registry) or,
///   without an exact equivalent, the native op `armnn.<LayerType>` with every field kept as
///   `armnn.<field path>` attributes (e.g. `armnn.descriptor.normSize`). Deprecated layers
///   (Merger, Abs, Rsqrt, Equal, Greater, ResizeBilinear) and other non-default choices
///   (Permute vs Transpose, ElementwiseBinary vs Addition) read as the canonical op and keep
///   `armnn.layer` = "<LayerType>" so that they are written back as themselves.
/// - Layers newer than Arm NN 20.08 (src/ops.cc, src/ops_transforms_nd.cc): ElementwiseBinary
///   by upstream's BinaryOperation numbering (Add 0 .. Sub 5, SqDiff 6 -> SquaredDifference,
///   Power 7 -> Pow); Convolution3d -> Conv on rank 5 (`kernel_layout` "HWIO", Arm NN's
///   [D,H,W,I,O] weights; `data_layout` "NHWC" is NDHWC, "NCHW" is NCDHW); Pooling3d ->
///   MaxPool / AveragePool / LpPool on rank 5 (the Pooling2d rules); BatchMatMul -> MatMul
///   (transposeX/Y as transA/transB) only with dataLayoutX/Y NCHW or NCDHW and no adjoint
///   (others stay native: NHWC multiplies other dims, adjoint is the adjugate); ScatterNd ->
///   ScatterND by upstream's ScatterNdFunction numbering (Update 0 -> reduction "none", Add 1,
///   Sub 2, Max 3, Min 4), `data_is_shape` = !m_InputEnabled, `combine_with` "data" (the
///   reference combines each update with the original element); m_AxisEnabled stays native.
///   Tile -> Tile (`repeats` attribute; a constant repeats input is written as it), ReverseV2 (axes on slot 1), GatherNd -> GatherND,
///   ChannelShuffle, Shape, Cast, Fill -> ConstantOfShape, Rank, Reduce -> Reduce*,
///   LogicalBinary -> And / Or.
/// - No `cpu` kernel (the native op, Error(Unsupported) on `run`): UnidirectionalSequenceLstm,
///   QuantizedLstm, Merge, Switch, StandIn (a custom kernel may supply one), BatchMatMul with
///   an adjoint or an NHWC/NDHWC data layout, ScatterNd with m_AxisEnabled.
/// - Kept for lossless round-trips: `armnn.index` (LayerBase.index) and `armnn.position` (place
///   in `layers`) on every layer's node or value, but on none when the writer derives them: the
///   layers stored in the order the writer gives layers without them (Input layers in graph-input
///   order, then per node in node order the Constant layers it is the first to read and its own
///   layer) and numbered 0, 1, 2, ... in that order, as Arm NN's serializer writes them; such a
///   graph is written in its node order, so a node added or moved in the IR goes where it stands.
///   Also kept: `armnn.layerBindingId`, `armnn.layerType` (only when it disagrees with the
///   union tag: a warning, listed in metadata `armnn.warnings`), `armnn.constInputs`, and
///   descriptor or TensorInfo fields the canonical attributes do not determine
///   (`armnn.descriptor.*`, `armnn.tensorInfo.*`, `armnn.constInfo.*`, `armnn.absent`).
/// - Graph metadata: `armnn.fileIdentifier`, `armnn.featureVersions` (presence),
///   `armnn.bindingIdsScheme`, `armnn.weightsLayoutScheme`, `armnn.constantTensorsAsInputs`,
///   and `armnn.inputIds` / `armnn.outputIds` when they differ from what the writer derives.
/// - Order: nodes keep the layers' order in `layers`, which need not be topological (files
///   written through Arm NN's TfLite parser store a layer before the layer feeding it, and give
///   several layers one name); a round trip keeps both.
/// - Each `inputIds` / `outputIds` entry must name an Input / Output layer as Arm NN's
///   deserializer looks it up (SetupInputLayers / SetupOutputLayers): by LayerBase.index when
///   featureVersions.bindingIdsScheme is 0, by layerBindingId otherwise. Anything else is
///   Error(DanglingReference), where "inputIds[k]" / "outputIds[k]" (Arm NN refuses such files
///   too).
///
/// Reader options (LoadOptions::options):
///   armnn.layout = released (default) | seed   -- the seed's pre-release union order is read
///                                                only when asked for, never guessed; a seed
///                                                file read without it is Error(Version).
///   armnn.max_depth, armnn.max_tables, armnn.max_size -- the FlatBuffers verifier's bounds
///                                                (VerifierLimits in nnbridge/format.h: defaults
///                                                64, 100000000, 2^31 - 1 bytes; a 1M-layer graph
///                                                loads with them). A file over a bound is
///                                                Error(DepthLimit) / Error(ResourceLimit)
///                                                (depth, tables) or Error(IoTooLarge) (size),
///                                                naming the option.
/// Writer options (SaveOptions::options):
///   armnn.bindingIdsScheme, armnn.weightsLayoutScheme, armnn.constantTensorsAsInputs = 0|1
///   armnn.fileIdentifier = 0|1, armnn.layout = released | seed
/// Defaults: keep what the graph was read with; for new graphs bindingIdsScheme 1,
/// weightsLayoutScheme 0 and constantTensorsAsInputs 0 (what Arm NN 20.08 writes: 20.08
/// ignores the later fields, current Arm NN converts these schemes on load), with identifier.
///
/// Errors (identifiers of nnbridge/error.h), with `where` in the schema's field names
/// ("layers[2].layer.base.inputSlots[1].connection.sourceLayerIndex"): bytes that do not verify
/// are Truncated (an offset or size past the end, nnbridge/verify_failure.h), DepthLimit,
/// ResourceLimit or VerifyFailed; an unknown union tag or an element count that overflows is
/// BadEncoding; an absent required table or vector is MalformedOther; a connection or id that
/// names no layer is DanglingReference, two layers with one LayerBase.index DuplicateName.
/// Writing: NoForm for an op or value the format cannot hold (naming the node), Narrowing for
/// an identity field out of its schema type's range; Version for seed-layout files read without
/// the option.
/// Writing is deterministic (the same Graph gives the same bytes) and atomic.
FormatHandler format_handler();

/// The handler registered as format "armnn-json" (extension .armnn.json): the flatc JSON of a
/// SerializedGraph, as Arm NN's own deserializer tests, Netron and flatc users keep networks.
///
/// Reading: the text is compiled with libflatbuffers' own parser (flatbuffers::Parser, flatc's
/// default options) against the ArmnnSchema.fbs embedded at build time, so it accepts exactly
/// what `flatc -b` does (unquoted keys, trailing commas, comments, enum values by name or by
/// number, `<union>_type` keys) and yields the same bytes, which the armnn reader then reads:
/// a JSON file and the binary flatc makes of it give the same IR. Rules and errors are the
/// armnn reader's (`where` in the schema's field names, which are the JSON's keys), plus
/// Error(Syntax) with where = "line L, column C" for text the parser refuses and for a NUL
/// byte (where = "byte N"). The IR's source_format is "armnn-json".
/// Sniffing: a JSON object whose first 64 KiB use the keys `layers` and `layer_type`.
/// Reader options: armnn-json.max_size (bytes of text, default 2^31 - 1; over it:
/// Error(IoTooLarge)), armnn-json.max_depth and armnn-json.max_tables (the verifier's bounds
/// on the compiled buffer, as for armnn).
///
/// Writing: the armnn writer's buffer printed as strict JSON (quoted keys, enum names, fields
/// in schema order, absent fields left out as flatc does; floats as the shortest text that
/// reads back exactly, where flatc 2.0.8 keeps 6 decimals). `flatc -b` of the output gives
/// the bytes the armnn writer makes. The text cannot say "no file identifier": a file read
/// from JSON is written to .armnn with the identifier "ARMN".
/// Writer options: armnn-json.bindingIdsScheme, armnn-json.weightsLayoutScheme,
/// armnn-json.constantTensorsAsInputs = 0|1 (as the armnn writer's).
FormatHandler json_format_handler();

}  // namespace nnbridge::formats::armnn
