// The extended header of .pte files and the FlatTensor header of .ptd files, and the
// little-endian helpers both use.
#include <cctype>
#include <cstring>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/pte.h"

namespace nnbridge::formats::pte {

uint32_t get_u32(std::span<const std::byte> b, std::size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | std::to_integer<uint32_t>(b[at + static_cast<std::size_t>(i)]);
  return v;
}
uint64_t get_u64(std::span<const std::byte> b, std::size_t at) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | std::to_integer<uint64_t>(b[at + static_cast<std::size_t>(i)]);
  return v;
}
void put_u32(std::vector<uint8_t>& out, uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
void put_u64(std::vector<uint8_t>& out, uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
}
bool identifier_like(std::span<const std::byte> b, const char* two) {
  return b.size() >= 8 && std::memcmp(b.data() + 4, two, 2) == 0 && std::isalnum(std::to_integer<int>(b[6])) &&
         std::isalnum(std::to_integer<int>(b[7]));
}
uint64_t align_up(uint64_t n, uint64_t a) { return (n + a - 1) / a * a; }

std::vector<uint8_t> insert_header(std::span<const uint8_t> fb, std::span<const uint8_t> header) {
  if (fb.size() < 8) throw Error(ErrorId::InvalidOther, "a flatbuffer shorter than 8 bytes");
  std::vector<uint8_t> out;
  out.reserve(fb.size() + header.size());
  const uint32_t root = get_u32(std::as_bytes(fb), 0);
  put_u32(out, root + static_cast<uint32_t>(header.size()));
  out.insert(out.end(), fb.begin() + 4, fb.begin() + 8);
  out.insert(out.end(), header.begin(), header.end());
  out.insert(out.end(), fb.begin() + 8, fb.end());
  return out;
}

std::optional<ExtendedHeader> parse_extended_header(std::span<const std::byte> file) {
  return parse_extended_header(file, file.size());
}

std::optional<ExtendedHeader> parse_extended_header(std::span<const std::byte> head, uint64_t file_size) {
  constexpr std::size_t at = ExtendedHeader::kOffset;
  const std::span<const std::byte> file = head;
  if (file.size() < at + ExtendedHeader::kMinLength || std::memcmp(file.data() + at, "eh00", 4) != 0) return std::nullopt;
  ExtendedHeader h;
  h.length = get_u32(file, at + 4);
  if (h.length < ExtendedHeader::kMinLength)
    throw Error(ErrorId::BadIdentifier, "the extended header is " + std::to_string(h.length) + " bytes, less than 24", {},
                "extended_header.length");
  h.program_size = get_u64(file, at + 8);
  h.segment_base_offset = get_u64(file, at + 16);
  if (h.length >= ExtendedHeader::kLength && file.size() >= at + ExtendedHeader::kLength) h.segment_data_size = get_u64(file, at + 24);
  if (h.program_size < at + h.length || h.program_size > file_size)
    throw Error(h.program_size > file_size ? ErrorId::Truncated : ErrorId::MalformedOther,
                "program_size " + std::to_string(h.program_size) + " is outside the " + std::to_string(file_size) + "-byte file",
                {}, "extended_header.program_size");
  if (h.segment_base_offset != 0 && (h.segment_base_offset < h.program_size || h.segment_base_offset > file_size))
    throw Error(h.segment_base_offset > file_size ? ErrorId::Truncated : ErrorId::MalformedOther,
                "segment_base_offset " + std::to_string(h.segment_base_offset) +
                                          " is not between the program's end and the end of the file", {},
                "extended_header.segment_base_offset");
  return h;
}

std::vector<uint8_t> encode_extended_header(const ExtendedHeader& h) {
  std::vector<uint8_t> out = {'e', 'h', '0', '0'};
  put_u32(out, ExtendedHeader::kLength);
  put_u64(out, h.program_size);
  put_u64(out, h.segment_base_offset);
  put_u64(out, h.segment_data_size);
  return out;
}

FlatTensorHeader parse_flat_tensor_header(std::span<const std::byte> file) {
  if (file.size() < 8 + FlatTensorHeader::kLength || std::memcmp(file.data() + 8, "FH01", 4) != 0)
    throw Error(file.size() >= 12 && std::memcmp(file.data() + 8, "FH01", 4) == 0 ? ErrorId::Truncated : ErrorId::BadIdentifier,
                "no FlatTensor header (\"FH01\" at byte 8)", {}, "header.magic");
  FlatTensorHeader h;
  h.length = get_u32(file, 12);
  if (h.length < FlatTensorHeader::kLength)
    throw Error(ErrorId::BadIdentifier, "the header is " + std::to_string(h.length) + " bytes, less than 40", {}, "header.length");
  h.flatbuffer_offset = get_u64(file, 16);
  h.flatbuffer_size = get_u64(file, 24);
  h.segment_base_offset = get_u64(file, 32);
  h.segment_data_size = get_u64(file, 40);
  const uint64_t n = file.size();
  if (h.flatbuffer_offset > n || h.flatbuffer_size > n - h.flatbuffer_offset || h.flatbuffer_offset + h.flatbuffer_size < 16)
    throw Error(h.flatbuffer_offset + h.flatbuffer_size < 16 ? ErrorId::MalformedOther : ErrorId::Truncated,
                "the flatbuffer lies outside the " + std::to_string(n) + "-byte file", {}, "header.flatbuffer_size");
  if (h.segment_base_offset > n || h.segment_data_size > n - h.segment_base_offset)
    throw Error(ErrorId::Truncated, "the segment data lies outside the " + std::to_string(n) + "-byte file", {},
                "header.segment_data_size");
  return h;
}

std::optional<DataType> ir_dtype(int8_t s) {
  switch (s) {
    case 0: return DataType::UInt8;
    case 1: return DataType::Int8;
    case 2: return DataType::Int16;
    case 3: return DataType::Int32;
    case 4: return DataType::Int64;
    case 5: return DataType::Float16;
    case 6: return DataType::Float32;
    case 7: return DataType::Float64;
    case 11: return DataType::Bool;
    case 15: return DataType::BFloat16;
    default: return std::nullopt;
  }
}

int8_t scalar_type(DataType t) {
  switch (t) {
    case DataType::UInt8: return 0;
    case DataType::Int8: return 1;
    case DataType::Int16: return 2;
    case DataType::Int32: return 3;
    case DataType::Int64: return 4;
    case DataType::Float16: return 5;
    case DataType::Float32: return 6;
    case DataType::Float64: return 7;
    case DataType::Bool: return 11;
    case DataType::BFloat16: return 15;
    default: return -1;
  }
}

}  // namespace nnbridge::formats::pte
