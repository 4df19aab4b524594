// Reading a ModelProto into the IR (the mapping is documented in formats/onnx.h).
//
// Values are made in this order: initializers (graph.initializer order), graph inputs that are
// not initializers, then node outputs in node order (a Constant node's output is a constant
// value where its node was). The writer relies on that order to write initializers back in
// theirs.
#include <algorithm>
#include <charconv>
#include <climits>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>

#include "adapt.h"
#include "attrs.h"
#include "convert.h"
#include "nnbridge/error.h"
#include "slim.h"
#include "types.h"

namespace nnbridge::formats::onnx {

namespace {

using ::onnx::ModelProto;
using ::onnx::NodeProto;

[[noreturn]] void fail(ErrorId id, const std::string& where, const std::string& msg) { throw Error(id, msg, {}, where); }

std::string N(int i) { return "graph.node[" + std::to_string(i) + "]"; }

uint64_t option(const LoadOptions& o, const std::string& key, uint64_t def, uint64_t max) {
  auto it = o.options.find(key);
  if (it == o.options.end()) return def;
  uint64_t v = 0;
  auto [end, ec] = std::from_chars(it->second.data(), it->second.data() + it->second.size(), v);
  if (ec != std::errc() || end != it->second.data() + it->second.size() || v == 0 || v > max)
    throw Error(ErrorId::OptionValue,
                "reader option " + key + " must be an integer from 1 to " + std::to_string(max) + ", not '" + it->second + "'");
  return v;
}

bool default_domain(const std::string& d) { return d.empty() || d == "ai.onnx"; }

std::string bytes_of(const google::protobuf::Message& m) { return m.SerializeAsString(); }
Attr as_bytes(const std::string& s) { return Attr(Bytes{std::vector<uint8_t>(s.begin(), s.end())}); }

class Reader {
 public:
  Reader(const Source& src, const LoadOptions& o) : src_(src) {
    max_size_ = option(o, "onnx.max_size", INT_MAX, INT_MAX);
    max_nodes_ = option(o, "onnx.max_nodes", 10'000'000, UINT32_MAX);
    max_tensors_ = option(o, "onnx.max_tensors", 10'000'000, UINT32_MAX);
    if (!src.path.empty()) ext_.folder = src.path.parent_path().empty() ? "." : src.path.parent_path();
    ext_.file = src.file;
  }

  Graph run() {
    parse();
    read_model_fields();
    read_graph();
    return std::move(g_);
  }

