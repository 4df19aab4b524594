// TFLite acceleration settings: the messages of TFLite's configuration.proto
// (ComputeSettings, TFLiteSettings, the per-delegate settings, the mini-benchmark events) in
// the five forms people keep them in, converted between those forms without loss, and checked.
//
// Forms (names as the CLI takes them):
//   proto-binary  protobuf wire format
//   proto-text    protobuf text format (what `protoc --encode/--decode` read and write)
//   proto-json    protobuf's JSON mapping: lowerCamelCase keys on output (either spelling on
//                 input), 64-bit integers as strings, bytes as base64, enums by name
//   fb            the FlatBuffer twin TFLite embeds (`flatc --proto` on the .proto, namespace
//                 tflite.proto renamed to tflite): no file identifier, no size prefix
//   fb-json       FlatBuffers JSON against that twin, the form of TFLite's settings files
//                 (e.g. tflite/delegates/.../test_xnnpack_settings.json): snake_case keys,
//                 `//` comments, bare enum names or integers; unknown keys are errors; one
//                 JSON object and nothing else (TFLite's parser would also take schema
//                 declarations such as `include "file";` around it: refused here)
//
// The schema is schemas/tflite_accel/configuration.proto, wire-compatible with TFLite's.
//
// Conversion rules (each form is read into one protobuf message, then written from it):
// - Presence is kept: a field absent in the input is absent in every output, a field present
//   with its default value stays present. (TFLite's own proto<->fb converters lose this:
//   proto->fb writes every sub-table and string, fb->proto sets every scalar. They also drop
//   fields: XNNPackSettings weight_cache_file_path and runtime_flags, ModelFile model_id_group
//   and buffer_handle, MinibenchmarkSettings validation_settings one way; TFLiteSettings
//   armnn_settings, four EdgeTpuSettings fields and BenchmarkResult actual_output the other.
//   Nothing is dropped here: the conversion walks the protobuf descriptor and the FlatBuffers
//   reflection schema together, so every field of the schema is covered.)
// - FlatBuffer field ids are declaration positions, not proto tags (TFLiteSettings
//   coreml_settings is tag 11 but FlatBuffer field 5); fields are matched by name.
// - Defaults: the forms agree except for one field. CoralSettings.performance defaults to
//   MAXIMUM (1) in protobuf but to 0 (UNDEFINED) in the FlatBuffer twin, because flatc --proto
//   drops enum defaults. An absent value stays absent, so a protobuf reader and a FlatBuffer
//   reader of the converted file read different values; check() warns about it.
// - Closed proto2 enums. A FlatBuffer enum field may hold any int32 (TFLite's XNNPack flags
//   are a bit mask: 9 = QS8|DYNAMIC_FULLY_CONNECTED is valid for the delegate), a protobuf
//   one only the listed values. A value outside the enum read from fb or fb-json is kept as
//   an unknown varint field with the field's tag (what protobuf's own parser does with such a
//   value in proto-binary) and reported in warnings(). proto-binary, fb and fb-json write it
//   back; proto-text and proto-json cannot express it: saving to them throws Error(Unsupported)
//   naming the field. In a repeated enum field the value's position could not be kept, so
//   reading it throws Error(Unsupported) naming the element. Two such values of one field
//   (proto-binary keeps both) and a varint that is no int32 (protobuf tests its low 32 bits
//   against the enum but keeps all 64) survive in proto-binary only: writing fb or fb-json
//   throws Error(Unsupported) naming the field.
// - Other unknown protobuf fields (tags not in the schema, read from proto-binary) survive in
//   proto-binary only; writing them to any other form throws Error(Unsupported) naming them.
// - A FlatBuffer vector that is present but empty has no protobuf counterpart (repeated fields
//   have no presence): it reads as absent, with a warning. A FlatBuffer table holding fields
//   this schema does not know (a newer writer) is rejected with Error(Unsupported).
// - fb-json is written with shortest round-trip numbers (flatc 2.0.8's own JSON printer keeps
//   6 significant digits of a float, which is why nnbridge writes this form itself).
#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nnbridge/check.h"
#include "nnbridge/format.h"

