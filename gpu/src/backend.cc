// The "opencl" backend: prepare() opens the device and runs the shared prepare loop
// (nnbridge/exec/prepare.h: types, float32 constants, order, which backend runs each node) with a
// builder that makes a Launch per node (ops.h, custom_layers.h) or keeps the one-node plan of a
// fallback backend (BackendOptions::fallback; opencl.fallback=cpu adds "cpu"); it then uploads
// the constants. run() uploads the inputs, enqueues the nodes in order on the device's in-order
// queue, rounds each non-float32 node output to its dtype (exec's round_trip, as cpu does) and
// reads the graph outputs back.
#include <algorithm>
#include <cstring>
#include <mutex>

#include "nnbridge/exec/convert.h"
#include "nnbridge/gpu.h"
#include "nnbridge/exec/input_bound.h"
#include "nnbridge/exec/option_keys.h"
#include "nnbridge/exec/prepare.h"
#include "custom_layers.h"
#include "ops.h"

namespace nnbridge::gpu {

namespace {

using exec::numel;

std::size_t count_of(const TensorType& t) { return static_cast<std::size_t>(numel(t.shape)); }

struct Step {
  std::vector<ValueId> inputs, outputs;  // kNoValue kept
  Launch launch;
  std::shared_ptr<const exec::ForeignNode> foreign;  // set: a fallback backend runs the node
};

class GpuPlan final : public Plan {
 public:
  std::shared_ptr<const Device> dev;
  DeviceInfo device_info;            // what plan_device() reports (gpu.h)
  std::vector<TensorType> types;     // per value
  std::vector<cl::Buffer> buffers;   // per value (null where no node touches it)
  cl::Buffer dummy;                  // stands for absent optional inputs
  std::vector<Step> steps;
  std::vector<ValueId> graph_inputs, graph_outputs;
  std::vector<std::pair<std::string, TensorType>> in_types, out_types;
  std::vector<NodePlacement> nodes;
  mutable std::mutex mutex;  // run() shares the device buffers

  const std::vector<NodePlacement>& placement() const override { return nodes; }
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
        throw Error(ErrorId::MissingInput, "\"" + name + "\" is not a graph input");
    }
    std::lock_guard lock(mutex);
    try {
      for (std::size_t k = 0; k < graph_inputs.size(); ++k) {
        const auto& [name, type] = in_types[k];
        auto it = inputs.find(name);
        if (it == inputs.end()) throw Error(ErrorId::MissingInput, "no tensor given for graph input \"" + name + "\"");
        const HostTensor& t = it->second;
        if (t.shape() != type.shape) throw Error(ErrorId::Shape, "graph input \"" + name + "\" has the wrong shape");
        if (t.dtype() != type.dtype && t.dtype() != storage_type(type.dtype))
          throw Error(ErrorId::TypeMismatch, "graph input \"" + name + "\" is " + std::string(to_string(t.dtype())) +
                                              ", the graph needs " + std::string(to_string(type.dtype)));
        write(graph_inputs[k], exec::to_float(type, t.bytes().data(), t.element_count()).data());
      }
      std::vector<cl::Buffer> ins, outs;
      for (const Step& st : steps) {
        if (st.foreign) {
          run_foreign(st);
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
            exec::round_trip(types[v], host.data(), host.size());
            write(v, host.data());
          }
      }
      TensorMap result;
      for (std::size_t k = 0; k < graph_outputs.size(); ++k) {
        const ValueId id = graph_outputs[k];
        std::vector<float> host = read(id);
        result[out_types[k].first] = HostTensor::owned(types[id], exec::from_float(types[id], host.data(), host.size()));
      }
      return result;
    } catch (const cl::Error& e) {
      throw Error(ErrorId::Execution, std::string("opencl: ") + e.what() + " failed with " + std::to_string(e.err()) +
                                          " on " + dev->label);
    }
  }

  // The node's inputs read back to the host, run by the fallback backend's plan, its outputs
  // written to the device.
  void run_foreign(const Step& st) const {
    const exec::ForeignNode& f = *st.foreign;
    std::vector<std::vector<float>> host_in(st.inputs.size()), host_out(st.outputs.size());
    std::vector<const float*> in(st.inputs.size(), nullptr);
    std::vector<float*> out(st.outputs.size(), nullptr);
    for (const exec::ForeignNode::Port& p : f.inputs) {
      host_in[p.slot] = read(st.inputs[p.slot]);
      in[p.slot] = host_in[p.slot].data();
    }
    for (const exec::ForeignNode::Port& p : f.outputs) {
      host_out[p.slot].assign(count_of(types[st.outputs[p.slot]]), 0.0f);
      out[p.slot] = host_out[p.slot].data();
    }
    exec::run_foreign(f, in, out);
    for (const exec::ForeignNode::Port& p : f.outputs) write(st.outputs[p.slot], host_out[p.slot].data());
  }
};