 private:
  void parse() {
    if (src_.bytes.size() > max_size_)
      fail(ErrorId::IoTooLarge, "",
           "the input is " + std::to_string(src_.bytes.size()) + " bytes, over the limit of " + std::to_string(max_size_) +
               " (reader option onnx.max_size; ONNX keeps weights past 2 GiB in external data files)");
    auto m = std::make_shared<ModelProto>();
    // The initializers' large raw_data stay in the file (src_.owner keeps it), not copied by the
    // parse into the ModelProto's strings (slim.h).
    std::optional<SlimModel> slim;
    if (src_.owner) slim = slim_model(src_.bytes, kSlimBytes);
    const void* bytes = slim ? static_cast<const void*>(slim->bytes.data()) : src_.bytes.data();
    const std::size_t size = slim ? slim->bytes.size() : src_.bytes.size();
    if (slim) raw_data_ = std::move(slim->raw_data);
    google::protobuf::io::ArrayInputStream in(bytes, int(size));
    google::protobuf::io::CodedInputStream coded(&in);
    coded.SetTotalBytesLimit(INT_MAX);
    if (!m->ParseFromCodedStream(&coded) || !coded.ConsumedEntireMessage())
      fail(ErrorId::VerifyFailed, "", "not an ONNX ModelProto: protobuf cannot parse it (truncated, or not an ONNX file)");
    if (!m->has_graph())
      fail(ErrorId::BadIdentifier, "graph", "not an ONNX model: the ModelProto has no graph (truncated, or not an ONNX file)");
    if (auto u = first_unknown_field(*m, ""); !u.empty())
      fail(ErrorId::Version, u.substr(0, u.find(':')),
           "a field ONNX 1.12 does not define (" + u.substr(u.find(':') + 2) + "): written by a newer ONNX, or damaged");
    // ONNX's IR (IR.md, onnx::checker's check_model): every model states its IR version; from
    // IR version 3 on a model must import the operator sets its nodes come from (without
    // opset_import no opset says what they mean), and before it a model imports none and its
    // operators are opset 1's, which the converter below takes to opset 17 (the model is
    // declared IR version 3 for it: the first that can say so).
    if (m->ir_version() <= 0)
      fail(ErrorId::InvalidOther, "ir_version",
           "the model has no IR version (onnx::checker: \"The model does not have an ir_version set properly\")");
    if (m->ir_version() < 3 && m->opset_import_size() == 0) {
      m->set_ir_version(3);
      auto* o = m->add_opset_import();
      o->set_domain("");
      o->set_version(1);
    }
    if (m->ir_version() >= 3 && m->opset_import_size() == 0)
      fail(ErrorId::InvalidOther, "opset_import",
           "the model has IR version " + std::to_string(m->ir_version()) +
               " and no opset_import: from IR version 3 on ONNX requires one (onnx::checker: \"model with IR version >= 3 "
               "must specify opset_import for ONNX\")");
    if (m->functions_size()) fail(ErrorId::Feature, "functions", "model-local functions have no nnbridge form");
    if (m->training_info_size()) fail(ErrorId::Feature, "training_info", "training information has no nnbridge form");
    const auto& gr = m->graph();
    if (gr.sparse_initializer_size())
      fail(ErrorId::Feature, "graph.sparse_initializer", "sparse initializers have no nnbridge form");
    if (gr.quantization_annotation_size())
      fail(ErrorId::Feature, "graph.quantization_annotation", "quantization annotations have no nnbridge form");
    if (uint64_t(gr.node_size()) > max_nodes_)
      fail(ErrorId::ResourceLimit, "graph.node",
           std::to_string(gr.node_size()) + " nodes, over the limit of " + std::to_string(max_nodes_) + " (reader option onnx.max_nodes)");
    if (uint64_t(gr.initializer_size()) > max_tensors_)
      fail(ErrorId::ResourceLimit, "graph.initializer",
           std::to_string(gr.initializer_size()) + " initializers, over the limit of " + std::to_string(max_tensors_) +
               " (reader option onnx.max_tensors)");
    model_ = to_opset17(std::move(m), src_.path);
  }

  void read_model_fields() {
    const ModelProto& m = *model_;
    auto& md = g_.metadata;
    if (m.has_ir_version()) md[keys::kIrVersion] = Attr(int64_t(m.ir_version()));
    if (m.opset_import_size()) {
      std::vector<std::string> domains;
      std::vector<bool> set;
      std::vector<int64_t> versions;
      for (const auto& o : m.opset_import()) {
        domains.push_back(o.domain());
        set.push_back(o.has_domain());
        versions.push_back(o.version());
      }
      md[keys::kOpsetDomain] = Attr(domains);
      md[keys::kOpsetDomainSet] = Attr(set);
      md[keys::kOpsetVersion] = Attr(versions);
    }
    if (m.has_producer_name()) md[keys::kProducerName] = Attr(m.producer_name());
    if (m.has_producer_version()) md[keys::kProducerVersion] = Attr(m.producer_version());
    if (m.has_domain()) md[keys::kDomain] = Attr(m.domain());
    if (m.has_model_version()) md[keys::kModelVersion] = Attr(int64_t(m.model_version()));
    if (m.has_doc_string()) md[keys::kDocString] = Attr(m.doc_string());
    if (m.metadata_props_size()) {
      std::vector<std::string> k, v;
      for (const auto& p : m.metadata_props()) {
        k.push_back(p.key());
        v.push_back(p.value());
      }
      md[keys::kPropsKey] = Attr(k);
      md[keys::kPropsValue] = Attr(v);
    }
    if (m.graph().has_name()) md[keys::kGraphName] = Attr(m.graph().name());
    if (m.graph().has_doc_string()) md[keys::kGraphDocString] = Attr(m.graph().doc_string());
    g_.source_format = "onnx";
  }

