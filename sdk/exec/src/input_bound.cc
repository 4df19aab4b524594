// Input-bound plans (nnbridge/exec/input_bound.h).
#include "nnbridge/exec/input_bound.h"

#include <algorithm>
#include <mutex>

#include "nnbridge/error.h"
#include "nnbridge/exec/convert.h"

namespace nnbridge::exec {

namespace {

class InputBoundPlan final : public Plan {
 public:
  InputBoundPlan(std::shared_ptr<const Backend> backend, Graph g, BackendOptions options)
      : backend_(std::move(backend)), graph_(std::move(g)), options_(std::move(options)) {
    options_.fold_all_constants = true;  // every value is then known before its consumer is prepared
    for (ValueId id : graph_.inputs) in_types_.emplace_back(graph_.values[id].name, graph_.values[id].type);
    for (ValueId id : graph_.outputs) out_types_.emplace_back(graph_.values[id].name, graph_.values[id].type);
  }

  const std::vector<std::pair<std::string, TensorType>>& input_types() const override { return in_types_; }
  const std::vector<std::pair<std::string, TensorType>>& output_types() const override { return out_types_; }
  const std::vector<NodePlacement>& placement() const override {
    std::lock_guard lock(mutex_);
    return placement_;
  }

  // Each run prepares the bound graph, which computes every node while it prepares.
  TensorMap run_profiled(const TensorMap&, std::vector<NodeTime>&) const override {
    throw Error(ErrorId::Feature,
                "this graph's shapes depend on its input values, so each run prepares it anew and computes its nodes while "
                "preparing: such a plan does not time its steps (run_profiled)");
  }

  TensorMap run(const TensorMap& inputs) const override {
    for (const auto& input : inputs)
      if (std::none_of(in_types_.begin(), in_types_.end(), [&](const auto& p) { return p.first == input.first; }))
        throw Error(ErrorId::MissingInput, "\"" + input.first + "\" is not a graph input");
    Graph bound = graph_;
    for (ValueId id : graph_.inputs) {
      Value& v = bound.values[id];
      auto it = inputs.find(v.name);
      if (it == inputs.end()) throw Error(ErrorId::MissingInput, "no tensor given for graph input \"" + v.name + "\"");
      const HostTensor& t = it->second;
      // A dim the graph leaves -1 (dynamic) takes the tensor's.
      bool fits = t.shape().size() == v.type.shape.size();
      for (std::size_t d = 0; fits && d < v.type.shape.size(); ++d)
        fits = v.type.shape[d] < 0 || v.type.shape[d] == t.shape()[d];
      if (!fits) throw Error(ErrorId::Shape, "graph input \"" + v.name + "\" has the wrong shape");
      v.type.shape = t.shape();
      if (t.dtype() != v.type.dtype && t.dtype() != storage_type(v.type.dtype))
        throw Error(ErrorId::TypeMismatch, "graph input \"" + v.name + "\" is " + std::string(to_string(t.dtype())) +
                                            ", the graph needs " + std::string(to_string(v.type.dtype)));
      if (t.dtype() == v.type.dtype) {
        v.constant = Buffer::copy_of(t.bytes());
      } else {  // the storage type: through the float32 values both backends compute with
        const std::vector<float> f = to_float(t.type(), t.bytes().data(), t.element_count());
        v.constant = Buffer::owned(from_float(v.type, f.data(), f.size()));
      }
    }
    bound.inputs.clear();
    const std::unique_ptr<Plan> plan = backend_->prepare(bound, options_);
    {
      std::lock_guard lock(mutex_);
      if (placement_.empty()) placement_ = plan->placement();
    }
    return plan->run({});
  }

 private:
  std::shared_ptr<const Backend> backend_;
  Graph graph_;
  BackendOptions options_;
  std::vector<std::pair<std::string, TensorType>> in_types_, out_types_;
  mutable std::mutex mutex_;
  mutable std::vector<NodePlacement> placement_;
};

}  // namespace

std::unique_ptr<Plan> input_bound_plan(std::shared_ptr<const Backend> backend, const Graph& g,
                                       const BackendOptions& options) {
  if (!backend) throw Error(ErrorId::OptionValue, "input_bound_plan: no backend");
  return std::make_unique<InputBoundPlan>(std::move(backend), g, options);
}

}  // namespace nnbridge::exec
