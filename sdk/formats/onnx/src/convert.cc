// Models of another opset: ONNX's version converter takes them to opset 17 before the reader
// maps them (what it cannot hold is refused first, since the converter drops it silently).
#include "convert.h"

#include <unordered_map>
#include <unordered_set>

#include "attrs.h"
#include "nnbridge/error.h"
#include "onnx/checker.h"
#include "onnx/defs/schema.h"
#include "onnx/shape_inference/implementation.h"
#include "onnx/version_converter/convert.h"
#include "types.h"

namespace nnbridge::formats::onnx {

namespace {

using ::onnx::ModelProto;
using ::onnx::NodeProto;

[[noreturn]] void fail(ErrorId id, const std::string& where, const std::string& msg) { throw Error(id, msg, {}, where); }
bool default_domain(const std::string& d) { return d.empty() || d == "ai.onnx"; }
std::string N(int i) { return "graph.node[" + std::to_string(i) + "]"; }


// The first node that ONNX's converter fails on alone (its exceptions rarely name one): each
// node of the default domain is converted as a one-node model, inputs typed as `m` infers them.
std::string failing_node(const ModelProto& m) {
  const auto& gr = m.graph();
  std::unordered_map<std::string, const ::onnx::ValueInfoProto*> types;
  for (const auto* list : {&gr.input(), &gr.value_info(), &gr.output()})
    for (const auto& vi : *list) types.emplace(vi.name(), &vi);
  std::unordered_map<std::string, const ::onnx::TensorProto*> inits;
  for (const auto& t : gr.initializer()) inits.emplace(t.name(), &t);
  for (int i = 0; i < gr.node_size(); ++i) {
    const NodeProto& n = gr.node(i);
    if (!default_domain(n.domain())) continue;
    ModelProto one;
    one.set_ir_version(m.ir_version());
    *one.mutable_opset_import() = m.opset_import();
    auto* g = one.mutable_graph();
    g->set_name("one");
    *g->add_node() = n;
    for (const auto& in : n.input()) {
      if (in.empty()) continue;
      if (auto t = inits.find(in); t != inits.end()) *g->add_initializer() = *t->second;
      if (auto t = types.find(in); t != types.end()) *g->add_input() = *t->second;
      else if (!inits.count(in)) g->add_input()->set_name(in);
    }
    for (const auto& out : n.output()) {
      if (out.empty()) continue;
      if (auto t = types.find(out); t != types.end()) *g->add_output() = *t->second;
      else g->add_output()->set_name(out);
    }
    try {
      (void)::onnx::version_conversion::ConvertVersion(one, int(kOpset));
    } catch (const std::exception&) {
      return " (at graph.node[" + std::to_string(i) + "], " + n.op_type() + (n.name().empty() ? "" : " '" + n.name() + "'") + ")";
    }
  }
  return "";
}

// The first node outside the ai.onnx domain, described: ONNX 1.12's version converter has
// adapters for ai.onnx operators only and fails on any other (with a bare std::out_of_range).
std::string custom_domain_node(const ModelProto& m) {
  const auto& gr = m.graph();
  for (int i = 0; i < gr.node_size(); ++i)
    if (!default_domain(gr.node(i).domain()))
      return " (at graph.node[" + std::to_string(i) + "], " + gr.node(i).op_type() + " in domain '" + gr.node(i).domain() +
             "': the converter converts ai.onnx operators only; export the model at opset 17)";
  return "";
}

// A node of the default domain whose operator ONNX 1.12 does not define at the model's opset.
// One ONNX defines from a later opset on: the model contradicts itself, Error(Invalid). One ONNX
// defines at no opset (a custom operator left in ai.onnx): onnx::checker calls that invalid too,
// but for nnbridge it is an operator it cannot convert or run, as the same operator is in an
// opset-17 model (it reads as the native onnx.<op_type>, which every backend refuses):
// Error(Unsupported). Both name the node.
void refuse_unknown_operators(const ::onnx::GraphProto& gr, int64_t version) {
  for (int i = 0; i < gr.node_size(); ++i) {
    const NodeProto& n = gr.node(i);
    if (!default_domain(n.domain()) || ::onnx::OpSchemaRegistry::Schema(n.op_type(), int(version), ""))
      continue;
    // An operator of a later opset than the model declares: the model contradicts itself.
    if (const auto* later = ::onnx::OpSchemaRegistry::Schema(n.op_type(), ""))
      fail(ErrorId::InvalidOther, N(i),
           "op_type " + n.op_type() + " is an ai.onnx operator from opset " + std::to_string(later->SinceVersion()) +
               " on, and the model imports opset " + std::to_string(version));
    fail(ErrorId::UnknownOp, N(i),
         "op_type " + n.op_type() + (n.name().empty() ? "" : " (node '" + n.name() + "')") +
             " is no ai.onnx operator of opset " + std::to_string(version) +
             " that ONNX 1.12 knows, so the model cannot be converted to opset 17 (a custom operator belongs in its "
             "own domain)");
  }
}

// What read_graph would refuse, checked on the model before ONNX's converter rewrites it.
void refuse_unsupported(const ::onnx::GraphProto& gr) {
  auto infos = [](const auto& list, const char* field) {
    for (int i = 0; i < list.size(); ++i) {
      Value v;
      type_from_onnx(list.Get(i), v, std::string("graph.") + field + "[" + std::to_string(i) + "]");
    }
  };
  infos(gr.input(), "input");
  infos(gr.output(), "output");
  infos(gr.value_info(), "value_info");
  for (int i = 0; i < gr.initializer_size(); ++i) {
    const int32_t dt = gr.initializer(i).data_type();
    if (!dtype_from_onnx(dt) || dt == 0)
      fail(ErrorId::DataType, "graph.initializer[" + std::to_string(i) + "].data_type",
           dt == ::onnx::TensorProto::STRING ? "string tensors have no nnbridge dtype"
                                             : "data_type " + onnx_type_name(dt) + " has no nnbridge dtype");
  }
  for (int i = 0; i < gr.node_size(); ++i)
    for (int j = 0; j < gr.node(i).attribute_size(); ++j) {
      (void)attr_from_onnx(gr.node(i).attribute(j), N(i) + ".attribute[" + std::to_string(j) + "]");
    }
  // Names that resolve (ONNX's converter crashes on a graph output no node produces, which
  // onnx::checker lets pass).
  std::unordered_set<std::string> defined;
  for (const auto& i : gr.input()) defined.insert(i.name());
  for (const auto& t : gr.initializer()) defined.insert(t.name());
  for (const auto& n : gr.node())
    for (const auto& o : n.output()) defined.insert(o);
  auto need = [&](const std::string& name, const std::string& where) {
    if (!defined.count(name))
      fail(ErrorId::DanglingReference, where, "names '" + name + "', which no input, initializer or node defines");
  };
  for (int i = 0; i < gr.node_size(); ++i)
    for (int j = 0; j < gr.node(i).input_size(); ++j)
      if (!gr.node(i).input(j).empty()) need(gr.node(i).input(j), N(i) + ".input[" + std::to_string(j) + "]");
  for (int i = 0; i < gr.output_size(); ++i) need(gr.output(i).name(), "graph.output[" + std::to_string(i) + "]");
  for (int i = 0; i < gr.value_info_size(); ++i) need(gr.value_info(i).name(), "graph.value_info[" + std::to_string(i) + "]");
}

std::string first_line(const std::string& s) { return s.substr(0, s.find('\n')); }

// Initializers over kHeldBytes, held aside while shape inference and the converter run: both
// copy the whole model, data included (the converter's IR holds every tensor as an
// onnx::Tensor, then writes them back), which took resnet18's 45 MB half a second. Each one's
// place holds a stub of its name, dims and data_type marked as external data, which both read
// as such (the converter keeps no external data, and to_opset17 puts the tensors back by name);
// small ones stay, since shape inference reads the values of shape and axes inputs. (onnx::
// checker, which runs before, reads the model in place and looks for external files.)
constexpr std::size_t kHeldBytes = 4096;
constexpr const char* kHeldLocation = "nnbridge-held-in-memory";

std::unordered_map<std::string, ::onnx::TensorProto> hold_large_initializers(ModelProto& m) {
  std::unordered_map<std::string, int> names;  // a name given twice (the checker refuses it) stays in place
  for (const auto& t : m.graph().initializer()) ++names[t.name()];
  std::unordered_map<std::string, ::onnx::TensorProto> held;
  for (auto& t : *m.mutable_graph()->mutable_initializer()) {
    if (names[t.name()] != 1 || t.data_location() == ::onnx::TensorProto::EXTERNAL || t.ByteSizeLong() <= kHeldBytes) continue;
    ::onnx::TensorProto stub;
    stub.set_name(t.name());
    *stub.mutable_dims() = t.dims();
    stub.set_data_type(t.data_type());
    stub.set_data_location(::onnx::TensorProto::EXTERNAL);
    auto* where = stub.add_external_data();
    where->set_key("location");
    where->set_value(kHeldLocation);
    held[t.name()].Swap(&t);
    t.Swap(&stub);
  }
  return held;
}

// The held tensors back into `m`'s initializers of the same name.
void put_back(ModelProto& m, std::unordered_map<std::string, ::onnx::TensorProto>& held) {
  for (auto& t : *m.mutable_graph()->mutable_initializer())
    if (auto it = held.find(t.name()); it != held.end()) {
      t.Swap(&it->second);
      held.erase(it);
    }
}

}  // namespace

std::shared_ptr<ModelProto> to_opset17(std::shared_ptr<ModelProto> m, const std::filesystem::path& path) {
  std::optional<int64_t> version;
  for (const auto& o : m->opset_import())
    if (default_domain(o.domain())) version = o.version();
  if (!version || *version == kOpset) return m;
  refuse_unsupported(m->graph());  // the converter drops what it does not know (optional types)
  refuse_unknown_operators(m->graph(), *version);
  bool external = false;
  for (const auto& t : m->graph().initializer()) external = external || t.data_location() == ::onnx::TensorProto::EXTERNAL;
  // The source's external-data references, before any initializer is held (the converter's IR
  // keeps none: they are put back by name at the end).
  std::unordered_map<std::string, ::onnx::TensorProto> outside;
  for (const auto& t : m->graph().initializer())
    if (t.data_location() == ::onnx::TensorProto::EXTERNAL) outside.emplace(t.name(), t);
  try {
    // The checker finds external data files relative to the model's folder: give it the file.
    if (external && !path.empty()) ::onnx::checker::check_model(path.string());
    else ::onnx::checker::check_model(*m);
  } catch (const std::exception& e) {
    fail(ErrorId::InvalidOther, "", std::string("the opset-") + std::to_string(*version) +
                                     " model fails onnx::checker, so it cannot be converted to opset 17: " + first_line(e.what()));
  }
  // The converter's adapters need shapes (IR 3 files carry none): infer them first, then keep
  // only the value_info entries the file had. Both on the model without its large tensors.
  std::unordered_map<std::string, ::onnx::TensorProto> held = hold_large_initializers(*m);
  ModelProto inferred = *m;
  try {
    ::onnx::shape_inference::InferShapes(inferred);
  } catch (const std::exception&) {
    inferred = *m;
  }
  std::unordered_set<std::string> had;
  for (const auto& vi : m->graph().value_info()) had.insert(vi.name());
  ModelProto converted;
  try {
    converted = ::onnx::version_conversion::ConvertVersion(inferred, int(kOpset));
  } catch (const std::exception& e) {
    std::string at = failing_node(inferred), custom;
    if (at.empty()) custom = custom_domain_node(inferred);
    fail(ErrorId::Version, "opset_import",
         "ONNX's version converter cannot convert this opset-" + std::to_string(*version) + " model to opset 17" +
             (custom.empty() ? at + ": " + first_line(e.what()) : custom));
  }
  // The converter's IR keeps no external data references: put the source's TensorProtos back,
  // and the held ones (moved, not copied).
  put_back(converted, held);
  for (auto& t : *converted.mutable_graph()->mutable_initializer())
    if (auto it = outside.find(t.name()); it != outside.end()) t = it->second;
  auto* vis = converted.mutable_graph()->mutable_value_info();
  for (int i = vis->size(); i-- > 0;)
    if (!had.count(vis->Get(i).name())) vis->DeleteSubrange(i, 1);
  if (!converted.has_ir_version() || converted.ir_version() < kIrVersion) converted.set_ir_version(kIrVersion);
  return std::make_shared<ModelProto>(std::move(converted));
}

}  // namespace nnbridge::formats::onnx
