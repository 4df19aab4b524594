// KernelRegistry and the cpu backend's use of custom kernels.
#include "custom_kernels.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <stdexcept>

#include "nnbridge/exec/convert.h"

namespace nnbridge::cpu_ref {

using exec::from_float;
using exec::round_trip;
using exec::to_float;

namespace {

std::string dtype_text(DataType t) { return t == DataType::Undefined ? "any dtype" : std::string(to_string(t)); }

std::string kernel_text(const CustomKernel& k) { return k.op + " (" + dtype_text(k.dtype) + ")"; }

// The message of the exception being handled, and whether it says the node is inconsistent.
struct Caught {
  ErrorId id;
  std::string what;
};
Caught caught(ErrorId fallback) {
  try {
    throw;
  } catch (const Error& e) {
    return {e.id(), e.message()};
  } catch (const std::invalid_argument& e) {
    return {ErrorId::InvalidOther, e.what()};
  } catch (const std::exception& e) {
    return {fallback, e.what()};
  } catch (...) {
    return {fallback, "an exception of unknown type"};
  }
}

}  // namespace

std::shared_ptr<const KernelRegistry::Entry> RegistryAccess::find(const KernelRegistry& r, std::string_view op, DataType dtype) {
  std::shared_ptr<const KernelRegistry::Entry> any;
  for (const auto& e : r.entries_) {
    if (e->kernel.op != op) continue;
    if (e->kernel.dtype == dtype) return e;
    if (e->kernel.dtype == DataType::Undefined) any = e;
  }
  return any;
}

void RegistryAccess::add(KernelRegistry& r, std::shared_ptr<const KernelRegistry::Entry> e) {
  const CustomKernel& k = e->kernel;
  if (k.op.empty()) throw Error(ErrorId::OptionValue, "a custom kernel has no op");
  if (!k.compute) throw Error(ErrorId::OptionValue, "custom kernel " + kernel_text(k) + " has no compute function");
  for (const auto& old : r.entries_)
    if (old->kernel.op == k.op && old->kernel.dtype == k.dtype)
      throw Error(ErrorId::DuplicateName, "custom kernel " + kernel_text(k) + " is registered twice: " +
                                          (old->source == e->source ? "both times by " + old->source
                                                                    : "by " + old->source + " and by " + e->source));
  r.entries_.push_back(std::move(e));
}

void KernelRegistry::add(CustomKernel kernel) {
  auto e = std::make_shared<Entry>();
  e->kernel = std::move(kernel);
  e->source = "the application";
  RegistryAccess::add(*this, std::move(e));
}

void KernelRegistry::add_all(const KernelRegistry& other) {
  KernelRegistry staged = *this;
  for (const auto& e : other.entries_) RegistryAccess::add(staged, e);
  entries_ = std::move(staged.entries_);
}

const CustomKernel* KernelRegistry::find(std::string_view op, DataType dtype, std::string* source) const {
  auto e = RegistryAccess::find(*this, op, dtype);
  if (!e) return nullptr;
  if (source) *source = e->source;
  return &e->kernel;
}

std::vector<DataType> KernelRegistry::dtypes_of(std::string_view op) const {
  std::vector<DataType> out;
  for (const auto& e : entries_)
    if (e->kernel.op == op) out.push_back(e->kernel.dtype);
  return out;
}

std::size_t KernelRegistry::size() const { return entries_.size(); }

KernelRegistry effective_kernels(const BackendOptions& options) {
  KernelRegistry r;
  for (const auto& set : options.custom_kernels) {
    if (!set || set->backend() != "cpu") continue;
    const auto* reg = dynamic_cast<const KernelRegistry*>(set.get());
    if (!reg) throw Error(ErrorId::OptionValue, "a custom kernel set for \"cpu\" is not an nnbridge::cpu_ref::KernelRegistry");
    r.add_all(*reg);
  }
  for (const std::string& path : options.extensions) r.load_extension(path);
  return r;
}

DataType kernel_dtype(const Graph& g, const Node& n) {
  if (!n.inputs.empty()) return n.inputs[0] == kNoValue ? DataType::Undefined : g.values[n.inputs[0]].type.dtype;
  return n.outputs.empty() ? DataType::Undefined : g.values[n.outputs[0]].type.dtype;
}

std::shared_ptr<const KernelRegistry::Entry> choose_custom(const KernelRegistry& r, std::string_view op, DataType dtype) {
  return RegistryAccess::find(r, op, dtype);
}

std::string other_dtypes_note(const KernelRegistry& r, std::string_view op) {
  std::string list;
  for (DataType t : r.dtypes_of(op)) list += (list.empty() ? "" : ", ") + dtype_text(t);
  return list.empty() ? std::string() : " (custom kernels for " + std::string(op) + " exist for " + list + " only)";
}

std::optional<std::vector<TensorType>> custom_infer(const KernelRegistry::Entry& e, const Graph& g, std::size_t index) {
  if (!e.kernel.infer) return std::nullopt;
  const Node& n = g.nodes[index];
  std::vector<TensorType> in, declared;
  for (ValueId v : n.inputs) in.push_back(v == kNoValue ? TensorType{} : g.values[v].type);
  for (ValueId v : n.outputs) declared.push_back(g.values[v].type);
  const std::string who = "the shape function of custom kernel " + kernel_text(e.kernel) + " from " + e.source;
  std::vector<TensorType> out;
  try {
    out = e.kernel.infer(CustomNode{n, in, declared});
  } catch (...) {
    Caught c = caught(ErrorId::UnsupportedOther);
    throw Error(c.id, who + ": " + c.what);
  }
  if (out.size() != n.outputs.size())
    throw Error(ErrorId::Arity, who + " gave " + std::to_string(out.size()) + " types for " +
                                        std::to_string(n.outputs.size()) + " outputs");
  return out;
}

namespace {

// The state of one node's custom kernel, kept by its plan step.
struct CustomStep {
  std::shared_ptr<const KernelRegistry::Entry> entry;  // holds the library as long as the step lives
  Node node;
  std::vector<TensorType> in, out;
  std::vector<std::size_t> in_count, out_count;
  int threads = 1;
  std::string label;

