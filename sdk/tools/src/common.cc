// Helpers shared by the subcommands.
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.h"
#include "nnbridge/io.h"

namespace nnbridge::cli {

std::map<std::string, std::string, std::less<>> key_values(const std::vector<std::string>& args) {
  std::map<std::string, std::string, std::less<>> out;
  for (const std::string& a : args) {
    auto eq = a.find('=');
    out[a.substr(0, eq)] = a.substr(eq + 1);
  }
  return out;
}

std::string check_key_value(const std::string& arg) {
  auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0) return "expected key=value, got '" + arg + "'";
  return {};
}

std::string resolve_format_name(const std::string& arg) {
  if (const FormatHandler* h = find_format(arg)) return h->name;
  if (const FormatHandler* h = find_format_by_extension(arg)) return h->name;
  return {};
}

std::string check_format_name(const std::string& arg) {
  if (!resolve_format_name(arg).empty()) return {};
  std::string known;
  for (const FormatHandler* h : all_formats()) known += (known.empty() ? "" : ", ") + h->name;
  return "unknown format '" + arg + "' (known: " + known + ")";
}

std::string shape_text(const TensorType& t) {
  if (t.unknown_rank) return "[*]";
  std::string s = "[";
  for (std::size_t i = 0; i < t.shape.size(); ++i) {
    if (i) s += ", ";
    s += t.shape[i] < 0 ? std::string("?") : std::to_string(t.shape[i]);
  }
  return s + "]";
}

std::string attr_text(const Attr& a) {
  if (a.is<Bytes>()) return "<" + std::to_string(a.get<Bytes>().data.size()) + " bytes>";
  nlohmann::json j;
  std::visit(
      [&](const auto& v) {
        if constexpr (!std::is_same_v<std::decay_t<decltype(v)>, Bytes>) j = v;
      },
      a.value);
  return j.dump();
}

}  // namespace nnbridge::cli
