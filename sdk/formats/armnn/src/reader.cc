// Reading a SerializedGraph into the IR.
//
// Representation (documented for users in formats/armnn.h):
// - an Input layer is a graph input Value named as the layer;
// - an Output layer is an `Identity` node named as the layer whose output Value, also named
//   as the layer, is a graph output (so outputs are found by the Output layer's name, and
//   the layer's own index and binding id have a place to live);
// - a Constant layer is a constant Value named as the layer (no node);
// - ConstTensors inside a layer (weights, biases, ...) are constant Values wired as extra
//   node inputs; with constantTensorsAsInputs = 1 they arrive through Constant layers on
//   the input slots instead: the IR is the same either way;
// - every other layer is one Node (canonical op, or `armnn.<LayerType>`), its output slots
//   its output Values; descriptor fields that are inputs of the canonical op (ONNX opset 13+:
//   Slice starts / ends / axes, Pad pads and constant_value, ...) are constant Values after
//   all others, named "<layer>.<input>".
// Layer identity (`armnn.index`: LayerBase.index, `armnn.position`: place in `layers`) is kept
// as attributes only where the writer would not derive it (layer_identity()); whatever else the
// IR does not model is kept as `armnn.*` attributes.
#include <algorithm>
#include <limits>
#include <unordered_map>

#include "armnn/ArmnnSchema_generated.h"
#include "internal.h"
#include "name_set.h"
#include "nnbridge/error.h"
#include "nnbridge/order.h"
#include "nnbridge/rewrite.h"
#include "nnbridge/verify_failure.h"
#include "ops.h"
#include "tensor_info.h"

namespace nnbridge::formats::armnn {

namespace {

namespace fb = ::armnnSerializer;

// `id` is a Malformed identifier (nnbridge/error.h).
[[noreturn]] void malformed(ErrorId id, const std::string& where, const std::string& msg) {
  throw Error(id, msg, {}, where);
}
// Well-formed bytes whose ids do not resolve (nnbridge/error.h: dangling ids are Invalid).
[[noreturn]] void dangling(const std::string& where, const std::string& msg) {
  throw Error(ErrorId::DanglingReference, msg, {}, where);
}

std::string L(size_t i) { return "layers[" + std::to_string(i) + "]"; }

// The output values of a layer: collect_layers adds them one after another.
struct ValueRange {
  ValueId first = 0;
  uint32_t count = 0;
  std::size_t size() const { return count; }
  ValueId operator[](std::size_t k) const { return first + ValueId(k); }
  std::vector<ValueId> vector() const {
    std::vector<ValueId> v(count);
    for (uint32_t k = 0; k < count; ++k) v[k] = first + k;
    return v;
  }
};

struct LayerInfo {
  uint8_t tag = 0;                         // released numbering
  const flatbuffers::Table* table = nullptr;
  const fb::LayerBase* base = nullptr;
  int32_t binding_id = 0;
  ValueRange outputs;
};

const std::string kTensorInfoPrefix = "armnn.tensorInfo.";

// LayerBase.index -> position in `layers`. Arm NN's serializer numbers the layers 0, 1, 2, ...
// (SerializerStrategy::GetSerializedId), so a vector indexed by it serves almost every file;
// indices past twice the layer count go to a map (memory stays linear in the file).
class LayerIndex {
 public:
  void reset(std::size_t layers) {
    dense_.assign(2 * layers + 64, kNone);
    sparse_.clear();
  }
  // Records `pos` for `index`; returns the position recorded before, or kNone.
  std::size_t add(uint32_t index, std::size_t pos) {
    if (index < dense_.size()) {
      std::size_t& d = dense_[index];
      if (d != kNone) return d;
      d = pos;
      return kNone;
    }
    auto [it, fresh] = sparse_.emplace(index, pos);
    return fresh ? kNone : it->second;
  }
  std::size_t find(uint32_t index) const {
    if (index < dense_.size()) return dense_[index];
    auto it = sparse_.find(index);
    return it == sparse_.end() ? kNone : it->second;
  }
  static constexpr std::size_t kNone = SIZE_MAX;

 private:
  std::vector<std::size_t> dense_;
  std::unordered_map<uint32_t, std::size_t> sparse_;
};

bool is_bindable(uint8_t tag) { return tag == uint8_t(fb::Layer::InputLayer) || tag == uint8_t(fb::Layer::OutputLayer); }

// Reaches the ConstTensor at `path` ("weights" or "inputParams.cellBias") of a layer table.
const fb::ConstTensor* const_at(const reflection::Object& obj, const flatbuffers::Table* t, const std::string& path) {
  auto dot = path.find('.');
  const auto* f = obj.fields()->LookupByKey(path.substr(0, dot).c_str());
  if (!f) return nullptr;
  const auto* sub = t->GetPointer<const flatbuffers::Table*>(f->offset());
  if (!sub) return nullptr;
  if (dot == std::string::npos) return reinterpret_cast<const fb::ConstTensor*>(sub);
  return const_at(*field_object(*f), sub, path.substr(dot + 1));
}

// Where a layer lives in the IR: an Input or Constant layer's value, or a node.
struct LayerTarget {
  enum Kind : uint8_t { None, Input, Constant, Node } kind = None;
  uint32_t id = 0;  // ValueId, or index in Graph::nodes
};

class Reader {
 public:
  Reader(const Source& src, const LoadOptions& opt) : src_(src), opt_(opt) {}

