// Run-time benchmark of the "cpu" backend, one table with the targets of issue 3:
//   (1) a MobileNet v1 network written by Arm NN 20.08 (nnbridge-armnn-peer bench-models):
//       median latency of Plan::run against Arm NN 20.08 CpuRef's EnqueueWorkload on the same
//       file (the peer's `time` command), target >= 20x;
//   (2) SGEMM GFLOP/s of the FullyConnected (Gemm, transB) and MatMul paths against a plain Eigen
//       product of the same sizes compiled with the same flags, target >= 80%;
//   (3) elementwise Add GB/s (2 reads + 1 write per element) against memcpy (1 read + 1 write),
//       target >= 60%: the backend's Add kernel on preallocated buffers, and Plan::run of a
//       one-node graph (its output zeroed before the kernel, its buffer reused across runs) for
//       information.
// Ratios compare like with like: one thread on both sides for (2) and (3); the MobileNet ratio
// uses all cores for nnbridge (its default) against CpuRef, which has one thread.
//
//   nnbridge-bench-cpu [--peer PEER --model FILE.armnn --inputs DIR [--expected DIR]]
//                      [--runs N] [--armnn-runs N]
#include <Eigen/Core>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "kernel.h"  // cpu_ref/src: the Add kernel itself, for (3)
#include "nnbridge/cpu_ref.h"
#include "nnbridge/io.h"
#include "nnbridge/npy.h"

using namespace nnbridge;
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;
using RowMat = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// Median seconds of `fn` over enough runs to fill about `budget_s` (at least 5, at most 1000),
// after one warm-up run.
double median_s(const std::function<void()>& fn, double budget_s = 0.3, int min_runs = 5) {
  fn();
  std::vector<double> t;
  const auto start = Clock::now();
  while (t.size() < 1000 && (static_cast<int>(t.size()) < min_runs ||
                              std::chrono::duration<double>(Clock::now() - start).count() < budget_s)) {
    const auto t0 = Clock::now();
    fn();
    t.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

// Medians of `a` and `b` timed alternately (so that load from other processes, which drifts,
// hits both alike), over about `budget_s`.
std::pair<double, double> median_pair(const std::function<void()>& a, const std::function<void()>& b, double budget_s = 1.0,
                                      int min_runs = 7) {
  a(), b();
  std::vector<double> ta, tb;
  const auto start = Clock::now();
  while (ta.size() < 1000 && (static_cast<int>(ta.size()) < min_runs ||
                              std::chrono::duration<double>(Clock::now() - start).count() < budget_s)) {
    auto t0 = Clock::now();
    a();
    ta.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
    t0 = Clock::now();
    b();
    tb.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
  }
  std::sort(ta.begin(), ta.end());
  std::sort(tb.begin(), tb.end());
  return {ta[ta.size() / 2], tb[tb.size() / 2]};
}

std::vector<float> data(std::size_t n, unsigned seed) {
  std::vector<float> v(n);
  uint32_t s = 2463534242u ^ seed;
  for (auto& x : v) {
    s ^= s << 13, s ^= s >> 17, s ^= s << 5;
    x = static_cast<float>(s % 2001) / 1000.0f - 1.0f;
  }
  return v;
}

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }

struct Row {
  std::string what, ours, base, ratio, target, result;
};

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

std::string cpu_model() {
  std::ifstream f("/proc/cpuinfo");
  for (std::string line; std::getline(f, line);)
    if (line.rfind("model name", 0) == 0) return line.substr(line.find(':') + 2);
  return "unknown CPU";
}

std::unique_ptr<Plan> prepare(const Graph& g, int threads) {
  BackendOptions o;
  o.threads = threads;
  return find_backend("cpu")->prepare(g, o);
}

// ---- (1) MobileNet ----

struct Args {
  std::string peer, model, inputs, expected;
  int runs = 30, armnn_runs = 5;
};

// Arm NN CpuRef's median wall time per run (ms); its median CPU time goes to `cpu_ms`.
double peer_median_ms(const Args& a, std::string& why, double& cpu_ms) {
  const std::string cmd = "'" + a.peer + "' time '" + a.model + "' '" + a.inputs + "' " + std::to_string(a.armnn_runs);
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) {
    why = "cannot start the peer";
    return -1;
  }
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  if (pclose(p) != 0) {
    why = "the peer failed";
    return -1;
  }
  try {
    const auto j = nlohmann::json::parse(out);
    cpu_ms = j.value("median_cpu_ms", -1.0);
    return j.at("median_ms").get<double>();
  } catch (const std::exception& e) {
    why = std::string("unreadable peer output: ") + e.what();
    return -1;
  }
}