  ValueId add(Value v, const std::string& where) {
    if (!v.name.empty()) {
      auto [it, fresh] = by_name_.emplace(v.name, ValueId(g_.values.size()));
      if (!fresh) fail(ErrorId::DuplicateName, where, "'" + v.name + "' is defined twice (ONNX names each value once)");
    }
    typed_.push_back(false);
    return g_.add_value(std::move(v));
  }

  ValueId lookup(const std::string& name, const std::string& where, const std::string& what) const {
    auto it = by_name_.find(name);
    if (it == by_name_.end()) fail(ErrorId::DanglingReference, where, what + " names '" + name + "', which no input, initializer or node defines");
    return it->second;
  }

  // A second ValueInfoProto for a value whose type comes from elsewhere: kept only when it says
  // something the derived one does not.
  void second_info(ValueId id, const ::onnx::ValueInfoProto& info, const std::string& key, const std::string& where) {
    Value& v = g_.values[id];
    const auto derived = v.is_constant() ? type_of_constant(v) : type_to_onnx(v);
    if (bytes_of(derived) == bytes_of(info)) return;
    const Attr mine = as_bytes(bytes_of(info));
    if (auto it = v.attrs.find(key); it != v.attrs.end() && !(it->second == mine))
      fail(ErrorId::Feature, where, "'" + v.name + "' is listed twice with different types");
    v.attrs[key] = mine;
  }

  void read_graph() {
    const auto& gr = model_->graph();
    const std::shared_ptr<const void> owner = model_;
    for (int i = 0; i < gr.initializer_size(); ++i) {
      const auto& t = gr.initializer(i);
      const std::string where = "graph.initializer[" + std::to_string(i) + "]";
      if (t.name().empty()) fail(ErrorId::AttributeValue, where + ".name", "an initializer needs a name");
      std::optional<std::span<const std::byte>> raw;
      if (t.has_raw_data() && t.raw_data().size() == 1)  // slim_model's placeholder
        if (auto it = raw_data_.find(t.name()); it != raw_data_.end()) raw = it->second;
      DecodedTensor d = decode_tensor(t, raw ? src_.owner : owner, ext_, where, raw);
      Value v{t.name(), std::move(d.type), std::move(d.data), std::move(d.attrs)};
      ValueId id = add(std::move(v), where);
      typed_[id] = true;
    }
    for (int i = 0; i < gr.input_size(); ++i) {
      const auto& info = gr.input(i);
      const std::string where = "graph.input[" + std::to_string(i) + "]";
      if (info.name().empty()) fail(ErrorId::AttributeValue, where + ".name", "a graph input needs a name");
      if (auto it = by_name_.find(info.name()); it != by_name_.end()) {
        // ONNX: an initializer of the same name is the input's default value (IR < 4 lists
        // every initializer as an input). The IR holds it as the constant it is.
        Value& v = g_.values[it->second];
        if (!v.is_constant() || v.attrs.count(keys::kInputIndex))
          fail(ErrorId::DuplicateName, where, "'" + info.name() + "' is listed twice as a graph input");
        v.attrs[keys::kInputIndex] = Attr(int64_t(i));
        const auto derived = type_of_constant(v);
        if (bytes_of(derived) != bytes_of(info)) v.attrs[keys::kInputInfo] = as_bytes(bytes_of(info));
        continue;
      }
      Value v;
      v.name = info.name();
      type_from_onnx(info, v, where);
      ValueId id = add(std::move(v), where);
      typed_[id] = true;
      g_.inputs.push_back(id);
    }
    // Nodes, first pass: outputs (and Constant nodes as constants), so that inputs may name
    // values defined by later nodes (the IR allows any order; the checker reports cycles).
    std::vector<int> kept;
    std::size_t tensors = std::size_t(gr.initializer_size());
    for (int i = 0; i < gr.node_size(); ++i) {
      const NodeProto& n = gr.node(i);
      if (default_domain(n.domain()) && n.op_type() == "Constant") {
        if (++tensors > max_tensors_)
          fail(ErrorId::ResourceLimit, N(i), "more tensors than the limit of " + std::to_string(max_tensors_) + " (reader option onnx.max_tensors)");
        ValueId id = add(constant_node(n, i, owner), N(i) + ".output[0]");
        typed_[id] = true;
        continue;
      }
      kept.push_back(i);
      outputs_.emplace_back();
      int last = n.output_size();
      while (last > 0 && n.output(last - 1).empty()) --last;
      for (int j = 0; j < last; ++j) {
        Value v;
        v.name = n.output(j);
        v.type.unknown_rank = true;
        if (v.name.empty()) v.attrs[keys::kAbsentOutput] = Attr(true);
        outputs_.back().push_back(add(std::move(v), N(i) + ".output[" + std::to_string(j) + "]"));
      }
    }
    std::map<ValueId, std::string> output_entry;  // each output value's first ValueInfo, serialized
    for (int i = 0; i < gr.output_size(); ++i) {
      const auto& info = gr.output(i);
      const std::string where = "graph.output[" + std::to_string(i) + "]";
      ValueId id = lookup(info.name(), where, "the graph output");
      // One value listed twice as a graph output keeps one type: the IR (and so the writer)
      // holds one ValueInfo per output value.
      if (auto [it, first] = output_entry.emplace(id, bytes_of(info)); !first && it->second != bytes_of(info))
        fail(ErrorId::Feature, where, "'" + info.name() + "' is listed twice as a graph output with different types");
      if (!typed_[id]) {
        type_from_onnx(info, g_.values[id], where);
        typed_[id] = true;
      } else {
        second_info(id, info, keys::kOutputInfo, where);
      }
      g_.outputs.push_back(id);
    }
    for (int i = 0; i < gr.value_info_size(); ++i) {
      const auto& info = gr.value_info(i);
      const std::string where = "graph.value_info[" + std::to_string(i) + "]";
      ValueId id = lookup(info.name(), where, "the value_info entry");
      Value& v = g_.values[id];
      if (v.attrs.count(keys::kValueInfoIndex))
        fail(ErrorId::Feature, where, "a second value_info entry for '" + v.name + "'");
      v.attrs[keys::kValueInfoIndex] = Attr(int64_t(i));
      if (!typed_[id]) {
        type_from_onnx(info, v, where);
        typed_[id] = true;
      } else {
        second_info(id, info, keys::kSecondInfo, where);
      }
    }
    for (std::size_t k = 0; k < kept.size(); ++k) read_node(kept[k], outputs_[k]);
  }

