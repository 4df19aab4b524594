// The IR as a VkGraph: the reader's form in reverse (see nnbridge/formats/vkgraph.h).
//
// The value table is rebuilt in two steps. What the graph kept from a VkGraph it was read from
// (`vk.value_kinds`, `vk.value.<i>`, each tensor's `vk.value`) is placed first, at its old
// index; a node whose kept `vk.args` still say what the node says (same tensors, same
// canonical attributes once read back through the mapping row) is written with those indices.
// Everything else -- new graphs, edited nodes -- gets new entries appended the way ExecuTorch's
// VkGraphBuilder makes them: inputs first, then per operator its arguments in order (scalars
// deduplicated, Null and lists always new) and its output last.
//
// What a new OperatorCall may be: the operators ExecuTorch's Vulkan runtime registers
// (VK_REGISTER_OP in backends/vulkan/runtime/graph/ops/impl/*.cpp, pytorch/executorch commit
// cff6f4dd32e630945b7188512c1f2b4f102b05ad, 2026-08-22; partitioner features in
// backends/vulkan/op_registry.py), in the argument forms their implementations read. `ops.cc`
// vulkan_registers() holds the names; a canonical node whose rows all name other operators is
// refused naming the node and them (aten.maximum, aten.ne.Tensor, aten.logical_not, aten.floor,
// aten.ceil, aten.log, aten.reciprocal, aten.sign, aten.elu, aten.view: not registered). Written:
//   aten.add.Tensor / sub.Tensor (self, other, alpha = 1), mul / div.Tensor, pow.Tensor_Tensor,
//     minimum.default, eq / lt / le / gt / ge.Tensor, logical_and / logical_or, where.self
//   aten.abs / neg / sqrt / rsqrt / exp / sin / round / relu / sigmoid / tanh / hardswish /
//     hardsigmoid.default (self)           hardsigmoid: HardSigmoid with alpha 1/6, beta 1/2 only
//   aten.gelu.default (self, approximate)  approximate "tanh" only: the runtime computes the tanh
//     form whatever the argument says; exact GELU and Erf are written as arithmetic (lower.cc)
//   aten.leaky_relu.default (self, negative_slope); aten.clamp.default (self, min?, max?);
//     aten.hardtanh.default (self, min_val, max_val)
//   aten._softmax / _log_softmax.default (self, dim, half_to_float = false): any dim
//   aten.convolution.default (input, weight, bias?, stride, padding, dilation, transposed,
//     output_padding, groups): 4-D input (conv2d) or 3-D (conv1d); weight a constant (prepacked)
//   aten.linear.default (input, weight, bias?): weight a constant [N, K] (prepacked)
//   aten.mm.default (self, mat2) 2-D; aten.bmm.default (self, mat2) 3-D, one batch;
//     aten.addmm.default (self, mat1, mat2, beta, alpha)
//   aten.native_layer_norm.default (input, normalized_shape, weight?, bias?, eps) -> (out, mean, rstd)
//   aten.mean.dim / sum.dim_IntList (self, dim, keepdim, dtype?), aten.amax / amin.default (self,
//     dim, keepdim): one or two dims (Reduce.cpp)
//   aten.argmax / argmin.default (self, dim, keepdim)
//   aten.permute_copy.default (self, dims); aten.view_copy.default (self, size): the output's
//     sizes; aten.unsqueeze_copy.default (self, dim); aten.squeeze_copy.dims (self, dim)
//   aten.cat.default (tensors, dim); aten.split_with_sizes_copy.default (self, split_sizes, dim);
//     aten.slice_copy.Tensor (self, dim, start?, end?, step); aten.select_copy.int (self, dim, index)
//   aten.constant_pad_nd.default (self, pad, value); aten.repeat.default (self, repeats): one per
//     dim; aten.pixel_shuffle.default (self, upscale_factor): DepthToSpace CRD
//   aten.index_select.default (self, dim, index); aten.embedding.default (weight, indices, ...)
//   aten.upsample_nearest2d.vec (input, output_size, scale_factors = None)
//   aten.max_pool2d.default (self, kernel_size, stride, padding, dilation, ceil_mode) and
//     aten.avg_pool2d.default (self, kernel_size, stride, padding, ceil_mode, count_include_pad,
//     divisor_override = None): ceil_mode where PyTorch counts the windows ONNX counts
//   aten.clone.default (self, memory_format = None) for Identity
// Native nodes read from a VkGraph (vk.<name>) are written back verbatim, registered or not.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/narrow.h"
#include "ops.h"

