// load(), save(), detect_format(): choosing a format and naming the file in every error.
#include <algorithm>
#include <cctype>
#include <utility>
#include <vector>

#include "nnbridge/buffer.h"
#include "nnbridge/error.h"
#include "nnbridge/order.h"
#include "nnbridge/io.h"

namespace nnbridge {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

const FormatHandler* sniff(std::span<const std::byte> bytes) {
  for (const FormatHandler* h : all_formats()) {
    if (!h->sniff) continue;
    try {
      if (h->sniff(bytes)) return h;
    } catch (...) {
      // A sniffer that chokes on foreign bytes simply does not claim them.
    }
  }
  return nullptr;
}

const FormatHandler* named(std::string_view name, const std::string& file) {
  const FormatHandler* h = find_format(name);
  if (!h) throw Error(ErrorId::UnknownFormat, "unknown format '" + std::string(name) + "' (see `nnbridge formats`)", file);
  return h;
}

/// The options of `h`'s reader or writer, one per line with its meaning and default, for the
/// message refusing an option it does not have.
std::string option_list(const FormatHandler& h, const std::vector<std::string>& known, const char* kind) {
  if (known.empty()) return "the " + h.name + " " + kind + " has no options";
  std::string list = "the " + h.name + " " + kind + "'s options:";
  for (const auto& k : known) {
    list += "\n  " + k;
    auto d = h.option_docs.find(k);
    if (d == h.option_docs.end()) continue;
    list += ": " + d->second.meaning;
    if (!d->second.default_value.empty()) list += " (default: " + d->second.default_value + ")";
  }
  return list;
}

/// Options are namespaced by format ("armnn.layout"); one meant for another format is
/// almost always a mistake on the command line, so it is refused rather than ignored.
/// The message lists the options the format has, with their meanings.
void check_option_names(const std::map<std::string, std::string, std::less<>>& options,
                        const FormatHandler& h, const std::string& file, const char* kind) {
  const std::string prefix = h.name + ".";
  const auto& known = std::string(kind) == "reader" ? h.reader_options : h.writer_options;
  for (const auto& [key, value] : options) {
    if (key.compare(0, prefix.size(), prefix) != 0)
      throw Error(ErrorId::UnknownOption,
                  std::string(kind) + " option '" + key + "' does not belong to format '" + h.name + "'; " +
                      option_list(h, known, kind),
                  file);
    if (std::find(known.begin(), known.end(), key) == known.end())
      throw Error(ErrorId::UnknownOption,
                  "the " + h.name + " " + kind + " has no option '" + key + "'; " + option_list(h, known, kind), file);
  }
}

/// Runs a reader or writer and makes sure an Error it throws names the file.
template <class F>
auto naming_file(const std::string& file, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const Error& e) {
    if (e.file().empty() && !file.empty()) throw e.with_file(file);
    throw;
  }
}

Graph read_with(const FormatHandler& h, const Source& src, const LoadOptions& options) {
  if (!h.read) throw Error(ErrorId::Feature, "format '" + h.name + "' cannot be read", src.file);
  check_option_names(options.options, h, src.file, "reader");
  Graph g = naming_file(src.file, [&] { return h.read(src, options); });
  if (g.source_format.empty()) g.source_format = h.name;
  return g;
}

}  // namespace

const FormatHandler* find_format_by_extension(std::string_view extension) {
  if (!extension.empty() && extension.front() == '.') extension.remove_prefix(1);
  if (extension.empty()) return nullptr;
  const std::string ext = lower(extension);
  for (const FormatHandler* h : all_formats())
    for (const std::string& e : h->extensions)
      if (lower(e) == ext) return h;
  return nullptr;
}

const FormatHandler* find_format_by_path(const std::filesystem::path& path) {
  const std::string name = lower(path.filename().string());
  const FormatHandler* best = nullptr;
  size_t best_len = 0;
  for (const FormatHandler* h : all_formats())
    for (const std::string& e : h->extensions) {
      const std::string ext = "." + lower(e);
      // A whole extension after a non-empty stem: ".json" alone names no format.
      if (name.size() > ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0 &&
          ext.size() > best_len)
        best = h, best_len = ext.size();
    }
  return best;
}

Graph load(const std::filesystem::path& path, const LoadOptions& options) {
  const std::string file = path.string();
  const FormatHandler* h = nullptr;
  if (!options.format.empty()) h = named(options.format, file);
  auto mapped = naming_file(file, [&] { return MappedFile::open(path); });
  if (!h) h = sniff(mapped->bytes());
  if (!h) h = find_format_by_path(path);
  if (!h)
    throw Error(ErrorId::UnknownFormat,
                "unknown format: the content matches no known format and the extension names none", file);
  Source src{mapped->bytes(), mapped, file, path};
  return read_with(*h, src, options);
}

Graph load(std::span<const std::byte> bytes, std::string_view format, const LoadOptions& options,
           std::shared_ptr<const void> owner) {
  std::string name(format);
  if (name.empty()) name = options.format;
  const FormatHandler* h = name.empty() ? sniff(bytes) : named(name, {});
  if (!h) throw Error(ErrorId::UnknownFormat, "unknown format: the content matches no known format");
  if (!owner) {
    // Copy so that the graph's constants (views into the bytes) outlive the caller's buffer.
    auto copy = std::make_shared<std::vector<std::byte>>(bytes.begin(), bytes.end());
    bytes = std::span<const std::byte>(copy->data(), copy->size());
    owner = std::move(copy);
  }
  Source src{bytes, std::move(owner), {}, {}};
  return read_with(*h, src, options);
}

void save(const Graph& g, const std::filesystem::path& path, const SaveOptions& options) {
  const std::string file = path.string();
  const FormatHandler* h = nullptr;
  if (!options.format.empty()) h = named(options.format, file);
  if (!h) h = find_format_by_path(path);
  if (!h)
    throw Error(ErrorId::UnknownFormat,
                "cannot tell the output format: name one, or use a known extension (see `nnbridge formats`)", file);
  if (!h->write) throw Error(ErrorId::Feature, "format '" + h->name + "' cannot be written", file);
  check_option_names(options.options, *h, file, "writer");
  // A writer never writes what a reader refuses: a cyclic data flow is Error(Invalid) naming a
  // node on the cycle, for every format (each reader rejects cycles).
  naming_file(file, [&] { (void)topological_order(g); });
  naming_file(file, [&] { h->write(g, path, options); });
}

std::string detect_format(const std::filesystem::path& path) {
  const std::string file = path.string();
  auto mapped = naming_file(file, [&] { return MappedFile::open(path); });
  const FormatHandler* h = sniff(mapped->bytes());
  if (!h) h = find_format_by_path(path);
  if (!h)
    throw Error(ErrorId::UnknownFormat,
                "unknown format: the content matches no known format and the extension names none", file);
  return h->name;
}

}  // namespace nnbridge
