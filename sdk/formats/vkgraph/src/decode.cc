// Verifying and decoding a VkGraph flatbuffer into a RawGraph.
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>

#include "nnbridge/error.h"
#include "nnbridge/verify_failure.h"
#include "raw.h"
#include "vkgraph/schema_generated.h"

namespace nnbridge::formats::vkgraph {

namespace {

namespace fb = ::vkgraph;
using flatbuffers::uoffset_t;

[[noreturn]] void fail(ErrorId id, const std::string& where, const std::string& msg) { throw Error(id, msg, {}, where); }

std::string at(const char* vec, std::size_t i) { return std::string(vec) + "[" + std::to_string(i) + "]"; }

flatbuffers::Verifier::Options options_of(const VerifierLimits& limits) {
  flatbuffers::Verifier::Options o;
  o.max_depth = limits.max_depth;
  o.max_tables = limits.max_tables;
  return o;
}

bool printable(const flatbuffers::String* s) {
  if (!s || s->size() == 0) return false;
  for (char c : s->string_view())
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) return false;
  return true;
}

// ExecuTorch 0.2 wrote OperatorCall as (name, args); 0.3 inserted node_id in slot 0 without a
// new identifier. Read with today's schema such a call has its name in the node_id slot and
// its args where the name should be, and no args. Signature: slots 0 and 1 set, slot 2
// absent, slot 0 an offset to a printable string and slot 1 an int vector. A current call
// always has args (slot 2), so it never matches.
void reject_legacy_calls(const uint8_t* p, std::size_t n, const flatbuffers::Verifier::Options& o) {
  flatbuffers::Verifier v(p, n, o);
  if (!v.VerifyOffset(0)) return;
  const auto* root = flatbuffers::GetRoot<flatbuffers::Table>(p);
  if (!root->VerifyTableStart(v) || !root->VerifyOffset(v, fb::VkGraph::VT_CHAIN)) return;
  const auto* chain = root->GetPointer<const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::Table>>*>(
      fb::VkGraph::VT_CHAIN);
  if (!chain || !v.VerifyVector(chain)) return;
  for (uoffset_t i = 0; i < chain->size(); ++i) {
    flatbuffers::Verifier vi(p, n, o);
    if (!vi.VerifyOffset(static_cast<std::size_t>(reinterpret_cast<const uint8_t*>(chain->Data()) - p) + 4u * i))
      return;  // the full verification reports it
    const flatbuffers::Table* t = chain->Get(i);
    if (!t->VerifyTableStart(vi)) return;
    if (!t->GetOptionalFieldOffset(4) || !t->GetOptionalFieldOffset(6) || t->GetOptionalFieldOffset(8)) continue;
    if (!t->VerifyOffset(vi, 4) || !t->VerifyOffset(vi, 6)) continue;
    const auto* name = t->GetPointer<const flatbuffers::String*>(4);
    const auto* args = t->GetPointer<const flatbuffers::Vector<int32_t>*>(6);
    if (!vi.VerifyString(name) || !vi.VerifyVector(args) || !printable(name)) continue;
    throw Error(ErrorId::Version,
                "OperatorCall \"" + name->str() +
                    "\" has the ExecuTorch 0.2 layout (name, args; no node_id), which reads wrongly under the "
                    "current schema with the same VK00 identifier; re-export it with a current ExecuTorch",
                {}, at("chain", i));
  }
}

// After a failed verification: the first part that fails on its own, for the message.
std::string locate_failure(const uint8_t* p, std::size_t n, const flatbuffers::Verifier::Options& o) {
  flatbuffers::Verifier v0(p, n, o);
  if (!v0.VerifyOffset(0)) return "(root offset)";
  const auto* root = fb::GetVkGraph(p);
  const auto* rt = reinterpret_cast<const flatbuffers::Table*>(root);
  if (!rt->VerifyTableStart(v0)) return "(root table)";
  struct F {
    flatbuffers::voffset_t vt;
    const char* name;
  };
  for (F f : {F{fb::VkGraph::VT_VERSION, "version"}, F{fb::VkGraph::VT_CHAIN, "chain"},
              F{fb::VkGraph::VT_VALUES, "values"}, F{fb::VkGraph::VT_INPUT_IDS, "input_ids"},
              F{fb::VkGraph::VT_OUTPUT_IDS, "output_ids"}, F{fb::VkGraph::VT_CONSTANTS, "constants"},
              F{fb::VkGraph::VT_SHADERS, "shaders"}}) {
    flatbuffers::Verifier v(p, n, o);
    if (!rt->VerifyTableStart(v) || !rt->VerifyOffset(v, f.vt)) return f.name;
  }
  auto each = [&](const auto* vec, const char* name) -> std::string {
    flatbuffers::Verifier v(p, n, o);
    if (!vec) return "";
    if (!v.VerifyVector(vec)) return name;
    for (uoffset_t i = 0; i < vec->size(); ++i) {
      flatbuffers::Verifier vi(p, n, o);
      if (!vi.VerifyOffset(static_cast<std::size_t>(reinterpret_cast<const uint8_t*>(vec->Data()) - p) + 4u * i) ||
          !vec->Get(i)->Verify(vi))
        return at(name, i);
    }
    return "";
  };
  for (std::string w : {each(root->chain(), "chain"), each(root->values(), "values"),
                        each(root->constants(), "constants"), each(root->shaders(), "shaders")})
    if (!w.empty()) return w;
  return "";
}

// After a failed verification: whether an offset or a length in the VkGraph's tables points past
// the end of the buffer (a cut file, a root offset past the end). Bounds checks only, following
// the schema's tables; each position is visited once, so the walk is linear in the size.
class PastEnd {
 public:
  PastEnd(const uint8_t* p, std::size_t n) : p_(p), n_(n) {}

