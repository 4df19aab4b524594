// Fuzz harness for running a graph on the `cpu` backend (cpu_ref/): IR JSON text -> from_json()
// -> check() without errors -> an input per graph input, filled with a fixed pattern -> prepare()
// -> run() twice. An nnbridge::Error from prepare or run is the expected answer to a graph the
// backend refuses; anything else is a finding, and so is a run that breaks Plan::run's contract
// (an output missing or not of the plan's output type) or two runs of one plan that disagree
// (exec.h: a plan is immutable; with one thread the kernels are deterministic).
//
// Graphs are skipped unless every value's type is fully known (dtype, rank, dims) once each
// node's outputs are settled as the backends settle them (op_schema.h infer_types and
// resolve_output_types, in topological order), and all values hold at most kMaxElements
// elements together: the bound must hold before prepare() plans the memory, and it keeps the
// work of one contraction (which grows with the product of its operands' sizes) well inside
// libFuzzer's 10 s per input.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "harness.h"
#include "nnbridge/check.h"
#include "nnbridge/cpu_ref.h"
#include "nnbridge/exec.h"
#include "nnbridge/json.h"
#include "nnbridge/op_schema.h"
#include "nnbridge/order.h"

using namespace nnbridge;

namespace {

constexpr int64_t kMaxElements = int64_t{1} << 16;

// Element i of every input is (i % 7) - 3 in the input's dtype (storage integers for quantized
// types; float16 and bfloat16 as their bit patterns; bool as i % 7 > 3).
void put(std::byte* at, DataType t, int v) {
  auto store = [at](auto x) { std::memcpy(at, &x, sizeof x); };
  switch (storage_type(t)) {
    case DataType::Float32: store(static_cast<float>(v)); break;
    case DataType::Float64: store(static_cast<double>(v)); break;
    case DataType::Float16: {
      // IEEE binary16 of -3..3: sign, exponent 15 + e, 10 mantissa bits.
      static constexpr uint16_t kHalf[] = {0xC200, 0xC000, 0xBC00, 0x0000, 0x3C00, 0x4000, 0x4200};
      store(kHalf[v + 3]);
      break;
    }
    case DataType::BFloat16: {
      const float f = static_cast<float>(v);
      uint32_t bits;
      std::memcpy(&bits, &f, sizeof bits);
      store(static_cast<uint16_t>(bits >> 16));  // exact: small integers need no rounding
      break;
    }
    case DataType::Int8: store(static_cast<int8_t>(v)); break;
    case DataType::Int16: store(static_cast<int16_t>(v)); break;
    case DataType::Int32: store(static_cast<int32_t>(v)); break;
    case DataType::Int64: store(static_cast<int64_t>(v)); break;
    case DataType::UInt8: store(static_cast<uint8_t>(v)); break;
    case DataType::UInt16: store(static_cast<uint16_t>(v < 0 ? -v : v)); break;
    case DataType::UInt32: store(static_cast<uint32_t>(v < 0 ? -v : v)); break;
    case DataType::UInt64: store(static_cast<uint64_t>(v < 0 ? -v : v)); break;
    case DataType::Bool: store(static_cast<uint8_t>(v > 0)); break;
    default: break;  // Undefined: element_size 0, nothing to write
  }
}

HostTensor pattern(const TensorType& type) {
  const std::size_t n = static_cast<std::size_t>(*type.element_count());
  const std::size_t size = element_size(type.dtype);
  std::vector<std::byte> bytes(n * size);
  for (std::size_t i = 0; i < n; ++i) put(bytes.data() + i * size, type.dtype, static_cast<int>(i % 7) - 3);
  return HostTensor::owned(type, std::move(bytes));
}

// `g` with every node's output types settled as prepare() settles them; false when one cannot be.
bool settle_types(Graph& g) {
  return fuzz::clean([&] {
    for (const std::size_t i : topological_order(g)) {
      std::optional<std::vector<TensorType>> inferred;
      std::string error;
      try {
        inferred = infer_types(g, i);
      } catch (const Error& e) {
        error = e.message();
      }
      resolve_output_types(g, i, inferred, error, "node " + std::to_string(i), "nodes[" + std::to_string(i) + "]");
    }
  });
}

bool small_and_known(const Graph& g) {
  int64_t total = 0;
  for (const Value& v : g.values) {
    if (!v.type.fully_known()) return false;
    const auto n = v.type.element_count();
    if (!n || *n > kMaxElements - total) return false;
    total += *n;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
  static const auto backend = cpu_ref::backend();
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Graph g;
  if (!fuzz::clean([&] { g = from_json(text); })) return 0;
  for (const Issue& issue : check(g))
    if (issue.severity == Issue::Severity::Error) return 0;
  Graph settled = g;
  if (!settle_types(settled) || !small_and_known(settled)) return 0;
  TensorMap inputs;
  for (ValueId id : g.inputs) inputs.emplace(g.values[id].name, pattern(g.values[id].type));
  BackendOptions options;
  options.threads = 1;
  std::unique_ptr<Plan> plan;
  if (!fuzz::clean([&] { plan = backend->prepare(g, options); })) return 0;
  TensorMap first;
  if (!fuzz::clean([&] { first = plan->run(inputs); })) return 0;
  for (const auto& [name, type] : plan->output_types()) {
    auto it = first.find(name);
    if (it == first.end()) fuzz::finding("cpu run", "no tensor for graph output '" + name + "'");
    if (!(it->second.type().dtype == type.dtype && it->second.shape() == type.shape))
      fuzz::finding("cpu run", "graph output '" + name + "' is " + fuzz::describe(it->second.type()) +
                                   ", the plan says " + fuzz::describe(type));
  }
  TensorMap second;
  fuzz::must("run the cpu plan a second time", [&] { second = plan->run(inputs); });
  for (const auto& [name, tensor] : first) {
    auto it = second.find(name);
    if (it == second.end()) fuzz::finding("cpu run twice", "the second run has no '" + name + "'");
    fuzz::expect_same_tensor(tensor, it->second, "cpu run twice, output '" + name + "'");
  }
  fuzz::completed();
  return 0;
}
