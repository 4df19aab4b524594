#include <doctest/doctest.h>

#include <limits>

#include "nnbridge/attr_text.h"
#include "nnbridge/graph.h"

using namespace nnbridge;

TEST_CASE("TensorType::element_count and byte_size") {
  TensorType t{DataType::Float32, {2, 3, 4}, false, std::nullopt};
  CHECK(t.element_count() == 24);
  CHECK(t.byte_size() == 96);
  TensorType scalar{DataType::Int64, {}, false, std::nullopt};
  CHECK(scalar.element_count() == 1);
  CHECK(scalar.byte_size() == 8);
  TensorType zero{DataType::Float16, {3, 0, 5}, false, std::nullopt};
  CHECK(zero.element_count() == 0);
  CHECK(zero.byte_size() == 0);
  TensorType unknown{DataType::Float32, {2, -1}, false, std::nullopt};
  CHECK_FALSE(unknown.element_count().has_value());
  CHECK_FALSE(unknown.byte_size().has_value());
  TensorType no_rank{DataType::Float32, {}, true, std::nullopt};
  CHECK_FALSE(no_rank.element_count().has_value());
}

TEST_CASE("TensorType: products past int64 are refused, not wrapped") {
  const int64_t big = int64_t{1} << 32;
  TensorType t{DataType::UInt8, {big, big}, false, std::nullopt};  // 2^64 elements
  CHECK_FALSE(t.element_count().has_value());
  TensorType fits{DataType::Float32, {int64_t{1} << 31, int64_t{1} << 31}, false, std::nullopt};  // 2^62 elements
  CHECK(fits.element_count() == (int64_t{1} << 62));
  CHECK_FALSE(fits.byte_size().has_value());  // 2^64 bytes
  TensorType zero_first{DataType::UInt8, {0, std::numeric_limits<int64_t>::max(), 2}, false, std::nullopt};
  CHECK(zero_first.element_count() == 0);
}

TEST_CASE("Graph: add_value, add_node, find_value, producers") {
  Graph g;
  ValueId x = g.add_value({"x", {DataType::Float32, {1}, false, std::nullopt}, std::nullopt, {}});
  ValueId y = g.add_value({"y", {DataType::Float32, {1}, false, std::nullopt}, std::nullopt, {}});
  ValueId z = g.add_value({"z", {DataType::Float32, {1}, false, std::nullopt}, std::nullopt, {}});
  CHECK(x == 0);
  CHECK(z == 2);
  CHECK(g.add_node({"Relu", "r", {x}, {y}, {}}) == 0);
  CHECK(g.add_node({"Neg", "n", {y}, {z}, {}}) == 1);
  CHECK(g.find_value("z") == z);
  CHECK_FALSE(g.find_value("w").has_value());
  auto p = g.producers();
  REQUIRE(p.size() == 3);
  CHECK(p[x] == SIZE_MAX);
  CHECK(p[y] == 0);
  CHECK(p[z] == 1);
}

TEST_CASE("attr_text: compact JSON, bytes as a count, a string that is not UTF-8 printed with U+FFFD") {
  CHECK(attr_text(Attr(std::vector<int64_t>{1, -2})) == "[1,-2]");
  CHECK(attr_text(Attr(std::string("NHWC"))) == "\"NHWC\"");
  CHECK(attr_text(Attr(0.5)) == "0.5");
  CHECK(attr_text(Attr(Bytes{std::vector<uint8_t>(3)})) == "<3 bytes>");
  // 0xFF is never UTF-8 (RFC 3629); the replacement character U+FFFD is EF BF BD.
  CHECK(attr_text(Attr(std::string("a\xff"))) == "\"a\xef\xbf\xbd\"");
}

