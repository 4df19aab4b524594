#include "fields.h"

#include <algorithm>
#include <unordered_map>

#include "armnn/ArmnnSchema_bfbs_generated.h"
#include "nnbridge/error.h"
#include "nnbridge/narrow.h"

namespace nnbridge::formats::armnn {

using reflection::BaseType;

const reflection::Schema& schema() {
  static const reflection::Schema* s = reflection::GetSchema(armnnSerializer::SerializedGraphBinarySchema::data());
  return *s;
}

const reflection::Object& object(std::string_view name) {
  const auto* o = schema().objects()->LookupByKey(std::string(name).c_str());
  if (!o) throw Error(ErrorId::InvalidOther, "armnn: no table " + std::string(name) + " in the schema");
  return *o;
}

const std::vector<const reflection::Field*>& fields_by_id(const reflection::Object& obj) {
  // Built for every table of the schema at first use (thread-safe static), read-only after.
  static const auto by_object = [] {
    std::unordered_map<const reflection::Object*, std::vector<const reflection::Field*>> m;
    for (const auto* o : *schema().objects()) {
      std::vector<const reflection::Field*> out(o->fields()->begin(), o->fields()->end());
      std::sort(out.begin(), out.end(), [](auto* a, auto* b) { return a->id() < b->id(); });
      m.emplace(o, std::move(out));
    }
    return m;
  }();
  auto it = by_object.find(&obj);
  if (it == by_object.end()) throw Error(ErrorId::InvalidOther, "armnn: a table outside the embedded schema");
  return it->second;
}

const reflection::Object* field_object(const reflection::Field& f) {
  auto bt = f.type()->base_type();
  if (bt == BaseType::Obj || (bt == BaseType::Vector && f.type()->element() == BaseType::Obj))
    return schema().objects()->Get(f.type()->index());
  return nullptr;
}

namespace {

bool is_float(BaseType t) { return t == BaseType::Float || t == BaseType::Double; }

Attr read_scalar(const flatbuffers::Table* t, const reflection::Field& f) {
  auto bt = f.type()->base_type();
  if (bt == BaseType::Bool) return Attr(flatbuffers::GetFieldI<uint8_t>(*t, f) != 0);
  if (bt == BaseType::Float) return Attr(double(flatbuffers::GetFieldF<float>(*t, f)));
  if (bt == BaseType::Double) return Attr(flatbuffers::GetFieldF<double>(*t, f));
  return Attr(int64_t(flatbuffers::GetAnyFieldI(*t, f)));
}

template <class T> std::vector<int64_t> ints_of(const flatbuffers::Vector<T>* v) {
  return std::vector<int64_t>(v->begin(), v->end());
}

Attr read_scalar_vector(const flatbuffers::Table* t, const reflection::Field& f) {
  switch (f.type()->element()) {
    case BaseType::Bool: {
      auto* v = flatbuffers::GetFieldV<uint8_t>(*t, f);
      std::vector<bool> out;
      for (auto x : *v) out.push_back(x != 0);
      return Attr(out);
    }
    case BaseType::Byte: return Attr(ints_of(flatbuffers::GetFieldV<int8_t>(*t, f)));
    case BaseType::UByte: return Attr(ints_of(flatbuffers::GetFieldV<uint8_t>(*t, f)));
    case BaseType::Short: return Attr(ints_of(flatbuffers::GetFieldV<int16_t>(*t, f)));
    case BaseType::UShort: return Attr(ints_of(flatbuffers::GetFieldV<uint16_t>(*t, f)));
    case BaseType::Int: return Attr(ints_of(flatbuffers::GetFieldV<int32_t>(*t, f)));
    case BaseType::UInt: return Attr(ints_of(flatbuffers::GetFieldV<uint32_t>(*t, f)));
    case BaseType::Long: return Attr(ints_of(flatbuffers::GetFieldV<int64_t>(*t, f)));
    case BaseType::ULong: {
      auto* v = flatbuffers::GetFieldV<uint64_t>(*t, f);
      std::vector<int64_t> out;
      for (auto x : *v) out.push_back(static_cast<int64_t>(x));
      return Attr(out);
    }
    case BaseType::Float: {
      auto* v = flatbuffers::GetFieldV<float>(*t, f);
      return Attr(std::vector<double>(v->begin(), v->end()));
    }
    case BaseType::Double: {
      auto* v = flatbuffers::GetFieldV<double>(*t, f);
      return Attr(std::vector<double>(v->begin(), v->end()));
    }
    default: break;
  }
  throw Error(ErrorId::Feature, "armnn: vector field " + std::string(f.name()->str()) + " has an unhandled type");
}

}  // namespace

void read_fields(const reflection::Object& obj, const flatbuffers::Table* t, const std::string& prefix,
                 FieldMap& out, const std::function<bool(const reflection::Field&)>& skip) {
  for (const auto* f : fields_by_id(obj)) {
    if (f->deprecated() || (skip && skip(*f))) continue;
    std::string key;
    key.reserve(prefix.size() + f->name()->size());
    key.append(prefix).append(f->name()->string_view());
    auto bt = f->type()->base_type();
    if (flatbuffers::IsScalar(bt)) {
      out.insert_or_assign(std::move(key), read_scalar(t, *f));
    } else if (bt == BaseType::String) {
      if (auto* s = flatbuffers::GetFieldS(*t, *f)) out[key] = Attr(s->str());
    } else if (bt == BaseType::Vector) {
      if (!t->CheckField(f->offset())) continue;
      if (f->type()->element() == BaseType::Obj) {
        const auto* eo = field_object(*f);
        auto* v = flatbuffers::GetFieldV<flatbuffers::Offset<flatbuffers::Table>>(*t, *f);
        out[key] = Attr(int64_t(v->size()));
        for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i)
          read_fields(*eo, v->Get(i), key + "[" + std::to_string(i) + "].", out);
      } else if (f->type()->element() == BaseType::String) {
        auto* v = flatbuffers::GetFieldV<flatbuffers::Offset<flatbuffers::String>>(*t, *f);
        std::vector<std::string> s;
        for (flatbuffers::uoffset_t i = 0; i < v->size(); ++i) s.push_back(v->Get(i)->str());
        out[key] = Attr(s);
      } else {
        out[key] = read_scalar_vector(t, *f);
      }
    } else if (bt == BaseType::Obj) {
      const auto* so = field_object(*f);
      if (so->is_struct()) throw Error(ErrorId::Feature, "armnn: struct field " + key + " in a descriptor");
      if (auto* sub = flatbuffers::GetFieldT(*t, *f)) {
        out[key] = Attr(true);
        read_fields(*so, sub, key + ".", out);
      }
    } else {
      throw Error(ErrorId::Feature, "armnn: union field " + key + " in a descriptor");
    }
  }
}

