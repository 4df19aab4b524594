// The "cpu" backend: prepare() runs the shared prepare loop (nnbridge/exec/prepare.h: types,
// float32 constants, order, which backend runs each node) with a builder that picks a kernel per
// node, then plans the memory of intermediate tensors (memory_plan.h); run() executes the nodes
// in order in an arena reused across runs.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <set>
#include <thread>

#include "nnbridge/exec/convert.h"
#include "custom_kernels.h"
#include "kernel.h"
#include "kernels/conv.h"
#include "kernels/quantized_chain.h"
#include "kernels/vector_ops.h"
#include "layout_hint.h"
#include "memory_plan.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/exec/input_bound.h"
#include "nnbridge/exec/option_keys.h"
#include "nnbridge/exec/prepare.h"

namespace nnbridge::cpu_ref {

using exec::from_float;
using exec::round_trip;
using exec::to_float;

namespace {

struct Step {
  std::size_t node;
  std::vector<ValueId> inputs;   // kNoValue kept
  std::vector<ValueId> outputs;
  Kernel kernel;
  bool zero_outputs = true;      // false for built-in kernels known to write every output element
  EpilogueKernel with_epilogue;  // the same node's kernel with an epilogue (a built-in Conv), else null
  bool round_outputs = true;     // false for built-in kernels whose results already are values of the output dtype
  std::vector<bool> unread{};    // per input slot: a constant the kernel took in at prepare (NodeContext::prepared_only)
  std::shared_ptr<OutputRange> range{};  // a built-in QLinearConv's output range, when it may be narrowed (conv.h)
  std::vector<int64_t> concat_at{};      // a built-in Concat whose inputs are whole blocks of Y: each one's offset in Y
  bool reshape = false;                  // a built-in Reshape, Flatten, Squeeze or Unsqueeze: Y is X's floats as they are
  Epilogue epilogue{};                   // with with_epilogue: the epilogue `kernel` was made with (nodes folded in so far)
};

// Ops whose built-in kernels write every element of their outputs, so run() need not zero them
// first (the largest outputs of convolutional networks): Conv (2-D and 1-D: conv.cc, depthwise.cc),
// Gemm and MatMul (gemm.cc), Relu, Clip, Sigmoid, Tanh, HardSwish and LeakyRelu (one vector map
// over the whole tensor), Add, Sub and Mul (elementwise.cc: every row of the broadcast output),
// QLinearConv and ConvInteger, QuantizeLinear and DequantizeLinear with a scale input; Reshape
// and Flatten (one copy of every element), Transpose (a gather over every output element) and
// Concat (each input's chunks, which add up to the output's extent along the axis: shape_ops.cc);
// the 1-D and 2-D pools (pool.cc: every output, and every Indices element, of every plane).
bool writes_every_output(const Node& n, const exec::NodeContext& ctx) {
  if (n.op == "Conv") return !ctx.in.empty() && ctx.in[0].shape.size() <= 4;
  if (n.op == "MaxPool" || n.op == "AveragePool" || n.op == "GlobalAveragePool" || n.op == "GlobalMaxPool")
    return !ctx.in.empty() && ctx.in[0].shape.size() <= 4;
  if (n.op == "QuantizeLinear" || n.op == "DequantizeLinear") return ctx.has_input(1);  // quantize.cc: one pass over every element
  static const std::set<std::string, std::less<>> all = {
      "Gemm", "MatMul", "Relu", "Clip", "Sigmoid", "Tanh", "HardSwish", "LeakyRelu", "Add", "Sub", "Mul",
      "QLinearConv", "ConvInteger", "Reshape", "Flatten", "Transpose", "Concat"};
  return all.count(n.op) != 0;
}

// Ops whose built-in kernels compute values their output dtype holds exactly, so run() need not
// round the results to it (exec::round_trip, a pass over every element): QuantizeLinear with a
// scale input (quantize.cc), QLinearConv (integer_conv.cc, qlinear.cc) and QLinearMatMul
// round to integers and saturate to the output type's range, for a plain 8- or 16-bit integer
// output (a quantized dtype would be stored through its own scale).
bool results_exact(const Node& n, const exec::NodeContext& ctx) {
  if (n.op != "QLinearConv" && n.op != "QLinearMatMul" && !(n.op == "QuantizeLinear" && ctx.has_input(1))) return false;
  return std::all_of(ctx.out.begin(), ctx.out.end(), [](const TensorType& t) {
    return (t.dtype == DataType::UInt8 || t.dtype == DataType::Int8 || t.dtype == DataType::UInt16 || t.dtype == DataType::Int16) &&
           !t.quantization;
  });
}

class CpuPlan final : public Plan {
 public:
  std::vector<TensorType> types;                        // per value
  std::vector<std::shared_ptr<const exec::FloatConstant>> constants;  // per value, or null
  std::vector<Step> steps;
  std::vector<ValueId> graph_inputs, graph_outputs;
  std::vector<bool> read;                               // per value: read at run by a step or as a graph output
  std::vector<int64_t> offset;                          // per value: place in the arena (memory_plan.h), or -1
  std::vector<bool> own_output;                         // per value: a float32 graph output computed into its own buffer
  std::unique_ptr<ArenaPool> arenas;
  std::shared_ptr<OutputPool> output_buffers = std::make_shared<OutputPool>();
  std::vector<std::pair<std::string, TensorType>> in_types, out_types;
  std::vector<NodePlacement> nodes;                     // which backend runs each node
  std::vector<std::size_t> step_at;                     // per step: its node's entry in `nodes` (SIZE_MAX: none)