  Graph run() {
    layout_ = layout_option(opt_.options);
    const auto bytes = src_.bytes;
    if (bytes.size() < 8) malformed(ErrorId::Truncated, "", "too short for a FlatBuffer (" + std::to_string(bytes.size()) + " bytes)");
    if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE) malformed(ErrorId::ResourceLimit, "", "larger than a FlatBuffer can be");
    auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
    verify(p, bytes.size());
    root_ = flatbuffers::GetRoot<fb::SerializedGraph>(p);
    g_.source_format = "armnn";
    g_.metadata["armnn.fileIdentifier"] = Attr(flatbuffers::BufferHasIdentifier(p, fb::SerializedGraphIdentifier()));
    if (layout_ == Layout::Seed) g_.metadata["armnn.layout"] = Attr("seed");
    read_feature_versions();
    if (!root_->layers()) malformed(ErrorId::MalformedOther, "layers", "missing vector");
    // Every layer has at least one value or node; most have about one of each.
    g_.values.reserve(root_->layers()->size() + 16);
    g_.nodes.reserve(root_->layers()->size());
    by_index_.reset(root_->layers()->size());
    used_.reserve(root_->layers()->size() + 16);
    collect_layers();
    name_values();
    targets_.assign(layers_.size(), LayerTarget{});
    for (size_t i = 0; i < layers_.size(); ++i) build_layer(i);
    // Descriptor fields that the canonical ops take as inputs (Slice begin / size, Pad padList
    // and padValue, Splitter views, Resize targets, BoundedReLu bounds, Reduce axis): constant
    // values after the file's, in layer order (nnbridge/rewrite.h).
    attributes_as_operands(g_);
    // Arm NN runs a network in topological order (armnn::Graph::TopologicalSort): a slot
    // connection that closes a loop has no order to run in.
    if (const std::vector<std::size_t> cycle = find_cycle(g_); !cycle.empty())
      throw Error(ErrorId::Cycle, "the layers' connections form a cycle: " + describe_cycle(g_, cycle), {}, "layers");
    layer_identity();
    finish_ids();
    if (!warnings_.empty()) g_.metadata["armnn.warnings"] = Attr(warnings_);
    return std::move(g_);
  }

 private:
  void verify(const uint8_t* p, size_t n) {
    flatbuffers::Verifier::Options o;
    o.max_depth = opt_.limits.max_depth;
    o.max_tables = opt_.limits.max_tables;
    if (layout_ == Layout::Seed) {
      if (!looks_like_seed(src_.bytes, opt_.limits)) {
        flatbuffers::Verifier v(p, n, o);
        if (!v.VerifyBuffer<fb::SerializedGraph>(nullptr))
          malformed(ErrorId::VerifyFailed, "", "not a valid Arm NN SerializedGraph (FlatBuffers verification failed)");
        throw Error(ErrorId::Version,
                    "armnn.layout=seed was asked for, but the union tags and layerType values do not follow the seed "
                    "layout",
                    {}, "layers");
      }
      return;
    }
    flatbuffers::Verifier v(p, n, o);
    bool ok = v.VerifyBuffer<fb::SerializedGraph>(nullptr);
    if ((!ok || seed_suspect(flatbuffers::GetRoot<fb::SerializedGraph>(p))) && looks_like_seed(src_.bytes, opt_.limits))
      throw Error(ErrorId::Version,
                  "the union tags and LayerBase.layerType values follow the pre-release seed layout, not the released "
                  "Arm NN schema; read it with the option armnn.layout=seed",
                  {}, "layers[0].layer_type");
    if (!ok) {
      const ErrorId id = failure_id(p, n, o);
      malformed(id, locate_failure(p, n, o),
                verify_failure_message(id, "Arm NN SerializedGraph", "armnn", o.max_depth, o.max_tables));
    }
  }

  // Why verification failed (nnbridge/verify_failure.h): truncated, over a limit, or other.
  static ErrorId failure_id(const uint8_t* p, size_t n, const flatbuffers::Verifier::Options& o) {
    return verify_failure(p, n, o.max_depth, o.max_tables, [&](const uint8_t* q, size_t m, unsigned depth, unsigned tables) {
      flatbuffers::Verifier::Options r = o;
      r.max_depth = depth;
      r.max_tables = tables;
      flatbuffers::Verifier v(q, m, r);
      return v.VerifyBuffer<fb::SerializedGraph>(nullptr);
    });
  }

  // A verified released buffer is worth the seed check only when a layer with a seed-range
  // tag (1..5) records a layerType other than the released one of that tag.
  static bool seed_suspect(const fb::SerializedGraph* g) {
    static constexpr uint32_t kTypeOfTag[6] = {0, 9, 0, 14, 23, 12};
    if (!g->layers()) return false;
    for (const auto* any : *g->layers()) {
      auto tag = static_cast<uint8_t>(any->layer_type());
      if (tag < 1 || tag > 5 || !any->layer()) continue;
      const auto* base = static_cast<const flatbuffers::Table*>(any->layer())->GetPointer<const fb::LayerBase*>(4);
      if (base && static_cast<uint32_t>(base->layerType()) != kTypeOfTag[tag]) return true;
    }
    return false;
  }

