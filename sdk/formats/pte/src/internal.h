// Pieces shared by the pte and ptd readers and writers.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "nnbridge/buffer.h"
#include "nnbridge/format.h"
#include "nnbridge/formats/pte.h"
#include "nnbridge/graph.h"

namespace nnbridge::formats::pte {

/// Little-endian integers at `at` (the caller checked the range).
uint32_t get_u32(std::span<const std::byte> b, std::size_t at);
uint64_t get_u64(std::span<const std::byte> b, std::size_t at);
void put_u32(std::vector<uint8_t>& out, uint32_t v);
void put_u64(std::vector<uint8_t>& out, uint64_t v);
/// parse_extended_header (pte.h) of the first bytes `head` of a file of `file_size` bytes.
std::optional<ExtendedHeader> parse_extended_header(std::span<const std::byte> head, uint64_t file_size);
/// True when bytes 4..7 (a flatbuffer's file identifier) are `two` and then two letters or
/// digits: how ExecuTorch's own loaders match "ET[0-9a-zA-Z][0-9a-zA-Z]" / "FT..".
bool identifier_like(std::span<const std::byte> b, const char* two);
/// `n` rounded up to a multiple of `a` (a > 0).
uint64_t align_up(uint64_t n, uint64_t a);

/// Inserts `header` (its length a multiple of 16) at byte 8 of a finished flatbuffer and moves
/// the root offset by its length (exir/_serialize/_program.py _insert_flatbuffer_header).
std::vector<uint8_t> insert_header(std::span<const uint8_t> flatbuffer, std::span<const uint8_t> header);

/// The named data of a .ptd: key -> the segment's bytes (views into `src`), and the entries in
/// file order. Verifies the FlatTensor (limits from the `prefix`.max_* reader options of `o`).
struct NamedData {
  struct Entry {
    std::string key;
    uint32_t segment = 0;
    Buffer bytes;
    const void* layout = nullptr;  ///< the TensorLayout table, or nullptr
  };
  std::vector<Entry> entries;
  std::map<std::string, std::size_t, std::less<>> by_key;  ///< index into entries
};
NamedData read_ptd(const Source& src, const LoadOptions& o, const std::string& prefix);

/// Serializes named data as a .ptd (serialize.py: segments aligned to 128 from a base at a
/// multiple of 128; every entry its own segment unless its bytes equal an earlier one's).
struct PtdEntry {
  std::string key;
  std::span<const std::byte> bytes;
  std::optional<TensorType> layout;  ///< written as TensorLayout when set
  std::vector<int64_t> dim_order;    ///< empty: 0..rank-1
};
std::vector<uint8_t> write_ptd(const std::vector<PtdEntry>& entries);

/// What the pte writer makes: the .pte, and the named data its payload refers to that the
/// Program does not hold (for the .ptd beside it; empty when there is none).
struct PteFiles {
  std::vector<uint8_t> pte;
  std::vector<std::pair<std::string, Buffer>> ptd;
};
PteFiles write_pte(const Graph& g, const SaveOptions& o);

/// ExecuTorch ScalarType <-> IR dtype; nullopt / -1 where there is none.
std::optional<DataType> ir_dtype(int8_t scalar_type);
int8_t scalar_type(DataType t);

/// Metadata names.
namespace keys {
inline const std::string kMethod = "pte.method";
inline const std::string kMethods = "pte.methods";
inline const std::string kDelegates = "pte.delegates";
inline const std::string kOperators = "pte.operators";
inline const std::string kNamedKeys = "pte.named_data.keys";
inline const std::string kProgram = "pte.program";
inline const std::string kSegment = "pte.segment.";  // + index
inline const std::string kPtdSegment = "ptd.segment";
inline const std::string kPtdKeys = "ptd.keys";
inline const std::string kPtdDimOrder = "ptd.dim_order";
}  // namespace keys

}  // namespace nnbridge::formats::pte
