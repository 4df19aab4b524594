// The position flatbuffers::Parser puts in front of its error text, split off by hand.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace nnbridge {

/// flatbuffers::Parser's error_ "<line>: <column>: error: <message>" (leading blanks allowed),
/// as its three parts; the message ends at the first newline. nullopt for text of another form.
/// Written without std::regex: libstdc++'s matcher recurses once per character, so a message
/// quoting a long piece of the input (a 40 KB unknown field name) overflowed the stack
/// (found by tests/fuzz/fuzz_armnn_json).
struct ParserMessage {
  std::string line, column, message;
};

inline std::optional<ParserMessage> split_parser_error(std::string_view e) {
  std::size_t i = 0;
  auto blanks = [&] {
    while (i < e.size() && (e[i] == ' ' || e[i] == '\t' || e[i] == '\n' || e[i] == '\r' || e[i] == '\f' || e[i] == '\v')) ++i;
  };
  auto number = [&](std::string& out) {
    const std::size_t start = i;
    while (i < e.size() && e[i] >= '0' && e[i] <= '9') ++i;
    out.assign(e.substr(start, i - start));
    return i > start;
  };
  auto eat = [&](std::string_view s) {
    if (e.substr(i, s.size()) != s) return false;
    i += s.size();
    return true;
  };
  ParserMessage m;
  blanks();
  if (!number(m.line) || !eat(":")) return std::nullopt;
  blanks();
  if (!number(m.column) || !eat(":")) return std::nullopt;
  blanks();
  if (!eat("error:")) return std::nullopt;
  blanks();
  const std::size_t end = e.find('\n', i);
  m.message.assign(e.substr(i, end == std::string_view::npos ? std::string_view::npos : end - i));
  return m;
}

}  // namespace nnbridge