  // After a failed verification: the first part of the root that fails on its own, so that
  // the message can say where ("layers[3]"). Each step verifies only what it then touches.
  static std::string locate_failure(const uint8_t* p, size_t n, const flatbuffers::Verifier::Options& o) {
    flatbuffers::Verifier v0(p, n, o);
    if (!v0.VerifyOffset(0)) return "(root offset)";
    const auto* root = flatbuffers::GetRoot<fb::SerializedGraph>(p);
    if (!v0.VerifyTableStart(reinterpret_cast<const uint8_t*>(root))) return "(root table)";
    auto field_ok = [&](flatbuffers::voffset_t vt) {
      flatbuffers::Verifier v(p, n, o);
      return v.VerifyTableStart(reinterpret_cast<const uint8_t*>(root)) &&
             reinterpret_cast<const flatbuffers::Table*>(root)->VerifyOffset(v, vt);
    };
    if (!field_ok(fb::SerializedGraph::VT_LAYERS)) return "layers";
    if (const auto* layers = root->layers()) {
      flatbuffers::Verifier v(p, n, o);
      if (!v.VerifyVector(layers)) return "layers";
      for (flatbuffers::uoffset_t i = 0; i < layers->size(); ++i) {
        flatbuffers::Verifier vi(p, n, o);
        if (!vi.VerifyOffset(reinterpret_cast<const uint8_t*>(layers->Data()) - p + size_t(i) * 4))
          return L(i);
        if (!layers->Get(i)->Verify(vi)) return L(i);
      }
    }
    for (auto [vt, name] : {std::pair{fb::SerializedGraph::VT_INPUTIDS, "inputIds"},
                            std::pair{fb::SerializedGraph::VT_OUTPUTIDS, "outputIds"},
                            std::pair{fb::SerializedGraph::VT_FEATUREVERSIONS, "featureVersions"}})
      if (!field_ok(vt)) return name;
    return "";
  }

  void read_feature_versions() {
    // (A seed buffer has no featureVersions field: it reads as absent, i.e. all schemes 0.)
    const auto* fv = root_->featureVersions();
    g_.metadata["armnn.featureVersions"] = Attr(fv != nullptr);
    binding_scheme_ = fv ? fv->bindingIdsScheme() : 0;
    weights_scheme_ = fv ? fv->weightsLayoutScheme() : 0;
    const_scheme_ = fv ? fv->constantTensorsAsInputs() : 0;
    g_.metadata["armnn.bindingIdsScheme"] = Attr(int64_t(binding_scheme_));
    g_.metadata["armnn.weightsLayoutScheme"] = Attr(int64_t(weights_scheme_));
    g_.metadata["armnn.constantTensorsAsInputs"] = Attr(int64_t(const_scheme_));
  }

  void collect_layers() {
    const auto* layers = root_->layers();
    layers_.resize(layers->size());
    for (size_t i = 0; i < layers->size(); ++i) {
      const auto* any = layers->Get(flatbuffers::uoffset_t(i));
      auto& li = layers_[i];
      if (!any) malformed(ErrorId::MalformedOther, L(i), "missing layer");
      uint8_t raw = static_cast<uint8_t>(any->layer_type());
      li.tag = layout_ == Layout::Seed ? seed_tag_to_released(raw) : raw;
      if (raw == 0 || li.tag == 0 || li.tag > uint8_t(fb::Layer::MAX))
        malformed(ErrorId::BadEncoding, L(i) + ".layer_type", "unknown layer union tag " + std::to_string(raw));
      li.table = static_cast<const flatbuffers::Table*>(any->layer());
      if (!li.table) malformed(ErrorId::MalformedOther, L(i) + ".layer", "missing layer table");
      if (is_bindable(li.tag)) {
        const auto* bb = li.table->GetPointer<const fb::BindableLayerBase*>(4);
        if (!bb) malformed(ErrorId::MalformedOther, L(i) + ".layer.base", "missing BindableLayerBase");
        li.base = bb->base();
        li.binding_id = bb->layerBindingId();
      } else {
        li.base = li.table->GetPointer<const fb::LayerBase*>(4);
      }
      if (!li.base) malformed(ErrorId::MalformedOther, base_where(i), "missing LayerBase");
      // Arm NN reads as many slots as the layer kind has, so a vector that kind never uses may
      // be left out (its own JSON fixtures omit Input/Constant inputSlots, Output outputSlots).
      const bool no_inputs = li.tag == uint8_t(fb::Layer::InputLayer) || li.tag == uint8_t(fb::Layer::ConstantLayer);
      if (!li.base->inputSlots() && !no_inputs) malformed(ErrorId::MalformedOther, base_where(i) + ".inputSlots", "missing vector");
      if (!li.base->outputSlots() && li.tag != uint8_t(fb::Layer::OutputLayer))
        malformed(ErrorId::MalformedOther, base_where(i) + ".outputSlots", "missing vector");
      if (const std::size_t before = by_index_.add(li.base->index(), i); before != LayerIndex::kNone)
        throw Error(ErrorId::DuplicateName,
                    "index " + std::to_string(li.base->index()) + " is also the index of " + L(before), {},
                    base_where(i) + ".index");
      // Output values, typed now so that later layers may refer to them. The place strings
      // are built only on the slow path (residual fields or an error).
      const auto* outs = li.base->outputSlots();
      li.outputs.first = ValueId(g_.values.size());
      // (An Output layer's output slots are never read: see ignored_slots.)
      for (flatbuffers::uoffset_t k = 0; k < n_out(li) && li.tag != uint8_t(fb::Layer::OutputLayer); ++k) {
        const auto* os = outs->Get(k);
        if (!os) malformed(ErrorId::MalformedOther, base_where(i) + ".outputSlots[" + std::to_string(k) + "]", "missing OutputSlot");
        Value v;
        if (!read_plain_tensor_info(os->tensorInfo(), v.type, &v.attrs, kTensorInfoPrefix))
          v.type = read_tensor_info(os->tensorInfo(), kTensorInfoPrefix, v.attrs,
                                    base_where(i) + ".outputSlots[" + std::to_string(k) + "].tensorInfo");
        g_.add_value(std::move(v));
        ++li.outputs.count;
      }
    }
  }

