// The format's rules: what a compiled model must hold for TFLite's GL delegate to load and run
// it (gl/serialization.cc DeserializeCompiledModel, gl/api.cc, gl/runtime.cc), including what
// TFLite itself never checks and crashes on. `where` uses the file's field names.
#include <map>
#include <set>

#include "internal.h"

namespace nnbridge::formats::afcm {
namespace {

std::string idx(const std::string& field, std::size_t i) { return field + "[" + std::to_string(i) + "]"; }

class Rules {
 public:
  explicit Rules(std::vector<Issue>& issues) : issues_(issues) {}

  void run(const Model& m) {
    // DeserializeCompiledModel walks shaders, programs and parameters without a null check.
    if (!m.shaders) error("shaders", "absent; TFLite's reader iterates it without a check (a crash)");
    if (!m.programs) error("programs", "absent; TFLite's reader iterates it without a check (a crash)");
    if (!m.dynamic_batch) error("parameters", "absent; TFLite's reader dereferences it without a check (a crash)");
    const std::size_t shaders = m.shaders ? m.shaders->size() : 0;
    std::vector<bool> used(shaders, false);
    for (std::size_t i = 0; m.programs && i < m.programs->size(); ++i) {
      const Program& p = (*m.programs)[i];
      const std::string at = idx("programs", i);
      if (p.shader_index >= shaders)
        error(at + ".shader_index", std::to_string(p.shader_index) + " is out of range (" + std::to_string(shaders) +
                                        " shaders); TFLite's reader does not check it");
      else
        used[p.shader_index] = true;
      workgroups(p, at);
      objects(p, at);
      parameters(p, at);
    }
    for (std::size_t k = 0; k < shaders; ++k)
      if (!used[k]) warning(idx("shaders", k), "no program uses this shader");
  }

 private:
  void error(std::string where, std::string msg) { issues_.push_back({Issue::Severity::Error, std::move(where), std::move(msg)}); }
  void warning(std::string where, std::string msg) {
    issues_.push_back({Issue::Severity::Warning, std::move(where), std::move(msg)});
  }

  void workgroups(const Program& p, const std::string& at) {
    static const char* axis[3] = {"x", "y", "z"};
    if (!p.number_workgroups)
      error(at + ".number_workgroups", "absent; TFLite's reader dereferences it without a check (a crash)");
    else
      for (int c = 0; c < 3; ++c)
        if ((*p.number_workgroups)[c] == 0)
          error(at + ".number_workgroups." + axis[c], "0 work groups: the dispatch would do nothing");
    if (!p.workgroup_size)
      error(at + ".workgroup_size", "absent; TFLite's reader dereferences it without a check (a crash)");
    else
      for (int c = 0; c < 3; ++c)
        if ((*p.workgroup_size)[c] == 0)
          error(at + ".workgroup_size." + axis[c],
                "0: a compute shader's local size (layout local_size_" + std::string(axis[c]) + ") must be at least 1");
  }

  void objects(const Program& p, const std::string& at) {
    if (!p.objects) {
      error(at + ".objects", "absent; TFLite's reader iterates it without a check (a crash)");
      return;
    }
    // Buffers bind to shader-storage binding points, textures to image units (TFLite
    // runtime.cc: BindToIndex vs BindAsReadWriteImage): two separate numberings.
    std::map<std::pair<int8_t, uint32_t>, std::size_t> bindings;
    for (std::size_t j = 0; j < p.objects->size(); ++j) {
      const Object& o = (*p.objects)[j];
      const std::string ot = at + "." + idx("objects", j);
      if (!known_access(o.access))
        error(ot + ".access", std::to_string(o.access) + " is not an AccessType (READ, WRITE, READ_WRITE)");
      if (!known_data_type(o.data_type))
        warning(ot + ".data_type", std::to_string(o.data_type) + " is not a DataType; TFLite reads it as UNKNOWN");
      if (o.object_type == ObjectTag::ObjectData && object_type_name(o.type) == "BUFFER" &&
          data_type_name(o.data_type) == "UNKNOWN")
        warning(ot + ".data_type", "UNKNOWN on a constant buffer (how TFLite writes INT8 data): TFLite's runtime "
                                   "checks its size modulo SizeOf(UNKNOWN) = 0 (gl/runtime.cc MakeGlBuffer)");
      if (!known_object_type(o.type) || object_type_name(o.type) == "UNKNOWN")
        error(ot + ".type", object_type_name(o.type) + ": TFLite's runtime binds only BUFFER and TEXTURE objects");
      auto [it, fresh] = bindings.emplace(std::pair{o.type, o.binding}, j);
      if (!fresh)
        error(ot + ".binding", "binding " + std::to_string(o.binding) + " is also that of objects[" +
                                   std::to_string(it->second) + "], of the same type " + object_type_name(o.type));
      if (o.size_type == SizeTag::NONE)
        error(ot + ".size", "not set (size_type NONE); TFLite's reader refuses it");
      else if (!o.size)
        error(ot + ".size", "size_type is " + std::string(tag_name(o.size_type)) +
                                " but the table is absent; TFLite's reader dereferences it (a crash)");
      else {
        // TFLite's NumElements multiplies the components in size_t (gl/object.h): the product
        // must fit 64 bits.
        unsigned __int128 n = 1;
        for (int c = 0; c < components(o.size_type); ++c) n *= (*o.size)[static_cast<std::size_t>(c)];
        if (n > UINT64_MAX)
          error(ot + ".size", "the element count (the product of the size's components) overflows 64 bits");
      }
      if (o.object_type == ObjectTag::NONE)
        error(ot + ".object", "not set (object_type NONE); TFLite's reader refuses it");
      else if (!o.object_present)
        error(ot + ".object", "object_type is " + std::string(tag_name(o.object_type)) +
                                  " but the table is absent; TFLite's reader dereferences it (a crash)");
      else if (o.object_type == ObjectTag::ObjectData && !o.data)
        error(ot + ".object.data", "absent; TFLite's reader dereferences it (a crash)");
    }
  }

