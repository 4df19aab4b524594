// Unknown protobuf fields: where they are, and what each form can do with them.
#include <google/protobuf/unknown_field_set.h>

#include <cstdint>

#include "internal.h"

namespace nnbridge::config::tflite_accel::detail {
namespace {

struct Walker {
  std::vector<UnknownAt> out;
  bool recursive = true;

  void walk(const pb::Message& m, const std::string& path) {
    const pb::Reflection& r = *m.GetReflection();
    const pb::UnknownFieldSet& set = r.GetUnknownFields(m);
    for (int i = 0; i < set.field_count(); ++i) {
      const pb::UnknownField& u = set.field(i);
      UnknownAt a;
      a.number = u.number();
      a.field = m.GetDescriptor()->FindFieldByNumber(u.number());
      a.path = a.field ? join(path, a.field->name()) : join(path, "#" + std::to_string(u.number()));
      a.is_varint = u.type() == pb::UnknownField::TYPE_VARINT;
      if (a.is_varint) a.varint = u.varint();
      out.push_back(a);
    }
    if (!recursive) return;
    std::vector<const pb::FieldDescriptor*> fields;
    r.ListFields(m, &fields);
    for (const pb::FieldDescriptor* f : fields) {
      if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
      const std::string p = join(path, f->name());
      if (f->is_repeated()) {
        for (int j = 0; j < r.FieldSize(m, f); ++j) walk(r.GetRepeatedMessage(m, f, j), index(p, j));
      } else {
        walk(r.GetMessage(m, f), p);
      }
    }
  }
};

}  // namespace

std::vector<UnknownAt> unknown_fields(const pb::Message& m, const std::string& path, bool recursive) {
  Walker w;
  w.recursive = recursive;
  w.walk(m, path);
  return std::move(w.out);
}

bool varint_is_int32(const UnknownAt& u) {
  const auto v = static_cast<std::int64_t>(u.varint);
  return v >= INT32_MIN && v <= INT32_MAX;
}

bool fb_can_hold(const UnknownAt& u) {
  return u.field && u.is_varint && !u.field->is_repeated() && u.field->type() == pb::FieldDescriptor::TYPE_ENUM &&
         varint_is_int32(u);
}

std::string describe(const UnknownAt& u) {
  if (u.field && u.is_varint && u.field->type() == pb::FieldDescriptor::TYPE_ENUM && !varint_is_int32(u))
    // Protobuf's parser tests the low 32 bits against the enum and, when they are no value of it,
    // keeps the whole 64-bit varint; the FlatBuffer twin's enum field is an int32.
    return "varint " + std::to_string(u.varint) + " of enum field " + std::to_string(u.number) +
           " is not an int32 (enums are int32 on the wire, negative ones sign-extended to 64 bits); kept as an "
           "unknown field, which only proto-binary keeps";
  if (u.field && u.is_varint && u.field->type() == pb::FieldDescriptor::TYPE_ENUM) {
    // Enums are int32 on the wire, negative ones sign-extended to 64 bits.
    const auto value = static_cast<std::int32_t>(static_cast<std::int64_t>(u.varint));
    return std::to_string(value) + " is not a value of the closed proto2 enum " + u.field->enum_type()->full_name() +
           "; kept as unknown field " + std::to_string(u.number) +
           (fb_can_hold(u) ? ", which proto-binary, fb and fb-json keep" : ", which proto-binary keeps") +
           " and proto-text and proto-json cannot express";
  }
  if (u.field)
    return "field " + std::to_string(u.number) + " holds a value of another wire type than " +
           u.field->type_name() + "; kept as an unknown field, which only proto-binary keeps";
  return "field number " + std::to_string(u.number) + " is not in this schema; kept as an unknown field, " +
         "which only proto-binary keeps";
}

std::size_t utf8_length(std::string_view s, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[i + k]); };
  const unsigned char c = byte(0);
  if (c < 0x80) return 1;
  const std::size_t n = (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  std::uint32_t cp = c & (0x7F >> n);
  for (std::size_t k = 1; k < n; ++k) {
    if ((byte(k) >> 6) != 0x2) return 0;
    cp = (cp << 6) | (byte(k) & 0x3F);
  }
  static constexpr std::uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

std::optional<std::string> first_non_utf8(const pb::Message& m, const std::string& path) {
  const pb::Reflection& r = *m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r.ListFields(m, &fields);
  const auto valid = [](const std::string& v) {
    for (std::size_t i = 0, n; i < v.size(); i += n)
      if ((n = utf8_length(v, i)) == 0) return false;
    return true;
  };
  for (const pb::FieldDescriptor* f : fields) {
    const std::string p = join(path, f->name());
    const int count = f->is_repeated() ? r.FieldSize(m, f) : 1;
    for (int j = 0; j < count; ++j) {
      const std::string at = f->is_repeated() ? index(p, static_cast<std::size_t>(j)) : p;
      if (f->type() == pb::FieldDescriptor::TYPE_STRING) {
        if (!valid(f->is_repeated() ? r.GetRepeatedString(m, f, j) : r.GetString(m, f))) return at;
      } else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
        if (auto bad = first_non_utf8(f->is_repeated() ? r.GetRepeatedMessage(m, f, j) : r.GetMessage(m, f), at))
          return bad;
      }
    }
  }
  return std::nullopt;
}

}  // namespace nnbridge::config::tflite_accel::detail
