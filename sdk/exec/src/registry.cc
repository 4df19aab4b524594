// The backend registry (docs/architecture.md: backends register themselves by name).
#include <algorithm>
#include <mutex>

#include "nnbridge/exec.h"

namespace nnbridge {

namespace {
struct Registry {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const Backend>, std::less<>> backends;
};
Registry& registry() {
  static Registry r;
  return r;
}
}  // namespace

void register_backend(std::shared_ptr<const Backend> backend) {
  if (!backend) return;
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  r.backends[backend->name()] = std::move(backend);
}

std::shared_ptr<const Backend> find_backend(std::string_view name) {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  auto it = r.backends.find(name);
  return it == r.backends.end() ? nullptr : it->second;
}

std::vector<std::shared_ptr<const Backend>> all_backends() {
  Registry& r = registry();
  std::lock_guard lock(r.mu);
  std::vector<std::shared_ptr<const Backend>> out;
  for (auto& [name, b] : r.backends) out.push_back(b);
  return out;
}

}  // namespace nnbridge