namespace nnbridge::formats::vkgraph {

namespace {

const Attr* find(const AttrMap& m, const std::string& k) {
  auto it = m.find(k);
  return it == m.end() ? nullptr : &it->second;
}
template <class T>
const T* find_as(const AttrMap& m, const std::string& k) {
  const Attr* a = find(m, k);
  return a && a->is<T>() ? &a->get<T>() : nullptr;
}

[[noreturn]] void invalid_meta(const std::string& key, const std::string& msg, ErrorId id = ErrorId::AttributeValue) {
  throw Error(id, msg, {}, "metadata." + key);
}

std::size_t align16(std::size_t n) { return (n + 15) / 16 * 16; }

class Writer {
 public:
  Writer(const Graph& g, const std::vector<bool>& superseded, bool need_data, bool embed_named)
      : g_(g), superseded_(superseded), need_data_(need_data), embed_named_(embed_named) {}

  Written run() {
    kept_table();
    kept_constants();
    for (ValueId v : g_.inputs) tensor_slot(v, "inputs");
    for (std::size_t i = 0; i < g_.nodes.size(); ++i) node(i);
    for (ValueId v : g_.outputs) tensor_slot(v, "outputs");
    for (ValueId v = 0; v < g_.values.size(); ++v)  // unused values stay too, unless a rewrite replaced them
      if (!superseded_[v] || made_.count(v)) tensor_slot(v, "values");
    w_.raw.input_ids = ids(g_.inputs, keys::kInputIds, "inputs");
    w_.raw.output_ids = ids(g_.outputs, keys::kOutputIds, "outputs");
    layout_constants();
    graph_fields();
    return std::move(w_);
  }

 private:
  RawGraph& raw() { return w_.raw; }

  // ---- the kept table ----
  void kept_table() {
    slot_.assign(g_.values.size(), -1);
    const auto* kinds = find_as<std::vector<int64_t>>(g_.metadata, keys::kValueKinds);
    if (!kinds) return;
    auto& table = raw().values;
    for (std::size_t i = 0; i < kinds->size(); ++i) {
      const int64_t k = (*kinds)[i];
      if (k < 1 || k > kKindCount) invalid_meta(keys::kValueKinds, "kind " + std::to_string(k) + " at " + std::to_string(i));
      RawValue v;
      v.kind = Kind(k);
      payload(v, i);
      table.push_back(std::move(v));
    }
    std::vector<bool> filled(table.size(), false);
    for (ValueId id = 0; id < g_.values.size(); ++id) {
      const auto* idx = find_as<int64_t>(g_.values[id].attrs, keys::kValue);
      if (!idx || *idx < 0 || static_cast<std::size_t>(*idx) >= table.size()) continue;
      auto i = static_cast<std::size_t>(*idx);
      if (table[i].kind != Kind::Tensor || filled[i]) continue;
      filled[i] = true;
      slot_[id] = static_cast<int64_t>(i);
    }
    // A tensor entry whose value left the graph becomes a Null: later indices stay where they were.
    for (std::size_t i = 0; i < table.size(); ++i)
      if (table[i].kind == Kind::Tensor && !filled[i]) table[i] = RawValue{};
    for (std::size_t i = 0; i < table.size(); ++i) remember_scalar(i);
  }

