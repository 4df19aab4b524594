// RFC 4648 base64 (standard alphabet, '=' padding), used by the JSON form for bytes.
#pragma once

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace nnbridge::detail {

std::string base64_encode(std::span<const std::byte> bytes);
/// nullopt on any character outside the alphabet, a bad length or misplaced padding.
std::optional<std::vector<std::byte>> base64_decode(std::string_view text);

}  // namespace nnbridge::detail
