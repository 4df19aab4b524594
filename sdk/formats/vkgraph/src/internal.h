// Entry points shared by the handlers, the reader and the writer.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "nnbridge/format.h"
#include "nnbridge/formats/vkgraph.h"
#include "nnbridge/graph.h"
#include "raw.h"

namespace nnbridge::formats::vkgraph {

/// Where the constant segment of a delegate payload lies in the Source (absent for a bare VkGraph).
struct Segment {
  std::size_t offset = 0, size = 0;
};

/// The IR of a decoded VkGraph (see vkgraph.h for the form). `segment` gives constants their
/// data; `named` (may be null) resolves named-data constants. Named-data constants left without
/// data carry kExternalDataKey, and the graph kExternalDataHint = `hint` (when not empty).
Graph to_ir(const RawGraph& rg, const Source& src, const std::optional<Segment>& segment, const std::string& format,
            const NamedDataResolver* named, const std::string& hint);

/// A RawGraph for `g` plus the constant segment laid out by ExecuTorch's rules (each constant
/// padded to 16 bytes). `need_data`: every in-segment constant must have data (delegate);
/// otherwise entries without data keep their recorded offset and length (bare VkGraph).
struct Written {
  RawGraph raw;
  std::vector<uint8_t> segment;
  std::size_t constants_with_data = 0;  ///< in-segment constants whose bytes the segment holds
};
/// `embed_named`: named-data entries whose tensor has data go into the segment like any constant
/// (offset and length, no key), making a self-contained payload.
Written from_ir(const Graph& g, bool need_data, bool embed_named = false);
/// `g` with what ATen operators cannot take as is made explicit (NHWC ops between Transposes,
/// Arm NN weight layouts permuted, Softmax beta as a Mul, BatchNormalization as Mul + Add):
/// see lower.cc. Throws Error(Unsupported) naming the node when a rewrite is impossible.
/// `superseded`: values a rewrite replaced (the original of a permuted weight, ...); the writer
/// leaves them out unless a node or the graph still uses them.
struct Lowered {
  Graph graph;
  std::vector<bool> superseded;  ///< per value of `graph`
};
Lowered lower_for_aten(const Graph& g);

/// Reads a bare VkGraph or a delegate payload (the handlers' read functions).
Graph read_vkgraph(const Source& src, const LoadOptions& o);
Graph read_delegate(const Source& src, const LoadOptions& o);
/// Serializes (the handlers' write functions, without the file I/O).
std::vector<uint8_t> write_vkgraph(const Graph& g, const SaveOptions& o);
std::vector<uint8_t> write_delegate(const Graph& g, const SaveOptions& o);

/// Metadata and attribute names shared by the reader and the writer.
namespace keys {
inline const std::string kValue = "vk.value";
inline const std::string kValueKinds = "vk.value_kinds";
inline const std::string kValuePayload = "vk.value.";  // + index
inline const std::string kConstantId = "vk.constant_id";
inline const std::string kMemObjId = "vk.mem_obj_id";
inline const std::string kStorageType = "vk.storage_type";
inline const std::string kMemoryLayout = "vk.memory_layout";
inline const std::string kStagingType = "vk.staging_datatype";
inline const std::string kDimsAbsent = "vk.dims_absent";
inline const std::string kNodeId = "vk.node_id";
inline const std::string kName = "vk.name";
inline const std::string kArgs = "vk.args";
inline const std::string kVersion = "vk.version";
inline const std::string kAbsent = "vk.absent";
inline const std::string kInputIds = "vk.input_ids";
inline const std::string kOutputIds = "vk.output_ids";
inline const std::string kStorageOverride = "vk.storage_type_override";
inline const std::string kLayoutOverride = "vk.memory_layout_override";
inline const std::string kConstantBytes = "vk.constant_bytes.";  // + index
/// Prefix of a bytes table's metadata ("vk.constants." / "vk.shaders.") + offset/length/named_key.
inline const std::string kConstants = "vk.constants.";
inline const std::string kShaders = "vk.shaders.";
}  // namespace keys

/// The IR dtype of a VkDataType and back; nullopt / -1 where there is none.
std::optional<DataType> ir_dtype(int8_t vk);
int8_t vk_dtype(DataType t);

}  // namespace nnbridge::formats::vkgraph