  void payload(RawValue& v, std::size_t i) {
    const std::string key = keys::kValuePayload + std::to_string(i);
    const Attr* a = find(g_.metadata, key);
    auto want = [&](bool ok) {
      if (!ok) invalid_meta(key, std::string("does not hold a ") + kind_name(v.kind) + " payload");
    };
    switch (v.kind) {
      case Kind::Int:
      case Kind::SymInt: want(a && a->is<int64_t>()); v.i = a->get<int64_t>(); break;
      case Kind::Double: want(a && a->is<double>()); v.d = a->get<double>(); break;
      case Kind::Bool: want(a && a->is<bool>()); v.b = a->get<bool>(); break;
      case Kind::IntList:
      case Kind::ValueList:
        v.present = a != nullptr;
        if (a) want(a->is<std::vector<int64_t>>()), v.ints = a->get<std::vector<int64_t>>();
        break;
      case Kind::DoubleList:
        v.present = a != nullptr;
        if (a) want(a->is<std::vector<double>>()), v.doubles = a->get<std::vector<double>>();
        break;
      case Kind::BoolList:
        v.present = a != nullptr;
        if (a) want(a->is<std::vector<bool>>()), v.bools = a->get<std::vector<bool>>();
        break;
      case Kind::String:
        v.present = a != nullptr;
        if (a) want(a->is<std::string>()), v.s = a->get<std::string>();
        break;
      default: break;
    }
  }

  // Scalars are shared: one Int/Double/Bool entry per distinct value (VkGraphBuilder's
  // get_or_create_scalar_value).
  using ScalarKey = std::tuple<uint8_t, uint64_t>;
  static ScalarKey scalar_key(const RawValue& v) {
    uint64_t bits = 0;
    if (v.kind == Kind::Double) std::memcpy(&bits, &v.d, sizeof bits);
    else if (v.kind == Kind::Int) bits = static_cast<uint64_t>(v.i);
    else bits = v.b;
    return {static_cast<uint8_t>(v.kind), bits};
  }
  void remember_scalar(std::size_t i) {
    const RawValue& v = raw().values[i];
    if (v.kind == Kind::Int || v.kind == Kind::Double || v.kind == Kind::Bool) scalars_.emplace(scalar_key(v), i);
  }
  int32_t add(RawValue v) {
    if (v.kind == Kind::Int || v.kind == Kind::Double || v.kind == Kind::Bool)
      if (auto it = scalars_.find(scalar_key(v)); it != scalars_.end()) return static_cast<int32_t>(it->second);
    raw().values.push_back(std::move(v));
    remember_scalar(raw().values.size() - 1);
    return static_cast<int32_t>(raw().values.size() - 1);
  }

  // ---- tensors ----
  void kept_constants() {
    const auto* off = find_as<std::vector<int64_t>>(g_.metadata, keys::kConstants + "offset");
    const auto* len = find_as<std::vector<int64_t>>(g_.metadata, keys::kConstants + "length");
    const auto* key = find_as<std::vector<std::string>>(g_.metadata, keys::kConstants + "named_key");
    if (!off) return;
    if (!len || !key || len->size() != off->size() || key->size() != off->size())
      invalid_meta(keys::kConstants + "*", "offset, length and named_key differ in length", ErrorId::Arity);
    auto absent = absent_set();
    for (std::size_t k = 0; k < off->size(); ++k) {
      RawBytes b{static_cast<uint64_t>((*off)[k]), static_cast<uint64_t>((*len)[k]), (*key)[k], true};
      b.key_present = !absent.count("constants[" + std::to_string(k) + "].named_key");
      raw().constants.push_back(std::move(b));
      const auto* kept = find_as<Bytes>(g_.metadata, keys::kConstantBytes + std::to_string(k));
      data_.push_back(kept ? std::optional<std::vector<uint8_t>>(kept->data) : std::nullopt);
    }
  }

  std::set<std::string> absent_set() const {
    std::set<std::string> out;
    if (const auto* a = find_as<std::vector<std::string>>(g_.metadata, keys::kAbsent)) out.insert(a->begin(), a->end());
    return out;
  }

  int32_t tensor_slot(ValueId id, const std::string& where) {
    if (id >= g_.values.size())
      throw Error(ErrorId::DanglingReference, "value id " + std::to_string(id) + " out of range", {}, where);
    if (!made_.count(id)) {
      RawValue v;
      v.kind = Kind::Tensor;
      v.tensor = tensor_of(id);
      if (slot_[id] >= 0) raw().values[static_cast<std::size_t>(slot_[id])] = std::move(v);
      else slot_[id] = add(std::move(v));
      made_.insert(id);
    }
    return static_cast<int32_t>(slot_[id]);
  }

