// HostTensor and the dtype helpers.
#include <bit>
#include <cstring>

#include "nnbridge/error.h"
#include "nnbridge/exec.h"

namespace nnbridge {

namespace {

// IEEE 754 binary16 -> binary32, exact (every half is a float).
float half_to_float(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  uint32_t bits;
  if (exp == 0x1f) {
    bits = sign | 0x7f800000u | (mant << 13);
  } else if (exp != 0) {
    bits = sign | ((exp + 112) << 23) | (mant << 13);
  } else if (mant == 0) {
    bits = sign;
  } else {  // subnormal: normalize
    int e = -1;
    do {
      ++e;
      mant <<= 1;
    } while ((mant & 0x400u) == 0);
    bits = sign | (static_cast<uint32_t>(112 - e) << 23) | ((mant & 0x3ffu) << 13);
  }
  return std::bit_cast<float>(bits);
}

template <class T>
T load(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof(T));
  return v;
}

}  // namespace

DataType storage_type(DataType t) {
  switch (t) {
    case DataType::QAsymmU8: return DataType::UInt8;
    case DataType::QAsymmS8:
    case DataType::QSymmS8: return DataType::Int8;
    case DataType::QSymmS16: return DataType::Int16;
    default: return t;
  }
}

HostTensor HostTensor::from_buffer(TensorType type, Buffer data) {
  auto bytes = type.byte_size();
  if (type.unknown_rank || !bytes)
    throw Error(ErrorId::Shape, "a host tensor needs a fully known shape and a dtype");
  if (static_cast<uint64_t>(*bytes) != data.size())
    throw Error(ErrorId::Shape, "host tensor of " + std::to_string(*bytes) + " bytes given " +
                                        std::to_string(data.size()) + " bytes");
  HostTensor t;
  t.type_ = std::move(type);
  t.data_ = std::move(data);
  return t;
}

HostTensor HostTensor::owned(TensorType type, std::vector<std::byte> bytes) {
  return from_buffer(std::move(type), Buffer::owned(std::move(bytes)));
}

HostTensor HostTensor::view(TensorType type, std::span<const std::byte> bytes, std::shared_ptr<const void> owner) {
  return from_buffer(std::move(type), Buffer::view(std::move(owner), bytes));
}

std::size_t HostTensor::element_count() const noexcept {
  auto n = type_.element_count();
  return n ? static_cast<std::size_t>(*n) : 0;
}

void HostTensor::check_element_size(std::size_t size) const {
  if (size != element_size(type_.dtype))
    throw Error(ErrorId::TypeMismatch, "tensor of dtype " + std::string(to_string(type_.dtype)) +
                                        " read with an element size of " + std::to_string(size));
}

std::vector<double> HostTensor::to_double() const {
  const std::size_t n = element_count();
  std::vector<double> out(n);
  const std::byte* p = data_.data();
  const DataType st = storage_type(type_.dtype);
  for (std::size_t i = 0; i < n; ++i) {
    switch (st) {
      case DataType::Float32: out[i] = load<float>(p + 4 * i); break;
      case DataType::Float64: out[i] = load<double>(p + 8 * i); break;
      case DataType::Float16: out[i] = half_to_float(load<uint16_t>(p + 2 * i)); break;
      case DataType::BFloat16:
        out[i] = std::bit_cast<float>(static_cast<uint32_t>(load<uint16_t>(p + 2 * i)) << 16);
        break;
      case DataType::Int8: out[i] = load<int8_t>(p + i); break;
      case DataType::Int16: out[i] = load<int16_t>(p + 2 * i); break;
      case DataType::Int32: out[i] = load<int32_t>(p + 4 * i); break;
      case DataType::Int64: out[i] = static_cast<double>(load<int64_t>(p + 8 * i)); break;
      case DataType::UInt8: out[i] = load<uint8_t>(p + i); break;
      case DataType::UInt16: out[i] = load<uint16_t>(p + 2 * i); break;
      case DataType::UInt32: out[i] = load<uint32_t>(p + 4 * i); break;
      case DataType::UInt64: out[i] = static_cast<double>(load<uint64_t>(p + 8 * i)); break;
      case DataType::Bool: out[i] = load<uint8_t>(p + i) != 0 ? 1.0 : 0.0; break;
      default: throw Error(ErrorId::TypeMismatch, "tensor of dtype " + std::string(to_string(type_.dtype)));
    }
  }
  const auto& q = type_.quantization;
  if (q && !q->scales.empty()) {
    // Per-axis: element i belongs to slice (i / inner) % dim along the axis.
    std::size_t inner = 1, dim = 1;
    if (q->axis && *q->axis >= 0 && static_cast<std::size_t>(*q->axis) < type_.shape.size()) {
      dim = static_cast<std::size_t>(type_.shape[*q->axis]);
      for (std::size_t d = *q->axis + 1; d < type_.shape.size(); ++d) inner *= static_cast<std::size_t>(type_.shape[d]);
    }
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t s = dim > 1 ? (i / inner) % dim : 0;
      if (s >= q->scales.size()) s = 0;
      double zp = q->zero_points.empty() ? 0.0 : static_cast<double>(q->zero_points[std::min(s, q->zero_points.size() - 1)]);
      out[i] = q->scales[s] * (out[i] - zp);
    }
  }
  return out;
}

}  // namespace nnbridge
