// exec::FloatConstant (nnbridge/exec/convert.h): float32 constants are read in place, every other
// form is converted; the view keeps the graph's bytes alive on its own.
#include <doctest/doctest.h>

#include <cstring>
#include <optional>
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
