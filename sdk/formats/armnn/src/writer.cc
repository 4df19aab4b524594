// Writing the IR as a SerializedGraph (the reader's representation, in reverse; see reader.cc).
#include <algorithm>
#include <map>
#include <set>

#include "armnn/ArmnnSchema_generated.h"
#include "internal.h"
#include "nnbridge/error.h"
#include "nnbridge/order.h"
#include "nnbridge/narrow.h"
#include "ops.h"
#include "tensor_info.h"

namespace nnbridge::formats::armnn {

namespace {

namespace fb = ::armnnSerializer;
using Off = flatbuffers::uoffset_t;

std::string attr_str(const AttrMap& a, const std::string& k) {
  const Attr* x = find_attr(a, k);
  return x && x->is<std::string>() ? x->get<std::string>() : std::string();
}

int64_t scheme(const Graph& g, const SaveOptions& o, const std::string& name, int64_t def) {
  if (auto it = o.options.find("armnn." + name); it != o.options.end()) {
    if (it->second == "0") return 0;
    if (it->second == "1") return 1;
    throw Error(ErrorId::OptionValue, "armnn." + name + " must be 0 or 1, not '" + it->second + "'");
  }
  if (auto v = attr_int(g.metadata, "armnn." + name)) return *v;
  return def;
}

// One layer to write.
struct Entity {
  enum Kind { Input, Output, Constant, NodeLayer, NewOutput } kind = Input;
  size_t id = 0;  // value id (Input, Constant, NewOutput) or node index (Output, NodeLayer)
  std::optional<int64_t> position, index;
  uint32_t final_index = 0;
};

class Writer {
 public:
  Writer(const Graph& g, const SaveOptions& o) : g_(g), o_(o) {}

  std::vector<uint8_t> run() {
    layout_ = layout_option(o_.options);
    binding_scheme_ = scheme(g_, o_, "bindingIdsScheme", 1);
    weights_scheme_ = scheme(g_, o_, "weightsLayoutScheme", 0);
    const_scheme_ = scheme(g_, o_, "constantTensorsAsInputs", 0);
    plan();
    std::vector<Off> layers;
    std::vector<int32_t> in_ids, out_ids;
    for (size_t k = 0; k < order_.size(); ++k) {
      const Entity& e = entities_[order_[k]];
      layers.push_back(build(e));
      bool is_in = e.kind == Entity::Input, is_out = e.kind == Entity::Output || e.kind == Entity::NewOutput;
      if (!is_in && !is_out) continue;
      int64_t id = binding_scheme_ == 1 ? binding_id(e) : int64_t(e.final_index);
      (is_in ? in_ids : out_ids).push_back(narrow_field<int32_t>(id, "armnn: " + entity_where(e) + (binding_scheme_ == 1 ? " armnn.layerBindingId" : " layer index")));
    }
    auto ids = [&](const char* key, std::vector<int32_t> derived) -> Off {
      if (absent(key)) return 0;
      if (const Attr* a = find_attr(g_.metadata, std::string("armnn.") + key); a && a->is<std::vector<int64_t>>()) {
        derived.clear();
        const auto& v = a->get<std::vector<int64_t>>();
        for (size_t k = 0; k < v.size(); ++k)
          derived.push_back(narrow_field<int32_t>(v[k], std::string("armnn: metadata armnn.") + key + "[" + std::to_string(k) + "]"));
      }
      return b_.CreateVector(derived).o;
    };
    Off layers_vec = b_.CreateVector(std::vector<flatbuffers::Offset<fb::AnyLayer>>(layers.begin(), layers.end())).o;
    Off in_vec = ids("inputIds", in_ids), out_vec = ids("outputIds", out_ids);
    Off fv = 0;
    bool fv_present = true;
    if (const Attr* a = find_attr(g_.metadata, "armnn.featureVersions"); a && a->is<bool>()) fv_present = a->get<bool>();
    for (const char* k : {"armnn.bindingIdsScheme", "armnn.weightsLayoutScheme", "armnn.constantTensorsAsInputs"})
      if (o_.options.count(k)) fv_present = true;
    if (layout_ == Layout::Seed) fv_present = false;
    if (fv_present)
      fv = fb::CreateFeatureCompatibilityVersions(b_, narrow_field<uint32_t>(binding_scheme_, "armnn: metadata armnn.bindingIdsScheme"),
                                                  narrow_field<uint32_t>(weights_scheme_, "armnn: metadata armnn.weightsLayoutScheme"),
                                                  narrow_field<uint32_t>(const_scheme_, "armnn: metadata armnn.constantTensorsAsInputs"))
               .o;
    fb::SerializedGraphBuilder gb(b_);
    if (layers_vec) gb.add_layers(flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::AnyLayer>>>(layers_vec));
    if (in_vec) gb.add_inputIds(flatbuffers::Offset<flatbuffers::Vector<int32_t>>(in_vec));
    if (out_vec) gb.add_outputIds(flatbuffers::Offset<flatbuffers::Vector<int32_t>>(out_vec));
    if (fv) gb.add_featureVersions(flatbuffers::Offset<fb::FeatureCompatibilityVersions>(fv));
    auto root = gb.Finish();
    bool ident = true;
    if (const Attr* a = find_attr(g_.metadata, "armnn.fileIdentifier"); a && a->is<bool>()) ident = a->get<bool>();
    if (auto it = o_.options.find("armnn.fileIdentifier"); it != o_.options.end()) ident = it->second != "0";
    b_.Finish(root, ident ? fb::SerializedGraphIdentifier() : nullptr);
    return std::vector<uint8_t>(b_.GetBufferPointer(), b_.GetBufferPointer() + b_.GetSize());
  }

