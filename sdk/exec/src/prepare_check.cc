// refuse_check_errors (nnbridge/prepare_check.h).
#include "nnbridge/prepare_check.h"

#include <charconv>
#include <string_view>

#include "nnbridge/check.h"
#include "nnbridge/error.h"

namespace nnbridge {

namespace {

// The node a finding is about: "nodes[<i>]..." (check()'s `where` form), else none.
std::optional<std::size_t> node_of(std::string_view where) {
  constexpr std::string_view prefix = "nodes[";
  if (where.substr(0, prefix.size()) != prefix) return std::nullopt;
  std::size_t i = 0;
  const char* begin = where.data() + prefix.size();
  auto [end, ec] = std::from_chars(begin, where.data() + where.size(), i);
  if (ec != std::errc() || end == where.data() + where.size() || *end != ']') return std::nullopt;
  return i;
}

}  // namespace

void refuse_check_errors(const Graph& g, const std::function<bool(std::size_t)>& custom) {
  for (const Issue& issue : check(g)) {
    if (issue.severity != Issue::Severity::Error) continue;
    if (custom)
      if (auto n = node_of(issue.where); n && *n < g.nodes.size() && custom(*n)) continue;
    throw Error(ErrorCode::Invalid, issue.message, {}, issue.where);
  }
}

}  // namespace nnbridge