void mobilenet(const Args& a, std::vector<Row>& rows, std::vector<std::string>& notes) {
  const Graph g = load(a.model);
  TensorMap inputs;
  for (const auto& e : fs::directory_iterator(a.inputs))
    if (e.path().extension() == ".npy") inputs[e.path().stem().string()] = read_npy(e.path());
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const auto t0 = Clock::now();
  auto plan = prepare(g, 0);
  const double prep_ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  TensorMap out;
  // Process CPU time per run too: on a machine shared with other work, a second thread may wait
  // for a core, which shows as wall time but not as CPU time.
  auto cpu_s = [] {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
  };
  auto plan1 = prepare(g, 1);
  out = plan->run(inputs);
  // All cores and one thread alternately (drifting load hits both alike), CPU time apart.
  double all_cpu = 0, one_cpu = 0;
  const auto [all_s, one_s] = median_pair(
      [&] {
        const double c = cpu_s();
        plan->run(inputs);
        all_cpu += cpu_s() - c;
      },
      [&] {
        const double c = cpu_s();
        plan1->run(inputs);
        one_cpu += cpu_s() - c;
      },
      0.0, a.runs);
  const double all_ms = 1e3 * all_s, one_ms = 1e3 * one_s;
  const double all_cpu_ms = 1e3 * all_cpu / (a.runs + 1), one_cpu_ms = 1e3 * one_cpu / (a.runs + 1);
  notes.push_back("MobileNet: " + fs::path(a.model).filename().string() + ", " + std::to_string(g.nodes.size()) +
                  " nodes; nnbridge prepare " + fmt("%.0f", prep_ms) + " ms; medians of " + std::to_string(a.runs) +
                  " runs (nnbridge) and " + std::to_string(a.armnn_runs) + " runs (Arm NN); nnbridge CPU time per run " +
                  fmt("%.1f ms", all_cpu_ms) + " on " + std::to_string(cores) + " threads, " + fmt("%.1f ms", one_cpu_ms) +
                  " on 1.");
  if (!a.expected.empty()) {
    TensorMap expected;
    for (const auto& e : fs::directory_iterator(a.expected))
      if (e.path().extension() == ".npy") expected[e.path().stem().string()] = read_npy(e.path());
    for (const auto& r : compare_outputs(out, expected, Tolerance{}, "cpu"))
      notes.push_back("MobileNet output " + r.output + " vs Arm NN CpuRef: max abs error " + fmt("%.2g", r.max_abs_error) +
                      (r.passed ? " (within 1e-5 + 1e-4 |e|)" : " (NOT within tolerance: " + r.message + ")"));
  }
  std::string why = "no --peer";
  double ref_cpu_ms = -1;
  const double ref_ms = a.peer.empty() ? -1 : peer_median_ms(a, why, ref_cpu_ms);
  if (ref_cpu_ms > 0)
    notes.push_back("CPU time per run: Arm NN CpuRef " + fmt("%.0f ms", ref_cpu_ms) + ", nnbridge " + fmt("%.1f ms", one_cpu_ms) +
                    " on 1 thread (" + fmt("%.0fx", ref_cpu_ms / one_cpu_ms) + ").");
  const std::string base = ref_ms > 0 ? fmt("%.0f ms (Arm NN 20.08 CpuRef)", ref_ms) : "n/a: " + why;
  auto row = [&](int threads, double ms, bool scored) {
    const double ratio = ref_ms > 0 ? ref_ms / ms : 0;
    rows.push_back({"MobileNet v1 112x112, median latency, " + std::to_string(threads) + " thread" + (threads > 1 ? "s" : ""),
                    fmt("%.1f ms", ms), base, ref_ms > 0 ? fmt("%.0fx", ratio) : "n/a", scored ? ">= 20x" : "(info)",
                    scored ? (ref_ms > 0 ? (ratio >= 20 ? "met" : "NOT met") : "not measured") : ""});
  };
  row(cores, all_ms, true);
  if (cores > 1) row(1, one_ms, false);
}

// ---- (2) SGEMM ----

