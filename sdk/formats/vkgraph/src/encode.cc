// Serializing a RawGraph, and the schema's enum names.
#include "raw.h"
#include "vkgraph/schema_generated.h"

namespace nnbridge::formats::vkgraph {

namespace {

namespace fb = ::vkgraph;
using Off = flatbuffers::uoffset_t;

flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::VkBytes>>> bytes_vector(
    flatbuffers::FlatBufferBuilder& b, const std::vector<RawBytes>& v) {
  std::vector<flatbuffers::Offset<fb::VkBytes>> out;
  for (const RawBytes& r : v) {
    auto key = r.key_present ? b.CreateString(r.named_key) : flatbuffers::Offset<flatbuffers::String>();
    out.push_back(fb::CreateVkBytes(b, r.offset, r.length, key));
  }
  return b.CreateVector(out);
}

Off value_table(flatbuffers::FlatBufferBuilder& b, const RawValue& v) {
  switch (v.kind) {
    case Kind::Null: return fb::CreateNull(b).o;
    case Kind::Int: return fb::CreateInt(b, v.i).o;
    case Kind::Double: return fb::CreateDouble(b, v.d).o;
    case Kind::Bool: return fb::CreateBool(b, v.b).o;
    case Kind::SymInt: return fb::CreateSymInt(b, static_cast<int32_t>(v.i)).o;
    case Kind::Tensor: {
      const RawTensor& t = v.tensor;
      auto dims = t.dims_present ? b.CreateVector(t.dims) : flatbuffers::Offset<flatbuffers::Vector<uint32_t>>();
      return fb::CreateVkTensor(b, fb::VkDataType(t.datatype), dims, t.constant_id, t.mem_obj_id,
                                fb::VkStorageType(t.storage_type), fb::VkMemoryLayout(t.memory_layout),
                                fb::VkDataType(t.staging_datatype))
          .o;
    }
    case Kind::IntList:
      return fb::CreateIntList(b, v.present ? b.CreateVector(v.ints) : flatbuffers::Offset<flatbuffers::Vector<int64_t>>()).o;
    case Kind::ValueList: {
      flatbuffers::Offset<flatbuffers::Vector<int32_t>> items;
      if (v.present) {
        std::vector<int32_t> ids(v.ints.begin(), v.ints.end());
        items = b.CreateVector(ids);
      }
      return fb::CreateValueList(b, items).o;
    }
    case Kind::DoubleList:
      return fb::CreateDoubleList(b, v.present ? b.CreateVector(v.doubles) : flatbuffers::Offset<flatbuffers::Vector<double>>())
          .o;
    case Kind::BoolList: {
      flatbuffers::Offset<flatbuffers::Vector<uint8_t>> items;
      if (v.present) {
        std::vector<uint8_t> raw(v.bools.begin(), v.bools.end());
        items = b.CreateVector(raw);
      }
      return fb::CreateBoolList(b, items).o;
    }
    case Kind::String:
      return fb::CreateString(b, v.present ? b.CreateString(v.s) : flatbuffers::Offset<flatbuffers::String>()).o;
    case Kind::None: break;
  }
  return 0;
}

}  // namespace

std::vector<uint8_t> encode(const RawGraph& g) {
  flatbuffers::FlatBufferBuilder b(1024);
  auto version = g.present.version ? b.CreateString(g.version) : flatbuffers::Offset<flatbuffers::String>();
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::OperatorCall>>> chain;
  if (g.present.chain) {
    std::vector<flatbuffers::Offset<fb::OperatorCall>> ops;
    ops.reserve(g.chain.size());
    for (const RawOp& op : g.chain) {
      // The name before the args, as flatc builds a table's strings and vectors in field order
      // (ExecuTorch serializes through flatc's JSON): the bytes then match ExecuTorch's.
      auto name = b.CreateString(op.name);
      auto args = b.CreateVector(op.args);
      ops.push_back(fb::CreateOperatorCall(b, op.node_id, name, args));
    }
    chain = b.CreateVector(ops);
  }
  flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::VkValue>>> values;
  if (g.present.values) {
    std::vector<flatbuffers::Offset<fb::VkValue>> vals;
    vals.reserve(g.values.size());
    for (const RawValue& v : g.values)
      vals.push_back(fb::CreateVkValue(b, fb::GraphTypes(static_cast<uint8_t>(v.kind)), value_table(b, v)));
    values = b.CreateVector(vals);
  }
  auto in = g.present.input_ids ? b.CreateVector(g.input_ids) : flatbuffers::Offset<flatbuffers::Vector<uint32_t>>();
  auto out = g.present.output_ids ? b.CreateVector(g.output_ids) : flatbuffers::Offset<flatbuffers::Vector<uint32_t>>();
  auto constants = g.present.constants ? bytes_vector(b, g.constants)
                                       : flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::VkBytes>>>();
  auto shaders = g.present.shaders ? bytes_vector(b, g.shaders)
                                   : flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::VkBytes>>>();
  auto root = fb::CreateVkGraph(b, version, chain, values, in, out, constants, shaders,
                                fb::VkStorageType(g.storage_type_override), fb::VkMemoryLayout(g.memory_layout_override));
  fb::FinishVkGraphBuffer(b, root);
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

const char* kind_name(Kind k) {
  static const char* const names[] = {"NONE",       "Null",       "Int",      "Double",    "Bool",   "VkTensor",
                                      "IntList",    "DoubleList", "BoolList", "ValueList", "String", "SymInt"};
  auto i = static_cast<std::size_t>(k);
  return i < std::size(names) ? names[i] : "?";
}

// The schema's enum names come from flatc's generated tables (--reflect-names), so they cannot
// drift from schemas/vkgraph/schema.fbs.
const char* data_type_name(int8_t v) {
  for (auto e : fb::EnumValuesVkDataType())
    if (static_cast<int8_t>(e) == v) return fb::EnumNameVkDataType(e);
  return nullptr;
}
const char* storage_type_name(uint8_t v) {
  for (auto e : fb::EnumValuesVkStorageType())
    if (static_cast<uint8_t>(e) == v) return fb::EnumNameVkStorageType(e);
  return nullptr;
}
const char* memory_layout_name(uint8_t v) {
  for (auto e : fb::EnumValuesVkMemoryLayout())
    if (static_cast<uint8_t>(e) == v) return fb::EnumNameVkMemoryLayout(e);
  return nullptr;
}

namespace {
template <class E, class T, std::size_t N, class NameFn>
bool parse_enum(const std::string& s, T& out, const E (&all)[N], NameFn name) {
  for (E e : all)
    if (s == name(e)) {
      out = static_cast<T>(e);
      return true;
    }
  return false;
}
}  // namespace

bool parse_data_type_name(const std::string& s, int8_t& out) {
  return parse_enum(s, out, fb::EnumValuesVkDataType(), fb::EnumNameVkDataType);
}
bool parse_storage_type_name(const std::string& s, uint8_t& out) {
  return parse_enum(s, out, fb::EnumValuesVkStorageType(), fb::EnumNameVkStorageType);
}
bool parse_memory_layout_name(const std::string& s, uint8_t& out) {
  return parse_enum(s, out, fb::EnumValuesVkMemoryLayout(), fb::EnumNameVkMemoryLayout);
}

}  // namespace nnbridge::formats::vkgraph
