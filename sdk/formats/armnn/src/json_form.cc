// Format "armnn-json": flatc's JSON of an Arm NN SerializedGraph.
//
// Reading compiles the text with flatbuffers::Parser against the embedded ArmnnSchema.fbs (so
// it accepts exactly what `flatc -b` accepts and yields the same bytes), then reads those bytes
// with the binary reader: both forms give one IR. Writing runs the binary writer and prints
// the buffer from the reflection schema (fb_text.h).
#include <flatbuffers/idl.h>

#include <cctype>
#include <memory>
#include <string_view>

#include "armnn/ArmnnSchema_generated.h"
#include "fb_text.h"
#include "fields.h"
#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/armnn.h"
#include "nnbridge/parser_message.h"

namespace nnbridge::formats::armnn {

namespace embedded {
extern const unsigned char armnn_schema_fbs[];
extern const std::size_t armnn_schema_fbs_size;
}  // namespace embedded

namespace {

constexpr const char* kName = "armnn-json";

// The writer options of the binary format that carry over ("armnn-json.X" -> "armnn.X").
// Not armnn.fileIdentifier: flatc -b always writes the schema's identifier.
const std::vector<std::string>& forwarded_writer_options() {
  static const std::vector<std::string> v = {"bindingIdsScheme", "weightsLayoutScheme", "constantTensorsAsInputs"};
  return v;
}

// Skips whitespace and the comments flatbuffers::Parser skips (// and /* */).
const char* skip_blank(const char* p, const char* end) {
  for (;;) {
    while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
    if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
      while (p < end && *p != '\n') ++p;
    } else if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
      const char* q = p + 2;
      while (end - q >= 2 && !(q[0] == '*' && q[1] == '/')) ++q;
      p = end - q >= 2 ? q + 2 : end;
    } else {
      return p;
    }
  }
}

// True when `text` holds `key` used as a JSON key (quoted or not, then ':').
bool has_key(std::string_view text, std::string_view key) {
  for (size_t at = text.find(key); at != std::string_view::npos; at = text.find(key, at + 1)) {
    size_t b = at, e = at + key.size();
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if (b > 0 && ident(text[b - 1])) continue;
    if (e < text.size() && ident(text[e])) continue;
    if (e < text.size() && text[e] == '"') ++e;
    while (e < text.size() && std::isspace(static_cast<unsigned char>(text[e]))) ++e;
    if (e < text.size() && text[e] == ':') return true;
  }
  return false;
}

// A JSON object whose first 64 KiB use SerializedGraph's keys: `layers` and an AnyLayer's
// `layer_type`. nnbridge's own IR JSON has neither (and the `json` format claims it first).
bool sniff(std::span<const std::byte> bytes) {
  const char* p = reinterpret_cast<const char*>(bytes.data());
  const char* end = p + bytes.size();
  if (end - p >= 3 && static_cast<unsigned char>(p[0]) == 0xEF && static_cast<unsigned char>(p[1]) == 0xBB &&
      static_cast<unsigned char>(p[2]) == 0xBF)
    p += 3;
  p = skip_blank(p, end);
  if (p == end || *p != '{') return false;
  std::string_view head(p, size_t(std::min<std::ptrdiff_t>(end - p, 64 * 1024)));
  return has_key(head, "layers") && has_key(head, "layer_type");
}

std::string schema_text() {
  return std::string(reinterpret_cast<const char*>(embedded::armnn_schema_fbs), embedded::armnn_schema_fbs_size);
}

// A parser holding the schema. flatc's defaults (IDLOptions()), so that the bytes are flatc -b's;
// without the style warnings on the schema's camelCase names, which would fill every message.
std::unique_ptr<flatbuffers::Parser> schema_parser() {
  flatbuffers::IDLOptions opts;
  opts.no_warnings = true;
  auto parser = std::make_unique<flatbuffers::Parser>(opts);
  const std::string text = schema_text();
  if (!parser->Parse(text.c_str()))
    throw Error(ErrorId::InvalidOther, "the embedded ArmnnSchema.fbs does not parse: " + parser->error_);
  return parser;
}

Graph read(const Source& src, const LoadOptions& o) {
  const VerifierLimits limits = verifier_limits(o, kName);
  check_input_size(src.bytes.size(), limits, kName);
  std::string_view text(reinterpret_cast<const char*>(src.bytes.data()), src.bytes.size());
  // The parser stops at the first NUL byte; a file with one is not what it would read.
  if (auto nul = text.find('\0'); nul != std::string_view::npos)
    throw Error(ErrorId::Syntax, "a NUL byte in the JSON text", src.file, "byte " + std::to_string(nul));
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  auto parser = schema_parser();
  const std::string owned(text);
  if (!parser->Parse(owned.c_str())) {
    // flatbuffers::Parser reports "<line>: <column>: error: <message>".
    if (auto m = split_parser_error(parser->error_))
      throw Error(ErrorId::Syntax, m->message, src.file, "line " + m->line + ", column " + m->column);
    throw Error(ErrorId::Syntax, parser->error_, src.file);
  }
  if (parser->builder_.GetSize() == 0)
    throw Error(ErrorId::Syntax, "holds no JSON object (flatc JSON of an Arm NN SerializedGraph expected)",
                src.file);
  auto bytes = std::make_shared<std::vector<uint8_t>>(parser->builder_.GetBufferPointer(),
                                                      parser->builder_.GetBufferPointer() + parser->builder_.GetSize());
  Source bin{std::as_bytes(std::span<const uint8_t>(*bytes)), bytes, src.file, src.path};
  LoadOptions bo;
  bo.limits = limits;
  bo.limits.max_size = VerifierLimits{}.max_size;  // the bound applied to the text above
  Graph g = read_graph(bin, bo);
  g.source_format = kName;
  return g;
}

void write(const Graph& g, const std::filesystem::path& path, const SaveOptions& o) {
  SaveOptions bo;
  for (const auto& [k, v] : o.options) bo.options["armnn." + k.substr(std::string_view(kName).size() + 1)] = v;
  const std::vector<uint8_t> bytes = write_graph(g, bo);
  const auto& root = *flatbuffers::GetRoot<flatbuffers::Table>(bytes.data());
  const std::string text = table_to_json(schema(), object("armnnSerializer.SerializedGraph"), root);
  write_file_atomic(path, std::as_bytes(std::span<const char>(text.data(), text.size())));
}

}  // namespace

FormatHandler json_format_handler() {
  FormatHandler h;
  h.name = kName;
  h.description = "Arm NN SerializedGraph as flatc JSON (ArmnnSchema.fbs; flatc's non-strict JSON accepted)";
  h.extensions = {"armnn.json"};
  h.reader_options = verifier_limit_options(kName);
  for (const auto& k : forwarded_writer_options()) h.writer_options.push_back(std::string(kName) + "." + k);
  h.option_docs = verifier_limit_option_docs(kName);
  h.option_docs[std::string(kName) + ".max_size"].meaning = "bytes of JSON text read at most; a larger file is refused naming this option";
  h.option_docs.merge(writer_option_docs(kName));
  h.native_op = format_handler().native_op;
  h.sniff = sniff;
  h.read = read;
  h.write = write;
  return h;
}

}  // namespace nnbridge::formats::armnn
