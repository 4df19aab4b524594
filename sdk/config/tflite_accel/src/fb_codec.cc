// Protobuf message <-> FlatBuffer twin, by walking the protobuf descriptor and the FlatBuffers
// reflection schema together: no per-field code, so a field added to the schema is covered.
#include <flatbuffers/flatbuffers.h>
#include <flatbuffers/reflection.h>

#include <cstring>
#include <map>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/format.h"

namespace nnbridge::config::tflite_accel::detail {
namespace {

using flatbuffers::uoffset_t;
using flatbuffers::voffset_t;
using CppType = pb::FieldDescriptor::CppType;

class Writer {
 public:
  // Presence is the rule: every field the message has is written, default value or not.
  Writer() { fbb_.ForceDefaults(true); }

  std::string write(const pb::Message& m) {
    fbb_.Finish(flatbuffers::Offset<flatbuffers::Table>(table(m, "")));
    return {reinterpret_cast<const char*>(fbb_.GetBufferPointer()), fbb_.GetSize()};
  }

 private:
  flatbuffers::FlatBufferBuilder fbb_;

  template <class T, class Get>
  uoffset_t scalars(int n, Get get) {
    std::vector<T> v(static_cast<std::size_t>(n));
    for (int j = 0; j < n; ++j) v[static_cast<std::size_t>(j)] = static_cast<T>(get(j));
    return fbb_.CreateVector(v).o;
  }

  uoffset_t vector(const pb::Message& m, const pb::FieldDescriptor* f, const std::string& path) {
    const pb::Reflection& r = *m.GetReflection();
    const int n = r.FieldSize(m, f);
    switch (f->cpp_type()) {
      case CppType::CPPTYPE_MESSAGE: {
        std::vector<flatbuffers::Offset<flatbuffers::Table>> v;
        for (int j = 0; j < n; ++j) v.emplace_back(table(r.GetRepeatedMessage(m, f, j), index(path, j)));
        return fbb_.CreateVector(v).o;
      }
      case CppType::CPPTYPE_STRING: {
        std::vector<flatbuffers::Offset<flatbuffers::String>> v;
        for (int j = 0; j < n; ++j) v.push_back(fbb_.CreateString(r.GetRepeatedString(m, f, j)));
        return fbb_.CreateVector(v).o;
      }
      case CppType::CPPTYPE_BOOL: return scalars<uint8_t>(n, [&](int j) { return r.GetRepeatedBool(m, f, j); });
      case CppType::CPPTYPE_INT32: return scalars<int32_t>(n, [&](int j) { return r.GetRepeatedInt32(m, f, j); });
      case CppType::CPPTYPE_INT64: return scalars<int64_t>(n, [&](int j) { return r.GetRepeatedInt64(m, f, j); });
      case CppType::CPPTYPE_UINT32: return scalars<uint32_t>(n, [&](int j) { return r.GetRepeatedUInt32(m, f, j); });
      case CppType::CPPTYPE_UINT64: return scalars<uint64_t>(n, [&](int j) { return r.GetRepeatedUInt64(m, f, j); });
      case CppType::CPPTYPE_FLOAT: return scalars<float>(n, [&](int j) { return r.GetRepeatedFloat(m, f, j); });
      case CppType::CPPTYPE_DOUBLE: return scalars<double>(n, [&](int j) { return r.GetRepeatedDouble(m, f, j); });
      case CppType::CPPTYPE_ENUM: return scalars<int32_t>(n, [&](int j) { return r.GetRepeatedEnumValue(m, f, j); });
    }
    return 0;
  }

  void scalar(const pb::Message& m, const pb::FieldDescriptor* f, voffset_t slot) {
    const pb::Reflection& r = *m.GetReflection();
    switch (f->cpp_type()) {
      case CppType::CPPTYPE_BOOL: fbb_.AddElement<uint8_t>(slot, r.GetBool(m, f) ? 1 : 0, 0); break;
      case CppType::CPPTYPE_INT32: fbb_.AddElement<int32_t>(slot, r.GetInt32(m, f), 0); break;
      case CppType::CPPTYPE_INT64: fbb_.AddElement<int64_t>(slot, r.GetInt64(m, f), 0); break;
      case CppType::CPPTYPE_UINT32: fbb_.AddElement<uint32_t>(slot, r.GetUInt32(m, f), 0); break;
      case CppType::CPPTYPE_UINT64: fbb_.AddElement<uint64_t>(slot, r.GetUInt64(m, f), 0); break;
      case CppType::CPPTYPE_FLOAT: fbb_.AddElement<float>(slot, r.GetFloat(m, f), 0); break;
      case CppType::CPPTYPE_DOUBLE: fbb_.AddElement<double>(slot, r.GetDouble(m, f), 0); break;
      case CppType::CPPTYPE_ENUM: fbb_.AddElement<int32_t>(slot, r.GetEnumValue(m, f), 0); break;
      default: break;
    }
  }

