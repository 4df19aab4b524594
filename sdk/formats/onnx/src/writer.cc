// Writing the IR as a ModelProto: built, checked by onnx::checker and strict shape inference,
// then written (with its external data files) atomically.
#include <algorithm>
#include <charconv>
#include <climits>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "adapt.h"
#include "external.h"
#include "nnbridge/error.h"
#include "nnbridge/rewrite.h"
#include "nnbridge/rewrite_qdq.h"
#include "nnbridge/order.h"
#include "onnx/checker.h"
#include "onnx/shape_inference/implementation.h"
#include "types.h"

namespace nnbridge::formats::onnx {

namespace {

using ::onnx::ModelProto;

template <class T>
const T* get(const AttrMap& a, const std::string& k) {
  auto it = a.find(k);
  return it != a.end() && it->second.is<T>() ? &it->second.get<T>() : nullptr;
}

std::string V(std::size_t i) { return "values[" + std::to_string(i) + "]"; }
std::string Nd(std::size_t i) { return "nodes[" + std::to_string(i) + "]"; }

class Writer {
 public:
  Writer(const Graph& g, const std::filesystem::path& path, const SaveOptions& o) : g_(g), path_(path), opt_(o) {
    from_onnx_ = g.metadata.count(keys::kOpsetVersion) || g.metadata.count(keys::kIrVersion);
  }

  void run() {
    for (std::size_t i = 0; i < g_.values.size(); ++i)
      if (is_quantized(g_.values[i].type.dtype))
        throw Error(ErrorId::DataType,
                    "value '" + g_.values[i].name + "' has the quantized dtype " + std::string(to_string(g_.values[i].type.dtype)) +
                        ", which ONNX has no tensor type for (ONNX quantizes with QuantizeLinear / DequantizeLinear nodes)",
                    {}, V(i));
    name_values();
    model_fields();
    ExternalPlan plan = plan_external(g_, path_, opt_);
    initializers(plan);
    nodes();
    graph_io();
    check();
    write(plan);
  }

 private:
  // ONNX names every value once: unnamed or repeated names get a fresh one ("<name>_<id>").
  void name_values() {
    names_.resize(g_.values.size());
    std::unordered_set<std::string> taken;
    for (const Value& v : g_.values) taken.insert(v.name);
    std::unordered_set<std::string> used;
    for (std::size_t i = 0; i < g_.values.size(); ++i) {
      const Value& v = g_.values[i];
      if (get<bool>(v.attrs, keys::kAbsentOutput)) continue;
      std::string n = v.name;
      if (n.empty() || used.count(n)) {
        const std::string base = n.empty() ? "value" : n;
        n = base + "_" + std::to_string(i);
        for (int k = 0; taken.count(n) || used.count(n); ++k) n = base + "_" + std::to_string(i) + "_" + std::to_string(k);
      }
      used.insert(n);
      names_[i] = n;
      by_name_.emplace(n, ValueId(i));
    }
    taken_ = std::move(used);
  }

