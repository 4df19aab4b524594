// The custom-kernel registration API (nnbridge/cpu_kernel_api.h, cpu_ref::KernelRegistry):
// kernels registered by the test run graph nodes; expected values are the kernels' documented
// formulas evaluated here by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "nnbridge/cpu_ref.h"
#include "nnbridge/error.h"
#include "support/error_id.h"

using namespace nnbridge;
using namespace nnbridge::cpu_ref;

namespace {

TensorType tt(DataType t, std::vector<int64_t> shape) { return TensorType{t, std::move(shape), false, std::nullopt}; }

// x -> `op` (attrs) -> [then_op ->] y
Graph chain(const std::string& op, TensorType in, TensorType out, AttrMap attrs = {}, const std::string& then_op = {}) {
  Graph g;
  ValueId x = g.add_value(Value{"x", in, std::nullopt, {}});
  g.inputs.push_back(x);
  ValueId mid = g.add_value(Value{then_op.empty() ? "y" : "mid", out, std::nullopt, {}});
  g.add_node(Node{op, "custom", {x}, {mid}, std::move(attrs)});
  ValueId y = mid;
  if (!then_op.empty()) {
    y = g.add_value(Value{"y", out, std::nullopt, {}});
    g.add_node(Node{then_op, "after", {mid}, {y}, {}});
  }
  g.outputs.push_back(y);
  return g;
}

std::vector<TensorType> same_as_input(const CustomNode& n) { return {n.inputs[0]}; }

// y = alpha * tanh(beta * x) (the formula of ONNX's experimental ScaledTanh), attributes read at
// run time. Named test.*: the canonical ScaledTanh has a built-in kernel.
CustomKernel scaled_tanh() {
  return {.op = "test.ScaledTanh",
          .dtype = DataType::Float32,
          .infer = same_as_input,
          .compute =
              [](const KernelCall& c) {
                const double alpha = c.node.attr_float("alpha", 1), beta = c.node.attr_float("beta", 1);
                auto x = c.inputs[0].as<float>();
                auto y = c.outputs[0].as<float>();
                for (std::size_t i = 0; i < x.size(); ++i) y[i] = static_cast<float>(alpha * std::tanh(beta * x[i]));
              }};
}

std::shared_ptr<const Backend> cpu() {
  register_backend();
  return find_backend("cpu");
}

TensorMap run(const Graph& g, std::shared_ptr<KernelRegistry> reg, TensorMap inputs) {
  BackendOptions o;
  o.custom_kernels.push_back(std::move(reg));
  return cpu()->prepare(g, o)->run(inputs);
}

template <class T>
std::vector<T> values(const HostTensor& t) {
  auto v = t.values<T>();
  return {v.begin(), v.end()};
}

}  // namespace

TEST_CASE("custom kernels: an application kernel runs the nodes its op names, next to built-in kernels") {
  auto reg = std::make_shared<KernelRegistry>();
  reg->add(scaled_tanh());
  // ScaledTanh(alpha 2, beta 0.5) then the built-in Relu: y = max(0, 2 tanh(x / 2)).
  Graph g = chain("test.ScaledTanh", tt(DataType::Float32, {4}), tt(DataType::Float32, {4}),
                  {{"alpha", Attr(2.0)}, {"beta", Attr(0.5)}}, "Relu");
  const std::vector<float> x = {-1.0f, 0.0f, 0.5f, 3.0f};
  auto y = values<float>(run(g, reg, {{"x", HostTensor::from_values<float>(tt(DataType::Float32, {4}), x)}}).at("y"));
  REQUIRE(y.size() == 4);
  CHECK(y[0] == 0.0f);
  CHECK(y[1] == 0.0f);
  CHECK(y[2] == doctest::Approx(2 * std::tanh(0.25)).epsilon(1e-6));
  CHECK(y[3] == doctest::Approx(2 * std::tanh(1.5)).epsilon(1e-6));
  // The declared output type may stay unknown: the shape function gives it.
  Graph g2 = chain("test.ScaledTanh", tt(DataType::Float32, {2}), TensorType{DataType::Undefined, {}, true, std::nullopt});
  auto y2 = values<float>(run(g2, reg, {{"x", HostTensor::from_values<float>(tt(DataType::Float32, {2}), std::vector<float>{1, -2})}}).at("y"));
  CHECK(y2[0] == doctest::Approx(std::tanh(1.0)).epsilon(1e-6));
  CHECK(y2[1] == doctest::Approx(std::tanh(-2.0)).epsilon(1e-6));
}

