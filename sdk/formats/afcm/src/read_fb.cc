// Verifying and decoding a CompiledModel buffer into the Model (model.h).
//
// TFLite's reader (gl/serialization.cc DeserializeCompiledModel) verifies the buffer and then
// dereferences every vector and table without looking: a valid buffer that leaves one out (the
// 16-byte empty model, say) crashes it. Here absence is data: it is kept, and the rules
// (rules.cc) report what TFLite would trip over.
#include <string>

#include "afcm/compiled_model_generated.h"
#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/verify_failure.h"

namespace nnbridge::formats::afcm {
namespace {

namespace fb = ::tflite::gpu::gl::data;
using flatbuffers::uoffset_t;

// `id` is a Malformed identifier (nnbridge/error.h).
[[noreturn]] void malformed(ErrorId id, const std::string& where, const std::string& msg) {
  throw Error(id, msg, {}, where);
}

std::string at(const std::string& field, std::size_t i) { return field + "[" + std::to_string(i) + "]"; }

// The OpenCL delegate's program cache (tensorflow/lite/delegates/gpu/cl/compiled_program_cache.fbs)
// carries the same "AFCM" identifier with another root: CompiledCache { driver_version:string;
// programs:[Program] } with Program { fingerprint:uint64; binary:[ubyte] }. These two views verify
// that layout the way flatc-generated code would, so that such a file is named, not misread.
struct ClProgram : private flatbuffers::Table {
  bool Verify(flatbuffers::Verifier& v) const {
    if (!VerifyTableStart(v) || !VerifyField<uint64_t>(v, 4, 8) || !VerifyOffset(v, 6)) return false;
    return v.VerifyVector(GetPointer<const flatbuffers::Vector<uint8_t>*>(6)) && v.EndTable();
  }
};
struct ClCache : private flatbuffers::Table {
  bool Verify(flatbuffers::Verifier& v) const {
    if (!VerifyTableStart(v) || !VerifyOffset(v, 4) || !v.VerifyString(GetPointer<const flatbuffers::String*>(4)) ||
        !VerifyOffset(v, 6))
      return false;
    const auto* programs = GetPointer<const flatbuffers::Vector<flatbuffers::Offset<ClProgram>>*>(6);
    return v.VerifyVector(programs) && v.VerifyVectorOfTables(programs) && v.EndTable();
  }
};

flatbuffers::Verifier::Options verifier_options(const VerifierLimits& limits) {
  flatbuffers::Verifier::Options o;
  o.max_depth = limits.max_depth;
  o.max_tables = limits.max_tables;
  return o;
}

// After a failed verification: the first part of the model that fails on its own, so that the
// message can say where. Each step verifies what it is about to touch, with a fresh verifier.
class Locator {
 public:
  Locator(const uint8_t* p, std::size_t n, flatbuffers::Verifier::Options o) : p_(p), n_(n), o_(o) {}

  std::string run() const {
    flatbuffers::Verifier v0 = verifier();
    if (!v0.VerifyOffset(0)) return "(root offset)";
    const auto* root = flatbuffers::GetRoot<fb::CompiledModel>(p_);
    if (!v0.VerifyTableStart(reinterpret_cast<const uint8_t*>(root))) return "(root table)";
    const auto* t = reinterpret_cast<const flatbuffers::Table*>(root);
    if (!offset_ok(t, fb::CompiledModel::VT_PARAMETERS)) return "parameters";
    if (root->parameters()) {
      auto v = verifier();
      if (!v.VerifyTable(root->parameters())) return "parameters";
    }
    if (!offset_ok(t, fb::CompiledModel::VT_SHADERS)) return "shaders";
    if (const auto* shaders = root->shaders()) {
      auto v = verifier();
      if (!v.VerifyVector(shaders)) return "shaders";
      for (uoffset_t i = 0; i < shaders->size(); ++i) {
        auto vi = verifier();
        if (!element_ok(vi, shaders, i) || !vi.VerifyString(shaders->Get(i))) return at("shaders", i);
      }
    }
    if (!offset_ok(t, fb::CompiledModel::VT_PROGRAMS)) return "programs";
    if (const auto* programs = root->programs()) {
      auto v = verifier();
      if (!v.VerifyVector(programs)) return "programs";
      for (uoffset_t i = 0; i < programs->size(); ++i) {
        auto vi = verifier();
        if (!element_ok(vi, programs, i)) return at("programs", i);
        if (!vi.VerifyTable(programs->Get(i))) return at("programs", i) + program_part(programs->Get(i));
      }
    }
    return "";
  }

 private:
  flatbuffers::Verifier verifier() const { return flatbuffers::Verifier(p_, n_, o_); }

  bool offset_ok(const flatbuffers::Table* t, flatbuffers::voffset_t field) const {
    auto v = verifier();
    return v.VerifyTableStart(reinterpret_cast<const uint8_t*>(t)) && t->VerifyOffset(v, field);
  }