 private:
  bool absent(const std::string& key) const {
    const Attr* a = find_attr(g_.metadata, "armnn.absent");
    if (!a || !a->is<std::vector<std::string>>()) return false;
    const auto& v = a->get<std::vector<std::string>>();
    return std::find(v.begin(), v.end(), key) != v.end();
  }

  const AttrMap& attrs_of(const Entity& e) const {
    return (e.kind == Entity::Output || e.kind == Entity::NodeLayer) ? g_.nodes[e.id].attrs : g_.values[e.id].attrs;
  }

  // "input 'x'" / "output 'y'": where a value of this entity comes from, for messages.
  std::string entity_where(const Entity& e) const {
    if (e.kind == Entity::Input) return "input '" + g_.values[e.id].name + "'";
    if (e.kind == Entity::NewOutput) return "output '" + g_.values[e.id].name + "'";
    if (e.kind == Entity::Constant) return "constant '" + g_.values[e.id].name + "'";
    return (e.kind == Entity::Output ? "output '" : "node '") + g_.nodes[e.id].name + "'";
  }

  int64_t binding_id(const Entity& e) const {
    if (auto v = attr_int(attrs_of(e), "armnn.layerBindingId")) return *v;
    if (e.kind == Entity::Input)
      return std::find(g_.inputs.begin(), g_.inputs.end(), ValueId(e.id)) - g_.inputs.begin();
    ValueId out = e.kind == Entity::NewOutput ? ValueId(e.id) : g_.nodes[e.id].outputs[0];
    return std::find(g_.outputs.begin(), g_.outputs.end(), out) - g_.outputs.begin();
  }

  // Which constant inputs of node `n` are ConstTensor fields (by path), the others being slots.
  std::vector<std::string> const_fields_of(const Node& n, const OpRow& row) const {
    bool movable = row.layer == "Convolution2d" || row.layer == "DepthwiseConvolution2d" || row.layer == "FullyConnected";
    if (const Attr* a = find_attr(n.attrs, "armnn.constInputs"); a && a->is<std::vector<std::string>>()) {
      auto v = a->get<std::vector<std::string>>();
      if (!(movable && const_scheme_ == 1)) return v;
    }
    if (row.const_fields.empty() || (movable && const_scheme_ == 1)) return {};
    // New graphs: inputs after the first are the row's fields in order (absent ones skipped).
    std::vector<std::string> out;
    for (size_t k = 1; k < n.inputs.size() && k - 1 < row.const_fields.size(); ++k)
      if (n.inputs[k] != kNoValue) out.push_back(row.const_fields[k - 1]);
    return out;
  }

