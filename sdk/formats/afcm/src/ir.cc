// The IR form of a compiled model (documented for users in nnbridge/formats/afcm.h), both ways:
// Model -> Graph for the reader, Graph -> Model for the writer, the checker and `afcm shaders`.
#include <algorithm>
#include <charconv>
#include <limits>
#include <map>
#include <set>
#include <span>

#include "internal.h"

namespace nnbridge::formats::afcm {
namespace {

std::string idx(const std::string& field, std::size_t i) { return field + "[" + std::to_string(i) + "]"; }
std::string param_key(std::size_t k, const char* f) { return "gl." + idx("parameters", k) + "." + f; }

std::vector<int64_t> ints(const Uint3& v, int n = 3) { return std::vector<int64_t>(v.begin(), v.begin() + n); }

bool writes(int8_t access) { return access_name(access) == "WRITE" || access_name(access) == "READ_WRITE"; }

}  // namespace

Graph to_graph(const Model& m) {
  Graph g;
  g.source_format = "afcm";
  if (m.dynamic_batch) g.metadata["gl.dynamic_batch"] = Attr(*m.dynamic_batch);
  if (m.shaders) g.metadata["gl.shaders"] = Attr(*m.shaders);
  if (!m.programs) g.metadata["gl.absent"] = Attr(std::vector<std::string>{"programs"});
  if (!m.programs) return g;

  std::map<uint32_t, ValueId> refs;
  std::set<ValueId> outputs;
  g.nodes.reserve(m.programs->size());
  // At most one value per object: reserving once avoids the copies (and the doubled peak) of growth.
  std::size_t objects = 0;
  for (const Program& p : *m.programs) objects += p.objects ? p.objects->size() : 0;
  g.values.reserve(objects);
  for (std::size_t i = 0; i < m.programs->size(); ++i) {
    const Program& p = (*m.programs)[i];
    Node n;
    n.op = kProgramOp;
    n.name = idx("programs", i);  // programs have no names; this one says where the node came from
    std::vector<std::string> absent;
    n.attrs["gl.shader_index"] = Attr(int64_t{p.shader_index});
    if (p.number_workgroups) n.attrs["gl.number_workgroups"] = Attr(ints(*p.number_workgroups));
    if (p.workgroup_size) n.attrs["gl.workgroup_size"] = Attr(ints(*p.workgroup_size));
    if (p.binary) {
      n.attrs["gl.binary.format"] = Attr(int64_t{p.binary->format});
      if (p.binary->binary) n.attrs["gl.binary.binary"] = Attr(Bytes{*p.binary->binary});
    }
    if (!p.objects) absent.push_back("objects");
    // Object fields are columns, one list entry per object (input): a key per field and object
    // would cost a map node and a heap string each, tens of times the file's size.
    if (p.objects && !p.objects->empty()) {
      const std::size_t count = p.objects->size();
      std::vector<std::string> access, data_type, type, size_type, object_type;
      std::vector<int64_t> binding, size;
      for (auto* v : {&access, &data_type, &type, &size_type, &object_type}) v->reserve(count);
      binding.reserve(count);
      for (std::size_t j = 0; j < count; ++j) {
        const Object& o = (*p.objects)[j];
        access.push_back(access_name(o.access));
        binding.push_back(int64_t{o.binding});
        data_type.push_back(data_type_name(o.data_type));
        type.push_back(object_type_name(o.type));
        size_type.push_back(std::string(tag_name(o.size_type)));
        if (o.size)
          for (int c = 0; c < components(o.size_type); ++c) size.push_back(int64_t{(*o.size)[std::size_t(c)]});
        object_type.push_back(std::string(tag_name(o.object_type)));
      }
      n.attrs["gl.objects.access"] = Attr(std::move(access));
      n.attrs["gl.objects.binding"] = Attr(std::move(binding));
      n.attrs["gl.objects.data_type"] = Attr(std::move(data_type));
      n.attrs["gl.objects.type"] = Attr(std::move(type));
      n.attrs["gl.objects.size_type"] = Attr(std::move(size_type));
      if (!size.empty()) n.attrs["gl.objects.size"] = Attr(std::move(size));
      n.attrs["gl.objects.object_type"] = Attr(std::move(object_type));
    }
    n.inputs.reserve(p.objects ? p.objects->size() : 0);
    for (std::size_t j = 0; p.objects && j < p.objects->size(); ++j) {
      const Object& o = (*p.objects)[j];
      if (!o.size && o.size_type != SizeTag::NONE) absent.push_back(idx("objects", j) + ".size");
      ValueId id = kNoValue;
      if (o.object_present && o.object_type == ObjectTag::ObjectData) {
        Value v;
        v.name = idx("programs", i) + "." + idx("objects", j);
        v.type.dtype = DataType::UInt8;
        v.type.shape = {int64_t(o.data ? o.data->size() : 0)};
        v.constant = o.data ? *o.data : Buffer();
        if (!o.data) absent.push_back(idx("objects", j) + ".object.data");
        id = g.add_value(std::move(v));
      } else if (o.object_present && o.object_type == ObjectTag::ObjectRef) {
        auto [it, fresh] = refs.emplace(o.global_id, ValueId(g.values.size()));
        if (fresh) {
          Value v;
          v.name = "global_id_" + std::to_string(o.global_id);
          v.type.unknown_rank = true;
          v.attrs["gl.global_id"] = Attr(int64_t{o.global_id});
          g.add_value(std::move(v));
          g.inputs.push_back(it->second);
        }
        id = it->second;
        if (writes(o.access) && outputs.insert(id).second) g.outputs.push_back(id);
      }
      n.inputs.push_back(id);
    }
    if (!p.parameters) absent.push_back("parameters");
    for (std::size_t k = 0; p.parameters && k < p.parameters->size(); ++k) {
      const Parameter& u = (*p.parameters)[k];
      if (u.name) n.attrs[param_key(k, "name")] = Attr(*u.name);
      n.attrs[param_key(k, "type")] = Attr(parameter_type_name(u.type));
      n.attrs[param_key(k, "data_type")] = Attr(std::string(tag_name(u.data_type)));
      if (!u.data_present) continue;
      if (u.data_type == DataTag::DataFloat && u.floats) n.attrs[param_key(k, "data")] = Attr(*u.floats);
      else if (u.data_type != DataTag::DataFloat && u.ints) n.attrs[param_key(k, "data")] = Attr(*u.ints);
      else absent.push_back(idx("parameters", k) + ".data.data");
    }
    if (!absent.empty()) n.attrs["gl.absent"] = Attr(std::move(absent));
    g.add_node(std::move(n));
  }
  return g;
}

namespace {

// Reads one gl.Program node back into a Program, reporting what does not fit.
class NodeDecoder {
 public:
  NodeDecoder(const Graph& g, std::size_t i, const ProblemFn& problem)
      : g_(g), n_(g.nodes[i]), at_("nodes[" + std::to_string(i) + "]"), problem_(problem) {}

