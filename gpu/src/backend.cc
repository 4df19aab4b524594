// The "opencl" backend: prepare() opens the device, resolves every type (as cpu does), uploads
// constants as float32 and builds a Launch per node (ops.h), or, where allowed, a one-node cpu
// plan (opencl.fallback=cpu); run() uploads the inputs, enqueues the nodes in order on the
// device's in-order queue, rounds each non-float32 node output to its dtype (cpu's round_trip)
// and reads the graph outputs back.
#include <algorithm>
#include <cstring>
#include <mutex>

#include "convert.h"  // cpu_ref/src
#include "nnbridge/cpu_ref.h"
#include "nnbridge/gpu.h"
#include "nnbridge/order.h"
#include "nnbridge/prepare_check.h"
#include "custom_layers.h"
#include "ops.h"

namespace nnbridge::gpu {

namespace {

using cpu_ref::numel;

std::size_t count_of(const TensorType& t) { return static_cast<std::size_t>(numel(t.shape)); }

// A node that runs on the cpu backend: its plan over a graph of just that node.
struct Fallback {
  std::unique_ptr<Plan> plan;
  std::vector<std::pair<std::string, ValueId>> inputs;   // sub-graph input name -> value
  std::vector<std::pair<std::string, ValueId>> outputs;  // sub-graph output name -> value
};

struct Step {
  std::vector<ValueId> inputs, outputs;  // kNoValue kept
  Launch launch;
  std::unique_ptr<Fallback> fallback;
};

class GpuPlan final : public Plan {
 public:
  std::shared_ptr<const Device> dev;
  std::vector<TensorType> types;     // per value
  std::vector<cl::Buffer> buffers;   // per value (null where no node touches it)
  cl::Buffer dummy;                  // stands for absent optional inputs
  std::vector<Step> steps;
  std::vector<ValueId> graph_inputs, graph_outputs;
  std::vector<std::pair<std::string, TensorType>> in_types, out_types;
  mutable std::mutex mutex;  // run() shares the device buffers

  const std::vector<std::pair<std::string, TensorType>>& input_types() const override { return in_types; }
  const std::vector<std::pair<std::string, TensorType>>& output_types() const override { return out_types; }

  std::vector<float> read(ValueId v) const {
    std::vector<float> host(count_of(types[v]));
    if (!host.empty()) dev->queue.enqueueReadBuffer(buffers[v], CL_TRUE, 0, host.size() * sizeof(float), host.data());
    return host;
  }
  void write(ValueId v, const float* data) const {
    const std::size_t n = count_of(types[v]);
    if (n) dev->queue.enqueueWriteBuffer(buffers[v], CL_TRUE, 0, n * sizeof(float), data);
  }

  TensorMap run(const TensorMap& inputs) const override {
    for (const auto& input : inputs) {
      const std::string& name = input.first;  // not a structured binding: clang 14 cannot capture those
      if (std::none_of(in_types.begin(), in_types.end(), [&](const auto& p) { return p.first == name; }))
        throw Error(ErrorCode::Invalid, "\"" + name + "\" is not a graph input");
    }
    std::lock_guard lock(mutex);
    try {
      for (std::size_t k = 0; k < graph_inputs.size(); ++k) {
        const auto& [name, type] = in_types[k];
        auto it = inputs.find(name);
        if (it == inputs.end()) throw Error(ErrorCode::Invalid, "no tensor given for graph input \"" + name + "\"");
        const HostTensor& t = it->second;
        if (t.shape() != type.shape) throw Error(ErrorCode::Invalid, "graph input \"" + name + "\" has the wrong shape");
        if (t.dtype() != type.dtype && t.dtype() != storage_type(type.dtype))
          throw Error(ErrorCode::Invalid, "graph input \"" + name + "\" is " + std::string(to_string(t.dtype())) +
                                              ", the graph needs " + std::string(to_string(type.dtype)));
        write(graph_inputs[k], cpu_ref::to_float(type, t.bytes().data(), t.element_count()).data());
      }
      std::vector<cl::Buffer> ins, outs;
      for (const Step& st : steps) {
        if (st.fallback) {
          run_fallback(*st.fallback);
          continue;
        }
        ins.clear();
        outs.clear();
        for (ValueId v : st.inputs) ins.push_back(v == kNoValue ? dummy : buffers[v]);
        for (ValueId v : st.outputs) outs.push_back(buffers[v]);
        st.launch(*dev, ins, outs);
        for (ValueId v : st.outputs)
          if (types[v].dtype != DataType::Float32) {  // the node's dtype: cpu's rounding rule
            std::vector<float> host = read(v);
            cpu_ref::round_trip(types[v], host.data(), host.size());
            write(v, host.data());
          }
      }
      TensorMap result;
      for (std::size_t k = 0; k < graph_outputs.size(); ++k) {
        const ValueId id = graph_outputs[k];
        std::vector<float> host = read(id);
        result[out_types[k].first] = HostTensor::owned(types[id], cpu_ref::from_float(types[id], host.data(), host.size()));
      }
      return result;
    } catch (const cl::Error& e) {
      throw Error(ErrorCode::Backend, std::string("opencl: ") + e.what() + " failed with " + std::to_string(e.err()) +
                                          " on " + dev->label);
    }
  }

