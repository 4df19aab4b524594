// Bad input: every failure is an nnbridge::Error with a code and a `where` in the format's
// own field names; nothing crashes.
#include <doctest/doctest.h>

#include <fstream>

#include "armnn/ArmnnSchema_generated.h"
#include "layer_zoo.h"
#include "nnbridge/error.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::armnn;

namespace {

// Runs the reader and returns the error it raised (fails the test when none is raised).
Error read_error(std::vector<uint8_t> bytes, const LoadOptions& o = {}) {
  try {
    read_bytes(std::move(bytes), o);
  } catch (const Error& e) {
    return e;
  }
  FAIL("the reader accepted malformed input");
  return Error(ErrorCode::Io, "unreachable");
}

std::vector<uint8_t> zoo_bytes(const std::string& layer, const std::string& edit_from = {},
                               const std::string& edit_to = {}) {
  for (const auto& c : zoo())
    if (c.layer == layer) {
      std::string json = zoo_json(c);
      if (!edit_from.empty()) {
        auto at = json.find(edit_from);
        REQUIRE(at != std::string::npos);
        json.replace(at, edit_from.size(), edit_to);
      }
      auto bin = flatc_binary(json, layer + "_edited");
      REQUIRE(!bin.empty());
      return file_bytes(bin);
    }
  FAIL("no zoo case " << layer);
  return {};
}

}  // namespace

TEST_CASE("armnn malformed: truncations") {
  auto bytes = zoo_bytes("Convolution2dLayer");
  for (size_t n : {size_t{0}, size_t{3}, size_t{7}, size_t{12}, bytes.size() / 3, bytes.size() / 2}) {
    CAPTURE(n);
    Error e = read_error(std::vector<uint8_t>(bytes.begin(), bytes.begin() + n));
    CHECK(e.id() == ErrorId::Truncated);
    CHECK(e.file() == "memory.armnn");
  }
  // Cutting the buffer in half leaves the root readable; the error names the first part of it
  // that does not verify on its own.
  Error half = read_error(std::vector<uint8_t>(bytes.begin(), bytes.begin() + bytes.size() / 2));
  CHECK(!half.where().empty());
  // Every other cut either fails cleanly or (when it only drops trailing padding) reads.
  for (size_t n = 0; n < bytes.size(); n += 7) {
    try {
      read_bytes(std::vector<uint8_t>(bytes.begin(), bytes.begin() + n));
    } catch (const Error& e) {
      CHECK((e.code() == ErrorCode::Malformed || e.code() == ErrorCode::Unsupported));
    }
  }
}

TEST_CASE("armnn malformed: unknown union tag") {
  auto bytes = zoo_bytes("AdditionLayer");
  // Patch the third layer's union tag (AdditionLayer = 2) to a value no schema defines.
  const auto* g = flatbuffers::GetRoot<armnnSerializer::SerializedGraph>(bytes.data());
  const auto* any = g->layers()->Get(2);
  REQUIRE(any->layer_type() == armnnSerializer::Layer::AdditionLayer);
  auto* tag = const_cast<uint8_t*>(reinterpret_cast<const flatbuffers::Table*>(any)->GetAddressOf(
      armnnSerializer::AnyLayer::VT_LAYER_TYPE));
  *tag = 200;
  Error e = read_error(bytes);
  CHECK(e.id() == ErrorId::BadEncoding);
  CHECK(e.where() == "layers[2].layer_type");
}

TEST_CASE("armnn malformed: missing vectors") {
  for (const auto& c : zoo())
    if (c.layer == "AdditionLayer") {
      std::string json = zoo_json(c);
      auto from = json.find(R"("inputSlots": [{)");
      auto to = json.find(R"("outputSlots")", from);
      REQUIRE(from != std::string::npos);
      json.erase(from, to - from);
      Error e = read_error(file_bytes(flatc_binary(json, "no_slots")));
      CHECK(e.id() == ErrorId::MalformedOther);  // a vector the layer needs is absent
      CHECK(e.where() == "layers[2].layer.base.inputSlots");
    }
  Error e = read_error(file_bytes(flatc_binary(R"({"inputIds": [], "outputIds": []})", "no_layers")));
  CHECK(e.id() == ErrorId::MalformedOther);
  CHECK(e.where() == "layers");
}