  Program run() {
    Program p;
    read_absent();
    check_keys();
    if (auto v = uint_attr("gl.shader_index", true)) p.shader_index = *v;
    p.number_workgroups = uint3_attr("gl.number_workgroups");
    p.workgroup_size = uint3_attr("gl.workgroup_size");
    if (auto f = uint_attr("gl.binary.format", false)) {
      p.binary.emplace();
      p.binary->format = *f;
      if (const Attr* a = attr("gl.binary.binary", AttrType::Bytes)) p.binary->binary = a->get<Bytes>().data;
    } else if (n_.attrs.count("gl.binary.binary")) {
      bad(ErrorId::AttributeValue, "gl.binary.binary", "needs gl.binary.format (the ProgramBinary table's presence)");
    }
    if (absent_.count("objects")) {
      if (!n_.inputs.empty()) problem_(ErrorId::Arity, at_ + ".inputs", "gl.absent lists \"objects\", but the node has inputs");
    } else {
      p.objects.emplace();
      read_columns();
      p.objects->reserve(n_.inputs.size());
      for (std::size_t j = 0; j < n_.inputs.size(); ++j) p.objects->push_back(object(j));
      if (size_used_ != size_col_.size())
        bad(ErrorId::Arity, "gl.objects.size", "holds " + std::to_string(size_col_.size()) + " numbers, the objects' size_types take " +
                                   std::to_string(size_used_));
    }
    if (absent_.count("parameters")) {
      if (parameter_count_ > 0) bad(ErrorId::AttributeValue, "gl.absent", "lists \"parameters\", but the node has gl.parameters[*] attributes");
    } else {
      p.parameters.emplace();
      for (std::size_t k = 0; k < parameter_count_; ++k) p.parameters->push_back(parameter(k));
    }
    return p;
  }

