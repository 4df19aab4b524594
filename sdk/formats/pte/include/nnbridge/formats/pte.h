// ExecuTorch program files (.pte) whose method is one Vulkan delegate, and ExecuTorch named-data
// files (.ptd, FlatTensor). Layouts: schemas/executorch/*.fbs (ExecuTorch's schema/program.fbs,
// ET12, and extension/flat_tensor/serialize/flat_tensor.fbs, FT01) and the file rules of
// exir/_serialize/_program.py and extension/flat_tensor/serialize/serialize.py.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "nnbridge/format.h"

namespace nnbridge::formats::pte {

/// The handler registered as format "pte" (extension .pte). Sniffing: "ET" and two letters or
/// digits at bytes 4..7 (the Program's file identifier; ET12 is read, others are refused).
///
/// Reading. The file is the Program flatbuffer, with, when data lives outside it, the extended
/// header at byte 8 (ExtendedHeader) and segments from its segment_base_offset. The method read
/// is reader option `pte.method` (default: "forward", else the only method). It must be one
/// DelegateCall to a BackendDelegate with id "VulkanBackend" (nothing else in its chains), whose
/// processed data (a segment, or inline in backend_delegate_data) is a Vulkan delegate payload:
/// that payload is read as the vkdelegate format does (nnbridge/formats/vkgraph.h; graph inputs
/// input_<i>, outputs output_<i>), its named-data constants resolved from the Program's
/// named_data (key -> segment), else from a .ptd: reader option `pte.named_data=FILE.ptd`, or
/// when not given, the file with the .pte's stem and extension .ptd beside it, if there is one.
/// A relative `pte.named_data` is taken from the current folder, else from the .pte's folder.
/// A key in neither leaves its constant without data (kExternalDataKey, nnbridge/graph.h), the
/// graph's kExternalDataHint naming where it looked and the option: info still shows the file,
/// and check / run name the key. A method of another
/// kind (portable kernels, other delegates, a mix) reads as native nodes for inspection: each
/// KernelCall the op `et.<name>.<overload>` (`et.aten::add.out`), each DelegateCall `et.delegate`
/// (attributes `et.backend`, `et.delegate_index`), both with `et.args` and their non-tensor
/// arguments as `et.arg.<k>`; tensor arguments already defined (inputs, constants, earlier
/// outputs) are inputs, the others outputs; constants from the constant segment or
/// constant_buffer, EXTERNAL tensors from the .ptd by fully qualified name. No backend runs
/// `et.*` ops and no writer writes them (Error(Unsupported) naming the node); control flow
/// (JumpFalseCall, MoveCall) is Error(Unsupported).
///
/// What the graph keeps (metadata, for `info` and for the writer):
/// - `pte.method` (string), `pte.methods` (every method's name),
/// - `pte.delegates`: one line per delegate of every method: "<method>: <backend id>, <n> bytes,
///   segment <k>" (or "inline <k>"),
/// - `pte.operators`: the non-delegated kernels of every method, "<method>: <name>.<overload>",
/// - `pte.named_data.keys`: the Program's named-data keys,
/// - `pte.program` (Bytes): the Program flatbuffer with its extended header, as in the file;
///   `pte.segment.<k>` (Bytes): each segment that is neither the method's delegate payload nor
///   named data a constant of the graph holds (kept to write the file again).
///
/// Writing. A graph read from a .pte (with `pte.program`) is written back into that Program:
/// the delegate's segment (or inline data) becomes the payload the vkdelegate writer makes of
/// the graph, each named-data segment whose key a constant of the graph holds that constant's
/// bytes, every other segment its kept bytes; when every segment keeps its size the Program
/// bytes are reused unchanged, so an unchanged graph rewrites byte-identically; otherwise the
/// segment table and the extended header are laid out again by ExecuTorch's rules (segments at
/// multiples of 128 from the base). The method's input and output tensors must still have the
/// graph's dtypes and shapes (else Error(Unsupported)). Any other graph that the vkdelegate
/// writer can write becomes a new Program: one method "forward", its inputs and outputs as
/// planned tensors (memory_id 1, offsets aligned to 16), one DelegateCall to a "VulkanBackend"
/// delegate whose payload is segment 1 (segment 0 the empty constant segment, as ExecuTorch
/// writes), constants in the payload's own constant segment.
/// Named data the payload refers to that the Program does not hold (it came from a .ptd, or a
/// vkdelegate named-data folder) is written to `<stem>.ptd` beside the .pte (ptd_handler's
/// layout, no tensor_layout, as the Vulkan delegate stores it), both files atomically. An
/// existing `<stem>.ptd` is replaced when it holds the same keys (the model's own); one with
/// other keys, or no .ptd at all, is Error(Io) naming it (nothing is written), unless the writer
/// option pte.overwrite_ptd=true (`nnbridge convert --force`).
/// Reader options: pte.method, pte.named_data, pte.max_depth, pte.max_tables, pte.max_size
/// (the verifier bounds of the Program and the payload, VerifierLimits). Writer option:
/// pte.overwrite_ptd.
FormatHandler format_handler();

/// The handler registered as format "ptd" (extension .ptd). Sniffing: "FT" and two letters or
/// digits at bytes 4..7. Reading gives a graph with no nodes: one constant Value per named-data
/// entry, named by its key (attribute `ptd.segment` = its segment index; metadata `ptd.keys`
/// lists the keys in file order), typed by its
/// tensor_layout when present (scalar type and sizes; dim_order kept as `ptd.dim_order`) and as
/// a 1-D UInt8 tensor of the segment's size otherwise. Writing lays out every constant of a
/// graph as a named-data entry keyed by the value's name (tensor_layout from its type; a UInt8
/// 1-D constant without `ptd.dim_order` written without one), by serialize.py's rules; a graph
/// with nodes or inputs is Error(Unsupported) (nothing would hold them).
/// Reader options: ptd.max_depth, ptd.max_tables, ptd.max_size.
FormatHandler ptd_handler();

/// The extended header of a .pte (exir/_serialize/_program.py _ExtendedHeader), at byte 8:
/// "eh00", u32 length (at least 24; 32 with segment_data_size), u64 program_size, u64
/// segment_base_offset, u64 segment_data_size, little-endian.
struct ExtendedHeader {
  uint32_t length = kLength;
  uint64_t program_size = 0;         ///< the flatbuffer with this header inserted
  uint64_t segment_base_offset = 0;  ///< where segment offsets count from; 0: no segments
  uint64_t segment_data_size = 0;    ///< the segments' extent (0 when the header is 24 bytes)
  static constexpr uint32_t kMinLength = 24;
  static constexpr uint32_t kLength = 32;
  static constexpr std::size_t kOffset = 8;
  friend bool operator==(const ExtendedHeader&, const ExtendedHeader&) = default;
};

/// The extended header of `file`, nullopt when bytes 8..11 are not "eh00" (a Program without
/// segments). Error(Malformed), `where` "extended_header.<field>": a length below 24
/// (BadIdentifier), a program_size below 16 or past the end, a segment_base_offset before
/// program_size or past the end (Truncated when past the end, else MalformedOther).
std::optional<ExtendedHeader> parse_extended_header(std::span<const std::byte> file);
/// The 32 header bytes for `h` (always length 32).
std::vector<uint8_t> encode_extended_header(const ExtendedHeader& h);

/// The FlatTensor header of a .ptd (serialize.py FlatTensorHeader), at byte 8: "FH01", u32
/// length (at least 40), u64 flatbuffer_offset, u64 flatbuffer_size, u64 segment_base_offset,
/// u64 segment_data_size.
struct FlatTensorHeader {
  uint32_t length = kLength;
  uint64_t flatbuffer_offset = 0, flatbuffer_size = 0, segment_base_offset = 0, segment_data_size = 0;
  static constexpr uint32_t kLength = 40;
  friend bool operator==(const FlatTensorHeader&, const FlatTensorHeader&) = default;
};
/// Error(Malformed), `where` "header.<field>", when the magic is not "FH01" or the length is below
/// 40 (BadIdentifier), or an extent lies outside the file (Truncated).
FlatTensorHeader parse_flat_tensor_header(std::span<const std::byte> file);

}  // namespace nnbridge::formats::pte
