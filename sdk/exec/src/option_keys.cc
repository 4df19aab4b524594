// Backend option keys (nnbridge/exec/option_keys.h).
#include "nnbridge/exec/option_keys.h"

#include <string>

#include "nnbridge/error.h"

namespace nnbridge::exec {

namespace {
std::string_view prefix_of(const std::string& key) {
  const std::size_t dot = key.find('.');
  return dot == std::string::npos ? std::string_view() : std::string_view(key).substr(0, dot);
}
}  // namespace

void check_option_keys(const BackendOptions& options, std::string_view backend, std::initializer_list<std::string_view> known) {
  std::string names;
  for (std::string_view k : known) names += (names.empty() ? "" : ", ") + std::string(backend) + "." + std::string(k);
  const std::string has = names.empty() ? "the " + std::string(backend) + " backend has no options"
                                        : "the " + std::string(backend) + " backend knows " + names;
  for (const auto& entry : options.options) {
    const std::string& key = entry.first;
    const std::string_view prefix = prefix_of(key);
    if (prefix.empty())
      throw Error(ErrorId::UnknownOption, "option \"" + key + "\" names no backend: backend options are <backend>.<key> (" + has + ")");
    if (prefix != backend) continue;  // another backend's
    const std::string_view rest = std::string_view(key).substr(prefix.size() + 1);
    bool found = false;
    for (std::string_view k : known) found = found || k == rest;
    if (!found) throw Error(ErrorId::UnknownOption, "unknown option \"" + key + "\" (" + has + ")");
  }
}

void check_option_backends(const BackendOptions& options) {
  for (const auto& entry : options.options) {
    const std::string& key = entry.first;
    const std::string_view prefix = prefix_of(key);
    if (!prefix.empty() && find_backend(prefix)) continue;
    std::string names;
    for (const auto& b : all_backends()) names += (names.empty() ? "" : ", ") + b->name();
    throw Error(ErrorId::UnknownOption, "option \"" + key + "\" names no backend: backend options are <backend>.<key> for a "
                                        "registered backend (" + names + ")");
  }
}

}  // namespace nnbridge::exec