void sgemm(std::vector<Row>& rows) {
  struct Size {
    int64_t m, k, n;
    bool fc;  // Gemm with transB and a bias (FullyConnected), else MatMul
  };
  const Size sizes[] = {{1, 1024, 1000, true}, {64, 1024, 1024, true}, {256, 512, 512, true}, {256, 512, 512, false},
                        {512, 512, 512, false}};
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (const Size& s : sizes) {
    const auto a = data(static_cast<std::size_t>(s.m * s.k), 1), b = data(static_cast<std::size_t>(s.k * s.n), 2),
               c = data(static_cast<std::size_t>(s.n), 3);
    Graph g;
    ValueId x = g.add_value(Value{"a", f32({s.m, s.k}), std::nullopt, {}});
    ValueId w = g.add_value(Value{"b", s.fc ? f32({s.n, s.k}) : f32({s.k, s.n}),
                                  Buffer::copy_of(std::as_bytes(std::span<const float>(b))), {}});
    ValueId y = g.add_value(Value{"y", f32({s.m, s.n}), std::nullopt, {}});
    g.inputs = {x};
    g.outputs = {y};
    if (s.fc) {
      ValueId bias = g.add_value(Value{"c", f32({s.n}), Buffer::copy_of(std::as_bytes(std::span<const float>(c))), {}});
      g.add_node(Node{"Gemm", "fc", {x, w, bias}, {y}, {{"transB", Attr(int64_t{1})}}});
    } else {
      g.add_node(Node{"MatMul", "matmul", {x, w}, {y}, {}});
    }
    const TensorMap in{{"a", HostTensor::from_values<float>(f32({s.m, s.k}), a)}};
    auto p1 = prepare(g, 1), pn = prepare(g, 0);
    // Plain Eigen, same product, same compiler flags, one thread.
    Eigen::Map<const RowMat> A(a.data(), s.m, s.k);
    Eigen::Map<const RowMat> Bt(b.data(), s.n, s.k), B(b.data(), s.k, s.n);
    RowMat Y(s.m, s.n);
    auto eigen = [&] {
      if (s.fc) Y.noalias() = A * Bt.transpose();
      else Y.noalias() = A * B;
    };
    const auto [t1, te] = median_pair([&] { p1->run(in); }, eigen);
    const double tn = median_s([&] { pn->run(in); });
    const double flop = 2.0 * static_cast<double>(s.m * s.n * s.k);
    const double ratio = te / t1;
    rows.push_back({std::string(s.fc ? "SGEMM FullyConnected (Gemm transB + bias) " : "SGEMM MatMul ") + std::to_string(s.m) + "x" +
                        std::to_string(s.k) + "x" + std::to_string(s.n) + ", GFLOP/s, 1 thread (" + std::to_string(cores) +
                        ": " + fmt("%.1f", flop / tn / 1e9) + ")",
                    fmt("%.1f", flop / t1 / 1e9), fmt("%.1f (plain Eigen)", flop / te / 1e9), fmt("%.0f%%", 100 * ratio), ">= 80%",
                    ratio >= 0.8 ? "met" : "NOT met"});
  }
}

// ---- (3) elementwise Add ----

// The backend's Add kernel for two [n] inputs, as a plan would run it.
cpu_ref::Kernel add_kernel(int64_t n, int threads, Node& node) {
  node = Node{"Add", "add", {0, 1}, {2}, {}};
  cpu_ref::KernelContext ctx{.node = node, .schema = find_schema("Add"), .in = {f32({n}), f32({n})}, .out = {f32({n})},
                             .constants = {nullptr, nullptr}, .threads = threads, .in_attrs = {nullptr, nullptr}};
  return cpu_ref::kernels().at("Add")(ctx);
}