  const std::vector<NodePlacement>& placement() const override { return nodes; }
  const std::vector<std::pair<std::string, TensorType>>& input_types() const override { return in_types; }
  const std::vector<std::pair<std::string, TensorType>>& output_types() const override { return out_types; }

  // Graph inputs of dtype float32 are read in place; intermediate tensors live in an arena
  // taken from `arenas` (reused by the next run); float32 graph outputs are computed into
  // buffers that become the returned tensors (and return to `output_buffers` when those are
  // gone). Every output buffer is zeroed before its kernel, except where the kernel writes
  // every element itself (Step::zero_outputs).
  TensorMap run(const TensorMap& inputs) const override { return run_steps(inputs, nullptr); }
  TensorMap run_profiled(const TensorMap& inputs, std::vector<NodeTime>& times) const override {
    times.clear();
    return run_steps(inputs, &times);
  }

 private:
  // `times`: when not null, gets each step's steady_clock time (Plan::run_profiled).
  TensorMap run_steps(const TensorMap& inputs, std::vector<NodeTime>* times) const {
    using Clock = std::chrono::steady_clock;
    std::vector<const float*> ptr(types.size(), nullptr);
    for (std::size_t v = 0; v < types.size(); ++v)
      if (constants[v] && read[v]) ptr[v] = constants[v]->data();  // the float32 form made on first use
    std::vector<std::vector<float>> converted;
    converted.reserve(graph_inputs.size());
    for (std::size_t k = 0; k < graph_inputs.size(); ++k) {
      const auto& [name, type] = in_types[k];
      auto it = inputs.find(name);
      if (it == inputs.end()) throw Error(ErrorId::MissingInput, "no tensor given for graph input \"" + name + "\"");
      const HostTensor& t = it->second;
      if (t.shape() != type.shape)
        throw Error(ErrorId::Shape, "graph input \"" + name + "\" has the wrong shape");
      if (t.dtype() != type.dtype && t.dtype() != storage_type(type.dtype))
        throw Error(ErrorId::TypeMismatch, "graph input \"" + name + "\" is " + std::string(to_string(t.dtype())) +
                                            ", the graph needs " + std::string(to_string(type.dtype)));
      ValueId id = graph_inputs[k];
      const std::byte* bytes = t.bytes().data();
      if (type.dtype == DataType::Float32 && reinterpret_cast<std::uintptr_t>(bytes) % alignof(float) == 0) {
        ptr[id] = reinterpret_cast<const float*>(bytes);
      } else {
        converted.push_back(to_float(type, bytes, t.element_count()));
        ptr[id] = converted.back().data();
      }
    }
    for (const auto& input : inputs) {
      const std::string& name = input.first;  // not a structured binding: clang 14 cannot capture those
      bool known = std::any_of(in_types.begin(), in_types.end(), [&](const auto& p) { return p.first == name; });
      if (!known) throw Error(ErrorId::MissingInput, "\"" + name + "\" is not a graph input");
    }
    struct Lease {  // gives the arena back however the run ends
      const ArenaPool& pool;
      ArenaPool::Arena arena;
      ~Lease() { pool.release(std::move(arena)); }
    } lease{*arenas, arenas->acquire()};
    std::vector<std::shared_ptr<float[]>> own(types.size());
    std::vector<const float*> ins;
    std::vector<float*> outs;
    if (times) times->reserve(steps.size());
    for (std::size_t s = 0; s < steps.size(); ++s) {
      const Step& st = steps[s];
      const Clock::time_point start = times ? Clock::now() : Clock::time_point{};
      ins.clear();
      outs.clear();
      for (ValueId v : st.inputs) ins.push_back(v == kNoValue ? nullptr : ptr[v]);
      for (ValueId v : st.outputs) {
        const std::size_t n = static_cast<std::size_t>(numel(types[v].shape));
        float* p;
        if (own_output[v]) {
          own[v] = output_buffers->get(n);
          p = own[v].get();
        } else {
          p = lease.arena.get() + std::max<int64_t>(offset[v], 0);  // -1: an empty tensor
        }
        if (st.zero_outputs) std::fill_n(p, n, 0.0f);
        outs.push_back(p);
        ptr[v] = p;
      }
      st.kernel(ins, outs);
      if (st.round_outputs)
        for (std::size_t o = 0; o < st.outputs.size(); ++o)
          round_trip(types[st.outputs[o]], outs[o], static_cast<std::size_t>(numel(types[st.outputs[o]].shape)));
      if (times) {
        NodeTime t{st.node, {}, {}, "cpu", std::chrono::duration<double, std::milli>(Clock::now() - start).count()};
        if (step_at[s] != SIZE_MAX) t.name = nodes[step_at[s]].name, t.op = nodes[step_at[s]].op, t.backend = nodes[step_at[s]].backend;
        times->push_back(std::move(t));
      }
    }
    TensorMap result;
    for (std::size_t k = 0; k < graph_outputs.size(); ++k) {
      ValueId id = graph_outputs[k];
      const TensorType& t = types[id];
      const std::size_t n = static_cast<std::size_t>(numel(t.shape));
      if (own[id]) {
        auto bytes = std::as_bytes(std::span<const float>(own[id].get(), n));
        result[out_types[k].first] = HostTensor::from_buffer(t, Buffer::view(own[id], bytes));
      } else {
        result[out_types[k].first] = HostTensor::owned(t, from_float(t, ptr[id], n));
      }
    }
    return result;
  }
};

// The cpu side of the shared prepare loop (nnbridge/exec/prepare.h): a Kernel per node, from a
// custom kernel (custom_kernels.h) or the built-in table, or a node another backend runs.
class CpuBuilder final : public exec::NodeBuilder {
 public:
  CpuBuilder(const Graph& g, const KernelRegistry& custom, CpuPlan& plan, std::vector<std::size_t>& last_use)
      : g_(g), custom_(custom), plan_(plan), last_use_(last_use) {}