  void operator()(std::span<const float* const> ins, std::span<float* const> outs) const {
    std::vector<std::vector<std::byte>> staged_in(in.size()), staged_out(out.size());
    std::vector<InputTensor> ti(in.size());
    std::vector<OutputTensor> to(out.size());
    for (std::size_t i = 0; i < in.size(); ++i) {
      ti[i].type = &in[i];
      if (!ins[i] || in[i].dtype == DataType::Undefined) continue;
      ti[i].count = in_count[i];
      ti[i].bytes = in_count[i] * element_size(in[i].dtype);
      if (in[i].dtype == DataType::Float32) {
        ti[i].data = reinterpret_cast<const std::byte*>(ins[i]);
      } else {
        staged_in[i] = from_float(in[i], ins[i], in_count[i]);
        ti[i].data = staged_in[i].data();
      }
    }
    for (std::size_t o = 0; o < out.size(); ++o) {
      to[o].type = &out[o];
      to[o].count = out_count[o];
      to[o].bytes = out_count[o] * element_size(out[o].dtype);
      if (out[o].dtype == DataType::Float32) {
        to[o].data = reinterpret_cast<std::byte*>(outs[o]);
      } else {
        staged_out[o].assign(to[o].bytes, std::byte{0});
        to[o].data = staged_out[o].data();
      }
    }
    const CustomNode cn{node, in, out};
    try {
      entry->kernel.compute(KernelCall{cn, ti, to, threads});
    } catch (...) {
      throw Error(ErrorId::Execution, label + ": custom kernel " + kernel_text(entry->kernel) + " from " + entry->source + " failed: " + caught(ErrorId::Execution).what);
    }
    for (std::size_t o = 0; o < out.size(); ++o) {
      if (out[o].dtype == DataType::Float32) continue;
      std::vector<float> f = to_float(out[o], staged_out[o].data(), out_count[o]);
      std::copy(f.begin(), f.end(), outs[o]);
    }
  }
};

}  // namespace

Kernel make_custom_kernel(std::shared_ptr<const KernelRegistry::Entry> e, const KernelContext& ctx, std::string label) {
  CustomStep s{std::move(e), ctx.node, ctx.in, ctx.out, {}, {}, ctx.threads, std::move(label)};
  for (const TensorType& t : s.in)
    s.in_count.push_back(t.dtype == DataType::Undefined ? 0 : static_cast<std::size_t>(numel(t.shape)));
  for (const TensorType& t : s.out) s.out_count.push_back(static_cast<std::size_t>(numel(t.shape)));
  return s;
}

}  // namespace nnbridge::cpu_ref