  bool operator()() {
    const std::size_t root = target(0);
    for (auto vt : {fb::VkGraph::VT_STORAGE_TYPE_OVERRIDE, fb::VkGraph::VT_MEMORY_LAYOUT_OVERRIDE}) field(root, vt, 1);
    vector(root, fb::VkGraph::VT_VERSION, 1, true);
    vector(root, fb::VkGraph::VT_INPUT_IDS, 4);
    vector(root, fb::VkGraph::VT_OUTPUT_IDS, 4);
    tables(root, fb::VkGraph::VT_CHAIN, [&](std::size_t t) {
      field(t, fb::OperatorCall::VT_NODE_ID, 4);
      vector(t, fb::OperatorCall::VT_NAME, 1, true);
      vector(t, fb::OperatorCall::VT_ARGS, 4);
    });
    tables(root, fb::VkGraph::VT_VALUES, [&](std::size_t t) { value(t); });
    for (auto vt : {fb::VkGraph::VT_CONSTANTS, fb::VkGraph::VT_SHADERS})
      tables(root, vt, [&](std::size_t t) {
        field(t, fb::VkBytes::VT_OFFSET, 8);
        field(t, fb::VkBytes::VT_LENGTH, 8);
        vector(t, fb::VkBytes::VT_NAMED_KEY, 1, true);
      });
    return past_;
  }

 private:
  static constexpr std::size_t kNone = SIZE_MAX;

