// refuse_check_errors (nnbridge/prepare_check.h).
#include "nnbridge/prepare_check.h"

#include <charconv>
#include <string_view>

#include "nnbridge/check.h"
#include "nnbridge/error.h"
#include "nnbridge/exec/prepare.h"

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
    // Error(Invalid) always, with the finding's identifier when it is an Invalid one.
    const ErrorId id = code_of(issue.id) == ErrorCode::Invalid ? issue.id : ErrorId::InvalidOther;
    const std::optional<std::size_t> n = node_of(issue.where);
    if (!n || *n >= g.nodes.size()) throw Error(id, issue.message, {}, issue.where);
    if (custom && custom(*n)) continue;
    // A finding about a node names it as the prepare loop's own errors do (exec::node_label);
    // the op that shape inference puts in front of its message is in the label already.
    std::string_view message = issue.message;
    const std::string op = g.nodes[*n].op + ": ";
    if (message.substr(0, op.size()) == op) message.remove_prefix(op.size());
    throw Error(id, exec::node_label(g, *n) + ": " + std::string(message), {}, issue.where);
  }
}

}  // namespace nnbridge