TEST_CASE("custom kernels: chosen by the first input dtype and given non-float32 tensors in their storage form") {
  auto reg = std::make_shared<KernelRegistry>();
  // int32: y = x + 1 on the storage integers.
  reg->add({.op = "test.AddOne", .dtype = DataType::Int32, .infer = same_as_input, .compute = [](const KernelCall& c) {
              auto x = c.inputs[0].as<int32_t>();
              auto y = c.outputs[0].as<int32_t>();
              for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] + 1;
            }});
  // Any other dtype: copies the bytes (float16 arrives as its bit patterns).
  reg->add({.op = "test.AddOne", .dtype = DataType::Undefined, .infer = same_as_input, .compute = [](const KernelCall& c) {
              std::memcpy(c.outputs[0].data, c.inputs[0].data, c.inputs[0].bytes);
            }});
  auto yi = values<int32_t>(run(chain("test.AddOne", tt(DataType::Int32, {3}), tt(DataType::Int32, {3})), reg,
                                {{"x", HostTensor::from_values<int32_t>(tt(DataType::Int32, {3}), std::vector<int32_t>{-5, 0, 1000})}})
                                .at("y"));
  CHECK(yi == std::vector<int32_t>{-4, 1, 1001});
  // float16 bit patterns of 1.0, -2.0, 0.5 (IEEE 754 binary16) pass through unchanged.
  const std::vector<uint16_t> h = {0x3C00, 0xC000, 0x3800};
  auto yh = values<uint16_t>(run(chain("test.AddOne", tt(DataType::Float16, {3}), tt(DataType::Float16, {3})), reg,
                                 {{"x", HostTensor::from_values<uint16_t>(tt(DataType::Float16, {3}), h)}})
                                 .at("y"));
  CHECK(yh == h);
  // Without the catch-all, a float16 node has no kernel; the error says which dtypes exist.
  auto only_f32 = std::make_shared<KernelRegistry>();
  only_f32->add(scaled_tanh());
  BackendOptions o;
  o.custom_kernels.push_back(only_f32);
  CHECK_THROWS_WITH_AS(cpu()->prepare(chain("test.ScaledTanh", tt(DataType::Float16, {2}), tt(DataType::Float16, {2})), o),
                       doctest::Contains("exist for float32 only"), Error);
}

TEST_CASE("custom kernels: a custom kernel replaces the built-in kernel of its op (the rule opencl custom layers follow)") {
  auto negate = [](bool override_builtin) {
    return CustomKernel{.op = "Relu", .dtype = DataType::Float32, .infer = same_as_input, .compute = [](const KernelCall& c) {
                          auto x = c.inputs[0].as<float>();
                          auto y = c.outputs[0].as<float>();
                          for (std::size_t i = 0; i < x.size(); ++i) y[i] = -x[i];
                        }, .override_builtin = override_builtin};
  };
  Graph g = chain("Relu", tt(DataType::Float32, {2}), tt(DataType::Float32, {2}));
  TensorMap in{{"x", HostTensor::from_values<float>(tt(DataType::Float32, {2}), std::vector<float>{-3, 4})}};
  // Without custom kernels: the built-in Relu, max(x, 0).
  CHECK(values<float>(run(g, std::make_shared<KernelRegistry>(), in).at("y")) == std::vector<float>{0, 4});
  // With one, override_builtin or not: -x.
  for (bool flag : {false, true}) {
    CAPTURE(flag);
    auto reg = std::make_shared<KernelRegistry>();
    reg->add(negate(flag));
    CHECK(values<float>(run(g, reg, in).at("y")) == std::vector<float>{3, -4});
  }
  // A kernel for another dtype leaves the built-in one in place.
  auto f16 = std::make_shared<KernelRegistry>();
  CustomKernel k = negate(false);
  k.dtype = DataType::Float16;
  f16->add(k);
  CHECK(values<float>(run(g, f16, in).at("y")) == std::vector<float>{0, 4});
}

TEST_CASE("custom kernels: refused registrations are Error(Invalid) and leave the registry as it was") {
  KernelRegistry reg;
  // No op, no compute function: arguments outside their domain (nnbridge.invalid.409).
  CHECK(test::thrown_id([&] { reg.add({.op = "", .dtype = DataType::Float32, .infer = {}, .compute = [](const KernelCall&) {}}); }) ==
        ErrorId::OptionValue);
  CHECK(test::thrown_id([&] { reg.add({.op = "X", .dtype = DataType::Float32, .infer = {}, .compute = {}}); }) ==
        ErrorId::OptionValue);
  reg.add(scaled_tanh());
  try {
    reg.add(scaled_tanh());
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::DuplicateName);
    CHECK(e.message().find("test.ScaledTanh (float32)") != std::string::npos);
  }
  KernelRegistry other;
  other.add({.op = "Y", .dtype = DataType::Float32, .infer = {}, .compute = [](const KernelCall&) {}});
  other.add(scaled_tanh());
  CHECK_THROWS_AS(reg.add_all(other), Error);
  CHECK(reg.size() == 1);
  CHECK(reg.find("Y", DataType::Float32) == nullptr);
  std::string source;
  REQUIRE(reg.find("test.ScaledTanh", DataType::Float32, &source) != nullptr);
  CHECK(source == "the application");
}

