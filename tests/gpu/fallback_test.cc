// Fallback from opencl to cpu as the exec floor runs it (nnbridge/exec/prepare.h): a node opencl
// has no kernel for runs on the backends of BackendOptions::fallback, found through the registry
// and prepared with the caller's whole options, so an application's custom cpu kernels, its
// extension libraries and its thread count reach that node; Plan::placement says which backend
// ran each node. Expected values are computed by hand from the inputs.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <mutex>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/gpu.h"
#include "support/paths.h"
#include "have_opencl.h"

using namespace nnbridge;

namespace {

TensorType f32(std::vector<int64_t> shape) { return TensorType{DataType::Float32, std::move(shape), false, std::nullopt}; }

// x [2, 3] -> Relu (opencl) -> r;  app.Blend(r, x) = 10 * r + x (a custom cpu kernel, no opencl
// kernel) -> b;  Add(b, c) with c a constant -> y (opencl). The fallback node reads one tensor
// computed on the device (r) and one graph input (x), in that slot order.
Graph blend_graph() {
  Graph g;
  g.values.push_back(Value{"x", f32({2, 3}), {}, {}});  // 0
  g.values.push_back(Value{"r", f32({2, 3}), {}, {}});  // 1
  g.values.push_back(Value{"b", f32({2, 3}), {}, {}});  // 2
  const std::vector<float> c{0.5f, 1.0f, 1.5f, 2.0f, 2.5f, 3.0f};
  Value cv{"c", f32({2, 3}), {}, {}};
  cv.constant = Buffer::copy_of(std::as_bytes(std::span<const float>(c)));
  g.values.push_back(std::move(cv));                    // 3
  g.values.push_back(Value{"y", f32({2, 3}), {}, {}});  // 4
  g.nodes.push_back(Node{"Relu", "relu", {0}, {1}, {}});
  g.nodes.push_back(Node{"app.Blend", "blend", {1, 0}, {2}, {}});
  g.nodes.push_back(Node{"Add", "add", {2, 3}, {4}, {}});
  g.inputs = {0};
  g.outputs = {4};
  return g;
}

// What the custom kernel saw on its last call.
struct Seen {
  std::mutex mu;
  std::vector<float> a, b;
  int threads = 0;
  int calls = 0;
};

std::shared_ptr<cpu_ref::KernelRegistry> blend_kernel(Seen& seen) {
  auto reg = std::make_shared<cpu_ref::KernelRegistry>();
  reg->add(cpu_ref::CustomKernel{
      .op = "app.Blend",
      .dtype = DataType::Float32,
      .infer = [](const cpu_ref::CustomNode& n) { return std::vector<TensorType>{n.inputs[0]}; },
      .compute =
          [&seen](const cpu_ref::KernelCall& call) {
            auto a = call.inputs[0].as<float>(), b = call.inputs[1].as<float>();
            auto y = call.outputs[0].as<float>();
            for (std::size_t i = 0; i < y.size(); ++i) y[i] = 10.0f * a[i] + b[i];
            std::lock_guard lock(seen.mu);
            seen.a.assign(a.begin(), a.end());
            seen.b.assign(b.begin(), b.end());
            seen.threads = call.threads;
            ++seen.calls;
          },
  });
  return reg;
}

// The message (without identifier) of the Error `f` throws, "" when none; `id` gets its identifier.
std::string error_of(const std::function<void()>& f, ErrorId* id = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (id) *id = e.id();
    return e.message();
  }
  return "";
}

}  // namespace

