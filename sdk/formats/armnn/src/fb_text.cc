#include "fb_text.h"

#include <charconv>
#include <cmath>
#include <string_view>

#include "fields.h"
#include "nnbridge/error.h"

namespace nnbridge::formats::armnn {

namespace {

using reflection::BaseType;

template <class F>
void real(std::string& out, F v) {
  // flatbuffers::Parser reads these spellings of the non-finite values.
  if (std::isnan(v)) return void(out += "nan");
  if (std::isinf(v)) return void(out += v < 0 ? "-inf" : "inf");
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
  out.append(buf, r.ptr);
}

// Length of the UTF-8 sequence starting at s[i], 0 when it is not one.
size_t utf8_seq(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) >> 6) != 2) return 0;
  return n;
}

class Printer {
 public:
  explicit Printer(const reflection::Schema& s) : schema_(s) {}
  std::string out;

  void table(const flatbuffers::Table& t, const reflection::Object& obj, int depth, const std::string& path) {
    const auto& fields = fields_by_id(obj);
    const std::string pad(size_t(2 * (depth + 1)), ' ');
    bool first = true;
    out += '{';
    for (const reflection::Field* f : fields) {
      if (!t.CheckField(f->offset())) continue;
      out += first ? "\n" : ",\n";
      first = false;
      out += pad;
      string(f->name()->string_view(), path);
      out += ": ";
      field(t, obj, *f, depth + 1, path.empty() ? f->name()->str() : path + "." + f->name()->str());
    }
    out += first ? "}" : "\n" + pad.substr(2) + "}";
  }

 private:
  const reflection::Schema& schema_;

  void string(std::string_view s, const std::string& path) {
    static const char* hex = "0123456789abcdef";
    out += '"';
    for (size_t i = 0; i < s.size();) {
      const auto c = static_cast<unsigned char>(s[i]);
      if (c == '"' || c == '\\') {
        out += '\\';
        out += char(c);
      } else if (c == '\n') {
        out += "\\n";
      } else if (c == '\t') {
        out += "\\t";
      } else if (c == '\r') {
        out += "\\r";
      } else if (c < 0x20) {
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 15];
      } else if (size_t n = utf8_seq(s, i); n > 0) {
        out.append(s.substr(i, n));
        i += n;
        continue;
      } else {
        throw Error(ErrorId::NoForm, "a string that is not UTF-8 cannot be written as JSON", {}, path);
      }
      ++i;
    }
    out += '"';
  }

  const reflection::Object& object_at(int32_t index) const { return *schema_.objects()->Get(uint32_t(index)); }

  // An integer, by its enum name when the type is an enum and the value one of its values
  // (flatc does the same; the parser reads names and numbers alike).
  void integer(int64_t v, const reflection::Type& type) {
    if (type.index() >= 0) {
      const reflection::Enum* e = schema_.enums()->Get(uint32_t(type.index()));
      if (const reflection::EnumVal* ev = e->values()->LookupByKey(v)) {
        out += '"';
        out += ev->name()->string_view();
        out += '"';
        return;
      }
    }
    out += std::to_string(v);
  }

  void scalar(const uint8_t* p, BaseType bt, const reflection::Type& type) {
    switch (bt) {
      case reflection::Bool: out += flatbuffers::ReadScalar<uint8_t>(p) ? "true" : "false"; break;
      case reflection::ULong: out += std::to_string(flatbuffers::ReadScalar<uint64_t>(p)); break;
      case reflection::Float: real(out, flatbuffers::ReadScalar<float>(p)); break;
      case reflection::Double: real(out, flatbuffers::ReadScalar<double>(p)); break;
      default: integer(flatbuffers::GetAnyValueI(bt, p), type); break;
    }
  }

  void structure(const uint8_t* p, const reflection::Object& obj, int depth, const std::string& path) {
    out += '{';
    bool first = true;
    for (const reflection::Field* f : fields_by_id(obj)) {
      out += first ? "" : ", ";
      first = false;
      string(f->name()->string_view(), path);
      out += ": ";
      const auto& type = *f->type();
      if (type.base_type() == reflection::Obj) structure(p + f->offset(), object_at(type.index()), depth, path);
      else scalar(p + f->offset(), type.base_type(), type);
    }
    out += '}';
  }

  // One element of a vector, or a field's value, at `p` (offset-typed elements are followed).
  void element(const uint8_t* p, BaseType bt, const reflection::Type& type, int depth, const std::string& path) {
    if (bt == reflection::String) {
      const auto* s = reinterpret_cast<const flatbuffers::String*>(p + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(p));
      string(s->string_view(), path);
    } else if (bt == reflection::Obj) {
      const auto& obj = object_at(type.index());
      if (obj.is_struct()) return structure(p, obj, depth, path);
      table(*reinterpret_cast<const flatbuffers::Table*>(p + flatbuffers::ReadScalar<flatbuffers::uoffset_t>(p)), obj,
            depth, path);
    } else {
      scalar(p, bt, type);
    }
  }

  void field(const flatbuffers::Table& t, const reflection::Object& owner, const reflection::Field& f, int depth,
             const std::string& path) {
    const reflection::Type& type = *f.type();
    const BaseType bt = type.base_type();
    if (bt == reflection::Vector) {
      const auto* v = t.GetPointer<const flatbuffers::VectorOfAny*>(f.offset());
      const BaseType et = type.element();
      const bool structs = et == reflection::Obj && object_at(type.index()).is_struct();
      const size_t size = structs ? size_t(object_at(type.index()).bytesize()) : flatbuffers::GetTypeSize(et);
      const bool tables = et == reflection::Obj && !structs;
      const std::string pad(size_t(2 * (depth + 1)), ' ');
      out += '[';
      for (flatbuffers::uoffset_t j = 0; j < v->size(); ++j) {
        out += tables ? (j ? ",\n" + pad : "\n" + pad) : (j ? ", " : "");
        // Element paths (for messages) only for tables and strings: constant data vectors are long.
        const bool named = tables || et == reflection::String;
        element(v->Data() + size_t(j) * size, et, type, depth + 1,
                named ? path + "[" + std::to_string(j) + "]" : path);
      }
      out += tables && v->size() ? "\n" + pad.substr(2) + "]" : "]";
      return;
    }
    if (bt == reflection::Union) {
      // The member is chosen by the `<name>_type` field that precedes it.
      const auto* tf = owner.fields()->LookupByKey((f.name()->str() + "_type").c_str());
      int64_t tag = tf ? flatbuffers::GetAnyFieldI(t, *tf) : 0;
      const reflection::Enum* e = schema_.enums()->Get(uint32_t(type.index()));
      const reflection::EnumVal* ev = e->values()->LookupByKey(tag);
      if (!ev || !ev->union_type() || ev->union_type()->index() < 0)
        throw Error(ErrorId::InvalidOther, "union member " + std::to_string(tag) + " is unknown", {}, path);
      table(*t.GetPointer<const flatbuffers::Table*>(f.offset()), object_at(ev->union_type()->index()), depth, path);
      return;
    }
    if (bt == reflection::Obj && object_at(type.index()).is_struct())
      return structure(t.GetStruct<const uint8_t*>(f.offset()), object_at(type.index()), depth, path);
    element(t.GetAddressOf(f.offset()), bt, type, depth, path);
  }
};

}  // namespace

std::string table_to_json(const reflection::Schema& schema, const reflection::Object& obj,
                          const flatbuffers::Table& root) {
  Printer p(schema);
  p.table(root, obj, 0, "");
  p.out += '\n';
  return std::move(p.out);
}

}  // namespace nnbridge::formats::armnn
