// Helpers shared by the subcommands.
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "nnbridge/attr_text.h"
#include "commands.h"
#include "nnbridge/error.h"
#include "nnbridge/io.h"
#include "nnbridge/npy.h"
#include "nnbridge/tensor_files.h"
#include "model_io.h"
#include "progress.h"

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

std::vector<std::string> npy_file_names(const std::vector<std::pair<std::string, TensorType>>& types, const char* what) {
  std::vector<std::string> names;
  for (const auto& [name, type] : types) names.push_back(name);
  const std::string_view role = std::string_view(what) == "graph output" ? "output" : "input";
  std::vector<std::string> files = tensor_file_stems(names, role);
  for (std::string& f : files) f += ".npy";
  return files;
}

TensorMap read_npy_folder(const std::string& dir, const std::vector<std::pair<std::string, TensorType>>& types,
                          const char* what) {
  namespace fs = std::filesystem;
  const fs::path folder = dir;
  std::error_code ec;
  if (!fs::exists(folder, ec)) throw Error(ErrorId::IoOpen, "no such folder", dir);
  if (!fs::is_directory(folder, ec)) throw Error(ErrorId::IoNotRegular, "not a folder (a folder of .npy files is expected)", dir);
  std::vector<std::string> file_names;
  try {
    file_names = npy_file_names(types, what);
  } catch (const Error& e) {
    throw e.with_file(dir);
  }
  const std::set<std::string> files(file_names.begin(), file_names.end());
  std::string names;
  for (const std::string& f : file_names) names += (names.empty() ? "" : ", ") + f;
  for (const auto& e : fs::directory_iterator(folder)) {
    const std::string f = e.path().filename().string();
    if (!files.count(f))
      // An input file the graph has no input for is MissingInput, as conformance and run() say;
      // an expected-output file the graph has no output for refers to nothing.
      throw Error(std::string_view(what) == "graph input" ? ErrorId::MissingInput : ErrorId::DanglingReference,
                  "\"" + f + "\" is not a " + what + " (" + what + " files: " + names +
                      "; '%' and '/' in a name are written %25 and %2F)", e.path().string());
  }
  TensorMap out;
  for (std::size_t k = 0; k < types.size(); ++k) {
    const auto& [name, type] = types[k];
    const fs::path p = folder / file_names[k];
    if (!fs::exists(p)) throw Error(ErrorId::MissingInput, "missing the file for " + std::string(what) + " \"" + name + "\"", p.string());
    HostTensor t = read_npy(p);
    // A dim the plan leaves -1 (an output shape the input values decide) takes the file's.
    bool fits = t.shape().size() == type.shape.size();
    for (std::size_t d = 0; fits && d < type.shape.size(); ++d) fits = type.shape[d] < 0 || type.shape[d] == t.shape()[d];
    if (!fits)
      throw Error(ErrorId::Shape, std::string(what) + " \"" + name + "\" needs shape " + shape_text(type) + ", the file has " +
                                          shape_text(t.type()), p.string());
    if (t.dtype() != storage_type(type.dtype))
      throw Error(ErrorId::TypeMismatch, std::string(what) + " \"" + name + "\" needs dtype " +
                                          std::string(to_string(storage_type(type.dtype))) + ", the file has " +
                                          std::string(to_string(t.dtype())), p.string());
    TensorType known = type;
    known.shape = t.shape();
    out[name] = HostTensor::from_buffer(known, t.buffer());
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

std::string attr_summary(const Attr& a, std::size_t max_items, std::size_t max_chars) {
  std::size_t items = 0;
  std::visit(
      [&](const auto& v) {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, std::vector<int64_t>> || std::is_same_v<T, std::vector<double>> ||
                      std::is_same_v<T, std::vector<bool>> || std::is_same_v<T, std::vector<std::string>>)
          items = v.size();
      },
      a.value);
  if (items > max_items) {
    // The first and last few elements of the JSON list, and the count.
    nlohmann::json j = nlohmann::json::parse(attr_text(a));
    std::string head, tail;
    const std::size_t keep = max_items / 2;
    for (std::size_t i = 0; i < keep; ++i) head += j[i].dump() + ", ";
    for (std::size_t i = items - keep; i < items; ++i) tail += ", " + j[i].dump();
    std::string s = "[" + head + "..." + tail + "] (" + std::to_string(items) + " items)";
    if (s.size() <= max_chars) return s;
    return "[...] (" + std::to_string(items) + " items)";
  }
  std::string s = attr_text(a);
  if (s.size() > max_chars) s = s.substr(0, max_chars) + "... (" + std::to_string(s.size()) + " characters)";
  return s;
}

std::uint64_t file_bytes(const std::string& path) {
  std::error_code ec;
  const auto n = std::filesystem::file_size(path, ec);
  return ec ? 0 : n;
}

Graph load_model(const std::string& path, const LoadOptions& options) {
  const std::uint64_t bytes = file_bytes(path);
  PhaseProgress progress(bytes);
  progress.phase("reading " + path + " (" + size_text(bytes) + ")");
  return load(path, options);
}

bool named_data_option(const std::string& model, const std::string& path, LoadOptions& o) {
  if (path.empty()) return true;
  // ExecuTorch keeps Vulkan constants outside the payload, by key (nnbridge/formats/vkgraph.h, pte.h).
  const std::string format = detect_format(model);
  if (format != "vkgraph" && format != "vkdelegate" && format != "pte") {
    std::cerr << "nnbridge: error: --named-data applies to vkgraph, vkdelegate and pte models, not " << format << "\n";
    return false;
  }
  o.options[format + ".named_data"] = path;
  return true;
}

bool make_output_folder(const std::filesystem::path& dir, const std::string& what) {
  namespace fs = std::filesystem;
  const std::string file = dir.string();
  // "out/" names the folder "out".
  const fs::path named = dir.has_filename() ? dir : dir.parent_path();
  std::error_code ec;
  if (fs::is_directory(named, ec)) return false;
  if (fs::exists(named, ec))
    throw Error(ErrorId::IoWrite, "cannot create the " + what + " folder: a file of that name is in the way", file);
  fs::path parent = named.parent_path();
  if (parent.empty()) parent = ".";
  if (!fs::is_directory(parent, ec)) {
    throw Error(ErrorId::IoNoFolder,
                "cannot create the " + what + " folder: " +
                    (fs::exists(parent, ec) ? parent.string() + " is not a folder"
                                            : "the folder " + parent.string() + " does not exist (create it first)"),
                file);
  }
  if (!fs::create_directory(named, ec) && !fs::is_directory(named))
    throw Error(ErrorId::IoWrite, "cannot create the " + what + " folder: " + ec.message(), file);
  return true;
}

void remove_created_folder(const std::filesystem::path& dir, bool created) noexcept {
  if (!created) return;
  std::error_code ec;
  std::filesystem::remove(dir.has_filename() ? dir : dir.parent_path(), ec);  // only an empty folder goes
}

}  // namespace nnbridge::cli