  bool has_kernel(const Graph& work, std::size_t i) override {
    const Node& n = work.nodes[i];
    return kernels().count(n.op) > 0 || choose_custom(custom_, n.op, kernel_dtype(work, n)) != nullptr;
  }
  bool is_custom(const Graph& g, std::size_t i) override { return chosen(g, i) != nullptr; }
  Shapes shapes(const Graph& work, std::size_t i) override {
    auto e = chosen(work, i);
    if (!e) return {};
    return {true, custom_infer(*e, work, i)};
  }
  void build(const Graph& work, std::size_t i, const exec::NodeContext& ctx, const std::string& label) override {
    auto e = chosen(work, i);
    const Node& n = g_.nodes[i];
    if (i < absorbed_.size() && absorbed_[i]) return;  // computed by a quantized chain's step
    if (!e && fold_activation(work, i, ctx)) return;
    if (!e && fold_residual_add(work, i)) return;
    if (!e && n.op == "DequantizeLinear" && fold_quantized_chain(work, i, ctx)) return;
    if (!e && n.op == "Conv") {
      if (EpilogueKernel f = conv_with_epilogue(ctx)) {
        push(Step{i, n.inputs, n.outputs, f(Epilogue{}), false, f}, ctx);
        return;
      }
    }
    if (!e && n.op == "QLinearConv") {
      RangedKernel rk = qlinear_conv_ranged(ctx);
      Step st{i, n.inputs, n.outputs, std::move(rk.kernel), !writes_every_output(n, ctx), nullptr};
      st.round_outputs = !results_exact(n, ctx);
      st.range = std::move(rk.range);
      push(std::move(st), ctx);
      return;
    }
    Kernel kernel;
    if (e) {
      kernel = make_custom_kernel(e, ctx, label);
    } else if (splits_by_layout(n.op) && any_channels_last(work, n)) {
      exec::NodeContext hinted = ctx;  // shares read_at_prepare_only with ctx
      hinted.channels_last = true;
      kernel = kernels().at(n.op)(hinted);
    } else {
      kernel = kernels().at(n.op)(ctx);
    }
    Step st{i, n.inputs, n.outputs, std::move(kernel), e || !writes_every_output(n, ctx), nullptr};
    st.round_outputs = e || !results_exact(n, ctx);
    if (!e && n.op == "Concat") st.concat_at = concat_blocks(ctx);
    st.reshape = !e && (n.op == "Reshape" || n.op == "Flatten" || n.op == "Squeeze" || n.op == "Unsqueeze");
    push(std::move(st), ctx);
  }
  // A fold (exec/prepare.h): the built-in kernel, made and run once; custom kernels are not folded.
  bool evaluate(const Graph& work, std::size_t i, const exec::NodeContext& ctx, std::span<const float* const> in,
                std::span<float* const> out) override {
    if (chosen(work, i)) return false;
    const Kernel k = kernels().at(work.nodes[i].op)(ctx);
    k(in, out);
    for (std::size_t o = 0; o < out.size(); ++o) round_trip(ctx.out[o], out[o], static_cast<std::size_t>(numel(ctx.out[o].shape)));
    return true;
  }
  void add_foreign(std::size_t i, std::shared_ptr<const exec::ForeignNode> f) override {
    const Node& n = g_.nodes[i];
    push(Step{i, n.inputs, n.outputs, [f](std::span<const float* const> in, std::span<float* const> out) {
                exec::run_foreign(*f, in, out);
              },
              true, nullptr});
  }
  std::string no_kernel_note(const Graph&, std::size_t i) override { return other_dtypes_note(custom_, g_.nodes[i].op); }

