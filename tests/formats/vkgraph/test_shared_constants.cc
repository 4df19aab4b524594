// Tensors sharing one `constants` entry of a delegate payload: ExecuTorch's runtime reads each
// tensor's own byte size from the entry's offset (VulkanBackend.cpp get_constant_data_ptr:
// constant_data + offset; the entry's length is not read), so a writer must lay out the longest.
#include <doctest/doctest.h>

#include <cstring>

#include "nnbridge/error.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::vk;

namespace {

// Six float32 values, 1..6, as their little-endian bytes (IEEE 754: 1.0f = 0x3f800000).
std::vector<uint8_t> six_floats() {
  std::vector<uint8_t> out;
  for (uint32_t bits : {0x3f800000u, 0x40000000u, 0x40400000u, 0x40800000u, 0x40a00000u, 0x40c00000u})
    for (int k = 0; k < 4; ++k) out.push_back(static_cast<uint8_t>(bits >> (8 * k)));
  return out;
}

std::vector<uint8_t> bytes_of(const Buffer& b) {
  const auto* p = reinterpret_cast<const uint8_t*>(b.data());
  return {p, p + b.size()};
}

const Value* value_at(const Graph& g, int64_t index) {
  for (const Value& v : g.values)
    if (auto it = v.attrs.find("vk.value"); it != v.attrs.end() && it->second.get<int64_t>() == index) return &v;
  return nullptr;
}

}  // namespace

TEST_CASE("vkdelegate shared constants: a float32[4] and a float32[6] on one entry read back whole") {
  // constants[0] is {offset 0, length 16}: the first user's size. Both tensors name it; the
  // segment holds the 24 bytes the second one reads, padded to 32 (ExecuTorch pads to 16).
  const std::string values = tensor_json("[4]", 0) + "," + tensor_json("[6]", 0);
  const auto fb = flatc_binary(graph_json(values, "", "[]", "[]", "{\"offset\": 0, \"length\": 16}"), "shared");
  REQUIRE(!fb.empty());
  std::vector<uint8_t> segment = six_floats();
  segment.resize(32, 0);
  const Graph g = read_bytes(payload(file_bytes(fb), segment), true);
  REQUIRE(value_at(g, 1));
  REQUIRE(value_at(g, 1)->constant);
  CHECK(bytes_of(*value_at(g, 1)->constant) == six_floats());

  const Graph back = read(write(g, "shared_out", true), true);
  for (int64_t index : {0, 1}) {
    CAPTURE(index);
    const Value* v = value_at(back, index);
    REQUIRE(v);
    REQUIRE(v->constant);
    std::vector<uint8_t> want = six_floats();
    want.resize(index == 0 ? 16 : 24);
    CHECK(bytes_of(*v->constant) == want);
  }
}

TEST_CASE("vkdelegate shared constants: tensors on one entry whose data differ are refused, naming the value") {
  // An IR graph edited after reading: two constants on constants[0], of other contents.
  Graph g;
  g.source_format = "vkdelegate";
  g.metadata["vk.constants.offset"] = Attr(std::vector<int64_t>{0});
  g.metadata["vk.constants.length"] = Attr(std::vector<int64_t>{8});
  g.metadata["vk.constants.named_key"] = Attr(std::vector<std::string>{""});
  for (uint8_t fill : {uint8_t(1), uint8_t(2)}) {
    Value v;
    v.name = "c" + std::to_string(fill);
    v.type.dtype = DataType::Float32;
    v.type.shape = {2};
    std::vector<std::byte> data(8, std::byte{fill});
    v.constant = Buffer::owned(std::move(data));
    v.attrs["vk.constant_id"] = Attr(int64_t(0));
    g.add_value(std::move(v));
  }
  try {
    write(g, "conflict", true);
    FAIL("written");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::NoForm);
    CHECK(e.where().find("'c2'") != std::string::npos);
    CHECK(e.where().find("vk.constant_id") != std::string::npos);
  }
}