  uoffset_t table(const pb::Message& m, const std::string& path) {
    const pb::Descriptor& d = *m.GetDescriptor();
    const pb::Reflection& r = *m.GetReflection();
    // Out-of-enum values of singular enum fields are the only unknown fields the twin holds.
    std::map<int, int32_t> unknown_enum;
    for (const UnknownAt& u : unknown_fields(m, path, false)) {
      if (!fb_can_hold(u)) throw Error(ErrorId::NoForm, describe(u) + "; fb cannot hold it", {}, u.path);
      if (r.HasField(m, u.field))
        throw Error(ErrorId::NoForm,
                    "holds both a value of its enum and an unknown one (" + describe(u) + "); fb can hold one", {},
                    u.path);
      // The field given twice on the wire, both times outside the enum: protobuf keeps both.
      if (!unknown_enum.emplace(u.number, static_cast<int32_t>(static_cast<int64_t>(u.varint))).second)
        throw Error(ErrorId::NoForm,
                    "holds two unknown values (" + describe(u) + "); fb can hold one", {}, u.path);
    }
    // Strings, vectors and sub-tables first: nothing else may be built while a table is open.
    std::vector<std::pair<voffset_t, uoffset_t>> offsets;
    for (int i = 0; i < d.field_count(); ++i) {
      const pb::FieldDescriptor* f = d.field(i);
      const voffset_t slot = fb_field(*f).offset();
      const std::string p = join(path, f->name());
      if (f->is_repeated()) {
        if (r.FieldSize(m, f) > 0) offsets.emplace_back(slot, vector(m, f, p));
      } else if (r.HasField(m, f) && f->cpp_type() == CppType::CPPTYPE_MESSAGE) {
        offsets.emplace_back(slot, table(r.GetMessage(m, f), p));
      } else if (r.HasField(m, f) && f->cpp_type() == CppType::CPPTYPE_STRING) {
        std::string scratch;
        const std::string& s = r.GetStringReference(m, f, &scratch);
        offsets.emplace_back(slot, f->type() == pb::FieldDescriptor::TYPE_BYTES
                                       ? fbb_.CreateVector(reinterpret_cast<const uint8_t*>(s.data()), s.size()).o
                                       : fbb_.CreateString(s).o);
      }
    }
    const uoffset_t start = fbb_.StartTable();
    for (const auto& [slot, off] : offsets) fbb_.AddOffset(slot, flatbuffers::Offset<void>(off));
    for (int i = 0; i < d.field_count(); ++i) {
      const pb::FieldDescriptor* f = d.field(i);
      if (f->is_repeated()) continue;
      const voffset_t slot = fb_field(*f).offset();
      if (r.HasField(m, f)) {
        scalar(m, f, slot);
      } else if (auto it = unknown_enum.find(f->number()); it != unknown_enum.end()) {
        fbb_.AddElement<int32_t>(slot, it->second, 0);
      }
    }
    return fbb_.EndTable(start);
  }
};

class Reader {
 public:
  Reader(std::vector<Issue>& warnings, const std::string& file) : warnings_(warnings), file_(file) {}