  template <class T>
  bool element_ok(flatbuffers::Verifier& v, const flatbuffers::Vector<T>* vec, uoffset_t i) const {
    return v.VerifyOffset(std::size_t(reinterpret_cast<const uint8_t*>(vec->Data()) - p_) + std::size_t(i) * 4) != 0;
  }

  // Which field of a program that fails verification is at fault (".objects[2]"), or "".
  std::string program_part(const fb::Program* prog) const {
    auto v0 = verifier();
    if (!v0.VerifyTableStart(reinterpret_cast<const uint8_t*>(prog))) return "";
    const auto* t = reinterpret_cast<const flatbuffers::Table*>(prog);
    // `get` reads the field, so it runs only once the field's offset verified.
    auto vec_part = [&](flatbuffers::voffset_t field, const char* name, auto get) -> std::string {
      if (!offset_ok(t, field)) return std::string(".") + name;
      const auto* vec = get();
      if (!vec) return "";
      auto v = verifier();
      if (!v.VerifyVector(vec)) return std::string(".") + name;
      for (uoffset_t i = 0; i < vec->size(); ++i) {
        auto vi = verifier();
        if (!element_ok(vi, vec, i) || !vi.VerifyTable(vec->Get(i))) return "." + at(name, i);
      }
      return "";
    };
    if (auto s = vec_part(fb::Program::VT_OBJECTS, "objects", [&] { return prog->objects(); }); !s.empty()) return s;
    if (auto s = vec_part(fb::Program::VT_PARAMETERS, "parameters", [&] { return prog->parameters(); }); !s.empty())
      return s;
    for (auto [field, name] : {std::pair{fb::Program::VT_NUMBER_WORKGROUPS, "number_workgroups"},
                               std::pair{fb::Program::VT_WORKGROUP_SIZE, "workgroup_size"},
                               std::pair{fb::Program::VT_BINARY, "binary"}}) {
      if (!offset_ok(t, field)) return std::string(".") + name;
    }
    auto v = verifier();
    if (!v.VerifyTable(prog->number_workgroups())) return ".number_workgroups";
    if (!v.VerifyTable(prog->workgroup_size())) return ".workgroup_size";
    if (!v.VerifyTable(prog->binary())) return ".binary";
    return "";
  }

