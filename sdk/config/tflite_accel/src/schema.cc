// configuration.proto's descriptors and its FlatBuffer twin, matched field by field.
#include <flatbuffers/reflection.h>

#include <map>
#include <stdexcept>
#include <unordered_map>

#include "internal.h"
#include "tflite_accel/configuration.pb.h"

namespace nnbridge::config::tflite_accel::embedded {
extern const unsigned char configuration_fbs[];
extern const std::size_t configuration_fbs_size;
extern const unsigned char configuration_bfbs[];
extern const std::size_t configuration_bfbs_size;
}  // namespace nnbridge::config::tflite_accel::embedded

namespace nnbridge::config::tflite_accel::detail {
namespace {

using reflection::BaseType;

// TFLite's build renames the package tflite.proto to tflite in the twin (see
// schemas/tflite_accel/rename_namespace.cmake).
std::string fb_namespace(const pb::FileDescriptor& f) {
  return f.package() == "tflite.proto" ? std::string("tflite") : f.package();
}

// The FlatBuffers base type flatc --proto gives a field of this protobuf type (for a repeated
// field: the element's), and whether the field is a vector of it.
BaseType fb_scalar_type(const pb::FieldDescriptor& f) {
  switch (f.type()) {
    case pb::FieldDescriptor::TYPE_BOOL: return reflection::Bool;
    case pb::FieldDescriptor::TYPE_INT32:
    case pb::FieldDescriptor::TYPE_SINT32:
    case pb::FieldDescriptor::TYPE_SFIXED32:
    case pb::FieldDescriptor::TYPE_ENUM: return reflection::Int;  // flatc --proto: enum X : int
    case pb::FieldDescriptor::TYPE_UINT32:
    case pb::FieldDescriptor::TYPE_FIXED32: return reflection::UInt;
    case pb::FieldDescriptor::TYPE_INT64:
    case pb::FieldDescriptor::TYPE_SINT64:
    case pb::FieldDescriptor::TYPE_SFIXED64: return reflection::Long;
    case pb::FieldDescriptor::TYPE_UINT64:
    case pb::FieldDescriptor::TYPE_FIXED64: return reflection::ULong;
    case pb::FieldDescriptor::TYPE_FLOAT: return reflection::Float;
    case pb::FieldDescriptor::TYPE_DOUBLE: return reflection::Double;
    case pb::FieldDescriptor::TYPE_STRING: return reflection::String;
    case pb::FieldDescriptor::TYPE_BYTES: return reflection::UByte;  // as [ubyte]
    case pb::FieldDescriptor::TYPE_MESSAGE: return reflection::Obj;
    case pb::FieldDescriptor::TYPE_GROUP: break;
  }
  return reflection::None;
}

struct Twins {
  std::unordered_map<const pb::Descriptor*, const reflection::Object*> objects;
  std::unordered_map<const pb::FieldDescriptor*, const reflection::Field*> fields;

  [[noreturn]] static void fault(const std::string& what) {
    throw std::logic_error("configuration.proto and its FlatBuffer twin disagree: " + what);
  }

  void match(const pb::Descriptor& d) {
    const reflection::Schema& s = fb_schema();
    const reflection::Object* obj = s.objects()->LookupByKey(fb_name(d).c_str());
    if (!obj) fault("no table " + fb_name(d));
    objects.emplace(&d, obj);
    if (static_cast<int>(obj->fields()->size()) != d.field_count())
      fault(fb_name(d) + " has " + std::to_string(obj->fields()->size()) + " fields, the message " +
            std::to_string(d.field_count()));
    for (int i = 0; i < d.field_count(); ++i) {
      const pb::FieldDescriptor& f = *d.field(i);
      const reflection::Field* ff = obj->fields()->LookupByKey(f.name().c_str());
      const std::string where = f.full_name();
      if (!ff) fault("no field for " + where);
      // flatc --proto numbers fields by declaration order, whatever their tags.
      if (ff->id() != static_cast<unsigned>(i)) fault(where + " is field " + std::to_string(ff->id()));
      const reflection::Type& t = *ff->type();
      const bool vector = f.is_repeated() || f.type() == pb::FieldDescriptor::TYPE_BYTES;
      if (f.is_repeated() && f.type() == pb::FieldDescriptor::TYPE_BYTES) fault(where + ": repeated bytes");
      const BaseType want = fb_scalar_type(f);
      const BaseType got = vector ? (t.base_type() == reflection::Vector ? t.element() : reflection::None)
                                  : t.base_type();
      if (want == reflection::None || got != want) fault(where + " has another type in the twin");
      if (f.type() == pb::FieldDescriptor::TYPE_MESSAGE &&
          s.objects()->Get(t.index())->name()->str() != fb_name(*f.message_type()))
        fault(where + " refers to another table in the twin");
      fields.emplace(&f, ff);
    }
    for (int i = 0; i < d.nested_type_count(); ++i) match(*d.nested_type(i));
  }