  void table(const flatbuffers::Table& t, const reflection::Object& obj, pb::Message& m, const std::string& path) {
    reject_unknown_slots(t, obj, path);
    const pb::Descriptor& d = *m.GetDescriptor();
    const pb::Reflection& r = *m.GetReflection();
    for (int i = 0; i < d.field_count(); ++i) {
      const pb::FieldDescriptor* f = d.field(i);
      const reflection::Field& ff = fb_field(*f);
      const voffset_t slot = ff.offset();
      if (!t.CheckField(slot)) continue;
      const std::string p = join(path, f->name());
      if (f->is_repeated()) {
        vector(t, ff, m, f, p);
        continue;
      }
      switch (f->cpp_type()) {
        case CppType::CPPTYPE_BOOL: r.SetBool(&m, f, boolean(t.GetField<uint8_t>(slot, 0), p)); break;
        case CppType::CPPTYPE_INT32: r.SetInt32(&m, f, t.GetField<int32_t>(slot, 0)); break;
        case CppType::CPPTYPE_INT64: r.SetInt64(&m, f, t.GetField<int64_t>(slot, 0)); break;
        case CppType::CPPTYPE_UINT32: r.SetUInt32(&m, f, t.GetField<uint32_t>(slot, 0)); break;
        case CppType::CPPTYPE_UINT64: r.SetUInt64(&m, f, t.GetField<uint64_t>(slot, 0)); break;
        case CppType::CPPTYPE_FLOAT: r.SetFloat(&m, f, t.GetField<float>(slot, 0)); break;
        case CppType::CPPTYPE_DOUBLE: r.SetDouble(&m, f, t.GetField<double>(slot, 0)); break;
        case CppType::CPPTYPE_ENUM: enumeration(m, f, t.GetField<int32_t>(slot, 0), p); break;
        case CppType::CPPTYPE_STRING:
          if (f->type() == pb::FieldDescriptor::TYPE_BYTES) {
            const auto* v = t.GetPointer<const flatbuffers::Vector<uint8_t>*>(slot);
            r.SetString(&m, f, std::string(reinterpret_cast<const char*>(v->data()), v->size()));
          } else {
            r.SetString(&m, f, t.GetPointer<const flatbuffers::String*>(slot)->str());
          }
          break;
        case CppType::CPPTYPE_MESSAGE:
          table(*t.GetPointer<const flatbuffers::Table*>(slot), fb_object(*f->message_type()),
                *r.MutableMessage(&m, f), p);
          break;
      }
    }
  }

 private:
  std::vector<Issue>& warnings_;
  const std::string& file_;

  void warn(const std::string& where, std::string message) {
    warnings_.push_back({Issue::Severity::Warning, where, std::move(message)});
  }

  bool boolean(uint8_t v, const std::string& where) {
    if (v > 1) warn(where, "the FlatBuffer bool holds " + std::to_string(v) + "; read as true, written back as 1");
    return v != 0;
  }

  // A table written against a newer schema can hold fields this one does not know; they
  // cannot be kept (their types are unknown), so the document is refused rather than cut.
  void reject_unknown_slots(const flatbuffers::Table& t, const reflection::Object& obj, const std::string& path) {
    const uint8_t* vt = t.GetVTable();
    const auto vsize = flatbuffers::ReadScalar<voffset_t>(vt);
    const std::size_t slots = vsize >= 4 ? (vsize - 4) / sizeof(voffset_t) : 0;
    for (std::size_t i = obj.fields()->size(); i < slots; ++i) {
      if (flatbuffers::ReadScalar<voffset_t>(vt + 4 + i * sizeof(voffset_t)) != 0)
        throw Error(ErrorId::Version,
                    "table " + obj.name()->str() + " holds field " + std::to_string(i) + ", but the schema has " +
                        std::to_string(obj.fields()->size()) + " (written against a newer configuration.proto?)",
                    file_, path.empty() ? "(root)" : path);
    }
  }

  void enumeration(pb::Message& m, const pb::FieldDescriptor* f, int32_t v, const std::string& where) {
    const pb::Reflection& r = *m.GetReflection();
    if (f->enum_type()->FindValueByNumber(v)) {
      r.SetEnumValue(&m, f, v);
      return;
    }
    // What protobuf's own parser does with such a value on the wire (proto2 enums are closed).
    r.MutableUnknownFields(&m)->AddVarint(f->number(), static_cast<uint64_t>(static_cast<int64_t>(v)));
    UnknownAt u;
    u.path = where;
    u.number = f->number();
    u.field = f;
    u.is_varint = true;
    u.varint = static_cast<uint64_t>(static_cast<int64_t>(v));
    warn(where, describe(u));
  }

  template <class T, class Add>
  void each(const flatbuffers::Table& t, voffset_t slot, const std::string& where, Add add) {
    const auto* v = t.GetPointer<const flatbuffers::Vector<T>*>(slot);
    for (uoffset_t j = 0; j < v->size(); ++j) add(v->Get(j), index(where, j));
  }

