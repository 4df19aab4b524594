// A tiny test-only format, "toy", so that the registry and load/save can be tested on bytes
// whose meaning the test itself defines: "TOY1" followed by a name and the constant data
// "<name>\n<data>". The reader makes one uint8 constant value named <name> holding <data>.
#pragma once

#include <cstring>
#include <string>

#include "nnbridge/error.h"
#include "nnbridge/format.h"

namespace nnbridge::test {

inline bool toy_sniff(std::span<const std::byte> b) {
  return b.size() >= 4 && std::memcmp(b.data(), "TOY1", 4) == 0;
}

inline FormatHandler toy_format(std::string description = "test format") {
  FormatHandler h;
  h.name = "toy";
  h.description = std::move(description);
  h.extensions = {"toy"};
  h.writer_options = {"toy.fail"};
  h.sniff = toy_sniff;
  h.read = [](const Source& src, const LoadOptions&) {
    if (!toy_sniff(src.bytes)) throw Error(ErrorCode::Malformed, "bad magic", {}, "header.magic");
    std::string_view text(reinterpret_cast<const char*>(src.bytes.data()) + 4, src.bytes.size() - 4);
    auto nl = text.find('\n');
    if (nl == std::string_view::npos) throw Error(ErrorCode::Malformed, "no newline after the name", {}, "name");
    Graph g;
    Value v;
    v.name = std::string(text.substr(0, nl));
    v.type.dtype = DataType::UInt8;
    const std::size_t data_off = 4 + nl + 1;
    v.type.shape = {static_cast<int64_t>(src.bytes.size() - data_off)};
    v.constant = src.view(data_off, src.bytes.size() - data_off);
    g.add_value(std::move(v));
    return g;
  };
  h.write = [](const Graph& g, const std::filesystem::path& path, const SaveOptions& o) {
    if (o.options.count("toy.fail")) throw Error(ErrorCode::Unsupported, "asked to fail", {}, "values[0]");
    std::string out = "TOY1" + (g.values.empty() ? std::string() : g.values[0].name) + "\n";
    if (!g.values.empty() && g.values[0].constant)
      out.append(reinterpret_cast<const char*>(g.values[0].constant->data()), g.values[0].constant->size());
    write_file_atomic(path, std::as_bytes(std::span(out.data(), out.size())));
  };
  return h;
}

}  // namespace nnbridge::test