// The opencl side of the shared prepare loop: a Launch per node, from an OpenVINO custom layer
// (before any built-in kernel) or the op table, or a node a fallback backend runs.
class GpuBuilder final : public exec::NodeBuilder {
 public:
  GpuBuilder(const Graph& g, const BackendOptions& options, GpuPlan& plan) : g_(g), options_(options), plan_(plan) {}

  bool has_kernel(const Graph& work, std::size_t i) override {
    const Node& n = work.nodes[i];
    return has_custom_layer(options_, n) || ops().count(n.op) > 0;
  }
  bool is_custom(const Graph& g, std::size_t i) override { return has_custom_layer(options_, g.nodes[i]); }
  void build(const Graph& work, std::size_t i, const exec::NodeContext& ctx, const std::string& label) override {
    const Node& n = g_.nodes[i];
    const Device& dev = *plan_.dev;
    Launch launch = has_custom_layer(options_, n) ? custom_layer_launch(options_, work, i, dev, label)
                                                  : ops().at(n.op)(OpContext{ctx, dev, label});
    plan_.steps.push_back(Step{n.inputs, n.outputs, std::move(launch), {}});
  }
  void add_foreign(std::size_t i, std::shared_ptr<const exec::ForeignNode> f) override {
    const Node& n = g_.nodes[i];
    plan_.steps.push_back(Step{n.inputs, n.outputs, {}, std::move(f)});
  }
  std::string no_kernel_note(const Graph& work, std::size_t i) override {
    const Node& n = work.nodes[i];
    // The name a SimpleGPU layer must carry to run this node (custom_layers.h has_custom_layer).
    const std::string layer = n.op == "armnn.StandIn" ? n.name : n.op.rfind("vk.", 0) == 0 ? n.op.substr(3) : n.op;
    return " (an OpenVINO custom layer named \"" + layer +
           "\" runs it: --custom-layers FILE.xml; or --fallback cpu (C++: the backend option "
           "opencl.fallback=cpu or BackendOptions::fallback; Python: fallback=\"cpu\") runs such nodes on cpu)";
  }

 private:
  const Graph& g_;
  const BackendOptions& options_;
  GpuPlan& plan_;
};

class GpuBackend final : public Backend {
 public:
  std::string name() const override { return "opencl"; }

  std::unique_ptr<Plan> prepare(const Graph& g, const BackendOptions& options) const override {
    std::string device_spec, fallback = "none", cache_dir;
    exec::check_option_keys(options, "opencl", {"device", "fallback", "cache_dir"});
    for (const auto& [key, value] : options.options) {
      if (key == "opencl.device") device_spec = value;
      else if (key == "opencl.fallback") fallback = value;
      else if (key == "opencl.cache_dir") cache_dir = value;
    }
    if (fallback != "none" && fallback != "cpu")
      throw Error(ErrorId::OptionValue, "opencl.fallback must be none or cpu, not \"" + fallback + "\"");
    auto plan = std::make_unique<GpuPlan>();
    // One choice (opencl.device's rule), then that device opened by its index.
    plan->device_info = select_device(device_spec);
    const std::string index = std::to_string(plan->device_info.index);
    if (cache_dir.empty()) {
      plan->dev = open_device(index);
    } else {  // the shared device's handles, with this plan's cache directory
      auto dev = std::make_shared<Device>(*open_device(index));
      dev->cache_dir = cache_dir;
      plan->dev = std::move(dev);
    }
    BackendOptions opts = options;  // opencl.fallback=cpu: "cpu" ends the fallback list
    if (fallback == "cpu" && std::find(opts.fallback.begin(), opts.fallback.end(), "cpu") == opts.fallback.end())
      opts.fallback.push_back("cpu");
    try {
      build(*plan, g, opts);
    } catch (const exec::NeedsValue&) {
      // Shapes or operands the input values decide: planned per run (nnbridge/exec/input_bound.h).
      if (g.inputs.empty()) throw;
      return exec::input_bound_plan(backend(), g, options);
    } catch (const cl::Error& e) {
      throw Error(ErrorId::Device, std::string("opencl: ") + e.what() + " failed with " + std::to_string(e.err()) + " on " +
                                          plan->dev->label);
    }
    return plan;
  }

 private:
  void build(GpuPlan& plan, const Graph& g, const BackendOptions& options) const {
    const Device& dev = *plan.dev;
    GpuBuilder builder(g, options, plan);
    // Kernels read no thread count: the device runs them.
    exec::PreparedGraph prepared = exec::prepare_nodes(g, options, name(), 1, builder);
    const Graph& work = prepared.work;
    const auto& constants = prepared.constants;
    plan.nodes = std::move(prepared.placement);
    plan.types.resize(g.values.size());
    for (std::size_t v = 0; v < g.values.size(); ++v) plan.types[v] = work.values[v].type;
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

std::optional<DeviceInfo> plan_device(const Plan& plan) {
  if (const auto* p = dynamic_cast<const GpuPlan*>(&plan)) return p->device_info;
  return std::nullopt;
}

std::vector<std::string> supported_ops() {
  std::vector<std::string> out;
  for (const auto& [name, f] : ops()) out.push_back(name);
  return out;
}

}  // namespace nnbridge::gpu
