// parallel_for and parallel_ranges (kernel.h): the cpu kernels' threads.
//
// A graph runs as a sequence of nodes, each of which may split its work across threads; on the
// zoo models that is 50 to 150 parallel regions of 20 to 500 microseconds per inference. Waking a
// sleeping thread (a futex wake, an inter-processor interrupt; more under a hypervisor) and
// putting the caller to sleep until the last item is done cost tens of microseconds each, which
// made two threads slower than one on mobilenet_v2 and mnasnet. So the pool's workers spin for a
// while after each region, waiting for the next one, before they sleep, and the caller spins
// while the last items finish (ONNX Runtime's intra-op pool spins for the same reason). Eigen's
// ThreadPool, used before, keeps its workers spinning only briefly and has no way to wait for a
// batch without a condition variable.
#include "kernel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define NNBRIDGE_CPU_RELAX() _mm_pause()
#elif defined(__aarch64__)
#define NNBRIDGE_CPU_RELAX() asm volatile("yield")
#else
#define NNBRIDGE_CPU_RELAX() ((void)0)
#endif

namespace nnbridge::cpu_ref {

namespace {

// How long a worker keeps looking for the next region before it sleeps, and how long the caller
// spins for the last items before it yields its core between looks.
constexpr auto kWorkerSpin = std::chrono::microseconds(1000);
constexpr auto kCallerSpin = std::chrono::microseconds(200);

// One parallel region. The items are cut into one contiguous share per seat (the caller is seat
// 0, pool worker w always seat w), so that consecutive regions split the same way (a node's rows
// split in halves, the next node's too) hand each core the data it wrote itself: on the zoo
// models, moving a tensor between cores' caches cost more than the second core gained. A seat
// that finishes its share takes items from the others' (a helper may start late, its core
// busy). The caller waits for the items to be done, not for helpers to arrive, so a helper that
// comes late finds nothing left and touches only this state, which its shared_ptr keeps alive.
struct Job {
  struct alignas(64) Share {
    std::atomic<int64_t> next{0};
    int64_t end = 0;
  };
  const std::function<void(int64_t)>* fn = nullptr;  // valid while items remain
  int64_t n = 0;
  int seats = 1;  // the caller and up to seats - 1 helpers
  std::unique_ptr<Share[]> shares;
  alignas(64) std::atomic<int64_t> done{0};
  std::mutex error_mu;
  std::exception_ptr error;

  Job(const std::function<void(int64_t)>& f, int64_t items, int s) : fn(&f), n(items), seats(s), shares(new Share[s]) {
    for (int t = 0; t < s; ++t) {
      shares[t].next.store(items * t / s, std::memory_order_relaxed);
      shares[t].end = items * (t + 1) / s;
    }
  }

  // Runs seat `seat`'s share, then whatever is left of the others'.
  void work(int seat) {
    for (int k = 0; k < seats; ++k) {
      Share& sh = shares[(seat + k) % seats];
      for (int64_t i; (i = sh.next.fetch_add(1, std::memory_order_relaxed)) < sh.end;) {
        try {
          (*fn)(i);
        } catch (...) {
          std::lock_guard lock(error_mu);
          if (!error) error = std::current_exception();
        }
        done.fetch_add(1, std::memory_order_release);
      }
    }
  }
};

// True on the pool's workers, and on a caller while it runs a region: a parallel_for reached
// from inside an item then runs alone (waiting for the pool there could deadlock it).
thread_local bool t_in_pool = false;

// One process-wide pool with a worker per core but one: the thread that calls parallel_for works
// too. Started on first use and never destroyed, so that neither exit nor a forked child (which
// has no workers: its caller then runs every item itself) has to join threads.
class Pool {
 public:
  explicit Pool(int workers) : size_(workers) {
    for (int t = 1; t <= workers; ++t) std::thread([this, t] { loop(t); }).detach();
  }
  int size() const { return size_; }