  static flatbuffers::uoffset_t n_in(const LayerInfo& li) {
    return li.base->inputSlots() ? li.base->inputSlots()->size() : 0;
  }
  static flatbuffers::uoffset_t n_out(const LayerInfo& li) {
    return li.base->outputSlots() ? li.base->outputSlots()->size() : 0;
  }

  // "layers[i].layer.base", or "... .base.base" for Input/Output layers: for messages only.
  std::string base_where(size_t i) const {
    return L(i) + (is_bindable(layers_[i].tag) ? ".layer.base.base" : ".layer.base");
  }

  std::string layer_name(size_t i) const {
    const auto* n = layers_[i].base->layerName();
    return n ? n->str() : std::string();
  }

  // Value names: Input and Output layers' names first (users address tensors by them), then
  // the other layers' outputs, made unique with a suffix. Arm NN layer names need not be unique.
  void name_values() {
    for (size_t i = 0; i < layers_.size(); ++i)
      if (is_bindable(layers_[i].tag)) reserve(layer_name(i));
    for (size_t i = 0; i < layers_.size(); ++i) {
      const auto& li = layers_[i];
      std::string base = layer_name(i);
      if (base.empty()) base = "layer" + std::to_string(li.base->index());
      for (size_t k = 0; k < li.outputs.size(); ++k) {
        if (li.tag == uint8_t(fb::Layer::InputLayer)) {
          g_.values[li.outputs[k]].name = unique(base, true);
          continue;
        }
        g_.values[li.outputs[k]].name = unique(li.outputs.size() == 1 ? base : base + ":" + std::to_string(k), false);
      }
    }
  }
  void reserve(const std::string& n) { reserved_.insert(n); }
  // `want` if no value has it and no Input/Output layer is named so (unless `reserved_ok`), else
  // the first free want_1, want_2, ...; one hash per name tried.
  std::string unique(const std::string& want, bool reserved_ok) {
    std::size_t h = NameSet::hash(want);
    if ((reserved_ok || !reserved_.contains(want, h)) && used_.insert_new(want, h)) return want;
    for (int k = 1;; ++k) {
      std::string n = want + "_" + std::to_string(k);
      h = NameSet::hash(n);
      if (!reserved_.contains(n, h) && used_.insert_new(n, h)) return n;
    }
  }

  ValueId input_value(size_t i, size_t s) {
    const auto& li = layers_[i];
    auto w = [&] { return base_where(i) + ".inputSlots[" + std::to_string(s) + "]"; };
    const auto* slot = li.base->inputSlots()->Get(flatbuffers::uoffset_t(s));
    if (!slot) malformed(ErrorId::MalformedOther, w(), "missing InputSlot");
    const auto* c = slot->connection();
    if (!c) malformed(ErrorId::MalformedOther, w() + ".connection", "missing connection");
    const std::size_t from = by_index_.find(c->sourceLayerIndex());
    if (from == LayerIndex::kNone)
      dangling(w() + ".connection.sourceLayerIndex",
                "refers to layer index " + std::to_string(c->sourceLayerIndex()) + ", which no layer has");
    const auto& src = layers_[from];
    if (c->outputSlotIndex() >= src.outputs.size())
      dangling(w() + ".connection.outputSlotIndex",
                "output slot " + std::to_string(c->outputSlotIndex()) + " of " + L(from) + ", which has " +
                    std::to_string(src.outputs.size()));
    ValueId v = src.outputs[c->outputSlotIndex()];
    // (Arm NN ignores an overriddenTensorInfo whose slot is not isOverridden; so does the IR.)
    return slot->isOverridden() ? override_value(i, s, v, slot->overriddenTensorInfo(), w()) : v;
  }

