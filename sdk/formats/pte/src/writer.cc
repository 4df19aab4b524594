// Writing a .pte: the graph's Vulkan payload back into the Program it came from, or into a new
// one-method Program (exir/_serialize/_program.py serialize_pte_binary's layout).
#include <cstring>
#include <map>
#include <set>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/formats/vkgraph.h"
#include "nnbridge/narrow.h"
#include "program.h"

namespace nnbridge::formats::pte {

namespace {

constexpr uint64_t kSegmentAlignment = 128;  // serialize_pte_binary's segment_alignment
constexpr uint64_t kHeaderLength = 32;        // the extended header padded to the schema's force_align (16)
constexpr uint64_t kTensorAlignment = 16;     // memory planning's default alignment

template <class T>
const T* find_as(const AttrMap& m, const std::string& k) {
  auto it = m.find(k);
  return it != m.end() && it->second.is<T>() ? &it->second.get<T>() : nullptr;
}

// A finished Program flatbuffer (without the header) and its segments, as one file.
std::vector<uint8_t> lay_out(std::span<const uint8_t> fb, const std::vector<std::span<const std::byte>>& segs,
                             const std::vector<uint64_t>& offsets) {
  if (segs.empty()) return std::vector<uint8_t>(fb.begin(), fb.end());
  uint64_t extent = 0;
  for (std::size_t k = 0; k < segs.size(); ++k) extent = std::max(extent, offsets[k] + segs[k].size());
  ExtendedHeader h;
  h.program_size = fb.size() + kHeaderLength;
  h.segment_base_offset = align_up(h.program_size, kSegmentAlignment);
  h.segment_data_size = extent;
  std::vector<uint8_t> header = encode_extended_header(h);
  header.resize(kHeaderLength, 0);
  std::vector<uint8_t> out = insert_header(fb, header);
  out.resize(h.segment_base_offset + extent, 0);
  for (std::size_t k = 0; k < segs.size(); ++k)
    if (!segs[k].empty()) std::memcpy(out.data() + h.segment_base_offset + offsets[k], segs[k].data(), segs[k].size());
  return out;
}

// Offsets of segments laid end to end at multiples of 128.
std::vector<uint64_t> pack_offsets(const std::vector<std::span<const std::byte>>& segs) {
  std::vector<uint64_t> off;
  uint64_t end = 0;
  for (const auto& s : segs) {
    off.push_back(align_up(end, kSegmentAlignment));
    end = off.back() + s.size();
  }
  return off;
}

std::vector<uint8_t> pack(const et::ProgramT& p) {
  flatbuffers::FlatBufferBuilder b(4096);
  et::FinishProgramBuffer(b, et::Program::Pack(b, &p));
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

// flatbuffers' verifier checks a vector's length prefix for 4-byte alignment only, but the
// object API (UnPackTo) then loads each 8-byte element in place: in a file that no FlatBuffers
// builder wrote, such an element can lie off its alignment (undefined behaviour; found by
// fuzz_pte). Refuse to rewrite such a Program; `base` is 8-byte aligned.
template <class T>
void require_aligned(const flatbuffers::Vector<T>* v, const uint8_t* base, const std::string& where) {
  static_assert(sizeof(T) == 8);
  if (v && v->size() && (reinterpret_cast<const uint8_t*>(v->Data()) - base) % 8 != 0)
    throw Error(ErrorId::UnsupportedOther,
                "8-byte elements off their alignment (no FlatBuffers builder writes that); the Program cannot be rewritten",
                {}, "metadata." + keys::kProgram + ": " + where);
}

void require_aligned_lists(const et::Program& p, const uint8_t* base) {
  if (const auto* c = p.constant_segment()) require_aligned(c->offsets(), base, "constant_segment.offsets");
  if (const auto* m = p.mutable_data_segments())
    for (flatbuffers::uoffset_t i = 0; i < m->size(); ++i)
      require_aligned(m->Get(i)->offsets(), base, "mutable_data_segments[" + std::to_string(i) + "].offsets");
  if (const auto* plans = p.execution_plan())
    for (flatbuffers::uoffset_t k = 0; k < plans->size(); ++k) {
      const et::ExecutionPlan* plan = plans->Get(k);
      const std::string at = "execution_plan[" + std::to_string(k) + "]";
      require_aligned(plan->non_const_buffer_sizes(), base, at + ".non_const_buffer_sizes");
      if (const auto* values = plan->values())
        for (flatbuffers::uoffset_t i = 0; i < values->size(); ++i) {
          const et::EValue* v = values->Get(i);
          if (const auto* l = v->val_as_IntList()) require_aligned(l->items(), base, at + ".values[" + std::to_string(i) + "]");
          if (const auto* l = v->val_as_DoubleList()) require_aligned(l->items(), base, at + ".values[" + std::to_string(i) + "]");
        }
    }
}

// The graph back into the Program it was read from.
std::vector<uint8_t> rewrite(const Graph& g, const Bytes& program, const std::vector<uint8_t>& payload) {
  const auto file = std::as_bytes(std::span<const uint8_t>(program.data));
  const auto* base = reinterpret_cast<const uint8_t*>(file.data());
  flatbuffers::Verifier verifier(base, file.size());
  if (!et::VerifyProgramBuffer(verifier)) throw Error(ErrorId::AttributeValue, "metadata pte.program is not a verified Program", {}, "metadata." + keys::kProgram);
  const et::Program& p = *et::GetProgram(base);
  require_aligned_lists(p, base);
  const auto* method = find_as<std::string>(g.metadata, keys::kMethod);
  const std::size_t plan_index = choose_method(p, method ? *method : std::string());
  const VulkanCall call = vulkan_call(p, plan_index);
  const et::ExecutionPlan* plan = p.execution_plan()->Get(static_cast<flatbuffers::uoffset_t>(plan_index));
  // The method's tensors must still be the graph's.
  auto same = [&](const flatbuffers::Vector<int32_t>* ids, const std::vector<ValueId>& ours, const char* what) {
    const std::size_t n = ids ? ids->size() : 0;
    bool ok = n == ours.size();
    for (std::size_t k = 0; ok && k < n; ++k) {
      const et::Tensor* t = plan->values()->Get(static_cast<flatbuffers::uoffset_t>(ids->Get(static_cast<flatbuffers::uoffset_t>(k))))->val_as_Tensor();
      std::vector<int64_t> sizes;
      if (t && t->sizes()) sizes.assign(t->sizes()->begin(), t->sizes()->end());
      ok = t && ir_dtype(static_cast<int8_t>(t->scalar_type())) == g.values[ours[k]].type.dtype && sizes == g.values[ours[k]].type.shape;
    }
    if (!ok)
      throw Error(ErrorId::Feature, std::string("the graph's ") + what + " no longer match method \"" +
                                              (plan->name() ? plan->name()->str() : "") + "\"'s (remove metadata pte.program to write a new Program)",
                  {}, "metadata." + keys::kProgram);
  };
  same(plan->inputs(), g.inputs, "inputs");
  same(plan->outputs(), g.outputs, "outputs");

  if (call.location == et::DataLocation::INLINE) {
    const auto* data = p.backend_delegate_data()->Get(call.index)->data();
    if (data->size() == payload.size() && std::memcmp(data->data(), payload.data(), payload.size()) == 0)
      return program.data;  // no segments (inline data): the Program is the whole file
    et::ProgramT t;
    p.UnPackTo(&t);
    t.backend_delegate_data[call.index]->data = payload;
    if (!t.segments.empty())
      throw Error(ErrorId::Feature, "a Program with both inline delegate data and segments is not rewritten", {}, "segments");
    return pack(t);
  }

  // Segment contents: the payload, the constants of named data, the kept bytes of the rest.
  std::map<std::string, Buffer> named;
  for (auto& [key, buf] : vkgraph::named_constants(g)) named.emplace(key, buf);
  std::map<uint32_t, std::string> key_of;  // segment -> a named-data key the graph holds
  if (p.named_data())
    for (const et::NamedData* e : *p.named_data())
      if (e->key() && named.count(e->key()->str())) key_of.emplace(e->segment_index(), e->key()->str());
  const std::size_t n = p.segments() ? p.segments()->size() : 0;
  std::vector<std::span<const std::byte>> segs(n);
  bool same_sizes = true;
  for (std::size_t k = 0; k < n; ++k) {
    if (k == call.index) segs[k] = std::as_bytes(std::span<const uint8_t>(payload));
    else if (const auto* kept = find_as<Bytes>(g.metadata, keys::kSegment + std::to_string(k)))
      segs[k] = std::as_bytes(std::span<const uint8_t>(kept->data));
    else if (auto it = key_of.find(static_cast<uint32_t>(k)); it != key_of.end())
      segs[k] = named.at(it->second).bytes();
    else
      throw Error(ErrorId::AttributeValue, "segment " + std::to_string(k) + " has no contents: neither metadata " + keys::kSegment +
                                          std::to_string(k) + " nor a constant with its named-data key", {}, "metadata." + keys::kSegment + std::to_string(k));
    same_sizes = same_sizes && segs[k].size() == p.segments()->Get(static_cast<flatbuffers::uoffset_t>(k))->size();
  }
  if (same_sizes) {
    // The Program bytes stay as they are; the segments go back where they were.
    std::vector<uint8_t> out = program.data;
    auto h = parse_extended_header(file, UINT64_MAX);
    if (!h) throw Error(ErrorId::AttributeValue, "metadata pte.program has segments but no extended header", {}, "metadata." + keys::kProgram);
    uint64_t extent = 0;
    for (std::size_t k = 0; k < n; ++k) {
      const et::DataSegment* s = p.segments()->Get(static_cast<flatbuffers::uoffset_t>(k));
      extent = std::max(extent, s->offset() + s->size());
    }
    out.resize(std::max<uint64_t>(h->segment_base_offset + extent, out.size()), 0);
    for (std::size_t k = 0; k < n; ++k)
      if (!segs[k].empty())
        std::memcpy(out.data() + h->segment_base_offset + p.segments()->Get(static_cast<flatbuffers::uoffset_t>(k))->offset(), segs[k].data(),
                    segs[k].size());
    return out;
  }
  et::ProgramT t;
  p.UnPackTo(&t);
  const std::vector<uint64_t> off = pack_offsets(segs);
  for (std::size_t k = 0; k < n; ++k) {
    t.segments[k]->offset = off[k];
    t.segments[k]->size = segs[k].size();
  }
  return lay_out(pack(t), segs, off);
}

// A new Program: one method "forward" that is one Vulkan delegate (ExecuTorch's emitter for a
// fully delegated graph: planned input and output tensors, segment 0 the empty constant segment).
std::vector<uint8_t> fresh(const Graph& g, const std::vector<uint8_t>& payload) {
  auto plan = std::make_unique<et::ExecutionPlanT>();
  plan->name = "forward";
  plan->container_meta_type = std::make_unique<et::ContainerMetadataT>();
  uint64_t planned = 0;
  std::vector<int32_t> args;
  auto tensor = [&](ValueId id, const std::string& where) {
    const Value& v = g.values[id];
    const int8_t st = scalar_type(v.type.dtype);
    if (st < 0) throw Error(ErrorId::DataType, "ExecuTorch has no scalar type for " + std::string(to_string(v.type.dtype)), {}, where);
    auto bytes = v.type.byte_size();
    if (!bytes) throw Error(ErrorId::NoForm, "value \"" + v.name + "\" has no fully known shape", {}, where);
    auto t = std::make_unique<et::TensorT>();
    t->scalar_type = static_cast<et::ScalarType>(st);
    for (std::size_t k = 0; k < v.type.shape.size(); ++k) {
      t->sizes.push_back(narrow_field<int32_t>(v.type.shape[k], where + ".sizes"));
      t->dim_order.push_back(static_cast<uint8_t>(k));
    }
    t->allocation_info = std::make_unique<et::AllocationDetailsT>();
    t->allocation_info->memory_id = 1;
    t->allocation_info->memory_offset_low = static_cast<uint32_t>(planned);
    t->allocation_info->memory_offset_high = static_cast<uint32_t>(planned >> 32);
    planned = align_up(planned + static_cast<uint64_t>(*bytes), kTensorAlignment);
    et::EValueT e;
    e.val.Set(std::move(*t));
    plan->values.push_back(std::make_unique<et::EValueT>(std::move(e)));
    args.push_back(static_cast<int32_t>(plan->values.size() - 1));
  };
  for (std::size_t k = 0; k < g.inputs.size(); ++k) tensor(g.inputs[k], "inputs[" + std::to_string(k) + "]");
  for (std::size_t k = 0; k < g.outputs.size(); ++k) tensor(g.outputs[k], "outputs[" + std::to_string(k) + "]");
  plan->inputs.assign(args.begin(), args.begin() + static_cast<std::ptrdiff_t>(g.inputs.size()));
  plan->outputs.assign(args.begin() + static_cast<std::ptrdiff_t>(g.inputs.size()), args.end());
  auto chain = std::make_unique<et::ChainT>();
  chain->inputs = plan->inputs;
  chain->outputs = plan->outputs;
  et::DelegateCallT dc;
  dc.delegate_index = 0;
  dc.args = args;
  auto ins = std::make_unique<et::InstructionT>();
  ins->instr_args.Set(std::move(dc));
  chain->instructions.push_back(std::move(ins));
  plan->chains.push_back(std::move(chain));
  auto del = std::make_unique<et::BackendDelegateT>();
  del->id = "VulkanBackend";
  del->processed = std::make_unique<et::BackendDelegateDataReferenceT>();
  del->processed->location = et::DataLocation::SEGMENT;
  del->processed->index = 1;
  plan->delegates.push_back(std::move(del));
  plan->non_const_buffer_sizes = {0, static_cast<int64_t>(planned)};
  et::ProgramT t;
  t.version = 0;
  t.execution_plan.push_back(std::move(plan));
  std::vector<std::span<const std::byte>> segs = {{}, std::as_bytes(std::span<const uint8_t>(payload))};
  const std::vector<uint64_t> off = pack_offsets(segs);
  for (std::size_t k = 0; k < segs.size(); ++k) {
    auto s = std::make_unique<et::DataSegmentT>();
    s->offset = off[k];
    s->size = segs[k].size();
    t.segments.push_back(std::move(s));
  }
  t.constant_segment = std::make_unique<et::SubsegmentOffsetsT>();
  t.constant_segment->segment_index = 0;
  t.constant_segment->offsets = {0};
  return lay_out(pack(t), segs, off);
}

}  // namespace

PteFiles write_pte(const Graph& g, const SaveOptions& o) {
  PteFiles f;
  const std::vector<uint8_t> payload = vkgraph::write_delegate_payload(g, o);
  const auto* program = find_as<Bytes>(g.metadata, keys::kProgram);
  f.pte = program ? rewrite(g, *program, payload) : fresh(g, payload);
  // Named data the payload refers to that the Program does not hold goes to the .ptd.
  std::set<std::string> in_program;
  if (program) {
    const auto* p = et::GetProgram(program->data.data());
    if (p->named_data())
      for (const et::NamedData* e : *p->named_data())
        if (e->key()) in_program.insert(e->key()->str());
  }
  for (const auto& [key, buf] : vkgraph::named_constants(g))
    if (!in_program.count(key)) f.ptd.push_back({key, buf});
  return f;
}

}  // namespace nnbridge::formats::pte
