// The backend registry (docs/architecture.md: backends register themselves by name).
#include <algorithm>
#include <mutex>
#if defined(__linux__)
#include <pthread.h>
#endif

#include "nnbridge/exec.h"

namespace nnbridge {

namespace {
struct Registry {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<const Backend>, std::less<>> backends;
};
Registry& registry() {
  // Held across fork() (POSIX pthread_atfork), so that a child forked while another thread
  // looked a backend up can look one up too (fork() copies only the calling thread).
  static Registry* r = [] {
    auto* created = new Registry;
#if defined(__linux__)
    pthread_atfork([] { registry().mu.lock(); }, [] { registry().mu.unlock(); },
                   [] { registry().mu.unlock(); });
#endif
    return created;
  }();
  return *r;
}
// Made at load, before the program has threads: a child forked during another thread's first
// registry() call would wait forever on its static-initialization guard.
[[maybe_unused]] const Registry& kRegistryAtLoad = registry();
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
