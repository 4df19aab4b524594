// The `json` format: reading and writing the IR JSON form, with its sidecar for large constants.
#include "json_format.h"

#include <charconv>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>

#include "nnbridge/buffer.h"
#include "nnbridge/error.h"
#include "nnbridge/json.h"

namespace nnbridge::io_detail {
namespace {

/// SAX consumer that answers one question: is the top-level value an object whose
/// "format" member is the marker string? Returning false from a callback stops the parser,
/// which happens as soon as the answer is known.
class MarkerProbe {
 public:
  using json = nlohmann::json;
  bool found = false;

  bool null() { return scalar(); }
  bool boolean(bool) { return scalar(); }
  bool number_integer(json::number_integer_t) { return scalar(); }
  bool number_unsigned(json::number_unsigned_t) { return scalar(); }
  bool number_float(json::number_float_t, const json::string_t&) { return scalar(); }
  bool binary(json::binary_t&) { return scalar(); }
  bool string(json::string_t& s) {
    if (expect_marker_) {
      found = (s == kJsonFormatMarker);
      return false;
    }
    return depth_ > 0;
  }
  bool start_object(std::size_t) {
    if (expect_marker_) return false;
    ++depth_;
    return true;
  }
  bool end_object() { return --depth_ > 0; }
  bool start_array(std::size_t) {
    if (expect_marker_ || depth_ == 0) return false;
    ++depth_;
    return true;
  }
  bool end_array() { return --depth_ > 0; }
  bool key(json::string_t& k) {
    expect_marker_ = (depth_ == 1 && k == "format");
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }

 private:
  bool scalar() { return depth_ > 0 && !expect_marker_; }
  int depth_ = 0;
  bool expect_marker_ = false;
};

std::size_t parse_size_option(const SaveOptions& options, const std::string& key, std::size_t fallback,
                              const std::string& file) {
  auto it = options.options.find(key);
  if (it == options.options.end()) return fallback;
  const std::string& v = it->second;
  std::size_t out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || end != v.data() + v.size())
    throw Error(ErrorId::OptionValue, "option " + key + "=" + v + ": expected a non-negative integer", file);
  return out;
}

int parse_indent_option(const SaveOptions& options, const std::string& file) {
  auto it = options.options.find("json.indent");
  if (it == options.options.end()) return 2;
  const std::string& v = it->second;
  int out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || end != v.data() + v.size() || out < -1 || out > 16)
    throw Error(ErrorId::OptionValue, "option json.indent=" + v + ": expected an integer from -1 to 16", file);
  return out;
}

bool parse_bool_option(const SaveOptions& options, const std::string& key, const std::string& file) {
  auto it = options.options.find(key);
  if (it == options.options.end()) return false;
  if (it->second == "true" || it->second == "1") return true;
  if (it->second == "false" || it->second == "0") return false;
  throw Error(ErrorId::OptionValue, "option " + key + "=" + it->second + ": expected true or false", file);
}

/// `<stem>.bin` next to the JSON file; `<name>.bin` when the JSON file itself is named *.bin.
std::filesystem::path sidecar_path(const std::filesystem::path& json_path) {
  std::filesystem::path side = json_path;
  side.replace_extension(".bin");
  if (side == json_path) side = json_path.string() + ".bin";
  return side;
}

Graph read_json(const Source& src, const LoadOptions& options) {
  for (const auto& [key, value] : options.options)
    throw Error(ErrorId::UnknownOption, "the json reader has no option '" + key + "'", src.file);
  std::string_view text(reinterpret_cast<const char*>(src.bytes.data()), src.bytes.size());
  // The document names its sidecar; it is mapped from the JSON file's folder, so constants
  // stay in the mapping as they do for binary formats. In-memory input has no folder.
  SidecarResolver resolve = [&](const std::string& name) -> Buffer {
    if (src.path.empty())
      throw Error(ErrorId::Feature, "names a sidecar '" + name + "', which in-memory input cannot have",
                  src.file, "sidecar");
    if (name.empty() || name == "." || name == ".." || name.find_first_of(std::string("/\\\0", 3)) != std::string::npos)
      throw Error(ErrorId::MalformedOther, "must be a plain file name next to the document, not '" + name + "'",
                  src.file, "sidecar");
    const std::filesystem::path side_path = src.path.parent_path() / name;
    try {
      auto side = MappedFile::open(side_path);
      return side->buffer(side);
    } catch (const Error& e) {
      // Name the document (what the user asked to read) and the sidecar it points to.
      throw Error(e.id(), "cannot open the sidecar " + side_path.string() + ": " + e.message(), src.file,
                  "sidecar");
    }
  };
  // source_format stays as the document records it (the format the graph first came from):
  // writers use it to keep that format's schemes on a round trip through JSON.
  return from_json_resolving(text, resolve, src.file);
}

void write_json(const Graph& g, const std::filesystem::path& path, const SaveOptions& options) {
  const std::string file = path.string();
  JsonWriteOptions jo;
  jo.inline_limit = parse_size_option(options, "json.inline_limit", jo.inline_limit, file);
  jo.indent = parse_indent_option(options, file);
  jo.sidecar = sidecar_path(path).filename().string();
  jo.overwrite_sidecar = parse_bool_option(options, "json.overwrite_sidecar", file);
  // Writes the sidecar (when some constant is above the limit) before the JSON, both atomically.
  write_json_file(g, path, jo);
}

}  // namespace

bool sniff_json_ir(std::span<const std::byte> bytes) {
  const char* p = reinterpret_cast<const char*>(bytes.data());
  const char* end = p + bytes.size();
  if (end - p >= 3 && static_cast<unsigned char>(p[0]) == 0xEF && static_cast<unsigned char>(p[1]) == 0xBB &&
      static_cast<unsigned char>(p[2]) == 0xBF)
    p += 3;
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) ++p;
  if (p == end || *p != '{') return false;  // cheap reject of binary files before any parsing
  MarkerProbe probe;
  try {
    nlohmann::json::sax_parse(p, end, &probe, nlohmann::json::input_format_t::json, false);
  } catch (...) {
    return false;
  }
  return probe.found;
}

FormatHandler json_format_handler() {
  FormatHandler h;
  h.name = "json";
  h.description = "nnbridge IR in JSON (constants inline as base64, large ones in a <stem>.bin sidecar)";
  h.extensions = {"json"};
  h.writer_options = {"json.inline_limit", "json.indent", "json.overwrite_sidecar"};
  h.option_docs = {
      {"json.inline_limit", {"constants up to this many bytes are inline (base64); larger ones go to <stem>.bin", "4096"}},
      {"json.indent", {"spaces per level, 0 to 16; -1 writes one line", "2"}},
      {"json.overwrite_sidecar",
       {"true: replace a <stem>.bin that is not the sidecar of the JSON being replaced (nnbridge convert --force)", "false"}},
  };
  h.sniff = sniff_json_ir;
  h.read = read_json;
  h.write = write_json;
  return h;
}

}  // namespace nnbridge::io_detail