  const uint8_t* p_;
  std::size_t n_;
  flatbuffers::Verifier::Options o_;
};

std::optional<Uint3> uint3_of(const fb::Uint3* t) {
  if (!t) return std::nullopt;
  return Uint3{t->x(), t->y(), t->z()};
}

Object read_object(const Source& src, const fb::Object& o, const std::string& where) {
  Object out;
  out.access = static_cast<int8_t>(o.access());
  out.binding = o.binding();
  out.data_type = static_cast<int8_t>(o.data_type());
  out.type = static_cast<int8_t>(o.type());
  const auto size_tag = static_cast<uint8_t>(o.size_type());
  if (size_tag > static_cast<uint8_t>(fb::ObjectSize::MAX))
    malformed(ErrorId::BadEncoding, where + ".size_type", "ObjectSize has no member " + std::to_string(size_tag));
  out.size_type = static_cast<SizeTag>(size_tag);
  if (o.size()) {
    switch (o.size_type()) {
      case fb::ObjectSize::Uint1: out.size = Uint3{o.size_as_Uint1()->x(), 0, 0}; break;
      case fb::ObjectSize::Uint2: out.size = Uint3{o.size_as_Uint2()->x(), o.size_as_Uint2()->y(), 0}; break;
      case fb::ObjectSize::Uint3: out.size = uint3_of(o.size_as_Uint3()); break;
      default: break;  // a table without a member tag has no type: flatc ignores it, and so do we
    }
  }
  const auto object_tag = static_cast<uint8_t>(o.object_type());
  if (object_tag > static_cast<uint8_t>(fb::ObjectVariant::MAX))
    malformed(ErrorId::BadEncoding, where + ".object_type", "ObjectVariant has no member " + std::to_string(object_tag));
  out.object_type = static_cast<ObjectTag>(object_tag);
  if (const auto* d = o.object_as_ObjectData()) {
    out.object_present = true;
    if (const auto* bytes = d->data()) {
      const std::size_t offset = std::size_t(bytes->Data() - reinterpret_cast<const uint8_t*>(src.bytes.data()));
      out.data = src.view(offset, bytes->size());
    }
  } else if (const auto* r = o.object_as_ObjectRef()) {
    out.object_present = true;
    out.global_id = r->global_id();
  }
  return out;
}

template <class T>
std::vector<int64_t> ints_of(const flatbuffers::Vector<T>& v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

Parameter read_parameter(const fb::UniformParameter& u, const std::string& where) {
  Parameter out;
  if (u.name()) out.name = u.name()->str();
  out.type = static_cast<int8_t>(u.type());
  const auto tag = static_cast<uint8_t>(u.data_type());
  if (tag > static_cast<uint8_t>(fb::DataVariant::MAX))
    malformed(ErrorId::BadEncoding, where + ".data_type", "DataVariant has no member " + std::to_string(tag));
  out.data_type = static_cast<DataTag>(tag);
  if (const auto* d = u.data_as_DataInt32()) {
    out.data_present = true;
    if (d->data()) out.ints = ints_of(*d->data());
  } else if (const auto* d = u.data_as_DataUint32()) {
    out.data_present = true;
    if (d->data()) out.ints = ints_of(*d->data());
  } else if (const auto* d = u.data_as_DataFloat()) {
    out.data_present = true;
    if (d->data()) out.floats = std::vector<double>(d->data()->begin(), d->data()->end());
  }
  return out;
}

Program read_program(const Source& src, const fb::Program& p, const std::string& where) {
  Program out;
  if (const auto* objects = p.objects()) {
    out.objects.emplace();
    out.objects->reserve(objects->size());
    for (uoffset_t j = 0; j < objects->size(); ++j)
      out.objects->push_back(read_object(src, *objects->Get(j), where + "." + at("objects", j)));
  }
  if (const auto* params = p.parameters()) {
    out.parameters.emplace();
    out.parameters->reserve(params->size());
    for (uoffset_t k = 0; k < params->size(); ++k)
      out.parameters->push_back(read_parameter(*params->Get(k), where + "." + at("parameters", k)));
  }
  out.number_workgroups = uint3_of(p.number_workgroups());
  out.workgroup_size = uint3_of(p.workgroup_size());
  out.shader_index = p.shader_index();
  if (const auto* b = p.binary()) {
    out.binary.emplace();
    out.binary->format = b->format();
    if (b->binary()) out.binary->binary.emplace(b->binary()->begin(), b->binary()->end());
  }
  return out;
}

}  // namespace

bool reads_as_program_cache(std::span<const std::byte> bytes, const VerifierLimits& limits, bool gl_ok) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  flatbuffers::Verifier cl_verifier(p, bytes.size(), verifier_options(limits));
  if (!cl_verifier.VerifyBuffer<ClCache>(fb::CompiledModelIdentifier())) return false;
  if (!gl_ok) return true;
  // Both verify (an empty root does, and a few small buffers by chance). TFLite's GL writer
  // always stores `programs`, the field a CompiledCache lacks; without it, and with the cache's
  // fields present, the buffer is taken for the cache it also is.
  const auto* t = reinterpret_cast<const flatbuffers::Table*>(flatbuffers::GetRoot<fb::CompiledModel>(p));
  return !t->CheckField(fb::CompiledModel::VT_PROGRAMS) && (t->CheckField(4) || t->CheckField(6));
}

Model read_model(const Source& src, const VerifierLimits& limits) {
  const auto bytes = src.bytes;
  if (bytes.size() < 8) malformed(ErrorId::Truncated, "", "too short for a FlatBuffer (" + std::to_string(bytes.size()) + " bytes)");
  if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) malformed(ErrorId::ResourceLimit, "", "larger than a FlatBuffer can be");
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  if (!flatbuffers::BufferHasIdentifier(p, fb::CompiledModelIdentifier()))
    malformed(ErrorId::BadIdentifier, "(file identifier)", "bytes 4..7 are not \"AFCM\" (TFLite writes the identifier and its reader requires it)");
  const auto o = verifier_options(limits);
  flatbuffers::Verifier gl_verifier(p, bytes.size(), o);
  const bool gl_ok = fb::VerifyCompiledModelBuffer(gl_verifier);
  if (reads_as_program_cache(bytes, limits, gl_ok))
    throw Error(ErrorId::Feature,
                "this is a TFLite GPU OpenCL program cache (root CompiledCache of cl/compiled_program_cache.fbs, which "
                "shares the AFCM identifier), not an OpenGL compiled model; nnbridge does not read program caches",
                {}, "(root)");
  if (!gl_ok) {
    const ErrorId id = verify_failure(p, bytes.size(), o.max_depth, o.max_tables,
                                      [](const uint8_t* q, std::size_t n, unsigned depth, unsigned tables) {
                                        flatbuffers::Verifier::Options r;
                                        r.max_depth = depth;
                                        r.max_tables = tables;
                                        flatbuffers::Verifier v(q, n, r);
                                        return fb::VerifyCompiledModelBuffer(v);
                                      });
    malformed(id, Locator(p, bytes.size(), o).run(),
              verify_failure_message(id, "TFLite GPU GL CompiledModel", "afcm", o.max_depth, o.max_tables));
  }

  const auto* root = flatbuffers::GetRoot<fb::CompiledModel>(p);
  Model m;
  if (const auto* params = root->parameters()) m.dynamic_batch = params->dynamic_batch();
  if (const auto* shaders = root->shaders()) {
    m.shaders.emplace();
    m.shaders->reserve(shaders->size());
    for (const auto* s : *shaders) m.shaders->push_back(s->str());
  }
  if (const auto* programs = root->programs()) {
    m.programs.emplace();
    m.programs->reserve(programs->size());
    for (uoffset_t i = 0; i < programs->size(); ++i)
      m.programs->push_back(read_program(src, *programs->Get(i), at("programs", i)));
  }
  return m;
}

}  // namespace nnbridge::formats::afcm
