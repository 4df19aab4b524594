// An ONNX file's initializer data left where it is in the file: protobuf's parse copies every
// `bytes` field into a std::string, so parsing a model as it is copies all its weights once.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>

namespace nnbridge::formats::onnx {

/// The raw_data sizes slim_model leaves in the file: over 4 KiB (smaller ones, such as the shape
/// and axes operands shape inference reads, are parsed as usual). ONNX's version converter and
/// shape inference then see placeholders for the large ones: none of ONNX 1.12's upgrade
/// adapters reads the values of a weight.
inline constexpr std::size_t kSlimBytes = 4096;

/// A ModelProto's bytes without the large raw_data of its graph's initializers, and where that
/// data is in the file.
struct SlimModel {
  /// The file's bytes with each initializer's raw_data over the threshold replaced by one zero
  /// byte (a placeholder no such tensor can hold, which onnx::checker, counting the value fields
  /// that are set, takes for data), everything else as it was.
  std::string bytes;
  /// The replaced raw_data, by the initializer's name: a range of the file's bytes.
  std::unordered_map<std::string, std::span<const std::byte>> raw_data;
};

/// Walks the protobuf wire format of an ONNX ModelProto (onnx/onnx.proto: ModelProto.graph = 7,
/// GraphProto.initializer = 5, TensorProto.name = 8 and raw_data = 9; a field given twice is
/// the last one, as protobuf merges it) and replaces the raw_data of every graph.initializer
/// longer than `threshold` bytes by a placeholder. Returns nullopt, and the caller parses `file` as it is, when
/// there is no such raw_data, when the bytes are not well-formed wire format as far as the walk
/// goes (protobuf's parse then says what is wrong), or when two initializers have the same name, or
/// a replaced one none. O(fields of ModelProto, GraphProto and the initializers):
/// the data itself is skipped, not read.
std::optional<SlimModel> slim_model(std::span<const std::byte> file, std::size_t threshold);

}  // namespace nnbridge::formats::onnx