  // Runs the job with workers 1 .. job->seats - 1; false when another caller holds the pool
  // (the caller then runs the items alone).
  bool run(const std::shared_ptr<Job>& job) {
    std::unique_lock submit(submit_mu_, std::try_to_lock);
    if (!submit) return false;
    t_in_pool = true;
    {
      std::lock_guard lock(mu_);
      job_ = job;
      epoch_.fetch_add(1, std::memory_order_release);
    }
    if (sleeping_.load() > 0) wake_.notify_all();
    job->work(0);
    const auto start = std::chrono::steady_clock::now();
    for (int spins = 0; job->done.load(std::memory_order_acquire) != job->n; ++spins) {
      NNBRIDGE_CPU_RELAX();
      if ((spins & 255) == 255 && std::chrono::steady_clock::now() - start > kCallerSpin) std::this_thread::yield();
    }
    t_in_pool = false;
    std::lock_guard lock(mu_);
    job_.reset();
    return true;
  }

 private:
  // Worker `seat`: looks for a new region, spinning for kWorkerSpin after the last one it worked
  // on, then sleeping. A region with fewer seats than this worker's does not restart its spin.
  void loop(int seat) {
    t_in_pool = true;
    uint64_t seen = 0;
    auto idle_since = std::chrono::steady_clock::now();
    for (;;) {
      for (int spins = 0; epoch_.load(std::memory_order_acquire) == seen; ++spins) {
        NNBRIDGE_CPU_RELAX();
        if ((spins & 255) != 255 || std::chrono::steady_clock::now() - idle_since < kWorkerSpin) continue;
        std::unique_lock lock(mu_);
        sleeping_.fetch_add(1);
        wake_.wait(lock, [&] { return epoch_.load() != seen; });
        sleeping_.fetch_sub(1);
        break;
      }
      std::shared_ptr<Job> job;
      {
        std::lock_guard lock(mu_);
        job = job_;
        seen = epoch_.load();
      }
      if (job && seat < job->seats) {
        job->work(seat);
        idle_since = std::chrono::steady_clock::now();
      }
    }
  }

  const int size_;
  std::mutex submit_mu_;  // one region at a time
  std::mutex mu_;         // guards job_; with wake_ for sleeping workers
  std::condition_variable wake_;
  std::shared_ptr<Job> job_;
  std::atomic<uint64_t> epoch_{0};
  std::atomic<int> sleeping_{0};
};

Pool* shared_pool() {
  static Pool* pool = [] {
    const int cores = static_cast<int>(std::thread::hardware_concurrency());
    return cores > 1 ? new Pool(cores - 1) : nullptr;
  }();
  return pool;
}

}  // namespace

void parallel_for(int threads, int64_t n, const std::function<void(int64_t)>& fn) {
  const int64_t workers = std::min<int64_t>(std::max(threads, 1), n);
  Pool* pool = workers > 1 && !t_in_pool ? shared_pool() : nullptr;
  if (pool) {
    auto job = std::make_shared<Job>(fn, n, static_cast<int>(std::min<int64_t>(workers, pool->size() + 1)));
    if (pool->run(job)) {
      if (job->error) std::rethrow_exception(job->error);
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i) fn(i);
}

void parallel_ranges(int threads, int64_t n, int64_t grain, const std::function<void(int64_t, int64_t)>& fn, int64_t align) {
  if (n <= 0) return;
  const int64_t parts = std::clamp<int64_t>(n / std::max<int64_t>(grain, 1), 1, std::max(threads, 1));
  if (parts == 1) return fn(0, n);
  if (align <= 1) {  // as even as the items allow
    parallel_for(static_cast<int>(parts), parts, [&](int64_t k) { fn(n * k / parts, n * (k + 1) / parts); });
    return;
  }
  const int64_t step = ((n + parts - 1) / parts + align - 1) / align * align;
  parallel_for(static_cast<int>(parts), (n + step - 1) / step, [&](int64_t k) { fn(k * step, std::min(n, (k + 1) * step)); });
}

}  // namespace nnbridge::cpu_ref