  const OpRow& row_of(const Node& n) const {
    std::string layer = attr_str(n.attrs, "armnn.layer");
    if (n.op == "Conv" && layer.empty()) {
      auto kl = attr_str(n.attrs, "kernel_layout");
      auto group = attr_int(n.attrs, "group").value_or(1);
      if (kl == "MIHW" || kl == "1HWO" || group != 1) layer = "DepthwiseConvolution2d";
      if (kl == "HWIO") layer = "Convolution3d";
    }
    if ((n.op == "MaxPool" || n.op == "AveragePool" || n.op == "LpPool") && layer.empty()) {
      const Attr* k = find_attr(n.attrs, "kernel_shape");
      if (k && k->is<std::vector<int64_t>>() && k->get<std::vector<int64_t>>().size() == 3) layer = "Pooling3d";
    }
    const OpRow* r = row_for_op(n.op, layer);
    if (!r) throw Error(ErrorId::NoForm, "Arm NN has no layer for op " + n.op + " (node '" + n.name + "')");
    return *r;
  }

  void plan() {
    // Producers and consumers.
    std::vector<int> produced(g_.values.size(), -1);
    for (size_t i = 0; i < g_.nodes.size(); ++i)
      for (auto v : g_.nodes[i].outputs) produced[v] = int(i);
    std::set<ValueId> graph_inputs(g_.inputs.begin(), g_.inputs.end());
    for (auto v : g_.inputs) add(Entity::Input, v, g_.values[v].attrs);
    std::set<ValueId> covered_outputs;
    std::vector<size_t> node_entity(g_.nodes.size(), SIZE_MAX);
    std::map<ValueId, size_t> const_entity;
    auto need_const_layer = [&](ValueId v) {
      if (v == kNoValue || graph_inputs.count(v) || produced[v] >= 0) return;
      if (!g_.values[v].constant)
        throw Error(ErrorId::DanglingReference, "value '" + g_.values[v].name + "' has no producer and is not a constant");
      if (!const_entity.count(v)) const_entity[v] = add(Entity::Constant, v, g_.values[v].attrs);
    };
    std::set<ValueId> outputs(g_.outputs.begin(), g_.outputs.end());
    // Nodes read from an overridden InputSlot fold back into the slots that consume them.
    for (size_t i = 0; i < g_.nodes.size(); ++i) {
      const Node& n = g_.nodes[i];
      const Attr* mark = find_attr(n.attrs, "armnn.inputSlotOverride");
      if (mark && mark->is<bool>() && mark->get<bool>() && n.inputs.size() == 1 && n.outputs.size() == 1 &&
          n.inputs[0] != kNoValue && !outputs.count(n.outputs[0]))
        overrides_[n.outputs[0]] = n.inputs[0];
    }
    for (size_t i = 0; i < g_.nodes.size(); ++i) {
      const Node& n = g_.nodes[i];
      if (n.outputs.size() == 1 && overrides_.count(n.outputs[0])) continue;
      if (n.op == "Identity" && attr_str(n.attrs, "armnn.layer") == "Output" && n.outputs.size() == 1 &&
          n.inputs.size() == 1 && outputs.count(n.outputs[0]) && !covered_outputs.count(n.outputs[0])) {
        need_const_layer(overridden_source(n.inputs[0]));
        node_entity[i] = add(Entity::Output, i, n.attrs);
        covered_outputs.insert(n.outputs[0]);
        continue;
      }
      const OpRow& row = row_of(n);
      size_t nconst = const_fields_of(n, row).size();
      if (nconst > n.inputs.size()) throw Error(ErrorId::Arity, "node '" + n.name + "': armnn.constInputs too long");
      for (size_t k = 0; k + nconst < n.inputs.size(); ++k) {
        if (n.inputs[k] == kNoValue)
          throw Error(ErrorId::NoForm, "node '" + n.name + "': Arm NN has no absent input slots");
        need_const_layer(overridden_source(n.inputs[k]));
      }
      node_entity[i] = add(Entity::NodeLayer, i, n.attrs);
    }
    for (auto v : g_.outputs)
      if (!covered_outputs.count(v)) {
        need_const_layer(v);
        add(Entity::NewOutput, v, {});
      }
    // A constant nothing consumes is a Constant layer whose output slot has no connection (the
    // reader keeps such a layer as a constant Value without a node): written back as one, since
    // only a layer carries its data.
    std::vector<bool> consumed(g_.values.size(), false);
    for (const Node& n : g_.nodes)
      for (auto v : n.inputs)
        if (v != kNoValue) consumed[v] = true;
    for (auto v : g_.outputs) consumed[v] = true;
    for (ValueId v = 0; v < g_.values.size(); ++v)
      if (g_.values[v].constant && !consumed[v] && produced[v] < 0 && !graph_inputs.count(v)) need_const_layer(v);
    // Order: layers that came from a file keep their place (armnn.position); layers without
    // one go where a writer would put them: inputs first, a Constant layer right before its
    // first consumer, everything else after the node before it, new outputs last.
    std::set<int64_t> positions;
    bool usable = true;
    for (const auto& e : entities_)
      if (e.position) usable &= positions.insert(*e.position).second;
    std::vector<size_t> natural;
    {
      std::set<size_t> done;
      auto push = [&](size_t k) {
        if (done.insert(k).second) natural.push_back(k);
      };
      for (size_t k = 0; k < entities_.size(); ++k)
        if (entities_[k].kind == Entity::Input) push(k);
      for (size_t i = 0; i < g_.nodes.size(); ++i) {
        if (node_entity[i] == SIZE_MAX) continue;  // folded into a slot
        for (auto v : g_.nodes[i].inputs)
          if (auto it = const_entity.find(overridden_source(v)); it != const_entity.end()) push(it->second);
        push(node_entity[i]);
      }
      for (size_t k = 0; k < entities_.size(); ++k) push(k);
    }
    if (usable && !positions.empty()) {
      // Stable merge: walk the natural order, giving each positioned layer its slot in
      // position order and keeping unpositioned ones next to their natural neighbours.
      std::vector<size_t> positioned;
      for (size_t k : natural)
        if (entities_[k].position) positioned.push_back(k);
      std::sort(positioned.begin(), positioned.end(),
                [&](size_t a, size_t b) { return *entities_[a].position < *entities_[b].position; });
      size_t next = 0;
      for (size_t k : natural) order_.push_back(entities_[k].position ? positioned[next++] : k);
    } else {
      order_ = natural;
    }
    // Indices: keep every distinct armnn.index (any uint, UINT32_MAX included); new layers get
    // fresh ones above the largest, or the smallest unused ones when the largest is UINT32_MAX.
    std::set<int64_t> idx;
    int64_t top = -1, gap = 0;
    for (const auto& e : entities_)
      if (e.index && *e.index >= 0 && *e.index <= int64_t(UINT32_MAX) && idx.insert(*e.index).second)
        top = std::max(top, *e.index);
    bool keep = idx.size() == size_t(std::count_if(entities_.begin(), entities_.end(), [](auto& e) { return bool(e.index); }));
    auto fresh = [&]() -> uint32_t {
      if (top < int64_t(UINT32_MAX)) return uint32_t(++top);
      while (idx.count(gap)) ++gap;  // fewer layers than 2^32: a gap exists
      idx.insert(gap);
      return uint32_t(gap);
    };
    for (size_t k = 0; k < order_.size(); ++k) {
      auto& e = entities_[order_[k]];
      if (keep && e.index) e.final_index = uint32_t(*e.index);
      else if (keep) e.final_index = fresh();
      else e.final_index = uint32_t(k);
    }
    for (const auto& e : entities_) {
      if (e.kind == Entity::Input || e.kind == Entity::Constant) producer_[ValueId(e.id)] = {e.final_index, 0};
      if (e.kind == Entity::NodeLayer) {
        const auto& outs = g_.nodes[e.id].outputs;
        for (size_t k = 0; k < outs.size(); ++k) producer_[outs[k]] = {e.final_index, uint32_t(k)};
      }
    }
  }