bool scalar_key(const reflection::Object& obj, const flatbuffers::Table* t, std::string& key,
                const std::function<bool(const reflection::Field&)>& skip) {
  for (const auto* f : fields_by_id(obj)) {
    if (f->deprecated() || (skip && skip(*f))) continue;
    const auto bt = f->type()->base_type();
    if (bt == BaseType::Float || bt == BaseType::Double) {
      const double v = bt == BaseType::Float ? double(flatbuffers::GetFieldF<float>(*t, *f))
                                             : flatbuffers::GetFieldF<double>(*t, *f);
      key.append(reinterpret_cast<const char*>(&v), sizeof v);
    } else if (flatbuffers::IsScalar(bt)) {
      // Bool as read_scalar reads it: any non-zero byte is true.
      const int64_t v = bt == BaseType::Bool ? int64_t(flatbuffers::GetFieldI<uint8_t>(*t, *f) != 0)
                                             : int64_t(flatbuffers::GetAnyFieldI(*t, *f));
      key.append(reinterpret_cast<const char*>(&v), sizeof v);
    } else if (bt == BaseType::Obj) {
      const auto* so = field_object(*f);
      if (so->is_struct()) return false;
      const auto* sub = flatbuffers::GetFieldT(*t, *f);
      key.push_back(sub ? '\1' : '\0');
      if (sub && !scalar_key(*so, sub, key)) return false;
    } else {
      return false;
    }
  }
  return true;
}