  void parameters(const Program& p, const std::string& at) {
    if (!p.parameters) {
      error(at + ".parameters", "absent; TFLite's reader iterates it without a check (a crash)");
      return;
    }
    for (std::size_t k = 0; k < p.parameters->size(); ++k) parameter((*p.parameters)[k], at + "." + idx("parameters", k));
  }

  // TFLite's ParseParameter: INT32 takes DataInt32 of 1, 2 or 4 values (int, int2, int4); UINT32
  // DataUint32 of 1 or 4; FLOAT32 DataFloat of 1, 2 or 4; INT32_2 DataInt32 of an even count
  // (a vector of int2). Its writer stores a vector<float4> as FLOAT32 with 4n values, which its
  // own reader then refuses: that is a warning here, not an error.
  void parameter(const Parameter& u, const std::string& at) {
    if (!u.name) error(at + ".name", "absent; TFLite's reader dereferences it (a crash)");
    if (!known_parameter_type(u.type)) {
      error(at + ".type", std::to_string(u.type) + " is not a ParameterType (INT32, UINT32, FLOAT32, INT32_2)");
      return;
    }
    const std::string type = parameter_type_name(u.type);
    const DataTag want = type == "UINT32" ? DataTag::DataUint32 : type == "FLOAT32" ? DataTag::DataFloat : DataTag::DataInt32;
    if (u.data_type == DataTag::NONE) {
      error(at + ".data", "not set; the schema allows a value set at run time, but TFLite's reader refuses a "
                          "parameter without data");
      return;
    }
    if (u.data_type != want) {
      error(at + ".data_type", std::string(tag_name(u.data_type)) + " does not fit type " + type + " (needs " +
                                   std::string(tag_name(want)) + "); TFLite's reader refuses it");
      return;
    }
    if (!u.data_present) {
      error(at + ".data", "data_type is " + std::string(tag_name(u.data_type)) +
                              " but the table is absent; TFLite's reader refuses it");
      return;
    }
    const bool have = want == DataTag::DataFloat ? u.floats.has_value() : u.ints.has_value();
    if (!have) {
      error(at + ".data.data", "absent; TFLite's reader dereferences it (a crash)");
      return;
    }
    const std::size_t n = want == DataTag::DataFloat ? u.floats->size() : u.ints->size();
    const std::string count = std::to_string(n) + " values";
    if (type == "INT32" && n != 1 && n != 2 && n != 4)
      error(at + ".data.data", count + ": an INT32 parameter holds 1, 2 or 4 (int, int2, int4)");
    else if (type == "UINT32" && n != 1 && n != 4)
      error(at + ".data.data", count + ": a UINT32 parameter holds 1 or 4 (uint, uint4)");
    else if (type == "INT32_2" && n % 2 != 0)
      error(at + ".data.data", count + ": an INT32_2 parameter holds pairs (a vector of int2)");
    else if (type == "FLOAT32" && n != 1 && n != 2 && n != 4) {
      if (n % 4 == 0)
        warning(at + ".data.data", count + ": a vector of " + std::to_string(n / 4) +
                                       " float4 as TFLite's writer stores it; TFLite's reader accepts only 1, 2 or 4");
      else
        error(at + ".data.data", count + ": a FLOAT32 parameter holds 1, 2 or 4 (float, float2, float4) or a "
                                         "vector of float4 (a multiple of 4)");
    }
  }

  std::vector<Issue>& issues_;
};

}  // namespace

void check_model(const Model& m, std::vector<Issue>& issues) { Rules(issues).run(m); }

}  // namespace nnbridge::formats::afcm
