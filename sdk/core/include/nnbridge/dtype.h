// Element types of tensors.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace nnbridge {

/// Element type of a tensor.
///
/// The quantized types follow Arm NN's vocabulary (armnn/Types.hpp): the storage type is
/// implied (QAsymmU8: uint8, QAsymmS8 and QSymmS8: int8, QSymmS16: int16) and the real value
/// is `scale * (q - zero_point)`; the parameters live in `TensorType::quantization`.
enum class DataType : uint8_t {
  Undefined = 0,
  Float32,
  Float16,   ///< IEEE 754 binary16
  BFloat16,  ///< bfloat16: the top 16 bits of a float32
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  UInt8,
  Bool,      ///< one byte per element, 0 or 1
  QAsymmU8,  ///< asymmetric quantized uint8
  QAsymmS8,  ///< asymmetric quantized int8
  QSymmS8,   ///< symmetric quantized int8 (zero point 0), per-tensor or per-axis
  QSymmS16,  ///< symmetric quantized int16
  UInt16,    ///< ONNX UINT16 (also the storage ONNX's tests give bfloat16 data)
  UInt32,    ///< ONNX UINT32
  UInt64,    ///< ONNX UINT64
};

/// Bytes per element (0 for Undefined).
std::size_t element_size(DataType t);
/// Canonical lower-case name used by the JSON form and the CLI ("float32", "qasymmu8", ...).
std::string_view to_string(DataType t);
/// Inverse of to_string; nullopt for an unknown name.
std::optional<DataType> parse_data_type(std::string_view name);
/// True for the four quantized types.
bool is_quantized(DataType t);
/// True for Float32, Float16, BFloat16, Float64.
bool is_floating(DataType t);
/// True for the plain integer types Int8/16/32/64 and UInt8/16/32/64 (not Bool, not quantized).
bool is_integer(DataType t);

}  // namespace nnbridge
