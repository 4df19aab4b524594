// Oracle: hand calculations, written out next to each check, from the ONNX operator definitions
// (QuantizeLinear-13, DequantizeLinear-13, DynamicQuantizeLinear-11, MatMulInteger-10,
// QLinearMatMul-10, ConvInteger-10, QLinearConv-10).
// The quantizing kernels with scale / zero point inputs and the integer products.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <type_traits>

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

// QLinearConv-10's output for integer sums acc ([M][plane], B added per channel) as ONNX's
// reference implementation computes it: saturate(round_half_even((acc + B[m]) * m) + y_zp) to
// uint8, the multiplier m = x_scale * w_scale[m] / y_scale in float32, the product in double.
// Checks that most outputs are not saturated, so a comparison sees the arithmetic.
U8 qlinear_expected(const std::vector<int64_t>& acc, int64_t plane, const std::vector<int32_t>& bias, float xs, const Floats& ws,
                    float ys, uint8_t yz) {
  U8 expect(acc.size());
  for (std::size_t i = 0; i < acc.size(); ++i) {
    const std::size_t m = i / static_cast<std::size_t>(plane);
    const double v = std::nearbyint(static_cast<double>(acc[i] + bias[m]) * static_cast<double>(xs * ws[m] / ys)) + yz;
    expect[i] = static_cast<uint8_t>(std::clamp(v, 0.0, 255.0));
  }
  int spread = 0;
  for (uint8_t e : expect) spread += e != 0 && e != 255;
  CHECK(spread > static_cast<int>(expect.size()) / 2);
  return expect;
}
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

TEST_CASE("cpu onnx quant ops: ConvInteger sums exactly past float32's 2^24") {
  // 1x1 kernel, 4096 input channels, x_zero_point 128, W = 255, w_zero_point 0: the first 2048
  // channels have X = 255 (product 127 * 255 = 32385), the others X = 0 (-128 * 255 = -32640),
  // so Y = 2048 * (32385 - 32640) = -522240, while sums of the products in channel order pass
  // 6.6e7 on the way, where float32 holds only multiples of 8: summed in float32 they round.
  const int64_t C = 4096;
  U8 x(static_cast<std::size_t>(C));
  for (int64_t c = 0; c < C; ++c) x[static_cast<std::size_t>(c)] = c < C / 2 ? 255 : 0;
  Graph g = OneNode("ConvInteger")
                .in(u8({1, C, 1, 1}))
                .constant(u8({1, C, 1, 1}), U8(static_cast<std::size_t>(C), 255))
                .constant(u8({}), U8{128})
                .constant(u8({}), U8{0})
                .done(i32({1, 1, 1, 1}));
  CHECK(y_of<int32_t>(run(g, {{"x0", u8t({1, C, 1, 1}, x)}})) == std::vector<int32_t>{-522240});
}

