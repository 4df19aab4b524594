// Serializing the Model (model.h) as a CompiledModel buffer.
//
// Everything the model holds is written, presence included (an empty vector stays an empty
// vector, a missing one stays missing), so flatc decodes the result to what it decoded from the
// file that was read. Fields are built in the order TFLite's SerializedCompiledModelBuilder
// builds them; the bytes need not match TFLite's, the decoded content does.
#include "afcm/compiled_model_generated.h"
#include "internal.h"

namespace nnbridge::formats::afcm {
namespace {

namespace fb = ::tflite::gpu::gl::data;
using flatbuffers::Offset;

class Writer {
 public:
  std::vector<uint8_t> run(const Model& m, bool force_programs) {
    Offset<flatbuffers::Vector<Offset<flatbuffers::String>>> shaders;
    if (m.shaders) {
      std::vector<Offset<flatbuffers::String>> s;
      s.reserve(m.shaders->size());
      for (const auto& text : *m.shaders) s.push_back(b_.CreateString(text));
      shaders = b_.CreateVector(s);
    }
    Offset<flatbuffers::Vector<Offset<fb::Program>>> programs;
    if (m.programs || force_programs) {
      std::vector<Offset<fb::Program>> ps;
      if (m.programs)
        for (const auto& p : *m.programs) ps.push_back(program(p));
      programs = b_.CreateVector(ps);
    }
    Offset<fb::Parameters> params;
    if (m.dynamic_batch) {
      fb::ParametersBuilder pb(b_);
      pb.add_dynamic_batch(*m.dynamic_batch);
      params = pb.Finish();
    }
    fb::CompiledModelBuilder mb(b_);
    if (!shaders.IsNull()) mb.add_shaders(shaders);
    if (!programs.IsNull()) mb.add_programs(programs);
    if (!params.IsNull()) mb.add_parameters(params);
    fb::FinishCompiledModelBuffer(b_, mb.Finish());
    return std::vector<uint8_t>(b_.GetBufferPointer(), b_.GetBufferPointer() + b_.GetSize());
  }

 private:
  Offset<fb::Uint3> uint3(const std::optional<Uint3>& v) {
    if (!v) return 0;
    return fb::CreateUint3(b_, (*v)[0], (*v)[1], (*v)[2]);
  }

  Offset<void> size(const Object& o) {
    if (!o.size) return 0;
    const Uint3& s = *o.size;
    switch (o.size_type) {
      case SizeTag::Uint1: return fb::CreateUint1(b_, s[0]).Union();
      case SizeTag::Uint2: return fb::CreateUint2(b_, s[0], s[1]).Union();
      case SizeTag::Uint3: return fb::CreateUint3(b_, s[0], s[1], s[2]).Union();
      default: return 0;
    }
  }

  Offset<void> object_value(const Object& o) {
    if (!o.object_present) return 0;
    switch (o.object_type) {
      case ObjectTag::ObjectData: {
        Offset<flatbuffers::Vector<uint8_t>> data;
        if (o.data)
          data = b_.CreateVector(reinterpret_cast<const uint8_t*>(o.data->data()), o.data->size());
        fb::ObjectDataBuilder db(b_);
        if (!data.IsNull()) db.add_data(data);
        return db.Finish().Union();
      }
      case ObjectTag::ObjectRef: return fb::CreateObjectRef(b_, o.global_id).Union();
      default: return 0;
    }
  }

  Offset<fb::Object> object(const Object& o) {
    auto value = object_value(o);
    auto sz = size(o);
    fb::ObjectBuilder ob(b_);
    ob.add_access(static_cast<fb::AccessType>(o.access));
    ob.add_binding(o.binding);
    ob.add_type(static_cast<fb::ObjectType>(o.type));
    ob.add_data_type(static_cast<fb::DataType>(o.data_type));
    ob.add_size_type(static_cast<fb::ObjectSize>(o.size_type));
    if (!sz.IsNull()) ob.add_size(sz);
    ob.add_object_type(static_cast<fb::ObjectVariant>(o.object_type));
    if (!value.IsNull()) ob.add_object(value);
    return ob.Finish();
  }