  Twins() {
    const pb::FileDescriptor& file = proto_file();
    for (int i = 0; i < file.message_type_count(); ++i) match(*file.message_type(i));
  }
};

const Twins& twins() {
  static const Twins t;
  return t;
}

void collect_names(const pb::Descriptor& d, std::vector<std::string>& out) {
  out.push_back(short_name(d));
  for (int i = 0; i < d.nested_type_count(); ++i) collect_names(*d.nested_type(i), out);
}

}  // namespace

const pb::FileDescriptor& proto_file() { return *tflite::proto::TFLiteSettings::descriptor()->file(); }

std::string short_name(const pb::Descriptor& d) {
  const std::string& pkg = d.file()->package();
  return pkg.empty() ? d.full_name() : d.full_name().substr(pkg.size() + 1);
}

std::string fb_name(const pb::Descriptor& d) {
  std::string name = d.name();
  for (const pb::Descriptor* outer = d.containing_type(); outer; outer = outer->containing_type())
    name = outer->name() + "_." + name;
  const std::string ns = fb_namespace(*d.file());
  return ns.empty() ? name : ns + "." + name;
}

const pb::Descriptor* find_message(std::string_view name) {
  const pb::FileDescriptor& file = proto_file();
  std::string rest(name);
  for (const std::string& prefix : {file.package() + ".", fb_namespace(file) + "."}) {
    if (rest.size() > prefix.size() && rest.compare(0, prefix.size(), prefix) == 0) {
      rest.erase(0, prefix.size());
      break;
    }
  }
  // The twin's spelling of nested tables: Outer_.Inner.
  for (std::size_t at; (at = rest.find("_.")) != std::string::npos;) rest.replace(at, 2, ".");
  const pb::Descriptor* d = file.pool()->FindMessageTypeByName(file.package() + "." + rest);
  return d && d->file() == &file ? d : nullptr;
}

const reflection::Schema& fb_schema() {
  static const reflection::Schema* schema = [] {
    flatbuffers::Verifier v(embedded::configuration_bfbs, embedded::configuration_bfbs_size);
    if (!reflection::VerifySchemaBuffer(v)) throw std::logic_error("the embedded configuration.bfbs does not verify");
    return reflection::GetSchema(embedded::configuration_bfbs);
  }();
  return *schema;
}

std::string_view fbs_text() {
  return {reinterpret_cast<const char*>(embedded::configuration_fbs), embedded::configuration_fbs_size};
}

const reflection::Object& fb_object(const pb::Descriptor& d) {
  auto it = twins().objects.find(&d);
  if (it == twins().objects.end()) throw std::logic_error("no twin table for " + d.full_name());
  return *it->second;
}

const reflection::Field& fb_field(const pb::FieldDescriptor& f) {
  auto it = twins().fields.find(&f);
  if (it == twins().fields.end()) throw std::logic_error("no twin field for " + f.full_name());
  return *it->second;
}

std::string join(const std::string& parent, std::string_view field) {
  return parent.empty() ? std::string(field) : parent + "." + std::string(field);
}

std::string index(const std::string& path, std::size_t i) { return path + "[" + std::to_string(i) + "]"; }

}  // namespace nnbridge::config::tflite_accel::detail

namespace nnbridge::config::tflite_accel {

std::vector<std::string> message_names() {
  std::vector<std::string> out;
  const google::protobuf::FileDescriptor& file = detail::proto_file();
  for (int i = 0; i < file.message_type_count(); ++i) detail::collect_names(*file.message_type(i), out);
  return out;
}

std::optional<std::string> resolve_message_name(std::string_view name) {
  const google::protobuf::Descriptor* d = detail::find_message(name);
  if (!d) return std::nullopt;
  return detail::short_name(*d);
}

}  // namespace nnbridge::config::tflite_accel