 private:
  void bad(ErrorId id, const std::string& key, const std::string& msg) { problem_(id, at_ + ".attrs." + key, msg); }

  const Attr* attr(const std::string& key, AttrType type, bool required = false) {
    auto it = n_.attrs.find(key);
    if (it == n_.attrs.end()) {
      if (required) bad(ErrorId::AttributeValue, key, "is missing");
      return nullptr;
    }
    if (it->second.type() != type) {
      bad(ErrorId::AttributeValue, key, "is " + std::string(to_string(it->second.type())) + ", expected " + std::string(to_string(type)));
      return nullptr;
    }
    return &it->second;
  }

  std::optional<uint32_t> uint_attr(const std::string& key, bool required) {
    const Attr* a = attr(key, AttrType::Int, required);
    if (!a) return std::nullopt;
    int64_t v = a->get<int64_t>();
    if (v < 0 || v > int64_t(UINT32_MAX)) {
      bad(ErrorId::Narrowing, key, std::to_string(v) + " is outside uint32");
      return std::nullopt;
    }
    return uint32_t(v);
  }

  std::optional<Uint3> uint3_attr(const std::string& key, int n = 3) {
    const Attr* a = attr(key, AttrType::Ints);
    if (!a) return std::nullopt;
    const auto& v = a->get<std::vector<int64_t>>();
    if (int(v.size()) != n) {
      bad(ErrorId::Arity, key, "holds " + std::to_string(v.size()) + " numbers, expected " + std::to_string(n));
      return std::nullopt;
    }
    Uint3 out{0, 0, 0};
    for (int c = 0; c < n; ++c) {
      if (v[c] < 0 || v[c] > int64_t(UINT32_MAX)) {
        bad(ErrorId::Narrowing, key, std::to_string(v[c]) + " is outside uint32");
        return std::nullopt;
      }
      out[c] = uint32_t(v[c]);
    }
    return out;
  }

  template <class T>
  std::optional<T> named(const std::string& key, std::optional<T> (*parse)(std::string_view), const char* what) {
    const Attr* a = attr(key, AttrType::String, true);
    if (!a) return std::nullopt;
    auto v = parse(a->get<std::string>());
    if (!v) bad(ErrorId::AttributeValue, key, "\"" + a->get<std::string>() + "\" is not " + what);
    return v;
  }

  void read_absent() {
    const Attr* a = attr("gl.absent", AttrType::Strings);
    if (!a) return;
    for (const auto& s : a->get<std::vector<std::string>>()) absent_.insert(s);
  }

  // Every attribute of a gl.Program is one this decoder reads: anything else would be dropped
  // on writing, so it is a problem, not something to skip.
  void check_keys() {
    static const std::set<std::string, std::less<>> fixed = {"gl.shader_index", "gl.number_workgroups",
                                                             "gl.workgroup_size", "gl.binary.format",
                                                             "gl.binary.binary", "gl.absent"};
    static const std::set<std::string, std::less<>> columns(std::begin(kObjectColumns), std::end(kObjectColumns));
    static const std::set<std::string, std::less<>> param_fields = {"name", "type", "data_type", "data"};
    std::set<std::size_t> params;
    for (const auto& [key, value] : n_.attrs) {
      if (fixed.count(key) || columns.count(key)) continue;
      std::size_t i = 0;
      std::string field;
      if (indexed(key, "gl.parameters[", i, field) && param_fields.count(field)) {
        params.insert(i);
        continue;
      }
      bad(ErrorId::AttributeValue, key, "is not an attribute of gl.Program (it would be lost on writing)");
    }
    // Parameters are counted by their indices, which must run 0..n-1 without a gap.
    parameter_count_ = params.empty() ? 0 : *params.rbegin() + 1;
    if (params.size() != parameter_count_) {
      for (std::size_t k = 0; k < parameter_count_; ++k)
        if (!params.count(k)) bad(ErrorId::AttributeValue, param_key(k, "type"), "is missing (parameters must be numbered without gaps)");
      parameter_count_ = 0;
    }
    for (const auto& s : absent_) {
      std::size_t i = 0;
      std::string field;
      bool ok = s == "objects" || s == "parameters" ||
                (indexed(s, "objects[", i, field) && (field == "object.data" || field == "size") && i < n_.inputs.size()) ||
                (indexed(s, "parameters[", i, field) && field == "data.data" && params.count(i));
      if (!ok) bad(ErrorId::AttributeValue, "gl.absent", "\"" + s + "\" is not a field this node can lack");
    }
  }

