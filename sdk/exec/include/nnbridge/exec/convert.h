// Conversions between stored dtypes and the float32 both backends compute in, and the
// requantisation rule: every backend converts inputs and constants with to_float() and rounds each
// node's result to its dtype with round_trip() (cpu in place, opencl after reading it back), so
// the backends cannot disagree on these rules.
#pragma once

#include <cstddef>
#include <mutex>
#include <atomic>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "nnbridge/error.h"
#include "nnbridge/exec/large_buffer.h"
#include "nnbridge/graph.h"

namespace nnbridge::exec {

/// Elements of `bytes` (dtype and quantization of `t`) as float32: quantized values
/// dequantized `scale * (q - zero_point)` (per-axis when the quantization has an axis; an
/// Int32 tensor with a quantization, e.g. an Arm NN bias, too), float16/bfloat16 widened.
std::vector<float> to_float(const TensorType& t, const std::byte* bytes, std::size_t count);
/// to_float into `out` (count floats, need not be initialised).
void to_float_into(const TensorType& t, const std::byte* bytes, std::size_t count, float* out);
/// Stores float32 `v` as `t`'s dtype: quantized types as clamp(round(x / scale) + zero_point)
/// with std::round (half away from zero, Arm NN armnn::Quantize), float16 to nearest with ties
/// away from zero (the half library Arm NN uses), bfloat16 to
/// nearest even, integers truncated toward zero and clamped, bool as x != 0.
/// Both throw Error(Unsupported) for a dtype without a float32 form (String, Complex).
std::vector<std::byte> from_float(const TensorType& t, const float* v, std::size_t count);
/// Rounds `v` in place to what `t` can hold (from_float then to_float); a no-op for float32.
void round_trip(const TensorType& t, float* v, std::size_t count);

/// A constant's elements as float32, read-only, as the backends' kernels see them. A float32
/// constant whose bytes are 4-byte aligned is a view of those bytes (no copy: the Buffer it holds
/// keeps them alive, e.g. a mapped file's pages). Any other is converted with to_float() into
/// storage of its own on the first call of data() (or of what reads the elements), once, safely
/// from any thread; until then it holds only the stored bytes, so a kernel that packs them
/// itself (int8 weights: stored()) leaves no float32 copy behind. Not copyable (the view may
/// point into its own storage); movable.
class FloatConstant {
 public:
  /// `count` elements of `bytes` (dtype and quantization of `t`). Throws Error(Unsupported) for a
  /// dtype without a float32 form, as to_float does; nothing is converted yet.
  static FloatConstant of(const TensorType& t, const Buffer& bytes, std::size_t count);
  explicit FloatConstant(std::vector<float> values) : own_(std::move(values)), p_(own_.data()), n_(own_.size()) {}
  FloatConstant(FloatConstant&&) noexcept = default;  // a moved vector keeps its heap block
  FloatConstant& operator=(FloatConstant&&) noexcept = default;
  FloatConstant(const FloatConstant&) = delete;
  FloatConstant& operator=(const FloatConstant&) = delete;

  /// The elements (converted on the first call).
  const float* data() const;
  std::size_t size() const noexcept { return n_; }
  bool empty() const noexcept { return n_ == 0; }
  const float* begin() const { return data(); }
  const float* end() const { return data() + n_; }
  float operator[](std::size_t i) const { return data()[i]; }
  /// Element i; Error(Invalid, Shape) past the end, which the prepare loop reports with the
  /// node's label (an empty Dropout ratio, say), never an uncaught std::out_of_range.
  float at(std::size_t i) const {
    if (i >= n_)
      throw Error(ErrorId::Shape, "a constant operand holds " + std::to_string(n_) + " values; value " + std::to_string(i) + " is needed");
    return data()[i];
  }
  operator std::span<const float>() const { return {data(), n_}; }
  /// Whether the elements are the graph's own float32 bytes (not a converted copy).
  bool is_view() const noexcept { return !keep_.empty() && !lazy_; }
  /// The stored bytes and their type when the elements are a conversion of them (of() of a
  /// dtype other than aligned float32), else null: what a kernel reads to pack integer weights
  /// without asking for the float32 form.
  const Buffer* stored() const noexcept { return lazy_ ? &keep_ : nullptr; }
  const TensorType* stored_type() const noexcept { return lazy_ ? &lazy_->type : nullptr; }
  /// Whether the float32 form exists yet (views and vectors: always).
  bool converted() const noexcept;
  /// Elements all FloatConstants of this process have converted on first read so far: a
  /// diagnostic of what the lazy conversion saves (a packed int8 weight adds nothing).
  static std::size_t converted_elements() noexcept;

 private:
  struct Lazy {
    TensorType type;
    std::mutex mutex;  // not std::call_once: glibc's wakes waiters with a futex system call every time
    std::atomic<bool> done{false};
    LargeFloats values;
  };
  FloatConstant() = default;
  std::vector<float> own_;
  std::unique_ptr<Lazy> lazy_;
  Buffer keep_;
  mutable const float* p_ = nullptr;  // set once: at construction, or by the conversion
  std::size_t n_ = 0;
};

}  // namespace nnbridge::exec