  void vector(const flatbuffers::Table& t, const reflection::Field& ff, pb::Message& m, const pb::FieldDescriptor* f,
              const std::string& where) {
    const voffset_t slot = ff.offset();
    if (t.GetPointer<const flatbuffers::VectorOfAny*>(slot)->size() == 0) {
      warn(where, "an empty vector is present; protobuf repeated fields have no presence, so it reads as absent");
      return;
    }
    const pb::Reflection& r = *m.GetReflection();
    switch (f->cpp_type()) {
      case CppType::CPPTYPE_MESSAGE: {
        const reflection::Object& child = fb_object(*f->message_type());
        each<flatbuffers::Offset<flatbuffers::Table>>(
            t, slot, where, [&](const flatbuffers::Table* e, const std::string& p) { table(*e, child, *r.AddMessage(&m, f), p); });
        break;
      }
      case CppType::CPPTYPE_STRING:
        each<flatbuffers::Offset<flatbuffers::String>>(
            t, slot, where, [&](const flatbuffers::String* e, const std::string&) { r.AddString(&m, f, e->str()); });
        break;
      case CppType::CPPTYPE_BOOL:
        each<uint8_t>(t, slot, where, [&](uint8_t e, const std::string& p) { r.AddBool(&m, f, boolean(e, p)); });
        break;
      case CppType::CPPTYPE_INT32: each<int32_t>(t, slot, where, [&](int32_t e, const auto&) { r.AddInt32(&m, f, e); }); break;
      case CppType::CPPTYPE_INT64: each<int64_t>(t, slot, where, [&](int64_t e, const auto&) { r.AddInt64(&m, f, e); }); break;
      case CppType::CPPTYPE_UINT32: each<uint32_t>(t, slot, where, [&](uint32_t e, const auto&) { r.AddUInt32(&m, f, e); }); break;
      case CppType::CPPTYPE_UINT64: each<uint64_t>(t, slot, where, [&](uint64_t e, const auto&) { r.AddUInt64(&m, f, e); }); break;
      case CppType::CPPTYPE_FLOAT: each<float>(t, slot, where, [&](float e, const auto&) { r.AddFloat(&m, f, e); }); break;
      case CppType::CPPTYPE_DOUBLE: each<double>(t, slot, where, [&](double e, const auto&) { r.AddDouble(&m, f, e); }); break;
      case CppType::CPPTYPE_ENUM:
        each<int32_t>(t, slot, where, [&](int32_t e, const std::string& p) {
          if (!f->enum_type()->FindValueByNumber(e))
            throw Error(ErrorId::NoForm,
                        std::to_string(e) + " is not a value of the closed proto2 enum " + f->enum_type()->full_name() +
                            "; protobuf would keep it apart from the list (as an unknown field), losing its position",
                        file_, p);
          r.AddEnumValue(&m, f, e);
        });
        break;
    }
  }
};

}  // namespace

std::string to_fb(const pb::Message& m) { return Writer().write(m); }

void from_fb(std::string_view bytes, pb::Message& m, std::vector<Issue>& warnings, const std::string& file,
             const VerifierLimits& limits) {
  m.Clear();
  const std::string root_name = fb_name(*m.GetDescriptor());
  if (bytes.size() < 2 * sizeof(uoffset_t) || bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
    throw Error(ErrorId::Truncated,
                std::to_string(bytes.size()) + " bytes cannot be a FlatBuffer of table " + root_name, file);
  // FlatBuffers reads scalars in place: give it 8-byte aligned storage. The zero padding behind
  // the bytes is a guard: libflatbuffers' reflection verifier (2.0.8, still so upstream) reads a
  // union's type and offset through the vtable without checking that the field lies inside the
  // buffer, so a table near the end can make it read up to 64 KiB (the largest voffset) plus one
  // offset past the data. The verifier is still given the real length, so every offset it follows
  // is checked against the bytes themselves; the padding only keeps those unchecked reads in memory
  // we own (found by tests/fuzz/fuzz_tflite_settings_fb; regression: tests/fuzz/regressions).
  constexpr std::size_t kGuard = 65536 + 16;
  std::vector<uint64_t> storage((bytes.size() + kGuard + 7) / 8, 0);
  std::memcpy(storage.data(), bytes.data(), bytes.size());
  const auto* buf = reinterpret_cast<const uint8_t*>(storage.data());
  const reflection::Object& root = fb_object(*m.GetDescriptor());
  // The graph formats' verifier bounds by default (nnbridge/format.h): a settings file of 1M
  // entries has 2M tables, which FlatBuffers' default of 1M refused as if the bytes were malformed.
  if (!flatbuffers::Verify(fb_schema(), root, buf, bytes.size(), limits.max_depth, limits.max_tables))
    throw Error(ErrorId::VerifyFailed,
                "not a valid FlatBuffer of table " + root_name + " (verification failed: malformed, or nested deeper than " +
                    std::to_string(limits.max_depth) + " or holding more than " + std::to_string(limits.max_tables) +
                    " tables, the verifier's bounds: reader options settings.max_depth, settings.max_tables)",
                file);
  Reader(warnings, file).table(*flatbuffers::GetAnyRoot(buf), root, m, "");
}

}  // namespace nnbridge::config::tflite_accel::detail