  Value constant_node(const NodeProto& n, int i, const std::shared_ptr<const void>& owner) {
    const std::string where = N(i);
    if (n.input_size() != 0 || n.output_size() != 1 || n.attribute_size() != 1 || n.output(0).empty())
      fail(ErrorId::Arity, where, "a Constant node has no input, one named output and one attribute");
    const auto& a = n.attribute(0);
    const std::string at = where + ".attribute[0]";
    Value v;
    v.name = n.output(0);
    const std::string& k = a.name();
    if (k == "value" && a.type() == ::onnx::AttributeProto::TENSOR) {
      DecodedTensor d = decode_tensor(a.t(), owner, ext_, at + ".t");
      v.type = std::move(d.type);
      v.constant = std::move(d.data);
      v.attrs = std::move(d.attrs);
      if (a.t().has_name()) v.attrs[keys::kTensorName] = Attr(a.t().name());
    } else if ((k == "value_float" && a.type() == ::onnx::AttributeProto::FLOAT) ||
               (k == "value_floats" && a.type() == ::onnx::AttributeProto::FLOATS)) {
      std::vector<float> f = k == "value_float" ? std::vector<float>{a.f()} : std::vector<float>(a.floats().begin(), a.floats().end());
      v.type.dtype = DataType::Float32;
      if (k == "value_floats") v.type.shape = {int64_t(f.size())};
      v.constant = Buffer::copy_of(std::as_bytes(std::span(f)));
    } else if ((k == "value_int" && a.type() == ::onnx::AttributeProto::INT) ||
               (k == "value_ints" && a.type() == ::onnx::AttributeProto::INTS)) {
      std::vector<int64_t> x = k == "value_int" ? std::vector<int64_t>{a.i()} : std::vector<int64_t>(a.ints().begin(), a.ints().end());
      v.type.dtype = DataType::Int64;
      if (k == "value_ints") v.type.shape = {int64_t(x.size())};
      v.constant = Buffer::copy_of(std::as_bytes(std::span(x)));
    } else if (k == "value_string" || k == "value_strings") {
      fail(ErrorId::DataType, at, "string tensors have no nnbridge dtype (Constant " + k + ")");
    } else if (k == "sparse_value") {
      fail(ErrorId::Feature, at, "sparse tensors have no nnbridge form (Constant sparse_value)");
    } else {
      fail(ErrorId::AttributeValue, at, "a Constant node's attribute is value, value_float(s), value_int(s) or value_string(s), not '" + k + "'");
    }
    if (a.has_doc_string()) v.attrs[keys::kAttrDocPrefix + k] = Attr(a.doc_string());
    v.attrs[keys::kConstantNode] = Attr(int64_t(i));
    v.attrs[keys::kConstantAttr] = Attr(k);
    if (n.has_name()) v.attrs[keys::kConstantNodeName] = Attr(n.name());
    if (n.has_doc_string()) v.attrs[keys::kConstantNodeDoc] = Attr(n.doc_string());
    if (n.has_domain()) v.attrs[keys::kConstantNodeDomain] = Attr(n.domain());
    return v;
  }

