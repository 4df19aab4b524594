// compare_outputs() / validate() and the backend registry, with a stub backend whose outputs
// are fixed numbers, so every expected value below is written by hand.
#include <doctest/doctest.h>

#include "nnbridge/error.h"
#include "nnbridge/exec.h"

using namespace nnbridge;

namespace {

HostTensor f32(std::vector<int64_t> shape, std::vector<float> v) {
  return HostTensor::from_values<float>(TensorType{DataType::Float32, std::move(shape), false, std::nullopt}, v);
}

class FixedPlan : public Plan {
 public:
  TensorMap out;
  std::vector<std::pair<std::string, TensorType>> none;
  TensorMap run(const TensorMap&) const override { return out; }
  const std::vector<std::pair<std::string, TensorType>>& input_types() const override { return none; }
  const std::vector<std::pair<std::string, TensorType>>& output_types() const override { return none; }
};

class FixedBackend : public Backend {
 public:
  std::string id;
  float value;
  FixedBackend(std::string n, float v) : id(std::move(n)), value(v) {}
  std::string name() const override { return id; }
  std::unique_ptr<Plan> prepare(const Graph&, const BackendOptions&) const override {
    if (value < 0) throw Error(ErrorCode::Backend, "stub failure");
    auto p = std::make_unique<FixedPlan>();
    p->out["y"] = f32({2}, {1.0f, value});
    return p;
  }
};

}  // namespace

TEST_CASE("compare_outputs: atol + rtol * |expected|") {
  Tolerance tol{1e-5, 1e-4, 1};
  TensorMap e{{"y", f32({2}, {1.0f, 100.0f})}};
  // 100 * 1e-4 + 1e-5 = 0.01001: 100.01 passes, 100.011 does not.
  CHECK(compare_outputs(TensorMap{{"y", f32({2}, {1.0f, 100.01f})}}, e, tol)[0].passed);
  auto r = compare_outputs(TensorMap{{"y", f32({2}, {1.0f, 100.011f})}}, e, tol)[0];
  CHECK_FALSE(r.passed);
  CHECK(r.max_abs_error == doctest::Approx(0.011).epsilon(1e-3));
  CHECK(r.max_rel_error == doctest::Approx(0.00011).epsilon(1e-2));
  CHECK_FALSE(compare_outputs(TensorMap{{"y", f32({1, 2}, {1.0f, 100.0f})}}, e, tol)[0].passed);
  CHECK_FALSE(compare_outputs(TensorMap{}, e, tol)[0].passed);
}

TEST_CASE("compare_outputs: quantized outputs within one step, expected as plain storage ints") {
  TensorType q{DataType::QAsymmU8, {3}, false, Quantization{{0.5}, {10}, std::nullopt}};
  TensorType u{DataType::UInt8, {3}, false, std::nullopt};
  HostTensor a = HostTensor::from_values<uint8_t>(q, std::vector<uint8_t>{10, 21, 255});
  HostTensor e1 = HostTensor::from_values<uint8_t>(u, std::vector<uint8_t>{11, 20, 254});
  HostTensor e2 = HostTensor::from_values<uint8_t>(u, std::vector<uint8_t>{12, 20, 254});
  auto r1 = compare_outputs(TensorMap{{"y", a}}, TensorMap{{"y", e1}}, Tolerance{})[0];
  CHECK(r1.passed);
  CHECK(r1.max_steps == 1);
  CHECK(r1.max_abs_error == doctest::Approx(0.5));  // one step of scale 0.5
  auto r2 = compare_outputs(TensorMap{{"y", a}}, TensorMap{{"y", e2}}, Tolerance{})[0];
  CHECK_FALSE(r2.passed);
  CHECK(r2.max_steps == 2);
}

TEST_CASE("registry and validate()") {
  register_backend(std::make_shared<FixedBackend>("stub_a", 2.0f));
  register_backend(std::make_shared<FixedBackend>("stub_b", 2.00001f));
  register_backend(std::make_shared<FixedBackend>("stub_bad", -1.0f));
  CHECK(find_backend("stub_a") != nullptr);
  CHECK(find_backend("no_such") == nullptr);
  bool listed = false;
  for (auto& b : all_backends()) listed |= b->name() == "stub_b";
  CHECK(listed);

  Graph g;
  TensorType t{DataType::Float32, {2}, false, std::nullopt};
  g.outputs.push_back(g.add_value(Value{"y", t, std::nullopt, {}}));
  std::vector<std::string> names{"stub_a", "stub_b"};
  ValidationReport r = validate(g, {}, names, Tolerance{});
  REQUIRE(r.outputs.size() == 2);
  CHECK(r.passed());
  TensorMap expected{{"y", f32({2}, {1.0f, 3.0f})}};
  ValidationReport r2 = validate(g, {}, names, Tolerance{}, &expected);
  CHECK_FALSE(r2.passed());
  CHECK(r2.outputs[0].max_abs_error == doctest::Approx(1.0));
  std::vector<std::string> bad{"stub_a", "stub_bad", "missing"};
  ValidationReport r3 = validate(g, {}, bad, Tolerance{});
  REQUIRE(r3.outputs.size() == 3);
  CHECK(r3.outputs[0].passed);
  CHECK(r3.outputs[1].message.find("stub failure") != std::string::npos);
  CHECK(r3.outputs[2].message.find("missing") != std::string::npos);
  CHECK_THROWS_AS(validate(g, {}, std::span<const std::string>{}, Tolerance{}), Error);
}
