#include "malformed_corpus.h"

#include <cstdint>
#include <cstring>
#include <set>

#include <nlohmann/json.hpp>

#include "afcm/compiled_model_generated.h"
#include "armnn/ArmnnSchema_generated.h"
#include "vkgraph/schema_generated.h"

namespace nnbridge::test::corpus {

namespace {

template <class T>
T get(const std::string& b, std::size_t at) {
  T v{};
  if (at + sizeof(T) <= b.size()) std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}
template <class T>
std::string put(std::string b, std::size_t at, T v) {
  if (at + sizeof(T) <= b.size()) std::memcpy(b.data() + at, &v, sizeof(T));
  return b;
}

const uint8_t* base_of(const std::string& b) { return reinterpret_cast<const uint8_t*>(b.data()); }
std::size_t at_of(const std::string& b, const void* p) { return static_cast<const uint8_t*>(p) - base_of(b); }
// Position of a scalar field of a table, or SIZE_MAX when the field is absent (a default).
std::size_t field_at(const std::string& b, const void* table, flatbuffers::voffset_t vt) {
  const uint8_t* p = static_cast<const flatbuffers::Table*>(table)->GetAddressOf(vt);
  return p ? at_of(b, p) : SIZE_MAX;
}

// Truncations at the offset classes of a FlatBuffer `b` (first `limit` bytes are content).
void truncations(const std::string& b, std::size_t limit, std::vector<Malformed>& out) {
  const auto root = get<uint32_t>(b, 0);
  const std::size_t vt = root - static_cast<std::size_t>(get<int32_t>(b, root));
  // Bytes past the last multiple of 4 can be junk after a valid buffer (Arm NN's own fixtures
  // carry one): every cut below is inside the content.
  const std::size_t n = limit & ~std::size_t{3};
  const std::pair<const char*, std::size_t> cuts[] = {
      {"empty", 0},         {"root-offset", 3},   {"identifier", 4},   {"identifier-end", 7},
      {"root-table", root}, {"in-root-table", root + 2},               {"root-vtable", vt},
      {"in-root-vtable", vt + 1},                 {"half", n / 2},     {"last-word", n - 4}};
  std::set<std::size_t> seen;
  for (auto [name, cut] : cuts)
    if (cut < n && seen.insert(cut).second) out.push_back({std::string("truncate@") + name, b.substr(0, cut)});
}

}  // namespace

std::vector<Malformed> flatbuffer_mutations(const std::string& b) {
  std::vector<Malformed> out;
  truncations(b, b.size(), out);
  const auto root = get<uint32_t>(b, 0);
  const std::size_t vt = root - static_cast<std::size_t>(get<int32_t>(b, root));
  out.push_back({"root-offset=past-end", put<uint32_t>(b, 0, static_cast<uint32_t>(b.size() + 64))});
  out.push_back({"root-offset=0xFFFFFFF0", put<uint32_t>(b, 0, 0xFFFFFFF0u)});
  out.push_back({"root-vtable=past-end", put<int32_t>(b, root, static_cast<int32_t>(root) - static_cast<int32_t>(b.size() + 8))});
  out.push_back({"root-vtable-size=odd", put<uint16_t>(b, vt, 0xFFFF)});
  return out;
}

std::vector<Malformed> armnn_mutations(const std::string& b) {
  namespace fb = ::armnnSerializer;
  std::vector<Malformed> out;
  const auto* g = fb::GetSerializedGraph(b.data());
  const auto* layers = g->layers();
  if (!layers || layers->size() == 0) return out;
  out.push_back({"layers.length=0x3FFFFFFF", put<uint32_t>(b, at_of(b, layers), 0x3FFFFFFFu)});
  const std::size_t pick = layers->size() > 1 ? 1 : 0;
  if (auto at = field_at(b, layers->Get(pick), fb::AnyLayer::VT_LAYER_TYPE); at != SIZE_MAX)
    out.push_back({"layers[" + std::to_string(pick) + "].layer_type=238", put<uint8_t>(b, at, 238)});
  bool connection = false, dims = false;
  for (flatbuffers::uoffset_t i = 0; i < layers->size() && !(connection && dims); ++i) {
    const auto* any = layers->Get(i);
    if (!any->layer() || any->layer_type() == fb::Layer::InputLayer || any->layer_type() == fb::Layer::OutputLayer)
      continue;
    const auto* base = static_cast<const flatbuffers::Table*>(any->layer())->GetPointer<const fb::LayerBase*>(4);
    if (!base) continue;
    const std::string at = "layers[" + std::to_string(i) + "].layer.base.";
    if (!connection && base->inputSlots() && base->inputSlots()->size() && base->inputSlots()->Get(0)->connection()) {
      connection = true;
      out.push_back({at + "inputSlots[0].connection.sourceLayerIndex=0xFFFFF0",
                     put<uint32_t>(b, at_of(b, base->inputSlots()->Get(0)->connection()), 0xFFFFF0u)});
    }
    if (!dims && base->outputSlots() && base->outputSlots()->size() && base->outputSlots()->Get(0)->tensorInfo()) {
      const auto* d = base->outputSlots()->Get(0)->tensorInfo()->dimensions();
      if (!d || d->size() < 2) continue;
      dims = true;
      std::string bad = b;
      for (flatbuffers::uoffset_t k = 0; k < d->size(); ++k) bad = put<uint32_t>(bad, at_of(b, d->Data()) + 4 * k, 0xFFFFFFFFu);
      out.push_back({at + "outputSlots[0].tensorInfo.dimensions=0xFFFFFFFF...", bad});
    }
  }
  return out;
}

std::vector<Malformed> vkgraph_mutations(const std::string& b) {
  std::vector<Malformed> out;
  const auto* g = vkgraph::GetVkGraph(b.data());
  if (const auto* chain = g->chain(); chain && chain->size()) {
    out.push_back({"chain.length=0x3FFFFFFF", put<uint32_t>(b, at_of(b, chain), 0x3FFFFFFFu)});
    if (const auto* args = chain->Get(0)->args(); args && args->size())
      out.push_back({"chain[0].args[0]=0x7FFFFFF0", put<int32_t>(b, at_of(b, args->Data()), 0x7FFFFFF0)});
  }
  if (const auto* values = g->values()) {
    if (values->size())
      if (auto at = field_at(b, values->Get(0), vkgraph::VkValue::VT_VALUE_TYPE); at != SIZE_MAX)
        out.push_back({"values[0].value_type=126", put<uint8_t>(b, at, 126)});
    for (flatbuffers::uoffset_t i = 0; i < values->size(); ++i) {
      const auto* t = values->Get(i)->value_as_VkTensor();
      if (!t || !t->dims() || t->dims()->size() < 2) continue;
      std::string bad = b;
      for (flatbuffers::uoffset_t k = 0; k < t->dims()->size(); ++k)
        bad = put<uint32_t>(bad, at_of(b, t->dims()->Data()) + 4 * k, 0xFFFFFFFFu);
      out.push_back({"values[" + std::to_string(i) + "].value.dims=0xFFFFFFFF...", bad});
      break;
    }
  }
  if (const auto* in = g->input_ids(); in && in->size())
    out.push_back({"input_ids[0]=0xFFFFFF00", put<uint32_t>(b, at_of(b, in->Data()), 0xFFFFFF00u)});
  return out;
}

std::vector<Malformed> vkdelegate_mutations(const std::string& b) {
  std::vector<Malformed> out;
  const auto fb_offset = get<uint32_t>(b, 10), fb_size = get<uint32_t>(b, 14);
  const auto bytes_size = get<uint64_t>(b, 22);
  out.push_back({"magic=VH01", put<char>(b, 7, '1')});
  out.push_back({"header.header_size=0", put<uint16_t>(b, 8, 0)});
  out.push_back({"header.flatbuffer_offset=0xFFFFFFF0", put<uint32_t>(b, 10, 0xFFFFFFF0u)});
  out.push_back({"header.flatbuffer_size=0xFFFFFFF0", put<uint32_t>(b, 14, 0xFFFFFFF0u)});
  out.push_back({"header.bytes_offset=0xFFFFFFF0", put<uint32_t>(b, 18, 0xFFFFFFF0u)});
  out.push_back({"header.bytes_size=2^64-256", put<uint64_t>(b, 22, ~uint64_t{255})});
  for (auto [name, cut] : {std::pair<const char*, std::size_t>{"empty", 0}, {"magic", 6}, {"header", 29},
                           {"flatbuffer", fb_offset + fb_size / 2}})
    if (cut < b.size()) out.push_back({std::string("truncate@") + name, b.substr(0, cut)});
  if (bytes_size > 0) out.push_back({"truncate@segment-end", b.substr(0, b.size() - 1)});
  // The embedded flatbuffer's own offsets, mutated in place.
  const std::string fb = b.substr(fb_offset, fb_size);
  for (Malformed& m : flatbuffer_mutations(fb)) {
    if (m.bytes.size() != fb.size()) continue;
    out.push_back({"flatbuffer." + m.name, b.substr(0, fb_offset) + m.bytes + b.substr(fb_offset + fb_size)});
  }
  return out;
}

std::vector<Malformed> afcm_mutations(const std::string& b) {
  namespace gl = ::tflite::gpu::gl::data;
  std::vector<Malformed> out;
  const auto* m = gl::GetCompiledModel(b.data());
  if (const auto* programs = m->programs(); programs && programs->size()) {
    out.push_back({"programs.length=0x3FFFFFFF", put<uint32_t>(b, at_of(b, programs), 0x3FFFFFFFu)});
    if (const auto* objects = programs->Get(0)->objects(); objects && objects->size())
      if (auto at = field_at(b, objects->Get(0), gl::Object::VT_OBJECT_TYPE); at != SIZE_MAX)
        out.push_back({"programs[0].objects[0].object_type=126", put<uint8_t>(b, at, 126)});
  }
  return out;
}

std::vector<Malformed> ir_json_mutations(const std::string& text) {
  using Json = nlohmann::ordered_json;
  std::vector<Malformed> out;
  const std::size_t close = text.rfind('}');
  for (auto [name, cut] : {std::pair<const char*, std::size_t>{"third", text.size() / 3}, {"half", text.size() / 2},
                           {"closing-brace", close}})
    out.push_back({std::string("truncate@") + name, text.substr(0, cut)});
  const Json doc = Json::parse(text);
  auto edit = [&](const std::string& name, auto&& fn) {
    Json j = doc;
    fn(j);
    out.push_back({name, j.dump(1)});
  };
  const Json& nodes = doc["nodes"];
  if (!nodes.empty() && !nodes[0]["inputs"].empty() && !nodes[0]["outputs"].empty()) {
    edit("nodes[0].inputs[0]=its own output (cycle)", [](Json& j) { j["nodes"][0]["inputs"][0] = j["nodes"][0]["outputs"][0]; });
    edit("nodes[0].inputs[0]=1000000", [](Json& j) { j["nodes"][0]["inputs"][0] = 1000000; });
    if (nodes.size() > 1) {
      edit("nodes[0].inputs[0]=the last node's output (cycle)",
           [](Json& j) { j["nodes"][0]["inputs"][0] = j["nodes"].back()["outputs"][0]; });
      edit("nodes[1].outputs[0]=nodes[0].outputs[0] (two producers)",
           [](Json& j) { j["nodes"][1]["outputs"][0] = j["nodes"][0]["outputs"][0]; });
    }
  }
  edit("outputs[0]=1000000", [](Json& j) { j["outputs"][0] = 1000000; });
  edit("values[0].type.dtype=float33", [](Json& j) { j["values"][0]["type"]["dtype"] = "float33"; });
  edit("values[0].type.shape=[2^62, 2^62, 4]", [](Json& j) {
    j["values"][0]["type"]["shape"] = Json::array({int64_t{1} << 62, int64_t{1} << 62, 4});
  });
  return out;
}

namespace {

// A version 1.0 .npy with header dictionary `dict`, padded as numpy pads it, then `data`.
std::string npy(const std::string& dict, const std::string& data) {
  std::string header = dict;
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  out += put<uint16_t>(std::string(2, '\0'), 0, static_cast<uint16_t>(header.size()));
  return out + header + data;
}

}  // namespace

std::vector<Malformed> npy_mutations(const std::string& b) {
  std::vector<Malformed> out;
  const std::size_t hlen = get<uint16_t>(b, 8);
  const std::size_t data_at = 10 + hlen;
  const std::size_t n = b.size();
  for (auto [name, cut] : {std::pair<const char*, std::size_t>{"empty", 0}, {"magic", 5}, {"version", 7},
                           {"header-length", 9}, {"header", 10 + hlen / 2}, {"header-end", data_at - 1},
                           {"data", data_at + (n - data_at) / 2}, {"last-byte", n - 1}})
    out.push_back({std::string("truncate@") + name, b.substr(0, cut)});
  out.push_back({"magic=\\x93NUMPX", put<char>(b, 5, 'X')});
  out.push_back({"version=9.0", put<uint8_t>(b, 6, 9)});
  out.push_back({"header-length=0xFFFF", put<uint16_t>(b, 8, 0xFFFF)});
  const std::string data = b.substr(data_at);
  out.push_back({"descr=<c8", npy("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", data)});
  out.push_back({"shape=(2^32, 2^32, 2^32)",
                 npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4294967296), }", data)});
  out.push_back({"shape=(-1, 4)", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (-1, 4), }", data)});
  out.push_back({"header=not-a-dict", npy("[1, 2, 3]", data)});
  return out;
}

std::vector<Malformed> proto_binary_mutations(const std::string& b) {
  return {{"truncate@last-byte", b.substr(0, b.size() - 1)},
          {"append field 1 wire type 7", b + std::string("\x0F\x01", 2)},
          {"append field 2 length 2^31-1", b + std::string("\x12\xFF\xFF\xFF\xFF\x07", 6)}};
}

std::vector<Malformed> settings_json_mutations(const std::string& text) {
  std::vector<Malformed> out;
  const std::size_t open = text.find('{'), close = text.rfind('}');
  out.push_back({"truncate@closing-brace", text.substr(0, close)});
  out.push_back({"unknown key", text.substr(0, open + 1) + "\"no_such_field\": 1, " + text.substr(open + 1)});
  out.push_back({"text after the document", text + "\n}"});
  return out;
}

}  // namespace nnbridge::test::corpus