  std::vector<std::pair<std::size_t, std::size_t>> fused;  // (activation node, the Conv node that computes it)

 private:
  // The custom kernel that runs node i, or null (kernel choice: custom_kernels.h).
  std::shared_ptr<const KernelRegistry::Entry> chosen(const Graph& work, std::size_t i) const {
    const Node& n = work.nodes[i];
    return choose_custom(custom_, n.op, kernel_dtype(work, n));
  }
  // A built-in Relu or Clip on float32 whose input is the only output of the step just planned, a
  // built-in Conv (with an Add folded into it or not), read by nothing else and not a graph
  // output: the Conv's kernel is remade with the activation as its epilogue (vector_ops.h: the
  // same bits, computed while each block is in cache) and writes the activation's output
  // directly; the Conv's own output then never exists.
  bool fold_activation(const Graph& work, std::size_t j, const exec::NodeContext& ctx) {
    const Node& n = work.nodes[j];
    if ((n.op != "Relu" && n.op != "Clip") || n.inputs.empty() || n.outputs.size() != 1) return false;
    Step* last = foldable(work, n.inputs[0], n.outputs[0]);
    if (!last) return false;
    Epilogue ep = last->epilogue;
    ep.on = true;
    ep.op = n.op == "Relu" ? simd::Unary::Relu : simd::Unary::Clip;
    if (n.op == "Clip") ep.p = clip_bounds(ctx);
    last->kernel = last->with_epilogue(ep);
    last->epilogue = ep;
    last->with_epilogue = nullptr;  // nothing folds after the activation
    last->outputs = n.outputs;
    fused.emplace_back(j, last->node);
    return true;
  }

