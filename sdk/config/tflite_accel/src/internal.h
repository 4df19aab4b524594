// Internals of config/tflite_accel: the schema twins and the codecs of each form.
#pragma once

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/check.h"
#include "nnbridge/config/tflite_accel.h"

namespace reflection {
struct Schema;
struct Object;
struct Field;
}  // namespace reflection

namespace nnbridge::config::tflite_accel::detail {

namespace pb = google::protobuf;

// ---- schema.cc: configuration.proto and its FlatBuffer twin ----

/// The descriptor of configuration.proto (protoc's generated pool).
const pb::FileDescriptor& proto_file();
/// The message for a name resolve_message_name() accepts; nullptr when none.
const pb::Descriptor* find_message(std::string_view name);
/// "TFLiteSettings", "BenchmarkResult.InferenceOutput": the name inside the package.
std::string short_name(const pb::Descriptor& d);
/// The twin's binary schema (flatc --binary --schema output, embedded).
const reflection::Schema& fb_schema();
/// The twin's schema text (flatc --proto output after the namespace rename, embedded).
std::string_view fbs_text();
/// The twin's name of a message: tflite.proto.Outer.Inner → tflite.Outer_.Inner.
std::string fb_name(const pb::Descriptor& d);
/// The twin table of a message and the twin field of a field. Both are matched once, by
/// name, for the whole file, and their types checked against each other (std::logic_error
/// when the generated schemas disagree: a build fault, not bad input).
const reflection::Object& fb_object(const pb::Descriptor& d);
const reflection::Field& fb_field(const pb::FieldDescriptor& f);

// ---- paths ----

/// "a.b" / "b" when `parent` is empty.
std::string join(const std::string& parent, std::string_view field);
/// "a.b[3]".
std::string index(const std::string& path, std::size_t i);

// ---- unknown fields (unknown.cc) ----

/// An unknown field somewhere in a message tree.
struct UnknownAt {
  std::string path;         ///< the path of the field it stands for (or "<parent>.#<tag>")
  int number = 0;           ///< its tag
  const pb::FieldDescriptor* field = nullptr;  ///< the schema field with that tag, if any
  bool is_varint = false;
  std::uint64_t varint = 0;
};
/// Every unknown field of `m` and (with `recursive`) of its sub-messages, in tree order.
std::vector<UnknownAt> unknown_fields(const pb::Message& m, const std::string& path = {}, bool recursive = true);
/// Text for a warning or an error about `u` (what it is and which forms keep it).
std::string describe(const UnknownAt& u);
/// True when the varint of `u` is an int32 as the wire writes one (sign-extended to 64 bits).
bool varint_is_int32(const UnknownAt& u);
/// True when `u` is a single int32 value of a non-repeated enum field, which fb/fb-json can
/// hold (a message holding two for one field is refused by to_fb: the twin holds one).
bool fb_can_hold(const UnknownAt& u);

/// The length of the valid UTF-8 sequence at s[i] (strict: no overlong forms, no surrogates,
/// nothing above U+10FFFF), 0 when there is none.
std::size_t utf8_length(std::string_view s, std::size_t i);
/// The path of the first string field (not bytes) that is not valid UTF-8, if any. Protobuf's
/// JSON printer silently drops such bytes and flatbuffers::Parser rejects them, so the JSON
/// forms refuse to write them.
std::optional<std::string> first_non_utf8(const pb::Message& m, const std::string& path = {});

// ---- fb_codec.cc: proto message <-> FlatBuffer bytes ----

/// The message as a FlatBuffer of its twin table. Throws Error(Unsupported) naming the field
/// for unknown fields the twin cannot hold.
std::string to_fb(const pb::Message& m);
/// Verifies `bytes` as a FlatBuffer whose root is the twin of m's type and reads it into `m`
/// (cleared first). Throws Error(Malformed) when verification fails, Error(Unsupported)
/// naming the field for what protobuf cannot hold; appends warnings.
void from_fb(std::string_view bytes, pb::Message& m, std::vector<Issue>& warnings, const std::string& file,
             const VerifierLimits& limits);

// ---- fb_json.cc ----

/// FlatBuffers JSON of a FlatBuffer produced by to_fb() (trusted), root `d`.
std::string fb_to_json(std::string_view fb, const pb::Descriptor& d);
/// Parses FlatBuffers JSON with root `d` as TFLite does (flatbuffers::Parser on the twin's
/// schema; one JSON object, no schema declarations) and returns the FlatBuffer it builds;
/// fields written in the JSON are present even at their default. Throws Error(Malformed) with
/// the parser's line, column and message. Reuses pooled parsers (thread-safe).
std::string fb_json_to_fb(std::string_view json, const pb::Descriptor& d, const std::string& file);

// ---- proto_forms.cc ----

void parse_proto(std::string_view bytes, Form form, pb::Message& m, const std::string& file,
                 const VerifierLimits& limits);
std::string print_proto(const pb::Message& m, Form form);

// ---- settings.cc: the message behind a Settings ----

/// The root message of `s`.
const pb::Message& message_of(const Settings& s);
/// A Settings holding `m` (no warnings).
Settings make_settings(std::unique_ptr<pb::Message> m);

// ---- checks.cc ----

std::vector<Issue> run_checks(const pb::Message& root);

}  // namespace nnbridge::config::tflite_accel::detail
