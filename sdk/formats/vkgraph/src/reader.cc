// A decoded VkGraph as IR (the form is documented in nnbridge/formats/vkgraph.h).
#include <filesystem>
#include <set>

#include "internal.h"
#include "nnbridge/buffer.h"
#include "nnbridge/error.h"
#include "nnbridge/rewrite.h"
#include "ops.h"

namespace nnbridge::formats::vkgraph {

namespace {

std::string at(const char* vec, std::size_t i) { return std::string(vec) + "[" + std::to_string(i) + "]"; }

class Reader {
 public:
  Reader(const RawGraph& rg, const Source& src, const std::optional<Segment>& seg, const NamedDataResolver* named)
      : rg_(rg), src_(src), seg_(seg), named_(named) {}

  Graph run(const std::string& format) {
    g_.source_format = format;
    name_io();
    values();
    for (std::size_t i = 0; i < rg_.chain.size(); ++i) node(i);
    io();
    tables();
    // Arguments that the canonical ops take as inputs (slice_copy's start / end / dim / step,
    // constant_pad_nd's pad and value, clamp's bounds, ...): constant values after the file's, in
    // node order (nnbridge/rewrite.h).
    attributes_as_operands(g_);
    return std::move(g_);
  }
  bool unresolved() const { return unresolved_; }

 private:
  // input_<i> / output_<i> by position in input_ids / output_ids; other tensors v<index>.
  // ExecuTorch's Vulkan runtime (VulkanBackend.cpp, GraphBuilder::build_graph and execute) takes
  // a tensor or a SymInt as an input and a tensor as an output, and fails on anything else.
  void name_io() {
    names_.assign(rg_.values.size(), std::string());
    std::set<uint32_t> seen;
    for (std::size_t k = 0; k < rg_.input_ids.size(); ++k) {
      uint32_t id = rg_.input_ids[k];
      if (!seen.insert(id).second) throw Error(ErrorId::DuplicateName, "value " + std::to_string(id) + " is listed twice", {}, at("input_ids", k));
      const Kind kind = rg_.values[id].kind;
      if (kind != Kind::Tensor && kind != Kind::SymInt)
        throw Error(ErrorId::TypeMismatch, "value " + std::to_string(id) + " is a " + kind_name(kind) +
                                            ", not a VkTensor or SymInt: ExecuTorch's Vulkan runtime cannot take it as an input",
                    {}, at("input_ids", k));
      names_[id] = "input_" + std::to_string(k);
    }
    for (std::size_t k = 0; k < rg_.output_ids.size(); ++k) {
      const uint32_t id = rg_.output_ids[k];
      if (rg_.values[id].kind != Kind::Tensor)
        throw Error(ErrorId::TypeMismatch, "value " + std::to_string(id) + " is a " + kind_name(rg_.values[id].kind) +
                                            ", not a VkTensor: ExecuTorch's Vulkan runtime cannot return it as an output",
                    {}, at("output_ids", k));
      if (names_[id].empty()) names_[id] = "output_" + std::to_string(k);
    }
  }

  void values() {
    ir_of_.assign(rg_.values.size(), kNoValue);
    std::vector<int64_t> kinds;
    kinds.reserve(rg_.values.size());
    for (std::size_t i = 0; i < rg_.values.size(); ++i) {
      const RawValue& v = rg_.values[i];
      kinds.push_back(static_cast<int64_t>(v.kind));
      const std::string key = keys::kValuePayload + std::to_string(i);
      switch (v.kind) {
        case Kind::Tensor: ir_of_[i] = g_.add_value(tensor(i)); break;
        case Kind::Int:
        case Kind::SymInt: g_.metadata[key] = Attr(v.i); break;
        case Kind::Double: g_.metadata[key] = Attr(v.d); break;
        case Kind::Bool: g_.metadata[key] = Attr(v.b); break;
        case Kind::IntList:
        case Kind::ValueList:
          if (v.present) g_.metadata[key] = Attr(v.ints);
          break;
        case Kind::DoubleList:
          if (v.present) g_.metadata[key] = Attr(v.doubles);
          break;
        case Kind::BoolList:
          if (v.present) g_.metadata[key] = Attr(v.bools);
          break;
        case Kind::String:
          if (v.present) g_.metadata[key] = Attr(v.s);
          break;
        case Kind::Null:
        case Kind::None: break;
      }
    }
    g_.metadata[keys::kValueKinds] = Attr(std::move(kinds));
  }

