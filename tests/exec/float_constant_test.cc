// exec::FloatConstant and exec::round_trip (nnbridge/exec/convert.h): float32 constants are read
// in place, every other form is converted, and the view keeps the graph's bytes alive on its own;
// round_trip rounds results to integer dtypes in place by the stated rules.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <optional>
#include <span>
#include <thread>
#include <vector>

#include "nnbridge/exec/convert.h"

using namespace nnbridge;

namespace {

TensorType typed(DataType dt, std::vector<int64_t> shape) { return TensorType{dt, std::move(shape), false, std::nullopt}; }

Buffer floats(const std::vector<float>& v, std::size_t offset) {
  std::vector<std::byte> b(offset + v.size() * sizeof(float));
  std::memcpy(b.data() + offset, v.data(), v.size() * sizeof(float));
  return Buffer::owned(std::move(b)).slice(offset, v.size() * sizeof(float));
}

}  // namespace

TEST_CASE("FloatConstant: aligned float32 bytes are viewed, not copied, and outlive the graph's Buffer") {
  const std::vector<float> v{1.5f, -2.0f, 0.25f, 1e30f};
  std::optional<Buffer> bytes = floats(v, 0);
  const std::byte* where = bytes->data();
  REQUIRE(reinterpret_cast<std::uintptr_t>(where) % alignof(float) == 0);
  const exec::FloatConstant c = exec::FloatConstant::of(typed(DataType::Float32, {4}), *bytes, 4);
  CHECK(c.is_view());
  CHECK(static_cast<const void*>(c.data()) == static_cast<const void*>(where));
  bytes.reset();  // the graph lets go of its Buffer: the view still holds the block
  REQUIRE(c.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK(c[i] == v[i]);
  CHECK(c.at(3) == 1e30f);
  CHECK_THROWS_AS(c.at(4), Error);  // a clear nnbridge error, not std::out_of_range
}

TEST_CASE("FloatConstant: misaligned float32 and other dtypes are converted into storage of their own") {
  const std::vector<float> v{3.0f, -0.5f};
  const Buffer odd = floats(v, 1);  // one byte in: not 4-byte aligned
  const exec::FloatConstant a = exec::FloatConstant::of(typed(DataType::Float32, {2}), odd, 2);
  CHECK_FALSE(a.is_view());
  CHECK(static_cast<const void*>(a.data()) != static_cast<const void*>(odd.data()));
  CHECK(a[0] == 3.0f);
  CHECK(a[1] == -0.5f);
  // int32 {7, -9}: widened values (to_float), a copy.
  const std::vector<int32_t> iv{7, -9};
  const Buffer ib = Buffer::copy_of(std::as_bytes(std::span<const int32_t>(iv)));
  exec::FloatConstant b = exec::FloatConstant::of(typed(DataType::Int32, {2}), ib, 2);
  CHECK_FALSE(b.is_view());
  CHECK(b[0] == 7.0f);
  CHECK(b[1] == -9.0f);
  // A moved constant keeps its converted elements where they were.
  const float* before = b.data();
  exec::FloatConstant moved = std::move(b);
  CHECK(moved.data() == before);
  CHECK(moved[1] == -9.0f);
}

TEST_CASE("FloatConstant: a conversion happens on the first read, once, from any thread, and the stored bytes stay readable") {
  // int8 {-128, 0, 127, 5}: widened to {-128, 0, 127, 5} (to_float), only when first read.
  const std::vector<int8_t> q{-128, 0, 127, 5};
  const Buffer qb = Buffer::copy_of(std::as_bytes(std::span<const int8_t>(q)));
  const TensorType t = typed(DataType::Int8, {4});
  const exec::FloatConstant c = exec::FloatConstant::of(t, qb, 4);
  CHECK_FALSE(c.converted());
  CHECK(c.size() == 4);  // known without converting
  REQUIRE(c.stored() != nullptr);
  CHECK(c.stored()->data() == qb.data());  // the graph's bytes, not a copy
  REQUIRE(c.stored_type() != nullptr);
  CHECK(c.stored_type()->dtype == DataType::Int8);
  CHECK_FALSE(c.converted());
  std::vector<const float*> seen(8, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i) threads.emplace_back([&, i] { seen[i] = c.data(); });
  for (std::thread& th : threads) th.join();
  CHECK(c.converted());
  for (const float* p : seen) CHECK(p == seen[0]);  // one conversion, one storage
  CHECK(std::vector<float>(c.begin(), c.end()) == std::vector<float>{-128, 0, 127, 5});
  // A float32 view and a vector are their float32 form from the start; they store no other bytes.
  const exec::FloatConstant v = exec::FloatConstant::of(typed(DataType::Float32, {1}), floats({2.0f}, 0), 1);
  CHECK(v.converted());
  CHECK(v.stored() == nullptr);
  CHECK(exec::FloatConstant(std::vector<float>{1.0f}).converted());
  // A dtype without a float32 form is refused when the constant is made, not at its first read.
  const Buffer sb = Buffer::copy_of(std::as_bytes(std::span<const int8_t>(q)));
  CHECK_THROWS_AS(exec::FloatConstant::of(typed(DataType::Undefined, {1}), sb, 1), Error);
}

TEST_CASE("round_trip: integer dtypes in place, plain (truncate, saturate, NaN 0) and quantized (Arm NN Quantize then dequantize)") {
  // Hand calculations from the rules convert.h states: a plain integer type keeps trunc(v)
  // saturated to its range (NaN: 0); a quantized one stores round(v / scale) + zero point
  // (halves away from zero, std::round), saturated, and reads back (q - zero point) * scale.
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  auto run = [](TensorType t, std::vector<float> v) {
    exec::round_trip(t, v.data(), v.size());
    return v;
  };
  CHECK(run(typed(DataType::UInt8, {11}), {-0.7f, 0.5f, 1.9f, 254.9f, 255.5f, 300.0f, -300.0f, nan, inf, -inf, 7.0f}) ==
        std::vector<float>{0, 0, 1, 254, 255, 255, 0, 0, 255, 0, 7});
  CHECK(run(typed(DataType::Int8, {7}), {-128.7f, -129.0f, 127.9f, -0.5f, 3.99f, -3.99f, 128.0f}) ==
        std::vector<float>{-128, -128, 127, 0, 3, -3, 127});
  CHECK(run(typed(DataType::Int16, {3}), {40000.0f, -40000.0f, 1.5f}) == std::vector<float>{32767, -32768, 1});
  CHECK(run(typed(DataType::UInt16, {3}), {70000.0f, -1.0f, 65535.5f}) == std::vector<float>{65535, 0, 65535});
  CHECK(run(typed(DataType::Int32, {2}), {3e9f, -5.5f}) == std::vector<float>{2147483648.0f, -5});
  // QAsymmU8, scale 0.5, zero point 10: 1.3 / 0.5 = 2.6 -> 3 -> 13 -> 1.5; -10 -> -20 + 10 ->
  // saturates to 0 -> -5; 200 -> 410 -> 255 -> 122.5; 0.25 -> 0.5 rounds away from zero -> 1 -> 0.5.
  TensorType q = typed(DataType::QAsymmU8, {4});
  q.quantization = Quantization{{0.5}, {10}, std::nullopt};
  CHECK(run(q, {1.3f, -10.0f, 200.0f, 0.25f}) == std::vector<float>{1.5f, -5.0f, 122.5f, 0.5f});
  // QSymmS8 per axis 0, scales [0.5, 2]: row 0 1.3 -> 3 -> 1.5, -1.3 -> -3 -> -1.5; row 1
  // 3 / 2 = 1.5 -> 2 -> 4, 1000 / 2 = 500 -> 127 -> 254.
  TensorType pa = typed(DataType::QSymmS8, {2, 2});
  pa.quantization = Quantization{{0.5, 2.0}, {}, int64_t{0}};
  CHECK(run(pa, {1.3f, -1.3f, 3.0f, 1000.0f}) == std::vector<float>{1.5f, -1.5f, 4.0f, 254.0f});
}
