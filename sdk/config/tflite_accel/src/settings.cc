// Settings: one configuration.proto message, read from and written to any of the five forms.
#include <google/protobuf/text_format.h>
#include <google/protobuf/unknown_field_set.h>

#include <algorithm>
#include <array>
#include <utility>

#include "internal.h"
#include "nnbridge/buffer.h"
#include "nnbridge/error.h"
#include "nnbridge/format.h"

namespace nnbridge::config::tflite_accel {

namespace pb = google::protobuf;

namespace {

// The prefix of the reader options that set LoadOptions::limits ("settings.max_size", ...).
constexpr std::string_view kLimitsPrefix = "settings";

constexpr std::array<std::pair<Form, std::string_view>, 5> kFormNames{{
    {Form::ProtoBinary, "proto-binary"},
    {Form::ProtoText, "proto-text"},
    {Form::ProtoJson, "proto-json"},
    {Form::Fb, "fb"},
    {Form::FbJson, "fb-json"},
}};

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

std::unique_ptr<pb::Message> new_message(std::string_view name) {
  const pb::Descriptor* d = detail::find_message(name);
  if (!d)
    throw Error(ErrorId::UnsupportedOther, "configuration.proto has no message \"" + std::string(name) +
                                            "\" (its messages include TFLiteSettings, ComputeSettings, MinibenchmarkSettings, BenchmarkEvent)");
  return std::unique_ptr<pb::Message>(pb::MessageFactory::generated_factory()->GetPrototype(d)->New());
}

}  // namespace

struct Settings::Impl {
  std::unique_ptr<pb::Message> message;
  std::vector<Issue> warnings;
};

struct SettingsAccess {
  static Settings make(std::unique_ptr<Settings::Impl> impl) { return Settings(std::move(impl)); }
  static const pb::Message& message(const Settings& s) { return *s.impl_->message; }
  static Settings from_message(std::unique_ptr<pb::Message> m) {
    auto impl = std::make_unique<Settings::Impl>();
    impl->message = std::move(m);
    return Settings(std::move(impl));
  }
};

const pb::Message& detail::message_of(const Settings& s) { return SettingsAccess::message(s); }

Settings detail::make_settings(std::unique_ptr<pb::Message> m) { return SettingsAccess::from_message(std::move(m)); }

std::string_view to_string(Form form) {
  for (const auto& [f, name] : kFormNames)
    if (f == form) return name;
  return "?";
}

std::optional<Form> form_from_name(std::string_view name) {
  for (const auto& [f, n] : kFormNames)
    if (n == name) return f;
  return std::nullopt;
}

std::optional<Form> form_from_path(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  if (ends_with(name, ".pb.json") || ends_with(name, ".proto.json")) return Form::ProtoJson;
  if (ends_with(name, ".json")) return Form::FbJson;  // TFLite's settings files, and .fb.json
  for (std::string_view ext : {".pb", ".binpb"})
    if (ends_with(name, ext)) return Form::ProtoBinary;
  for (std::string_view ext : {".txtpb", ".textproto", ".pbtxt", ".prototxt"})
    if (ends_with(name, ext)) return Form::ProtoText;
  if (ends_with(name, ".fb")) return Form::Fb;
  return std::nullopt;
}

Settings::Settings(std::string_view message) : impl_(std::make_unique<Impl>()) {
  impl_->message = new_message(message);
}

Settings::Settings(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Settings::Settings(const Settings& other) : impl_(std::make_unique<Impl>()) {
  impl_->message.reset(other.impl_->message->New());
  impl_->message->CopyFrom(*other.impl_->message);
  impl_->warnings = other.impl_->warnings;
}

Settings& Settings::operator=(const Settings& other) {
  if (this != &other) *this = Settings(other);
  return *this;
}

Settings::Settings(Settings&&) noexcept = default;
Settings& Settings::operator=(Settings&&) noexcept = default;
Settings::~Settings() = default;

std::vector<std::string> reader_limit_options() { return verifier_limit_options(kLimitsPrefix); }

VerifierLimits reader_limits(const std::map<std::string, std::string, std::less<>>& options,
                             const VerifierLimits& defaults) {
  const std::vector<std::string> keys = reader_limit_options();
  for (const auto& kv : options)
    if (std::find(keys.begin(), keys.end(), kv.first) == keys.end())
      throw Error(ErrorId::UnknownOption, "'" + kv.first + "' is not a settings reader option (there are " + keys[0] +
                                          ", " + keys[1] + ", " + keys[2] + ")");
  nnbridge::LoadOptions graph_options;
  graph_options.options = options;
  graph_options.limits = defaults;
  return verifier_limits(graph_options, kLimitsPrefix);
}

Settings Settings::parse(std::string_view bytes, Form form, std::string_view message, const std::string& file,
                         const VerifierLimits& limits) {
  try {
    check_input_size(bytes.size(), limits, kLimitsPrefix);
  } catch (const Error& e) {
    throw e.with_file(file);
  }
  auto impl = std::make_unique<Impl>();
  impl->message = new_message(message);
  pb::Message& m = *impl->message;
  switch (form) {
    case Form::Fb: detail::from_fb(bytes, m, impl->warnings, file, limits); break;
    case Form::FbJson:
      detail::from_fb(detail::fb_json_to_fb(bytes, *m.GetDescriptor(), file), m, impl->warnings, file, limits);
      break;
    default:
      detail::parse_proto(bytes, form, m, file, limits);
      // Only the wire format can carry unknown fields in; say what each one is.
      for (const detail::UnknownAt& u : detail::unknown_fields(m))
        impl->warnings.push_back({Issue::Severity::Warning, u.path, detail::describe(u)});
      break;
  }
  return SettingsAccess::make(std::move(impl));
}

Settings Settings::parse(std::span<const std::byte> bytes, Form form, std::string_view message,
                         const std::string& file, const VerifierLimits& limits) {
  return parse(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), form, message, file,
               limits);
}

Settings Settings::load(const std::filesystem::path& path, const LoadOptions& options) {
  const std::string file = path.string();
  const std::optional<Form> form = options.form ? options.form : form_from_path(path);
  if (!form)
    throw Error(ErrorId::UnknownFormat,
                "cannot tell the form from the file name; name it (proto-binary, proto-text, proto-json, fb, fb-json)",
                file);
  new_message(options.message);  // an unknown message is refused before the file is read
  auto mapped = MappedFile::open(path);
  try {
    return parse(mapped->bytes(), *form, options.message, file, options.limits);
  } catch (const Error& e) {
    throw e.file().empty() ? e.with_file(file) : e;
  }
}

std::string Settings::serialize(Form form) const {
  const pb::Message& m = *impl_->message;
  if (form == Form::ProtoJson || form == Form::FbJson)
    if (auto at = detail::first_non_utf8(m))
      throw Error(ErrorId::NoForm,
                  "a string that is not UTF-8, which " + std::string(to_string(form)) +
                      " cannot hold (use a binary or text protobuf form, or fb)",
                  {}, *at);
  switch (form) {
    case Form::Fb: return detail::to_fb(m);
    case Form::FbJson: return detail::fb_to_json(detail::to_fb(m), *m.GetDescriptor());
    default: return detail::print_proto(m, form);
  }
}

void Settings::save(const std::filesystem::path& path, const SaveOptions& options) const {
  const std::string file = path.string();
  const std::optional<Form> form = options.form ? options.form : form_from_path(path);
  if (!form)
    throw Error(ErrorId::UnknownFormat,
                "cannot tell the form from the file name; name it (proto-binary, proto-text, proto-json, fb, fb-json)",
                file);
  std::string bytes;
  try {
    bytes = serialize(*form);
  } catch (const Error& e) {
    throw e.file().empty() ? e.with_file(file) : e;
  }
  write_file_atomic(path, std::as_bytes(std::span(bytes.data(), bytes.size())));
}

std::string Settings::message_name() const { return detail::short_name(*impl_->message->GetDescriptor()); }

std::string Settings::debug_text() const {
  std::string out;
  pb::TextFormat::Printer printer;
  printer.PrintToString(*impl_->message, &out);
  return out;
}

const std::vector<Issue>& Settings::warnings() const { return impl_->warnings; }

std::vector<Issue> Settings::check() const {
  try {
    return detail::run_checks(*impl_->message);
  } catch (const std::exception& e) {
    return {{Issue::Severity::Error, {}, std::string("the checker failed: ") + e.what()}};
  }
}

namespace {

// Unknown fields in field-number order (stable: values of one number keep theirs), here and in
// every sub-message. Protobuf keeps them in the order read, but fields of different numbers
// carry no order (protobuf encoding: "fields can appear in any order"), and the FlatBuffer
// forms hold them by field, so a document read back from fb has them in schema order.
void sort_unknown(pb::Message& m) {
  const pb::Reflection& r = *m.GetReflection();
  pb::UnknownFieldSet* set = r.MutableUnknownFields(&m);
  std::vector<int> order(static_cast<std::size_t>(set->field_count()));
  for (int i = 0; i < set->field_count(); ++i) order[static_cast<std::size_t>(i)] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](int x, int y) { return set->field(x).number() < set->field(y).number(); });
  pb::UnknownFieldSet sorted;
  for (int i : order) sorted.AddField(set->field(i));
  set->Swap(&sorted);
  std::vector<const pb::FieldDescriptor*> fields;
  r.ListFields(m, &fields);
  for (const pb::FieldDescriptor* f : fields) {
    if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    if (f->is_repeated()) {
      for (int j = 0; j < r.FieldSize(m, f); ++j) sort_unknown(*r.MutableRepeatedMessage(&m, f, j));
    } else {
      sort_unknown(*r.MutableMessage(&m, f));
    }
  }
}

std::string canonical_wire(const pb::Message& m) {
  std::unique_ptr<pb::Message> copy(m.New());
  copy->CopyFrom(m);
  sort_unknown(*copy);
  return copy->SerializeAsString();
}

}  // namespace

bool Settings::operator==(const Settings& other) const {
  const pb::Message& a = *impl_->message;
  const pb::Message& b = *other.impl_->message;
  // The wire form holds every field with its presence and the unknown fields; known fields in a
  // fixed order, unknown ones sorted by number first.
  return a.GetDescriptor() == b.GetDescriptor() && canonical_wire(a) == canonical_wire(b);
}

}  // namespace nnbridge::config::tflite_accel