TEST_CASE("cpu onnx quant ops: QLinearConv and ConvInteger, grouped, strided, padded and dilated, against the ONNX formula") {
  // ConvInteger-10 / QLinearConv-10: acc[m][oy][ox] = sum over (ci, ky, kx) of (X - x_zp) *
  // (W[m] - w_zp[m]) at iy = oy * 2 - 1 + ky, ix = ox - 2 + 2 * kx, taps outside X adding 0
  // (X padded with x_zp); QLinearConv: y = saturate(round_half_even((acc + B[m]) * x_scale *
  // w_scale[m] / y_scale) + y_zp), the multiplier in float32 as ONNX's reference implementation
  // (onnx/reference/ops/op_qlinear_conv.py) computes it from float32 scales, the product in
  // double. Computed here in int64 and double, element by element.
  const int64_t C = 4, H = 7, Wd = 6, M = 6, G = 2, cg = C / G, mg = M / G, KH = 3, KW = 3;
  const int64_t OH = (H + 1 + 0 - KH) / 2 + 1, OW = (Wd + 2 + 1 - (2 * (KW - 1) + 1)) / 1 + 1;
  U8 x(static_cast<std::size_t>(C * H * Wd)), w(static_cast<std::size_t>(M * cg * KH * KW));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<uint8_t>((i * 37 + 11) % 256);
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<uint8_t>((i * 53 + 5) % 256);
  const uint8_t xz = 100;
  const U8 wz{0, 128, 255, 7, 90, 200};
  const Floats ws{0.5f, 0.25f, 0.125f, 1.0f, 0.75f, 0.3f};
  const std::vector<int32_t> bias{1000, -2000, 0, 12345, -777, 5};
  const float xs = 0.02f, ys = 3.0f;
  const uint8_t yz = 128;
  std::vector<int64_t> acc(static_cast<std::size_t>(M * OH * OW));
  for (int64_t m = 0; m < M; ++m)
    for (int64_t oy = 0; oy < OH; ++oy)
      for (int64_t ox = 0; ox < OW; ++ox) {
        int64_t a = 0;
        for (int64_t ci = 0; ci < cg; ++ci)
          for (int64_t ky = 0; ky < KH; ++ky)
            for (int64_t kx = 0; kx < KW; ++kx) {
              const int64_t iy = oy * 2 - 1 + ky, ix = ox - 2 + 2 * kx, c = (m / mg) * cg + ci;
              if (iy < 0 || iy >= H || ix < 0 || ix >= Wd) continue;
              a += (int64_t{x[static_cast<std::size_t>((c * H + iy) * Wd + ix)]} - xz) *
                   (int64_t{w[static_cast<std::size_t>(((m * cg + ci) * KH + ky) * KW + kx)]} - wz[static_cast<std::size_t>(m)]);
            }
        acc[static_cast<std::size_t>((m * OH + oy) * OW + ox)] = a;
      }
  const AttrMap attrs{{"group", Attr(G)}, {"strides", Attr(Ints{2, 1})}, {"pads", Attr(Ints{1, 2, 0, 1})}, {"dilations", Attr(Ints{1, 2})}};
  // ConvInteger: the sums themselves.
  Graph ci = OneNode("ConvInteger", attrs)
                 .in(u8({1, C, H, Wd}))
                 .constant(u8({M, cg, KH, KW}), w)
                 .constant(u8({}), U8{xz})
                 .constant(u8({M}), wz)
                 .done(i32({1, M, OH, OW}));
  const std::vector<int32_t> sums = y_of<int32_t>(run(ci, {{"x0", u8t({1, C, H, Wd}, x)}}));
  CHECK(sums == std::vector<int32_t>(acc.begin(), acc.end()));
  const U8 expect = qlinear_expected(acc, OH * OW, bias, xs, ws, ys, yz);
  // QLinearConv with W constant (packed at prepare) and W a graph input (shifted per run).
  for (bool w_constant : {true, false}) {
    CAPTURE(w_constant);
    OneNode b("QLinearConv", attrs);
    b.in(u8({1, C, H, Wd})).constant(f32({}), Floats{xs}).constant(u8({}), U8{xz});
    if (w_constant) b.constant(u8({M, cg, KH, KW}), w);
    else b.in(u8({M, cg, KH, KW}));
    b.constant(f32({M}), ws).constant(u8({M}), wz).constant(f32({}), Floats{ys}).constant(u8({}), U8{yz}).constant(i32({M}), bias);
    Graph q = b.done(u8({1, M, OH, OW}));
    TensorMap in{{"x0", u8t({1, C, H, Wd}, x)}};
    if (!w_constant) in.emplace("x3", u8t({M, cg, KH, KW}, w));
    CHECK(y_of<uint8_t>(run(q, in)) == expect);
  }
}

TEST_CASE("cpu onnx quant ops: ConvInteger on a depth-1 3-D image reads the depth padding as padding") {
  // X [1, 1, 1, 2, 2] = 5, W [1, 1, 1, 1, 1] = 3, zero points 0. With pads [1, 0, 0, 0, 0, 0] and
  // strides [2, 1, 1] the output has depth (1 + 1 - 1) / 2 + 1 = 1, and its depth 0 reads input
  // depth 0 * 2 - 1 = -1: the padding, so every sum is 0. Without the pad each sum is 5 * 3 = 15.
  for (const bool padded : {true, false}) {
    CAPTURE(padded);
    AttrMap attrs{{"strides", Attr(Ints{2, 1, 1})}};
    if (padded) attrs["pads"] = Attr(Ints{1, 0, 0, 0, 0, 0});
    Graph g = OneNode("ConvInteger", attrs)
                  .in(u8({1, 1, 1, 2, 2}))
                  .constant(u8({1, 1, 1, 1, 1}), U8{3})
                  .constant(u8({}), U8{0})
                  .constant(u8({}), U8{0})
                  .done(i32({1, 1, 1, 2, 2}));
    CHECK(y_of<int32_t>(run(g, {{"x0", u8t({1, 1, 1, 2, 2}, U8(4, 5))}})) == std::vector<int32_t>(4, padded ? 0 : 15));
  }
}

