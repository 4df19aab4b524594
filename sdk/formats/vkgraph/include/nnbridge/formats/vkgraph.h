// ExecuTorch's Vulkan delegate: the VkGraph FlatBuffer (schemas/vkgraph/schema.fbs, identifier
// "VK00", ExecuTorch schema 1.4) and the delegate payload that carries it ("VH00" header,
// flatbuffer, constant segment).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "nnbridge/format.h"

namespace nnbridge::formats::vkgraph {

/// The handler registered as format "vkgraph": a bare VkGraph flatbuffer (extension .vkgraph).
/// Sniffing: "VK00" at bytes 4..7. The bare flatbuffer holds no constant data (VkBytes point
/// into a segment that is not there): constants read as values without data.
///
/// How a VkGraph maps to the IR (the reader and both writers agree on it):
/// - Values. Every VkTensor of `values` is an IR Value, kept in table order, with attr
///   `vk.value` = its index. Graph inputs and outputs are the tensors of `input_ids` /
///   `output_ids`, named `input_<i>` / `output_<i>` by their position there (so `nnbridge run`
///   reads input_0.npy and writes output_0.npy); other tensors are named `v<index>`. Shapes
///   are `dims` (PyTorch order: NCHW), dtypes BOOL/UINT8/INT8/INT32/FLOAT16/FLOAT32/FLOAT64/INT64
///   map to Bool/UInt8/Int8/Int32/Float16/Float32/Float64/Int64. VkTensor fields kept as attrs
///   when not their non-constant default: `vk.constant_id` (!= -1), `vk.mem_obj_id` (!= -1),
///   `vk.storage_type`, `vk.memory_layout` (schema enum names, when not DEFAULT_STORAGE /
///   DEFAULT_LAYOUT), `vk.dims_absent`; `vk.staging_datatype` always (a new tensor without it
///   is written staging in its own datatype, as ExecuTorch's builder does).
/// - Non-tensor values (Null, Int, Double, Bool, IntList, DoubleList, BoolList, ValueList,
///   String, SymInt) have no IR Value: graph metadata `vk.value_kinds` lists the GraphTypes kind
///   (1..11) of every entry, `vk.value.<index>` holds each payload (int, float, bool, list or
///   string; none for Null or an absent list/string). Deduplicated scalars, orphans and order
///   survive a round-trip this way.
/// - Operators. Each OperatorCall is one Node named `node_<i>` with `vk.node_id`, `vk.name`
///   (the operator name) and `vk.args` (the raw value indices). An operator in the mapping
///   table (sdk/formats/vkgraph/src/ops.cc: aten.add.Tensor, aten.convolution.default, ...)
///   becomes its canonical op with canonical attributes; its tensor arguments (and the tensors of
///   ValueList arguments) are the node's inputs in canonical order and its output(s) the node's
///   outputs. Arguments that ONNX opset 13+ takes as inputs are constant input values of the
///   canonical node (nnbridge/rewrite.h attributes_as_operands), named "node_<i>.<ONNX input
///   name>" and placed after all other values: slice_copy dim / start / end / step -> Slice axes,
///   starts, ends (None: INT64_MAX), steps; constant_pad_nd pad / value -> Pad pads (ONNX
///   order) / constant_value; split_with_sizes_copy split_sizes -> Split split; squeeze_copy /
///   unsqueeze_copy dim -> axes; sum.dim_IntList dim -> ReduceSum axes; clamp / hardtanh bounds
///   -> Clip min / max (a scalar of X's type where it holds the value exactly, else float32 or
///   float64); upsample_nearest2d output_size -> Resize sizes for every dim (N and C X's). The
///   writer turns constant inputs back into the arguments and refuses (Error Unsupported, naming
///   the node and the input) one that is not a constant. Every other operator is the native op `vk.<name>` (e.g. `vk.et_vk.foo.default`):
///   inputs are the tensors of all arguments but the last, outputs the tensors of the last, and
///   it is written back verbatim from `vk.args`. An operator the table knows whose arguments it
///   cannot map (aten.add.Tensor / aten.sub.Tensor with alpha != 1: ONNX Add has no alpha;
///   aten.max_pool2d / avg_pool2d with ceil_mode where PyTorch drops a last window that starts in
///   the right padding and ONNX keeps it; aten.repeat with more repeats than dims)
///   is native too and carries its non-tensor arguments as attributes under their ATen names
///   (`alpha`, `kernel_size`, ...), which the `cpu` backend reads (self + alpha * other, ...);
///   so do the operators of ExecuTorch's Vulkan pipeline with no canonical form,
///   `aten.max_pool2d_with_indices.default` (outputs values and PyTorch's per-plane int64
///   indices) and `et_vk.conv_with_clamp.default` (aten.convolution, then clamp(output_min,
///   output_max)). `et_vk.prepack.default` (a copy of a constant into the GPU's layout) reads as
///   Identity. The writer refuses an attribute of a native node edited away from the value
///   `vk.args` names (Error Unsupported).
/// - Constants: metadata `vk.constants.offset`, `vk.constants.length`, `vk.constants.named_key`
///   mirror the `constants` table; a tensor with constant_id >= 0 refers to an entry. In the
///   delegate payload the entry's bytes become the Value's constant (a view into the file).
///   Tensors may share an entry, each reading its own byte size from its offset (ExecuTorch's
///   runtime does not read `length`): the writer lays out the longest of their data and refuses
///   (Error Unsupported, naming the value) tensors of one entry whose bytes differ.
///   Named-data entries (offset 0xFFFFFFFFFFFFFFFF + `named_key`) stay external references.
/// - Kept as metadata: `vk.version`, `vk.shaders.*`, `vk.storage_type_override`,
///   `vk.memory_layout_override`, `vk.input_ids` (only when it names a SymInt), `vk.absent` (top-level vectors and per-entry fields absent from the file),
///   `vk.constant_bytes.<k>` (a segment entry no tensor uses, or whose length is not its tensor's
///   byte size: its own bytes, so the segment is laid out again unchanged).
///
/// - Also mapped: aten.hardsigmoid <-> HardSigmoid (alpha 1/6, beta 1/2), aten.pixel_shuffle <->
///   DepthToSpace (mode CRD), aten.repeat <-> Tile, pools with ceil_mode (where both count the
///   same windows), aten.native_layer_norm <-> LayerNormalization with a non-negative axis.
///
/// Writer: new OperatorCalls are only operators ExecuTorch's Vulkan runtime registers
/// (VK_REGISTER_OP at the pytorch/executorch commit named in src/writer.cc, with the argument
/// forms listed there): aten.gelu with approximate "tanh" only (the runtime computes that form
/// whatever the argument says), reductions over one or two dims, aten.linear and
/// aten.convolution with constant weights (the runtime prepacks them), convolution on 3-D or 4-D
/// input. A canonical node whose operators are not registered (Max: aten.maximum, NotEqual, Not,
/// Floor, Ceil, Log, Reciprocal, Sign, Elu) is Error(Unsupported) naming the node and the
/// operators; a node read from a VkGraph is written back under the name it was read with.
/// Entries kept from a VkGraph stay at their indices; a node whose kept `vk.args` still
/// read back (through its mapping row) as the node's inputs, outputs and canonical attributes is
/// written with them, any other node gets new entries appended as ExecuTorch's VkGraphBuilder
/// makes them (scalars shared, Null and lists new, the output last). Non-constant tensors store
/// constant_id = -1 and mem_obj_id = -1 explicitly. Graphs from other formats are first rewritten
/// with explicit nodes where ATen takes another form (src/lower.cc): NHWC Conv / pools / Resize
/// between Transposes, Arm NN weight layouts permuted to OIHW / IOHW constants, Gemm on rank > 2
/// after a Reshape, Softmax beta as a Mul, BatchNormalization as Mul + Add, Square / ScaledTanh /
/// Affine as their arithmetic, and the Identity of an Arm NN Output layer dropped; further
/// (src/lower.cc, one function each): MatMul of rank > 2 by a constant 2-D B as aten.linear (B
/// transposed once), of equal batch dims as aten.bmm between Reshapes, of a computed 2-D B as
/// aten.mm between Reshapes; LayerNormalization without Mean / InvStdDev given those outputs;
/// Erf as erf(x) = sign(x) (1 - poly(t) exp(-x^2)), t = 1 / (1 + 0.3275911 |x|) (Abramowitz &
/// Stegun 7.1.26, |error| <= 1.5e-7; ExecuTorch's Vulkan runtime has no erf) and Gelu
/// (approximate "none") as x * 0.5 * (1 + erf(x / sqrt 2)) with it; HardSigmoid of other alpha /
/// beta as Mul, Add, Clip(0, 1); Gather of one constant index as aten.select_copy. Before these,
/// nnbridge/rewrite.h's: global pools as one window, Flatten / Squeeze / Unsqueeze as Reshape,
/// asymmetric pads as an explicit Pad, and what holds more than 4 dims narrowed: Gathers of one
/// index moved before a Transpose or made a Slice of the dim a Reshape split
/// (gather_before_transpose, gather_of_split_as_slice), a Transpose of merged dims
/// (transpose_rank_reduced), Add / Sub / Mul / Div without their unit dims (unit_dims_dropped).
/// A tensor of more than 4 dims left is Error(Unsupported) naming the value:
/// ExecuTorch's Vulkan tensors have at most 4 (its partitioner delegates no node with a
/// higher-dimensional tensor, backends/vulkan/utils.py). A canonical node no row can express (LRN,
/// InstanceNormalization, MaxPool with Indices, broadcast batched MatMul, AveragePool with
/// count_include_pad 0 and asymmetric pads, DepthToSpace DCR, ...) and a native op of another
/// format are Error(Unsupported) naming the node; a quantized tensor (Arm NN QAsymmU8 / S8,
/// QSymmS8 / S16) is Error(Unsupported) naming the node, the value, its scale and zero point: a
/// VkTensor holds neither, and ExecuTorch's Vulkan runtime computes on quantized values only in
/// its int8 operators (quantized_decomposed.quantize_per_tensor / dequantize_per_tensor,
/// et_vk.q8ta_*: int8 tensors in packed-int8 layouts; none for uint8), which nnbridge does not
/// write. Nothing is dropped silently.
///
/// Reader: rejects input_ids naming a value that is neither a VkTensor nor a SymInt, and
/// output_ids naming one that is not a VkTensor (ExecuTorch's Vulkan runtime fails on such
/// blobs: VulkanBackend.cpp; Error Invalid, where "input_ids[k]" / "output_ids[k]"),
/// a missing identifier, failed FlatBuffers verification, union kinds outside
/// 1..11, enum values the schema does not define, out-of-range value indices and constant ids
/// (Error Malformed / Invalid, `where` in schema names: "chain[3].args[1]"), and ExecuTorch 0.2
/// blobs whose OperatorCall lacks node_id (Error Unsupported; never misread).
/// Reader options: vkgraph.max_depth, vkgraph.max_tables, vkgraph.max_size (vkdelegate.* for the
/// payload, whose max_size bounds the whole payload): the FlatBuffers verifier's bounds
/// (VerifierLimits in nnbridge/format.h, whose defaults they override).
/// Writer option: vkgraph.constants = external (write the table of a graph whose constants
/// have data, dropping the data; without it such a graph is Error Unsupported).
FormatHandler format_handler();

/// The handler registered as format "vkdelegate": the Vulkan delegate payload (extension
/// .vkdelegate). Sniffing: "VH00" at bytes 4..7. Reader option: vkdelegate.named_data = DIR
/// (a folder holding one file per named-data key, named as the key) resolves named-data
/// constants at load time. Writes by ExecuTorch's layout rules (see DelegateHeader); named-data
/// constants stay references by key (as in ExecuTorch's payloads), unless the writer option
/// vkdelegate.embed_named_data=true puts the data of those the graph holds into the constant
/// segment (offset and length, no key): a payload that runs without its named data.
FormatHandler delegate_handler();

/// A store of named data (ExecuTorch's NamedDataMap: the `.pte`'s named-data segments, a `.ptd`,
/// or a folder with one file per key), as the payload reader resolves named-data constants.
struct NamedDataResolver {
  /// The bytes stored under `key` (a view, not a copy); nullopt when the store does not hold it.
  std::function<std::optional<Buffer>(const std::string& key)> find;
  std::string where;  ///< what is searched, for messages ("model.pte and model.ptd")
  std::string how;    ///< how a user supplies a missing key ("pass -I pte.named_data=FILE.ptd")
  /// A key the store does not hold leaves its constant without data (kExternalDataKey) instead
  /// of Error(Io): for stores that may legitimately be incomplete (a .pte whose .ptd is elsewhere).
  bool missing_ok = false;
};

/// Reads a delegate payload: `payload.bytes` is the whole payload (a view into a larger file is
/// fine; `payload.file` names that file in messages). `named` (may be null: such constants are
/// then left without data, marked with kExternalDataKey, and the graph carries
/// kExternalDataHint = `hint`) resolves named-data constants; a key it does not hold is
/// Error(Io) naming the key, `named->where` and `named->how`. Limits: the `<limits_prefix>.max_*`
/// reader options of `o`. The graph's source_format is `format`. Errors as the vkdelegate reader.
Graph read_delegate_payload(const Source& payload, const LoadOptions& o, const std::string& limits_prefix,
                            const NamedDataResolver* named, const std::string& hint, const std::string& format);
/// The payload bytes of `g` as the vkdelegate writer lays them out (ExecuTorch's
/// serialize_vulkan_graph): named-data constants stay references by key.
std::vector<uint8_t> write_delegate_payload(const Graph& g, const SaveOptions& o);
/// The named-data entries of a graph read from VkGraph: for each constants[] entry that is named
/// data (offset 0xFFFFFFFFFFFFFFFF) and whose tensor has data in `g`, its key and that data, in
/// table order; entries sharing a key appear once.
std::vector<std::pair<std::string, Buffer>> named_constants(const Graph& g);

/// The payload header, little-endian: bytes 0..3 zero, 4..7 "VH00", then these fields at
/// offsets 8 (u16), 10, 14, 18 (u32) and 22 (u64). Source: ExecuTorch
/// backends/vulkan/runtime/VulkanDelegateHeader.cpp and serialization/vulkan_graph_serialize.py.
struct DelegateHeader {
  uint16_t header_size = kHeaderSize;
  uint32_t flatbuffer_offset = 0;  ///< from the start of the payload
  uint32_t flatbuffer_size = 0;    ///< the flatbuffer's length, without padding
  uint32_t bytes_offset = 0;       ///< start of the constant segment
  uint64_t bytes_size = 0;         ///< segment length; 0 with data after bytes_offset: to the end