  size_t add(Entity::Kind kind, size_t id, const AttrMap& a) {
    Entity e;
    e.kind = kind;
    e.id = id;
    e.position = attr_int(a, "armnn.position");
    e.index = attr_int(a, "armnn.index");
    entities_.push_back(e);
    return entities_.size() - 1;
  }

  // The producer's value behind a folded override node, else `v` itself.
  ValueId overridden_source(ValueId v) const {
    auto it = overrides_.find(v);
    return it == overrides_.end() ? v : it->second;
  }

  std::pair<uint32_t, uint32_t> source_of(ValueId v, const std::string& node) const {
    auto it = producer_.find(v);
    if (it == producer_.end())
      throw Error(ErrorId::DanglingReference, "node '" + node + "': input '" + g_.values[v].name + "' has no producing layer");
    return it->second;
  }

  Off base(const Entity& e, const OpRow& row, const std::string& name, const std::vector<ValueId>& ins,
           const std::vector<ValueId>& outs, const AttrMap& a) {
    std::vector<flatbuffers::Offset<fb::InputSlot>> in_slots;
    std::vector<int64_t> in_idx, out_idx;
    if (const Attr* x = find_attr(a, "armnn.inputSlotIndices"); x && x->is<std::vector<int64_t>>())
      in_idx = x->get<std::vector<int64_t>>();
    if (const Attr* x = find_attr(a, "armnn.outputSlotIndices"); x && x->is<std::vector<int64_t>>())
      out_idx = x->get<std::vector<int64_t>>();
    for (size_t k = 0; k < ins.size(); ++k) {
      ValueId from = overridden_source(ins[k]);
      flatbuffers::Offset<fb::TensorInfo> overridden;
      if (from != ins[k]) {
        const Value& v = g_.values[ins[k]];
        overridden = write_tensor_info(b_, v.type, v.attrs, "armnn.tensorInfo.", "value '" + v.name + "'");
      }
      auto [src, slot] = source_of(from, name);
      fb::Connection c(src, slot);
      in_slots.push_back(fb::CreateInputSlot(b_, narrow_field<uint32_t>(k < in_idx.size() ? in_idx[k] : int64_t(k), "armnn: layer '" + name + "' armnn.inputSlotIndices[" + std::to_string(k) + "]"), &c,
                                             from != ins[k], overridden));
    }
    std::vector<flatbuffers::Offset<fb::OutputSlot>> out_slots;
    for (size_t k = 0; k < outs.size(); ++k) {
      const Value& v = g_.values[outs[k]];
      Off info = write_tensor_info(b_, v.type, v.attrs, "armnn.tensorInfo.", "value '" + v.name + "'");
      out_slots.push_back(fb::CreateOutputSlot(b_, narrow_field<uint32_t>(k < out_idx.size() ? out_idx[k] : int64_t(k), "armnn: layer '" + name + "' armnn.outputSlotIndices[" + std::to_string(k) + "]"),
                                               flatbuffers::Offset<fb::TensorInfo>(info)));
    }
    // Slots Arm NN ignores, as the file had them (reader.cc, ignored_slots).
    if (const Attr* x = find_attr(a, "armnn.ignoredInputSlots"); x && x->is<std::vector<int64_t>>()) {
      const auto& v = x->get<std::vector<int64_t>>();
      for (size_t k = 0; k + 2 < v.size(); k += 3) {
        const std::string at = "armnn: layer '" + name + "' armnn.ignoredInputSlots[";
        fb::Connection c(v[k + 1] < 0 ? 0u : narrow_field<uint32_t>(v[k + 1], at + std::to_string(k + 1) + "]"),
                         v[k + 1] < 0 ? 0u : narrow_field<uint32_t>(v[k + 2], at + std::to_string(k + 2) + "]"));
        in_slots.push_back(fb::CreateInputSlot(b_, narrow_field<uint32_t>(v[k], at + std::to_string(k) + "]"), v[k + 1] < 0 ? nullptr : &c));
      }
    }
    if (const Attr* x = find_attr(a, "armnn.ignoredOutputSlots"); x && x->is<std::vector<int64_t>>()) {
      const auto& v = x->get<std::vector<int64_t>>();
      for (size_t k = 0; k < v.size(); ++k) {
        const std::string prefix = "armnn.ignoredOutputSlots[" + std::to_string(k) + "].tensorInfo.";
        auto it = a.lower_bound(prefix);
        Off info = 0;
        if (it != a.end() && it->first.compare(0, prefix.size(), prefix) == 0)
          info = build_table(b_, object("armnnSerializer.TensorInfo"), prefix, a);
        out_slots.push_back(fb::CreateOutputSlot(b_, narrow_field<uint32_t>(v[k], "armnn: layer '" + name + "' armnn.ignoredOutputSlots[" + std::to_string(k) + "]"),
                                                 flatbuffers::Offset<fb::TensorInfo>(info)));
      }
    }
    // A vector the file left out (only where the layer kind has no such slots) stays out.
    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::InputSlot>>> iv;
    flatbuffers::Offset<flatbuffers::Vector<flatbuffers::Offset<fb::OutputSlot>>> ov;
    if (!(in_slots.empty() && find_attr(a, "armnn.inputSlotsAbsent"))) iv = b_.CreateVector(in_slots);
    if (!(out_slots.empty() && find_attr(a, "armnn.outputSlotsAbsent"))) ov = b_.CreateVector(out_slots);
    flatbuffers::Offset<flatbuffers::String> nm;
    if (!find_attr(a, "armnn.layerNameAbsent")) nm = b_.CreateString(name);
    uint32_t type = row.layer_type;
    if (layout_ == Layout::Seed) type = released_type_to_seed(type);
    if (auto t = attr_int(a, "armnn.layerType")) type = narrow_field<uint32_t>(*t, "armnn: layer '" + name + "' armnn.layerType");
    return fb::CreateLayerBase(b_, e.final_index, nm, fb::LayerType(type), iv, ov).o;
  }

