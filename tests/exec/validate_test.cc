// compare_outputs() / validate() and the backend registry, with a stub backend whose outputs
// are fixed numbers, so every expected value below is written by hand.
#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "nnbridge/error.h"
#include "nnbridge/exec.h"
#include "support/error_id.h"

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
  auto shape = compare_outputs(TensorMap{{"y", f32({1, 2}, {1.0f, 100.0f})}}, e, tol)[0];
  CHECK_FALSE(shape.passed);
  CHECK(shape.message == "shape [1, 2] differs from the expected [2]");
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
  // stub_a is the reference: only stub_b is reported (2.00001 against 2.0, within rtol 1e-4).
  ValidationReport r = validate(g, {}, names, Tolerance{});
  REQUIRE(r.outputs.size() == 1);
  CHECK(r.outputs[0].backend == "stub_b");
  CHECK(r.passed());
  // With a tolerance stub_b's 1e-5 difference breaks, the reference is not compared with itself.
  ValidationReport tight = validate(g, {}, names, Tolerance{0.0, 0.0, 1});
  REQUIRE(tight.outputs.size() == 1);
  CHECK_FALSE(tight.passed());
  TensorMap expected{{"y", f32({2}, {1.0f, 3.0f})}};
  ValidationReport r2 = validate(g, {}, names, Tolerance{}, &expected);
  CHECK_FALSE(r2.passed());
  CHECK(r2.outputs[0].max_abs_error == doctest::Approx(1.0));
  std::vector<std::string> bad{"stub_a", "stub_bad", "missing"};
  ValidationReport r3 = validate(g, {}, bad, Tolerance{});
  REQUIRE(r3.outputs.size() == 2);
  CHECK(r3.outputs[0].message.find("stub failure") != std::string::npos);
  CHECK(r3.outputs[1].message.find("missing") != std::string::npos);
  // A failing reference fails every comparison: nothing was there to compare with.
  std::vector<std::string> bad_first{"stub_bad", "stub_a"};
  ValidationReport r4 = validate(g, {}, bad_first, Tolerance{});
  REQUIRE(r4.outputs.size() == 2);
  CHECK(r4.outputs[0].backend == "stub_bad");
  CHECK(r4.outputs[1].backend == "stub_a");
  CHECK_FALSE(r4.outputs[1].passed);
  CHECK(r4.outputs[1].message.find("no reference outputs: backend stub_bad failed") != std::string::npos);
  CHECK(test::thrown_id([&] { validate(g, {}, std::span<const std::string>{}, Tolerance{}); }) == ErrorId::Arity);
}

// ---- ulp_distance and OutputReport::max_ulp: every value below counted by hand from the
// IEEE 754 bit patterns.

TEST_CASE("ulp_distance float32: neighbours, zeros, subnormals, infinity, NaN") {
  CHECK(ulp_distance(1.0f, 1.0f) == 0);
  CHECK(ulp_distance(1.0f, std::nextafter(1.0f, 2.0f)) == 1);  // 0x3f800000 -> 0x3f800001
  CHECK(ulp_distance(1.0f, std::nextafter(1.0f, 0.0f)) == 1);  // 0x3f7fffff
  // 1.0 = 0x3f800000, 2.0 = 0x40000000: 2^23 floats apart (one binade).
  CHECK(ulp_distance(1.0f, 2.0f) == 0x800000u);
  CHECK(ulp_distance(2.0f, 1.0f) == 0x800000u);
  CHECK(ulp_distance(0.0f, -0.0f) == 0);
  const float tiny = std::numeric_limits<float>::denorm_min();  // 0x00000001
  CHECK(ulp_distance(tiny, -tiny) == 2);
  CHECK(ulp_distance(0.0f, tiny) == 1);
  CHECK(ulp_distance(-0.0f, tiny) == 1);
  // -1.0 and 1.0: 0x3f800000 on each side of zero.
  CHECK(ulp_distance(-1.0f, 1.0f) == 2u * 0x3f800000u);
  CHECK(ulp_distance(std::numeric_limits<float>::max(), INFINITY) == 1);  // 0x7f7fffff -> 0x7f800000
  CHECK(ulp_distance(-INFINITY, INFINITY) == 2u * 0x7f800000u);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(ulp_distance(nan, nan) == 0);
  CHECK(ulp_distance(nan, -nan) == 0);
  CHECK(ulp_distance(nan, 1.0f) == kUlpNaNMismatch);
  CHECK(ulp_distance(INFINITY, nan) == kUlpNaNMismatch);
}