  RawTensor tensor_of(ValueId id) {
    const Value& v = g_.values[id];
    const std::string w = "values[" + std::to_string(id) + "] '" + v.name + "'";
    RawTensor t;
    t.datatype = vk_dtype(v.type.dtype);
    if (t.datatype < 0)
      throw Error(ErrorId::DataType, "VkGraph has no data type for " + std::string(to_string(v.type.dtype)), {}, w);
    if (v.type.quantization)
      throw Error(ErrorId::DataType, "VkTensor carries no quantization parameters", {}, w);
    if (v.type.unknown_rank) throw Error(ErrorId::NoForm, "VkTensor needs a known shape", {}, w);
    // ExecuTorch's Vulkan tensors have at most 4 dims: its partitioner delegates no node with a
    // tensor of more (backends/vulkan/utils.py tensor_node_is_high_dim), so its runtime never
    // meets one.
    if (v.type.shape.size() > 4)
      throw Error(ErrorId::NoForm,
                  "rank " + std::to_string(v.type.shape.size()) + ": ExecuTorch's Vulkan tensors have at most 4 dimensions",
                  {}, w);
    for (int64_t d : v.type.shape) {
      if (d < 0 || d > int64_t(UINT32_MAX)) throw Error(ErrorId::NoForm, "VkTensor needs known dims that fit 32 bits", {}, w);
      t.dims.push_back(static_cast<uint32_t>(d));
    }
    if (const auto* b = find_as<bool>(v.attrs, keys::kDimsAbsent); b && *b && t.dims.empty()) t.dims_present = false;
    if (const auto* m = find_as<int64_t>(v.attrs, keys::kMemObjId)) t.mem_obj_id = narrow_field<int32_t>(*m, w + ".mem_obj_id");
    auto enum_attr = [&](const std::string& key, auto& field, auto parse) {
      if (const auto* s = find_as<std::string>(v.attrs, key))
        if (!parse(*s, field)) throw Error(ErrorId::AttributeValue, "unknown value \"" + *s + "\"", {}, w + ".attrs." + key);
    };
    enum_attr(keys::kStorageType, t.storage_type, parse_storage_type_name);
    enum_attr(keys::kMemoryLayout, t.memory_layout, parse_memory_layout_name);
    // New tensors stage in their own type, as ExecuTorch's builder writes them.
    t.staging_datatype = t.datatype;
    enum_attr(keys::kStagingType, t.staging_datatype, parse_data_type_name);
    t.constant_id = constant_id(v, w);
    return t;
  }

  int32_t constant_id(const Value& v, const std::string& w) {
    auto& table = raw().constants;
    if (const auto* c = find_as<int64_t>(v.attrs, keys::kConstantId)) {
      if (*c < 0) return static_cast<int32_t>(*c);
      if (static_cast<std::size_t>(*c) >= table.size())
        throw Error(ErrorId::DanglingReference, "constant " + std::to_string(*c) + " is not in the graph's constants table (" +
                                            std::to_string(table.size()) + " entries)", {}, w + ".attrs." + keys::kConstantId);
      auto k = static_cast<std::size_t>(*c);
      if (v.constant && (table[k].offset != kNamedDataOffset || embed_named_)) share(k, *v.constant, w);
      return static_cast<int32_t>(k);
    }
    if (!v.constant) return -1;
    table.push_back(RawBytes{});
    data_.push_back(std::nullopt);
    ir_data_[table.size() - 1] = *v.constant;
    return static_cast<int32_t>(table.size() - 1);
  }