  Off any(const OpRow& row, Off layer) {
    uint8_t tag = row.tag;
    if (layout_ == Layout::Seed) {
      tag = released_tag_to_seed(tag);
      if (!tag) throw Error(ErrorId::NoForm, "the seed layout has no " + row.layer + " layer");
    }
    return fb::CreateAnyLayer(b_, fb::Layer(tag), flatbuffers::Offset<void>(layer)).o;
  }

  static const OpRow& row_named(const std::string& layer) {
    for (const auto& r : op_rows())
      if (r.layer == layer && r.op.empty()) return r;
    throw Error(ErrorId::InvalidOther, "armnn: no layer " + layer);
  }

  std::string value_layer_name(const Value& v) const {
    std::string n = attr_str(v.attrs, "armnn.layerName");
    return n.empty() && !find_attr(v.attrs, "armnn.layerName") ? v.name : n;
  }

  Off bindable(const Entity& e, const OpRow& row, Off base_off) {
    auto bb = fb::CreateBindableLayerBase(b_, flatbuffers::Offset<fb::LayerBase>(base_off), narrow_field<int32_t>(binding_id(e), "armnn: " + entity_where(e) + " armnn.layerBindingId"));
    auto s = b_.StartTable();
    b_.AddOffset(4, bb);
    return b_.EndTable(s);
  }