  bool in(uint64_t at, uint64_t len) {
    if (at <= n_ && len <= n_ - at) return true;
    past_ = true;
    return false;
  }
  uint32_t u32(std::size_t at) const {
    uint32_t v;
    std::memcpy(&v, p_ + at, 4);
    return v;
  }
  uint16_t u16(std::size_t at) const {
    uint16_t v;
    std::memcpy(&v, p_ + at, 2);
    return v;
  }
  // Where the uoffset at `at` points (4 bytes there), or kNone.
  std::size_t target(std::size_t at) {
    if (at == kNone || !in(at, 4)) return kNone;
    const uint64_t to = uint64_t(at) + u32(at);
    return in(to, 4) ? static_cast<std::size_t>(to) : kNone;
  }
  // Field `voff` (`size` bytes) of the table at `t`, or kNone when it is absent.
  std::size_t field(std::size_t t, flatbuffers::voffset_t voff, std::size_t size) {
    if (t == kNone) return kNone;
    const int64_t vt = int64_t(t) - int32_t(u32(t));
    if (vt < 0 || !in(uint64_t(vt), 4)) return kNone;
    const std::size_t v = static_cast<std::size_t>(vt);
    const uint16_t vsize = u16(v), tsize = u16(v + 2);
    if (!in(v, vsize) || !in(t, tsize) || voff + 2u > vsize) return kNone;
    const uint16_t off = u16(v + voff);
    return off != 0 && in(uint64_t(t) + off, size) ? t + off : kNone;
  }
  // The vector (a string with its terminator) field `voff` points to: its position, or kNone.
  std::size_t vector(std::size_t t, flatbuffers::voffset_t voff, uint64_t elem, bool string = false) {
    const std::size_t v = target(field(t, voff, 4));
    return v != kNone && in(uint64_t(v) + 4, u32(v) * elem + (string ? 1 : 0)) ? v : kNone;
  }
  template <class F>
  void tables(std::size_t t, flatbuffers::voffset_t voff, F each) {
    const std::size_t v = vector(t, voff, 4);
    if (v == kNone) return;
    for (uint32_t k = 0, len = u32(v); k < len; ++k) each(target(v + 4 + 4 * std::size_t(k)));
  }
  void value(std::size_t t) {
    const std::size_t tag_at = field(t, fb::VkValue::VT_VALUE_TYPE, 1);
    const std::size_t u = target(field(t, fb::VkValue::VT_VALUE, 4));
    if (tag_at == kNone || u == kNone) return;
    field(u, 4, 1);  // the table and its vtable
    switch (static_cast<fb::GraphTypes>(p_[tag_at])) {
      case fb::GraphTypes::VkTensor:
        vector(u, fb::VkTensor::VT_DIMS, 4);
        for (auto vt : {fb::VkTensor::VT_CONSTANT_ID, fb::VkTensor::VT_MEM_OBJ_ID}) field(u, vt, 4);
        for (auto vt : {fb::VkTensor::VT_DATATYPE, fb::VkTensor::VT_STORAGE_TYPE, fb::VkTensor::VT_MEMORY_LAYOUT,
                        fb::VkTensor::VT_STAGING_DATATYPE})
          field(u, vt, 1);
        break;
      case fb::GraphTypes::Int:
      case fb::GraphTypes::Double: field(u, 4, 8); break;
      case fb::GraphTypes::SymInt: field(u, 4, 4); break;
      case fb::GraphTypes::IntList:
      case fb::GraphTypes::DoubleList: vector(u, 4, 8); break;
      case fb::GraphTypes::BoolList: vector(u, 4, 1); break;
      case fb::GraphTypes::ValueList: vector(u, 4, 4); break;
      case fb::GraphTypes::String: vector(u, 4, 1, true); break;
      default: break;
    }
  }