  // A built-in Add of two float32 tensors of one shape (no broadcasting), one of them the only
  // output of the step just planned, a built-in Conv with nothing folded into it yet, read by
  // nothing else and not a graph output (ResNet's and MobileNetV2's residual connections): the
  // Conv's kernel is remade to add the other operand R to each block of its output as it
  // finishes it (vector_ops.h Epilogue::residual: the same bits) and writes the Add's output. R
  // becomes the step's fourth input (after X, W and B, B possibly absent). A Relu or Clip after
  // the Add may fold in next. On two threads the Add then reads R in the Conv's own split.
  bool fold_residual_add(const Graph& work, std::size_t j) {
    const Node& n = work.nodes[j];
    if (n.op != "Add" || n.inputs.size() != 2 || n.outputs.size() != 1 || n.inputs[0] == n.inputs[1]) return false;
    if (plan_.steps.empty() || plan_.steps.back().outputs.size() != 1) return false;
    const int k = plan_.steps.back().outputs[0] == n.inputs[0] ? 0 : 1;
    const ValueId v = n.inputs[static_cast<std::size_t>(k)], r = n.inputs[static_cast<std::size_t>(1 - k)];
    if (r == kNoValue || r >= work.values.size()) return false;
    Step* last = foldable(work, v, n.outputs[0]);
    if (!last || last->epilogue.on || last->epilogue.residual >= 0 || last->inputs.size() > 3) return false;
    const TensorType& rt = work.values[r].type;
    if (rt.dtype != DataType::Float32 || rt.shape != work.values[v].type.shape) return false;
    Epilogue ep = last->epilogue;
    ep.residual = 3;
    last->inputs.resize(3, kNoValue);
    last->inputs.push_back(r);
    last_use_[r] = plan_.steps.size() - 1;
    last->kernel = last->with_epilogue(ep);
    last->epilogue = ep;
    last->outputs = n.outputs;
    fused.emplace_back(j, last->node);
    return true;
  }

  // The step just planned when it is a built-in Conv whose only output is v, float32 and of y's
  // type, read once (by the node folding in) and written once: that node's output y may take v's
  // place. Else null.
  Step* foldable(const Graph& work, ValueId v, ValueId y) {
    if (plan_.steps.empty()) return nullptr;
    Step& last = plan_.steps.back();
    if (!last.with_epilogue || last.outputs.size() != 1 || last.outputs[0] != v) return nullptr;
    const TensorType &vt = work.values[v].type, &yt = work.values[y].type;
    if (vt.dtype != DataType::Float32 || yt.dtype != DataType::Float32 || vt.shape != yt.shape) return nullptr;
    count_uses();
    if (uses_[v] != 1 || writes_[v] != 1) return nullptr;  // uses_ counts graph outputs too
    return &last;
  }

  // DequantizeLinear -> Relu / Clip ... -> QuantizeLinear on 8-bit integers, all built-in: one
  // step from the DequantizeLinear's X to the QuantizeLinear's Y that runs their vector kernels a
  // chunk at a time (quantized_chain.h: the same bits); the values between never reach memory.
  bool fold_quantized_chain(const Graph& work, std::size_t i, const exec::NodeContext& ctx) {
    count_uses();
    for (ValueId v : g_.nodes[i].outputs)
      if (v < writes_.size() && writes_[v] != 1) return false;
    std::optional<QuantizedChain> c = quantized_chain(work, i, uses_, reader_);
    if (!c) return false;
    for (std::size_t j : c->nodes)
      if (chosen(work, j) || (j != c->nodes.back() && writes_[g_.nodes[j].outputs[0]] != 1)) return false;
    if (fold_into_qlinear_conv(*c)) return true;
    push(Step{i, {c->input}, {c->output}, make_quantized_chain(*c, ctx.threads), false, nullptr, false});
    absorbed_.resize(g_.nodes.size(), false);
    for (std::size_t k = 1; k < c->nodes.size(); ++k) {
      absorbed_[c->nodes[k]] = true;
      fused.emplace_back(c->nodes[k], i);
    }
    return true;
  }

  // A Concat whose output dims before the axis are all 1 (batch 1 along channels in NCHW): input
  // k is then the contiguous block of Y from its offset here; else empty.
  static std::vector<int64_t> concat_blocks(const exec::NodeContext& ctx) {
    const Shape& ys = ctx.out[0].shape;
    const int64_t axis = ctx.attr_axis("axis", 0, static_cast<int64_t>(ys.size()));
    for (int64_t d = 0; d < axis; ++d)
      if (ys[static_cast<std::size_t>(d)] != 1) return {};
    std::vector<int64_t> at;
    int64_t offset = 0;
    for (const TensorType& t : ctx.in) {
      at.push_back(offset);
      offset += numel(t.shape);
    }
    if (offset != numel(ys)) return {};
    return at;
  }