  Off build(const Entity& e) {
    switch (e.kind) {
      case Entity::Input: {
        const auto& row = row_named("Input");
        const Value& v = g_.values[e.id];
        return any(row, bindable(e, row, base(e, row, value_layer_name(v), {}, {ValueId(e.id)}, v.attrs)));
      }
      case Entity::NewOutput: {
        const auto& row = row_named("Output");
        return any(row, bindable(e, row, base(e, row, g_.values[e.id].name, {ValueId(e.id)}, {}, {})));
      }
      case Entity::Output: {
        const auto& row = row_named("Output");
        const Node& n = g_.nodes[e.id];
        // Named after the graph output Value, which is what users bind and rename (armnn.h).
        return any(row, bindable(e, row, base(e, row, value_layer_name(g_.values[n.outputs[0]]), n.inputs, {}, n.attrs)));
      }
      case Entity::Constant: {
        const auto& row = row_named("Constant");
        const Value& v = g_.values[e.id];
        Off bo = base(e, row, value_layer_name(v), {}, {ValueId(e.id)}, v.attrs);
        Off ct = write_const_tensor(b_, v, "armnn.constInfo.", "value '" + v.name + "'");
        fb::ConstantLayerBuilder cb(b_);
        cb.add_base(flatbuffers::Offset<fb::LayerBase>(bo));
        cb.add_input(flatbuffers::Offset<fb::ConstTensor>(ct));
        return any(row, cb.Finish().o);
      }
      case Entity::NodeLayer: break;
    }
    const Node& n = g_.nodes[e.id];
    try {
      return build_node(e, n);
    } catch (const Error& err) {
      if (err.where().empty())
        throw Error(err.id(), err.message(), {},
                    (n.name.empty() ? "nodes[" + std::to_string(e.id) + "]" : "node '" + n.name + "'") + " (" + n.op + ")");
      throw;
    }
  }