  // indexed("gl.objects[12].binding", "gl.objects[") -> 12, "binding".
  static bool indexed(std::string_view s, std::string_view prefix, std::size_t& i, std::string& field) {
    if (s.substr(0, prefix.size()) != prefix) return false;
    s.remove_prefix(prefix.size());
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
    if (ec != std::errc() || end == s.data()) return false;
    std::size_t used = std::size_t(end - s.data());
    if (used > 1 && s[0] == '0') return false;  // one spelling per index
    s.remove_prefix(used);
    if (s.size() < 3 || s.substr(0, 2) != "].") return false;
    field = std::string(s.substr(2));
    return true;
  }

  // The object columns (see afcm.h), each checked for its type and length once per node.
  static constexpr const char* kObjectColumns[] = {"gl.objects.access",    "gl.objects.binding",
                                                   "gl.objects.data_type", "gl.objects.type",
                                                   "gl.objects.size_type", "gl.objects.size",
                                                   "gl.objects.object_type"};

  void read_columns() {
    const std::size_t count = n_.inputs.size();
    auto strings = [&](const char* key) -> const std::vector<std::string>* {
      const Attr* a = attr(key, AttrType::Strings, count > 0);
      if (a && a->get<std::vector<std::string>>().size() != count) {
        bad(ErrorId::Arity, key, "holds " + std::to_string(a->get<std::vector<std::string>>().size()) + " entries, the node has " +
                     std::to_string(count) + " inputs (one per object)");
        return nullptr;
      }
      return a ? &a->get<std::vector<std::string>>() : nullptr;
    };
    access_ = strings("gl.objects.access");
    data_type_ = strings("gl.objects.data_type");
    type_ = strings("gl.objects.type");
    size_type_ = strings("gl.objects.size_type");
    object_type_ = strings("gl.objects.object_type");
    if (const Attr* a = attr("gl.objects.binding", AttrType::Ints, count > 0)) {
      if (a->get<std::vector<int64_t>>().size() != count)
        bad(ErrorId::Arity, "gl.objects.binding", "holds " + std::to_string(a->get<std::vector<int64_t>>().size()) +
                                      " entries, the node has " + std::to_string(count) + " inputs (one per object)");
      else binding_ = &a->get<std::vector<int64_t>>();
    }
    if (const Attr* a = attr("gl.objects.size", AttrType::Ints)) size_col_ = a->get<std::vector<int64_t>>();
  }

  // Entry j of a string column parsed by `parse`; nullopt (reported) when it is not one.
  template <class T>
  std::optional<T> entry(const std::vector<std::string>* col, const char* key, std::size_t j,
                         std::optional<T> (*parse)(std::string_view), const char* what) {
    if (!col) return std::nullopt;
    auto v = parse((*col)[j]);
    if (!v) bad(ErrorId::AttributeValue, std::string(key) + "[" + std::to_string(j) + "]", "\"" + (*col)[j] + "\" is not " + what);
    return v;
  }

