// The shared VkGraph samples (../shared/samples/vkgraph, compiled by flatc 2.0.8 and laid out by
// ExecuTorch's writer rules): read, IR form, write back identical by flatc's decoding and by
// the payload's layout rules.
#include <doctest/doctest.h>

#include <cstring>

#include "nnbridge/error.h"
#include "nnbridge/formats/vkgraph.h"
#include "nnbridge/io.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::test::vk;
namespace fs = std::filesystem;

namespace {

// Checks the IR form of the sample: aten.add.Tensor(input, constant, alpha=1) -> output.
void check_add_example(const Graph& g) {
  REQUIRE(g.values.size() == 3);  // three VkTensors; the Int alpha is metadata
  REQUIRE(g.nodes.size() == 1);
  const Node& n = g.nodes[0];
  CHECK(n.op == "Add");
  CHECK(n.attrs.at("vk.name").get<std::string>() == "aten.add.Tensor");
  CHECK(n.attrs.at("vk.args").get<std::vector<int64_t>>() == std::vector<int64_t>{0, 1, 2, 3});
  REQUIRE(n.inputs.size() == 2);
  CHECK(g.values[n.inputs[0]].name == "input_0");
  CHECK(g.values[n.inputs[1]].name == "v1");
  CHECK(g.values[n.outputs[0]].name == "output_0");
  CHECK(g.values[n.inputs[1]].attrs.at("vk.constant_id").get<int64_t>() == 0);
  CHECK(g.values[n.inputs[0]].attrs.at("vk.mem_obj_id").get<int64_t>() == 0);
  CHECK(g.values[n.inputs[0]].type.shape == std::vector<int64_t>{2, 3});
  CHECK(g.values[n.inputs[0]].type.dtype == DataType::Float32);
  CHECK(g.metadata.at("vk.value.2").get<int64_t>() == 1);
  CHECK(g.metadata.at("vk.value_kinds").get<std::vector<int64_t>>() == std::vector<int64_t>{5, 5, 2, 5});
  REQUIRE(g.inputs.size() == 1);
  REQUIRE(g.outputs.size() == 1);
}

std::vector<uint8_t> slice(const std::vector<uint8_t>& b, std::size_t from, std::size_t n) {
  return std::vector<uint8_t>(b.begin() + static_cast<std::ptrdiff_t>(from), b.begin() + static_cast<std::ptrdiff_t>(from + n));
}

}  // namespace

TEST_CASE("vkgraph sample: bare flatbuffer reads, writes back identically by flatc") {
  auto p = test::shared_sample("vkgraph/add_example.bin");
  NNBRIDGE_REQUIRE_SHARED(p);
  Graph g = read(*p);
  CHECK(g.source_format == "vkgraph");
  check_add_example(g);
  CHECK(!g.values[1].constant);  // a bare VkGraph has no constant segment
  auto out = write(g, "add_example");
  std::string a = flatc_json(*p), b = flatc_json(out);
  REQUIRE(!a.empty());
  CHECK(a == b);
  CHECK(file_bytes(write(g, "add_example_again")) == file_bytes(out));  // deterministic
}

TEST_CASE("vkdelegate sample: constants are views, and it writes back by the layout rules") {
  auto p = test::shared_sample("vkgraph/add_example_delegate.bin");
  auto bare = test::shared_sample("vkgraph/add_example.bin");
  NNBRIDGE_REQUIRE_SHARED(p);
  Graph g = read(*p, true);
  CHECK(g.source_format == "vkdelegate");
  check_add_example(g);
  const Value& c = g.values[1];
  REQUIRE(c.constant);
  CHECK(c.constant->is_view());
  // Bytes 496.. of the sample, decoded by hand: 0.0f 1.0f 2.0f 3.0f 4.0f 5.0f.
  std::vector<float> want{0, 1, 2, 3, 4, 5}, got(6);
  REQUIRE(c.constant->size() == 24);
  std::memcpy(got.data(), c.constant->data(), 24);
  CHECK(got == want);

  auto out = write(g, "add_example_delegate", true);
  auto orig = file_bytes(*p), mine = file_bytes(out);
  auto ho = formats::vkgraph::parse_delegate_header(std::as_bytes(std::span<const uint8_t>(orig)));
  auto hm = formats::vkgraph::parse_delegate_header(std::as_bytes(std::span<const uint8_t>(mine)));
  CHECK(hm == ho);
  REQUIRE(mine.size() == orig.size());
  CHECK(slice(mine, 0, 32) == slice(orig, 0, 32));                                        // header + padding
  CHECK(slice(mine, hm.bytes_offset, hm.bytes_size) == slice(orig, ho.bytes_offset, ho.bytes_size));  // segment
  auto fb = test::temp_dir() / "embedded.bin";
  put_file(fb, slice(mine, hm.flatbuffer_offset, hm.flatbuffer_size));
  CHECK(flatc_json(fb) == flatc_json(*bare));
}

TEST_CASE("vkdelegate sample: the bare flatbuffer of a payload is the sample's, constants left external") {
  auto p = test::shared_sample("vkgraph/add_example_delegate.bin");
  auto bare = test::shared_sample("vkgraph/add_example.bin");
  NNBRIDGE_REQUIRE_SHARED(p);
  Graph g = read(*p, true);
  // Writing the data away silently is refused ...
  try {
    write(g, "refused");
    FAIL("written");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::NoForm);
  }
  // ... and allowed when asked for.
  SaveOptions o;
  o.options["vkgraph.constants"] = "external";
  CHECK(flatc_json(write(g, "external", false, o)) == flatc_json(*bare));
}

TEST_CASE("vkgraph samples: sniffed by content through the registry") {
  auto p = test::shared_sample("vkgraph/add_example.bin");
  auto d = test::shared_sample("vkgraph/add_example_delegate.bin");
  NNBRIDGE_REQUIRE_SHARED(p);
  CHECK(detect_format(*p) == "vkgraph");
  CHECK(detect_format(*d) == "vkdelegate");
  CHECK(load(*d).source_format == "vkdelegate");
}