  // InputSlot.isOverridden: the layer sees the producer's bytes as overriddenTensorInfo. In
  // the IR that is a node of its own between producer and consumer, marked
  // `armnn.inputSlotOverride` (the writer folds it back into the slot): a `Reshape` (attr
  // shape) when only the shape differs and the element count agrees, else the native
  // `armnn.InputSlotOverride` (same bytes, another type; no kernel runs it).
  ValueId override_value(size_t i, size_t s, ValueId from, const fb::TensorInfo* info, const std::string& w) {
    if (!info) malformed(ErrorId::MalformedOther, w + ".overriddenTensorInfo", "isOverridden is set but there is no overriddenTensorInfo");
    Value v;
    v.type = read_tensor_info(info, "armnn.tensorInfo.", v.attrs, w + ".overriddenTensorInfo");
    std::string consumer = layer_name(i);
    if (consumer.empty()) consumer = "layer" + std::to_string(layers_[i].base->index());
    const std::string at = ":inputSlots[" + std::to_string(s) + "]";
    v.name = unique(consumer + at, false);
    const TensorType& src = g_.values[from].type;
    TensorType reshaped = src;
    reshaped.shape = v.type.shape;
    const bool reshape = src.element_count() && src.element_count() == v.type.element_count() && reshaped == v.type;
    Node n;
    n.op = reshape ? "Reshape" : "armnn.InputSlotOverride";
    n.name = consumer + at;
    if (reshape) n.attrs["shape"] = Attr(std::vector<int64_t>(v.type.shape.begin(), v.type.shape.end()));
    n.attrs["armnn.inputSlotOverride"] = Attr(true);
    n.inputs = {from};
    n.outputs = {g_.add_value(std::move(v))};
    ValueId out = n.outputs[0];
    g_.add_node(std::move(n));
    return out;
  }

  // Identity attributes shared by nodes and by the values of Input/Constant layers; the layer
  // index and position go to `target` later, where layer_identity() finds them needed.
  void identity_attrs(size_t i, const OpRow* row, AttrMap& a, LayerTarget target) {
    const auto& li = layers_[i];
    targets_[i] = target;
    uint32_t stored = static_cast<uint32_t>(li.base->layerType());
    uint32_t expected = row->layer_type;
    if (layout_ == Layout::Seed) expected = released_type_to_seed(expected);
    if (stored != expected) {
      a["armnn.layerType"] = Attr(int64_t(stored));
      warnings_.push_back(base_where(i) + ".layerType: " + std::to_string(stored) + " disagrees with the union tag (" +
                          row->layer + "); Arm NN follows the tag");
    }
    if (!li.base->layerName()) a["armnn.layerNameAbsent"] = Attr(true);
    // Slot indices are kept only when they are not 0, 1, 2, ... (the lists are built then).
    const auto* ins = li.base->inputSlots();
    const auto* outs = li.base->outputSlots();
    if (!ins) a["armnn.inputSlotsAbsent"] = Attr(true);
    for (auto& [k, v] : ignored_) a[k] = std::move(v);
    ignored_.clear();
    if (!outs) a["armnn.outputSlotsAbsent"] = Attr(true);
    bool in_plain = true, out_plain = true;
    for (flatbuffers::uoffset_t k = 0; k < n_in(li) && in_plain; ++k) {
      auto* s = ins->Get(k);
      in_plain = s && s->index() == k;
    }
    for (flatbuffers::uoffset_t k = 0; k < n_out(li) && out_plain; ++k) out_plain = outs->Get(k)->index() == k;
    if (!in_plain) {
      std::vector<int64_t> idx;
      for (const auto* s : *ins) idx.push_back(s ? s->index() : 0);
      a["armnn.inputSlotIndices"] = Attr(std::move(idx));
    }
    if (!out_plain) {
      std::vector<int64_t> idx;
      for (const auto* s : *outs) idx.push_back(s->index());
      a["armnn.outputSlotIndices"] = Attr(std::move(idx));
    }
  }

  // Slots Arm NN never reads (it reads as many as the layer kind has): input slots of Input and
  // Constant layers, output slots of Output layers, as its own JSON fixtures write them. Kept
  // for the writer (`armnn.ignoredInputSlots`: index, sourceLayerIndex, outputSlotIndex per
  // slot; `armnn.ignoredOutputSlots`: indices, each TensorInfo under
  // `armnn.ignoredOutputSlots[k].tensorInfo.`). Returns how many there are.
  size_t ignored_slots(size_t i, bool inputs) {
    const auto& li = layers_[i];
    std::vector<int64_t> flat;
    if (inputs) {
      for (flatbuffers::uoffset_t k = 0; k < n_in(li); ++k) {
        const auto* s = li.base->inputSlots()->Get(k);
        const auto* c = s ? s->connection() : nullptr;
        flat.insert(flat.end(), {int64_t(s ? s->index() : k), c ? int64_t(c->sourceLayerIndex()) : -1,
                                 c ? int64_t(c->outputSlotIndex()) : -1});
      }
      if (!flat.empty()) ignored_["armnn.ignoredInputSlots"] = Attr(std::move(flat));
      return n_in(li);
    }
    for (flatbuffers::uoffset_t k = 0; k < n_out(li); ++k) {
      const auto* s = li.base->outputSlots()->Get(k);
      flat.push_back(s ? int64_t(s->index()) : int64_t(k));
      if (s && s->tensorInfo())
        read_fields(object("armnnSerializer.TensorInfo"), reinterpret_cast<const flatbuffers::Table*>(s->tensorInfo()),
                    "armnn.ignoredOutputSlots[" + std::to_string(k) + "].tensorInfo.", ignored_);
    }
    if (!flat.empty()) ignored_["armnn.ignoredOutputSlots"] = Attr(std::move(flat));
    return n_out(li);
  }