  void model_fields() {
    const AttrMap& md = g_.metadata;
    if (const auto* v = get<int64_t>(md, keys::kIrVersion)) m_.set_ir_version(*v);
    else m_.set_ir_version(kIrVersion);
    const auto* domains = get<std::vector<std::string>>(md, keys::kOpsetDomain);
    const auto* set = get<std::vector<bool>>(md, keys::kOpsetDomainSet);
    const auto* versions = get<std::vector<int64_t>>(md, keys::kOpsetVersion);
    bool have_default = false;
    if (domains && versions && domains->size() == versions->size()) {
      for (std::size_t i = 0; i < domains->size(); ++i) {
        auto* o = m_.add_opset_import();
        const bool dflt = (*domains)[i].empty() || (*domains)[i] == "ai.onnx";
        if (!set || i >= set->size() || (*set)[i] || !(*domains)[i].empty()) o->set_domain((*domains)[i]);
        o->set_version(dflt ? kOpset : (*versions)[i]);
        have_default = have_default || dflt;
      }
    }
    // A default-domain import when a node needs one (or the graph is new), never added to a
    // model that had none (ONNX's training tests import only ai.onnx.preview.training).
    bool need_default = !from_onnx_;
    for (const Node& n : g_.nodes) {
      const auto* d = get<std::string>(n.attrs, keys::kNodeDomain);
      need_default = need_default || !d || d->empty() || *d == "ai.onnx";
    }
    for (const Value& v : g_.values) need_default = need_default || v.attrs.count(keys::kConstantNode);
    if (!have_default && need_default) {
      auto* o = m_.add_opset_import();
      o->set_domain("");
      o->set_version(kOpset);
    }
    // Domains of native nodes that no import names (a graph from another format): version 1.
    for (const Node& n : g_.nodes)
      if (const auto* d = get<std::string>(n.attrs, keys::kNodeDomain); d && !d->empty() && *d != "ai.onnx") {
        bool known = false;
        for (const auto& o : m_.opset_import()) known = known || o.domain() == *d;
        if (!known) {
          auto* o = m_.add_opset_import();
          o->set_domain(*d);
          o->set_version(1);
        }
      }
    if (const auto* v = get<std::string>(md, keys::kProducerName)) m_.set_producer_name(*v);
    else if (!from_onnx_) m_.set_producer_name("nnbridge");
    if (const auto* v = get<std::string>(md, keys::kProducerVersion)) m_.set_producer_version(*v);
    if (const auto* v = get<std::string>(md, keys::kDomain)) m_.set_domain(*v);
    if (const auto* v = get<int64_t>(md, keys::kModelVersion)) m_.set_model_version(*v);
    if (const auto* v = get<std::string>(md, keys::kDocString)) m_.set_doc_string(*v);
    const auto* pk = get<std::vector<std::string>>(md, keys::kPropsKey);
    const auto* pv = get<std::vector<std::string>>(md, keys::kPropsValue);
    if (pk && pv && pk->size() == pv->size())
      for (std::size_t i = 0; i < pk->size(); ++i) {
        auto* p = m_.add_metadata_props();
        p->set_key((*pk)[i]);
        p->set_value((*pv)[i]);
      }
    auto* gr = m_.mutable_graph();
    if (const auto* v = get<std::string>(md, keys::kGraphName)) gr->set_name(*v);
    else if (!from_onnx_) gr->set_name("nnbridge");  // the checker wants a name; a file without one keeps none
    if (const auto* v = get<std::string>(md, keys::kGraphDocString)) gr->set_doc_string(*v);
  }

  void initializers(const ExternalPlan& plan) {
    auto* gr = m_.mutable_graph();
    for (std::size_t i = 0; i < g_.values.size(); ++i) {
      const Value& v = g_.values[i];
      if (!v.is_constant() || v.attrs.count(keys::kConstantNode)) continue;
      auto* t = gr->add_initializer();
      tensor(v, i, *t, plan);
    }
  }

  void tensor(const Value& v, std::size_t i, ::onnx::TensorProto& t, const ExternalPlan& plan) {
    if (auto it = plan.placed.find(ValueId(i)); it != plan.placed.end()) {
      Value header = v;
      header.name = names_[i];
      external_header(header, it->second, t);
    } else {
      Value named = v;
      named.name = names_[i];
      encode_tensor(named, t, V(i));
    }
  }

  ::onnx::NodeProto constant_node(std::size_t i) {
    const Value& v = g_.values[i];
    ::onnx::NodeProto n;
    n.set_op_type("Constant");
    n.add_output(names_[i]);
    if (const auto* s = get<std::string>(v.attrs, keys::kConstantNodeName)) n.set_name(*s);
    if (const auto* s = get<std::string>(v.attrs, keys::kConstantNodeDoc)) n.set_doc_string(*s);
    if (const auto* s = get<std::string>(v.attrs, keys::kConstantNodeDomain)) n.set_domain(*s);
    const std::string kind = get<std::string>(v.attrs, keys::kConstantAttr) ? *get<std::string>(v.attrs, keys::kConstantAttr) : "value";
    auto* a = n.add_attribute();
    a->set_name(kind);
    if (const auto* s = get<std::string>(v.attrs, keys::kAttrDocPrefix + kind)) a->set_doc_string(*s);
    const bool scalar = kind == "value_float" || kind == "value_int";
    const bool list = kind == "value_floats" || kind == "value_ints";
    const bool as_float = kind == "value_float" || kind == "value_floats";
    const bool shape_ok = scalar ? v.type.shape.empty() : v.type.shape.size() == 1;
    const bool dtype_ok = as_float ? v.type.dtype == DataType::Float32 : v.type.dtype == DataType::Int64;
    if ((scalar || list) && shape_ok && dtype_ok && !v.type.unknown_rank) {
      auto values = as_float ? constant_floats(v) : std::nullopt;
      auto ints = as_float ? std::nullopt : constant_ints(v);
      a->set_type(scalar ? (as_float ? ::onnx::AttributeProto::FLOAT : ::onnx::AttributeProto::INT)
                         : (as_float ? ::onnx::AttributeProto::FLOATS : ::onnx::AttributeProto::INTS));
      if (as_float && values) {
        if (scalar) a->set_f(float((*values)[0]));
        else for (double d : *values) a->add_floats(float(d));
      } else if (ints) {
        if (scalar) a->set_i((*ints)[0]);
        else for (int64_t d : *ints) a->add_ints(d);
      }
      return n;
    }
    a->set_name("value");
    a->set_type(::onnx::AttributeProto::TENSOR);
    Value named = v;
    named.name = names_[i];
    encode_tensor(named, *a->mutable_t(), V(i));
    if (const auto* s = get<std::string>(v.attrs, keys::kTensorName)) a->mutable_t()->set_name(*s);
    else a->mutable_t()->clear_name();
    return n;
  }

