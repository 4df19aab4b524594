// validate(): run one graph on several backends and compare outputs (docs/architecture.md "Backends").
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "nnbridge/error.h"
#include "nnbridge/exec.h"

namespace nnbridge {

namespace {

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string t = "[";
  for (std::size_t i = 0; i < shape.size(); ++i) t += (i ? ", " : "") + std::to_string(shape[i]);
  return t + "]";
}

std::vector<double> raw_values(const HostTensor& t) {
  TensorType plain = t.type();
  plain.quantization.reset();
  plain.dtype = storage_type(plain.dtype);
  return HostTensor::from_buffer(plain, t.buffer()).to_double();
}

template <class Bits, class F>
uint64_t max_ulp_bits(const HostTensor& a, const HostTensor& e, F distance) {
  auto x = a.values<Bits>(), y = e.values<Bits>();
  uint64_t m = 0;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) m = std::max<uint64_t>(m, distance(x[i], y[i]));
  return m;
}

// OutputReport::max_ulp: floats in their own units, every other type in storage integers
// (`av`/`ev` as to_double() gives them, or raw storage integers for quantized types).
uint64_t max_ulp(const HostTensor& a, const HostTensor& e, const std::vector<double>& av, const std::vector<double>& ev) {
  switch (storage_type(a.dtype())) {
    case DataType::Float32: return max_ulp_bits<float>(a, e, [](float x, float y) { return ulp_distance(x, y); });
    case DataType::Float64: return max_ulp_bits<double>(a, e, [](double x, double y) { return ulp_distance(x, y); });
    case DataType::Float16: return max_ulp_bits<uint16_t>(a, e, ulp_distance_float16);
    case DataType::BFloat16: return max_ulp_bits<uint16_t>(a, e, ulp_distance_bfloat16);
    default: break;
  }
  const bool quant = is_quantized(a.dtype()) || is_quantized(e.dtype());
  const std::vector<double> x = quant ? raw_values(a) : av, y = quant ? raw_values(e) : ev;
  uint64_t m = 0;
  for (std::size_t i = 0; i < x.size() && i < y.size(); ++i) {
    // Exact up to 2^53 (to_double()); larger int64 differences are rounded, and fail anyway.
    const double d = std::fabs(x[i] - y[i]);
    m = std::max<uint64_t>(m, d >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(d));
  }
  return m;
}

OutputReport compare_one(const std::string& name, const HostTensor& a, const HostTensor& e_in, const Tolerance& tol) {
  OutputReport r;
  // Expected values of a quantized output often come as plain storage integers (an .npy file
  // has no quantized dtypes): read them with the actual output's quantization.
  HostTensor e = e_in;
  if (is_quantized(a.dtype()) && !is_quantized(e_in.dtype()) && storage_type(a.dtype()) == e_in.dtype() &&
      a.shape() == e_in.shape())
    e = HostTensor::from_buffer(a.type(), e_in.buffer());
  r.output = name;
  if (a.shape() != e.shape()) {
    r.message = "shape " + shape_text(a.shape()) + " differs from the expected " + shape_text(e.shape());
    return r;
  }
  if (storage_type(a.dtype()) != storage_type(e.dtype())) {
    r.message = "dtype " + std::string(to_string(a.dtype())) + " differs from the expected " +
                std::string(to_string(e.dtype()));
    return r;
  }
  const bool quant = is_quantized(a.dtype()) || is_quantized(e.dtype());
  const bool floating = is_floating(a.dtype());
  std::vector<double> av = a.to_double(), ev = e.to_double();
  if (floating && !quant) {
    double scale = 0;
    for (double v : ev)
      if (std::isfinite(v)) scale = std::max(scale, std::fabs(v));
    r.atol = tol.atol ? *tol.atol : default_atol(e.dtype(), scale);
  }
  bool ok = true;
  for (std::size_t i = 0; i < av.size(); ++i) {
    double d = av[i] == ev[i] ? 0.0 : std::fabs(av[i] - ev[i]);  // inf == inf, as numpy.testing.assert_allclose
    if (std::isnan(av[i]) != std::isnan(ev[i])) d = INFINITY;
    if (std::isnan(av[i]) && std::isnan(ev[i])) continue;  // NaN == NaN (assert_allclose's equal_nan)
    r.max_abs_error = std::max(r.max_abs_error, d);
    if (ev[i] != 0) r.max_rel_error = std::max(r.max_rel_error, d / std::fabs(ev[i]));
    if (floating && !quant && !(d <= r.atol + tol.rtol * std::fabs(ev[i]))) ok = false;
    if ((std::isinf(av[i]) || std::isinf(ev[i])) && av[i] != ev[i]) ok = false;  // no tolerance reaches infinity
    if (!floating && !quant && d != 0) ok = false;
  }
  if (quant) {
    std::vector<double> aq = raw_values(a), eq = raw_values(e);
    for (std::size_t i = 0; i < aq.size(); ++i)
      r.max_steps = std::max(r.max_steps, static_cast<int64_t>(std::fabs(aq[i] - eq[i])));
    ok = r.max_steps <= tol.quantized_steps;
  }
  r.max_ulp = max_ulp(a, e, av, ev);
  r.passed = ok;
  if (!ok) r.message = "values differ beyond the tolerance";
  return r;
}

}  // namespace

