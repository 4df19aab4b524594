// The VkGraph table as plain C++ data: what decode.cc reads out of a verified flatbuffer and
// encode.cc writes back, field for field. Everything semantic (the IR, op mapping, constant
// data) lives above this layer; everything about bytes lives below it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "nnbridge/format.h"

namespace nnbridge::formats::vkgraph {

/// GraphTypes union tags (schema order); None is the union's "no value" tag.
enum class Kind : uint8_t {
  None = 0,
  Null,
  Int,
  Double,
  Bool,
  Tensor,
  IntList,
  DoubleList,
  BoolList,
  ValueList,
  String,
  SymInt,
};
inline constexpr uint8_t kKindCount = 11;  ///< kinds 1..11

/// Enum values of the schema kept as their raw integers.
inline constexpr int8_t kDataTypeUnset = 127;
inline constexpr uint8_t kDefaultStorage = 255, kDefaultLayout = 255;
/// VkBytes.offset of a constant held in the named data map.
inline constexpr uint64_t kNamedDataOffset = UINT64_MAX;

struct RawTensor {
  int8_t datatype = 0;
  std::vector<uint32_t> dims;
  bool dims_present = true;
  int32_t constant_id = -1;
  int32_t mem_obj_id = -1;
  uint8_t storage_type = kDefaultStorage;
  uint8_t memory_layout = kDefaultLayout;
  int8_t staging_datatype = kDataTypeUnset;

  friend bool operator==(const RawTensor&, const RawTensor&) = default;
};

/// One VkValue. Only the members of its kind are meaningful.
struct RawValue {
  Kind kind = Kind::Null;
  int64_t i = 0;                // Int.int_val, SymInt.value
  double d = 0;                 // Double.double_val
  bool b = false;               // Bool.bool_val
  std::string s;                // String.string_val
  std::vector<int64_t> ints;    // IntList.items, ValueList.items
  std::vector<double> doubles;  // DoubleList.items
  std::vector<bool> bools;      // BoolList.items
  bool present = true;          // the list's `items` / String's `string_val` is present
  RawTensor tensor;

  friend bool operator==(const RawValue&, const RawValue&) = default;
};

struct RawOp {
  uint32_t node_id = 0;
  std::string name;
  std::vector<int32_t> args;
};

struct RawBytes {
  uint64_t offset = 0;
  uint64_t length = 0;
  std::string named_key;
  bool key_present = true;
};

/// Top-level vectors and the version string that may be absent from a file.
struct Presence {
  bool version = true, chain = true, values = true, input_ids = true, output_ids = true, constants = true,
       shaders = true;
};

struct RawGraph {
  std::string version;
  std::vector<RawOp> chain;
  std::vector<RawValue> values;
  std::vector<uint32_t> input_ids, output_ids;
  std::vector<RawBytes> constants, shaders;
  uint8_t storage_type_override = kDefaultStorage;
  uint8_t memory_layout_override = kDefaultLayout;
  Presence present;
};

/// Name of a kind as the schema spells it ("VkTensor", "IntList"); "NONE" for None.
const char* kind_name(Kind k);
/// Schema enum names; nullptr for a value the schema does not define.
const char* data_type_name(int8_t v);
const char* storage_type_name(uint8_t v);
const char* memory_layout_name(uint8_t v);
/// Inverses of the above (exact names); return false for an unknown name.
bool parse_data_type_name(const std::string& s, int8_t& out);
bool parse_storage_type_name(const std::string& s, uint8_t& out);
bool parse_memory_layout_name(const std::string& s, uint8_t& out);

/// Verifies and decodes a VkGraph flatbuffer (with the VK00 identifier). Checks what the
/// ExecuTorch runtime relies on: union kinds 1..11, enum values the schema defines, every
/// value index (args, ValueList items, input_ids, output_ids) in range, constant_id within
/// `constants`, and rejects ExecuTorch 0.2 blobs (OperatorCall without node_id, Unsupported).
/// Throws Error(Malformed / Invalid / Unsupported) with `where` in schema field names.
RawGraph decode(std::span<const std::byte> fb, const VerifierLimits& limits);
/// Serializes with the VK00 identifier; deterministic. Every VkTensor stores constant_id and
/// mem_obj_id explicitly (their -1 is not the schema default).
std::vector<uint8_t> encode(const RawGraph& g);

}  // namespace nnbridge::formats::vkgraph
