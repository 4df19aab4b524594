#include <doctest/doctest.h>

#include "nnbridge/dtype.h"

using namespace nnbridge;

TEST_CASE("element sizes follow the storage types (Arm NN GetDataTypeSize)") {
  CHECK(element_size(DataType::Float32) == 4);
  CHECK(element_size(DataType::Float16) == 2);
  CHECK(element_size(DataType::BFloat16) == 2);
  CHECK(element_size(DataType::Float64) == 8);
  CHECK(element_size(DataType::Int64) == 8);
  CHECK(element_size(DataType::Bool) == 1);
  CHECK(element_size(DataType::QAsymmU8) == 1);
  CHECK(element_size(DataType::QSymmS16) == 2);
  CHECK(element_size(DataType::Undefined) == 0);
}

TEST_CASE("dtype names parse back, unknown names do not") {
  for (int i = 0; i <= static_cast<int>(DataType::QSymmS16); ++i) {
    auto t = static_cast<DataType>(i);
    CHECK(parse_data_type(to_string(t)) == t);
  }
  CHECK(to_string(DataType::QAsymmU8) == "qasymmu8");
  CHECK_FALSE(parse_data_type("float").has_value());
  CHECK(is_quantized(DataType::QSymmS8));
  CHECK_FALSE(is_quantized(DataType::Int8));
  CHECK(is_floating(DataType::BFloat16));
  CHECK_FALSE(is_floating(DataType::Int32));
}
