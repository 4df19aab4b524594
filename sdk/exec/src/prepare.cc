// The shared prepare loop (nnbridge/exec/prepare.h).
#include "nnbridge/exec/prepare.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "nnbridge/error.h"
#include "nnbridge/exec/convert.h"
#include "nnbridge/exec/shape.h"
#include "nnbridge/order.h"
#include "nnbridge/prepare_check.h"

namespace nnbridge::exec {

std::string node_label(const Graph& g, std::size_t i) {
  const Node& n = g.nodes[i];
  return "node " + std::to_string(i) + " \"" + n.name + "\" (" + n.op + ")";
}

void run_foreign(const ForeignNode& f, std::span<const float* const> in, std::span<float* const> out) {
  TensorMap inputs;
  for (const ForeignNode::Port& p : f.inputs) {
    const std::size_t n = static_cast<std::size_t>(numel(p.type.shape));
    inputs[p.name] = HostTensor::owned(p.type, from_float(p.type, in[p.slot], n));
  }
  const TensorMap result = f.plan->run(inputs);
  for (const ForeignNode::Port& p : f.outputs) {
    const HostTensor& t = result.at(p.name);
    const std::vector<float> v = to_float(p.type, t.bytes().data(), t.element_count());
    std::copy(v.begin(), v.end(), out[p.slot]);
  }
}

std::vector<std::shared_ptr<const Backend>> fallback_backends(const BackendOptions& options, std::string_view self) {
  std::vector<std::shared_ptr<const Backend>> out;
  for (const std::string& name : options.fallback) {
    if (name == self) continue;
    auto b = find_backend(name);
    if (!b) {
      std::string names;
      for (const auto& r : all_backends()) names += (names.empty() ? "" : ", ") + r->name();
      throw Error(ErrorId::OptionValue, "fallback backend \"" + name + "\" is not registered (registered: " + names + ")");
    }
    out.push_back(std::move(b));
  }
  return out;
}

namespace {

// The graph of node `i` alone (types resolved), its values named "v<id>" after `work`'s ids.
struct Sub {
  Graph graph;
  ForeignNode ports;
};

Sub one_node_graph(const Graph& work, std::size_t i) {
  const Node& n = work.nodes[i];
  Sub s;
  s.graph.source_format = work.source_format;
  s.graph.metadata = work.metadata;
  std::map<ValueId, ValueId> map;
  auto add = [&](ValueId v, std::size_t slot, bool output) {
    if (v == kNoValue) return kNoValue;
    if (auto it = map.find(v); it != map.end()) return it->second;
    const ValueId id = static_cast<ValueId>(s.graph.values.size());
    s.graph.values.push_back(work.values[v]);
    Value& val = s.graph.values.back();
    val.name = "v" + std::to_string(v);
    map[v] = id;
    if (output) {
      s.graph.outputs.push_back(id);
      s.ports.outputs.push_back({val.name, slot, val.type});
    } else if (!val.constant) {
      s.graph.inputs.push_back(id);
      s.ports.inputs.push_back({val.name, slot, val.type});
    }
    return id;
  };
  Node node = n;
  for (std::size_t k = 0; k < node.inputs.size(); ++k) node.inputs[k] = add(node.inputs[k], k, false);
  for (std::size_t k = 0; k < node.outputs.size(); ++k) node.outputs[k] = add(node.outputs[k], k, true);
  s.graph.nodes.push_back(std::move(node));
  return s;
}

// Node i on the first backend of `list` that prepares it alone; the last refusal is rethrown.
std::shared_ptr<const ForeignNode> prepare_foreign(const Graph& work, std::size_t i, const BackendOptions& options,
                                                   const std::vector<std::shared_ptr<const Backend>>& list,
                                                   const std::string& why) {
  Sub sub = one_node_graph(work, i);
  for (std::size_t b = 0; b < list.size(); ++b) {
    BackendOptions opts = options;  // the caller's, whole: custom kernels, extensions, threads
    opts.fallback.clear();
    for (std::size_t r = b + 1; r < list.size(); ++r) opts.fallback.push_back(list[r]->name());
    try {
      auto f = std::make_shared<ForeignNode>(sub.ports);
      f->backend = list[b]->name();
      f->plan = list[b]->prepare(sub.graph, opts);
      return f;
    } catch (const Error& e) {
      const bool last = b + 1 == list.size();
      if (last || e.code() != ErrorCode::Unsupported)
        throw Error(e.id(), node_label(work, i) + " (" + why + ", on " + list[b]->name() + "): " + e.message(), {},
                    "nodes[" + std::to_string(i) + "]");
    }
  }
  throw Error(ErrorCode::Unsupported, node_label(work, i) + ": " + why);  // an empty list: not reached
}

// Constant folding of shape arithmetic (what exporters emit: Shape -> Gather -> Concat ->
// Reshape): a node whose inputs are all constants, or a Shape / Size / Rank whose input type is
// known (they read no data: ONNX Shape-15, Size-13), and whose outputs are small integer or bool
// tensors that are not graph outputs, is run once here on this backend (NodeBuilder::evaluate,
// else a one-node plan); its outputs become constants of `work`, so the schemas of its consumers
// infer from their values. Only for graphs of more than one node (the one-node graph a fold
// prepares is never folded again) and not for custom kernels. BackendOptions::fold_all_constants
// folds every node with constant inputs (not a graph output's producer), whatever its outputs.
// An Identity of a constant (what PyTorch's exporter writes for a weight that two nodes share)
// becomes that constant, sharing its bytes, whatever its size. Returns whether node i was folded.
constexpr int64_t kFoldMaxElements = 1 << 16;

bool fold_node(Graph& work, std::size_t i, const Graph& g, const BackendOptions& options, const std::string& self,
               NodeBuilder& builder, const NodeContext& ctx, std::vector<std::shared_ptr<const FloatConstant>>& constants) {
  const Node& n = work.nodes[i];
  if (builder.is_custom(work, i) || work.nodes.size() < 2 || n.outputs.empty()) return false;
  const bool reads_type_only = n.op == "Shape" || n.op == "Size" || n.op == "Rank";
  for (ValueId v : n.inputs)
    if (v != kNoValue && !work.values[v].constant && !reads_type_only) return false;
  for (ValueId v : n.outputs)
    if (std::find(g.outputs.begin(), g.outputs.end(), v) != g.outputs.end()) return false;
  if (n.op == "Identity" && n.inputs.size() == 1 && n.outputs.size() == 1 && n.inputs[0] != kNoValue) {
    const ValueId x = n.inputs[0], y = n.outputs[0];
    if (work.values[x].type.dtype == work.values[y].type.dtype && work.values[x].type.shape == work.values[y].type.shape &&
        work.values[x].type.quantization == work.values[y].type.quantization && work.values[y].type.fully_known()) {
      work.values[y].constant = work.values[x].constant;
      constants[y] = constants[x];
      return true;
    }
  }
  for (ValueId v : n.outputs) {
    const TensorType& t = work.values[v].type;
    if (!t.fully_known()) return false;
    if (options.fold_all_constants && !reads_type_only) continue;
    if (!(t.dtype == DataType::Int64 || t.dtype == DataType::Int32 || t.dtype == DataType::Bool) || t.quantization ||
        *t.element_count() > kFoldMaxElements)
      return false;
  }
  // On the builder: the node's kernel on float32 buffers, no graph or plan of its own.
  {
    std::vector<std::vector<float>> zeros;  // what Shape / Size / Rank are given: the type alone counts
    std::vector<const float*> in;
    for (std::size_t k = 0; k < n.inputs.size(); ++k) {
      const ValueId v = n.inputs[k];
      if (v == kNoValue) {
        in.push_back(nullptr);
      } else if (constants[v]) {
        in.push_back(constants[v]->data());
      } else {
        zeros.emplace_back(static_cast<std::size_t>(*work.values[v].type.element_count()));
        in.push_back(zeros.back().data());
      }
    }
    std::vector<std::vector<float>> results;
    std::vector<float*> out;
    results.reserve(n.outputs.size());
    for (ValueId v : n.outputs) {
      results.emplace_back(static_cast<std::size_t>(*work.values[v].type.element_count()));
      out.push_back(results.back().data());
    }
    bool done = false;
    try {
      done = builder.evaluate(work, i, ctx, in, out);
    } catch (const Error&) {
      return false;  // built as a step instead, where its error names the node (or it falls back)
    }
    if (done) {
      for (std::size_t k = 0; k < n.outputs.size(); ++k) {
        const ValueId v = n.outputs[k];
        const TensorType& t = work.values[v].type;
        work.values[v].constant = Buffer::owned(from_float(t, results[k].data(), results[k].size()));
        constants[v] = std::make_shared<const FloatConstant>(std::move(results[k]));
      }
      return true;
    }
  }
  auto backend = find_backend(self);
  if (!backend) return false;
  Sub sub = one_node_graph(work, i);
  for (ValueId id : sub.graph.inputs) {  // what Shape / Size / Rank read is the type alone
    Value& v = sub.graph.values[id];
    v.constant = Buffer::owned(std::vector<std::byte>(static_cast<std::size_t>(*v.type.byte_size())));
  }
  sub.graph.inputs.clear();
  BackendOptions opts = options;
  opts.fallback.clear();
  TensorMap out;
  try {
    out = backend->prepare(sub.graph, opts)->run({});
  } catch (const Error&) {
    return false;  // built as a step instead, where its error names the node (or it falls back)
  }
  for (const ForeignNode::Port& port : sub.ports.outputs) {
    const ValueId v = n.outputs[port.slot];
    const HostTensor& t = out.at(port.name);
    work.values[v].constant = Buffer::copy_of(t.bytes());
    constants[v] = std::make_shared<const FloatConstant>(FloatConstant::of(t.type(), *work.values[v].constant, t.element_count()));
  }
  return true;
}

[[noreturn]] void missing_data(const Graph& g, ValueId v, const std::string& label, const std::string& where) {
  if (auto key = g.values[v].attrs.find(kExternalDataKey); key != g.values[v].attrs.end() && key->second.is<std::string>()) {
    auto hint = g.metadata.find(kExternalDataHint);
    throw Error(ErrorId::DanglingReference,
                "constant \"" + g.values[v].name + "\" of " + label + " has no data: its bytes are the named data \"" +
                    key->second.get<std::string>() + "\", which was not loaded" +
                    (hint != g.metadata.end() && hint->second.is<std::string>() ? " (" + hint->second.get<std::string>() + ")" : ""),
                {}, where);
  }
  throw Error(ErrorId::DanglingReference, "input \"" + g.values[v].name + "\" of " + label +
                                      " has no data: it is not a graph input, a constant with data or a node's output",
              {}, where);
}

}  // namespace

PreparedGraph prepare_nodes(const Graph& g, const BackendOptions& options, std::string_view self, int threads,
                            NodeBuilder& builder) {
  auto ids_in_range = [&](const Node& n) {
    for (ValueId v : n.inputs)
      if (v != kNoValue && v >= g.values.size()) return false;
    for (ValueId v : n.outputs)
      if (v >= g.values.size()) return false;
    return true;
  };
  // What the checker calls an error (a stride of 0, a negative pad, a cycle, ...) is not run,
  // except on nodes a custom kernel or layer runs (their attributes are its author's).
  refuse_check_errors(g, [&](std::size_t i) { return ids_in_range(g.nodes[i]) && builder.is_custom(g, i); });
  const auto fallback = fallback_backends(options, self);
  for (ValueId id : g.inputs) {
    if (id >= g.values.size()) throw Error(ErrorId::DanglingReference, "graph input id out of range", {}, "inputs");
    const TensorType& t = g.values[id].type;
    if (!t.fully_known()) {
      // A dynamic dim (an exported batch size): known once the input is bound (input_bound.h).
      if (t.dtype != DataType::Undefined && !t.unknown_rank)
        throw NeedsValue("graph input \"" + g.values[id].name + "\" has an unknown dimension");
      throw Error(ErrorId::Feature, "graph input \"" + g.values[id].name + "\" has an unknown dimension or dtype");
    }
  }
  for (ValueId id : g.outputs)
    if (id >= g.values.size()) throw Error(ErrorId::DanglingReference, "graph output id out of range", {}, "outputs");
  // run() takes and gives tensors by name: two different graph inputs or outputs of one name
  // would be one tensor (check() only warns of a repeated value name).
  std::unordered_map<std::string_view, ValueId> io_names;
  auto unique_name = [&](ValueId id, const std::string& where) {
    auto [it, fresh] = io_names.emplace(g.values[id].name, id);
    if (!fresh && it->second != id)
      throw Error(ErrorId::InvalidOther,
                  "graph inputs and outputs are passed by name, and values[" + std::to_string(it->second) + "] and values[" +
                      std::to_string(id) + "] are both named \"" + g.values[id].name + "\"",
                  {}, where);
  };
  for (std::size_t j = 0; j < g.inputs.size(); ++j) unique_name(g.inputs[j], "inputs[" + std::to_string(j) + "]");
  for (std::size_t j = 0; j < g.outputs.size(); ++j) unique_name(g.outputs[j], "outputs[" + std::to_string(j) + "]");
  PreparedGraph p;
  p.work = g;  // types get resolved in place; constants are shared, not copied
  Graph& work = p.work;
  p.constants.resize(g.values.size());
  for (std::size_t v = 0; v < g.values.size(); ++v) {
    const Value& val = g.values[v];
    if (!val.constant) continue;
    if (!val.type.fully_known() || !val.type.byte_size() || static_cast<uint64_t>(*val.type.byte_size()) != val.constant->size())
      throw Error(ErrorId::Shape, "constant \"" + val.name + "\" does not match its type", {}, "values[" + std::to_string(v) + "]");
    p.constants[v] = std::make_shared<const FloatConstant>(
        FloatConstant::of(val.type, *val.constant, static_cast<std::size_t>(*val.type.element_count())));
  }
  // What a node may read: graph inputs, constants with data, earlier nodes' outputs. A value
  // with none of these (a VkGraph constant whose bytes live outside the file) is refused.
  std::vector<bool> ready(g.values.size(), false);
  for (ValueId id : g.inputs) ready[id] = true;
  for (std::size_t v = 0; v < g.values.size(); ++v) ready[v] = ready[v] || g.values[v].constant.has_value();
  const std::string self_name(self);
  // Steps are built in a stable topological order (the file's order need not be one: graph.h).
  for (const std::size_t i : topological_order(g)) {
    const Node& n = g.nodes[i];
    const std::string where = "nodes[" + std::to_string(i) + "]";
    const std::string label = node_label(g, i);
    for (ValueId v : n.inputs)
      if (v != kNoValue && v >= g.values.size()) throw Error(ErrorId::DanglingReference, "input id out of range in " + label, {}, where);
    for (ValueId v : n.outputs)
      if (v >= g.values.size()) throw Error(ErrorId::DanglingReference, "output id out of range in " + label, {}, where);
    for (ValueId v : n.inputs)
      if (v != kNoValue && !ready[v]) missing_data(g, v, label, where);
    for (ValueId v : n.outputs) ready[v] = true;

    const bool mine = builder.has_kernel(work, i);
    if (!mine && fallback.empty())
      throw Error(ErrorId::Feature,
                  "the " + self_name + " backend has no kernel for op " + n.op + " (node " + std::to_string(i) + " \"" + n.name +
                      "\")" + builder.no_kernel_note(work, i),
                  {}, where);
    // Types: the schema's inference, which must agree with every dim the file declares; the
    // declared type where inference leaves something unknown or has nothing to say. (Kernels
    // index buffers by these shapes, so a file cannot make them disagree.)
    std::optional<std::vector<TensorType>> inferred;
    std::string infer_error;
    NodeBuilder::Shapes own;
    if (mine) {
      try {
        own = builder.shapes(work, i);
      } catch (const Error& e) {
        throw Error(e.id(), label + ": " + e.message(), {}, where);
      }
    }
    if (own.own) {
      inferred = own.types;
    } else {
      try {
        inferred = infer_types(work, i);
      } catch (const Error& e) {
        infer_error = e.message();
      }
    }
    try {
      resolve_output_types(work, i, inferred, infer_error, label, where);
    } catch (const Error& e) {
      // An output shape that a non-constant input's values decide (Reshape's shape, NonZero's
      // count) is known once the inputs are bound (nnbridge/exec/input_bound.h).
      const bool reads_values = std::any_of(n.inputs.begin(), n.inputs.end(), [&](ValueId v) {
        return v != kNoValue && !work.values[v].constant;
      });
      if (e.code() == ErrorCode::Unsupported && reads_values)
        throw NeedsValue(e.message() + " (it depends on the values of inputs that are not constants)", where);
      throw;
    }
    if (!mine) {
      auto f = prepare_foreign(work, i, options, fallback, "no " + self_name + " kernel");
      p.placement.push_back({i, n.name, n.op, f->backend, {}, std::nullopt});
      builder.add_foreign(i, std::move(f));
      continue;
    }
    NodeContext ctx{n, find_schema(n.op), {}, {}, {}, threads, {}};
    for (ValueId v : n.inputs) {
      ctx.in.push_back(v == kNoValue ? TensorType{} : work.values[v].type);
      ctx.constants.push_back(v == kNoValue ? nullptr : p.constants[v].get());
      ctx.in_attrs.push_back(v == kNoValue ? nullptr : &g.values[v].attrs);
    }
    for (ValueId v : n.outputs) ctx.out.push_back(work.values[v].type);
    ctx.read_at_prepare_only = std::make_shared<std::vector<bool>>(n.inputs.size(), false);
    if (fold_node(work, i, g, options, self_name, builder, ctx, p.constants)) {
      p.placement.push_back({i, n.name, n.op, self_name, {}, std::nullopt});
      continue;
    }
    try {
      builder.build(work, i, ctx, label);
      p.placement.push_back({i, n.name, n.op, self_name, {}, std::nullopt});
    } catch (const Error& e) {
      // With a fallback list, a kernel that fails to build (Backend) or refuses this node's form
      // (Unsupported, e.g. Conv weights that are not constants) runs on the next backend instead
      // (TFLite's allow_automatic_fallback_on_compilation_error).
      const bool needs_value = dynamic_cast<const NeedsValue*>(&e) != nullptr;
      const bool can_fall_back = !fallback.empty() && !needs_value &&
                                 (e.code() == ErrorCode::Backend || e.code() == ErrorCode::Unsupported);
      if (needs_value) throw NeedsValue(e.message().rfind(label, 0) == 0 ? e.message() : label + ": " + e.message(), where);
      if (!can_fall_back) {
        if (e.code() == ErrorCode::Backend || e.message().rfind(label, 0) == 0)  // already names the node
          throw Error(e.id(), e.message(), e.file(), e.where().empty() ? where : e.where());
        const std::string note = e.code() == ErrorCode::Unsupported ? builder.no_kernel_note(work, i) : std::string();
        throw Error(e.id(), label + ": " + e.message() + note, {}, where);
      }
      auto f = prepare_foreign(work, i, options, fallback, "the " + self_name + " kernel failed: " + e.message());
      p.placement.push_back({i, n.name, n.op, f->backend, {}, std::nullopt});
      builder.add_foreign(i, std::move(f));
    }
  }
  for (ValueId id : g.outputs)
    if (!work.values[id].type.fully_known())
      throw Error(ErrorId::Feature, "graph output \"" + g.values[id].name + "\" has no known shape");
  return p;
}

}  // namespace nnbridge::exec
