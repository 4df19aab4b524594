// Dtype conversions and requantisation (nnbridge/exec/convert.h).
#include "nnbridge/exec/convert.h"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "nnbridge/error.h"

namespace nnbridge::exec {

namespace {

// Per-element quantization parameters: slice index of element i.
struct QParams {
  const Quantization* q = nullptr;
  std::size_t inner = 1, dim = 1;
  QParams(const TensorType& t) {
    if (!t.quantization || t.quantization->scales.empty()) return;
    q = &*t.quantization;
    if (q->axis && *q->axis >= 0 && static_cast<std::size_t>(*q->axis) < t.shape.size() && q->scales.size() > 1) {
      dim = static_cast<std::size_t>(t.shape[*q->axis]);
      for (std::size_t d = *q->axis + 1; d < t.shape.size(); ++d) inner *= static_cast<std::size_t>(t.shape[d]);
    }
  }
  std::size_t slice(std::size_t i) const {
    std::size_t s = dim > 1 ? (i / inner) % dim : 0;
    return s < q->scales.size() ? s : 0;
  }
  float scale(std::size_t s) const { return static_cast<float>(q->scales[s]); }
  int64_t zero(std::size_t s) const {
    if (q->zero_points.empty()) return 0;
    return q->zero_points[std::min(s, q->zero_points.size() - 1)];
  }
};

// float32 -> binary16 rounding to nearest, ties away from zero: the default rounding of the
// half library Arm NN uses for Float16 (armnn/Half.hpp, half.hpp HALF_ROUND_TIES_TO_EVEN 0).
uint16_t float_to_half(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  const uint16_t sign = static_cast<uint16_t>((b >> 16) & 0x8000u);
  const uint32_t abs = b & 0x7fffffffu;
  if (abs >= 0x7f800000u) return sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u);  // inf, nan
  const int e = static_cast<int>(abs >> 23) - 127 + 15;
  uint32_t mant = (abs & 0x7fffffu) | 0x800000u;
  if (e >= 31) return sign | 0x7c00u;
  if (e <= 0) {  // subnormal half (or zero)
    const int shift = 14 - e;
    if (shift > 24) return sign;
    uint32_t h = mant >> shift;
    if ((mant >> (shift - 1)) & 1u) ++h;
    return sign | static_cast<uint16_t>(h);
  }
  uint32_t h = (static_cast<uint32_t>(e) << 10) | ((mant >> 13) & 0x3ffu);
  if (mant & 0x1000u) ++h;  // the carry may step into the exponent, up to infinity: as intended
  return sign | static_cast<uint16_t>(h);
}

template <class T>
void load_all(const std::byte* b, std::size_t n, float* out) {
  for (std::size_t i = 0; i < n; ++i) {
    T v;
    std::memcpy(&v, b + i * sizeof(T), sizeof(T));
    out[i] = static_cast<float>(v);
  }
}

// Element i of a store to T (from_float): quantized with qp when given and it has parameters,
// else truncated; NaN gives 0; saturated to T's range.
template <class T>
T store_one(float v, std::size_t i, const QParams* qp) {
  constexpr double lo = static_cast<double>(std::numeric_limits<T>::lowest());
  constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
  double x;
  if (qp && qp->q) {
    std::size_t s = qp->slice(i);
    // Arm NN armnn::Quantize: round(value / scale) + offset, then clamp; the division in float,
    // as Arm NN's (in double, 4.25f / 0.1f is 42.4999... where Arm NN's float quotient is 42.5).
    x = static_cast<double>(std::round(v / qp->scale(s))) + static_cast<double>(qp->zero(s));
  } else {
    x = std::trunc(static_cast<double>(v));
  }
  if (std::isnan(x)) x = 0;
  // hi of a 64-bit type rounds up to 2^63 or 2^64 as a double: saturate before the cast.
  return x >= hi ? std::numeric_limits<T>::max() : x <= lo ? std::numeric_limits<T>::lowest() : static_cast<T>(x);
}

template <class T>
void store_int(const float* v, std::size_t n, std::byte* out, const QParams* qp) {
  if constexpr (sizeof(T) <= 2) {
    if (!qp || !qp->q) {
      // store_one's rule without parameters in float, as round_trip_int: NaN gives 0, clamping
      // before truncating is the same as after. Vectorizes (a uint8 output: ~0.1 ns per element
      // against ~3 through store_one's doubles).
      constexpr float lo = static_cast<float>(std::numeric_limits<T>::lowest());
      constexpr float hi = static_cast<float>(std::numeric_limits<T>::max());
      for (std::size_t i = 0; i < n; ++i) {
        const T t = static_cast<T>(static_cast<int32_t>(v[i] == v[i] ? std::min(std::max(v[i], lo), hi) : 0.0f));
        std::memcpy(out + i * sizeof(T), &t, sizeof(T));
      }
      return;
    }
  }
  for (std::size_t i = 0; i < n; ++i) {
    T t = store_one<T>(v[i], i, qp);
    std::memcpy(out + i * sizeof(T), &t, sizeof(T));
  }
}

// Element i of a load (to_float) of a stored value f: dequantized when qp has parameters.
float dequantize_one(float f, std::size_t i, const QParams& qp) {
  if (!qp.q) return f;
  const std::size_t s = qp.slice(i);
  return qp.scale(s) * static_cast<float>(static_cast<int64_t>(f) - qp.zero(s));
}

// round_trip of an integer dtype stored as T, element by element with no buffers.
template <class T>
void round_trip_int(float* v, std::size_t n, const QParams& qp, const QParams* store_q) {
  if (!qp.q && !(store_q && store_q->q)) {  // no quantization parameters: truncate and saturate
    if constexpr (sizeof(T) <= 2) {
      // store_one's rule in float: NaN gives 0, then clamping to T's range before the
      // truncating conversion is the same as truncating first (no value between two integers
      // lies beyond the range's ends), and the range fits int32. Vectorizes.
      constexpr float lo = static_cast<float>(std::numeric_limits<T>::lowest());
      constexpr float hi = static_cast<float>(std::numeric_limits<T>::max());
      for (std::size_t i = 0; i < n; ++i) {
        const float x = v[i] == v[i] ? std::min(std::max(v[i], lo), hi) : 0.0f;
        v[i] = static_cast<float>(static_cast<int32_t>(x));
      }
    } else {
      for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(store_one<T>(v[i], i, nullptr));
    }
    return;
  }
  for (std::size_t i = 0; i < n; ++i) v[i] = dequantize_one(static_cast<float>(store_one<T>(v[i], i, store_q)), i, qp);
}


}  // namespace