  Value tensor(std::size_t i) {
    const RawTensor& t = rg_.values[i].tensor;
    const std::string w = at("values", i) + ".value";
    Value v;
    v.name = names_[i].empty() ? "v" + std::to_string(i) : names_[i];
    v.type.dtype = *ir_dtype(t.datatype);  // decode() admits defined, non-UNSET datatypes only
    v.type.shape.assign(t.dims.begin(), t.dims.end());
    v.attrs[keys::kValue] = Attr(int64_t(i));
    if (!t.dims_present) v.attrs[keys::kDimsAbsent] = Attr(true);
    if (t.constant_id != -1) v.attrs[keys::kConstantId] = Attr(int64_t(t.constant_id));
    if (t.mem_obj_id != -1) v.attrs[keys::kMemObjId] = Attr(int64_t(t.mem_obj_id));
    if (t.storage_type != kDefaultStorage) v.attrs[keys::kStorageType] = Attr(storage_type_name(t.storage_type));
    if (t.memory_layout != kDefaultLayout) v.attrs[keys::kMemoryLayout] = Attr(memory_layout_name(t.memory_layout));
    v.attrs[keys::kStagingType] = Attr(data_type_name(t.staging_datatype));
    auto bytes = v.type.byte_size();
    if (!bytes) throw Error(ErrorId::Shape, "the element count overflows", {}, w + ".dims");
    if (t.constant_id >= 0) {
      const auto cid = static_cast<std::size_t>(t.constant_id);
      v.constant = constant_data(cid, uint64_t(*bytes), w);
      const RawBytes& b = rg_.constants[cid];
      if (!v.constant && b.offset == kNamedDataOffset && b.key_present) {
        v.attrs[kExternalDataKey] = Attr(b.named_key);
        unresolved_ = true;
      }
    }
    return v;
  }

  // The bytes of constants[cid] for a tensor of `need` bytes: from the delegate's constant
  // segment (checked like ExecuTorch's runtime: offset inside the segment, the full extent
  // within it), or from the named data; none for a bare VkGraph or without a named-data store.
  std::optional<Buffer> constant_data(std::size_t cid, uint64_t need, const std::string& w) {
    const RawBytes& b = rg_.constants[cid];
    const std::string cw = at("constants", cid);
    if (b.offset == kNamedDataOffset) {
      if (!b.key_present || b.named_key.empty())
        throw Error(ErrorId::AttributeValue, "a named-data constant without a key", {}, cw + ".named_key");
      if (!named_) return std::nullopt;
      std::optional<Buffer> data;
      try {
        data = named_->find(b.named_key);
      } catch (const Error& e) {
        if (!e.where().empty() || !e.file().empty()) throw;
        throw Error(e.id(), e.message(), {}, cw + ".named_key");
      }
      if (!data && named_->missing_ok) return std::nullopt;
      if (!data)
        throw Error(ErrorId::IoOpen, "named data \"" + b.named_key + "\" is not in " + named_->where +
                                       (named_->how.empty() ? "" : ": " + named_->how), {}, cw + ".named_key");
      if (data->size() < need)
        throw Error(ErrorId::Shape, "named data \"" + b.named_key + "\" has " + std::to_string(data->size()) +
                                            " bytes, the tensor needs " + std::to_string(need), {}, w);
      return data->slice(0, static_cast<std::size_t>(need));
    }
    if (!seg_) return std::nullopt;
    if (b.offset > seg_->size || (b.offset == seg_->size && need > 0))
      throw Error(ErrorId::DanglingReference, "offset " + std::to_string(b.offset) + " is outside the " + std::to_string(seg_->size) +
                                          "-byte constant segment", {}, cw + ".offset");
    if (need > seg_->size - b.offset)
      throw Error(ErrorId::Shape, "the tensor needs " + std::to_string(need) + " bytes at offset " +
                                          std::to_string(b.offset) + ", past the end of the " +
                                          std::to_string(seg_->size) + "-byte constant segment", {}, w);
    return src_.view(seg_->offset + static_cast<std::size_t>(b.offset), static_cast<std::size_t>(need));
  }