  void expect_slots(size_t i, size_t ins, size_t outs) {
    const auto& li = layers_[i];
    if (n_in(li) != ins)
      throw Error(ErrorId::Arity, "has " + std::to_string(n_in(li)) +
                                                   " slots, this layer type has " + std::to_string(ins),
                  {}, base_where(i) + ".inputSlots");
    if (li.outputs.size() != outs)
      throw Error(ErrorId::Arity,
                  "has " + std::to_string(li.outputs.size()) + " slots, this layer type has " + std::to_string(outs), {},
                  base_where(i) + ".outputSlots");
  }

  void build_layer(size_t i) {
    const auto& li = layers_[i];
    const auto& rows = rows_for_tag(li.tag);
    const OpRow* native = rows.back();
    std::string name = layer_name(i);
    if (li.tag == uint8_t(fb::Layer::InputLayer)) {
      expect_slots(i, ignored_slots(i, true), 1);
      Value& v = g_.values[li.outputs[0]];
      identity_attrs(i, native, v.attrs, {LayerTarget::Input, li.outputs[0]});
      v.attrs["armnn.layerBindingId"] = Attr(int64_t(li.binding_id));
      if (v.name != name) v.attrs["armnn.layerName"] = Attr(name);
      g_.inputs.push_back(li.outputs[0]);
      return;
    }
    if (li.tag == uint8_t(fb::Layer::OutputLayer)) {
      ignored_slots(i, false);
      expect_slots(i, 1, 0);
      Node n;
      n.op = "Identity";
      n.name = name;
      n.inputs = {input_value(i, 0)};
      Value out;
      out.name = unique(name.empty() ? "output" : name, true);
      out.type = g_.values[n.inputs[0]].type;
      // The writer names the Output layer after this value (so renaming the graph output renames
      // the binding); a name made unique here keeps the layer's own name for it.
      if (out.name != name) out.attrs["armnn.layerName"] = Attr(name);
      n.outputs = {g_.add_value(std::move(out))};
      identity_attrs(i, native, n.attrs, {LayerTarget::Node, uint32_t(g_.nodes.size())});
      n.attrs["armnn.layer"] = Attr("Output");
      n.attrs["armnn.layerBindingId"] = Attr(int64_t(li.binding_id));
      g_.outputs.push_back(n.outputs[0]);
      g_.add_node(std::move(n));
      return;
    }
    if (li.tag == uint8_t(fb::Layer::ConstantLayer)) {
      expect_slots(i, ignored_slots(i, true), 1);
      Value& v = g_.values[li.outputs[0]];
      std::string w = L(i) + ".layer.input";
      Value c = read_const_tensor(reinterpret_cast<const fb::ConstantLayer*>(li.table)->input(), src_,
                                  "armnn.constInfo.", w, &v.type);
      if (c.type.byte_size() != v.type.byte_size())
        throw Error(ErrorId::Shape, "the constant's size disagrees with the layer's output slot", {}, w + ".info");
      v.constant = c.constant;
      for (auto& [k, a] : c.attrs) v.attrs[k] = a;
      identity_attrs(i, native, v.attrs, {LayerTarget::Constant, li.outputs[0]});
      v.attrs["armnn.layer"] = Attr("Constant");
      if (v.name != name) v.attrs["armnn.layerName"] = Attr(name);
      return;
    }
    Node n;
    n.name = name;
    const auto& obj = *native->object;
    n.inputs.reserve(n_in(li) + rows.front()->const_fields.size());
    for (flatbuffers::uoffset_t s = 0; s < n_in(li); ++s) n.inputs.push_back(input_value(i, s));
    // ConstTensor fields become inputs after the slots, in the row's canonical order; the
    // canonical rows of a layer share its const_fields order, the native row keeps schema order.
    const OpRow* first = rows.front();
    std::vector<std::string> present;
    bool dw_permuted = false;
    for (const auto& path : first->const_fields) {
      const auto* ct = const_at(obj, li.table, path);
      if (!ct) continue;
      Value v = read_const_tensor(ct, src_, "armnn.tensorInfo.", L(i) + ".layer." + path);
      // One IR form for depthwise weights: [1, H, W, I*M] ("1HWO"). The legacy [M, I, H, W]
      // layout is the one case that costs a copy (per-axis quantized weights stay as they are).
      if (li.tag == uint8_t(fb::Layer::DepthwiseConvolution2dLayer) && path == "weights" && weights_scheme_ == 0 &&
          !(v.type.quantization && v.type.quantization->axis)) {
        v = permute_depthwise(v, true, 0);
        dw_permuted = true;
      }
      v.name = unique((name.empty() ? "layer" + std::to_string(li.base->index()) : name) + "." + path, false);
      n.inputs.push_back(g_.add_value(std::move(v)));
      present.push_back(path);
    }
    n.outputs = li.outputs.vector();
    const auto& skip_top = skipped_top_fields(*first);
    const auto skip = [&](const reflection::Field& fld) {
      return std::find(skip_top.begin(), skip_top.end(), fld.name()->string_view()) != skip_top.end();
    };

    // Layers of one kind with equal fields map the same way unless a row whose discriminator
    // matched has a transform (transforms see the tensor types): such results are memoized
    // per tag. Equal fields pass the same discriminators, so a hit was memoizable too. A
    // descriptor of scalars is first compared by its bytes (scalar_key), without a FieldMap.
    key_.clear();
    const bool keyed = scalar_key(obj, li.table, key_, skip);
    if (keyed)
      for (const auto& m : memo_[li.tag])
        if (m.keyed && m.key == key_) {
          finish_node(i, std::move(n), m.chosen, AttrMap(m.attrs), std::move(present));
          return;
        }
    FieldMap f;
    read_fields(obj, li.table, "", f, skip);
    for (const auto& m : memo_[li.tag])
      if (m.fields == f) {
        finish_node(i, std::move(n), m.chosen, AttrMap(m.attrs), std::move(present));
        return;
      }
    bool memoizable = true;

    std::vector<TensorType> in_types, out_types;
    in_types.reserve(n.inputs.size());
    out_types.reserve(n.outputs.size());
    for (auto id : n.inputs) in_types.push_back(g_.values[id].type);
    for (auto id : n.outputs) out_types.push_back(g_.values[id].type);
    MapContext ctx{in_types, out_types, dw_permuted ? 1 : int64_t(weights_scheme_)};
    const OpRow* chosen = native;
    AttrMap attrs;
    for (const OpRow* r : rows) {
      if (r->op.empty()) break;
      std::optional<AttrMap> c;
      FieldMap derived;
      try {
        if (!r->fields_only && (r->disc_field.empty() || get_int(f, *r->object, r->disc_field) == r->disc_value))
          memoizable = false;
        c = to_canonical(*r, f, ctx);
        if (!c) continue;
        derived = from_canonical(*r, *c, ctx);
      } catch (const Error&) {
        continue;  // fields this op cannot express: try the next row, finally the native op
      }
      attrs = std::move(*c);
      diff_fields(f, derived, "armnn.", attrs);
      chosen = r;
      break;
    }
    if (chosen == native) diff_fields(f, {}, "armnn.", attrs);
    if (memoizable && memo_[li.tag].size() < kMemoPerTag)
      memo_[li.tag].push_back({std::move(f), chosen, attrs, keyed, keyed ? key_ : std::string()});
    finish_node(i, std::move(n), chosen, std::move(attrs), std::move(present));
  }