  // A chain whose X is the only use of the QLinearConv just planned: the QLinearConv writes the
  // chain's Y and the chain's step is not made. When the chain maps every value that QLinearConv
  // can output to a clamp of it, min(max(q, a), b) (found by running the chain's own kernel on
  // each of those, at most 256, integers), the QLinearConv saturates to [a, b] instead of its
  // type's range: the same values, since every requantized value is one of those integers (the
  // conv's multipliers are finite, so none is NaN) and [a, b] lies inside the old range. Any other
  // chain runs as the QLinearConv's finish on each block of outputs while it is in cache
  // (OutputRange::finish): the chain's own operations on the same values, so the same bits.
  bool fold_into_qlinear_conv(const QuantizedChain& c) {
    if (plan_.steps.empty()) return false;
    Step& last = plan_.steps.back();
    if (!last.range || last.outputs.size() != 1 || last.outputs[0] != c.input) return false;
    if (uses_[c.input] != 1 || writes_[c.input] != 1) return false;
    const OutputRange old = *last.range;
    const int64_t n = static_cast<int64_t>(old.hi - old.lo) + 1;
    if (!(old.lo <= old.hi) || n > 65536) return false;
    QuantizedChain probe = c;
    probe.count = n;
    std::vector<float> q(static_cast<std::size_t>(n)), f(static_cast<std::size_t>(n));
    for (int64_t k = 0; k < n; ++k) q[static_cast<std::size_t>(k)] = old.lo + static_cast<float>(k);
    const float* in[] = {q.data()};
    float* out[] = {f.data()};
    make_quantized_chain(probe, 1)(in, out);
    const float a = f.front(), b = f.back();
    bool clamp = a <= b;
    for (int64_t k = 0; k < n && clamp; ++k)
      clamp = f[static_cast<std::size_t>(k)] == std::min(b, std::max(a, q[static_cast<std::size_t>(k)]));
    if (clamp) *last.range = OutputRange{a, b, {}};
    else last.range->finish = [c](float* y, int64_t count) { run_quantized_chain(c, y, y, count); };
    last.outputs = {c.output};
    absorbed_.resize(g_.nodes.size(), false);
    for (std::size_t j : c.nodes) {
      absorbed_[j] = true;
      fused.emplace_back(j, last.node);
    }
    return true;
  }

  // Ops whose built-in kernels split their work by the layout (NodeContext::channels_last).
  static bool splits_by_layout(const std::string& op) { return op == "Add" || op == "Sub" || op == "Mul" || op == "Div"; }
  bool any_channels_last(const Graph& work, const Node& n) {
    count_uses();
    return channels_last_input(work, n, producer_);
  }

  // How many times each value is read by a node or listed as a graph output, and written; the
  // (last) node that reads it, and the (last) node that writes it.
  void count_uses() {
    if (!uses_.empty()) return;
    uses_.assign(g_.values.size(), 0);
    writes_.assign(g_.values.size(), 0);
    reader_.assign(g_.values.size(), SIZE_MAX);
    producer_.assign(g_.values.size(), SIZE_MAX);
    for (std::size_t j = 0; j < g_.nodes.size(); ++j) {
      const Node& n = g_.nodes[j];
      for (ValueId v : n.inputs)
        if (v < uses_.size()) ++uses_[v], reader_[v] = j;  // not kNoValue
      for (ValueId v : n.outputs)
        if (v < writes_.size()) ++writes_[v], producer_[v] = j;
    }
    for (ValueId v : g_.outputs)
      if (v < uses_.size()) ++uses_[v];
  }
  // Appends the step of a node whose inputs are the step's, with those its kernel took in at
  // prepare (ctx.prepared_only).
  void push(Step st, const exec::NodeContext& ctx) {
    if (ctx.read_at_prepare_only) st.unread = *ctx.read_at_prepare_only;
    push(std::move(st));
  }
  void push(Step st) {
    for (ValueId v : st.inputs)
      if (v != kNoValue) last_use_[v] = plan_.steps.size();
    plan_.steps.push_back(std::move(st));
  }
  const Graph& g_;
  const KernelRegistry& custom_;
  CpuPlan& plan_;
  std::vector<std::size_t>& last_use_;
  std::vector<int> uses_, writes_;
  std::vector<std::size_t> reader_, producer_;
  std::vector<bool> absorbed_;  // nodes whose outputs a quantized chain's step computes
};

// Steps computed in place. A built-in Concat with whole blocks (Step::concat_at) whose output
// lives in the arena (not a graph output) and whose inputs are each written by one earlier step,
// read by this Concat only, neither graph inputs, constants nor graph outputs: each input then
// lives inside Y at its block (producers write straight there). A built-in Reshape-like step
// (Step::reshape) whose input is such a value: the input lives where Y does. Either step then
// does nothing. An output of either may itself be such an input of a later one. In step order
// (shufflenet_v2_x0_5's 32 Reshapes copied 26 us per run).
struct InPlace {
  ValueId input, y;
  int64_t at;  // floats into y
};
std::vector<InPlace> steps_in_place(const Graph& g, CpuPlan& plan) {
  std::vector<int> reads(g.values.size(), 0), writes(g.values.size(), 0);
  std::vector<bool> fixed(g.values.size(), false);  // graph inputs and outputs: never in place
  for (const Node& n : g.nodes)
    for (ValueId v : n.inputs)
      if (v != kNoValue) ++reads[v];
  for (const Step& st : plan.steps)
    for (ValueId v : st.outputs) ++writes[v];
  for (ValueId v : g.outputs) fixed[v] = true;
  for (ValueId v : g.inputs) fixed[v] = true;
  std::vector<InPlace> within;
  std::vector<bool> taken(g.values.size(), false);
  auto movable = [&](ValueId u) {
    return u != kNoValue && !taken[u] && !fixed[u] && reads[u] == 1 && writes[u] == 1 && !plan.constants[u];
  };
  for (Step& st : plan.steps) {
    if ((st.concat_at.empty() && !st.reshape) || st.outputs.size() != 1 || fixed[st.outputs[0]] || writes[st.outputs[0]] != 1)
      continue;
    if (st.reshape) {
      if (st.inputs.empty() || !movable(st.inputs[0])) continue;
      taken[st.inputs[0]] = true;
      within.push_back({st.inputs[0], st.outputs[0], 0});
    } else {
      bool ok = st.inputs.size() == st.concat_at.size();
      for (ValueId u : st.inputs) ok = ok && movable(u);
      if (!ok) continue;
      for (std::size_t k = 0; k < st.inputs.size(); ++k) {
        taken[st.inputs[k]] = true;
        within.push_back({st.inputs[k], st.outputs[0], st.concat_at[k]});
      }
    }
    st.kernel = [](std::span<const float* const>, std::span<float* const>) {};
    st.zero_outputs = false, st.round_outputs = false;
  }
  return within;
}

class CpuBackend final : public Backend {
 public:
  std::string name() const override { return "cpu"; }