  void run_fallback(const Fallback& f) const {
    TensorMap in;
    for (const auto& [name, v] : f.inputs) {
      std::vector<float> host = read(v);
      in[name] = HostTensor::owned(types[v], cpu_ref::from_float(types[v], host.data(), host.size()));
    }
    TensorMap out = f.plan->run(in);
    for (const auto& [name, v] : f.outputs) {
      const HostTensor& t = out.at(name);
      write(v, cpu_ref::to_float(types[v], t.bytes().data(), t.element_count()).data());
    }
  }
};

// The schema's inference merged with what the file declares (core's rule, as on cpu).
void resolve_outputs(Graph& work, std::size_t i, const std::string& label, const std::string& where) {
  std::optional<std::vector<TensorType>> inferred;
  std::string infer_error;
  try {
    inferred = infer_types(work, i);
  } catch (const Error& e) {
    infer_error = e.message();
  }
  resolve_output_types(work, i, inferred, infer_error, label, where);
}

// A graph of node `i` alone (types resolved), prepared on cpu.
std::unique_ptr<Fallback> make_fallback(const Graph& work, std::size_t i, const BackendOptions& options) {
  const Node& n = work.nodes[i];
  Graph sub;
  sub.source_format = work.source_format;
  sub.metadata = work.metadata;
  auto f = std::make_unique<Fallback>();
  std::map<ValueId, ValueId> map;
  auto add = [&](ValueId v, bool output) {
    if (v == kNoValue) return kNoValue;
    if (auto it = map.find(v); it != map.end()) return it->second;
    const ValueId id = static_cast<ValueId>(sub.values.size());
    sub.values.push_back(work.values[v]);
    sub.values.back().name = "v" + std::to_string(v);
    map[v] = id;
    if (output) {
      sub.outputs.push_back(id);
      f->outputs.emplace_back(sub.values.back().name, v);
    } else if (!work.values[v].constant) {
      sub.inputs.push_back(id);
      f->inputs.emplace_back(sub.values.back().name, v);
    }
    return id;
  };
  Node node = n;
  for (ValueId& v : node.inputs) v = add(v, false);
  for (ValueId& v : node.outputs) v = add(v, true);
  sub.nodes.push_back(std::move(node));
  BackendOptions cpu_options;
  cpu_options.threads = options.threads;
  f->plan = cpu_ref::backend()->prepare(sub, cpu_options);
  return f;
}

class GpuBackend final : public Backend {
 public:
  std::string name() const override { return "opencl"; }