TEST_CASE("opencl -> cpu fallback: the application's custom cpu kernel runs the fallback node with the right inputs") {
  if (!test::have_opencl()) return;
  cpu_ref::register_backend();  // the fallback list names backends; the registry finds them
  gpu::register_backend();
  Seen seen;
  const Graph g = blend_graph();
  const std::vector<float> x{-1.0f, 2.0f, -3.0f, 4.0f, 0.5f, -0.25f};
  TensorMap in;
  in["x"] = HostTensor::from_values<float>(f32({2, 3}), x);

  for (const bool through_option : {false, true}) {
    CAPTURE(through_option);
    BackendOptions o;
    o.threads = 3;
    o.custom_kernels.push_back(blend_kernel(seen));
    if (through_option) o.options["opencl.fallback"] = "cpu";
    else o.fallback = {"cpu"};
    auto plan = find_backend("opencl")->prepare(g, o);

    // Which backend runs what: Relu and Add on the device, the custom op on cpu.
    const auto& nodes = plan->placement();
    REQUIRE(nodes.size() == 3);
    CHECK(nodes[0].name == "relu");
    CHECK(nodes[0].backend == "opencl");
    CHECK(nodes[1].name == "blend");
    CHECK(nodes[1].backend == "cpu");
    CHECK(nodes[2].name == "add");
    CHECK(nodes[2].backend == "opencl");
    const auto counts = backend_counts(*plan);
    REQUIRE(counts.size() == 2);
    CHECK(counts[0] == std::pair<std::string, std::size_t>{"opencl", 2});
    CHECK(counts[1] == std::pair<std::string, std::size_t>{"cpu", 1});

    seen.calls = 0;
    const TensorMap out = plan->run(in);
    CHECK(seen.calls == 1);
    // The kernel's inputs, by hand: a = relu(x), b = x (slot order kept).
    const std::vector<float> relu{0.0f, 2.0f, 0.0f, 4.0f, 0.5f, 0.0f};
    CHECK(seen.a == relu);
    CHECK(seen.b == x);
    CHECK(seen.threads == 3);  // BackendOptions::threads reached the fallback backend
    // y = 10 * relu(x) + x + c, by hand.
    const float want[] = {-1.0f + 0.5f, 22.0f + 1.0f, -3.0f + 1.5f, 44.0f + 2.0f, 5.5f + 2.5f, -0.25f + 3.0f};
    auto y = out.at("y").values<float>();
    REQUIRE(y.size() == 6);
    for (int i = 0; i < 6; ++i) CHECK(y[i] == doctest::Approx(want[i]).epsilon(1e-6));
  }
}

TEST_CASE("opencl -> cpu fallback: without a fallback list the custom op is Unsupported naming the node") {
  if (!test::have_opencl()) return;
  Seen seen;
  BackendOptions o;
  o.custom_kernels.push_back(blend_kernel(seen));  // cpu kernels do not make opencl run the op
  ErrorId id{};
  const std::string msg = error_of([&] { gpu::backend()->prepare(blend_graph(), o); }, &id);
  CHECK(id == ErrorId::Feature);  // no kernel for the op: a feature the backend does not implement
  CHECK(msg.find("app.Blend") != std::string::npos);
  CHECK(msg.find("\"blend\"") != std::string::npos);
  // Without the application's kernel, cpu has none either: the fallback names both backends.
  BackendOptions bare;
  bare.fallback = {"cpu"};
  cpu_ref::register_backend();
  const std::string both = error_of([&] { gpu::backend()->prepare(blend_graph(), bare); }, &id);
  CHECK(id == ErrorId::Feature);
  CHECK(both.find("on cpu") != std::string::npos);
  CHECK(both.find("app.Blend") != std::string::npos);
  // A fallback backend that is not registered is Invalid, naming it.
  BackendOptions unknown;
  unknown.fallback = {"no_such_backend"};
  const std::string none = error_of([&] { gpu::backend()->prepare(blend_graph(), unknown); }, &id);
  CHECK(id == ErrorId::OptionValue);
  CHECK(none.find("no_such_backend") != std::string::npos);
}

TEST_CASE("opencl -> cpu fallback: an extension library's kernel (BackendOptions::extensions) reaches a fallback node") {
  if (!test::have_opencl()) return;
  cpu_ref::register_backend();
  // x -> armnn.StandIn "ScaledTanh" (examples/extension: y = 1.7159 * tanh(2/3 x)) -> y.
  Graph g;
  g.values.push_back(Value{"x", f32({4}), {}, {}});
  g.values.push_back(Value{"y", f32({4}), {}, {}});
  g.nodes.push_back(Node{"armnn.StandIn", "ScaledTanh", {0}, {1}, {}});
  g.inputs = {0};
  g.outputs = {1};
  BackendOptions o;
  o.fallback = {"cpu"};
  o.extensions.push_back(NNBRIDGE_EXAMPLE_EXT);
  auto plan = gpu::backend()->prepare(g, o);
  REQUIRE(plan->placement().size() == 1);
  CHECK(plan->placement()[0].backend == "cpu");
  const std::vector<float> x{-1.5f, 0.0f, 0.75f, 3.0f};
  TensorMap in;
  in["x"] = HostTensor::from_values<float>(f32({4}), x);
  // The returned map is kept: values() views its tensor's bytes (reading it from a temporary map
  // reads freed memory, which looks like a kernel that got garbage inputs).
  const TensorMap out = plan->run(in);
  auto y = out.at("y").values<float>();
  for (int i = 0; i < 4; ++i) CHECK(y[i] == doctest::Approx(1.7159 * std::tanh(2.0 / 3.0 * x[i])).epsilon(1e-6));
}
