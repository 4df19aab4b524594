// Verifier limits as reader options (vkgraph.* for a bare VkGraph, vkdelegate.* for a delegate
// payload): the defaults load graphs far past FlatBuffers' own default of 1M tables, and each
// option refuses exactly what exceeds it. The files are built with flatc's generated builder
// (not nnbridge's writer); table counts and depths are counted by hand from
// schemas/vkgraph/schema.fbs and flatbuffers::Verifier's rule: every table verified counts once,
// and depth counts nested tables only (a vector adds no level).
#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "nnbridge/error.h"
#include "util.h"
#include "vkgraph/schema_generated.h"

using namespace nnbridge;
using namespace nnbridge::test::vk;

namespace {

// A chain of `n` aten.relu.default calls on a [1, 4] float tensor: values[0] is the input,
// values[i + 1] the output of call i.
std::vector<uint8_t> relu_chain(std::size_t n) {
  flatbuffers::FlatBufferBuilder b(64 + n * 96);
  const std::vector<uint32_t> dims{1, 4};
  std::vector<flatbuffers::Offset<vkgraph::VkValue>> values;
  values.reserve(n + 1);
  for (std::size_t i = 0; i <= n; ++i) {
    auto t = vkgraph::CreateVkTensorDirect(b, vkgraph::VkDataType::FLOAT32, &dims, -1, static_cast<int>(i));
    values.push_back(vkgraph::CreateVkValue(b, vkgraph::GraphTypes::VkTensor, t.Union()));
  }
  std::vector<flatbuffers::Offset<vkgraph::OperatorCall>> chain;
  chain.reserve(n);
  const auto name = b.CreateSharedString("aten.relu.default");
  for (std::size_t i = 0; i < n; ++i) {
    const std::vector<int> args{static_cast<int>(i), static_cast<int>(i + 1)};
    chain.push_back(vkgraph::CreateOperatorCall(b, static_cast<uint32_t>(i), name, b.CreateVector(args)));
  }
  const std::vector<uint32_t> inputs{0}, outputs{static_cast<uint32_t>(n)};
  auto g = vkgraph::CreateVkGraphDirect(b, "0", &chain, &values, &inputs, &outputs);
  vkgraph::FinishVkGraphBuffer(b, g);
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

// Tables in relu_chain(n): the root, n + 1 VkValue with their VkTensor, n OperatorCall.
std::size_t tables_of_chain(std::size_t n) { return 1 + 2 * (n + 1) + n; }

LoadOptions with(const std::string& key, const std::string& value) {
  LoadOptions o;
  o.options[key] = value;
  return o;
}

std::optional<Error> error_of(const std::vector<uint8_t>& bytes, bool delegate, const LoadOptions& o) {
  try {
    read_bytes(bytes, delegate, o);
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

bool mentions(const Error& e, const std::string& s) { return std::string(e.what()).find(s) != std::string::npos; }

}  // namespace

TEST_CASE("vkgraph limits: 400k calls (1.2M tables, over FlatBuffers' default 1M) load with the defaults") {
  constexpr std::size_t n = 400'000;
  const auto bytes = relu_chain(n);
  REQUIRE(tables_of_chain(n) > 1'000'000);
  Graph g = read_bytes(bytes);
  REQUIRE(g.nodes.size() == n);
  CHECK(g.nodes.front().op == "Relu");
  CHECK(g.nodes.back().op == "Relu");
  CHECK(g.inputs.size() == 1);
  CHECK(g.outputs.size() == 1);
  auto e = error_of(bytes, false, with("vkgraph.max_tables", "1000000"));
  REQUIRE(e);
  CHECK(e->id() == ErrorId::ResourceLimit);
  CHECK(mentions(*e, "max_tables"));
}

TEST_CASE("vkgraph limits: vkgraph.max_tables admits exactly the file's table count") {
  const auto bytes = relu_chain(50);
  const std::size_t tables = tables_of_chain(50);
  CHECK(read_bytes(bytes, false, with("vkgraph.max_tables", std::to_string(tables))).nodes.size() == 50);
  auto e = error_of(bytes, false, with("vkgraph.max_tables", std::to_string(tables - 1)));
  REQUIRE(e);
  CHECK(e->id() == ErrorId::ResourceLimit);
}

TEST_CASE("vkgraph limits: vkgraph.max_depth admits exactly the deepest nesting") {
  // VkGraph > VkValue (in the values vector) > VkTensor: 3 levels.
  const auto bytes = relu_chain(2);
  CHECK(read_bytes(bytes, false, with("vkgraph.max_depth", "3")).nodes.size() == 2);
  auto e = error_of(bytes, false, with("vkgraph.max_depth", "2"));
  REQUIRE(e);
  CHECK(e->id() == ErrorId::DepthLimit);
  CHECK(mentions(*e, "max_depth"));
}

TEST_CASE("vkgraph limits: max_size bounds the file (vkgraph) and the whole payload (vkdelegate)") {
  const auto fb = relu_chain(3);
  CHECK(read_bytes(fb, false, with("vkgraph.max_size", std::to_string(fb.size()))).nodes.size() == 3);
  auto e = error_of(fb, false, with("vkgraph.max_size", std::to_string(fb.size() - 1)));
  REQUIRE(e);
  CHECK(e->id() == ErrorId::IoTooLarge);
  CHECK(mentions(*e, "vkgraph.max_size"));

  const auto p = payload(fb, {});
  CHECK(read_bytes(p, true, with("vkdelegate.max_size", std::to_string(p.size()))).nodes.size() == 3);
  auto d = error_of(p, true, with("vkdelegate.max_size", std::to_string(p.size() - 1)));
  REQUIRE(d);
  CHECK(d->id() == ErrorId::IoTooLarge);
  CHECK(mentions(*d, "vkdelegate.max_size"));
}

TEST_CASE("vkgraph limits: the delegate payload's flatbuffer obeys vkdelegate.max_tables") {
  const auto p = payload(relu_chain(10), {});
  const std::size_t tables = tables_of_chain(10);
  CHECK(read_bytes(p, true, with("vkdelegate.max_tables", std::to_string(tables))).nodes.size() == 10);
  auto e = error_of(p, true, with("vkdelegate.max_tables", std::to_string(tables - 1)));
  REQUIRE(e);
  CHECK(e->id() == ErrorId::ResourceLimit);
  CHECK(mentions(*e, "max_tables"));
}

TEST_CASE("vkgraph limits: a bad limit value is Error(Invalid) naming the option") {
  const auto bytes = relu_chain(1);
  for (const char* key : {"vkgraph.max_tables", "vkgraph.max_depth", "vkgraph.max_size"}) {
    CAPTURE(key);
    auto e = error_of(bytes, false, with(key, "0"));
    REQUIRE(e);
    CHECK(e->id() == ErrorId::OptionValue);
    CHECK(mentions(*e, key));
  }
}