namespace {

// One integer convolution against the ONNX formula (ConvInteger-10, QLinearConv-10), computed
// here in int64 and double: X of dtype XT with zero point xz, W of dtype WT with zero points wz;
// on 1, 2 and 3 threads (the splits differ: blocks of rows or channels, planes or bands of rows).
struct IntConvCase {
  int64_t C, H, Wd, M, G, KH, KW;
  Ints strides, pads, dilations;
};

template <class XT, class WT>
void check_integer_conv(const IntConvCase& k, XT xz, const std::vector<WT>& wz) {
  const DataType xd = std::is_signed_v<XT> ? DataType::Int8 : DataType::UInt8;
  const DataType wd = std::is_signed_v<WT> ? DataType::Int8 : DataType::UInt8;
  const int64_t cg = k.C / k.G, mg = k.M / k.G;
  const int64_t OH = (k.H + k.pads[0] + k.pads[2] - (k.dilations[0] * (k.KH - 1) + 1)) / k.strides[0] + 1;
  const int64_t OW = (k.Wd + k.pads[1] + k.pads[3] - (k.dilations[1] * (k.KW - 1) + 1)) / k.strides[1] + 1;
  std::vector<XT> x(static_cast<std::size_t>(k.C * k.H * k.Wd));
  std::vector<WT> w(static_cast<std::size_t>(k.M * cg * k.KH * k.KW));
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<XT>((i * 37 + 11) % 256);  // wraps into XT's range
  for (std::size_t i = 0; i < w.size(); ++i) w[i] = static_cast<WT>((i * 53 + 5) % 256);
  std::vector<int64_t> acc(static_cast<std::size_t>(k.M * OH * OW));
  for (int64_t m = 0; m < k.M; ++m)
    for (int64_t oy = 0; oy < OH; ++oy)
      for (int64_t ox = 0; ox < OW; ++ox) {
        int64_t a = 0;
        for (int64_t ci = 0; ci < cg; ++ci)
          for (int64_t ky = 0; ky < k.KH; ++ky)
            for (int64_t kx = 0; kx < k.KW; ++kx) {
              const int64_t iy = oy * k.strides[0] - k.pads[0] + ky * k.dilations[0];
              const int64_t ix = ox * k.strides[1] - k.pads[1] + kx * k.dilations[1], c = (m / mg) * cg + ci;
              if (iy < 0 || iy >= k.H || ix < 0 || ix >= k.Wd) continue;  // the padding: X = xz
              a += (int64_t{x[static_cast<std::size_t>((c * k.H + iy) * k.Wd + ix)]} - xz) *
                   (int64_t{w[static_cast<std::size_t>(((m * cg + ci) * k.KH + ky) * k.KW + kx)]} - wz[static_cast<std::size_t>(m)]);
            }
        acc[static_cast<std::size_t>((m * OH + oy) * OW + ox)] = a;
      }
  const AttrMap attrs{{"group", Attr(k.G)}, {"strides", Attr(k.strides)}, {"pads", Attr(k.pads)}, {"dilations", Attr(k.dilations)}};
  const std::vector<int64_t> xshape{1, k.C, k.H, k.Wd}, wshape{k.M, cg, k.KH, k.KW};
  const TensorMap in{{"x0", HostTensor::from_values<XT>(typed(xd, xshape), x)}};
  Graph ci = OneNode("ConvInteger", attrs)
                 .in(typed(xd, xshape))
                 .constant(typed(wd, wshape), w)
                 .constant(typed(xd, {}), std::vector<XT>{xz})
                 .constant(typed(wd, {k.M}), wz)
                 .done(i32({1, k.M, OH, OW}));
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    CHECK(y_of<int32_t>(run(ci, in, threads)) == std::vector<int32_t>(acc.begin(), acc.end()));
  }
  // QLinearConv: y = saturate(round_half_even((acc + B[m]) * (x_scale * w_scale[m] / y_scale)) + y_zp),
  // the multiplier in float32 (ONNX's reference implementation), the product in double.
  Floats ws;
  std::vector<int32_t> bias;
  for (int64_t m = 0; m < k.M; ++m) ws.push_back(0.125f * static_cast<float>(m % 5 + 1)), bias.push_back(static_cast<int32_t>(m * 997 % 4000) - 2000);
  const float xs = 0.02f, ys = 4.0f;
  const uint8_t yz = 128;
  const U8 expect = qlinear_expected(acc, OH * OW, bias, xs, ws, ys, yz);
  Graph q = OneNode("QLinearConv", attrs)
                .in(typed(xd, xshape))
                .constant(f32({}), Floats{xs})
                .constant(typed(xd, {}), std::vector<XT>{xz})
                .constant(typed(wd, wshape), w)
                .constant(f32({k.M}), ws)
                .constant(typed(wd, {k.M}), wz)
                .constant(f32({}), Floats{ys})
                .constant(u8({}), U8{yz})
                .constant(i32({k.M}), bias)
                .done(u8({1, k.M, OH, OW}));
  for (int threads : {1, 2, 3}) {
    CAPTURE(threads);
    CHECK(y_of<uint8_t>(run(q, in, threads)) == expect);
  }
}

}  // namespace