  void node(std::size_t i) {
    const RawOp& op = rg_.chain[i];
    Node n;
    n.name = "node_" + std::to_string(i);
    n.attrs[keys::kNodeId] = Attr(int64_t(op.node_id));
    n.attrs[keys::kName] = Attr(op.name);
    n.attrs[keys::kArgs] = Attr(std::vector<int64_t>(op.args.begin(), op.args.end()));
    std::optional<Collected> first;  // the first row whose arguments collect, for a native node's scalars
    for (const OpRow* row : rows_for_name(op.name)) {
      auto c = collect(*row, op.args, rg_.values);
      if (!c) continue;
      if (!first) first = c;
      std::vector<TensorType> in, out;
      for (int64_t id : c->in) in.push_back(id < 0 ? TensorType{} : g_.values[ir_of_[id]].type);
      for (int64_t id : c->out) out.push_back(g_.values[ir_of_[id]].type);
      auto attrs = to_canonical(*row, c->aten, MapContext{in, out});
      if (!attrs) continue;
      n.op = row->op;
      for (auto& [k, a] : *attrs) n.attrs[k] = a;
      for (int64_t id : c->in) n.inputs.push_back(id < 0 ? kNoValue : ir_of_[id]);
      for (int64_t id : c->out) n.outputs.push_back(ir_of_[id]);
      g_.add_node(std::move(n));
      return;
    }
    n.op = "vk." + op.name;
    // An operator the table knows but cannot map (aten.add.Tensor with alpha != 1, max_pool2d
    // with ceil_mode) keeps its non-tensor arguments as attributes under their ATen names, for
    // backends to read.
    if (first)
      for (const auto& [k, a] : first->aten) n.attrs[k] = a;
    std::vector<int64_t> in, out;
    native_tensors(op.args, rg_.values, in, out);
    for (int64_t id : in) n.inputs.push_back(ir_of_[id]);
    for (int64_t id : out) n.outputs.push_back(ir_of_[id]);
    g_.add_node(std::move(n));
  }

  // Graph inputs and outputs are the tensors of input_ids / output_ids; the lists themselves
  // are kept only when they also name other values (SymInt inputs), which the IR cannot.
  void io() {
    auto ids = [&](const std::vector<uint32_t>& raw, std::vector<ValueId>& dst, const std::string& key) {
      bool all_tensors = true;
      for (uint32_t id : raw) {
        if (ir_of_[id] == kNoValue) all_tensors = false;
        else dst.push_back(ir_of_[id]);
      }
      if (!all_tensors) g_.metadata[key] = Attr(std::vector<int64_t>(raw.begin(), raw.end()));
    };
    ids(rg_.input_ids, g_.inputs, keys::kInputIds);
    ids(rg_.output_ids, g_.outputs, keys::kOutputIds);
  }

  void bytes_table(const std::vector<RawBytes>& t, const std::string& prefix, const char* vec,
                   std::vector<std::string>& absent) {
    std::vector<int64_t> off, len;
    std::vector<std::string> key;
    for (std::size_t k = 0; k < t.size(); ++k) {
      off.push_back(static_cast<int64_t>(t[k].offset));  // 0xFFFF... (named data) reads as -1
      len.push_back(static_cast<int64_t>(t[k].length));
      key.push_back(t[k].named_key);
      if (!t[k].key_present) absent.push_back(at(vec, k) + ".named_key");
    }
    g_.metadata[prefix + "offset"] = Attr(std::move(off));
    g_.metadata[prefix + "length"] = Attr(std::move(len));
    g_.metadata[prefix + "named_key"] = Attr(std::move(key));
  }

