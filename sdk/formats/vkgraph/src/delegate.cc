// The delegate payload header ("VH00"): parsing, validation and encoding.
#include <cstring>

#include "nnbridge/error.h"
#include "nnbridge/formats/vkgraph.h"

namespace nnbridge::formats::vkgraph {

namespace {

[[noreturn]] void malformed(ErrorId id, const char* field, const std::string& msg) {
  throw Error(id, msg, {}, std::string("header") + (*field ? "." : "") + field);
}

uint64_t le(std::span<const std::byte> b, std::size_t at, std::size_t n) {
  uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) v |= uint64_t(std::to_integer<uint8_t>(b[at + i])) << (8 * i);
  return v;
}

void put(std::vector<uint8_t>& out, uint64_t v, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}

}  // namespace

DelegateHeader parse_delegate_header(std::span<const std::byte> payload) {
  const uint64_t size = payload.size();
  if (size < DelegateHeader::kHeaderSize)
    malformed(ErrorId::Truncated, "", "the payload is " + std::to_string(size) + " bytes, shorter than the 30-byte VH00 header");
  if (std::memcmp(payload.data() + 4, "VH00", 4) != 0) malformed(ErrorId::BadIdentifier, "magic", "bytes 4..7 are not \"VH00\"");
  DelegateHeader h;
  h.header_size = static_cast<uint16_t>(le(payload, 8, 2));
  h.flatbuffer_offset = static_cast<uint32_t>(le(payload, 10, 4));
  h.flatbuffer_size = static_cast<uint32_t>(le(payload, 14, 4));
  h.bytes_offset = static_cast<uint32_t>(le(payload, 18, 4));
  h.bytes_size = le(payload, 22, 8);
  // The checks of ExecuTorch's VulkanDelegateHeader::is_valid/parse, in 64-bit arithmetic.
  if (h.header_size < DelegateHeader::kHeaderSize)
    malformed(ErrorId::BadIdentifier, "header_size", std::to_string(h.header_size) + " is less than 30");
  if (h.flatbuffer_offset < h.header_size)
    malformed(ErrorId::MalformedOther, "flatbuffer_offset", std::to_string(h.flatbuffer_offset) + " lies inside the " +
                                       std::to_string(h.header_size) + "-byte header");
  if (h.flatbuffer_size == 0) malformed(ErrorId::MalformedOther, "flatbuffer_size", "0: there is no flatbuffer");
  const uint64_t fb_end = uint64_t(h.flatbuffer_offset) + h.flatbuffer_size;
  if (fb_end > size)
    malformed(ErrorId::Truncated, "flatbuffer_size", "the flatbuffer [" + std::to_string(h.flatbuffer_offset) + ", " +
                                     std::to_string(fb_end) + ") runs past the end of the " + std::to_string(size) +
                                     "-byte payload");
  if (h.bytes_offset < fb_end)
    malformed(ErrorId::MalformedOther, "bytes_offset", std::to_string(h.bytes_offset) + " lies before the end of the flatbuffer (" +
                                  std::to_string(fb_end) + ")");
  if (h.bytes_offset > size)
    malformed(ErrorId::Truncated, "bytes_offset", std::to_string(h.bytes_offset) + " is past the end of the " + std::to_string(size) +
                                  "-byte payload");
  if (h.bytes_size > size - h.bytes_offset)
    malformed(ErrorId::Truncated, "bytes_size", "the constant segment [" + std::to_string(h.bytes_offset) + ", +" +
                                std::to_string(h.bytes_size) + ") runs past the end of the " + std::to_string(size) +
                                "-byte payload");
  return h;
}

std::vector<uint8_t> encode_delegate_header(const DelegateHeader& h) {
  std::vector<uint8_t> out{0, 0, 0, 0, 'V', 'H', '0', '0'};
  put(out, h.header_size, 2);
  put(out, h.flatbuffer_offset, 4);
  put(out, h.flatbuffer_size, 4);
  put(out, h.bytes_offset, 4);
  put(out, h.bytes_size, 8);
  return out;
}

std::pair<std::size_t, std::size_t> constant_segment(const DelegateHeader& h, std::size_t payload_size) {
  // The runtime (VulkanBackend.cpp compileModel) reads a zero bytes_size as "to the end".
  std::size_t size = static_cast<std::size_t>(h.bytes_size);
  if (size == 0 && payload_size > h.bytes_offset) size = payload_size - h.bytes_offset;
  return {h.bytes_offset, size};
}

}  // namespace nnbridge::formats::vkgraph
