// Running a SimpleGPU custom layer for one node: the GPU plugin's CreateCustomOp and
// custom_primitive rules (OpenVINO intel_gpu plugin/ops/custom.cpp, graph/impls/ocl/
// custom_primitive.cpp) on this backend's buffers. Every tensor here is float32 in C order
// without padding; a <Tensor> asking for another layout gets a device-side reorder before
// (inputs) or after (outputs) the kernel, as the plugin inserts reorder primitives. Port
// numbering, ANY, work-size dims and internal buffers follow nnbridge/config/openvino_custom.h.
#include "custom_layers.h"

#include <algorithm>
#include <climits>
#include <fstream>
#include <sstream>

#include "nnbridge/config/openvino_custom.h"

namespace nnbridge::gpu {

namespace {

namespace ovc = nnbridge::config::openvino_custom;

const ovc::SimpleGpuLayer* match(const BackendOptions& options, const Node& n) {
  std::string_view name = n.op;
  if (n.op == "armnn.StandIn") name = n.name;  // Arm NN keeps the stood-in operator's name as the layer name
  else if (n.op.rfind("vk.", 0) == 0) name = std::string_view(n.op).substr(3);
  for (const auto& set : options.custom_kernels) {
    if (!set || set->backend() != "opencl") continue;
    if (const auto* s = dynamic_cast<const ovc::CustomLayerSet*>(set.get()))
      if (const ovc::SimpleGpuLayer* l = s->find(name)) return l;
  }
  return nullptr;
}

std::string read_sources(const ovc::SimpleGpuLayer& l) {
  if (!l.source_text.empty()) return l.source_text;
  std::string all;
  for (const auto& p : l.sources) {
    try {
      all += "\n// Custom Layer Kernel " + p.string() + "\n\n" +
             ovc::read_custom_layer_file(p, ovc::LoadCustomLayersOptions{}.max_file_bytes, "kernel source");
    } catch (const Error& e) {
      throw Error(e.id(), "custom layer \"" + l.name + "\" (" + l.where.text() + "): " + e.message(), p.string());
    }
  }
  return all;
}

// A port whose layout is not the backend's: its scratch buffer and the reorder kernel.
struct Reorder {
  std::size_t port = 0;
  cl::Buffer scratch;
  cl::Kernel kernel;
  int64_t count = 0;
};

}  // namespace

bool has_custom_layer(const BackendOptions& options, const Node& n) { return match(options, n) != nullptr; }

Launch custom_layer_launch(const BackendOptions& options, const Graph& work, std::size_t i, const Device& dev,
                           const std::string& label) {
  const Node& n = work.nodes[i];
  const ovc::SimpleGpuLayer* layer = match(options, n);
  if (!layer) throw Error(ErrorId::UnsupportedOther, label + ": no custom layer matches");
  const std::string who = label + ": custom layer \"" + layer->name + "\" (" + layer->where.text() + ")";
  auto invalid = [&](ErrorId id, const std::string& why) { return Error(id, who + ": " + why); };

  // Which node port each <Tensor> binds: output port-indices are output numbers or IR port ids
  // (openvino_custom.h resolve_ports).
  std::vector<std::size_t> ports;
  try {
    ports = ovc::resolve_ports(*layer, n.inputs.size(), n.outputs.size());
  } catch (const Error& e) {
    throw Error(e.id(), label + ": " + e.message());
  }

  // Layouts: a port's format is that of the first <Tensor> bound to it (the plugin reorders each
  // input once); unbound input ports and ANY inputs keep the backend's BFYX; an ANY output takes
  // input 0's layout as the kernel sees it (custom_gpu_primitive_inst calc_output_layouts).
  struct Ports {
    std::vector<ovc::TensorLayout> layouts;
    std::vector<bool> bound, any;
  };
  auto layouts = [&](const std::vector<ValueId>& ids, ovc::TensorBinding::Direction dir, const char* what) {
    Ports out{std::vector<ovc::TensorLayout>(ids.size()), std::vector<bool>(ids.size(), false), std::vector<bool>(ids.size(), false)};
    for (std::size_t t = 0; t < layer->tensors.size(); ++t) {
      const ovc::TensorBinding& tb = layer->tensors[t];
      if (tb.type != dir) continue;
      const std::size_t port = ports[t];
      if (!out.bound[port]) {
        out.any[port] = tb.format == ovc::TensorFormat::ANY;
        out.layouts[port].format = out.any[port] ? ovc::TensorFormat::BFYX : tb.format;
      }
      out.bound[port] = true;
    }
    for (std::size_t k = 0; k < ids.size(); ++k) {
      if (ids[k] == kNoValue) throw invalid(ErrorId::Arity, std::string(what) + " " + std::to_string(k) + " is absent");
      auto d = ovc::dims_of(work.values[ids[k]].type.shape);
      if (!d) throw Error(ErrorId::Feature, who + ": " + what + " " + std::to_string(k) + " has rank " +
                                                       std::to_string(work.values[ids[k]].type.shape.size()) +
                                                       "; custom layers see tensors as B, F, Y, X (rank 4 at most)");
      out.layouts[k].dims = *d;
    }
    return out;
  };
  const Ports in_ports = layouts(n.inputs, ovc::TensorBinding::Direction::Input, "input");
  Ports out_ports = layouts(n.outputs, ovc::TensorBinding::Direction::Output, "output");
  const std::vector<ovc::TensorLayout>& ins = in_ports.layouts;
  const std::vector<ovc::TensorLayout>& outs = out_ports.layouts;
  if (outs.empty()) throw invalid(ErrorId::Arity, "the node has no output");
  for (std::size_t k = 0; k < outs.size(); ++k) {
    if (!out_ports.bound[k]) throw invalid(ErrorId::Arity, "output " + std::to_string(k) + " of the node is bound by no <Tensor type=\"output\">");
    if (out_ports.any[k]) out_ports.layouts[k].format = ins.empty() ? ovc::TensorFormat::BFYX : ins[0].format;
  }

  // Work sizes (custom_gpu_primitive update_work_group_size): B, F, Y, X of output 0 (from the
  // front) or of input N (from the back).
  std::size_t dim_value = n.outputs[0];
  if (layer->dim.input) {
    if (static_cast<std::size_t>(layer->dim.index) >= ins.size())
      throw invalid(ErrorId::DanglingReference, "<WorkSizes> dim=input," + std::to_string(layer->dim.index) + " but the node has " + std::to_string(ins.size()) + " inputs");
    dim_value = n.inputs[layer->dim.index];
  }
  const ovc::Dims dims = *ovc::work_size_dims(work.values[dim_value].type.shape, layer->dim.input);
  auto sizes = [&](const std::vector<std::string>& rules, const char* what) {
    std::vector<std::size_t> out;
    for (const auto& r : rules) {
      int64_t v = 0;
      try {
        v = ovc::evaluate_work_size(r, dims);
      } catch (const Error& e) {
        throw invalid(e.id(), std::string(what) + ": " + e.message());
      }
      if (v <= 0) throw invalid(ErrorId::AttributeValue, std::string(what) + " \"" + r + "\" gives " + std::to_string(v) + " for this node; work sizes must be positive");
      out.push_back(static_cast<std::size_t>(v));
    }
    return out;
  };
  std::vector<std::size_t> global = sizes(layer->global, "global work size");
  const std::vector<std::size_t> local = sizes(layer->local, "local work size");
  if (global.empty()) {
    const auto& d = outs[0].dims;
    global.push_back(static_cast<std::size_t>(d[0] * d[1] * d[2] * d[3]));  // the plugin's default: output 0's element count
    if (global[0] == 0) throw invalid(ErrorId::Shape, "output 0 is empty: the default global work size would be 0");
  }
  if (!local.empty()) {
    if (local.size() != global.size()) throw invalid(ErrorId::Arity, "local work size has " + std::to_string(local.size()) + " items, global " + std::to_string(global.size()));
    for (std::size_t k = 0; k < local.size(); ++k)
      if (global[k] % local[k])
        throw invalid(ErrorId::AttributeValue, "global work size " + std::to_string(global[k]) + " is not a multiple of local " + std::to_string(local[k]) +
                      " (OpenCL 1.2 requires it)");
  }

  // Internal buffers (custom_primitive.cpp allocate_internal_buffers): `size` elements of input
  // 0's type as the kernel sees it (float here), allocated now, zero-filled (OpenVINO leaves
  // them as allocated) and kept by the plan across runs, as the plugin keeps them per node.
  struct Internal {
    int arg = 0;
    cl::Buffer buffer;
  };
  std::vector<Internal> internals;
  for (const ovc::TensorBinding& t : layer->tensors) {
    if (t.type != ovc::TensorBinding::Direction::Internal) continue;
    const std::string at = "<Tensor type=\"internal\"> at line " + std::to_string(t.where.line);
    if (n.inputs.empty()) throw invalid(ErrorId::DanglingReference, at + ": its size reads input 0 and the node has no input");
    int64_t count = 0;
    try {
      count = ovc::evaluate_internal_size(t.size, work.values[n.inputs[0]].type.shape);
    } catch (const Error& e) {
      throw invalid(e.id(), at + ": " + e.message());
    }
    const uint64_t bytes = static_cast<uint64_t>(std::max<int64_t>(count, 1)) * sizeof(float);
    const auto max_alloc = dev.device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
    if (bytes > max_alloc)
      throw Error(ErrorId::UnsupportedOther, who + ": " + at + " needs " + std::to_string(bytes) + " bytes, more than the device allocates at once (" +
                                              std::to_string(max_alloc) + ")");
    try {
      Internal b{t.arg_index, cl::Buffer(dev.context, CL_MEM_READ_WRITE, bytes)};
      dev.queue.enqueueFillBuffer(b.buffer, 0.0f, 0, bytes);
      internals.push_back(std::move(b));
    } catch (const cl::Error& e) {
      throw Error(ErrorId::Device, who + ": " + at + ": allocating " + std::to_string(bytes) + " bytes failed (" + e.what() + " " +
                                          std::to_string(e.err()) + ")");
    }
  }

  // Data bindings: the node input whose value has that name.
  std::vector<std::pair<int, std::size_t>> data_args;  // arg index -> node input
  for (const auto& d : layer->data) {
    std::size_t k = 0;
    while (k < n.inputs.size() && (n.inputs[k] == kNoValue || work.values[n.inputs[k]].name != d.name)) ++k;
    if (k == n.inputs.size())
      throw invalid(ErrorId::DanglingReference, "<Data name=\"" + d.name + "\"> at line " + std::to_string(d.where.line) + ": the node has no input of that name");
    data_args.emplace_back(d.arg_index, k);
  }

  const std::string source = ovc::builtin_defines(ins, outs, global, local) + "\n// Layer " + n.name + " using Custom Layer " +
                             layer->name + "\n" + ovc::user_defines(*layer, n.attrs) + read_sources(*layer) + "\n";
  cl::Program program = get_program(dev, layer->where.text(), source, who, layer->compiler_options);
  cl::Kernel kernel;
  try {
    kernel = cl::Kernel(program, layer->entry.c_str());
  } catch (const cl::Error& e) {
    throw Error(ErrorId::Build, who + ": the sources have no kernel \"" + layer->entry + "\" (" + e.what() + " " + std::to_string(e.err()) + ")");
  }
  const std::size_t bound_args = layer->tensors.size() + layer->data.size();
  const auto num_args = kernel.getInfo<CL_KERNEL_NUM_ARGS>();
  if (num_args != bound_args)
    throw invalid(ErrorId::Arity, "kernel \"" + layer->entry + "\" takes " + std::to_string(num_args) + " arguments, <Buffers> binds " + std::to_string(bound_args));

  auto reorders = [&](const std::vector<ovc::TensorLayout>& ls, const char* kname) {
    std::vector<Reorder> out;
    for (std::size_t k = 0; k < ls.size(); ++k) {
      if (ls[k].format == ovc::TensorFormat::BFYX) continue;
      const auto& d = ls[k].dims;
      const auto p = ovc::pitches_of(ls[k]);
      Reorder r{k, {}, cl::Kernel(get_embedded_program(dev, "custom_layer.cl", who), kname), d[0] * d[1] * d[2] * d[3]};
      r.scratch = cl::Buffer(dev.context, CL_MEM_READ_WRITE, std::max<int64_t>(r.count, 1) * sizeof(float));
      int a = 2;
      for (int v : {d[1], d[2], d[3], p[0], p[1], p[2], p[3]}) r.kernel.setArg(a++, static_cast<int>(v));
      out.push_back(std::move(r));
    }
    return out;
  };
  for (const auto* ls : {&ins, &outs})
    for (const auto& t : *ls)
      if (t.dims[0] * t.dims[1] * t.dims[2] * t.dims[3] > INT_MAX)
        throw Error(ErrorId::Feature, who + ": a tensor has more elements than the reorder kernels' int indexing holds");
  std::vector<Reorder> in_reorders = reorders(ins, "custom_layer_to_layout");
  std::vector<Reorder> out_reorders = reorders(outs, "custom_layer_from_layout");
  auto scratch_of = [](const std::vector<Reorder>& rs, std::size_t port) -> const cl::Buffer* {
    for (const auto& r : rs)
      if (r.port == port) return &r.scratch;
    return nullptr;
  };
  // The node ports the kernel reads and writes: (argument, input?, port).
  struct Bound {
    int arg = 0;
    bool input = true;
    std::size_t port = 0;
  };
  std::vector<Bound> tensors;
  for (std::size_t t = 0; t < layer->tensors.size(); ++t) {
    const ovc::TensorBinding& tb = layer->tensors[t];
    if (tb.type == ovc::TensorBinding::Direction::Internal) continue;
    tensors.push_back({tb.arg_index, tb.type == ovc::TensorBinding::Direction::Input, ports[t]});
  }
  auto to_range = [](const std::vector<std::size_t>& v) {
    switch (v.size()) {
      case 0: return cl::NullRange;
      case 1: return cl::NDRange(v[0]);
      case 2: return cl::NDRange(v[0], v[1]);
      default: return cl::NDRange(v[0], v[1], v[2]);
    }
  };
  const cl::NDRange g = to_range(global), l = to_range(local);
  return Launch([=](const Device& d, std::span<const cl::Buffer> in, std::span<const cl::Buffer> out) mutable {
    for (Reorder& r : in_reorders) {
      r.kernel.setArg(0, in[r.port]);
      r.kernel.setArg(1, r.scratch);
      enqueue(d, r.kernel, r.count);
    }
    for (const Bound& t : tensors) {
      const cl::Buffer* s = scratch_of(t.input ? in_reorders : out_reorders, t.port);
      kernel.setArg(t.arg, s ? *s : (t.input ? in[t.port] : out[t.port]));
    }
    for (const auto& [arg, k] : data_args) kernel.setArg(arg, in[k]);
    for (const Internal& b : internals) kernel.setArg(b.arg, b.buffer);
    d.queue.enqueueNDRangeKernel(kernel, cl::NullRange, g, l);
    for (Reorder& r : out_reorders) {
      r.kernel.setArg(0, r.scratch);
      r.kernel.setArg(1, out[r.port]);
      enqueue(d, r.kernel, r.count);
    }
  });
}

}  // namespace nnbridge::gpu
