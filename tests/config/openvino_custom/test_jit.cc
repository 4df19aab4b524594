// The built-in defines' text and values (OpenVINO custom_primitive.cpp add_layout_to_jit and
// jitter.h spelling): pitches and offsets for each format, with and without padding, computed by
// hand from the plugin's rules.
#include <doctest/doctest.h>

#include "nnbridge/config/openvino_custom.h"
#include "support/error_id.h"

using namespace nnbridge;
using namespace nnbridge::config::openvino_custom;

namespace {

TensorLayout layout(TensorFormat f, bool padded) {
  TensorLayout t;
  t.dims = {2, 3, 4, 5};
  t.format = f;
  if (padded) {
    t.lower_padding = {0, 1, 1, 2};
    t.upper_padding = {0, 1, 0, 1};  // padded sizes B2 F5 Y5 X8
  }
  return t;
}

}  // namespace

TEST_CASE("openvino_custom jit: pitches and offset of each format without padding") {
  // dims B2 F3 Y4 X5; pitches in B, F, Y, X order.
  CHECK(pitches_of(layout(TensorFormat::BFYX, false)) == Dims{60, 20, 5, 1});
  CHECK(pitches_of(layout(TensorFormat::BYXF, false)) == Dims{60, 1, 15, 3});
  CHECK(pitches_of(layout(TensorFormat::FYXB, false)) == Dims{1, 40, 10, 2});
  CHECK(pitches_of(layout(TensorFormat::YXFB, false)) == Dims{1, 2, 30, 6});
  CHECK(pitches_of(layout(TensorFormat::ANY, false)) == Dims{60, 20, 5, 1});
  for (TensorFormat f : {TensorFormat::BFYX, TensorFormat::BYXF, TensorFormat::FYXB, TensorFormat::YXFB})
    CHECK(offset_of(layout(f, false)) == 0);
}

TEST_CASE("openvino_custom jit: pitches and offset of each format with padding") {
  // Padded sizes B2 F5 Y5 X8; lower padding B0 F1 Y1 X2.
  CHECK(pitches_of(layout(TensorFormat::BFYX, true)) == Dims{200, 40, 8, 1});
  CHECK(offset_of(layout(TensorFormat::BFYX, true)) == 50);   // 40 + 8 + 2
  CHECK(pitches_of(layout(TensorFormat::BYXF, true)) == Dims{200, 1, 40, 5});
  CHECK(offset_of(layout(TensorFormat::BYXF, true)) == 51);   // 1 + 40 + 10
  CHECK(pitches_of(layout(TensorFormat::FYXB, true)) == Dims{1, 80, 16, 2});
  CHECK(offset_of(layout(TensorFormat::FYXB, true)) == 100);  // 80 + 16 + 4
  CHECK(pitches_of(layout(TensorFormat::YXFB, true)) == Dims{1, 2, 80, 10});
  CHECK(offset_of(layout(TensorFormat::YXFB, true)) == 102);  // 2 + 80 + 20
}

TEST_CASE("openvino_custom jit: the built-in defines in the plugin's order and spelling") {
  const TensorLayout in0 = layout(TensorFormat::BYXF, true);
  TensorLayout out0;
  out0.dims = {2, 3, 4, 5};
  const std::size_t global[] = {6, 20}, local[] = {3, 5};
  const std::string text = builtin_defines(std::span(&in0, 1), std::span(&out0, 1), global, local);
  CHECK(text ==
        "// Custom Layer Built-ins\n\n"
        "#define NUM_INPUTS 1\n"
        "#define GLOBAL_WORKSIZE_SIZE 2\n"
        "#define GLOBAL_WORKSIZE_INIT { 6,20, } \n"
        "#define GLOBAL_WORKSIZE (ulong []){ 6,20, } \n"
        "#define LOCAL_WORKSIZE_SIZE 2\n"
        "#define LOCAL_WORKSIZE_INIT { 3,5, } \n"
        "#define LOCAL_WORKSIZE (ulong []){ 3,5, } \n"
        "#define INPUT0_DIMS_SIZE 4\n"
        "#define INPUT0_DIMS_INIT { 2,3,4,5, } \n"
        "#define INPUT0_DIMS (int []){ 2,3,4,5, } \n"
        "#define INPUT0_TYPE float\n"
        "#define INPUT0_FORMAT_BYXF \n"
        "#define INPUT0_LOWER_PADDING_SIZE 4\n"
        "#define INPUT0_LOWER_PADDING_INIT { 0,1,1,2, } \n"
        "#define INPUT0_LOWER_PADDING (int []){ 0,1,1,2, } \n"
        "#define INPUT0_UPPER_PADDING_SIZE 4\n"
        "#define INPUT0_UPPER_PADDING_INIT { 0,1,0,1, } \n"
        "#define INPUT0_UPPER_PADDING (int []){ 0,1,0,1, } \n"
        "#define INPUT0_PITCHES_SIZE 4\n"
        "#define INPUT0_PITCHES_INIT { 200,1,40,5, } \n"
        "#define INPUT0_PITCHES (int []){ 200,1,40,5, } \n"
        "#define INPUT0_OFFSET 51\n"
        "#define OUTPUT0_DIMS_SIZE 4\n"
        "#define OUTPUT0_DIMS_INIT { 2,3,4,5, } \n"
        "#define OUTPUT0_DIMS (int []){ 2,3,4,5, } \n"
        "#define OUTPUT0_TYPE float\n"
        "#define OUTPUT0_FORMAT_BFYX \n"
        "#define OUTPUT0_LOWER_PADDING_SIZE 4\n"
        "#define OUTPUT0_LOWER_PADDING_INIT { 0,0,0,0, } \n"
        "#define OUTPUT0_LOWER_PADDING (int []){ 0,0,0,0, } \n"
        "#define OUTPUT0_UPPER_PADDING_SIZE 4\n"
        "#define OUTPUT0_UPPER_PADDING_INIT { 0,0,0,0, } \n"
        "#define OUTPUT0_UPPER_PADDING (int []){ 0,0,0,0, } \n"
        "#define OUTPUT0_PITCHES_SIZE 4\n"
        "#define OUTPUT0_PITCHES_INIT { 60,20,5,1, } \n"
        "#define OUTPUT0_PITCHES (int []){ 60,20,5,1, } \n"
        "#define OUTPUT0_OFFSET 0\n");
}

TEST_CASE("openvino_custom jit: attribute values as define values") {
  CHECK(attr_define_value(Attr(int64_t{-3})) == "-3");
  CHECK(attr_define_value(Attr(2.0)) == "2.0");  // stays a floating literal
  CHECK(attr_define_value(Attr(1e-7)) == "1e-07");  // OpenVINO's std::to_string would give 0.000000
  CHECK(attr_define_value(Attr(true)) == "1");
  CHECK(attr_define_value(Attr(std::vector<int64_t>{2, 3})) == "2,3");
  CHECK(attr_define_value(Attr(std::vector<double>{0.1, 0.25})) == "0.1,0.25");
  CHECK(attr_define_value(Attr(std::string("float"))) == "float");
  CHECK(test::thrown_id([&] { attr_define_value(Attr(Bytes{{1, 2}})); }) == ErrorId::NoForm);
  CHECK(dims_of(std::vector<int64_t>{4, 3}) == Dims{4, 3, 1, 1});
  CHECK(dims_of(std::vector<int64_t>{}) == Dims{1, 1, 1, 1});
  CHECK_FALSE(dims_of(std::vector<int64_t>{1, 2, 3, 4, 5}).has_value());
}