  // Tensors may share a constants entry, each reading its own byte size from the entry's offset
  // (ExecuTorch's VulkanBackend.cpp get_constant_data_ptr: constant_data + offset; the entry's
  // length is not consulted), so the segment holds the longest of their data. Where they
  // overlap they must agree: one entry cannot hold two contents.
  void share(std::size_t k, const Buffer& data, const std::string& w) {
    auto it = ir_data_.find(k);
    if (it == ir_data_.end()) {
      ir_data_.emplace(k, data);
      return;
    }
    const Buffer& have = it->second;
    const std::size_t common = std::min(have.size(), data.size());
    if (common > 0 && std::memcmp(have.data(), data.data(), common) != 0)
      throw Error(ErrorId::NoForm, "shares constants[" + std::to_string(k) +
                                              "] with another tensor whose data differs in the bytes both hold",
                  {}, w + ".attrs." + keys::kConstantId);
    if (data.size() > have.size()) it->second = data;
  }

  // ExecuTorch's serialize_constant_tensors: in table order, each constant's bytes padded to
  // 16; offsets relative to the segment; named-data entries untouched.
  void layout_constants() {
    auto& table = raw().constants;
    std::size_t running = 0;
    for (std::size_t k = 0; k < table.size(); ++k) {
      RawBytes& b = table[k];
      if (b.offset == kNamedDataOffset) {
        // Named data stays a reference by key, unless asked to embed what the graph holds.
        if (!embed_named_ || !ir_data_.count(k)) continue;
        b.named_key.clear();
        b.key_present = false;
      }
      std::span<const std::byte> bytes;
      std::vector<uint8_t> kept;
      if (auto it = ir_data_.find(k); it != ir_data_.end()) bytes = it->second.bytes();
      // Kept bytes (an unused or odd-length entry) win when the tensor's data is their prefix.
      if (data_[k] && (bytes.empty() || (bytes.size() <= data_[k]->size() &&
                                         std::memcmp(bytes.data(), data_[k]->data(), bytes.size()) == 0)))
        bytes = std::as_bytes(std::span<const uint8_t>(*data_[k]));
      else if (!ir_data_.count(k)) {
        if (need_data_)
          throw Error(ErrorId::UnsupportedOther, "the graph has no data for this constant (read from a bare VkGraph?)", {},
                      "constants[" + std::to_string(k) + "]");
        continue;  // a bare VkGraph keeps the recorded offset and length
      }
      b.offset = running;
      b.length = bytes.size();
      const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
      w_.segment.insert(w_.segment.end(), p, p + bytes.size());
      w_.segment.resize(align16(w_.segment.size()), 0);
      running = w_.segment.size();
      ++w_.constants_with_data;
    }
  }

  // ---- operators ----
  void node(std::size_t i) {
    const Node& n = g_.nodes[i];
    RawOp op;
    if (const auto* id = find_as<int64_t>(n.attrs, keys::kNodeId)) op.node_id = narrow_field<uint32_t>(*id, "nodes[" + std::to_string(i) + "].node_id");
    const std::string label = "node '" + n.name + "' (" + n.op + ")";
    if (n.op.rfind("vk.", 0) == 0) {
      op.name = n.op.substr(3);
      op.args = native_args(n, label);
    } else {
      auto rows = rows_for_op(n.op);
      if (rows.empty()) throw Error(ErrorId::NoForm, "VkGraph has no operator for " + label, {}, "nodes[" + std::to_string(i) + "]");
      const auto* want = find_as<std::string>(n.attrs, keys::kName);
      // New OperatorCalls use only what ExecuTorch's Vulkan runtime registers; a node read from a
      // VkGraph keeps the operator it was read as (the file said it).
      std::vector<std::string> unregistered;
      std::erase_if(rows, [&](const OpRow* r) {
        if (vulkan_registers(r->aten) || (want && *want == r->aten)) return false;
        if (std::find(unregistered.begin(), unregistered.end(), r->aten) == unregistered.end()) unregistered.push_back(r->aten);
        return true;
      });
      if (rows.empty()) {
        std::string names;
        for (const std::string& u : unregistered) names += (names.empty() ? "" : ", ") + u;
        throw Error(ErrorId::NoForm,
                    "VkGraph cannot express " + label + ": ExecuTorch's Vulkan runtime registers no operator for it (" + names +
                        (unregistered.size() == 1 ? " is" : " are") + " not registered)",
                    {}, "nodes[" + std::to_string(i) + "]");
      }
      std::stable_partition(rows.begin(), rows.end(), [&](const OpRow* r) { return want && r->aten == *want; });
      std::string why;
      std::optional<ErrorId> why_id;  // the reasons' identifier when they all share one
      for (const OpRow* r : rows) {
        try {
          op.args = args_for(n, *r);
          op.name = r->aten;
          break;
        } catch (const Error& e) {
          if (e.code() != ErrorCode::Unsupported) throw;
          if (why.find(e.message()) == std::string::npos) why += (why.empty() ? "" : "; ") + e.message();
          why_id = !why_id || *why_id == e.id() ? e.id() : ErrorId::NoForm;
        }
      }
      if (op.name.empty())
        throw Error(why_id.value_or(ErrorId::NoForm), "VkGraph cannot express " + label + ": " + why, {}, "nodes[" + std::to_string(i) + "]");
    }
    raw().chain.push_back(std::move(op));
  }

