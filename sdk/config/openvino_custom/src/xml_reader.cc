// The problem list, line numbers and attribute helpers shared by the layer parsers.
#include <algorithm>

#include "internal.h"

namespace nnbridge::config::openvino_custom::detail {

void Problems::throw_if_any() const {
  if (lines_.empty()) return;
  std::string msg = std::to_string(lines_.size()) + (lines_.size() == 1 ? " problem" : " problems") + " in custom-layer XML:";
  for (const std::string& l : lines_) msg += "\n  " + l;
  ErrorId id = ids_.front();
  for (ErrorId other : ids_)
    if (other != id || code_of(other) != ErrorCode::Invalid) id = ErrorId::InvalidOther;
  throw Error(id, msg, file_);
}

Lines::Lines(std::string_view text) {
  starts_.push_back(0);
  for (std::size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n') starts_.push_back(i + 1);
}

int Lines::line_of(std::ptrdiff_t offset) const {
  if (offset < 0) return 0;
  auto it = std::upper_bound(starts_.begin(), starts_.end(), static_cast<std::size_t>(offset));
  return static_cast<int>(it - starts_.begin());
}

void Context::only_attributes(const pugi::xml_node& n, std::initializer_list<const char*> allowed) const {
  for (const pugi::xml_attribute& a : n.attributes()) {
    const std::string_view name = a.name();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* s) { return name == s; })) {
      std::string list;
      for (const char* s : allowed) list += (list.empty() ? "" : ", ") + std::string(s);
      error(n, tag(n) + " has an unknown attribute \"" + std::string(name) + "\"" +
                   (list.empty() ? " (it takes none)" : " (known: " + list + ")"), ErrorId::AttributeValue);
    }
  }
}

void Context::only_children(const pugi::xml_node& n, std::initializer_list<const char*> allowed) const {
  for (const pugi::xml_node& child : n.children()) {
    if (child.type() == pugi::node_pcdata || child.type() == pugi::node_cdata) {
      const std::string_view text = child.value();
      if (std::any_of(text.begin(), text.end(), [](char ch) { return !std::isspace(static_cast<unsigned char>(ch)); }))
        error(n, tag(n) + " holds text, which the format does not define", ErrorId::InvalidOther);
      continue;
    }
    if (child.type() != pugi::node_element) continue;
    const std::string_view name = child.name();
    if (std::none_of(allowed.begin(), allowed.end(), [&](const char* s) { return name == s; })) {
      std::string list;
      for (const char* s : allowed) list += (list.empty() ? "" : ", ") + std::string(s);
      error(child, "unknown element " + tag(child) + " in " + tag(n) +
                       (list.empty() ? " (it takes none)" : " (known: " + list + ")"), ErrorId::InvalidOther);
    }
  }
}

std::vector<pugi::xml_node> Context::children(const pugi::xml_node& n, const char* name) {
  std::vector<pugi::xml_node> out;
  for (pugi::xml_node c = n.child(name); c; c = c.next_sibling(name)) out.push_back(c);
  return out;
}

std::optional<std::string> Context::required(const pugi::xml_node& n, const char* attr) const {
  const pugi::xml_attribute a = n.attribute(attr);
  if (!a) {
    error(n, tag(n) + " has no " + attr + " attribute", ErrorId::AttributeValue);
    return std::nullopt;
  }
  if (!*a.value()) {
    error(n, tag(n) + " has an empty " + attr + " attribute", ErrorId::AttributeValue);
    return std::nullopt;
  }
  return std::string(a.value());
}

std::optional<int> Context::index(const pugi::xml_node& n, const char* attr, bool required_attr) const {
  const pugi::xml_attribute a = n.attribute(attr);
  if (!a) {
    if (required_attr) error(n, tag(n) + " has no " + attr + " attribute", ErrorId::AttributeValue);
    return std::nullopt;
  }
  const std::string_view v = a.value();
  if (v.empty() || v.size() > 6 || !std::all_of(v.begin(), v.end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
    error(n, tag(n) + " " + attr + "=\"" + std::string(v) + "\" is not a non-negative integer below 1000000", ErrorId::AttributeValue);
    return std::nullopt;
  }
  return std::stoi(std::string(v));
}

}  // namespace nnbridge::config::openvino_custom::detail
