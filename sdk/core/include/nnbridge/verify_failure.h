// Why a FlatBuffers verification failed, as an error identifier (for readers of FlatBuffers formats).
#pragma once

#include <sys/mman.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

#include "nnbridge/error.h"

namespace nnbridge {

/// Bytes after the end that verify_failure's second zero-tailed try fills with 32-bit words of
/// this value (see there).
inline constexpr std::uint32_t kVerifyFailureTail = 256;
/// Tables (besides n / 2) that verify_failure's zero-tailed tries may verify (see there).
inline constexpr std::uint32_t kVerifyFailurePaddedTables = 1u << 16;
/// The least size verify_failure's zero-tailed tries give the bytes (see there).
inline constexpr std::size_t kVerifyFailurePadFloor = std::size_t{16} << 20;

/// After `verify(p, n, max_depth, max_tables)` returned false for the `n` bytes at `p`, the
/// identifier that says why. `verify` is a callable `bool(const std::uint8_t*, std::size_t,
/// unsigned max_depth, unsigned max_tables)` that runs the format's flatbuffers::Verifier with
/// those bounds (its Options::max_depth / max_tables); it is retried with changed input:
/// - ErrorId::DepthLimit when the bytes verify with twice `max_depth` (at least 64, FlatBuffers'
///   default, and at most 1024 unless `max_depth` already is more) and the same `max_tables`;
/// - ErrorId::ResourceLimit when they verify with twice `max_tables` plus n / 4;
/// - ErrorId::Truncated when they verify once followed by zero bytes (as far as bounded below):
///   every failed check was an offset or a size past the end,
///   which is what cutting a file short does. Zero bytes read as an empty table (soffset 0: the
///   vtable is the table itself, of size 0), an empty vector or an empty string. A table or vector
///   cut in two would read its lost offsets as 0, which no verifier accepts, so a second try sets
///   the kVerifyFailureTail bytes after the end to 32-bit words of that value: an offset read there
///   points into the zeros beyond. The tail is an anonymous mapping: pages the verifier never reads
///   cost no memory;
/// - ErrorId::VerifyFailed otherwise.
/// The first two retries do at most about twice the work the bounds allowed the first
/// verification. The zero-tailed tries see the bytes followed by zeros up to 16 n bytes (at least
/// kVerifyFailurePadFloor, at most FlatBuffers' limit) and verify at most
/// kVerifyFailurePaddedTables + n / 2 tables (fewer when `max_tables` is less): past the end every
/// offset reads 0 (an empty table or string), so a vector whose count survived could otherwise
/// have the verifier walk 2 GiB of zero pages (seconds and 1 GB of memory for a 700-byte file).
/// A truncated file whose kept bytes point further than that is told as VerifyFailed.
template <class Verify>
ErrorId verify_failure(const std::uint8_t* p, std::size_t n, unsigned max_depth, unsigned max_tables, Verify verify) {
  const unsigned deeper =
      std::max(max_depth, std::min(std::max(max_depth > 0x7FFF'FFFFu ? max_depth : 2 * max_depth, 64u), 1024u));
  if (deeper > max_depth && verify(p, n, deeper, max_tables)) return ErrorId::DepthLimit;
  const std::uint64_t more = std::min<std::uint64_t>(2 * std::uint64_t(max_tables) + n / 4, 0xFFFF'FFFFu);
  if (more > max_tables && verify(p, n, max_depth, unsigned(more))) return ErrorId::ResourceLimit;
  // 2^31 - 2: one below the verifier's bound, which it asserts the size is under.
  constexpr std::size_t kPadded = (std::size_t{1} << 31) - 2;
  if (n == 0 || n >= kPadded - kVerifyFailureTail) return ErrorId::VerifyFailed;
  const std::size_t padded = std::min(kPadded, std::max(kVerifyFailurePadFloor, 16 * n));
  void* m = mmap(nullptr, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) return ErrorId::VerifyFailed;
  auto* q = static_cast<std::uint8_t*>(m);
  std::memcpy(q, p, n);
  const unsigned padded_tables =
      static_cast<unsigned>(std::min<std::uint64_t>(max_tables, kVerifyFailurePaddedTables + std::uint64_t(n) / 2));
  bool padded_ok = verify(q, padded, max_depth, padded_tables);
  if (!padded_ok) {
    // The same with the words just past the end (4-byte aligned) set to kVerifyFailureTail: an
    // object cut in two reads its lost offsets as pointing into the zeros beyond, not as 0.
    const std::size_t from = (n + 3) & ~std::size_t{3};
    for (std::size_t k = from; k < from + kVerifyFailureTail; k += 4) {
      const std::uint32_t w = kVerifyFailureTail;
      std::memcpy(q + k, &w, 4);
    }
    padded_ok = verify(q, padded, max_depth, padded_tables);
  }
  munmap(m, padded);
  return padded_ok ? ErrorId::Truncated : ErrorId::VerifyFailed;
}

/// The message for verify_failure's answer `id` about a `what` ("Arm NN SerializedGraph"): a
/// limit names the one reader option that was exceeded and its value (`options` is the option
/// prefix, "armnn": "armnn.max_depth = 64"), so the user knows which to raise.
inline std::string verify_failure_message(ErrorId id, std::string_view what, std::string_view options,
                                          unsigned max_depth, unsigned max_tables) {
  const std::string head = "not a valid " + std::string(what) + " (FlatBuffers verification failed: ";
  switch (id) {
    case ErrorId::DepthLimit:
      return head + "tables nest deeper than the reader option " + std::string(options) +
             ".max_depth = " + std::to_string(max_depth) + " allows; raise it to read the file)";
    case ErrorId::ResourceLimit:
      return head + "more tables than the reader option " + std::string(options) + ".max_tables = " +
             std::to_string(max_tables) + " allows; raise it to read the file)";
    case ErrorId::Truncated:
      return head + "the bytes end inside a table, or an offset points past their end)";
    default:
      return head + "bad offsets, sizes, alignment or vtables; within the reader options " + std::string(options) +
             ".max_depth / " + std::string(options) + ".max_tables)";
  }
}

}  // namespace nnbridge