void add(std::vector<Row>& rows) {
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int64_t n : {int64_t{1} << 18, int64_t{1} << 24}) {
    const auto a = data(static_cast<std::size_t>(n), 4), b = data(static_cast<std::size_t>(n), 5);
    std::vector<float> y(static_cast<std::size_t>(n), 0.0f), z(static_cast<std::size_t>(n), 0.0f);
    const double bytes_add = 12.0 * static_cast<double>(n), bytes_copy = 8.0 * static_cast<double>(n);
    Node node1, noden;
    auto k1 = add_kernel(n, 1, node1), kn = add_kernel(n, cores, noden);
    const float* ins[] = {a.data(), b.data()};
    float* outs[] = {y.data()};
    const auto [t1, tc] = median_pair([&] { k1(ins, outs); }, [&] { std::memcpy(z.data(), a.data(), static_cast<std::size_t>(n) * 4); });
    const double tn = median_s([&] { kn(ins, outs); });
    const double copy_gbs = bytes_copy / tc / 1e9, add_gbs = bytes_add / t1 / 1e9;
    const std::string size = n >= (1 << 20) ? std::to_string(n >> 20) + "M" : std::to_string(n >> 10) + "K";
    rows.push_back({"Add kernel " + size + " floats (" + fmt("%.0f", 4.0 * n / 1048576) + " MiB/array), GB/s, 1 thread (" +
                        std::to_string(cores) + ": " + fmt("%.1f", bytes_add / tn / 1e9) + ")",
                    fmt("%.1f", add_gbs), fmt("%.1f (memcpy)", copy_gbs), fmt("%.0f%%", 100 * add_gbs / copy_gbs), ">= 60%",
                    add_gbs >= 0.6 * copy_gbs ? "met" : "NOT met"});
    // The same through Plan::run: inputs read in place, the output zeroed, then computed into a
    // buffer that comes back to the plan when the returned tensor is released.
    Graph g;
    ValueId x0 = g.add_value(Value{"a", f32({n}), std::nullopt, {}});
    ValueId x1 = g.add_value(Value{"b", f32({n}), std::nullopt, {}});
    ValueId yo = g.add_value(Value{"y", f32({n}), std::nullopt, {}});
    g.inputs = {x0, x1};
    g.outputs = {yo};
    g.add_node(Node{"Add", "add", {x0, x1}, {yo}, {}});
    auto plan = prepare(g, 1);
    const TensorMap in{{"a", HostTensor::from_values<float>(f32({n}), a)}, {"b", HostTensor::from_values<float>(f32({n}), b)}};
    const double tr = median_s([&] { plan->run(in); });
    rows.push_back({"Add via Plan::run " + size + " floats, GB/s, 1 thread (output zeroed, buffer reused)", fmt("%.1f", bytes_add / tr / 1e9),
                    fmt("%.1f (memcpy)", copy_gbs), fmt("%.0f%%", 100 * bytes_add / tr / 1e9 / copy_gbs), "(info)", ""});
  }
}

int usage() {
  std::cerr << "usage: nnbridge-bench-cpu [--peer PEER --model FILE.armnn --inputs DIR [--expected DIR]] [--runs N] "
               "[--armnn-runs N]\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) return usage();
    const std::string v = argv[++i];
    if (k == "--peer") a.peer = v;
    else if (k == "--model") a.model = v;
    else if (k == "--inputs") a.inputs = v;
    else if (k == "--expected") a.expected = v;
    else if (k == "--runs") a.runs = std::max(1, std::stoi(v));
    else if (k == "--armnn-runs") a.armnn_runs = std::max(1, std::stoi(v));
    else return usage();
  }
  if (a.model.empty() != a.inputs.empty()) return usage();
  cpu_ref::register_backend();
  std::vector<Row> rows;
  std::vector<std::string> notes;
  try {
    if (!a.model.empty()) mobilenet(a, rows, notes);
    sgemm(rows);
    add(rows);
  } catch (const std::exception& e) {
    std::cerr << "nnbridge-bench-cpu: " << e.what() << "\n";
    return 1;
  }
  std::cout << "Machine: " << cpu_model() << ", " << std::thread::hardware_concurrency()
            << " cores; the cpu backend's vector kernels use " << cpu_ref::simd_arch()
            << " (xsimd::dispatch); Eigen " << EIGEN_WORLD_VERSION << "." << EIGEN_MAJOR_VERSION << "." << EIGEN_MINOR_VERSION
            << " as compiled for the baseline x86-64 target.\n\n";
  std::printf("| %-78s | %10s | %32s | %6s | %7s | %7s |\n", "benchmark", "nnbridge", "baseline", "ratio", "target", "result");
  std::printf("|%s|%s|%s|%s|%s|%s|\n", std::string(80, '-').c_str(), std::string(12, '-').c_str(), std::string(34, '-').c_str(),
              std::string(8, '-').c_str(), std::string(9, '-').c_str(), std::string(9, '-').c_str());
  bool all_met = true;
  for (const Row& r : rows) {
    std::printf("| %-78s | %10s | %32s | %6s | %7s | %7s |\n", r.what.c_str(), r.ours.c_str(), r.base.c_str(), r.ratio.c_str(),
                r.target.c_str(), r.result.c_str());
    if (r.result == "NOT met") all_met = false;
  }
  std::cout << "\n";
  for (const auto& n : notes) std::cout << n << "\n";
  std::cout << (all_met ? "All targets met.\n" : "Some targets not met.\n");
  return 0;
}