  Object object(std::size_t j) {
    Object o;
    if (auto v = entry(access_, "gl.objects.access", j, parse_access, "an AccessType")) o.access = *v;
    if (binding_) {
      const int64_t b = (*binding_)[j];
      if (b < 0 || b > int64_t(UINT32_MAX)) bad(ErrorId::Narrowing, "gl.objects.binding[" + std::to_string(j) + "]", std::to_string(b) + " is outside uint32");
      else o.binding = uint32_t(b);
    }
    if (auto v = entry(data_type_, "gl.objects.data_type", j, parse_data_type, "a DataType")) o.data_type = *v;
    if (auto v = entry(type_, "gl.objects.type", j, parse_object_type, "an ObjectType")) o.type = *v;
    if (auto v = entry(size_type_, "gl.objects.size_type", j, parse_size_tag, "an ObjectSize member or NONE")) o.size_type = *v;
    const bool size_absent = absent_.count(idx("objects", j) + ".size") > 0;
    if (size_absent && o.size_type == SizeTag::NONE)
      bad(ErrorId::AttributeValue, "gl.absent", "lists objects[" + std::to_string(j) + "].size, but its size_type is NONE");
    if (!size_absent && o.size_type != SizeTag::NONE) {
      const std::size_t c = std::size_t(components(o.size_type));
      if (size_used_ + c <= size_col_.size()) {
        Uint3 v{0, 0, 0};
        bool ok = true;
        for (std::size_t k = 0; k < c; ++k) {
          const int64_t x = size_col_[size_used_ + k];
          if (x < 0 || x > int64_t(UINT32_MAX)) {
            bad(ErrorId::Narrowing, "gl.objects.size[" + std::to_string(size_used_ + k) + "]", std::to_string(x) + " is outside uint32");
            ok = false;
          }
          v[k] = uint32_t(x);
        }
        if (ok) o.size = v;
      }
      size_used_ += c;
    }
    if (auto v = entry(object_type_, "gl.objects.object_type", j, parse_object_tag, "an ObjectVariant member or NONE"))
      o.object_type = *v;
    const std::string in = at_ + ".inputs[" + std::to_string(j) + "]";
    const ValueId id = n_.inputs[j];
    const bool data_absent = absent_.count(idx("objects", j) + ".object.data") > 0;
    if (id != kNoValue && id >= g_.values.size()) {
      problem_(ErrorId::DanglingReference, in, "value id " + std::to_string(id) + " is out of range");
      return o;
    }
    const Value* v = id == kNoValue ? nullptr : &g_.values[id];
    switch (o.object_type) {
      case ObjectTag::ObjectData:
        if (!v) break;  // the ObjectData table is absent
        if (!v->constant) {
          problem_(ErrorId::AttributeValue, in, "object_type is ObjectData, but value '" + v->name + "' is not a constant");
          break;
        }
        o.object_present = true;
        if (!data_absent) o.data = *v->constant;
        else if (!v->constant->empty())
          problem_(ErrorId::AttributeValue, in, "gl.absent lists objects[" + std::to_string(j) + "].object.data, but value '" + v->name +
                           "' holds bytes");
        break;
      case ObjectTag::ObjectRef: {
        if (!v) break;  // the ObjectRef table is absent
        auto it = v->attrs.find("gl.global_id");
        if (v->constant || it == v->attrs.end() || !it->second.is<int64_t>() || it->second.get<int64_t>() < 0 ||
            it->second.get<int64_t>() > int64_t(UINT32_MAX)) {
          problem_(ErrorId::AttributeValue, in, "object_type is ObjectRef, but value '" + v->name +
                           "' is not a reference (a non-constant value with an int attribute gl.global_id in uint32)");
          break;
        }
        o.object_present = true;
        o.global_id = uint32_t(it->second.get<int64_t>());
        break;
      }
      default:
        if (v) problem_(ErrorId::AttributeValue, in, "object_type is NONE, but the input is value '" + v->name + "'");
    }
    if (data_absent && o.object_type != ObjectTag::ObjectData)
      bad(ErrorId::AttributeValue, "gl.absent", "lists objects[" + std::to_string(j) + "].object.data, but the object is not ObjectData");
    return o;
  }