double default_atol(DataType t, double scale) {
  double floor = 0;
  switch (t) {
    case DataType::Float32:
    case DataType::BFloat16: floor = std::numeric_limits<float>::min(); break;
    case DataType::Float64: floor = std::numeric_limits<double>::min(); break;
    case DataType::Float16: floor = 6.103515625e-05; break;  // 2^-14
    default: break;
  }
  const double s = std::isfinite(scale) ? std::min(1.0, std::fabs(scale)) : 1.0;
  return std::max(kDefaultAtolFactor * s, floor);
}

bool ValidationReport::passed() const {
  if (outputs.empty()) return false;
  for (const auto& o : outputs)
    if (!o.passed) return false;
  return true;
}

std::vector<OutputReport> compare_outputs(const TensorMap& actual, const TensorMap& expected, const Tolerance& tol,
                                          std::string_view backend) {
  std::vector<OutputReport> out;
  for (const auto& [name, e] : expected) {
    auto it = actual.find(name);
    OutputReport r;
    if (it == actual.end()) {
      r.output = name;
      r.message = "no output named \"" + name + "\"";
    } else {
      r = compare_one(name, it->second, e, tol);
    }
    r.backend = std::string(backend);
    out.push_back(std::move(r));
  }
  return out;
}

ValidationReport validate(const Graph& g, const TensorMap& inputs, std::span<const std::string> backends,
                          const Tolerance& tol, const TensorMap* expected, const BackendOptions& options) {
  if (backends.empty()) throw Error(ErrorId::Arity, "validate() needs at least one backend");
  for (std::size_t i = 0; i < backends.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (backends[i] == backends[j])
        throw Error(ErrorId::DuplicateName, "validate(): backend \"" + backends[i] + "\" is named twice");
  // One backend and no expected outputs: compared with itself it would always pass.
  std::vector<std::string> with_cpu;
  if (!expected && backends.size() == 1) {
    if (backends[0] == "cpu")
      throw Error(ErrorId::Arity,
                  "validate(): nothing to compare with: give expected outputs or a second backend");
    with_cpu = {"cpu", backends[0]};
    backends = with_cpu;
  }
  ValidationReport report;
  TensorMap reference;
  if (expected) reference = *expected;
  // Without expected outputs the first backend is the reference: its outputs are compared with
  // nothing (a comparison with itself could not fail), and when it fails the others have
  // nothing to be compared with either.
  std::string reference_failure;
  for (std::size_t b = 0; b < backends.size(); ++b) {
    const std::string& name = backends[b];
    const bool is_reference = !expected && b == 0;
    TensorMap outputs;
    std::string failure;
    try {
      auto backend = find_backend(name);
      if (!backend) throw Error(ErrorId::BackendOther, "no backend named \"" + name + "\"");
      outputs = backend->prepare(g, options)->run(inputs);
    } catch (const std::exception& e) {
      failure = e.what();
    }
    if (failure.empty() && !is_reference && !reference_failure.empty())
      failure = "no reference outputs: backend " + backends[0] + " failed (" + reference_failure + ")";
    else if (!failure.empty() && is_reference)
      reference_failure = failure;
    if (!failure.empty()) {
      for (ValueId id : g.outputs) {
        OutputReport r;
        r.output = id < g.values.size() ? g.values[id].name : std::string();
        r.backend = name;
        r.message = failure;
        report.outputs.push_back(std::move(r));
      }
      continue;
    }
    if (is_reference) {
      reference = std::move(outputs);
      continue;
    }
    auto reports = compare_outputs(outputs, reference, tol, name);
    report.outputs.insert(report.outputs.end(), reports.begin(), reports.end());
  }
  return report;
}

}  // namespace nnbridge