TEST_CASE("custom kernels: shape and compute failures are errors naming the node") {
  auto reg = std::make_shared<KernelRegistry>();
  reg->add({.op = "test.Inconsistent", .dtype = DataType::Float32,
            .infer = [](const CustomNode&) -> std::vector<TensorType> { throw std::invalid_argument("rank 3 expected"); },
            .compute = [](const KernelCall&) {}});
  reg->add({.op = "test.Refuses", .dtype = DataType::Float32,
            .infer = [](const CustomNode&) -> std::vector<TensorType> { throw std::runtime_error("not this one"); },
            .compute = [](const KernelCall&) {}});
  reg->add({.op = "test.TwoTypes", .dtype = DataType::Float32,
            .infer = [](const CustomNode& n) { return std::vector<TensorType>{n.inputs[0], n.inputs[0]}; },
            .compute = [](const KernelCall&) {}});
  reg->add({.op = "test.Throws", .dtype = DataType::Float32, .infer = same_as_input,
            .compute = [](const KernelCall&) { throw std::runtime_error("out of licences"); }});
  BackendOptions o;
  o.custom_kernels.push_back(reg);
  auto code_of = [&](const std::string& op, TensorType out) {
    try {
      cpu()->prepare(chain(op, tt(DataType::Float32, {2}), out), o);
    } catch (const Error& e) {
      CHECK(std::string(e.what()).find("\"custom\"") != std::string::npos);  // the node's name
      CHECK(e.where() == "nodes[0]");
      return e.code();
    }
    FAIL("no error for " << op);
    return ErrorCode::Io;
  };
  CHECK(code_of("test.Inconsistent", tt(DataType::Float32, {2})) == ErrorCode::Invalid);
  CHECK(code_of("test.Refuses", tt(DataType::Float32, {2})) == ErrorCode::Unsupported);
  CHECK(code_of("test.TwoTypes", tt(DataType::Float32, {2})) == ErrorCode::Invalid);
  CHECK(code_of("test.ScaledTanh", tt(DataType::Float32, {2})) == ErrorCode::Unsupported);  // no kernel at all
  // The shape function says [2], the graph declares [3].
  auto reg2 = std::make_shared<KernelRegistry>();
  reg2->add(scaled_tanh());
  BackendOptions o2;
  o2.custom_kernels.push_back(reg2);
  CHECK_THROWS_WITH_AS(cpu()->prepare(chain("test.ScaledTanh", tt(DataType::Float32, {2}), tt(DataType::Float32, {3})), o2),
                       doctest::Contains("dim 0 is declared 3"), Error);
  auto plan = cpu()->prepare(chain("test.Throws", tt(DataType::Float32, {2}), tt(DataType::Float32, {2})), o);
  try {
    plan->run({{"x", HostTensor::from_values<float>(tt(DataType::Float32, {2}), std::vector<float>{1, 2})}});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == ErrorId::Execution);  // the kernel failed while running
    CHECK(std::string(e.what()).find("out of licences") != std::string::npos);
    CHECK(std::string(e.what()).find("\"custom\"") != std::string::npos);
  }
}

TEST_CASE("custom kernels: a plan keeps its kernels after the registry is gone and other backends' kernel sets are ignored") {
  struct OtherBackendKernels final : CustomKernelSet {
    std::string_view backend() const override { return "opencl"; }
  };
  auto reg = std::make_shared<KernelRegistry>();
  reg->add(scaled_tanh());
  BackendOptions o;
  o.custom_kernels.push_back(std::make_shared<OtherBackendKernels>());
  o.custom_kernels.push_back(reg);
  auto plan = cpu()->prepare(chain("test.ScaledTanh", tt(DataType::Float32, {1}), tt(DataType::Float32, {1})), o);
  o.custom_kernels.clear();
  reg.reset();
  auto y = values<float>(plan->run({{"x", HostTensor::from_values<float>(tt(DataType::Float32, {1}), std::vector<float>{0.25f})}}).at("y"));
  CHECK(y[0] == doctest::Approx(std::tanh(0.25)).epsilon(1e-6));
}
