// Helpers for the TFLite acceleration settings tests: messages filled by walking descriptors,
// and protoc/flatc run as independent tools.
#pragma once

#include <google/protobuf/message.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <doctest/doctest.h>

#include "nnbridge/check.h"
#include "nnbridge/error.h"
#include "nnbridge/config/tflite_accel.h"

namespace nnbridge::test::tflite_accel {

namespace ta = nnbridge::config::tflite_accel;
namespace pb = google::protobuf;

constexpr ta::Form kForms[] = {ta::Form::ProtoBinary, ta::Form::ProtoText, ta::Form::ProtoJson, ta::Form::Fb,
                               ta::Form::FbJson};

/// A new, empty generated message of configuration.proto by package-relative name.
std::unique_ptr<pb::Message> new_message(const std::string& name);

/// How fill() sets each field.
enum class Fill {
  Distinct,  ///< a value that is not the default, differs between fields, and probes the forms
             ///< (negative and > 2^53 integers, floats that need 9 digits, quotes, UTF-8, all bytes)
  Defaults,  ///< each field explicitly set to its default value (presence must survive)
};
/// Sets every field of `m` and of its sub-messages (repeated fields get two elements),
/// walking the descriptor: a field added to the schema is filled too.
void fill(pb::Message& m, Fill mode);

/// The messages no other message holds (ComputeSettings, MiniBenchmarkEvent, ...), found by
/// walking the descriptors; filled, they hold every message of the file between them.
std::vector<std::string> root_messages();
/// The package-relative names of the message types present in `m` (itself included).
std::vector<std::string> message_types_in(const pb::Message& m);

/// Parses protobuf text with libprotobuf directly (no nnbridge code) into message `name`.
std::unique_ptr<pb::Message> from_text(const std::string& name, const std::string& text);

/// "08 04 2a 04": bytes as spaced hex.
std::string hex(const std::string& bytes);

/// `protoc --encode=tflite.proto.<name>` of `text`; nullopt (with a message) when protoc fails.
std::optional<std::string> protoc_encode(const std::string& name, const std::string& text);
/// `protoc --decode=tflite.proto.<name>` of `bytes`.
std::optional<std::string> protoc_decode(const std::string& name, const std::string& bytes);
/// `flatc --json --strict-json --raw-binary` of `fb` with root tflite.<name> against the
/// generated twin; nullopt when flatc fails.
std::optional<std::string> flatc_to_json(const std::string& name, const std::string& fb);
/// `flatc --binary --force-defaults` of `json` with root tflite.<name>.
std::optional<std::string> flatc_from_json(const std::string& name, const std::string& json);

/// The twin's name of a message: "BenchmarkResult.InferenceOutput" → "tflite.BenchmarkResult_.InferenceOutput".
std::string fb_root(const std::string& name);

/// True when `issues` holds one of `severity` at `where` whose message contains `part`.
bool has_issue(const std::vector<Issue>& issues, Issue::Severity severity, const std::string& where,
               const std::string& part = {});
/// The findings as lines, for CAPTURE.
std::string show(const std::vector<Issue>& issues);

/// The nnbridge::Error `fn` throws; fails the test when it throws none.
template <class Fn>
Error error_of(Fn fn) {
  try {
    fn();
  } catch (const Error& e) {
    return e;
  }
  FAIL("no nnbridge::Error thrown");
  return Error(ErrorCode::Io, "unreachable");
}

}  // namespace nnbridge::test::tflite_accel
