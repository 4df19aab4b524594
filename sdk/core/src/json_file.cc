// JSON form on disk: the document plus its sidecar in the same folder.
#include <cstring>
#include <nlohmann/json.hpp>
#include <vector>

#include "nnbridge/error.h"
#include "nnbridge/format.h"
#include "nnbridge/json.h"

namespace nnbridge {

namespace {
// The sidecar is named by the document: a plain file name, so a document cannot make the
// reader open files outside its own folder.
bool plain_file_name(const std::string& name) {
  return !name.empty() && name != "." && name != ".." && name.find('/') == std::string::npos &&
         name.find('\\') == std::string::npos && name.find('\0') == std::string::npos;
}

// True when `path` holds an IR JSON document (format "nnbridge-ir") whose "sidecar" is `name`:
// the sidecar file then belongs to the document a write replaces.
bool names_sidecar(const std::filesystem::path& path, const std::string& name) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) return false;
  try {
    auto mapped = MappedFile::open(path);
    auto bytes = mapped->bytes();
    const auto* p = reinterpret_cast<const char*>(bytes.data());
    const nlohmann::json j = nlohmann::json::parse(p, p + bytes.size(), nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) return false;
    auto f = j.find("format"), s = j.find("sidecar");
    return f != j.end() && *f == "nnbridge-ir" && s != j.end() && *s == name;
  } catch (const std::exception&) {
    return false;  // unreadable: not known to own the sidecar
  }
}
}  // namespace

Graph read_json_file(const std::filesystem::path& path) {
  const std::string file = path.string();
  auto mapped = MappedFile::open(path);
  auto bytes = mapped->bytes();
  std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  SidecarResolver resolve = [&](const std::string& name) -> Buffer {
    if (!plain_file_name(name))
      throw Error(ErrorId::MalformedOther, "must be a plain file name next to the document, not '" + name + "'", file,
                  "sidecar");
    auto side = MappedFile::open(path.parent_path() / name);
    return side->buffer(side);
  };
  Graph g = from_json_resolving(text, resolve, file);
  return g;
}

void write_json_file(const Graph& g, const std::filesystem::path& path, const JsonWriteOptions& options) {
  const std::string file = path.string();
  if (!options.sidecar.empty() && !plain_file_name(options.sidecar))
    throw Error(ErrorId::OptionValue, "the sidecar must be a plain file name, not '" + options.sidecar + "'", file);
  std::vector<std::byte> side;
  std::string text;
  try {
    text = to_json(g, options, &side);
  } catch (const Error& e) {
    throw e.with_file(file);
  }
  if (!side.empty() && !options.overwrite_sidecar) {
    const std::filesystem::path side_path = path.parent_path() / options.sidecar;
    std::error_code ec;
    if (std::filesystem::exists(std::filesystem::symlink_status(side_path, ec)) && !names_sidecar(path, options.sidecar))
      throw Error(ErrorId::IoWrite,
                  "would replace " + side_path.string() + ", which is not the sidecar of the document it replaces; remove it, "
                  "write elsewhere, or allow it (writer option json.overwrite_sidecar=true, `nnbridge convert --force`)",
                  file, "sidecar");
  }
  // Both written before either replaces anything; the sidecar renamed first, so the document
  // never names a sidecar that is not there yet.
  std::vector<FileContents> files;
  if (!side.empty()) files.push_back({path.parent_path() / options.sidecar, side});
  files.push_back({path, std::as_bytes(std::span(text.data(), text.size()))});
  write_files_atomic(files);
}

}  // namespace nnbridge
