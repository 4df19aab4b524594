// The opencl backend's error paths: device choice, kernel build failures, ops without a kernel
// (exit 3 naming the op, or per-node fallback to cpu when opencl.fallback=cpu allows it), the
// program cache, and the CLI's --device / --fallback.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <sys/wait.h>

#include "device.h"  // gpu/src: the program cache
#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "nnbridge/gpu.h"
#include "nnbridge/io.h"
#include "support/paths.h"
#include "support/shell_cli.h"
#include "have_opencl.h"

using namespace nnbridge;
namespace fs = std::filesystem;
using nnbridge::test::cli;
using nnbridge::test::q;
using nnbridge::test::Result;

namespace {

// x [2, 3] float32 -> one `op` node named "the_node" -> y.
Graph one_node(const std::string& op, AttrMap attrs = {}) {
  Graph g;
  g.values.push_back(Value{"x", TensorType{DataType::Float32, {2, 3}, false, std::nullopt}, {}, {}});
  g.values.push_back(Value{"y", TensorType{DataType::Float32, {2, 3}, false, std::nullopt}, {}, {}});
  g.nodes.push_back(Node{op, "the_node", {0}, {1}, std::move(attrs)});
  g.inputs = {0};
  g.outputs = {1};
  return g;
}

// x [1, 1, 2, 3] -> armnn.StandIn named "ScaledTanh" -> y: an op with no built-in kernel on
// either backend; the example cpu extension (examples/extension, NNBRIDGE_EXAMPLE_EXT) gives cpu
// one (y = 1.7159 tanh(2/3 x)), so it is the op cpu can run and opencl cannot.
constexpr const char* kNoOpenclKernel = "armnn.StandIn";
Graph no_opencl_kernel_graph() {
  Graph g;
  g.values.push_back(Value{"x", TensorType{DataType::Float32, {1, 1, 2, 3}, false, std::nullopt}, {}, {}});
  g.values.push_back(Value{"y", TensorType{DataType::Float32, {1, 1, 2, 3}, false, std::nullopt}, {}, {}});
  g.nodes.push_back(Node{kNoOpenclKernel, "ScaledTanh", {0}, {1}, {}});
  g.inputs = {0};
  g.outputs = {1};
  return g;
}

// The what() of the Error `f` throws (identifier, place and message), "" when none; `id` gets
// its identifier.
std::string error_of(const std::function<void()>& f, ErrorId* id = nullptr) {
  try {
    f();
  } catch (const Error& e) {
    if (id) *id = e.id();
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("opencl: a device spec that matches no device is Invalid and lists the devices") {
  if (!test::have_opencl()) return;
  const Graph g = one_node("Relu");
  for (const char* spec : {"no such device anywhere", "999"}) {
    BackendOptions o;
    o.options["opencl.device"] = spec;
    ErrorId id{};
    const std::string msg = error_of([&] { gpu::backend()->prepare(g, o); }, &id);
    CHECK(id == ErrorId::OptionValue);
    CHECK(msg.find(std::string("opencl.device=\"") + spec + "\"") != std::string::npos);
    CHECK(msg.find("0: " + gpu::list_devices()[0].platform) != std::string::npos);
  }
  BackendOptions bad;
  bad.options["opencl.fallbak"] = "cpu";
  CHECK(error_of([&] { gpu::backend()->prepare(g, bad); }).find("opencl.fallbak") != std::string::npos);
}

TEST_CASE("opencl: the device can be chosen by index and by name") {
  if (!test::have_opencl()) return;
  const auto devices = gpu::list_devices();
  const Graph g = one_node("Relu");
  for (const std::string& spec : {std::string("0"), devices[0].name}) {
    BackendOptions o;
    o.options["opencl.device"] = spec;
    auto plan = gpu::backend()->prepare(g, o);
    const std::vector<float> x{-1, 2, -3, 4, 0, -0.5f};
    TensorMap in;
    in["x"] = HostTensor::from_values<float>(TensorType{DataType::Float32, {2, 3}, false, std::nullopt}, x);
    const TensorMap out = plan->run(in);
    auto y = out.at("y").values<float>();
    CHECK(std::vector<float>(y.begin(), y.end()) == std::vector<float>{0, 2, 0, 4, 0, 0});  // max(0, x) by hand
  }
}

TEST_CASE("opencl: plan_device names the device opencl.device selects and nothing for a cpu plan") {
  if (!test::have_opencl()) return;
  const auto devices = gpu::list_devices();
  const Graph g = one_node("Relu");
  // gpu.h's default: the first GPU, else the first device.
  std::size_t def = 0;
  while (def < devices.size() && !devices[def].gpu) ++def;
  if (def == devices.size()) def = 0;
  auto plan = gpu::backend()->prepare(g, BackendOptions{});
  const std::optional<gpu::DeviceInfo> d = gpu::plan_device(*plan);
  REQUIRE(d.has_value());
  CHECK(d->index == devices[def].index);
  CHECK(d->name == devices[def].name);
  CHECK(d->driver == devices[def].driver);
  CHECK(gpu::select_device("").index == devices[def].index);
  BackendOptions last;
  last.options["opencl.device"] = std::to_string(devices.size() - 1);
  CHECK(gpu::plan_device(*gpu::backend()->prepare(g, last))->index == static_cast<int>(devices.size()) - 1);
  CHECK_FALSE(gpu::plan_device(*cpu_ref::backend()->prepare(g, BackendOptions{})).has_value());
  ErrorId id{};
  error_of([&] { gpu::select_device("no such device anywhere"); }, &id);
  CHECK(id == ErrorId::OptionValue);
}

TEST_CASE("opencl: a kernel that fails to build reports the node, the file and the build log") {
  if (!test::have_opencl()) return;
  auto dev = gpu::open_device("");
  ErrorId id{};
  const std::string msg = error_of(
      [&] {
        gpu::get_program(*dev, "broken.cl", "__kernel void k(__global float* y) { y[0] = undeclared_thing; }",
                         "node 7 \"conv1\" (Conv)");
      },
      &id);
  CHECK(id == ErrorId::Build);
  CHECK(msg.find("node 7 \"conv1\" (Conv)") != std::string::npos);
  CHECK(msg.find("broken.cl") != std::string::npos);
  CHECK(msg.find("build log") != std::string::npos);
  CHECK(msg.find("undeclared_thing") != std::string::npos);  // the compiler's own diagnostic
}

TEST_CASE("opencl: programs are built once per device and source") {
  if (!test::have_opencl()) return;
  const Graph g = one_node("Sigmoid");
  gpu::backend()->prepare(g, {});
  const int built = gpu::programs_built();
  gpu::backend()->prepare(g, {});
  gpu::backend()->prepare(one_node("Exp"), {});  // same file, elementwise.cl
  CHECK(gpu::programs_built() == built);
}

TEST_CASE("opencl: an op without a kernel is Unsupported naming it, or runs on cpu with opencl.fallback=cpu") {
  if (!test::have_opencl()) return;
  cpu_ref::register_backend();
  const Graph g = no_opencl_kernel_graph();
  ErrorId id{};
  const std::string msg = error_of([&] { gpu::backend()->prepare(g, {}); }, &id);
  CHECK(id == ErrorId::Feature);  // a feature the backend does not implement
  CHECK(msg.find(kNoOpenclKernel) != std::string::npos);
  CHECK(msg.find("ScaledTanh") != std::string::npos);

  BackendOptions o;
  o.options["opencl.fallback"] = "cpu";
  o.extensions.push_back(NNBRIDGE_EXAMPLE_EXT);
  auto plan = gpu::backend()->prepare(g, o);
  REQUIRE(plan->placement().size() == 1);
  CHECK(plan->placement()[0].backend == "cpu");
  const std::vector<float> x{3, 4, 0, 1, 2, -1.5f};
  TensorMap in;
  in["x"] = HostTensor::from_values<float>(TensorType{DataType::Float32, {1, 1, 2, 3}, false, std::nullopt}, x);
  const TensorMap out = plan->run(in);
  auto y = out.at("y").values<float>();
  REQUIRE(y.size() == 6);
  // LeCun's scaled tanh, the extension's formula: 1.7159 tanh(2/3 x); tanh(0) = 0 exactly.
  CHECK(y[2] == 0.0f);
  for (int i = 0; i < 6; ++i) CHECK(y[i] == doctest::Approx(1.7159 * std::tanh(2.0 / 3.0 * x[i])).epsilon(1e-6));
}

TEST_CASE("opencl: a Conv whose W is a graph input runs on the device") {
  if (!test::have_opencl()) return;
  // X [1, 1, 2, 2] * W [1, 1, 1, 1] (ONNX Conv, NCHW, no bias): Y = X * w. W in ONNX's layout is
  // read as it is; other layouts are repacked on the device each run (ops_window.cc).
  const TensorType x_type{DataType::Float32, {1, 1, 2, 2}, false, std::nullopt};
  const TensorType w_type{DataType::Float32, {1, 1, 1, 1}, false, std::nullopt};
  Graph g;
  g.values.push_back(Value{"X", x_type, {}, {}});
  g.values.push_back(Value{"W", w_type, {}, {}});
  g.values.push_back(Value{"Y", x_type, {}, {}});
  g.nodes.push_back(Node{"Conv", "the_conv", {0, 1}, {2}, {}});
  g.inputs = {0, 1};
  g.outputs = {2};
  auto plan = gpu::backend()->prepare(g, {});
  REQUIRE(plan->placement().size() == 1);
  CHECK(plan->placement()[0].backend == "opencl");
  TensorMap in;
  in["X"] = HostTensor::from_values<float>(x_type, std::vector<float>{1, -2, 3, 0.5f});
  in["W"] = HostTensor::from_values<float>(w_type, std::vector<float>{2});
  const TensorMap out = plan->run(in);
  auto y = out.at("Y").values<float>();
  const float want[] = {2, -4, 6, 1};  // by hand
  for (int i = 0; i < 4; ++i) CHECK(y[i] == want[i]);
}

TEST_CASE("opencl: a ConvTranspose whose W is a graph input is repacked on the device") {
  if (!test::have_opencl()) return;
  // 1-D, X [1, 2, 2] = channel 0 [1, 0], channel 1 [0, 1]; W IOHW [2, 2, 2] = W[c][o] = [1, 2],
  // [3, 4] (c 0), [5, 6], [7, 8] (c 1); stride 1: x[c][i] adds x * W[c][o][k] to y[o][i + k].
  // o 0: c 0, i 0 -> [1, 2, 0]; c 1, i 1 -> [0, 5, 6]: [1, 7, 6]. o 1: [3, 4, 0] + [0, 7, 8] = [3, 11, 8].
  const TensorType x_type{DataType::Float32, {1, 2, 2}, false, std::nullopt};
  const TensorType w_type{DataType::Float32, {2, 2, 2}, false, std::nullopt};
  const TensorType y_type{DataType::Float32, {1, 2, 3}, false, std::nullopt};
  Graph g;
  g.values.push_back(Value{"X", x_type, {}, {}});
  g.values.push_back(Value{"W", w_type, {}, {}});
  g.values.push_back(Value{"Y", y_type, {}, {}});
  g.nodes.push_back(Node{"ConvTranspose", "the_deconv", {0, 1}, {2}, {}});
  g.inputs = {0, 1};
  g.outputs = {2};
  auto plan = gpu::backend()->prepare(g, {});
  TensorMap in;
  in["X"] = HostTensor::from_values<float>(x_type, std::vector<float>{1, 0, 0, 1});
  in["W"] = HostTensor::from_values<float>(w_type, std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8});
  const TensorMap out = plan->run(in);
  auto y = out.at("Y").values<float>();
  const float want[] = {1, 7, 6, 3, 11, 8};
  REQUIRE(y.size() == 6);
  for (int i = 0; i < 6; ++i) CHECK(y[i] == want[i]);
}

TEST_CASE("nnbridge run --backend opencl: exit 3 naming a missing op or an unknown device") {
  if (!test::have_opencl()) return;
  const fs::path dir = test::temp_dir();
  save(no_opencl_kernel_graph(), dir / "model.json");
  fs::create_directories(dir / "in");
  Result r = cli("run '" + (dir / "model.json").string() + "' --backend opencl --inputs '" + (dir / "in").string() +
                 "' --outputs '" + (dir / "out").string() + "'");
  CHECK(r.rc == 3);
  CHECK(r.out.find(kNoOpenclKernel) != std::string::npos);
  r = cli("run '" + (dir / "model.json").string() + "' --backend opencl --device 'no such device' --inputs '" +
          (dir / "in").string() + "' --outputs '" + (dir / "out").string() + "'");
  CHECK(r.rc == 3);
  CHECK(r.out.find("nnbridge: error: [nnbridge.invalid.409] ") != std::string::npos);  // an option value matching no device
  CHECK(!fs::exists(dir / "out"));
}

TEST_CASE("opencl: prepare refuses what check calls an error (a Conv with stride 0), with or without fallback") {
  if (!test::have_opencl()) return;
  Graph g;
  g.values.push_back(Value{"x", TensorType{DataType::Float32, {1, 1, 5, 5}, false, std::nullopt}, {}, {}});
  std::vector<float> ones(9, 1.0f);
  g.values.push_back(Value{"w", TensorType{DataType::Float32, {1, 1, 3, 3}, false, std::nullopt},
                           Buffer::copy_of(std::as_bytes(std::span(ones))), {}});
  g.values.push_back(Value{"y", TensorType{DataType::Float32, {1, 1, 3, 3}, false, std::nullopt}, {}, {}});
  g.nodes.push_back(Node{"Conv", "c", {0, 1}, {2}, {{"strides", Attr(std::vector<int64_t>{0, 1})}}});
  g.inputs = {0};
  g.outputs = {2};
  for (const char* fallback : {"none", "cpu"}) {
    CAPTURE(fallback);
    BackendOptions o;
    o.options["opencl.fallback"] = fallback;
    ErrorId id{};
    const std::string msg = error_of([&] { gpu::backend()->prepare(g, o); }, &id);
    CHECK(code_of(id) == ErrorCode::Invalid);  // the checker's findings carry no finer identifier
    CHECK(msg.find("nodes[0]") != std::string::npos);
    CHECK(msg.find("strides must be >= 1") != std::string::npos);
  }
}

// ONNX Div on integers truncates toward zero (7 / 2 = 3, -7 / 2 = -3, 9 / -4 = -2, by hand);
// division by zero and INT_MIN / -1 are undefined there and refused at run time, as on cpu.
TEST_CASE("opencl: integer Div truncates, and refuses division by zero and overflow") {
  if (!test::have_opencl()) return;
  const TensorType i32{DataType::Int32, {3}, false, std::nullopt};
  Graph g;
  g.values.push_back(Value{"a", i32, {}, {}});
  g.values.push_back(Value{"b", i32, {}, {}});
  g.values.push_back(Value{"y", i32, {}, {}});
  g.nodes.push_back(Node{"Div", "the_div", {0, 1}, {2}, {}});
  g.inputs = {0, 1};
  g.outputs = {2};
  const auto plan = gpu::backend()->prepare(g, {});
  auto run = [&](std::vector<int32_t> a, std::vector<int32_t> b) {
    return plan->run({{"a", HostTensor::from_values<int32_t>(i32, std::span<const int32_t>(a))},
                      {"b", HostTensor::from_values<int32_t>(i32, std::span<const int32_t>(b))}});
  };
  const TensorMap out = run({7, -7, 9}, {2, 2, -4});
  const auto y = out.at("y").values<int32_t>();
  CHECK(std::vector<int32_t>(y.begin(), y.end()) == std::vector<int32_t>{3, -3, -2});
  // Division by zero: nnbridge.invalid.400 (no finer identifier); INT_MIN / -1 does not fit
  // int32: nnbridge.invalid.406. Each names the node and the output element.
  ErrorId id{};
  std::string msg = error_of([&] { run({1, 2, 3}, {1, 0, 1}); }, &id);
  CHECK(id == ErrorId::InvalidOther);
  CHECK(msg.find("\"the_div\" (Div)") != std::string::npos);
  CHECK(msg.find("output element 1") != std::string::npos);
  msg = error_of([&] { run({1, INT32_MIN, 3}, {1, -1, 1}); }, &id);
  CHECK(id == ErrorId::Narrowing);
  CHECK(msg.find("output element 1") != std::string::npos);
  msg = error_of([&] { run({0, 2, 3}, {0, 1, 1}); }, &id);  // 0 / 0
  CHECK(id == ErrorId::InvalidOther);
  CHECK(msg.find("output element 0") != std::string::npos);
}
