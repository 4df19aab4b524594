// parallel_for and parallel_ranges (kernel.h): the cpu kernels' threads.
#include "kernel.h"

#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/ThreadPool>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

namespace nnbridge::cpu_ref {

namespace {

// One process-wide pool (Eigen's non-blocking thread pool) with a worker per core but one: the
// thread that calls parallel_for works too. Started on first use and never destroyed, so that
// neither exit nor a forked child has to join threads.
Eigen::ThreadPool* shared_pool() {
  static Eigen::ThreadPool* pool = [] {
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    return cores > 1 ? new Eigen::ThreadPool(cores - 1, /*allow_spinning=*/false) : nullptr;
  }();
  return pool;
}

}  // namespace

void parallel_for(int threads, int64_t n, const std::function<void(int64_t)>& fn) {
  const int64_t workers = std::min<int64_t>(std::max(threads, 1), n);
  Eigen::ThreadPool* pool = workers > 1 ? shared_pool() : nullptr;
  // A pool worker that reaches a parallel_for (a kernel inside a parallel item) runs it alone:
  // waiting there for other workers could deadlock the pool.
  if (!pool || pool->CurrentThreadId() != -1) {
    for (int64_t i = 0; i < n; ++i) fn(i);
    return;
  }
  // Items are claimed from a shared counter. The caller waits for the items to be done, not for
  // the helper tasks to run: a helper that starts late (its core busy) finds nothing left and
  // touches only this shared state, which it keeps alive.
  struct State {
    std::function<void(int64_t)> fn;
    int64_t n = 0;
    std::atomic<int64_t> next{0}, done{0};
    std::mutex mu;
    std::condition_variable all_done;
    std::exception_ptr error;
  };
  auto st = std::make_shared<State>();
  st->fn = fn;
  st->n = n;
  auto work = [](State& s) {
    for (int64_t i; (i = s.next.fetch_add(1)) < s.n;) {
      try {
        s.fn(i);
      } catch (...) {
        std::lock_guard lock(s.mu);
        if (!s.error) s.error = std::current_exception();
      }
      if (s.done.fetch_add(1) + 1 == s.n) {
        std::lock_guard lock(s.mu);
        s.all_done.notify_all();
      }
    }
  };
  const int64_t helpers = std::min<int64_t>(workers - 1, pool->NumThreads());
  for (int64_t t = 0; t < helpers; ++t) pool->Schedule([st, work] { work(*st); });
  work(*st);
  std::unique_lock lock(st->mu);
  st->all_done.wait(lock, [&] { return st->done.load() == n; });
  if (st->error) std::rethrow_exception(st->error);
}

void parallel_ranges(int threads, int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn) {
  if (n <= 0) return;
  const int64_t parts = std::clamp<int64_t>(n / std::max<int64_t>(grain, 1), 1, std::max(threads, 1));
  if (parts == 1) return fn(0, n);
  const int64_t step = ((n + parts - 1) / parts + 15) / 16 * 16;
  parallel_for(static_cast<int>(parts), (n + step - 1) / step, [&](int64_t k) { fn(k * step, std::min(n, (k + 1) * step)); });
}

}  // namespace nnbridge::cpu_ref