  std::unique_ptr<Plan> prepare(const Graph& g, const BackendOptions& options) const override {
    // What the checker calls an error (a stride of 0, a negative pad, a cycle, ...) is not run,
    // except on nodes an OpenVINO custom layer runs (their attributes are the layer's).
    refuse_check_errors(g, [&](std::size_t i) { return has_custom_layer(options, g.nodes[i]); });
    std::string device_spec, fallback = "none", cache_dir;
    for (const auto& [key, value] : options.options) {
      if (key.rfind("opencl.", 0) != 0) continue;  // another backend's
      if (key == "opencl.device") device_spec = value;
      else if (key == "opencl.fallback") fallback = value;
      else if (key == "opencl.cache_dir") cache_dir = value;
      else throw Error(ErrorCode::Invalid, "unknown option \"" + key +
                                               "\" (the opencl backend knows opencl.device, opencl.fallback, opencl.cache_dir)");
    }
    if (fallback != "none" && fallback != "cpu")
      throw Error(ErrorCode::Invalid, "opencl.fallback must be none or cpu, not \"" + fallback + "\"");
    auto plan = std::make_unique<GpuPlan>();
    if (cache_dir.empty()) {
      plan->dev = open_device(device_spec);
    } else {  // the shared device's handles, with this plan's cache directory
      auto dev = std::make_shared<Device>(*open_device(device_spec));
      dev->cache_dir = cache_dir;
      plan->dev = std::move(dev);
    }
    try {
      build(*plan, g, options, fallback == "cpu");
    } catch (const cl::Error& e) {
      throw Error(ErrorCode::Backend, std::string("opencl: ") + e.what() + " failed with " + std::to_string(e.err()) + " on " +
                                          plan->dev->label);
    }
    return plan;
  }