TEST_CASE("armnn malformed: dangling connections") {
  Error e = read_error(zoo_bytes("AdditionLayer", R"("sourceLayerIndex": 1, "outputSlotIndex": 0)",
                                 R"("sourceLayerIndex": 99, "outputSlotIndex": 0)"));
  CHECK(e.id() == ErrorId::DanglingReference);  // well-formed bytes, dangling id (error.h)
  CHECK(e.where() == "layers[2].layer.base.inputSlots[1].connection.sourceLayerIndex");
  e = read_error(zoo_bytes("AdditionLayer", R"("sourceLayerIndex": 1, "outputSlotIndex": 0)",
                           R"("sourceLayerIndex": 1, "outputSlotIndex": 3)"));
  CHECK(e.where() == "layers[2].layer.base.inputSlots[1].connection.outputSlotIndex");
  CHECK(e.id() == ErrorId::DanglingReference);
  e = read_error(zoo_bytes("AdditionLayer", R"("index": 10, "layerName": "the_layer")",
                           R"("index": 1, "layerName": "the_layer")"));
  CHECK(e.where() == "layers[2].layer.base.index");
  CHECK(e.id() == ErrorId::DuplicateName);  // two layers with LayerBase.index 1
}

TEST_CASE("armnn malformed: constant tensors") {
  // 8 int words cannot fill a [1, 2, 2, 3] float32 tensor (48 bytes).
  Error e = read_error(zoo_bytes("ConstantLayer", R"({"info": {"dimensions": [1, 2, 2, 2])",
                                 R"({"info": {"dimensions": [1, 2, 2, 3])"));
  CHECK(e.id() == ErrorId::MalformedOther);
  CHECK(e.where() == "layers[0].layer.input.data.data");
  // Arm NN stores float32 as 4-byte words; 8-byte words do not suit the type.
  e = read_error(zoo_bytes("ConstantLayer", R"("data_type": "IntData")", R"("data_type": "LongData")"));
  CHECK(e.id() == ErrorId::BadEncoding);
  CHECK(e.where() == "layers[0].layer.input.data_type");
  // A ConstTensor's element count must not overflow.
  e = read_error(zoo_bytes("Convolution2dLayer", R"({"info": {"dimensions": [2, 2, 1, 1])",
                           R"({"info": {"dimensions": [4294967295, 4294967295, 4294967295, 1])"));
  CHECK(e.id() == ErrorId::BadEncoding);  // an element count that overflows
  CHECK(e.where() == "layers[1].layer.weights.info.dimensions");
}

TEST_CASE("armnn malformed: verifier limits come from LoadOptions") {
  auto bytes = zoo_bytes("Convolution2dLayer");
  LoadOptions o;
  o.limits.max_depth = 3;
  CHECK(read_error(bytes, o).id() == ErrorId::DepthLimit);
  o.limits = {};
  o.limits.max_tables = 5;
  CHECK(read_error(bytes, o).id() == ErrorId::ResourceLimit);
}

TEST_CASE("armnn: a LayerBase.layerType that disagrees with the union tag is a kept warning") {
  auto bytes = zoo_bytes("AdditionLayer", R"("layerType": "Addition")", R"("layerType": "Multiplication")");
  Graph g = read_bytes(bytes);
  const Node* n = node_named(g, "the_layer");
  REQUIRE(n);
  CHECK(n->op == "Add");  // Arm NN dispatches on the union tag
  CHECK(n->attrs.at("armnn.layerType") == Attr(int64_t{2}));  // LayerType Multiplication
  REQUIRE(g.metadata.count("armnn.warnings"));
  CHECK(g.metadata.at("armnn.warnings").get<std::vector<std::string>>().at(0).find("layers[2].layer.base.layerType") == 0);
  auto dir = test::temp_dir();
  std::ofstream(dir / "orig.armnn", std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  CHECK(flatc_json(dir / "orig.armnn") == flatc_json(write(g, "disagree")));
}

TEST_CASE("armnn malformed: byte mutations never crash the reader or the writer") {
  auto bytes = zoo_bytes("SplitterLayer");
  auto conv = zoo_bytes("Convolution2dLayer");
  uint32_t state = 12345;  // a fixed LCG: the same mutations on every run
  auto next = [&] { return state = state * 1103515245u + 12345u; };
  int read_ok = 0, rejected = 0;
  for (const auto* base : {&bytes, &conv})
    for (int round = 0; round < 150; ++round) {
      auto b = *base;
      for (int k = 0; k < 1 + round % 3; ++k) b[next() % b.size()] = uint8_t(next() >> 8);
      try {
        Graph g = read_bytes(b);
        ++read_ok;
        try {
          write(g, "mutated");
        } catch (const Error&) {
        }
      } catch (const Error& e) {
        ++rejected;
        // Invalid: bytes that verify but whose ids dangle (a mutated connection index).
        CHECK((e.code() == ErrorCode::Malformed || e.code() == ErrorCode::Unsupported || e.code() == ErrorCode::Invalid));
      }
    }
  CHECK(read_ok + rejected == 300);
  CHECK(rejected > 0);
}