namespace nnbridge::config::tflite_accel {

/// The five forms (see the file comment).
enum class Form { ProtoBinary, ProtoText, ProtoJson, Fb, FbJson };

/// "proto-binary", "proto-text", "proto-json", "fb", "fb-json".
std::string_view to_string(Form form);
/// The form with that name (as to_string spells it), if any.
std::optional<Form> form_from_name(std::string_view name);
/// The form a file name stands for: .pb .binpb → proto-binary; .txtpb .textproto .pbtxt
/// .prototxt → proto-text; .pb.json .proto.json → proto-json; .fb → fb; .fb.json and plain
/// .json (TFLite's settings files) → fb-json. Nothing else is guessed.
std::optional<Form> form_from_path(const std::filesystem::path& path);

/// Every message of configuration.proto by its name inside the package, nested ones with a
/// dot ("TFLiteSettings", "BenchmarkResult.InferenceOutput"), in declaration order.
std::vector<std::string> message_names();
/// The package-relative name for a name given as "TFLiteSettings", "tflite.proto.X" (protobuf)
/// or "tflite.X" / "tflite.Outer_.Inner" (FlatBuffers); nullopt when there is no such message.
std::optional<std::string> resolve_message_name(std::string_view name);

/// How Settings::load reads a file.
struct LoadOptions {
  std::optional<Form> form;               ///< unset: from the file's extension (form_from_path)
  std::string message = "TFLiteSettings";  ///< the root message, any spelling resolve_message_name takes
  /// Bounds for untrusted input (the CLI's reader options settings.max_size, settings.max_depth,
  /// settings.max_tables; see reader_limits()). max_size: the file's bytes, every form.
  /// max_depth: nested messages for proto-binary and proto-text (protobuf's recursion limit,
  /// default 100 there) and nested tables and vectors for fb and fb-json (FlatBuffers'
  /// verifier). max_tables: tables the FlatBuffers verifier visits (fb, fb-json). proto-json
  /// keeps protobuf's own fixed nesting bound (100) and fb-json's text parser FlatBuffers'
  /// (64) before these apply. An exceeded bound is Error(Io, ErrorId::IoTooLarge) naming the
  /// option for the size, Error(Malformed) naming the bound for depth and tables (the protobuf
  /// parser's or the FlatBuffers verifier's refusal).
  VerifierLimits limits;
};

/// The reader option names of LoadOptions::limits: "settings.max_depth", "settings.max_tables",
/// "settings.max_size".
std::vector<std::string> reader_limit_options();
/// `defaults` with the reader options among `options` applied (keys reader_limit_options(),
/// decimal integers from 1; depth and tables up to 2^32 - 1, size up to 2^31 - 1). Throws
/// Error(Invalid) naming the option for any other value, and Error(ErrorId::UnknownOption,
/// nnbridge.unsupported.305) for a key that is not one of them (listing the valid keys).
VerifierLimits reader_limits(const std::map<std::string, std::string, std::less<>>& options,
                             const VerifierLimits& defaults = LoadOptions{}.limits);

/// How Settings::save writes a file.
struct SaveOptions {
  std::optional<Form> form;  ///< unset: from the output's extension (form_from_path)
};

/// One configuration.proto message in memory (the root of a settings document).
class Settings {
 public:
  /// An empty message of type `message`. Throws Error(Unsupported) when there is none.
  explicit Settings(std::string_view message = "TFLiteSettings");
  Settings(const Settings& other);             ///< a deep copy
  Settings& operator=(const Settings& other);  ///< a deep copy
  Settings(Settings&&) noexcept;               ///< leaves `other` unusable except for assignment
  Settings& operator=(Settings&&) noexcept;    ///< leaves `other` unusable except for assignment
  ~Settings();

  /// Reads `path` in the form from `options` or its extension. Throws Error(Io) when the file
  /// cannot be read, Error(Unsupported) when the form cannot be told or the message does not
  /// exist or holds what this schema cannot (see the file comment), Error(Malformed) when the
  /// content does not parse (the message names the file and the place: a line and column for
  /// the text forms, a field path for fb).
  static Settings load(const std::filesystem::path& path, const LoadOptions& options = {});
  /// Reads bytes in `form`; `file` names them in messages (empty for in-memory input);
  /// `limits` as LoadOptions::limits (max_size included).
  static Settings parse(std::span<const std::byte> bytes, Form form,
                        std::string_view message = "TFLiteSettings", const std::string& file = {},
                        const VerifierLimits& limits = LoadOptions{}.limits);
  /// As above, for bytes held in a string (the text forms).
  static Settings parse(std::string_view bytes, Form form, std::string_view message = "TFLiteSettings",
                        const std::string& file = {}, const VerifierLimits& limits = LoadOptions{}.limits);

  /// Writes the settings to `path` atomically (temporary file, then rename; nothing is left
  /// behind on failure). Throws Error(Unsupported) naming the field when the form cannot
  /// express something the settings hold, Error(Io) when the file cannot be written.
  void save(const std::filesystem::path& path, const SaveOptions& options = {}) const;
  /// The bytes of the settings in `form`; deterministic. Throws like save().
  std::string serialize(Form form) const;

  /// The root message's package-relative name, e.g. "TFLiteSettings".
  std::string message_name() const;
  /// Protobuf text for people: like serialize(Form::ProtoText), but unknown fields are
  /// printed by number ("2: 9") instead of refused, so the text may not parse back.
  std::string debug_text() const;
  /// What reading found worth saying without failing (values kept as unknown fields, empty
  /// vectors read as absent, non-0/1 FlatBuffer bools); `where` is the field path.
  const std::vector<Issue>& warnings() const;

  /// The checker's findings; never throws. `where` is the field path inside the root message
  /// (e.g. "gpu_settings.inference_priority2", "settings_to_test[1].cpu_settings.num_threads").
  /// Errors: values TFLite rejects (each message names the TFLite source of the rule);
  /// warnings: values TFLite ignores or reads differently than a user may expect.
  std::vector<Issue> check() const;

  /// Same message type, same fields, same presence, same unknown fields. Unknown fields compare
  /// as a list sorted by field number (stable, so values of one number keep their order): fields
  /// of different numbers carry no order on the wire, and the fb form reads them back in schema
  /// order.
  bool operator==(const Settings& other) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  explicit Settings(std::unique_ptr<Impl> impl);
  friend struct SettingsAccess;
};

}  // namespace nnbridge::config::tflite_accel
