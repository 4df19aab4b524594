// The VH00 payload header: golden vectors (hand-decoded little-endian bytes) and every rejection
// of ExecuTorch's VulkanDelegateHeader::parse, computed without 32-bit wrap-around.
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "nnbridge/formats/vkgraph.h"
#include "support/paths.h"
#include "util.h"

using namespace nnbridge;
using namespace nnbridge::formats::vkgraph;

namespace {

std::vector<std::byte> bytes(std::initializer_list<int> v, std::size_t size = 0) {
  std::vector<std::byte> out;
  for (int x : v) out.push_back(std::byte(x));
  if (out.size() < size) out.resize(size, std::byte{0});
  return out;
}

// A header with the given fields, followed by zeros up to `size` bytes.
std::vector<std::byte> header(uint16_t hs, uint32_t fo, uint32_t fs, uint32_t bo, uint64_t bs, std::size_t size) {
  DelegateHeader h{hs, fo, fs, bo, bs};
  auto enc = encode_delegate_header(h);
  std::vector<std::byte> out;
  for (uint8_t b : enc) out.push_back(std::byte(b));
  out.resize(size, std::byte{0});
  return out;
}

// "<where> <identifier>" of the rejection (docs/errors.md: 201 a size or offset past the end,
// 202 a header that is not VH00's, 200 regions that overlap or are empty).
std::string rejection(const std::vector<std::byte>& b) {
  try {
    parse_delegate_header(b);
  } catch (const Error& e) {
    return e.where() + " " + to_string(e.id());
  }
  return "accepted";
}

}  // namespace

TEST_CASE("vkdelegate header: golden vector, decoded by hand") {
  // 0..3 zero, "VH00", u16 30, u32 32, u32 456, u32 496, u64 32 -- the shared sample's header.
  auto b = bytes({0, 0, 0, 0, 'V', 'H', '0', '0', 0x1e, 0, 0x20, 0, 0, 0, 0xc8, 0x01, 0, 0, 0xf0, 0x01, 0, 0,
                  0x20, 0, 0, 0, 0, 0, 0, 0},
                 528);
  DelegateHeader h = parse_delegate_header(b);
  CHECK(h.header_size == 30);
  CHECK(h.flatbuffer_offset == 32);
  CHECK(h.flatbuffer_size == 456);
  CHECK(h.bytes_offset == 496);
  CHECK(h.bytes_size == 32);
  auto enc = encode_delegate_header(h);
  REQUIRE(enc.size() == 30);
  for (std::size_t i = 0; i < 30; ++i) CHECK(enc[i] == std::to_integer<uint8_t>(b[i]));
}

TEST_CASE("vkdelegate header: every field is little-endian at its offset") {
  DelegateHeader h{0x0102, 0x03040506, 0x0708090a, 0x0b0c0d0e, 0x0f10111213141516ull};
  auto e = encode_delegate_header(h);
  std::vector<uint8_t> want{0, 0, 0, 0, 'V', 'H', '0', '0', 0x02, 0x01, 0x06, 0x05, 0x04, 0x03, 0x0a, 0x09,
                            0x08, 0x07, 0x0e, 0x0d, 0x0c, 0x0b, 0x16, 0x15, 0x14, 0x13, 0x12, 0x11, 0x10, 0x0f};
  CHECK(e == want);
}

TEST_CASE("vkdelegate header: the shared sample") {
  auto p = test::shared_sample("vkgraph/add_example_delegate.bin");
  NNBRIDGE_REQUIRE_SHARED(p);
  auto raw = test::vk::file_bytes(*p);
  DelegateHeader h = parse_delegate_header(std::as_bytes(std::span<const uint8_t>(raw)));
  CHECK(h == DelegateHeader{30, 32, 456, 496, 32});
  CHECK(constant_segment(h, raw.size()) == std::pair<std::size_t, std::size_t>{496, 32});
}

TEST_CASE("vkdelegate header: rejections") {
  CHECK(rejection(bytes({0, 0, 0, 0, 'V', 'H', '0', '0'}, 29)) == "header nnbridge.malformed.201");
  CHECK(rejection(header(30, 32, 8, 40, 0, 64)) == "accepted");
  auto bad_magic = header(30, 32, 8, 40, 0, 64);
  bad_magic[7] = std::byte('1');
  CHECK(rejection(bad_magic) == "header.magic nnbridge.malformed.202");
  CHECK(rejection(header(29, 32, 8, 40, 0, 64)) == "header.header_size nnbridge.malformed.202");
  CHECK(rejection(header(30, 16, 8, 40, 0, 64)) == "header.flatbuffer_offset nnbridge.malformed.200");  // inside the header
  CHECK(rejection(header(30, 32, 0, 40, 0, 64)) == "header.flatbuffer_size nnbridge.malformed.200");    // no flatbuffer
  CHECK(rejection(header(30, 32, 40, 72, 0, 64)) == "header.flatbuffer_size nnbridge.malformed.201");   // past the end
  // 0xFFFFFFF0 + 0x20 wraps to 0x10 in 32 bits; in 64 bits it is far past the end.
  CHECK(rejection(header(30, 0xFFFFFFF0u, 0x20, 0x30, 0, 64)) == "header.flatbuffer_size nnbridge.malformed.201");
  CHECK(rejection(header(30, 32, 8, 36, 0, 64)) == "header.bytes_offset nnbridge.malformed.200");  // before the flatbuffer's end
  CHECK(rejection(header(30, 32, 8, 65, 0, 64)) == "header.bytes_offset nnbridge.malformed.201");  // past the end
  CHECK(rejection(header(30, 32, 8, 40, 25, 64)) == "header.bytes_size nnbridge.malformed.201");  // 40 + 25 > 64
  CHECK(rejection(header(30, 32, 8, 40, ~0ull, 64)) == "header.bytes_size nnbridge.malformed.201");  // no wrap either
  CHECK(rejection(header(30, 32, 8, 40, 24, 64)) == "accepted");
}

TEST_CASE("vkdelegate header: bytes_size 0 with data after bytes_offset runs to the end") {
  DelegateHeader h = parse_delegate_header(header(30, 32, 8, 48, 0, 80));
  CHECK(constant_segment(h, 80) == std::pair<std::size_t, std::size_t>{48, 32});
  DelegateHeader h2 = parse_delegate_header(header(30, 32, 8, 48, 16, 80));
  CHECK(constant_segment(h2, 80) == std::pair<std::size_t, std::size_t>{48, 16});
  DelegateHeader h3 = parse_delegate_header(header(30, 32, 8, 80, 0, 80));
  CHECK(constant_segment(h3, 80) == std::pair<std::size_t, std::size_t>{80, 0});
}