  void read_node(int i, const std::vector<ValueId>& outputs) {
    const NodeProto& p = model_->graph().node(i);
    const std::string where = N(i);
    Node n;
    n.name = p.name();
    if (p.has_name() && p.name().empty()) n.attrs[keys::kNameSet] = Attr(true);
    if (p.has_domain()) n.attrs[keys::kNodeDomain] = Attr(p.domain());
    if (p.has_doc_string()) n.attrs[keys::kNodeDocString] = Attr(p.doc_string());
    for (int j = 0; j < p.input_size(); ++j)
      n.inputs.push_back(p.input(j).empty() ? kNoValue
                                            : lookup(p.input(j), where + ".input[" + std::to_string(j) + "]", "the input"));
    n.outputs = outputs;
    if (int trailing = p.output_size() - int(outputs.size()); trailing > 0)
      n.attrs[keys::kTrailingAbsent] = Attr(int64_t(trailing));
    OnnxAttrs attrs;
    std::vector<std::string> order;
    for (int j = 0; j < p.attribute_size(); ++j) {
      const auto& a = p.attribute(j);
      const std::string at = where + ".attribute[" + std::to_string(j) + "]";
      if (a.name().empty()) fail(ErrorId::AttributeValue, at + ".name", "an attribute needs a name");
      if (a.name().find('.') != std::string::npos)
        fail(ErrorId::NoForm, at + ".name", "attribute name '" + a.name() + "' has a dot, which nnbridge keeps for format namespaces");
      if (std::find(order.begin(), order.end(), a.name()) != order.end())
        fail(ErrorId::DuplicateName, at + ".name", "attribute '" + a.name() + "' is given twice");
      order.push_back(a.name());
      attrs.push_back({a.name(), attr_from_onnx(a, at)});
      if (a.has_doc_string()) n.attrs[keys::kAttrDocPrefix + a.name()] = Attr(a.doc_string());
    }
    if (!std::is_sorted(order.begin(), order.end())) n.attrs[keys::kAttrOrder] = Attr(order);
    const bool canonical = default_domain(p.domain()) && to_canonical(p.op_type(), attrs, n, g_, where);
    if (!canonical) to_native(p.op_type(), attrs, n);
    g_.add_node(std::move(n));
  }

  const Source& src_;
  uint64_t max_size_, max_nodes_, max_tensors_;
  ExternalData ext_;
  // The graph's initializers whose raw_data slim_model left in the file, by name.
  std::unordered_map<std::string, std::span<const std::byte>> raw_data_;
  std::shared_ptr<ModelProto> model_;
  Graph g_;
  std::unordered_map<std::string, ValueId> by_name_;
  std::vector<bool> typed_;  ///< per value: its type came from a ValueInfoProto or its data
  std::vector<std::vector<ValueId>> outputs_;
};

}  // namespace

Graph read_model(const Source& src, const LoadOptions& options) { return Reader(src, options).run(); }

}  // namespace nnbridge::formats::onnx