  void nodes() {
    NodeWriter w{g_, names_,
                 [this](const std::string& name) -> const Value* {
                   auto it = by_name_.find(name);
                   return it != by_name_.end() && g_.values[it->second].is_constant() ? &g_.values[it->second] : nullptr;
                 },
                 [this](const std::string& hint, ::onnx::TensorProto t) {
                   std::string n = hint;
                   for (int k = 1; taken_.count(n); ++k) n = hint + "_" + std::to_string(k);
                   taken_.insert(n);
                   t.set_name(n);
                   *m_.mutable_graph()->add_initializer() = std::move(t);
                   return n;
                 }};
    std::vector<std::size_t> order = node_order();
    std::vector<std::pair<int64_t, std::size_t>> consts;
    for (std::size_t i = 0; i < g_.values.size(); ++i)
      if (const auto* p = get<int64_t>(g_.values[i].attrs, keys::kConstantNode); p && g_.values[i].is_constant())
        consts.emplace_back(*p, i);
    std::stable_sort(consts.begin(), consts.end());
    auto* gr = m_.mutable_graph();
    std::size_t ci = 0, ri = 0;
    while (ri < order.size() || ci < consts.size()) {
      if (ci < consts.size() && (ri == order.size() || consts[ci].first <= gr->node_size())) {
        *gr->add_node() = constant_node(consts[ci++].second);
        continue;
      }
      const std::size_t i = order[ri++];
      const Node& n = g_.nodes[i];
      ::onnx::NodeProto p;
      if (!n.name.empty() || get<bool>(n.attrs, keys::kNameSet)) p.set_name(n.name);
      write_node(n, p, w, Nd(i));
      if (const auto* d = get<std::string>(n.attrs, keys::kNodeDocString)) p.set_doc_string(*d);
      *gr->add_node() = std::move(p);
    }
  }