  // A graph whose shapes or operands depend on the values of its inputs is planned per run with
  // the inputs bound (nnbridge/exec/input_bound.h).
  std::unique_ptr<Plan> prepare(const Graph& g, const BackendOptions& options) const override {
    exec::check_option_keys(options, "cpu", {});
    try {
      return prepare_static(g, options);
    } catch (const exec::NeedsValue&) {
      if (g.inputs.empty()) throw;
      return exec::input_bound_plan(backend(), g, options);
    }
  }

 private:
  std::unique_ptr<Plan> prepare_static(const Graph& g, const BackendOptions& options) const {
    const int threads = options.threads > 0 ? options.threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
    const KernelRegistry custom = effective_kernels(options);  // application kernels + extension libraries
    auto plan = std::make_unique<CpuPlan>();
    std::vector<std::size_t> last_use(g.values.size(), SIZE_MAX);
    CpuBuilder builder(g, custom, *plan, last_use);
    exec::PreparedGraph prepared = exec::prepare_nodes(g, options, name(), threads, builder);
    const Graph& work = prepared.work;
    plan->constants = std::move(prepared.constants);
    plan->nodes = std::move(prepared.placement);
    std::vector<std::size_t> at(g.nodes.size(), SIZE_MAX);  // node -> its placement entry
    for (std::size_t k = 0; k < plan->nodes.size(); ++k)
      if (plan->nodes[k].node < at.size()) at[plan->nodes[k].node] = k;
    for (auto [act, conv] : builder.fused)
      if (at[act] != SIZE_MAX) plan->nodes[at[act]].fused_into = g.nodes[conv].name, plan->nodes[at[act]].fused_into_node = conv;
    for (const Step& st : plan->steps) plan->step_at.push_back(st.node < at.size() ? at[st.node] : SIZE_MAX);
    // Which constants run() hands to kernels: those a step reads at run (not only at prepare)
    // and those that are graph outputs.
    plan->read.assign(g.values.size(), false);
    for (const Step& st : plan->steps)
      for (std::size_t k = 0; k < st.inputs.size(); ++k)
        if (st.inputs[k] != kNoValue && !(k < st.unread.size() && st.unread[k])) plan->read[st.inputs[k]] = true;
    for (ValueId id : g.outputs) plan->read[id] = true;
    plan->types.resize(g.values.size());
    for (std::size_t v = 0; v < g.values.size(); ++v) plan->types[v] = work.values[v].type;
    plan->graph_inputs = g.inputs;
    plan->graph_outputs = g.outputs;
    for (ValueId id : g.inputs) plan->in_types.emplace_back(g.values[id].name, plan->types[id]);
    for (ValueId id : g.outputs) {
      plan->out_types.emplace_back(g.values[id].name, plan->types[id]);
      last_use[id] = SIZE_MAX;  // kept to the end
    }
    // Memory plan: each step's outputs live from that step to their last use (graph outputs to
    // the end); float32 graph outputs get their own buffers instead.
    plan->own_output.assign(g.values.size(), false);
    const std::vector<InPlace> within = steps_in_place(g, *plan);
    std::vector<Lifetime> life(g.values.size());
    for (std::size_t s = 0; s < plan->steps.size(); ++s)
      for (ValueId v : plan->steps[s].outputs) {
        const bool graph_output = std::find(g.outputs.begin(), g.outputs.end(), v) != g.outputs.end();
        if (graph_output && plan->types[v].dtype == DataType::Float32) {
          plan->own_output[v] = true;
          continue;
        }
        // A malformed graph may write a value twice, or write a graph input or a constant: the
        // value then gets arena memory spanning all of its uses, like any other.
        std::size_t first = s, last = last_use[v] == SIZE_MAX || last_use[v] < s ? s : last_use[v];
        if (graph_output) last = plan->steps.size() - 1;
        if (life[v].floats > 0) first = std::min(first, life[v].first), last = std::max(last, life[v].last);
        life[v] = {first, last, numel(plan->types[v].shape)};
      }
    // A Concat's inputs written in place: Y lives from the first of their steps (in step order, so
    // an input that is an earlier Concat's Y has its own start already), and they are not placed
    // themselves; their offsets follow Y's, the last Concat's first.
    for (const InPlace& p : within) {
      life[p.y].first = std::min(life[p.y].first, life[p.input].first);
      life[p.input].floats = 0;
    }
    MemoryPlan mp = plan_memory(life, plan->steps.size());
    plan->offset = std::move(mp.offset);
    for (auto p = within.rbegin(); p != within.rend(); ++p) plan->offset[p->input] = plan->offset[p->y] + p->at;
    plan->arenas = std::make_unique<ArenaPool>(mp.floats);
    // The float32 forms of constants no step reads at run (weights packed, operands taken at
    // prepare) are not kept: where the bytes were not aligned float32 (an ONNX raw_data left in
    // the file, a quantized tensor) each is a converted copy as large as the weights.
    // Those a step reads are converted now, not on the first run (weights read in place at run,
    // as the 1 x 1 products' W, but at an odd address in the file).
    for (std::size_t v = 0; v < plan->constants.size(); ++v) {
      if (!plan->read[v]) plan->constants[v].reset();
      else if (plan->constants[v]) plan->constants[v]->data();
    }
    return plan;
  }
};

}  // namespace

const KernelTable& kernels() {
  static const KernelTable table = [] {
    KernelTable t;
    add_elementwise_kernels(t);
    add_activation_kernels(t);
    add_softmax_kernels(t);
    add_conv_kernels(t);
    add_gemm_kernels(t);
    add_pool_kernels(t);
    add_shape_kernels(t);
    add_reduce_kernels(t);
    add_normalization_kernels(t);
    add_quantize_kernels(t);
    add_resize_kernels(t);
    add_space_kernels(t);
    add_conv_transpose_kernels(t);
    add_lstm_kernels(t);
    add_qlstm_kernels(t);
    add_detection_post_process_kernels(t);
    add_layer_norm_kernels(t);
    add_where_kernels(t);
    add_rearrange_kernels(t);
    add_gather_scatter_kernels(t);
    add_executorch_kernels(t);
    add_qlinear_kernels(t);
    add_rnn_kernels(t);
    add_index_kernels(t);
    add_value_shaped_kernels(t);
    add_matrix_kernels(t);
    add_axis_kernels(t);
    add_loss_kernels(t);
    add_bitwise_kernels(t);
    return t;
  }();
  return table;
}

std::shared_ptr<const Backend> backend() {
  static const std::shared_ptr<const Backend> b = std::make_shared<CpuBackend>();
  return b;
}

void register_backend() { nnbridge::register_backend(backend()); }

std::vector<std::string> supported_ops() {
  std::vector<std::string> out;
  for (const auto& [name, f] : kernels()) out.push_back(name);
  return out;
}

}  // namespace nnbridge::cpu_ref