  static constexpr uint16_t kHeaderSize = 30;
  /// Writers pad the header to 32 bytes and align the flatbuffer and each constant to 16.
  static constexpr std::size_t kAlignment = 16;
  friend bool operator==(const DelegateHeader&, const DelegateHeader&) = default;
};

/// Parses and validates the header of a `payload_size`-byte payload starting at `bytes`
/// (at least 30 bytes are needed). Rejects with Error(Malformed), `where` "header.<field>":
/// fewer than 30 bytes, magic other than "VH00", header_size < 30, flatbuffer_offset <
/// header_size, flatbuffer_size 0, flatbuffer or segment past the end (64-bit arithmetic,
/// so sums that wrap in 32 bits are caught), bytes_offset before the flatbuffer's end.
/// Identifiers (docs/errors.md): Truncated for fewer than 30 bytes and extents past the end,
/// BadIdentifier for the magic and header_size, MalformedOther for overlapping or empty regions.
DelegateHeader parse_delegate_header(std::span<const std::byte> payload);
/// The 30 header bytes for `h`.
std::vector<uint8_t> encode_delegate_header(const DelegateHeader& h);
/// The constant segment [offset, offset + size) of a payload whose header is `h`:
/// bytes_size, or everything after bytes_offset when bytes_size is 0.
std::pair<std::size_t, std::size_t> constant_segment(const DelegateHeader& h, std::size_t payload_size);

}  // namespace nnbridge::formats::vkgraph