  void finish_node(size_t i, Node n, const OpRow* chosen, AttrMap attrs, std::vector<std::string> present) {
    n.op = chosen->ir_op();
    n.attrs = std::move(attrs);
    identity_attrs(i, chosen, n.attrs, {LayerTarget::Node, uint32_t(g_.nodes.size())});
    // Whether the op alone names the row depends on the row only: asked once per row.
    if (layer_attr_.empty()) layer_attr_.assign(op_rows().size(), -1);
    int8_t& needs_layer = layer_attr_[std::size_t(chosen - op_rows().data())];
    if (needs_layer < 0) needs_layer = row_for_op(n.op, "") != chosen;
    if (needs_layer) n.attrs["armnn.layer"] = Attr(chosen->layer);
    if (!present.empty()) n.attrs["armnn.constInputs"] = Attr(std::move(present));
    g_.add_node(std::move(n));
  }

  // `armnn.index` and `armnn.position` on every layer's node or value, unless the layers are
  // where the writer puts layers without them and their indices are 0, 1, 2, ... in that order
  // (the files Arm NN's serializer writes): then neither, on any layer (formats/armnn.h).
  // Otherwise all of them, so that a layer order or numbering of any other kind round-trips.
  void layer_identity() {
    bool derived = true;
    for (size_t i = 0; i < layers_.size() && derived; ++i)
      derived = layers_[i].base->index() == i && targets_[i].kind != LayerTarget::None;
    if (derived && writer_order()) return;
    for (size_t i = 0; i < layers_.size(); ++i) {
      const LayerTarget& t = targets_[i];
      if (t.kind == LayerTarget::None) continue;
      AttrMap& a = t.kind == LayerTarget::Node ? g_.nodes[t.id].attrs : g_.values[t.id].attrs;
      a.insert_or_assign("armnn.index", Attr(int64_t(layers_[i].base->index())));
      a.insert_or_assign("armnn.position", Attr(int64_t(i)));
    }
  }