void to_float_into(const TensorType& t, const std::byte* b, std::size_t n, float* out) {
  switch (t.dtype) {
    case DataType::Float32: if (n) std::memcpy(out, b, n * 4); return;  // quantization of a float32 is not applied
    case DataType::Float64: load_all<double>(b, n, out); break;
    case DataType::Float16: load_all<Eigen::half>(b, n, out); break;
    case DataType::BFloat16: load_all<Eigen::bfloat16>(b, n, out); break;
    case DataType::Int8: case DataType::QAsymmS8: case DataType::QSymmS8: load_all<int8_t>(b, n, out); break;
    case DataType::Int16: case DataType::QSymmS16: load_all<int16_t>(b, n, out); break;
    case DataType::Int32: load_all<int32_t>(b, n, out); break;
    case DataType::Int64: load_all<int64_t>(b, n, out); break;
    case DataType::UInt8: case DataType::QAsymmU8: case DataType::Bool: load_all<uint8_t>(b, n, out); break;
    case DataType::UInt16: load_all<uint16_t>(b, n, out); break;
    case DataType::UInt32: load_all<uint32_t>(b, n, out); break;
    case DataType::UInt64: load_all<uint64_t>(b, n, out); break;
    default: throw Error(ErrorId::DataType, "no float32 conversion for dtype " + std::string(to_string(t.dtype)));
  }
  QParams qp(t);
  if (qp.q)
    for (std::size_t i = 0; i < n; ++i) out[i] = dequantize_one(out[i], i, qp);
}

std::vector<float> to_float(const TensorType& t, const std::byte* b, std::size_t n) {
  if (t.dtype == DataType::Float32) {  // one pass, no zero-fill first (large weights: one copy, not two)
    std::vector<float> out;
    out.reserve(n);
    const float* f = reinterpret_cast<const float*>(b);
    if (reinterpret_cast<std::uintptr_t>(b) % alignof(float) == 0) {
      out.assign(f, f + n);
    } else {
      out.resize(n);
      if (n) std::memcpy(out.data(), b, n * 4);
    }
    return out;
  }
  std::vector<float> out(n);
  to_float_into(t, b, n, out.data());
  return out;
}

std::vector<std::byte> from_float(const TensorType& t, const float* v, std::size_t n) {
  std::vector<std::byte> out(n * element_size(t.dtype));
  QParams qp(t);
  const QParams* q = is_quantized(t.dtype) || (qp.q && t.dtype == DataType::Int32) ? &qp : nullptr;
  switch (t.dtype) {
    case DataType::Float32: if (n) std::memcpy(out.data(), v, n * 4); break;
    case DataType::Float64:
      for (std::size_t i = 0; i < n; ++i) { double d = v[i]; std::memcpy(out.data() + 8 * i, &d, 8); }
      break;
    case DataType::Float16:
      for (std::size_t i = 0; i < n; ++i) { uint16_t h = float_to_half(v[i]); std::memcpy(out.data() + 2 * i, &h, 2); }
      break;
    case DataType::BFloat16:
      for (std::size_t i = 0; i < n; ++i) { Eigen::bfloat16 h(v[i]); std::memcpy(out.data() + 2 * i, &h, 2); }
      break;
    case DataType::Int8: case DataType::QAsymmS8: case DataType::QSymmS8: store_int<int8_t>(v, n, out.data(), q); break;
    case DataType::Int16: case DataType::QSymmS16: store_int<int16_t>(v, n, out.data(), q); break;
    case DataType::Int32: store_int<int32_t>(v, n, out.data(), q); break;
    case DataType::Int64: store_int<int64_t>(v, n, out.data(), q); break;
    case DataType::UInt8: case DataType::QAsymmU8: store_int<uint8_t>(v, n, out.data(), q); break;
    case DataType::UInt16: store_int<uint16_t>(v, n, out.data(), q); break;
    case DataType::UInt32: store_int<uint32_t>(v, n, out.data(), q); break;
    case DataType::UInt64: store_int<uint64_t>(v, n, out.data(), q); break;
    case DataType::Bool:
      for (std::size_t i = 0; i < n; ++i) out[i] = std::byte{v[i] != 0.0f};
      break;
    default: throw Error(ErrorId::DataType, "no float32 conversion for dtype " + std::string(to_string(t.dtype)));
  }
  return out;
}

