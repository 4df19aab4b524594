// Verifier limits as reader options (armnn.max_depth, armnn.max_tables, armnn.max_size): the
// defaults load graphs far past FlatBuffers' own default of 1M tables, and each option refuses
// exactly what exceeds it. Table counts and depths are counted by hand from the schema
// (chain_model.h) and flatbuffers::Verifier's rule: every table verified counts once, and
// depth counts nested tables only.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "chain_model.h"
#include "nnbridge/error.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

LoadOptions with(const std::string& key, const std::string& value) {
  LoadOptions o;
  o.options[key] = value;
  return o;
}

// The reader's error, or a failed check when it accepts the bytes.
std::optional<Error> error_of(const std::vector<uint8_t>& bytes, const LoadOptions& o) {
  try {
    read_bytes(bytes, o);
  } catch (const Error& e) {
    return e;
  }
  return std::nullopt;
}

// Tables in relu_chain(n): the root, 6 for the Input layer (AnyLayer, InputLayer,
// BindableLayerBase, LayerBase, OutputSlot, TensorInfo), 7 per Activation layer, 5 for the
// Output layer (AnyLayer, OutputLayer, BindableLayerBase, LayerBase, InputSlot).
std::size_t tables_of_chain(std::size_t n) { return 1 + 6 + 7 * n + 5; }

}  // namespace

TEST_CASE("armnn limits: 200k layers (1.4M tables, over FlatBuffers' default 1M) load with the defaults") {
  constexpr std::size_t n = 200'000;
  const auto bytes = relu_chain(n);
  Graph g = read_bytes(bytes);
  // n Relu nodes and the Output layer's Identity; one input, one output.
  REQUIRE(g.nodes.size() == n + 1);
  CHECK(g.nodes.front().op == "Relu");
  CHECK(g.nodes[n - 1].op == "Relu");
  CHECK(g.nodes.back().op == "Identity");
  CHECK(g.inputs.size() == 1);
  CHECK(g.outputs.size() == 1);
  // The same file with FlatBuffers' default bound is refused, naming the option to raise.
  auto e = error_of(bytes, with("armnn.max_tables", "1000000"));
  REQUIRE(e);
  CHECK(e->id() == ErrorId::ResourceLimit);
  CHECK(std::string(e->what()).find("armnn.max_tables") != std::string::npos);
}

TEST_CASE("armnn limits: armnn.max_tables admits exactly the file's table count") {
  const auto bytes = relu_chain(100);
  const std::size_t tables = tables_of_chain(100);
  CHECK(read_bytes(bytes, with("armnn.max_tables", std::to_string(tables))).nodes.size() == 101);
  auto e = error_of(bytes, with("armnn.max_tables", std::to_string(tables - 1)));
  REQUIRE(e);
  CHECK(e->id() == ErrorId::ResourceLimit);
  CHECK(std::string(e->what()).find("armnn.max_tables = " + std::to_string(tables - 1) + " allows") != std::string::npos);
  CHECK(std::string(e->what()).find("max_depth") == std::string::npos);
}

TEST_CASE("armnn limits: armnn.max_depth admits exactly the deepest nesting") {
  // SerializedGraph > AnyLayer > InputLayer > BindableLayerBase > LayerBase > OutputSlot > TensorInfo.
  const auto bytes = relu_chain(3);
  CHECK(read_bytes(bytes, with("armnn.max_depth", "7")).nodes.size() == 4);
  auto e = error_of(bytes, with("armnn.max_depth", "6"));
  REQUIRE(e);
  CHECK(e->id() == ErrorId::DepthLimit);
  CHECK(std::string(e->what()).find("armnn.max_depth = 6 allows") != std::string::npos);
  CHECK(std::string(e->what()).find("max_tables") == std::string::npos);  // only the limit that was hit
}

TEST_CASE("armnn limits: armnn.max_size bounds the input in bytes") {
  const auto bytes = relu_chain(3);
  CHECK(read_bytes(bytes, with("armnn.max_size", std::to_string(bytes.size()))).nodes.size() == 4);
  auto e = error_of(bytes, with("armnn.max_size", std::to_string(bytes.size() - 1)));
  REQUIRE(e);
  CHECK(e->id() == ErrorId::IoTooLarge);
  CHECK(std::string(e->what()).find("armnn.max_size") != std::string::npos);
}

TEST_CASE("armnn limits: a bad limit value is Error(Invalid) naming the option") {
  const auto bytes = relu_chain(1);
  for (const auto& kv : {std::pair<std::string, std::string>{"armnn.max_tables", "0"},
                                   {"armnn.max_tables", "-1"},
                                   {"armnn.max_tables", "4294967296"},  // 2^32: over the verifier's uint32
                                   {"armnn.max_depth", "ten"},
                                   {"armnn.max_depth", "10 "},
                                   {"armnn.max_size", "2147483648"}}) {  // 2^31: over FlatBuffers' limit
    const std::string &key = kv.first, &value = kv.second;  // not structured bindings: CAPTURE's lambda (clang 14)
    CAPTURE(key);
    CAPTURE(value);
    auto e = error_of(bytes, with(key, value));
    REQUIRE(e);
    CHECK(e->id() == ErrorId::OptionValue);
    CHECK(std::string(e->what()).find(key) != std::string::npos);
  }
}