namespace {

const Attr* find(const FieldMap& m, const std::string& k) {
  auto it = m.find(k);
  return it == m.end() ? nullptr : &it->second;
}

int64_t as_int(const Attr& a, const std::string& key) {
  if (a.is<int64_t>()) return a.get<int64_t>();
  if (a.is<bool>()) return a.get<bool>() ? 1 : 0;
  if (a.is<double>()) return static_cast<int64_t>(a.get<double>());
  throw Error(ErrorId::AttributeValue, "armnn: field " + key + " needs an integer");
}
double as_float(const Attr& a, const std::string& key) {
  if (a.is<double>()) return a.get<double>();
  if (a.is<int64_t>()) return double(a.get<int64_t>());
  throw Error(ErrorId::AttributeValue, "armnn: field " + key + " needs a number");
}

template <class T> flatbuffers::uoffset_t int_vector(flatbuffers::FlatBufferBuilder& b, const Attr& a, const std::string& key) {
  if (!a.is<std::vector<int64_t>>()) throw Error(ErrorId::AttributeValue, "armnn: field " + key + " needs a list of ints");
  std::vector<T> v;
  const auto& in = a.get<std::vector<int64_t>>();
  for (std::size_t i = 0; i < in.size(); ++i) v.push_back(narrow_field<T>(in[i], "armnn: field " + key + "[" + std::to_string(i) + "]"));
  return b.CreateVector(v).o;
}

flatbuffers::uoffset_t build_vector(flatbuffers::FlatBufferBuilder& b, const reflection::Field& f, const Attr& a,
                                    const std::string& key) {
  switch (f.type()->element()) {
    case BaseType::Bool: {
      if (!a.is<std::vector<bool>>()) throw Error(ErrorId::AttributeValue, "armnn: field " + key + " needs a list of bools");
      std::vector<uint8_t> v;
      for (bool x : a.get<std::vector<bool>>()) v.push_back(x ? 1 : 0);
      return b.CreateVector(v).o;
    }
    case BaseType::Byte: return int_vector<int8_t>(b, a, key);
    case BaseType::UByte: return int_vector<uint8_t>(b, a, key);
    case BaseType::Short: return int_vector<int16_t>(b, a, key);
    case BaseType::UShort: return int_vector<uint16_t>(b, a, key);
    case BaseType::Int: return int_vector<int32_t>(b, a, key);
    case BaseType::UInt: return int_vector<uint32_t>(b, a, key);
    case BaseType::Long: return int_vector<int64_t>(b, a, key);
    case BaseType::ULong: return int_vector<uint64_t>(b, a, key);
    case BaseType::Float: {
      if (!a.is<std::vector<double>>()) throw Error(ErrorId::AttributeValue, "armnn: field " + key + " needs a list of floats");
      std::vector<float> v;
      for (double x : a.get<std::vector<double>>()) v.push_back(static_cast<float>(x));
      return b.CreateVector(v).o;
    }
    case BaseType::String: {
      if (!a.is<std::vector<std::string>>()) throw Error(ErrorId::AttributeValue, "armnn: field " + key + " needs strings");
      return b.CreateVectorOfStrings(a.get<std::vector<std::string>>()).o;
    }
    default: break;
  }
  throw Error(ErrorId::Feature, "armnn: vector field " + key + " has an unhandled type");
}

void add_scalar(flatbuffers::FlatBufferBuilder& b, const reflection::Field& f, const Attr& a, const std::string& key) {
  auto vo = f.offset();
  auto di = f.default_integer();
  switch (f.type()->base_type()) {
    case BaseType::Bool: b.AddElement<uint8_t>(vo, as_int(a, key) ? 1 : 0, uint8_t(di)); break;
    case BaseType::Byte: b.AddElement<int8_t>(vo, narrow_field<int8_t>(as_int(a, key), "armnn: field " + key), int8_t(di)); break;
    case BaseType::UByte: b.AddElement<uint8_t>(vo, narrow_field<uint8_t>(as_int(a, key), "armnn: field " + key), uint8_t(di)); break;
    case BaseType::Short: b.AddElement<int16_t>(vo, narrow_field<int16_t>(as_int(a, key), "armnn: field " + key), int16_t(di)); break;
    case BaseType::UShort: b.AddElement<uint16_t>(vo, narrow_field<uint16_t>(as_int(a, key), "armnn: field " + key), uint16_t(di)); break;
    case BaseType::Int: b.AddElement<int32_t>(vo, narrow_field<int32_t>(as_int(a, key), "armnn: field " + key), int32_t(di)); break;
    case BaseType::UInt: b.AddElement<uint32_t>(vo, narrow_field<uint32_t>(as_int(a, key), "armnn: field " + key), uint32_t(di)); break;
    case BaseType::Long: b.AddElement<int64_t>(vo, as_int(a, key), di); break;
    case BaseType::ULong: b.AddElement<uint64_t>(vo, narrow_field<uint64_t>(as_int(a, key), "armnn: field " + key), uint64_t(di)); break;
    case BaseType::Float: b.AddElement<float>(vo, float(as_float(a, key)), float(f.default_real())); break;
    case BaseType::Double: b.AddElement<double>(vo, as_float(a, key), f.default_real()); break;
    default: throw Error(ErrorId::Feature, "armnn: field " + key + " has an unhandled type");
  }
}

}  // namespace

