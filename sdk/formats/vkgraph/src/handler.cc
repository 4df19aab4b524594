// The two format handlers: "vkgraph" (bare flatbuffer) and "vkdelegate" (VH00 payload).
#include <cstring>
#include <filesystem>
#include <map>
#include <set>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/vkgraph.h"

namespace nnbridge::formats::vkgraph {

namespace {

bool magic_at_4(std::span<const std::byte> b, const char* magic) {
  return b.size() >= 8 && std::memcmp(b.data() + 4, magic, 4) == 0;
}

std::string option(const std::map<std::string, std::string, std::less<>>& o, const std::string& key) {
  auto it = o.find(key);
  return it == o.end() ? std::string() : it->second;
}

template <class T>
const T* find_as(const AttrMap& m, const std::string& k) {
  auto it = m.find(k);
  return it != m.end() && it->second.is<T>() ? &it->second.get<T>() : nullptr;
}

// A folder with one file per key (reader option <format>.named_data).
std::optional<NamedDataResolver> folder_resolver(const LoadOptions& o, const std::string& format) {
  const std::string dir = option(o.options, format + ".named_data");
  if (dir.empty()) return std::nullopt;
  if (!std::filesystem::is_directory(dir))
    throw Error(ErrorId::IoOpen, "the named-data folder " + dir + " (reader option " + format + ".named_data) does not exist or is not a "
                               "folder (a .ptd belongs to a .pte: read the .pte with it)");
  NamedDataResolver r;
  r.where = "the folder " + dir;
  r.how = "put a file named as the key there";
  r.find = [dir](const std::string& key) -> std::optional<Buffer> {
    if (key.find('/') != std::string::npos || key == "." || key == "..")
      throw Error(ErrorId::AttributeValue, "the named-data key \"" + key + "\" is not a file name");
    auto path = std::filesystem::path(dir) / key;
    if (!std::filesystem::exists(path)) return std::nullopt;
    auto file = MappedFile::open(path);
    return file->buffer(file);
  };
  return r;
}

std::string folder_hint(const std::string& format) {
  return "pass the folder holding one file per key with --named-data DIR (run, validate) or -I " + format +
         ".named_data=DIR (info, convert, dump), or read the .pte that holds them";
}

// The operator name of the OperatorCall a node was read from (`vk.name`); none for a node the
// reader made without one.
std::string operator_of(const Node& n) {
  const auto* name = find_as<std::string>(n.attrs, keys::kName);
  return name ? *name : std::string();
}

std::map<std::string, OptionDoc, std::less<>> reader_docs(const std::string& format) {
  auto docs = verifier_limit_option_docs(format);
  docs[format + ".named_data"] = {"a folder holding one file per named-data key, named as the key: the data of "
                                  "constants the payload refers to by key",
                                  "none: such constants are left without data"};
  return docs;
}

}  // namespace

Graph read_vkgraph(const Source& src, const LoadOptions& o) {
  const VerifierLimits limits = verifier_limits(o, "vkgraph");
  check_input_size(src.bytes.size(), limits, "vkgraph");
  RawGraph rg = decode(src.bytes, limits);
  auto named = folder_resolver(o, "vkgraph");
  return to_ir(rg, src, std::nullopt, "vkgraph", named ? &*named : nullptr, folder_hint("vkgraph"));
}

Graph read_delegate_payload(const Source& src, const LoadOptions& o, const std::string& limits_prefix,
                            const NamedDataResolver* named, const std::string& hint, const std::string& format) {
  const VerifierLimits limits = verifier_limits(o, limits_prefix);
  check_input_size(src.bytes.size(), limits, limits_prefix);
  const DelegateHeader h = parse_delegate_header(src.bytes);
  auto [offset, size] = constant_segment(h, src.bytes.size());
  try {
    RawGraph rg = decode(src.bytes.subspan(h.flatbuffer_offset, h.flatbuffer_size), limits);
    return to_ir(rg, src, Segment{offset, size}, format, named, hint);
  } catch (const Error& e) {
    // Places inside the flatbuffer read "flatbuffer.values[3]..." in payload messages.
    throw Error(e.id(), e.message(), {}, "flatbuffer" + (e.where().empty() ? "" : "." + e.where()));
  }
}

Graph read_delegate(const Source& src, const LoadOptions& o) {
  auto named = folder_resolver(o, "vkdelegate");
  return read_delegate_payload(src, o, "vkdelegate", named ? &*named : nullptr, folder_hint("vkdelegate"), "vkdelegate");
}

std::vector<uint8_t> write_vkgraph(const Graph& g, const SaveOptions& o) {
  const std::string mode = option(o.options, "vkgraph.constants");
  if (!mode.empty() && mode != "external")
    throw Error(ErrorId::OptionValue, "vkgraph.constants must be \"external\", not \"" + mode + "\"");
  Written w = from_ir(g, false);
  if (w.constants_with_data > 0 && mode.empty())
    throw Error(ErrorId::NoForm,
                std::to_string(w.constants_with_data) +
                    " constants have data, which a bare VkGraph cannot hold: write a vkdelegate payload, or pass "
                    "the writer option vkgraph.constants=external (nnbridge convert -O vkgraph.constants=external) to write "
                    "the table without the data");
  return encode(w.raw);
}

std::vector<uint8_t> write_delegate_payload(const Graph& g, const SaveOptions& o) { return write_delegate(g, o); }

std::vector<uint8_t> write_delegate(const Graph& g, const SaveOptions& o) {
  const std::string embed = option(o.options, "vkdelegate.embed_named_data");
  if (!embed.empty() && embed != "true" && embed != "false")
    throw Error(ErrorId::OptionValue, "vkdelegate.embed_named_data must be true or false, not \"" + embed + "\"");
  Written w = from_ir(g, true, embed == "true");
  const std::vector<uint8_t> fb = encode(w.raw);
  // ExecuTorch's serialize_vulkan_graph: header padded to 32, flatbuffer (no size prefix)
  // padded to 16, then the segment (each constant already padded to 16).
  const std::size_t header_len = 32, fb_len = (fb.size() + 15) / 16 * 16;
  if (header_len + fb_len > UINT32_MAX) throw Error(ErrorId::UnsupportedOther, "the flatbuffer is too large for the VH00 header");
  DelegateHeader h;
  h.flatbuffer_offset = static_cast<uint32_t>(header_len);
  h.flatbuffer_size = static_cast<uint32_t>(fb.size());
  h.bytes_offset = static_cast<uint32_t>(header_len + fb_len);
  h.bytes_size = w.segment.size();
  std::vector<uint8_t> out = encode_delegate_header(h);
  out.resize(header_len, 0);
  out.insert(out.end(), fb.begin(), fb.end());
  out.resize(header_len + fb_len, 0);
  out.insert(out.end(), w.segment.begin(), w.segment.end());
  return out;
}

std::vector<std::pair<std::string, Buffer>> named_constants(const Graph& g) {
  std::vector<std::pair<std::string, Buffer>> out;
  const auto* off = find_as<std::vector<int64_t>>(g.metadata, keys::kConstants + "offset");
  const auto* key = find_as<std::vector<std::string>>(g.metadata, keys::kConstants + "named_key");
  if (!off || !key || key->size() != off->size()) return out;
  std::map<std::size_t, const Buffer*> data;  // constants[] index -> the data of a tensor using it
  for (const Value& v : g.values)
    if (const auto* cid = find_as<int64_t>(v.attrs, keys::kConstantId); cid && v.constant && *cid >= 0)
      data.emplace(static_cast<std::size_t>(*cid), &*v.constant);
  std::set<std::string> seen;
  for (std::size_t k = 0; k < off->size(); ++k) {
    if (static_cast<uint64_t>((*off)[k]) != kNamedDataOffset || (*key)[k].empty()) continue;
    auto it = data.find(k);
    if (it != data.end() && seen.insert((*key)[k]).second) out.emplace_back((*key)[k], *it->second);
  }
  return out;
}

FormatHandler format_handler() {
  FormatHandler h;
  h.name = "vkgraph";
  h.description = "ExecuTorch Vulkan VkGraph flatbuffer (VK00, schema 1.4), without constant data";
  h.extensions = {"vkgraph"};
  h.reader_options = verifier_limit_options("vkgraph");
  h.reader_options.push_back("vkgraph.named_data");
  h.writer_options = {"vkgraph.constants"};
  h.option_docs = reader_docs("vkgraph");
  h.option_docs["vkgraph.constants"] = {"external: write the constants table of a graph whose constants have data, "
                                        "dropping the data (a bare VkGraph holds none)",
                                        "none: such a graph is refused"};
  h.native_op = operator_of;
  h.sniff = [](std::span<const std::byte> b) { return magic_at_4(b, "VK00"); };
  h.read = read_vkgraph;
  h.write = [](const Graph& g, const std::filesystem::path& path, const SaveOptions& o) {
    auto bytes = write_vkgraph(g, o);
    write_file_atomic(path, std::as_bytes(std::span<const uint8_t>(bytes)));
  };
  return h;
}

FormatHandler delegate_handler() {
  FormatHandler h;
  h.name = "vkdelegate";
  h.description = "ExecuTorch Vulkan delegate payload (VH00 header, VkGraph, constant segment)";
  h.extensions = {"vkdelegate"};
  h.reader_options = verifier_limit_options("vkdelegate");
  h.reader_options.push_back("vkdelegate.named_data");
  h.writer_options = {"vkdelegate.embed_named_data"};
  h.option_docs = reader_docs("vkdelegate");
  h.option_docs["vkdelegate.max_size"].meaning = "bytes of the whole payload read at most (1 to 2^31 - 1)";
  h.option_docs["vkdelegate.embed_named_data"] = {"true: put the data of named-data constants the graph holds into "
                                                  "the constant segment, so the payload runs alone",
                                                  "false"};
  h.native_op = operator_of;
  h.sniff = [](std::span<const std::byte> b) { return magic_at_4(b, "VH00"); };
  h.read = read_delegate;
  h.write = [](const Graph& g, const std::filesystem::path& path, const SaveOptions& o) {
    auto bytes = write_delegate(g, o);
    write_file_atomic(path, std::as_bytes(std::span<const uint8_t>(bytes)));
  };
  return h;
}

}  // namespace nnbridge::formats::vkgraph
