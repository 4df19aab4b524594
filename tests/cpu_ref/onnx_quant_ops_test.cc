// Oracle: hand calculations, written out next to each check, from the ONNX operator definitions
// (QuantizeLinear-13, DequantizeLinear-13, DynamicQuantizeLinear-11, MatMulInteger-10,
// QLinearMatMul-10, ConvInteger-10, QLinearConv-10).
// The quantizing kernels with scale / zero point inputs and the integer products.
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "one_node.h"

using namespace nnbridge;
using namespace nnbridge::test;

namespace {
using Ints = std::vector<int64_t>;
using Floats = std::vector<float>;
using U8 = std::vector<uint8_t>;
TensorType u8(std::vector<int64_t> shape) { return typed(DataType::UInt8, std::move(shape)); }
TensorType i32(std::vector<int64_t> shape) { return typed(DataType::Int32, std::move(shape)); }
HostTensor u8t(std::vector<int64_t> shape, U8 v) { return HostTensor::from_values<uint8_t>(u8(std::move(shape)), v); }
}  // namespace

TEST_CASE("cpu onnx quant ops: QuantizeLinear / DequantizeLinear per axis with scale inputs") {
  // axis 0, scale [0.5, 2], zero point [10, 20]. Row 0: 1 / 0.5 = 2 -> 12; -1.25 / 0.5 = -2.5
  // rounds half to even -> -2 -> 8. Row 1: 3 / 2 = 1.5 -> 2 -> 22; 1000 / 2 + 20 saturates -> 255.
  Graph q = OneNode("QuantizeLinear", {{"axis", Attr(int64_t{0})}})
                .in(f32({2, 2}))
                .in(f32({2}))
                .constant(u8({2}), U8{10, 20})
                .done(u8({2, 2}));
  CHECK(y_of<uint8_t>(run(q, {{"x0", ft({2, 2}, {1, -1.25f, 3, 1000})}, {"x1", ft({2}, {0.5f, 2})}})) == U8{12, 8, 22, 255});
  // Back: (12 - 10) * 0.5 = 1, (8 - 10) * 0.5 = -1, (22 - 20) * 2 = 4, (255 - 20) * 2 = 470.
  Graph d = OneNode("DequantizeLinear", {{"axis", Attr(int64_t{0})}})
                .in(u8({2, 2}))
                .constant(f32({2}), Floats{0.5f, 2})
                .constant(u8({2}), U8{10, 20})
                .done(f32({2, 2}));
  CHECK(y_of(run(d, {{"x0", u8t({2, 2}, {12, 8, 22, 255})}})) == Floats{1, -1, 4, 470});
}

TEST_CASE("cpu onnx quant ops: DynamicQuantizeLinear") {
  // x = [-1, 0, 1, 3]: scale (3 - (-1)) / 255 = 4/255, zero point round(1 / (4/255)) =
  // round(63.75) = 64; y = round(x * 255/4) + 64 = [-64 + 64, 64, 63.75 -> 64 + 64, 191.25 -> 191 + 64].
  Graph g = OneNode("DynamicQuantizeLinear").in(f32({4})).done({u8({4}), f32({}), u8({})});
  const TensorMap r = run(g, {{"x0", ft({4}, {-1, 0, 1, 3})}});
  CHECK(y_of<uint8_t>(r, 0) == U8{0, 64, 128, 255});
  CHECK(y_of(r, 1)[0] == doctest::Approx(4.0 / 255.0));
  CHECK(y_of<uint8_t>(r, 2) == U8{64});
}

TEST_CASE("cpu onnx quant ops: MatMulInteger and QLinearMatMul") {
  // A - 1 = [[0,1],[2,3]], B - [5,6] per column = [[0,0],[2,2]]: Y = [[2,2],[6,6]].
  Graph g = OneNode("MatMulInteger")
                .in(u8({2, 2}))
                .in(u8({2, 2}))
                .constant(u8({}), U8{1})
                .constant(u8({2}), U8{5, 6})
                .done(i32({2, 2}));
  CHECK(y_of<int32_t>(run(g, {{"x0", u8t({2, 2}, {1, 2, 3, 4})}, {"x1", u8t({2, 2}, {5, 6, 7, 8})}})) ==
        std::vector<int32_t>{2, 2, 6, 6});
  // acc = 2 * (3 - 1) + 4 * (5 - 1) = 20; 20 * 0.5 * 0.25 / 0.5 = 5; + y_zero_point 10 = 15.
  Graph q = OneNode("QLinearMatMul")
                .in(u8({1, 2}))
                .constant(f32({}), Floats{0.5f})
                .constant(u8({}), U8{0})
                .in(u8({2, 1}))
                .constant(f32({}), Floats{0.25f})
                .constant(u8({}), U8{1})
                .constant(f32({}), Floats{0.5f})
                .constant(u8({}), U8{10})
                .done(u8({1, 1}));
  CHECK(y_of<uint8_t>(run(q, {{"x0", u8t({1, 2}, {2, 4})}, {"x3", u8t({2, 1}, {3, 5})}})) == U8{15});
}

TEST_CASE("cpu onnx quant ops: MatMulInteger sums exactly past float32's 2^24") {
  // 300 products of (255 - 0) * (255 - 0) = 65025: 19507500 is exact as int32; a float32
  // running sum loses it (19507500 > 2^24 = 16777216 and 65025 is odd).
  Graph g = OneNode("MatMulInteger").in(u8({1, 300})).in(u8({300, 1})).done(i32({1, 1}));
  const U8 ones(300, 255);
  CHECK(y_of<int32_t>(run(g, {{"x0", u8t({1, 300}, ones)}, {"x1", u8t({300, 1}, ones)}})) == std::vector<int32_t>{19507500});
}

TEST_CASE("cpu onnx quant ops: ConvInteger (1-D) and QLinearConv") {
  // (x - 1) = [0,1,2,3] with (w - 1) = [1,2]: [0+2, 1+4, 2+6] = [2, 5, 8].
  Graph g = OneNode("ConvInteger")
                .in(u8({1, 1, 4}))
                .constant(u8({1, 1, 2}), U8{2, 3})
                .constant(u8({}), U8{1})
                .constant(u8({}), U8{1})
                .done(i32({1, 1, 3}));
  CHECK(y_of<int32_t>(run(g, {{"x0", u8t({1, 1, 4}, {1, 2, 3, 4})}})) == std::vector<int32_t>{2, 5, 8});
  // acc = (x - 10) * (4 - 2) + B = [0, 20, 40] + 20; times 0.1 * 0.5 / 0.25 = 0.2 -> [4, 8, 12].
  Graph q = OneNode("QLinearConv")
                .in(u8({1, 1, 1, 3}))
                .constant(f32({}), Floats{0.1f})
                .constant(u8({}), U8{10})
                .constant(u8({1, 1, 1, 1}), U8{4})
                .constant(f32({1}), Floats{0.5f})
                .constant(u8({1}), U8{2})
                .constant(f32({}), Floats{0.25f})
                .constant(u8({}), U8{0})
                .constant(i32({1}), std::vector<int32_t>{20})
                .done(u8({1, 1, 1, 3}));
  CHECK(y_of<uint8_t>(run(q, {{"x0", u8t({1, 1, 1, 3}, {10, 20, 30})}})) == U8{4, 8, 12});
}
