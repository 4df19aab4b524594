#include "nnbridge/dtype.h"

#include <array>
#include <utility>

namespace nnbridge {

namespace {
struct DTypeInfo {
  DataType type;
  std::string_view name;
  std::size_t size;
};
// Storage sizes: Arm NN armnn/TypesUtils.hpp GetDataTypeSize; Bool is one byte as in ONNX and Arm NN.
constexpr std::array<DTypeInfo, 18> kTypes{{
    {DataType::Undefined, "undefined", 0},
    {DataType::Float32, "float32", 4},
    {DataType::Float16, "float16", 2},
    {DataType::BFloat16, "bfloat16", 2},
    {DataType::Float64, "float64", 8},
    {DataType::Int8, "int8", 1},
    {DataType::Int16, "int16", 2},
    {DataType::Int32, "int32", 4},
    {DataType::Int64, "int64", 8},
    {DataType::UInt8, "uint8", 1},
    {DataType::Bool, "bool", 1},
    {DataType::QAsymmU8, "qasymmu8", 1},
    {DataType::QAsymmS8, "qasymms8", 1},
    {DataType::QSymmS8, "qsymms8", 1},
    {DataType::QSymmS16, "qsymms16", 2},
    {DataType::UInt16, "uint16", 2},
    {DataType::UInt32, "uint32", 4},
    {DataType::UInt64, "uint64", 8},
}};

const DTypeInfo* info(DataType t) {
  auto i = static_cast<std::size_t>(t);
  return i < kTypes.size() ? &kTypes[i] : nullptr;
}
}  // namespace

std::size_t element_size(DataType t) {
  const DTypeInfo* i = info(t);
  return i ? i->size : 0;
}

std::string_view to_string(DataType t) {
  const DTypeInfo* i = info(t);
  return i ? i->name : std::string_view("undefined");
}

std::optional<DataType> parse_data_type(std::string_view name) {
  for (const DTypeInfo& i : kTypes)
    if (i.name == name) return i.type;
  return std::nullopt;
}

bool is_quantized(DataType t) {
  return t == DataType::QAsymmU8 || t == DataType::QAsymmS8 || t == DataType::QSymmS8 ||
         t == DataType::QSymmS16;
}

bool is_integer(DataType t) {
  switch (t) {
    case DataType::Int8: case DataType::Int16: case DataType::Int32: case DataType::Int64:
    case DataType::UInt8: case DataType::UInt16: case DataType::UInt32: case DataType::UInt64:
      return true;
    default: return false;
  }
}

bool is_floating(DataType t) {
  return t == DataType::Float32 || t == DataType::Float16 || t == DataType::BFloat16 ||
         t == DataType::Float64;
}

}  // namespace nnbridge