TEST_CASE("ulp_distance float64, float16 and bfloat16 in their own units") {
  CHECK(ulp_distance(1.0, std::nextafter(1.0, 2.0)) == 1);
  CHECK(ulp_distance(1.0, 2.0) == (uint64_t{1} << 52));
  CHECK(ulp_distance(-std::numeric_limits<double>::max(), std::numeric_limits<double>::max()) ==
        2 * uint64_t{0x7fefffffffffffff});
  // binary16: 1.0 = 0x3c00, next = 0x3c01, 2.0 = 0x4000 (2^10 apart), -0 = 0x8000, inf = 0x7c00,
  // max = 0x7bff, NaN = 0x7e00.
  CHECK(ulp_distance_float16(0x3c00, 0x3c01) == 1);
  CHECK(ulp_distance_float16(0x3c00, 0x4000) == 1024);
  CHECK(ulp_distance_float16(0x0000, 0x8000) == 0);
  CHECK(ulp_distance_float16(0x0001, 0x8001) == 2);
  CHECK(ulp_distance_float16(0x7bff, 0x7c00) == 1);
  CHECK(ulp_distance_float16(0x7e00, 0xfe01) == 0);
  CHECK(ulp_distance_float16(0x7e00, 0x3c00) == kUlpNaNMismatch);
  // bfloat16: 1.0 = 0x3f80, 2.0 = 0x4000 (2^7 apart), inf = 0x7f80; 0x7c00 is a number
  // (2^121) in bfloat16 but inf in binary16, 0x7f81 a NaN.
  CHECK(ulp_distance_bfloat16(0x3f80, 0x4000) == 128);
  CHECK(ulp_distance_bfloat16(0xbf80, 0x3f80) == 2 * 0x3f80);
  CHECK(ulp_distance_bfloat16(0x7c00, 0x7c01) == 1);
  CHECK(ulp_distance_bfloat16(0x7f80, 0x7f81) == kUlpNaNMismatch);
}

TEST_CASE("OutputReport::max_ulp per dtype") {
  // float32: the second element is 3 floats above 100 (0x42c80000 + 3).
  const float up3 = std::bit_cast<float>(std::bit_cast<uint32_t>(100.0f) + 3);
  auto r = compare_outputs(TensorMap{{"y", f32({2}, {1.0f, up3})}}, TensorMap{{"y", f32({2}, {1.0f, 100.0f})}}, Tolerance{})[0];
  CHECK(r.passed);
  CHECK(r.max_ulp == 3);
  // float16 bits: 0x3c00 vs 0x3c05 and 0x4000 vs 0x4000.
  TensorType h{DataType::Float16, {2}, false, std::nullopt};
  r = compare_outputs(TensorMap{{"y", HostTensor::from_values<uint16_t>(h, std::vector<uint16_t>{0x3c05, 0x4000})}},
                      TensorMap{{"y", HostTensor::from_values<uint16_t>(h, std::vector<uint16_t>{0x3c00, 0x4000})}},
                      Tolerance{})[0];
  CHECK(r.max_ulp == 5);
  // int32: the largest integer difference, |7 - (-2)| = 9.
  TensorType i{DataType::Int32, {2}, false, std::nullopt};
  r = compare_outputs(TensorMap{{"y", HostTensor::from_values<int32_t>(i, std::vector<int32_t>{7, 4})}},
                      TensorMap{{"y", HostTensor::from_values<int32_t>(i, std::vector<int32_t>{-2, 5})}}, Tolerance{})[0];
  CHECK_FALSE(r.passed);
  CHECK(r.max_ulp == 9);
  // quantized: storage integers, not dequantized values (scale 0.5: 3 steps are 1.5 apart).
  TensorType q{DataType::QAsymmU8, {2}, false, Quantization{{0.5}, {10}, std::nullopt}};
  r = compare_outputs(TensorMap{{"y", HostTensor::from_values<uint8_t>(q, std::vector<uint8_t>{13, 0})}},
                      TensorMap{{"y", HostTensor::from_values<uint8_t>(q, std::vector<uint8_t>{10, 0})}}, Tolerance{})[0];
  CHECK(r.max_ulp == 3);
  CHECK(r.max_steps == 3);
  CHECK(r.max_abs_error == doctest::Approx(1.5));
  // A NaN against a number.
  r = compare_outputs(TensorMap{{"y", f32({1}, {NAN})}}, TensorMap{{"y", f32({1}, {0.0f})}}, Tolerance{})[0];
  CHECK_FALSE(r.passed);
  CHECK(r.max_ulp == kUlpNaNMismatch);
  // NaN against NaN and inf against inf agree (numpy.testing.assert_allclose, which ONNX's
  // backend test runner uses: equal_nan=True, and inf - inf is not a difference).
  r = compare_outputs(TensorMap{{"y", f32({3}, {NAN, INFINITY, -INFINITY})}},
                      TensorMap{{"y", f32({3}, {NAN, INFINITY, -INFINITY})}}, Tolerance{})[0];
  CHECK(r.passed);
  CHECK(r.max_abs_error == 0);
  r = compare_outputs(TensorMap{{"y", f32({1}, {INFINITY})}}, TensorMap{{"y", f32({1}, {-INFINITY})}}, Tolerance{})[0];
  CHECK_FALSE(r.passed);
}

