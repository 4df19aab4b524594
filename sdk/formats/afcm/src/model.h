// The content of a CompiledModel as plain C++ values: what the flatbuffer side (flatbuffer.cc)
// and the IR side (ir.cc) exchange, and what the rules (rules.cc) judge.
//
// Unlike flatc's object API it keeps presence: a table, vector or string left out of the file
// is std::nullopt here, not an empty value, so that writing back gives what was read. Enum
// fields keep their raw on-disk numbers, including numbers the schema does not name.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/buffer.h"

namespace nnbridge::formats::afcm {

using Uint3 = std::array<uint32_t, 3>;

/// Union tags as stored (the schema's declaration order, 0 = NONE).
enum class SizeTag : uint8_t { NONE = 0, Uint1 = 1, Uint2 = 2, Uint3 = 3 };
enum class ObjectTag : uint8_t { NONE = 0, ObjectData = 1, ObjectRef = 2 };
enum class DataTag : uint8_t { NONE = 0, DataInt32 = 1, DataFloat = 2, DataUint32 = 3 };

struct Object {
  int8_t access = 0;     ///< AccessType
  uint32_t binding = 0;
  int8_t data_type = 0;  ///< DataType
  int8_t type = 0;       ///< ObjectType
  SizeTag size_type = SizeTag::NONE;
  /// The size table, when present; components the member lacks (y, z of Uint1) are 0.
  std::optional<Uint3> size;
  ObjectTag object_type = ObjectTag::NONE;
  bool object_present = false;  ///< the union's table is in the file
  std::optional<Buffer> data;   ///< ObjectData.data, when present
  uint32_t global_id = 0;       ///< ObjectRef.global_id
};

struct Parameter {
  std::optional<std::string> name;
  int8_t type = 0;  ///< ParameterType
  DataTag data_type = DataTag::NONE;
  bool data_present = false;  ///< the union's table is in the file
  /// DataInt32.data or DataUint32.data (as int64), when present.
  std::optional<std::vector<int64_t>> ints;
  /// DataFloat.data (float32 values, held exactly as double), when present.
  std::optional<std::vector<double>> floats;
};

struct ProgramBinary {
  uint32_t format = 0;
  std::optional<std::vector<uint8_t>> binary;
};

struct Program {
  std::optional<std::vector<Object>> objects;
  std::optional<std::vector<Parameter>> parameters;
  std::optional<Uint3> number_workgroups, workgroup_size;
  uint32_t shader_index = 0;
  std::optional<ProgramBinary> binary;
};

struct Model {
  std::optional<bool> dynamic_batch;  ///< Parameters.dynamic_batch; nullopt: no Parameters table
  std::optional<std::vector<std::string>> shaders;
  std::optional<std::vector<Program>> programs;
};

/// Names of the schema's enum values and union members, as flatc writes them in JSON
/// ("READ_WRITE", "DataFloat"); a number the schema does not name gives its decimal text.
std::string access_name(int8_t v);
std::string data_type_name(int8_t v);
std::string object_type_name(int8_t v);
std::string parameter_type_name(int8_t v);
std::string_view tag_name(SizeTag t);
std::string_view tag_name(ObjectTag t);
std::string_view tag_name(DataTag t);

/// Inverses: a name or a decimal number in the enum's range; nullopt otherwise.
std::optional<int8_t> parse_access(std::string_view s);
std::optional<int8_t> parse_data_type(std::string_view s);
std::optional<int8_t> parse_object_type(std::string_view s);
std::optional<int8_t> parse_parameter_type(std::string_view s);
/// Union tags by member name ("NONE" included); numbers are not accepted.
std::optional<SizeTag> parse_size_tag(std::string_view s);
std::optional<ObjectTag> parse_object_tag(std::string_view s);
std::optional<DataTag> parse_data_tag(std::string_view s);

/// True when the schema names `v` in the enum.
bool known_access(int8_t v);
bool known_data_type(int8_t v);
bool known_object_type(int8_t v);
bool known_parameter_type(int8_t v);

/// Components of a size member (Uint1: 1 ... Uint3: 3; NONE: 0).
int components(SizeTag t);

}  // namespace nnbridge::formats::afcm
