// Helpers shared by the subcommands.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "commands.h"
#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "nnbridge/npy.h"

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

void check_file_name(const std::string& name, const char* what) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos || name.find('\0') != std::string::npos)
    throw Error(ErrorCode::Unsupported, std::string(what) + " \"" + name + "\" cannot be used as a file name");
}

TensorMap read_npy_folder(const std::string& dir, const std::vector<std::pair<std::string, TensorType>>& types,
                          const char* what) {
  namespace fs = std::filesystem;
  const fs::path folder = dir;
  if (!fs::is_directory(folder)) throw Error(ErrorCode::Io, "not a folder", dir);
  std::set<std::string> files;
  std::string names;
  for (const auto& [name, type] : types) {
    check_file_name(name, what);
    files.insert(name + ".npy");
    names += (names.empty() ? "" : ", ") + name;
  }
  for (const auto& e : fs::directory_iterator(folder)) {
    const std::string f = e.path().filename().string();
    if (!files.count(f))
      throw Error(ErrorCode::Invalid, "\"" + f + "\" is not a " + what + " (" + what + "s: " + names + ")", e.path().string());
  }
  TensorMap out;
  for (const auto& [name, type] : types) {
    const fs::path p = folder / (name + ".npy");
    if (!fs::exists(p)) throw Error(ErrorCode::Invalid, "missing the file for " + std::string(what) + " \"" + name + "\"", p.string());
    HostTensor t = read_npy(p);
    if (t.shape() != type.shape)
      throw Error(ErrorCode::Invalid, std::string(what) + " \"" + name + "\" needs shape " + shape_text(type) + ", the file has " +
                                          shape_text(t.type()), p.string());
    if (t.dtype() != storage_type(type.dtype))
      throw Error(ErrorCode::Invalid, std::string(what) + " \"" + name + "\" needs dtype " +
                                          std::string(to_string(storage_type(type.dtype))) + ", the file has " +
                                          std::string(to_string(t.dtype())), p.string());
    out[name] = HostTensor::from_buffer(type, t.buffer());
  }
  return out;
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