  std::vector<int32_t> native_args(const Node& n, const std::string& label) {
    const auto* kept = find_as<std::vector<int64_t>>(n.attrs, keys::kArgs);
    if (!kept) throw Error(ErrorId::NoForm, label + " has no vk.args: a native VkGraph operator is written back as it was read");
    for (ValueId v : n.inputs)
      if (v != kNoValue) tensor_slot(v, label);
    for (ValueId v : n.outputs) tensor_slot(v, label);
    std::vector<int32_t> args;
    for (int64_t a : *kept) {
      if (a < 0 || static_cast<std::size_t>(a) >= raw().values.size())
        throw Error(ErrorId::DanglingReference, label + ": vk.args names value " + std::to_string(a) + ", outside the table");
      args.push_back(static_cast<int32_t>(a));
    }
    std::vector<int64_t> in, out;
    native_tensors(args, raw().values, in, out);
    if (!same_values(in, n.inputs) || !same_values(out, n.outputs))
      throw Error(ErrorId::Feature, label + ": its inputs or outputs no longer match vk.args (native operators are "
                                                  "written back verbatim)");
    // The arguments the reader copied into attributes must still be what vk.args names.
    if (const auto* name = find_as<std::string>(n.attrs, keys::kName))
      for (const OpRow* row : rows_for_name(*name))
        if (auto c = collect(*row, args, raw().values)) {
          for (const auto& [k, a] : c->aten) {
            auto it = n.attrs.find(k);
            if (it != n.attrs.end() && !(it->second == a))
              throw Error(ErrorId::Feature, label + ": attribute " + k + " differs from the value vk.args names "
                                                          "(native operators are written back verbatim)");
          }
          break;
        }
    return args;
  }

  bool same_values(const std::vector<int64_t>& slots, const std::vector<ValueId>& ids) {
    if (slots.size() != ids.size()) return false;
    for (std::size_t k = 0; k < ids.size(); ++k)
      if (ids[k] == kNoValue ? slots[k] != -1 : slot_[ids[k]] != slots[k]) return false;
    return true;
  }

