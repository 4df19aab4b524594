// Enum and union-member names, taken from the flatc-generated tables of schemas/afcm so that
// the IR spells them exactly as the schema (and flatc's JSON) does.
#include <charconv>
#include <limits>

#include "afcm/compiled_model_generated.h"
#include "model.h"

namespace nnbridge::formats::afcm {
namespace {

namespace fb = ::tflite::gpu::gl::data;

template <class E>
std::string enum_name(int8_t v, const char* (*name_of)(E)) {
  if (v >= static_cast<int8_t>(E::MIN) && v <= static_cast<int8_t>(E::MAX)) {
    const char* n = name_of(static_cast<E>(v));
    if (n && *n) return n;
  }
  return std::to_string(v);
}

template <class E>
std::optional<int8_t> parse_enum(std::string_view s, const char* (*name_of)(E)) {
  for (int v = static_cast<int>(E::MIN); v <= static_cast<int>(E::MAX); ++v) {
    const char* n = name_of(static_cast<E>(v));
    if (n && s == n) return static_cast<int8_t>(v);
  }
  int v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || s.empty()) return std::nullopt;
  if (v < std::numeric_limits<int8_t>::min() || v > std::numeric_limits<int8_t>::max()) return std::nullopt;
  return static_cast<int8_t>(v);
}

template <class Tag, class E>
std::optional<Tag> parse_tag(std::string_view s, const char* (*name_of)(E)) {
  for (int v = static_cast<int>(E::MIN); v <= static_cast<int>(E::MAX); ++v)
    if (s == name_of(static_cast<E>(v))) return static_cast<Tag>(v);
  return std::nullopt;
}

template <class E>
bool known(int8_t v, const char* (*name_of)(E)) {
  return v >= static_cast<int8_t>(E::MIN) && v <= static_cast<int8_t>(E::MAX) && *name_of(static_cast<E>(v));
}

}  // namespace

std::string access_name(int8_t v) { return enum_name(v, fb::EnumNameAccessType); }
std::string data_type_name(int8_t v) { return enum_name(v, fb::EnumNameDataType); }
std::string object_type_name(int8_t v) { return enum_name(v, fb::EnumNameObjectType); }
std::string parameter_type_name(int8_t v) { return enum_name(v, fb::EnumNameParameterType); }

std::string_view tag_name(SizeTag t) { return fb::EnumNameObjectSize(static_cast<fb::ObjectSize>(t)); }
std::string_view tag_name(ObjectTag t) { return fb::EnumNameObjectVariant(static_cast<fb::ObjectVariant>(t)); }
std::string_view tag_name(DataTag t) { return fb::EnumNameDataVariant(static_cast<fb::DataVariant>(t)); }

std::optional<int8_t> parse_access(std::string_view s) { return parse_enum(s, fb::EnumNameAccessType); }
std::optional<int8_t> parse_data_type(std::string_view s) { return parse_enum(s, fb::EnumNameDataType); }
std::optional<int8_t> parse_object_type(std::string_view s) { return parse_enum(s, fb::EnumNameObjectType); }
std::optional<int8_t> parse_parameter_type(std::string_view s) { return parse_enum(s, fb::EnumNameParameterType); }

std::optional<SizeTag> parse_size_tag(std::string_view s) { return parse_tag<SizeTag>(s, fb::EnumNameObjectSize); }
std::optional<ObjectTag> parse_object_tag(std::string_view s) {
  return parse_tag<ObjectTag>(s, fb::EnumNameObjectVariant);
}
std::optional<DataTag> parse_data_tag(std::string_view s) { return parse_tag<DataTag>(s, fb::EnumNameDataVariant); }

bool known_access(int8_t v) { return known(v, fb::EnumNameAccessType); }
bool known_data_type(int8_t v) { return known(v, fb::EnumNameDataType); }
bool known_object_type(int8_t v) { return known(v, fb::EnumNameObjectType); }
bool known_parameter_type(int8_t v) { return known(v, fb::EnumNameParameterType); }

int components(SizeTag t) {
  switch (t) {
    case SizeTag::Uint1: return 1;
    case SizeTag::Uint2: return 2;
    case SizeTag::Uint3: return 3;
    default: return 0;
  }
}

}  // namespace nnbridge::formats::afcm