  const uint8_t* p_;
  std::size_t n_;
  bool past_ = false;
};

// The identifier of a failed verification: Truncated when an offset or a length points past the
// end, DepthLimit / ResourceLimit when the buffer verifies without the max_depth / max_tables
// limits, VerifyFailed otherwise.
ErrorId failure_id(const uint8_t* p, std::size_t n, const flatbuffers::Verifier::Options& o) {
  if (PastEnd(p, n)()) return ErrorId::Truncated;
  auto verifies = [&](const flatbuffers::Verifier::Options& x) {
    flatbuffers::Verifier v(p, n, x);
    return fb::VerifyVkGraphBuffer(v);
  };
  flatbuffers::Verifier::Options deep = o;
  deep.max_depth = std::numeric_limits<uoffset_t>::max();
  if (verifies(deep)) return ErrorId::DepthLimit;
  deep.max_tables = std::numeric_limits<uoffset_t>::max();
  if (verifies(deep)) return ErrorId::ResourceLimit;
  return ErrorId::VerifyFailed;
}

RawTensor tensor_of(const fb::VkTensor* t, const std::string& w, std::size_t n_constants) {
  RawTensor r;
  r.datatype = static_cast<int8_t>(t->datatype());
  if (!data_type_name(r.datatype)) fail(ErrorId::BadEncoding, w + ".datatype", "VkDataType " + std::to_string(r.datatype) + " is not defined");
  if (r.datatype == kDataTypeUnset) fail(ErrorId::AttributeValue, w + ".datatype", "UNSET is only meaningful as staging_datatype");
  r.staging_datatype = static_cast<int8_t>(t->staging_datatype());
  if (!data_type_name(r.staging_datatype))
    fail(ErrorId::BadEncoding, w + ".staging_datatype", "VkDataType " + std::to_string(r.staging_datatype) + " is not defined");
  r.storage_type = static_cast<uint8_t>(t->storage_type());
  if (!storage_type_name(r.storage_type))
    fail(ErrorId::BadEncoding, w + ".storage_type", "VkStorageType " + std::to_string(r.storage_type) + " is not defined");
  r.memory_layout = static_cast<uint8_t>(t->memory_layout());
  if (!memory_layout_name(r.memory_layout))
    fail(ErrorId::BadEncoding, w + ".memory_layout", "VkMemoryLayout " + std::to_string(r.memory_layout) + " is not defined");
  if (t->dims()) r.dims.assign(t->dims()->begin(), t->dims()->end());
  else r.dims_present = false;
  r.constant_id = t->constant_id();
  r.mem_obj_id = t->mem_obj_id();
  if (r.constant_id >= 0 && static_cast<std::size_t>(r.constant_id) >= n_constants)
    fail(ErrorId::DanglingReference, w + ".constant_id",
         "constant " + std::to_string(r.constant_id) + ", but `constants` has " + std::to_string(n_constants) +
             " entries (an absent constant_id reads as 0: non-constant tensors must store -1)");
  return r;
}

template <class V>
void take(const V* items, RawValue& r, auto& out) {
  if (!items) r.present = false;
  else out.assign(items->begin(), items->end());
}

// Vectors of 8-byte scalars (IntList [long], DoubleList [double]): the verifier guarantees only
// the 4-byte alignment of a vector's length, so the elements may sit 4 bytes off their natural
// alignment in a legal-looking file. Copy the bytes instead of reading them in place (FlatBuffers
// is little-endian, as is every host nnbridge builds for).
template <class T>
void take_unaligned(const flatbuffers::Vector<T>* items, RawValue& r, std::vector<T>& out) {
  static_assert(sizeof(T) == 8);
  if (!items) {
    r.present = false;
    return;
  }
  out.resize(items->size());
  if (!out.empty()) std::memcpy(out.data(), items->Data(), out.size() * sizeof(T));
}

RawValue value_of(const fb::VkValue* vv, std::size_t i, std::size_t n_constants) {
  const std::string w = at("values", i);
  RawValue r;
  const auto tag = static_cast<uint8_t>(vv->value_type());
  if (tag == 0) fail(ErrorId::BadEncoding, w + ".value_type", "NONE: the value has no kind");
  if (tag > kKindCount) fail(ErrorId::BadEncoding, w + ".value_type", "unknown GraphTypes kind " + std::to_string(tag) + " (1..11 are defined)");
  if (!vv->value()) fail(ErrorId::BadEncoding, w + ".value", "missing table for kind " + std::string(kind_name(Kind(tag))));
  r.kind = Kind(tag);
  switch (r.kind) {
    case Kind::Null: break;
    case Kind::Int: r.i = vv->value_as_Int()->int_val(); break;
    case Kind::Double: r.d = vv->value_as_Double()->double_val(); break;
    case Kind::Bool: r.b = vv->value_as_Bool()->bool_val(); break;
    case Kind::SymInt: r.i = vv->value_as_SymInt()->value(); break;
    case Kind::Tensor: r.tensor = tensor_of(vv->value_as_VkTensor(), w + ".value", n_constants); break;
    case Kind::IntList: take_unaligned(vv->value_as_IntList()->items(), r, r.ints); break;
    case Kind::ValueList: take(vv->value_as_ValueList()->items(), r, r.ints); break;
    case Kind::DoubleList: take_unaligned(vv->value_as_DoubleList()->items(), r, r.doubles); break;
    case Kind::BoolList: {
      const auto* items = vv->value_as_BoolList()->items();
      if (!items) r.present = false;
      else
        for (uint8_t b : *items) r.bools.push_back(b != 0);
      break;
    }
    case Kind::String: {
      const auto* s = vv->value_as_String()->string_val();
      if (!s) r.present = false;
      else r.s = s->str();
      break;
    }
    case Kind::None: break;
  }
  return r;
}

void check_index(int64_t id, std::size_t n, const std::string& w) {
  if (id < 0 || static_cast<uint64_t>(id) >= n)
    fail(ErrorId::DanglingReference, w, "value index " + std::to_string(id) + " is out of range (" + std::to_string(n) + " values)");
}

std::vector<RawBytes> bytes_of(const flatbuffers::Vector<flatbuffers::Offset<fb::VkBytes>>* v) {
  std::vector<RawBytes> out;
  if (!v) return out;
  for (const auto* b : *v) {
    RawBytes r;
    r.offset = b->offset();
    r.length = b->length();
    if (b->named_key()) r.named_key = b->named_key()->str();
    else r.key_present = false;
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace

RawGraph decode(std::span<const std::byte> bytes, const VerifierLimits& limits) {
  const std::size_t n = bytes.size();
  if (n < 8) fail(ErrorId::Truncated, "", "too short for a FlatBuffer (" + std::to_string(n) + " bytes)");
  if (n >= FLATBUFFERS_MAX_BUFFER_SIZE) fail(ErrorId::MalformedOther, "", "larger than a FlatBuffer can be");
  // Scalars are read in place: a buffer at an odd address (inside a payload) is copied first.
  std::unique_ptr<uint64_t[]> aligned;
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  if (reinterpret_cast<uintptr_t>(p) % 8 != 0) {
    aligned.reset(new uint64_t[(n + 7) / 8]);
    std::memcpy(aligned.get(), p, n);
    p = reinterpret_cast<const uint8_t*>(aligned.get());
  }
  if (!fb::VkGraphBufferHasIdentifier(p))
    fail(ErrorId::BadIdentifier, "(file identifier)", "bytes 4..7 are not the VkGraph identifier VK00");
  const auto o = options_of(limits);
  reject_legacy_calls(p, n, o);
  {
    flatbuffers::Verifier v(p, n, o);
    if (!fb::VerifyVkGraphBuffer(v)) {
      const ErrorId id = failure_id(p, n, o);
      fail(id, locate_failure(p, n, o),
           verify_failure_message(id, "VkGraph", "vkgraph", o.max_depth, o.max_tables) +
               " (a .vkdelegate payload's options are vkdelegate.*)");
    }
  }
  const fb::VkGraph* root = fb::GetVkGraph(p);
  RawGraph g;
  if (root->version()) g.version = root->version()->str();
  else g.present.version = false;
  g.present.chain = root->chain() != nullptr;
  g.present.values = root->values() != nullptr;
  g.present.input_ids = root->input_ids() != nullptr;
  g.present.output_ids = root->output_ids() != nullptr;
  g.present.constants = root->constants() != nullptr;
  g.present.shaders = root->shaders() != nullptr;
  g.constants = bytes_of(root->constants());
  g.shaders = bytes_of(root->shaders());
  g.storage_type_override = static_cast<uint8_t>(root->storage_type_override());
  if (!storage_type_name(g.storage_type_override))
    fail(ErrorId::BadEncoding, "storage_type_override", "VkStorageType " + std::to_string(g.storage_type_override) + " is not defined");
  g.memory_layout_override = static_cast<uint8_t>(root->memory_layout_override());
  if (!memory_layout_name(g.memory_layout_override))
    fail(ErrorId::BadEncoding, "memory_layout_override", "VkMemoryLayout " + std::to_string(g.memory_layout_override) + " is not defined");

  if (const auto* values = root->values()) {
    g.values.reserve(values->size());
    for (uoffset_t i = 0; i < values->size(); ++i) g.values.push_back(value_of(values->Get(i), i, g.constants.size()));
  }
  const std::size_t nv = g.values.size();
  for (std::size_t i = 0; i < nv; ++i)
    if (g.values[i].kind == Kind::ValueList)
      for (std::size_t k = 0; k < g.values[i].ints.size(); ++k)
        check_index(g.values[i].ints[k], nv, at("values", i) + ".value.items[" + std::to_string(k) + "]");
  if (const auto* chain = root->chain()) {
    g.chain.reserve(chain->size());
    for (uoffset_t i = 0; i < chain->size(); ++i) {
      const auto* c = chain->Get(i);
      RawOp op;
      op.node_id = c->node_id();
      if (!c->name()) fail(ErrorId::MalformedOther, at("chain", i) + ".name", "missing operator name");
      op.name = c->name()->str();
      if (!c->args()) fail(ErrorId::MalformedOther, at("chain", i) + ".args", "missing (every operator has at least its output)");
      op.args.assign(c->args()->begin(), c->args()->end());
      for (std::size_t k = 0; k < op.args.size(); ++k)
        check_index(op.args[k], nv, at("chain", i) + ".args[" + std::to_string(k) + "]");
      g.chain.push_back(std::move(op));
    }
  }
  auto ids = [&](const flatbuffers::Vector<uint32_t>* v, const char* name, std::vector<uint32_t>& out) {
    if (!v) return;
    out.assign(v->begin(), v->end());
    for (std::size_t k = 0; k < out.size(); ++k) check_index(out[k], nv, at(name, k));
  };
  ids(root->input_ids(), "input_ids", g.input_ids);
  ids(root->output_ids(), "output_ids", g.output_ids);
  return g;
}

}  // namespace nnbridge::formats::vkgraph