  std::vector<int32_t> args_for(const Node& n, const OpRow& row) {
    const std::string label = "node '" + n.name + "' (" + n.op + ")";
    const int ni = row.tensor_inputs(), no = row.tensor_outputs();
    if (ni >= 0 && (n.inputs.size() > static_cast<std::size_t>(ni) || !fits_required(row, n)))
      throw Error(ErrorId::NoForm, row.aten + " takes " + std::to_string(ni) + " tensor inputs");
    if (no >= 0 && n.outputs.size() != static_cast<std::size_t>(no))
      throw Error(ErrorId::NoForm, row.aten + " has " + std::to_string(no) + " outputs");
    std::vector<TensorType> in, out;
    std::vector<bool> constant;
    for (ValueId v : n.inputs) {
      in.push_back(v == kNoValue ? TensorType{} : g_.values[v].type);
      const int64_t* cid = v == kNoValue ? nullptr : find_as<int64_t>(g_.values[v].attrs, keys::kConstantId);
      constant.push_back(v != kNoValue && (g_.values[v].constant || (cid && *cid >= 0)));
    }
    for (ValueId v : n.outputs) out.push_back(g_.values[v].type);
    const MapContext ctx{in, out, &constant};
    // Kept arguments, when they still say what the node says.
    const auto* kept = find_as<std::vector<int64_t>>(n.attrs, keys::kArgs);
    const auto* name = find_as<std::string>(n.attrs, keys::kName);
    if (kept && name && *name == row.aten && kept->size() == row.args.size()) {
      for (ValueId v : n.inputs)
        if (v != kNoValue) tensor_slot(v, label);
      for (ValueId v : n.outputs) tensor_slot(v, label);
      std::vector<int32_t> args(kept->begin(), kept->end());
      if (auto c = collect(row, args, raw().values); c && same_values(c->in, n.inputs) && same_values(c->out, n.outputs)) {
        auto attrs = to_canonical(row, c->aten, ctx);
        if (attrs && same_canonical(row.op, *attrs, n.attrs)) return args;
      }
    }
    AtenArgs aten = from_canonical(row, n.attrs, ctx);
    std::vector<int32_t> args;
    for (const ArgSpec& a : row.args) args.push_back(fresh_arg(a, n, aten, label));
    return args;
  }

  static bool fits_required(const OpRow& row, const Node& n) {
    for (const ArgSpec& a : row.args)
      if (a.kind == ArgKind::In && (static_cast<std::size_t>(a.slot) >= n.inputs.size() || n.inputs[a.slot] == kNoValue))
        return false;
    return true;
  }

  int32_t fresh_arg(const ArgSpec& a, const Node& n, const AtenArgs& aten, const std::string& label) {
    auto list_of = [&](const std::vector<ValueId>& ids, std::size_t from) {
      RawValue v;
      v.kind = Kind::ValueList;
      for (std::size_t k = from; k < ids.size(); ++k) v.ints.push_back(tensor_slot(ids[k], label));
      return add(std::move(v));
    };
    switch (a.kind) {
      case ArgKind::In: return tensor_slot(n.inputs[a.slot], label);
      case ArgKind::OptIn:
        if (static_cast<std::size_t>(a.slot) < n.inputs.size() && n.inputs[a.slot] != kNoValue)
          return tensor_slot(n.inputs[a.slot], label);
        return add(RawValue{});
      case ArgKind::InList: return list_of(n.inputs, static_cast<std::size_t>(a.slot));
      case ArgKind::Out: return tensor_slot(n.outputs[a.slot], label);
      case ArgKind::OutList: return list_of(n.outputs, 0);
      default: break;
    }
    const Attr* v = find(aten, a.name);
    if (!v && a.def) v = &*a.def;
    if (!v || a.kind == ArgKind::Any) {
      if (v && a.kind == ArgKind::Any) return add(scalar_of(*v, a));
      if (a.kind == ArgKind::OptInt || a.kind == ArgKind::OptNumber || a.kind == ArgKind::OptInts || a.kind == ArgKind::Any)
        return add(RawValue{});
      throw Error(ErrorId::NoForm, label + ": no value for " + a.name);
    }
    return add(scalar_of(*v, a));
  }

  static RawValue scalar_of(const Attr& v, const ArgSpec& a) {
    RawValue r;
    if (v.is<bool>()) r.kind = Kind::Bool, r.b = v.get<bool>();
    else if (v.is<int64_t>()) r.kind = Kind::Int, r.i = v.get<int64_t>();
    else if (v.is<double>()) {
      double d = v.get<double>();
      // An integral ATen Scalar is an Int, as the builder writes Python ints.
      if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.0e15 && a.kind != ArgKind::Any)
        r.kind = Kind::Int, r.i = static_cast<int64_t>(d);
      else r.kind = Kind::Double, r.d = d;
    } else if (v.is<std::string>()) r.kind = Kind::String, r.s = v.get<std::string>();
    else if (v.is<std::vector<int64_t>>()) r.kind = Kind::IntList, r.ints = v.get<std::vector<int64_t>>();
    else if (v.is<std::vector<double>>()) r.kind = Kind::DoubleList, r.doubles = v.get<std::vector<double>>();
    else throw Error(ErrorId::NoForm, "argument " + a.name + " has no VkGraph form");
    return r;
  }

