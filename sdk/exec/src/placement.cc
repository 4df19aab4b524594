// Plan's defaults (placement, run_profiled) and backend_counts (nnbridge/exec.h).
#include <algorithm>

#include "nnbridge/error.h"
#include "nnbridge/exec.h"

namespace nnbridge {

const std::vector<NodePlacement>& Plan::placement() const {
  static const std::vector<NodePlacement> none;
  return none;
}

TensorMap Plan::run_profiled(const TensorMap&, std::vector<NodeTime>&) const {
  throw Error(ErrorId::Feature, "this backend's plans do not time their steps (run_profiled: the cpu backend's do)");
}

std::vector<std::pair<std::string, std::size_t>> backend_counts(const Plan& plan) {
  std::vector<std::pair<std::string, std::size_t>> out;
  for (const NodePlacement& p : plan.placement()) {
    auto it = std::find_if(out.begin(), out.end(), [&](const auto& c) { return c.first == p.backend; });
    if (it == out.end()) out.emplace_back(p.backend, 1);
    else ++it->second;
  }
  return out;
}

}  // namespace nnbridge