TEST_CASE("cpu onnx quant ops: integer convolutions whose W minus w_zero_point fits int8, against the ONNX formula") {
  // The weights that take the int8 GEMM where the CPU has AVX-512 VNNI (igemm.h; the float path
  // elsewhere and under NNBRIDGE_CPU_SIMD=avx2, which ctest runs as well): symmetric int8 W, and
  // uint8 W with zero point 128; X int8 or uint8.
  const IntConvCase grouped{4, 7, 6, 6, 2, 3, 3, {2, 1}, {1, 2, 0, 1}, {1, 2}};
  SUBCASE("int8 X, int8 W, zero points 0, grouped, strided, padded, dilated") {
    check_integer_conv<int8_t, int8_t>(grouped, int8_t{-3}, std::vector<int8_t>(6, 0));
  }
  SUBCASE("uint8 X, uint8 W with zero point 128") {
    check_integer_conv<uint8_t, uint8_t>(grouped, uint8_t{100}, U8(6, 128));
  }
  SUBCASE("1x1, stride 1: X read in place; K = 300 > 256") {
    check_integer_conv<uint8_t, int8_t>({300, 5, 7, 7, 1, 1, 1, {1, 1}, {0, 0, 0, 0}, {1, 1}}, uint8_t{255}, std::vector<int8_t>(7, 0));
  }
  SUBCASE("depthwise 3x3 on 30x30 planes (the float depthwise kernel; planes longer than one requantized chunk)") {
    check_integer_conv<uint8_t, int8_t>({6, 30, 30, 6, 6, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}}, uint8_t{3}, std::vector<int8_t>(6, 0));
  }
  // Depthwise with constant zero points reads X unshifted, its padding filled with x_zero_point
  // (integer_conv.cc depthwise_padded): extreme zero points make a wrong padding value visible.
  SUBCASE("depthwise 5x5, stride 2, asymmetric pads; int8 X with zero point -128, uint8 W with zero point 128") {
    check_integer_conv<int8_t, uint8_t>({8, 17, 19, 8, 8, 5, 5, {2, 2}, {2, 1, 1, 2}, {1, 1}}, int8_t{-128}, U8(8, 128));
  }
  SUBCASE("depthwise 3x3, dilation 2, pads 2; uint8 X with zero point 255, uint8 W with zero points 0, 7, 128, 255") {
    check_integer_conv<uint8_t, uint8_t>({4, 12, 12, 4, 4, 3, 3, {1, 1}, {2, 2, 2, 2}, {2, 2}}, uint8_t{255}, U8{0, 7, 128, 255});
  }
  // Planes of 28 rows and more per thread are split into bands of rows on 2 and 3 threads
  // (padded_plane.h plane_bands): each band pads with x_zero_point only where it meets the image's edge.
  SUBCASE("depthwise 3x3 on 90 x 20 planes, pads (2, 1, 1, 0), stride 2 rows; uint8 X with zero point 255") {
    check_integer_conv<uint8_t, uint8_t>({32, 181, 20, 32, 32, 3, 3, {2, 1}, {2, 1, 1, 0}, {1, 1}}, uint8_t{255}, U8(32, 128));
  }
  // The int8 GEMM packs the patches 64 rows of K at a time: K = 135 (the last chunk 7 rows, not
  // whole quads) and K = 144 (chunks of 64, 64, 16).
  SUBCASE("3x3 over 15 channels, K = 135, padded, stride 2") {
    check_integer_conv<uint8_t, int8_t>({15, 9, 11, 5, 1, 3, 3, {2, 2}, {1, 1, 1, 1}, {1, 1}}, uint8_t{77}, std::vector<int8_t>(5, 0));
  }
  SUBCASE("3x3 over 16 channels, K = 144, int8 X") {
    check_integer_conv<int8_t, int8_t>({16, 8, 8, 7, 1, 3, 3, {1, 1}, {1, 0, 2, 1}, {1, 1}}, int8_t{-9}, std::vector<int8_t>(7, 0));
  }
  // The int8 GEMM stages the input rows of a block of output rows as bytes, split into the
  // phases of the strides, and packs each tap's runs from there (integer_conv.cc).
  SUBCASE("3x3 over 64 channels on 40 x 40: blocks of 11 output rows, the last 7; rows of 40 (runs of 16, 16, 8)") {
    check_integer_conv<uint8_t, int8_t>({64, 40, 40, 8, 1, 3, 3, {1, 1}, {1, 1, 1, 1}, {1, 1}}, uint8_t{131}, std::vector<int8_t>(8, 0));
  }
  SUBCASE("5x4 kernel, strides 3, dilations (2, 1), asymmetric pads: three phases per dimension, int8 X") {
    check_integer_conv<int8_t, int8_t>({5, 23, 29, 7, 1, 5, 4, {3, 3}, {2, 0, 1, 3}, {2, 1}}, int8_t{-70}, std::vector<int8_t>(7, 0));
  }
  SUBCASE("1x1, stride 2; 13 output channels (row tails)") {
    check_integer_conv<int8_t, int8_t>({20, 5, 7, 13, 1, 1, 1, {2, 2}, {0, 0, 0, 0}, {1, 1}}, int8_t{127}, std::vector<int8_t>(13, 0));
  }
}