 private:
  void build(GpuPlan& plan, const Graph& g, const BackendOptions& options, bool allow_fallback) const {
    const Device& dev = *plan.dev;
    Graph work = g;
    const bool from_armnn = g.source_format == "armnn";
    for (ValueId id : g.inputs) {
      if (id >= g.values.size()) throw Error(ErrorCode::Invalid, "graph input id out of range", {}, "inputs");
      if (!g.values[id].type.fully_known())
        throw Error(ErrorCode::Unsupported, "graph input \"" + g.values[id].name + "\" has an unknown dimension or dtype");
    }
    for (ValueId id : g.outputs)
      if (id >= g.values.size()) throw Error(ErrorCode::Invalid, "graph output id out of range", {}, "outputs");
    std::vector<std::shared_ptr<const std::vector<float>>> constants(g.values.size());
    for (std::size_t v = 0; v < g.values.size(); ++v) {
      const Value& val = g.values[v];
      if (!val.constant) continue;
      if (!val.type.fully_known() || !val.type.byte_size() || static_cast<uint64_t>(*val.type.byte_size()) != val.constant->size())
        throw Error(ErrorCode::Invalid, "constant \"" + val.name + "\" does not match its type", {}, "values[" + std::to_string(v) + "]");
      constants[v] = std::make_shared<const std::vector<float>>(
          cpu_ref::to_float(val.type, val.constant->data(), static_cast<std::size_t>(*val.type.element_count())));
    }
    std::vector<bool> ready(g.values.size(), false);
    for (ValueId id : g.inputs) ready[id] = true;
    for (std::size_t v = 0; v < g.values.size(); ++v) ready[v] = ready[v] || g.values[v].constant.has_value();
    const OpTable& table = ops();
    // Steps run in a stable topological order (the file's order need not be one: graph.h).
    for (const std::size_t i : topological_order(g)) {
      const Node& n = g.nodes[i];
      const std::string where = "nodes[" + std::to_string(i) + "]";
      const std::string label = "node " + std::to_string(i) + " \"" + n.name + "\" (" + n.op + ")";
      for (ValueId v : n.inputs)
        if (v != kNoValue && (v >= g.values.size() || !ready[v]))
          throw Error(ErrorCode::Invalid, "an input of " + label + " is out of range or has no data", {}, where);
      for (ValueId v : n.outputs) {
        if (v >= g.values.size()) throw Error(ErrorCode::Invalid, "output id out of range in " + label, {}, where);
        ready[v] = true;
      }
      if (has_custom_layer(options, n)) {  // OpenVINO custom layer (custom_layers.h): before any built-in kernel
        resolve_outputs(work, i, label, where);
        try {
          plan.steps.push_back(Step{n.inputs, n.outputs, custom_layer_launch(options, work, i, dev, label), {}});
        } catch (const Error& e) {
          throw Error(e.code(), e.message(), e.file(), e.where().empty() ? where : e.where());
        }
        continue;
      }
      auto it = table.find(n.op);
      if (it == table.end() && !allow_fallback)
        throw Error(ErrorCode::Unsupported, "the opencl backend has no kernel for op " + n.op + " (node " + std::to_string(i) + " \"" + n.name + "\")" +
                                                " (opencl.fallback=cpu runs such nodes on cpu)", {}, where);
      resolve_outputs(work, i, label, where);
      Step st{n.inputs, n.outputs, {}, {}};
      if (it == table.end()) {
        try {
          st.fallback = make_fallback(work, i, options);
        } catch (const Error& e) {
          throw Error(e.code(), label + " (on cpu, opencl.fallback=cpu): " + e.message(), {}, where);
        }
      } else {
        cpu_ref::KernelContext ctx{n, find_schema(n.op), {}, {}, {}, from_armnn, 1, {}};
        for (ValueId v : n.inputs) {
          ctx.in.push_back(v == kNoValue ? TensorType{} : work.values[v].type);
          ctx.constants.push_back(v == kNoValue ? nullptr : constants[v].get());
          ctx.in_attrs.push_back(v == kNoValue ? nullptr : &g.values[v].attrs);
        }
        for (ValueId v : n.outputs) ctx.out.push_back(work.values[v].type);
        try {
          st.launch = it->second(OpContext{ctx, dev, label});
        } catch (const Error& e) {
          // With opencl.fallback=cpu a kernel that fails to build (Backend) or refuses this node's
          // form (Unsupported, e.g. Conv weights that are not constants) runs on cpu instead
          // (TFLite's allow_automatic_fallback_on_compilation_error).
          const bool can_fall_back = e.code() == ErrorCode::Backend || e.code() == ErrorCode::Unsupported;
          if (!allow_fallback || !can_fall_back) {
            if (e.code() == ErrorCode::Backend) throw;  // a build failure already names the node
            const bool hint = e.code() == ErrorCode::Unsupported && !allow_fallback;
            throw Error(e.code(), label + ": " + e.message() + (hint ? " (opencl.fallback=cpu runs such nodes on cpu)" : ""),
                        {}, where);
          }
          try {
            st.fallback = make_fallback(work, i, options);
          } catch (const Error& f) {
            throw Error(f.code(), label + " (on cpu after the opencl kernel failed: " + e.message() + "): " + f.message(), {}, where);
          }
        }
      }
      plan.steps.push_back(std::move(st));
    }
    plan.types.resize(g.values.size());
    for (std::size_t v = 0; v < g.values.size(); ++v) plan.types[v] = work.values[v].type;
    for (ValueId id : g.outputs)
      if (!plan.types[id].fully_known())
        throw Error(ErrorCode::Unsupported, "graph output \"" + g.values[id].name + "\" has no known shape");
    // One buffer per value a node or the caller touches; constants uploaded now.
    plan.buffers.resize(g.values.size());
    auto need = [&](ValueId v) {
      if (v == kNoValue || plan.buffers[v]()) return;
      const std::size_t n = std::max<std::size_t>(count_of(plan.types[v]), 1);
      if (constants[v] && !constants[v]->empty())
        plan.buffers[v] = cl::Buffer(dev.context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                                     const_cast<float*>(constants[v]->data()));
      else
        plan.buffers[v] = cl::Buffer(dev.context, CL_MEM_READ_WRITE, n * sizeof(float));
    };
    for (ValueId id : g.inputs) need(id);
    for (ValueId id : g.outputs) need(id);
    for (const Step& st : plan.steps) {
      for (ValueId v : st.inputs) need(v);
      for (ValueId v : st.outputs) need(v);
    }
    plan.dummy = cl::Buffer(dev.context, CL_MEM_READ_WRITE, sizeof(float));
    plan.graph_inputs = g.inputs;
    plan.graph_outputs = g.outputs;
    for (ValueId id : g.inputs) plan.in_types.emplace_back(g.values[id].name, plan.types[id]);
    for (ValueId id : g.outputs) plan.out_types.emplace_back(g.values[id].name, plan.types[id]);
  }
};

}  // namespace

std::shared_ptr<const Backend> backend() {
  static const std::shared_ptr<const Backend> b = std::make_shared<GpuBackend>();
  return b;
}

void register_backend() { nnbridge::register_backend(backend()); }

std::vector<std::string> supported_ops() {
  std::vector<std::string> out;
  for (const auto& [name, f] : ops()) out.push_back(name);
  return out;
}

}  // namespace nnbridge::gpu