  // Whether the layers are in the order the writer gives layers without `armnn.position`
  // (writer.cc, plan(): the Input layers in graph-input order; then per node, in node order,
  // the Constant layers it is the first to read, through a folded input-slot override, then
  // its own layer, override nodes folding into their consumers' slots; nothing after).
  bool writer_order() const {
    const size_t L = layers_.size();
    std::vector<uint32_t> value_layer(g_.values.size(), UINT32_MAX), node_layer(g_.nodes.size(), UINT32_MAX);
    std::vector<bool> constant(L, false), placed(L, false);
    for (size_t i = 0; i < L; ++i) {
      const LayerTarget& t = targets_[i];
      (t.kind == LayerTarget::Node ? node_layer : value_layer)[t.id] = uint32_t(i);
      constant[i] = t.kind == LayerTarget::Constant;
    }
    std::vector<ValueId> source(g_.values.size(), kNoValue);  // an override node's output -> its input
    std::vector<bool> folded(g_.nodes.size(), false), graph_output(g_.values.size(), false);
    for (ValueId v : g_.outputs) graph_output[v] = true;
    for (size_t j = 0; j < g_.nodes.size(); ++j) {
      const Node& n = g_.nodes[j];
      const Attr* mark = find_attr(n.attrs, "armnn.inputSlotOverride");
      if (mark && mark->is<bool>() && mark->get<bool>() && n.inputs.size() == 1 && n.outputs.size() == 1 &&
          n.inputs[0] != kNoValue && !graph_output[n.outputs[0]])
        source[n.outputs[0]] = n.inputs[0], folded[j] = true;
    }
    size_t next = 0;
    auto place = [&](uint32_t layer) {
      if (layer >= L || placed[layer] || layer != next) return false;
      placed[layer] = true;
      ++next;
      return true;
    };
    for (ValueId v : g_.inputs)
      if (!place(value_layer[v])) return false;
    for (size_t j = 0; j < g_.nodes.size(); ++j) {
      if (folded[j]) continue;
      for (ValueId v : g_.nodes[j].inputs) {
        if (v == kNoValue) continue;
        const ValueId s = source[v] != kNoValue ? source[v] : v;
        const uint32_t layer = value_layer[s];
        if (layer < L && constant[layer] && !placed[layer] && !place(layer)) return false;
      }
      if (!place(node_layer[j])) return false;
    }
    return next == L;
  }

  struct Memo {
    FieldMap fields;
    const OpRow* chosen;
    AttrMap attrs;
    bool keyed;       // `key` is the fields' scalar_key
    std::string key;
  };
  static constexpr size_t kMemoPerTag = 8;

  // inputIds/outputIds: kept only where they differ from what the writer derives
  // (binding ids in scheme 1, layer indices in scheme 0, in layer order).
  // Each entry must name a layer of its kind, as Arm NN's deserializer looks it up: bindingIdsScheme
  // 0 by LayerBase.index, any other scheme by layerBindingId (SetupInputLayers/SetupOutputLayers,
  // which refuse the file otherwise).
  void finish_ids() {
    std::vector<int64_t> want_in, want_out;  // what the writer derives (scheme 1: binding ids)
    std::vector<int64_t> named_in, named_out;  // what the deserializer looks up
    for (const auto& li : layers_) {
      int64_t id = binding_scheme_ == 1 ? li.binding_id : int64_t(li.base->index());
      int64_t named = binding_scheme_ != 0 ? li.binding_id : int64_t(li.base->index());
      if (li.tag == uint8_t(fb::Layer::InputLayer)) want_in.push_back(id), named_in.push_back(named);
      if (li.tag == uint8_t(fb::Layer::OutputLayer)) want_out.push_back(id), named_out.push_back(named);
    }
    std::vector<std::string> absent;
    auto check = [&](const flatbuffers::Vector<int32_t>* v, const std::vector<int64_t>& want, const char* key) {
      if (!v) return absent.push_back(key);
      const bool inputs = std::string_view(key) == "inputIds";
      const std::vector<int64_t>& named = inputs ? named_in : named_out;
      for (flatbuffers::uoffset_t k = 0; k < v->size(); ++k)
        if (std::find(named.begin(), named.end(), int64_t(v->Get(k))) == named.end()) {
          std::string known;
          for (int64_t w : named) known += (known.empty() ? "" : ", ") + std::to_string(w);
          dangling(std::string(key) + "[" + std::to_string(k) + "]",
                  std::to_string(v->Get(k)) + " names no " + (inputs ? "Input" : "Output") + " layer (bindingIdsScheme " +
                      std::to_string(binding_scheme_) + ": by " + (binding_scheme_ != 0 ? "layerBindingId" : "LayerBase.index") +
                      "; the " + (inputs ? "Input" : "Output") + " layers have " + (known.empty() ? "none" : known) + ")");
        }
      std::vector<int64_t> got(v->begin(), v->end());
      if (got != want) g_.metadata[std::string("armnn.") + key] = Attr(got);
    };
    check(root_->inputIds(), want_in, "inputIds");
    check(root_->outputIds(), want_out, "outputIds");
    if (!absent.empty()) g_.metadata["armnn.absent"] = Attr(absent);
  }

  const Source& src_;
  const LoadOptions& opt_;
  Layout layout_ = Layout::Released;
  const fb::SerializedGraph* root_ = nullptr;
  Graph g_;
  std::vector<LayerInfo> layers_;
  std::vector<std::vector<Memo>> memo_ = std::vector<std::vector<Memo>>(size_t(fb::Layer::MAX) + 1);
  LayerIndex by_index_;
  NameSet reserved_, used_;
  std::vector<std::string> warnings_;
  AttrMap ignored_;  // ignored_slots() -> the layer's identity attrs
  std::vector<LayerTarget> targets_;  // per layer: the node or value its identity is kept on
  std::string key_;  // build_layer's scalar_key, reused
  std::vector<int8_t> layer_attr_;  // per OpRow: does finish_node write armnn.layer (-1: not known yet)
  uint32_t binding_scheme_ = 0, weights_scheme_ = 0, const_scheme_ = 0;
};

}  // namespace

Graph read_graph(const Source& src, const LoadOptions& options) {
  try {
    return Reader(src, options).run();
  } catch (const Error& e) {
    if (!src.file.empty() && e.file().empty()) throw e.with_file(src.file);
    throw;
  }
}

}  // namespace nnbridge::formats::armnn