  Off build_node(const Entity& e, const Node& n) {
    const OpRow& row = row_of(n);
    auto fields = const_fields_of(n, row);
    size_t nslots = n.inputs.size() - fields.size();
    std::vector<ValueId> slots(n.inputs.begin(), n.inputs.begin() + nslots);
    std::vector<TensorType> in_types, out_types;
    for (auto v : n.inputs) in_types.push_back(v == kNoValue ? TensorType{} : g_.values[v].type);
    for (auto v : n.outputs) out_types.push_back(g_.values[v].type);
    // Constant fields first: depthwise weights change layout here, and the check below reads
    // the layer back with the weights as written.
    std::vector<Value> consts;
    for (size_t k = 0; k < fields.size(); ++k) {
      Value v = g_.values[n.inputs[nslots + k]];
      if (!v.constant) throw Error(ErrorId::NoForm, "input '" + v.name + "' must be a constant (" + fields[k] + ")");
      if (row.layer == "DepthwiseConvolution2d" && fields[k] == "weights") v = depthwise_weights(n, v, in_types);
      in_types[nslots + k] = v.type;
      consts.push_back(std::move(v));
    }
    const AttrMap* attrs = &n.attrs;
    AttrMap converted;
    if (row.layer == "DepthwiseConvolution2d") {
      converted = n.attrs;
      converted["kernel_layout"] = Attr(std::string(weights_scheme_ == 1 ? "1HWO" : "MIHW"));
      attrs = &converted;
    }
    MapContext ctx{in_types, out_types, weights_scheme_};
    FieldMap f = from_canonical(row, *attrs, ctx);
    overlay_fields(f, n.attrs, "armnn.", [&](std::string_view key) {
      std::string head(key.substr(0, key.find_first_of(".[")));
      const auto* fld = row.object->fields()->LookupByKey(head.c_str());
      return fld && head != "base";
    });
    // What the reader would make of these fields must be the node: an attribute the layer
    // cannot hold (DepthToSpace mode CRD, say) is refused, never dropped.
    if (auto lost = lost_attribute(row, *attrs, f, ctx)) throw Error(ErrorId::NoForm, *lost);
    Off bo = base(e, row, n.name, slots, n.outputs, n.attrs);
    std::map<std::string, Off> extra{{"base", bo}};
    std::map<std::string, std::map<std::string, Off>> nested;
    for (size_t k = 0; k < fields.size(); ++k) {
      const Value& v = consts[k];
      Off ct = write_const_tensor(b_, v, "armnn.tensorInfo.", "value '" + v.name + "'");
      auto dot = fields[k].find('.');
      if (dot == std::string::npos) extra[fields[k]] = ct;
      else nested[fields[k].substr(0, dot)][fields[k].substr(dot + 1)] = ct;
    }
    for (auto& [top, subs] : nested) {
      const auto* fld = row.object->fields()->LookupByKey(top.c_str());
      extra[top] = build_table(b_, *field_object(*fld), "", {}, subs);
    }
    return any(row, build_table(b_, *row.object, "", f, extra));
  }