flatbuffers::uoffset_t build_table(flatbuffers::FlatBufferBuilder& b, const reflection::Object& obj,
                                   const std::string& prefix, const FieldMap& in,
                                   const std::map<std::string, flatbuffers::uoffset_t>& extra) {
  const auto& fields = fields_by_id(obj);
  std::vector<std::pair<const reflection::Field*, flatbuffers::uoffset_t>> offsets;
  for (const auto* f : fields) {
    std::string name = f->name()->str();
    if (auto it = extra.find(name); it != extra.end()) {
      if (it->second) offsets.emplace_back(f, it->second);
      continue;
    }
    std::string key = prefix + name;
    auto bt = f->type()->base_type();
    if (flatbuffers::IsScalar(bt)) continue;
    const Attr* a = find(in, key);
    if (!a) continue;
    if (bt == BaseType::String) {
      if (!a->is<std::string>()) throw Error(ErrorId::AttributeValue, "armnn: field " + key + " needs a string");
      offsets.emplace_back(f, b.CreateString(a->get<std::string>()).o);
    } else if (bt == BaseType::Vector && f->type()->element() == BaseType::Obj) {
      int64_t n = as_int(*a, key);
      if (n < 0 || n > (int64_t(1) << 24)) throw Error(ErrorId::AttributeValue, "armnn: field " + key + " has a bad length");
      std::vector<flatbuffers::Offset<flatbuffers::Table>> elems;
      for (int64_t i = 0; i < n; ++i)
        elems.emplace_back(build_table(b, *field_object(*f), key + "[" + std::to_string(i) + "].", in));
      offsets.emplace_back(f, b.CreateVector(elems).o);
    } else if (bt == BaseType::Vector) {
      offsets.emplace_back(f, build_vector(b, *f, *a, key));
    } else if (bt == BaseType::Obj) {
      offsets.emplace_back(f, build_table(b, *field_object(*f), key + ".", in));
    }
  }
  auto start = b.StartTable();
  for (auto& [f, off] : offsets) b.AddOffset(f->offset(), flatbuffers::Offset<void>(off));
  for (const auto* f : fields) {
    if (!flatbuffers::IsScalar(f->type()->base_type())) continue;
    if (extra.count(f->name()->str())) continue;
    std::string key = prefix + f->name()->str();
    if (const Attr* a = find(in, key)) add_scalar(b, *f, *a, key);
  }
  return b.EndTable(start);
}

namespace {
const reflection::Field* lookup_path(const reflection::Object& obj, std::string_view path) {
  const reflection::Object* o = &obj;
  while (true) {
    auto dot = path.find('.');
    std::string seg(path.substr(0, dot));
    if (auto br = seg.find('['); br != std::string::npos) seg.resize(br);
    const auto* f = o->fields()->LookupByKey(seg.c_str());
    if (!f) return nullptr;
    if (dot == std::string_view::npos) return f;
    o = field_object(*f);
    if (!o) return nullptr;
    path = path.substr(dot + 1);
  }
}
}  // namespace

Attr default_of(const reflection::Object& obj, std::string_view path) {
  const auto* f = lookup_path(obj, path);
  if (!f || !flatbuffers::IsScalar(f->type()->base_type()))
    throw Error(ErrorId::InvalidOther, "armnn: no scalar field " + std::string(path) + " in " + obj.name()->str());
  auto bt = f->type()->base_type();
  if (bt == BaseType::Bool) return Attr(f->default_integer() != 0);
  if (is_float(bt)) return Attr(double(float(f->default_real())));
  return Attr(int64_t(f->default_integer()));
}

void add_markers(const reflection::Object& obj, FieldMap& m) {
  std::vector<std::string> keys;
  for (auto& [k, v] : m) keys.push_back(k);
  for (const auto& k : keys) {
    for (size_t pos = k.find('.'); pos != std::string::npos; pos = k.find('.', pos + 1)) {
      std::string head = k.substr(0, pos);
      if (head.back() == ']') continue;
      const auto* f = lookup_path(obj, head);
      if (f && f->type()->base_type() == BaseType::Obj && !m.count(head)) m[head] = Attr(true);
    }
  }
}

int64_t get_int(const FieldMap& m, const reflection::Object& obj, std::string_view path) {
  auto it = m.find(path);
  return as_int(it != m.end() ? it->second : default_of(obj, path), std::string(path));
}
double get_float(const FieldMap& m, const reflection::Object& obj, std::string_view path) {
  auto it = m.find(path);
  return as_float(it != m.end() ? it->second : default_of(obj, path), std::string(path));
}
bool get_bool(const FieldMap& m, const reflection::Object& obj, std::string_view path) {
  return get_int(m, obj, path) != 0;
}
std::vector<int64_t> get_ints(const FieldMap& m, std::string_view path) {
  auto it = m.find(path);
  if (it == m.end() || !it->second.is<std::vector<int64_t>>()) return {};
  return it->second.get<std::vector<int64_t>>();
}

}  // namespace nnbridge::formats::armnn
