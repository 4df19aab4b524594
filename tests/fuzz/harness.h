// Shared by the libFuzzer harnesses. Each harness feeds the fuzzer's bytes to one reader from
// memory; an nnbridge::Error is the expected answer to bad bytes, and anything else (a crash,
// another exception, a sanitizer report, a hang) is a finding. What a reader accepts is also
// checked and written back, so the checker and the writers see every graph a reader can produce.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <string_view>

#include "nnbridge/error.h"

namespace nnbridge::fuzz {

inline std::span<const std::byte> as_bytes(const uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const std::byte*>(data), size};
}

/// Runs `fn`; swallows nnbridge::Error only. Returns false when fn threw one.
template <class Fn>
bool clean(Fn&& fn) {
  try {
    fn();
    return true;
  } catch (const nnbridge::Error&) {
    return false;
  }
}

/// A scratch file of this process for writers that only write to a path (in $TMPDIR, else
/// /tmp; removed at exit), named with `extension` (".armnn").
const std::filesystem::path& scratch_file(std::string_view extension);

}  // namespace nnbridge::fuzz