  // The stored order when producers come first (ONNX requires it), else a topological one.
  std::vector<std::size_t> node_order() const {
    std::vector<bool> ready(g_.values.size(), false);
    for (std::size_t i = 0; i < g_.values.size(); ++i) ready[i] = g_.values[i].is_constant();
    for (ValueId id : g_.inputs) ready[id] = true;
    bool sorted = true;
    for (const Node& n : g_.nodes) {
      for (ValueId id : n.inputs) sorted = sorted && (id == kNoValue || (id < ready.size() && ready[id]));
      for (ValueId id : n.outputs) ready[id] = true;
    }
    if (!sorted) return topological_order(g_);
    std::vector<std::size_t> order(g_.nodes.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    return order;
  }

  ::onnx::ValueInfoProto info(ValueId id, const std::string& bytes_key) const {
    const Value& v = g_.values[id];
    ::onnx::ValueInfoProto out;
    if (const auto* b = get<Bytes>(v.attrs, bytes_key)) {
      if (out.ParseFromArray(b->data.data(), int(b->data.size())) && out.name() == v.name) {
        out.set_name(names_[id]);
        return out;
      }
    }
    out = v.is_constant() ? type_of_constant(v) : type_to_onnx(v);
    out.set_name(names_[id]);
    return out;
  }

  void graph_io() {
    auto* gr = m_.mutable_graph();
    // graph.input: initializers listed as inputs at their recorded places, the rest in order.
    std::vector<std::pair<int64_t, ValueId>> listed;
    for (std::size_t i = 0; i < g_.values.size(); ++i)
      if (const auto* k = get<int64_t>(g_.values[i].attrs, keys::kInputIndex); k && g_.values[i].is_constant())
        listed.emplace_back(*k, ValueId(i));
    std::stable_sort(listed.begin(), listed.end());
    const std::size_t total = g_.inputs.size() + listed.size();
    std::vector<std::optional<ValueId>> slots(total);
    std::vector<ValueId> late;
    for (auto [k, id] : listed) {
      if (k >= 0 && std::size_t(k) < total && !slots[std::size_t(k)]) slots[std::size_t(k)] = id;
      else late.push_back(id);
    }
    std::size_t next = 0;
    for (auto& s : slots) {
      if (s) continue;
      if (next < g_.inputs.size()) s = g_.inputs[next++];
      else if (!late.empty()) s = late.front(), late.erase(late.begin());
    }
    for (const auto& s : slots)
      if (s) {
        const Value& v = g_.values[*s];
        if (!v.is_constant() && v.type.dtype == DataType::Undefined && !v.attrs.count(keys::kElemTypeAbsent) && !from_onnx_)
          throw Error(ErrorId::DataType, "graph input '" + v.name + "' has no dtype, which ONNX needs", {},
                      "inputs");
        *gr->add_input() = info(*s, keys::kInputInfo);
      }
    for (ValueId id : g_.outputs) *gr->add_output() = info(id, keys::kOutputInfo);
    // graph.value_info: as read (by index), or for a new graph every intermediate with a dtype.
    std::vector<std::pair<int64_t, ValueId>> vi;
    if (from_onnx_) {
      for (std::size_t i = 0; i < g_.values.size(); ++i)
        if (const auto* k = get<int64_t>(g_.values[i].attrs, keys::kValueInfoIndex)) vi.emplace_back(*k, ValueId(i));
      std::stable_sort(vi.begin(), vi.end());
    } else {
      std::vector<bool> io(g_.values.size(), false);
      for (ValueId id : g_.inputs) io[id] = true;
      for (ValueId id : g_.outputs) io[id] = true;
      for (const Node& n : g_.nodes)
        for (ValueId id : n.outputs)
          if (!io[id] && !names_[id].empty() && g_.values[id].type.dtype != DataType::Undefined &&
              dtype_to_onnx(g_.values[id].type.dtype))
            vi.emplace_back(0, id);
    }
    for (auto [k, id] : vi) *gr->add_value_info() = info(id, keys::kSecondInfo);
  }

  // onnx::checker::check_model, then strict shape inference with type checks (what
  // onnx.checker.check_model(full_check=True) runs), on the model as it will be written.
  // Externally stored initializers are checked as graph inputs of their type (the checker
  // would look for their files, which are written only once the model passes).
  void check() {
    auto* gr = m_.mutable_graph();
    google::protobuf::RepeatedPtrField<::onnx::TensorProto> all;
    all.Swap(gr->mutable_initializer());
    std::vector<int> inline_at;  // inline initializers are moved (Swap), never copied
    std::unordered_set<std::string> listed;
    for (const auto& i : gr->input()) listed.insert(i.name());
    const auto inputs = gr->input(), outputs = gr->output();
    const auto value_info = gr->value_info();
    for (int i = 0; i < all.size(); ++i) {
      auto* t = all.Mutable(i);
      if (t->data_location() != ::onnx::TensorProto::EXTERNAL) {
        gr->add_initializer()->Swap(t);
        inline_at.push_back(i);
      } else if (!listed.count(t->name())) {
        auto* in = gr->add_input();
        in->set_name(t->name());
        auto* tt = in->mutable_type()->mutable_tensor_type();
        tt->set_elem_type(t->data_type());
        auto* shape = tt->mutable_shape();
        for (int64_t d : t->dims()) shape->add_dim()->set_dim_value(d);
      }
    }
    std::string failure;
    try {
      ::onnx::checker::check_model(m_);
      ::onnx::shape_inference::InferShapes(m_, ::onnx::OpSchemaRegistry::Instance(),
                                           ::onnx::ShapeInferenceOptions(true, 1, false));
    } catch (const std::exception& e) {
      failure = e.what();
      if (failure.empty()) failure = "(no message)";
    }
    *gr->mutable_input() = inputs;
    *gr->mutable_output() = outputs;
    *gr->mutable_value_info() = value_info;
    for (std::size_t k = 0; k < inline_at.size(); ++k) all.Mutable(inline_at[k])->Swap(gr->mutable_initializer(int(k)));
    gr->mutable_initializer()->Swap(&all);
    if (!failure.empty()) refuse(failure);
  }

  [[noreturn]] void refuse(const std::string& what) const {
    // Name the node the message is about ("... node name: X)" or "Name: X OpType"), if it has one.
    // Found by hand, not std::regex: a node name is the file's, any length (parser_message.h).
    std::string where, name;
    std::size_t from = std::string::npos;  // after the first "node name: " or "Name: "
    for (std::string_view key : {"node name: ", "Name: "})
      if (const std::size_t at = what.find(key); at != std::string::npos && (from == std::string::npos || at + key.size() < from))
        from = at + key.size();
    if (from != std::string::npos) {
      const std::size_t to = what.find_first_of(" )\n", from);
      name = what.substr(from, to == std::string::npos ? std::string::npos : to - from);
    }
    if (!name.empty()) {
      for (int i = 0; i < m_.graph().node_size(); ++i)
        if (m_.graph().node(i).name() == name) {
          where = "graph.node[" + std::to_string(i) + "]";
          break;
        }
    }
    throw Error(ErrorId::InvalidOther, "the written model would fail onnx::checker or strict shape inference, so nothing is written: " +
                                        what.substr(0, what.find("\n\n")),
                {}, where);
  }

  void write(const ExternalPlan& plan) {
    const std::size_t size = m_.ByteSizeLong();
    if (size > std::size_t(INT_MAX))
      throw Error(ErrorId::UnsupportedOther,
                  "the model would be " + std::to_string(size) +
                      " bytes, past protobuf's 2 GiB limit: write the weights as external data (-O onnx.external_data=true)");
    std::vector<std::byte> bytes(size);
    if (!m_.SerializeToArray(bytes.data(), int(size)))
      throw Error(ErrorId::InvalidOther, "protobuf cannot serialize the model");
    write_with_external(g_, path_, bytes, plan, opt_);
  }

  const Graph& g_;
  std::filesystem::path path_;
  const SaveOptions& opt_;
  bool from_onnx_ = false;
  std::vector<std::string> names_;
  std::unordered_map<std::string, ValueId> by_name_;
  std::unordered_set<std::string> taken_;
  ModelProto m_;
};

}  // namespace

void write_model(const Graph& g, const std::filesystem::path& path, const SaveOptions& options) {
  // Arm NN's forms (a graph read from an .armnn file) in ONNX's (nnbridge/rewrite.h): quantized
  // tensors as QDQ nodes (nnbridge/rewrite_qdq.h), NHWC ops between Transposes to and from NCHW, FullyConnected's input of rank > 2 reshaped to a matrix,
  // weights in an Arm NN layout permuted to OIHW, the Linear activation (Affine) as Mul and Add,
  // Gelu (ONNX Gelu-20, after opset 17) as its arithmetic, and the other ops opset 17 lacks as
  // ONNX operators (onnx_forms). The graph is copied only when one applies.
  auto armnn_form = [&](const Node& n) {
    const Attr* layout = n.attrs.count("data_layout") ? &n.attrs.at("data_layout") : nullptr;
    const bool nhwc = layout && layout->is<std::string>() && layout->get<std::string>() == "NHWC";
    const bool gemm_nd = n.op == "Gemm" && !n.inputs.empty() && n.inputs[0] < g.values.size() &&
                         g.values[n.inputs[0]].type.shape.size() > 2;
    static const std::set<std::string, std::less<>> kOnnxForms = {
        "Square", "Rsqrt", "ScaledTanh", "NotEqual", "SquaredDifference", "Stack", "ArgMax", "ArgMin", "ConstantOfShape",
        "InstanceNormalization", "LpNormalization", "LpPool", "StridedSlice", "SpaceToBatchND", "BatchToSpaceND",
        "ReverseV2", "ChannelShuffle"};
    const auto beta = n.attrs.find("beta");
    const bool softmax_beta = (n.op == "Softmax" || n.op == "LogSoftmax") && beta != n.attrs.end() && beta->second.is<double>() &&
                              beta->second.get<double>() != 1.0;
    return ((n.op == "Conv" || n.op == "ConvTranspose") && n.attrs.count("kernel_layout")) || n.op == "Affine" || nhwc ||
           gemm_nd || n.op == "Gelu" || softmax_beta || kOnnxForms.count(n.op);
  };
  const bool quantized = std::any_of(g.values.begin(), g.values.end(), [](const Value& v) { return is_quantized(v.type.dtype); });
  for (const Node& n : g.nodes)
    if (quantized || armnn_form(n)) {
      // Weights are permuted while still constants, before quantized tensors become QDQ nodes.
      Graph lowered = g;
      weights_as_oihw(lowered);
      quantized_as_qdq(lowered);
      nhwc_as_nchw(lowered);
      gemm_input_as_matrix(lowered);
      affine_as_mul_add(lowered);
      gelu_as_arithmetic(lowered);
      onnx_forms(lowered);
      Writer(lowered, path, options).run();
      return;
    }
  Writer(g, path, options).run();
}

}  // namespace nnbridge::formats::onnx