// ---- the default tolerance and what validate() refuses: hand values.

TEST_CASE("default_atol: 1e-5 * min(1, scale), floored at the dtype's smallest normal") {
  CHECK(default_atol(DataType::Float32, 1e-16) == doctest::Approx(1e-21).epsilon(1e-12));
  CHECK(default_atol(DataType::Float32, 0.5) == doctest::Approx(5e-6).epsilon(1e-12));
  CHECK(default_atol(DataType::Float32, 1.0) == 1e-5);
  CHECK(default_atol(DataType::Float32, 1000.0) == 1e-5);  // the former fixed default at and above unit scale
  CHECK(default_atol(DataType::Float32, 0.0) == std::numeric_limits<float>::min());  // 2^-126
  CHECK(default_atol(DataType::Float64, 0.0) == std::numeric_limits<double>::min());  // 2^-1022
  CHECK(default_atol(DataType::Float16, 1e-3) == 6.103515625e-05);  // 2^-14 > 1e-8
  CHECK(default_atol(DataType::BFloat16, 0.0) == std::numeric_limits<float>::min());
}

TEST_CASE("compare_outputs: tiny expected values are not passed by a fixed atol, an atol given is applied as given") {
  const TensorMap e{{"y", f32({2}, {1e-16f, 2e-16f})}};
  // 0 and 3e-16: off by 1e-16 (100%) and 1e-16 (50%), both under the former fixed atol 1e-5.
  const TensorMap wrong{{"y", f32({2}, {0.0f, 3e-16f})}};
  auto r = compare_outputs(wrong, e, Tolerance{})[0];
  CHECK_FALSE(r.passed);
  // S = max|e| = 2e-16: atol 1e-5 * 2e-16 = 2e-21.
  CHECK(r.atol == doctest::Approx(2e-21).epsilon(1e-6));
  // One float32 step above each (2^-77 and 2^-76 apart): within rtol 1e-4 * |e|.
  const TensorMap close{{"y", f32({2}, {std::nextafter(1e-16f, 1.0f), std::nextafter(2e-16f, 1.0f)})}};
  CHECK(compare_outputs(close, e, Tolerance{})[0].passed);
  // An explicit atol is absolute: 1e-5 admits the wrong values, as numpy.allclose would.
  Tolerance given;
  given.atol = 1e-5;
  auto g = compare_outputs(wrong, e, given)[0];
  CHECK(g.passed);
  CHECK(g.atol == 1e-5);
  // Unit-scale outputs keep the former default: 1 + 1.5e-5 is within 1e-5 + 1e-4 * 1.
  CHECK(compare_outputs(TensorMap{{"y", f32({1}, {1.000015f})}}, TensorMap{{"y", f32({1}, {1.0f})}}, Tolerance{})[0].passed);
  // All-zero expected: only differences below float32's smallest normal (2^-126) pass.
  CHECK_FALSE(compare_outputs(TensorMap{{"y", f32({1}, {1e-30f})}}, TensorMap{{"y", f32({1}, {0.0f})}}, Tolerance{})[0].passed);
  CHECK(compare_outputs(TensorMap{{"y", f32({1}, {1e-39f})}}, TensorMap{{"y", f32({1}, {0.0f})}}, Tolerance{})[0].passed);
}

TEST_CASE("validate(): nothing to compare with is refused, a lone backend other than cpu is compared with cpu") {
  Graph g;
  TensorType t{DataType::Float32, {2}, false, std::nullopt};
  g.outputs.push_back(g.add_value(Value{"y", t, std::nullopt, {}}));
  register_backend(std::make_shared<FixedBackend>("cpu", 2.0f));
  register_backend(std::make_shared<FixedBackend>("stub_far", 3.0f));
  const std::vector<std::string> cpu{"cpu"};
  // One backend and no expected outputs: one side of a comparison short (nnbridge.invalid.402).
  CHECK(test::thrown_id([&] { validate(g, {}, cpu, Tolerance{}); }) == ErrorId::Arity);
  const std::vector<std::string> twice{"cpu", "cpu"};
  CHECK(test::thrown_id([&] { validate(g, {}, twice, Tolerance{}); }) == ErrorId::DuplicateName);
  // With expected outputs a lone cpu is fine: 2.0 against 2.0.
  TensorMap expected{{"y", f32({2}, {1.0f, 2.0f})}};
  CHECK(validate(g, {}, cpu, Tolerance{}, &expected).passed());
  // stub_far (3.0) alone is compared with cpu (2.0): it fails by 1.0.
  const std::vector<std::string> far{"stub_far"};
  ValidationReport r = validate(g, {}, far, Tolerance{});
  REQUIRE(r.outputs.size() == 1);
  CHECK(r.outputs[0].backend == "stub_far");
  CHECK_FALSE(r.passed());
  CHECK(r.outputs[0].max_abs_error == doctest::Approx(1.0));
}