TEST_CASE("cpu onnx quant ops: QLinearConv adds a constant bias beyond 2^24 exactly") {
  // One tap: acc = 3 * 1, B = -107442564 (float32 holds only -107442560). The ONNX formula with
  // the float32 multiplier m = 0.0013 * 0.00077 / 0.9: (3 + B) * m = -119.5000024 -> -120 + 128
  // = 8; with B rounded to float32 it would be -119.4999979 -> -119 + 128 = 9.
  const float xs = 0.0013f, ws = 0.00077f, ys = 0.9f;
  const int32_t b = -107442564;
  const double m = static_cast<double>(xs * ws / ys);
  const double expect = std::clamp(std::nearbyint((3.0 + b) * m) + 128, 0.0, 255.0);
  REQUIRE(expect == 8.0);
  REQUIRE(std::clamp(std::nearbyint((3.0 + static_cast<double>(static_cast<float>(b))) * m) + 128, 0.0, 255.0) == 9.0);
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{1, 1, 1, 1}, std::vector<int64_t>{1, 1, 1, 1, 1}}) {
    CAPTURE(shape.size());
    Graph q = OneNode("QLinearConv")
                  .in(u8(shape))
                  .constant(f32({}), Floats{xs})
                  .constant(u8({}), U8{0})
                  .constant(typed(DataType::Int8, shape), std::vector<int8_t>{1})
                  .constant(f32({1}), Floats{ws})
                  .constant(typed(DataType::Int8, {1}), std::vector<int8_t>{0})
                  .constant(f32({}), Floats{ys})
                  .constant(u8({}), U8{128})
                  .constant(i32({1}), std::vector<int32_t>{b})
                  .done(u8(shape));
    CHECK(y_of<uint8_t>(run(q, {{"x0", u8t(shape, {3})}})) == U8{static_cast<uint8_t>(expect)});
  }
}