  Parameter parameter(std::size_t k) {
    Parameter u;
    if (const Attr* a = attr(param_key(k, "name"), AttrType::String)) u.name = a->get<std::string>();
    if (auto v = named(param_key(k, "type"), parse_parameter_type, "a ParameterType")) u.type = *v;
    if (auto v = named(param_key(k, "data_type"), parse_data_tag, "a DataVariant member or NONE")) u.data_type = *v;
    const std::string key = param_key(k, "data");
    const bool vector_absent = absent_.count(idx("parameters", k) + ".data.data") > 0;
    const bool has_data = n_.attrs.count(key) > 0;
    if (u.data_type == DataTag::NONE) {
      if (has_data || vector_absent) bad(ErrorId::AttributeValue, key, "is set, but data_type is NONE");
      return u;
    }
    if (has_data && vector_absent) bad(ErrorId::AttributeValue, key, "is set, but gl.absent lists parameters[" + std::to_string(k) + "].data.data");
    u.data_present = has_data || vector_absent;
    if (!has_data) return u;
    if (u.data_type == DataTag::DataFloat) {
      if (const Attr* a = attr(key, AttrType::Floats)) u.floats = a->get<std::vector<double>>();
      return u;
    }
    const Attr* a = attr(key, AttrType::Ints);
    if (!a) return u;
    const bool is_unsigned = u.data_type == DataTag::DataUint32;
    const int64_t lo = is_unsigned ? 0 : INT32_MIN, hi = is_unsigned ? int64_t(UINT32_MAX) : INT32_MAX;
    for (int64_t x : a->get<std::vector<int64_t>>())
      if (x < lo || x > hi) {
        bad(ErrorId::Narrowing, key, std::to_string(x) + " is outside " + (is_unsigned ? "uint32" : "int32"));
        return u;
      }
    u.ints = a->get<std::vector<int64_t>>();
    return u;
  }

  const Graph& g_;
  const Node& n_;
  std::string at_;
  const ProblemFn& problem_;
  std::set<std::string, std::less<>> absent_;
  std::size_t parameter_count_ = 0;
  const std::vector<std::string>*access_ = nullptr, *data_type_ = nullptr, *type_ = nullptr, *size_type_ = nullptr,
                                 *object_type_ = nullptr;
  const std::vector<int64_t>* binding_ = nullptr;
  std::span<const int64_t> size_col_;
  std::size_t size_used_ = 0;  // numbers of size_col_ the objects so far took
};

}  // namespace

Model to_model(const Graph& g, const ProblemFn& problem, std::vector<std::size_t>* program_nodes,
               bool only_programs) {
  Model m;
  for (const auto& [key, value] : g.metadata) {
    if (key.rfind("gl.", 0) != 0) continue;
    const std::string where = "metadata." + key;
    if (key == "gl.dynamic_batch") {
      if (value.is<bool>()) m.dynamic_batch = value.get<bool>();
      else problem(ErrorId::AttributeValue, where, "must be a bool");
    } else if (key == "gl.shaders") {
      if (value.is<std::vector<std::string>>()) m.shaders = value.get<std::vector<std::string>>();
      else problem(ErrorId::AttributeValue, where, "must be a list of strings");
    } else if (key == "gl.absent") {
      if (!value.is<std::vector<std::string>>()) problem(ErrorId::AttributeValue, where, "must be a list of strings");
      else
        for (const auto& s : value.get<std::vector<std::string>>())
          if (s != "programs") problem(ErrorId::AttributeValue, where, "\"" + s + "\" is not a field the model can lack (only \"programs\")");
    } else {
      problem(ErrorId::AttributeValue, where, "is not a metadata field of an afcm graph (it would be lost on writing)");
    }
  }
  bool programs_absent = false;
  if (auto it = g.metadata.find("gl.absent"); it != g.metadata.end() && it->second.is<std::vector<std::string>>()) {
    const auto& v = it->second.get<std::vector<std::string>>();
    programs_absent = std::find(v.begin(), v.end(), "programs") != v.end();
  }
  std::vector<Program> programs;
  for (std::size_t i = 0; i < g.nodes.size(); ++i) {
    if (g.nodes[i].op != kProgramOp) {
      if (only_programs)
        problem(ErrorId::InvalidOther, "nodes[" + std::to_string(i) + "].op",
                "op '" + g.nodes[i].op + "' has no afcm form (a compiled model holds only gl.Program dispatches)");
      continue;
    }
    programs.push_back(NodeDecoder(g, i, problem).run());
    if (program_nodes) program_nodes->push_back(i);
  }
  if (programs_absent && !programs.empty())
    problem(ErrorId::AttributeValue, "metadata.gl.absent", "lists \"programs\", but the graph has gl.Program nodes");
  if (!programs_absent) m.programs = std::move(programs);
  return m;
}

}  // namespace nnbridge::formats::afcm