  // ---- graph fields ----
  std::vector<uint32_t> ids(const std::vector<ValueId>& graph_ids, const std::string& key, const std::string& where) {
    std::vector<uint32_t> derived;
    for (ValueId v : graph_ids) derived.push_back(static_cast<uint32_t>(tensor_slot(v, where)));
    const auto* kept = find_as<std::vector<int64_t>>(g_.metadata, key);
    if (!kept) return derived;
    std::vector<uint32_t> tensors_of_kept, out;
    for (int64_t k : *kept) {
      if (k < 0 || static_cast<std::size_t>(k) >= raw().values.size()) return derived;
      out.push_back(static_cast<uint32_t>(k));
      if (raw().values[k].kind == Kind::Tensor) tensors_of_kept.push_back(static_cast<uint32_t>(k));
    }
    return tensors_of_kept == derived ? out : derived;
  }

  void graph_fields() {
    auto absent = absent_set();
    Presence& p = raw().present;
    p.version = !absent.count("version");
    p.chain = !absent.count("chain") || !raw().chain.empty();
    p.values = !absent.count("values") || !raw().values.empty();
    p.input_ids = !absent.count("input_ids") || !raw().input_ids.empty();
    p.output_ids = !absent.count("output_ids") || !raw().output_ids.empty();
    p.constants = !absent.count("constants") || !raw().constants.empty();
    p.shaders = !absent.count("shaders");
    const auto* version = find_as<std::string>(g_.metadata, keys::kVersion);
    raw().version = version ? *version : "0";  // what ExecuTorch's builder writes
    for (std::size_t i = 0; i < raw().values.size(); ++i) {
      RawValue& v = raw().values[i];
      if (v.kind == Kind::Tensor || v.kind == Kind::Null) continue;
      std::string base = "values[" + std::to_string(i) + "].value.";
      if (absent.count(base + "items") || absent.count(base + "string_val")) v.present = false;
    }
    // Shaders: ExecuTorch never writes any; a table read from a file is kept as it was.
    const auto* off = find_as<std::vector<int64_t>>(g_.metadata, keys::kShaders + "offset");
    const auto* len = find_as<std::vector<int64_t>>(g_.metadata, keys::kShaders + "length");
    const auto* key = find_as<std::vector<std::string>>(g_.metadata, keys::kShaders + "named_key");
    if (off && len && key && len->size() == off->size() && key->size() == off->size())
      for (std::size_t k = 0; k < off->size(); ++k)
        raw().shaders.push_back(RawBytes{static_cast<uint64_t>((*off)[k]), static_cast<uint64_t>((*len)[k]), (*key)[k],
                                         !absent.count("shaders[" + std::to_string(k) + "].named_key")});
    if (const auto* s = find_as<std::string>(g_.metadata, keys::kStorageOverride))
      if (!parse_storage_type_name(*s, raw().storage_type_override)) invalid_meta(keys::kStorageOverride, "unknown value " + *s);
    if (const auto* s = find_as<std::string>(g_.metadata, keys::kLayoutOverride))
      if (!parse_memory_layout_name(*s, raw().memory_layout_override)) invalid_meta(keys::kLayoutOverride, "unknown value " + *s);
  }

  const Graph& g_;
  const std::vector<bool>& superseded_;
  bool need_data_;
  bool embed_named_;
  Written w_;
  std::vector<int64_t> slot_;  // IR value -> table index, -1 until placed
  std::set<ValueId> made_;     // IR values whose table entry holds their tensor
  std::map<ScalarKey, std::size_t> scalars_;
  std::vector<std::optional<std::vector<uint8_t>>> data_;  // per constant: kept bytes
  std::map<std::size_t, Buffer> ir_data_;                   // per constant: an IR value's data
};

}  // namespace

Written from_ir(const Graph& g, bool need_data, bool embed_named) {
  const Lowered lowered = lower_for_aten(g);
  return Writer(lowered.graph, lowered.superseded, need_data, embed_named).run();
}

}  // namespace nnbridge::formats::vkgraph