  // Converts depthwise weights to the layout the chosen weightsLayoutScheme expects; a node
  // without kernel_layout has the core schema's default, OIHW (ONNX Conv's [I*M, 1, H, W]).
  Value depthwise_weights(const Node& n, const Value& v, const std::vector<TensorType>& in_types) {
    std::string kl = attr_str(n.attrs, "kernel_layout");
    if (kl.empty()) kl = "OIHW";
    std::string want = weights_scheme_ == 1 ? "1HWO" : "MIHW";
    if (kl == want) return v;
    int64_t ch = -1;
    if (!in_types.empty() && in_types[0].shape.size() == 4)
      ch = attr_str(n.attrs, "data_layout") == "NHWC" ? in_types[0].shape[3] : in_types[0].shape[1];
    if (kl == "OIHW") return depthwise_from_oihw(v, want == "1HWO", ch);
    if (!((kl == "MIHW" && want == "1HWO") || (kl == "1HWO" && want == "MIHW")))
      throw Error(ErrorId::NoForm, "depthwise kernel_layout " + kl + " has no Arm NN form");
    return permute_depthwise(v, want == "1HWO", ch);
  }

  const Graph& g_;
  const SaveOptions& o_;
  flatbuffers::FlatBufferBuilder b_{1024};
  Layout layout_ = Layout::Released;
  int64_t binding_scheme_ = 1, weights_scheme_ = 0, const_scheme_ = 0;
  std::vector<Entity> entities_;
  std::vector<size_t> order_;
  std::map<ValueId, std::pair<uint32_t, uint32_t>> producer_;
  std::map<ValueId, ValueId> overrides_;  // output of a folded override node -> its input
};

}  // namespace

std::vector<uint8_t> write_graph(const Graph& source, const SaveOptions& options) {
  const std::optional<Graph> lowered = lower_for_armnn(source);
  const Graph& g = lowered ? *lowered : source;
  // The reader's identity rules first (check.cc): a file the reader would refuse is never written.
  std::vector<Issue> issues;
  std::vector<ErrorId> ids;
  check_graph_ids(g, issues, &ids);
  if (!issues.empty()) throw Error(ids.front(), "armnn: " + issues.front().message, {}, issues.front().where);
  if (const std::vector<std::size_t> cycle = find_cycle(g); !cycle.empty())
    throw Error(ErrorId::Cycle, "armnn: the data flow has a cycle, which the reader refuses: " + describe_cycle(g, cycle), {},
                "nodes[" + std::to_string(cycle.front()) + "]");
  return Writer(g, options).run();
}

}  // namespace nnbridge::formats::armnn