  void tables() {
    std::vector<std::string> absent;
    const Presence& p = rg_.present;
    for (auto [present, name] : {std::pair{p.version, "version"}, {p.chain, "chain"}, {p.values, "values"},
                                 {p.input_ids, "input_ids"}, {p.output_ids, "output_ids"},
                                 {p.constants, "constants"}, {p.shaders, "shaders"}})
      if (!present) absent.push_back(name);
    for (std::size_t i = 0; i < rg_.values.size(); ++i)
      if (!rg_.values[i].present && rg_.values[i].kind != Kind::Tensor)
        absent.push_back(at("values", i) + (rg_.values[i].kind == Kind::String ? ".value.string_val" : ".value.items"));
    if (p.version) g_.metadata[keys::kVersion] = Attr(rg_.version);
    bytes_table(rg_.constants, keys::kConstants, "constants", absent);
    bytes_table(rg_.shaders, keys::kShaders, "shaders", absent);
    if (rg_.storage_type_override != kDefaultStorage)
      g_.metadata[keys::kStorageOverride] = Attr(storage_type_name(rg_.storage_type_override));
    if (rg_.memory_layout_override != kDefaultLayout)
      g_.metadata[keys::kLayoutOverride] = Attr(memory_layout_name(rg_.memory_layout_override));
    if (!absent.empty()) g_.metadata[keys::kAbsent] = Attr(std::move(absent));
    keep_odd_constants();
  }

  // A segment entry whose length is not its tensor's byte size, or that no tensor uses, keeps
  // its own bytes so that the writer can lay the segment out again unchanged.
  void keep_odd_constants() {
    if (!seg_) return;
    std::vector<int64_t> used(rg_.constants.size(), -1);  // byte size of the first user
    for (std::size_t i = 0; i < rg_.values.size(); ++i) {
      const RawValue& v = rg_.values[i];
      if (v.kind != Kind::Tensor || v.tensor.constant_id < 0) continue;
      auto& u = used[static_cast<std::size_t>(v.tensor.constant_id)];
      if (u < 0) u = *g_.values[ir_of_[i]].type.byte_size();
    }
    for (std::size_t k = 0; k < rg_.constants.size(); ++k) {
      const RawBytes& b = rg_.constants[k];
      if (b.offset == kNamedDataOffset || (used[k] >= 0 && uint64_t(used[k]) == b.length)) continue;
      if (b.offset > seg_->size || b.length > seg_->size - b.offset)
        throw Error(ErrorId::DanglingReference, "[" + std::to_string(b.offset) + ", +" + std::to_string(b.length) +
                                            ") is outside the " + std::to_string(seg_->size) + "-byte constant segment",
                    {}, at("constants", k));
      auto bytes = src_.bytes.subspan(seg_->offset + static_cast<std::size_t>(b.offset), static_cast<std::size_t>(b.length));
      Bytes copy;
      for (std::byte x : bytes) copy.data.push_back(std::to_integer<uint8_t>(x));
      g_.metadata[keys::kConstantBytes + std::to_string(k)] = Attr(std::move(copy));
    }
  }

  const RawGraph& rg_;
  const Source& src_;
  const std::optional<Segment>& seg_;
  const NamedDataResolver* named_;
  bool unresolved_ = false;  // a named-data constant was left without data
  Graph g_;
  std::vector<std::string> names_;
  std::vector<ValueId> ir_of_;  // table index -> IR value (tensors only)
};

}  // namespace

std::optional<DataType> ir_dtype(int8_t vk) {
  switch (vk) {
    case 0: return DataType::Bool;
    case 1: return DataType::UInt8;
    case 2: return DataType::Int8;
    case 3: return DataType::Int32;
    case 4: return DataType::Float16;
    case 5: return DataType::Float32;
    case 6: return DataType::Float64;
    case 7: return DataType::Int64;
    default: return std::nullopt;
  }
}

int8_t vk_dtype(DataType t) {
  switch (t) {
    case DataType::Bool: return 0;
    case DataType::UInt8: return 1;
    case DataType::Int8: return 2;
    case DataType::Int32: return 3;
    case DataType::Float16: return 4;
    case DataType::Float32: return 5;
    case DataType::Float64: return 6;
    case DataType::Int64: return 7;
    default: return -1;
  }
}

Graph to_ir(const RawGraph& rg, const Source& src, const std::optional<Segment>& segment, const std::string& format,
            const NamedDataResolver* named, const std::string& hint) {
  Reader r(rg, src, segment, named);
  Graph g = r.run(format);
  if (r.unresolved() && !hint.empty()) g.metadata[kExternalDataHint] = Attr(hint);
  return g;
}

}  // namespace nnbridge::formats::vkgraph