void round_trip(const TensorType& t, float* v, std::size_t n) {
  if (t.dtype == DataType::Float32 || t.dtype == DataType::Float64 || t.dtype == DataType::Undefined) return;
  // The integer dtypes in place (every node's output in a quantized graph: no allocation per step).
  const QParams qp(t);
  const QParams* q = is_quantized(t.dtype) || (qp.q && t.dtype == DataType::Int32) ? &qp : nullptr;
  switch (t.dtype) {
    case DataType::Int8: case DataType::QAsymmS8: case DataType::QSymmS8: return round_trip_int<int8_t>(v, n, qp, q);
    case DataType::Int16: case DataType::QSymmS16: return round_trip_int<int16_t>(v, n, qp, q);
    case DataType::Int32: return round_trip_int<int32_t>(v, n, qp, q);
    case DataType::Int64: return round_trip_int<int64_t>(v, n, qp, q);
    case DataType::UInt8: case DataType::QAsymmU8: return round_trip_int<uint8_t>(v, n, qp, q);
    case DataType::UInt16: return round_trip_int<uint16_t>(v, n, qp, q);
    case DataType::UInt32: return round_trip_int<uint32_t>(v, n, qp, q);
    case DataType::UInt64: return round_trip_int<uint64_t>(v, n, qp, q);
    default: break;
  }
  std::vector<std::byte> b = from_float(t, v, n);
  std::vector<float> f = to_float(t, b.data(), n);
  std::memcpy(v, f.data(), n * sizeof(float));
}

FloatConstant FloatConstant::of(const TensorType& t, const Buffer& bytes, std::size_t count) {
  FloatConstant c;
  c.keep_ = bytes;
  c.n_ = count;
  if (count > 0 && t.dtype == DataType::Float32 && reinterpret_cast<std::uintptr_t>(bytes.data()) % alignof(float) == 0 &&
      bytes.size() >= count * sizeof(float)) {
    c.p_ = reinterpret_cast<const float*>(bytes.data());
    return c;
  }
  switch (t.dtype) {  // to_float_into's dtypes: an error now, not at the first read
    case DataType::Float32: case DataType::Float64: case DataType::Float16: case DataType::BFloat16:
    case DataType::Int8: case DataType::QAsymmS8: case DataType::QSymmS8: case DataType::Int16: case DataType::QSymmS16:
    case DataType::Int32: case DataType::Int64: case DataType::UInt8: case DataType::QAsymmU8: case DataType::Bool:
    case DataType::UInt16: case DataType::UInt32: case DataType::UInt64:
      break;
    default: throw Error(ErrorId::DataType, "no float32 conversion for dtype " + std::string(to_string(t.dtype)));
  }
  c.lazy_ = std::make_unique<Lazy>();
  c.lazy_->type = t;
  return c;
}

namespace {
std::atomic<std::size_t> g_converted_elements{0};
}  // namespace

std::size_t FloatConstant::converted_elements() noexcept { return g_converted_elements.load(std::memory_order_relaxed); }

const float* FloatConstant::data() const {
  if (lazy_ && !lazy_->done.load(std::memory_order_acquire)) {
    // Converted into storage that is not zero-filled first: the conversion is the first touch of
    // each page (large_floats: huge pages for a large constant).
    std::lock_guard lock(lazy_->mutex);
    if (!lazy_->done.load(std::memory_order_relaxed)) {  // else another thread converted it meanwhile
      lazy_->values = large_floats(n_);
      to_float_into(lazy_->type, keep_.data(), n_, lazy_->values.get());
      p_ = lazy_->values.get();
      g_converted_elements.fetch_add(n_, std::memory_order_relaxed);
      lazy_->done.store(true, std::memory_order_release);
    }
  }
  return p_;
}

bool FloatConstant::converted() const noexcept { return !lazy_ || lazy_->done.load(std::memory_order_acquire); }

}  // namespace nnbridge::exec