  Offset<void> parameter_value(const Parameter& p) {
    if (!p.data_present) return 0;
    switch (p.data_type) {
      case DataTag::DataInt32: {
        Offset<flatbuffers::Vector<int32_t>> v;
        if (p.ints) v = b_.CreateVector(std::vector<int32_t>(p.ints->begin(), p.ints->end()));
        fb::DataInt32Builder db(b_);
        if (!v.IsNull()) db.add_data(v);
        return db.Finish().Union();
      }
      case DataTag::DataUint32: {
        Offset<flatbuffers::Vector<uint32_t>> v;
        if (p.ints) v = b_.CreateVector(std::vector<uint32_t>(p.ints->begin(), p.ints->end()));
        fb::DataUint32Builder db(b_);
        if (!v.IsNull()) db.add_data(v);
        return db.Finish().Union();
      }
      case DataTag::DataFloat: {
        Offset<flatbuffers::Vector<float>> v;
        if (p.floats) v = b_.CreateVector(std::vector<float>(p.floats->begin(), p.floats->end()));
        fb::DataFloatBuilder db(b_);
        if (!v.IsNull()) db.add_data(v);
        return db.Finish().Union();
      }
      default: return 0;
    }
  }

  Offset<fb::UniformParameter> parameter(const Parameter& p) {
    Offset<flatbuffers::String> name;
    if (p.name) name = b_.CreateString(*p.name);
    auto value = parameter_value(p);
    fb::UniformParameterBuilder ub(b_);
    if (!name.IsNull()) ub.add_name(name);
    ub.add_data_type(static_cast<fb::DataVariant>(p.data_type));
    if (!value.IsNull()) ub.add_data(value);
    ub.add_type(static_cast<fb::ParameterType>(p.type));
    return ub.Finish();
  }

  Offset<fb::Program> program(const Program& p) {
    auto groups = uint3(p.number_workgroups);
    auto local = uint3(p.workgroup_size);
    Offset<flatbuffers::Vector<Offset<fb::UniformParameter>>> params;
    if (p.parameters) {
      std::vector<Offset<fb::UniformParameter>> v;
      for (const auto& u : *p.parameters) v.push_back(parameter(u));
      params = b_.CreateVector(v);
    }
    Offset<flatbuffers::Vector<Offset<fb::Object>>> objects;
    if (p.objects) {
      std::vector<Offset<fb::Object>> v;
      for (const auto& o : *p.objects) v.push_back(object(o));
      objects = b_.CreateVector(v);
    }
    Offset<fb::ProgramBinary> binary;
    if (p.binary) {
      Offset<flatbuffers::Vector<uint8_t>> blob;
      if (p.binary->binary) blob = b_.CreateVector(*p.binary->binary);
      fb::ProgramBinaryBuilder bb(b_);
      bb.add_format(p.binary->format);
      if (!blob.IsNull()) bb.add_binary(blob);
      binary = bb.Finish();
    }
    fb::ProgramBuilder pb(b_);
    if (!groups.IsNull()) pb.add_number_workgroups(groups);
    if (!local.IsNull()) pb.add_workgroup_size(local);
    if (!params.IsNull()) pb.add_parameters(params);
    if (!objects.IsNull()) pb.add_objects(objects);
    pb.add_shader_index(p.shader_index);
    if (!binary.IsNull()) pb.add_binary(binary);
    return pb.Finish();
  }

  flatbuffers::FlatBufferBuilder b_{1024};
};

}  // namespace

std::vector<uint8_t> write_model(const Model& m) {
  std::vector<uint8_t> out = Writer().run(m, false);
  // A model without `programs` (absent in the file it was read from) can happen to verify as
  // TFLite's OpenCL program cache, which the reader then refuses (found by fuzz_afcm). TFLite's
  // own GL writer always stores `programs`: write it, empty, rather than a file nnbridge cannot
  // read back. Only the absent-versus-empty distinction of that one field is lost.
  if (!m.programs && reads_as_program_cache(std::as_bytes(std::span<const uint8_t>(out)), VerifierLimits{}, true))
    out = Writer().run(m, true);
  return out;
}

}  // namespace nnbridge::formats::afcm
