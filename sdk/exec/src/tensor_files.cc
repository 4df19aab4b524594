// Tensor names as file names (nnbridge/tensor_files.h).
#include "nnbridge/tensor_files.h"

#include <map>

#include "nnbridge/error.h"

namespace nnbridge {

namespace {
bool folder_name(std::string_view n) { return n.empty() || n == "." || n == ".."; }
}  // namespace

std::optional<std::string> tensor_file_stem(std::string_view name) {
  if (folder_name(name)) return std::nullopt;
  std::string out;
  out.reserve(name.size());
  for (char c : name) {
    if (c == '%') out += "%25";
    else if (c == '/') out += "%2F";
    else if (c == '\0') out += "%00";
    else out += c;
  }
  return out;
}

std::optional<std::string> tensor_name_of_stem(std::string_view stem) {
  std::string out;
  out.reserve(stem.size());
  for (std::size_t i = 0; i < stem.size(); ++i) {
    const char c = stem[i];
    if (c == '/' || c == '\0') return std::nullopt;
    if (c != '%') {
      out += c;
      continue;
    }
    const std::string_view code = stem.substr(i + 1, 2);
    if (code == "25") out += '%';
    else if (code == "2F") out += '/';
    else if (code == "00") out += '\0';
    else return std::nullopt;
    i += 2;
  }
  if (folder_name(out)) return std::nullopt;
  return out;
}

std::vector<std::string> tensor_file_stems(const std::vector<std::string>& names, std::string_view role) {
  std::vector<std::string> stems;
  stems.reserve(names.size());
  std::map<std::string, std::size_t> owner;
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto stem = tensor_file_stem(names[i]);
    stems.push_back(stem ? *stem : std::string(role) + "_" + std::to_string(i));
    auto [it, fresh] = owner.emplace(stems.back(), i);
    if (!fresh)
      throw Error(ErrorId::DuplicateName,
                  "graph " + std::string(role) + "s " + std::to_string(it->second) + " (\"" + names[it->second] + "\") and " +
                      std::to_string(i) + " (\"" + names[i] + "\") would share the file " + stems.back() + ".npy");
  }
  return stems;
}

}  // namespace nnbridge
